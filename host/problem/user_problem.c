/* A user's own problem: reading the options (and the problem file) into
 * parsed expressions, binding them to a mesh, and the host's evaluation of
 * them (the hdg_user_* functions cl/fem/problems.h calls on the host).  The
 * option syntax is docs/problems.md's. */
#include "problem/user_problem.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "fem/hdg.h"
#include "problem/problem_file.h"

const char *const hdg_user_problem_options[] = {HDG_USER_PROBLEM_OPTION_NAMES, NULL};

static const char *const boundary_vars[] = {"x", "y", "z", "nx", "ny", "nz", "t"};
static const char *const integrand_vars[] = {"x", "y", "z", "u", "ux", "uy", "uz", "qx", "qy", "qz"};

bool hdg_user_problem_requested(hdgcl_options opts) {
  const char *name;
  if (!opts) return false;
  if (hdgcl_options_has(opts, "problem-file")) return true;
  if (hdgcl_options_get_string(opts, "problem", "", &name) != HDGCL_SUCCESS) return false;
  return strcmp(name, "user") == 0;
}

/* The value of key: the option if given, else the problem file's, else NULL. */
typedef struct sources {
  hdgcl_options opts, file;
  const char *file_name;
} sources;

static const char *lookup(const sources *src, const char *key, char *what, size_t n) {
  const char *v = NULL;
  if (hdgcl_options_has(src->opts, key)) {
    hdgcl_options_get_string(src->opts, key, "", &v);
    snprintf(what, n, "--%s", key);
    return v;
  }
  if (src->file && hdgcl_options_has(src->file, key)) {
    hdgcl_options_get_string(src->file, key, "", &v);
    snprintf(what, n, "%s: %s", src->file_name, key);
    return v;
  }
  return NULL;
}

/* Splits text at `sep` outside parentheses and brackets (a tensor kappa's
 * [[..], [..]]) into at most max pieces (copied, trimmed, into buf,
 * NUL-separated); returns the count or -1 if too many. */
static int split(const char *text, char sep, char *buf, size_t bufsize, char **pieces, int max) {
  snprintf(buf, bufsize, "%s", text);
  int n = 0, depth = 0;
  char *start = buf;
  for (char *p = buf;; p++) {
    if (*p == '(' || *p == '[') depth++;
    if (*p == ')' || *p == ']') depth--;
    if ((*p == sep && depth == 0) || *p == '\0') {
      bool end = *p == '\0';
      *p = '\0';
      if (n == max) return -1;
      while (isspace((unsigned char)*start)) start++;
      char *e = start + strlen(start);
      while (e > start && isspace((unsigned char)e[-1])) *--e = '\0';
      pieces[n++] = start;
      if (end) break;
      start = p + 1;
    }
  }
  return n;
}

static int parse(hdg_user_problem *up, const char *text, const char *what, bool integrand,
                 hdg_expr **e) {
  hdg_expr_symbols sym = {integrand ? USER_NUM_INTEGRAND_VARS : USER_NUM_BOUNDARY_VARS,
                          integrand ? integrand_vars : boundary_vars, up->num_constants, NULL, NULL};
  const char *names[HDG_USER_MAX_CONSTANTS];
  for (int i = 0; i < up->num_constants; i++) names[i] = up->constant_names[i];
  sym.constant_names = names;
  sym.constant_values = up->constant_values;
  return hdg_expr_parse(text, what, &sym, e);
}

/* An expression of x, y, z only (coefficients, sources). */
static int parse_field(hdg_user_problem *up, const char *text, const char *what, hdg_expr **e) {
  HDGCL_TRY(parse(up, text, what, false, e));
  for (int v = USER_NX; v <= USER_NZ; v++)
    if (hdg_expr_uses(*e, v))
      return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                         "%s: '%s' uses the normal %s, which only boundary data have", what, text,
                         boundary_vars[v]);
  return HDGCL_SUCCESS;
}

static int field_parser(void *up, const char *text, const char *what, hdg_expr **e) {
  return parse_field(up, text, what, e);
}

/* kappa(u) (docs/nonlinear.md): a scalar kappa that uses u is parsed as an
 * expression of x, y, z, u; *nonlinear tells whether it does (then kappa_u and
 * its derivative dkappa_u are set, kappa_u's text refused where it is a
 * matrix or fails to parse is left to parse_kappa's message). */
static const char *const kappa_u_vars[] = {"x", "y", "z", "u"};
enum { KAPPA_U_VAR = 3 };
static int parse_kappa_u(hdg_user_problem *up, const char *text, const char *what, bool *nonlinear) {
  *nonlinear = false;
  hdg_expr_symbols sym = {4, kappa_u_vars, up->num_constants, NULL, up->constant_values};
  const char *names[HDG_USER_MAX_CONSTANTS];
  for (int i = 0; i < up->num_constants; i++) names[i] = up->constant_names[i];
  sym.constant_names = names;
  hdg_expr *e = NULL;
  if (hdg_expr_parse(text, what, &sym, &e) != HDGCL_SUCCESS) return HDGCL_SUCCESS; /* not kappa(u) */
  if (!hdg_expr_uses(e, KAPPA_U_VAR)) {
    hdg_expr_destroy(&e);
    return HDGCL_SUCCESS;
  }
  hdg_expr_destroy(&up->kappa_u);
  hdg_expr_destroy(&up->dkappa_u);
  up->kappa_u = e;
  HDGCL_TRY(hdg_expr_derivative(e, KAPPA_U_VAR, &up->dkappa_u)); /* symbolic, (N5)'s kappa' */
  up->problem.nonlinear = true;
  *nonlinear = true;
  return HDGCL_SUCCESS;
}

double hdg_user_kappa_u(const hdg_user_problem *up, double x, double y, double z, double u,
                        double *dk) {
  double v[4] = {x, y, z, u};
  *dk = hdg_expr_eval(up->dkappa_u, v);
  return hdg_expr_eval(up->kappa_u, v);
}

/* kappa: one expression or a matrix (user_kappa.c); a matrix makes the
 * problem's kappa a tensor. */
static int parse_kappa(hdg_user_problem *up, const char *text, const char *what, hdg_user_kappa *k) {
  hdg_user_kappa_destroy(k); /* given twice: the last one */
  HDGCL_TRY(hdg_user_kappa_read(text, what, field_parser, up, k));
  if (k->rows) up->tensor_kappa = true;
  return HDGCL_SUCCESS;
}

/* A vector of 1..3 expressions separated by commas. */
static int parse_vector(hdg_user_problem *up, const char *text, const char *what, bool normal,
                        hdg_expr **e, int *count) {
  char buf[4096], *pieces[3];
  int n = split(text, ',', buf, sizeof buf, pieces, 3);
  if (n < 1 || (n == 1 && !*pieces[0]))
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "%s: '%s': expected 1 to 3 expressions separated by commas",
                       what, text);
  if (n < 0)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "%s: '%s': more than 3 components", what, text);
  for (int i = 0; i < n; i++) {
    char w[300];
    snprintf(w, sizeof w, "%s (component %d)", what, i + 1);
    if (normal)
      HDGCL_TRY(parse(up, pieces[i], w, false, &e[i]));
    else
      HDGCL_TRY(parse_field(up, pieces[i], w, &e[i]));
  }
  *count = n;
  return HDGCL_SUCCESS;
}

static int read_constants(hdg_user_problem *up, const sources *src) {
  char what[300];
  const char *text = lookup(src, "constants", what, sizeof what);
  if (!text || !*text) return HDGCL_SUCCESS;
  char buf[8192], *pieces[HDG_USER_MAX_CONSTANTS];
  int n = split(text, ',', buf, sizeof buf, pieces, HDG_USER_MAX_CONSTANTS);
  if (n < 0)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "%s: more than %d constants", what,
                       HDG_USER_MAX_CONSTANTS);
  const char *names[HDG_USER_MAX_CONSTANTS], *texts[HDG_USER_MAX_CONSTANTS];
  for (int i = 0; i < n; i++) {
    char *eq = strchr(pieces[i], '=');
    if (!eq)
      return hdgcl_error(HDGCL_ERROR_ARGUMENT, "%s: '%s': expected NAME = EXPRESSION", what, pieces[i]);
    *eq = '\0';
    char *name = pieces[i], *e = name + strlen(name);
    while (e > name && isspace((unsigned char)e[-1])) *--e = '\0';
    if (strlen(name) >= sizeof up->constant_names[0])
      return hdgcl_error(HDGCL_ERROR_ARGUMENT, "%s: constant name '%s' is too long", what, name);
    names[i] = name;
    texts[i] = eq + 1;
  }
  HDGCL_TRY(hdg_expr_define_constants(n, names, texts, what, up->constant_values));
  for (int i = 0; i < n; i++) snprintf(up->constant_names[i], sizeof up->constant_names[i], "%s", names[i]);
  up->num_constants = n;
  return HDGCL_SUCCESS;
}

static const char *const kind_names[] = {"dirichlet", "neumann", "robin", "displacement", "traction",
                                         "flux", NULL};

/* Per-component elasticity data (docs/problems.md (P4)): ux, uy, uz give a
 * displacement component, tx, ty, tz a traction component. */
static const char *const component_names[] = {"ux", "uy", "uz", "tx", "ty", "tz"};

/* True if text is "NAME = ..." with NAME a component name (not "=="). */
static bool is_components(const char *text) {
  while (isspace((unsigned char)*text)) text++;
  for (int i = 0; i < 6; i++) {
    if (strncmp(text, component_names[i], 2) != 0) continue;
    const char *p = text + 2;
    while (isspace((unsigned char)*p)) p++;
    if (*p == '=' && p[1] != '=') return true;
  }
  return false;
}

/* True if text is the word `word` (surrounding blanks and one trailing ':' allowed). */
static bool is_word(const char *text, const char *word) {
  while (isspace((unsigned char)*text)) text++;
  size_t n = strlen(word);
  if (strncmp(text, word, n) != 0) return false;
  text += n;
  while (isspace((unsigned char)*text)) text++;
  if (*text == ':') text++;
  while (isspace((unsigned char)*text)) text++;
  return *text == '\0';
}

/* "ux = G, ty = G, ...": the components named are fixed (u) or loaded (t);
 * the others are traction-free. */
static int read_components(hdg_user_problem *up, const char *text, const char *what,
                           hdg_user_condition *bc) {
  char buf[4096], *items[6];
  int n = split(text, ',', buf, sizeof buf, items, 6);
  if (n < 0)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "%s: '%s': more than 6 components", what, text);
  bc->kind = USER_BC_COMPONENTS;
  int given = 0;
  for (int i = 0; i < n; i++) {
    char *eq = strchr(items[i], '=');
    int k = -1;
    if (eq) {
      *eq = '\0';
      char *name = items[i], *e = name + strlen(name);
      while (e > name && isspace((unsigned char)e[-1])) *--e = '\0';
      for (int j = 0; j < 6; j++)
        if (strcmp(name, component_names[j]) == 0) k = j;
    }
    if (k < 0)
      return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                         "%s: '%s': expected ux, uy, uz (displacement) or tx, ty, tz (traction) = "
                         "EXPRESSION, separated by commas",
                         what, text);
    int c = k % 3;
    if (given & (1 << c))
      return hdgcl_error(HDGCL_ERROR_ARGUMENT, "%s: '%s': component %c given twice", what, text,
                         "xyz"[c]);
    given |= 1 << c;
    if (k < 3) bc->fixed |= 1 << c;
    if (c + 1 > bc->num_values) bc->num_values = c + 1;
    char w[400];
    snprintf(w, sizeof w, "%s (%s)", what, component_names[k]);
    HDGCL_TRY(parse(up, eq + 1, w, false, &bc->value[c]));
  }
  return HDGCL_SUCCESS;
}

/* "KIND: VALUE" (or "KIND" alone where the exact solution gives the data);
 * elasticity also "roller" (or "symmetry") and "ux = G, ty = G, ...". */
static int read_condition(hdg_user_problem *up, const char *text, const char *what,
                          hdg_user_condition *bc) {
  bool vector = up->problem.vector;
  bool roller = is_word(text, "roller") || is_word(text, "symmetry");
  if (roller || is_components(text)) {
    if (!vector)
      return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                         "%s: '%s' is an elasticity condition (scalar: dirichlet, neumann (or flux) "
                         "or robin)",
                         what, text);
    if (!roller) return read_components(up, text, what, bc);
    bc->kind = USER_BC_COMPONENTS;
    bc->roller = true;
    return HDGCL_SUCCESS;
  }
  const char *colon = strchr(text, ':');
  char kind[32];
  size_t len = colon ? (size_t)(colon - text) : strlen(text);
  while (len && isspace((unsigned char)text[len - 1])) len--;
  while (len && isspace((unsigned char)*text)) text++, len--;
  if (len >= sizeof kind) len = sizeof kind - 1;
  memcpy(kind, text, len);
  kind[len] = '\0';
  int k = -1;
  for (int i = 0; kind_names[i]; i++)
    if (strcmp(kind, kind_names[i]) == 0) k = i;
  if (strcmp(kind, "roller") == 0 || strcmp(kind, "symmetry") == 0)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                       "%s: '%s' takes no value (u . n = 0; for other data give the components, "
                       "e.g. 'ux = 0.1')",
                       what, kind);
  if (k < 0 || (vector && (k == 0 || k == 1 || k == 2 || k == 5)) || (!vector && (k == 3 || k == 4)))
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "%s: unknown boundary condition '%s' (%s)", what, kind,
                       vector ? "elasticity: displacement, traction, roller (or symmetry), or "
                                "components 'ux = G, ty = G, ...'"
                              : "scalar: dirichlet, neumann (or flux) or robin");
  bc->kind = (k == 0 || k == 3) ? USER_BC_DIRICHLET : k == 2 ? USER_BC_ROBIN : USER_BC_NEUMANN;
  const char *value = colon ? colon + 1 : "";
  while (isspace((unsigned char)*value)) value++;
  if (!*value) {
    if (!up->has_exact || bc->kind == USER_BC_ROBIN)
      return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                         "%s: '%s' needs a value ('%s: EXPRESSION'%s)", what, kind, kind,
                         bc->kind == USER_BC_ROBIN ? ": ALPHA, G" : ", or an exact solution");
    return HDGCL_SUCCESS; /* from the exact solution */
  }
  if (bc->kind == USER_BC_ROBIN) {
    hdg_expr *pair[3] = {NULL, NULL, NULL};
    int n = 0;
    int status = parse_vector(up, value, what, true, pair, &n);
    /* bc owns what was parsed, also when a later component fails (freed with
     * up; a bad G leaked ALPHA, found by tests/fuzz/fuzz_problem_file); a
     * third component is refused below and freed here. */
    bc->alpha = pair[0];
    bc->value[0] = pair[1];
    hdg_expr_destroy(&pair[2]);
    HDGCL_TRY(status);
    if (n != 2)
      return hdgcl_error(HDGCL_ERROR_ARGUMENT, "%s: robin needs 'robin: ALPHA, G' (got '%s')", what,
                         value);
    for (int v = USER_NX; v <= USER_NZ; v++)
      if (hdg_expr_uses(bc->alpha, v))
        return hdgcl_error(HDGCL_ERROR_ARGUMENT, "%s: the Robin coefficient may not use the normal", what);
    return HDGCL_SUCCESS;
  }
  int n = 0;
  HDGCL_TRY(parse_vector(up, value, what, true, bc->value, &n));
  bc->num_values = n;
  if (!vector && n != 1)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "%s: '%s' has %d components, a scalar problem takes 1",
                       what, value, n);
  if (vector && n == 1) /* one value for every component */
    for (int c = 1; c < 3; c++) HDGCL_TRY(hdg_expr_copy(bc->value[0], &bc->value[c]));
  return HDGCL_SUCCESS;
}

static int read_conditions(hdg_user_problem *up, const sources *src) {
  char what[300], w[400];
  const char *text = lookup(src, "bc", what, sizeof what);
  if (text && *text) {
    char buf[16384], *pieces[HDG_USER_MAX_CONDITIONS];
    int n = split(text, ';', buf, sizeof buf, pieces, HDG_USER_MAX_CONDITIONS - 1);
    if (n < 0)
      return hdgcl_error(HDGCL_ERROR_ARGUMENT, "%s: more than %d conditions", what,
                         HDG_USER_MAX_CONDITIONS - 1);
    for (int i = 0; i < n; i++) {
      if (!*pieces[i]) continue;
      hdg_user_condition *bc = &up->conditions[up->num_conditions];
      char *colon = strchr(pieces[i], ':');
      if (!colon)
        return hdgcl_error(HDGCL_ERROR_ARGUMENT, "%s: '%s': expected TAGS: KIND: VALUE", what,
                           pieces[i]);
      *colon = '\0';
      snprintf(bc->tags, sizeof bc->tags, "%s", pieces[i]);
      snprintf(w, sizeof w, "%s (tags %s)", what, bc->tags);
      HDGCL_TRY(read_condition(up, colon + 1, w, bc));
      up->num_conditions++;
    }
  }
  text = lookup(src, "bc-default", what, sizeof what);
  if (text && *text) {
    hdg_user_condition *bc = &up->conditions[up->num_conditions];
    snprintf(bc->tags, sizeof bc->tags, "(default)");
    HDGCL_TRY(read_condition(up, text, what, bc));
    up->num_conditions++;
    up->has_default = true;
  }
  if (up->num_conditions == 0)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                       "%s: no boundary conditions (give --bc 'TAGS: KIND: VALUE; ...' or "
                       "--bc-default 'KIND: VALUE')",
                       up->source);
  return HDGCL_SUCCESS;
}

static int read_regions(hdg_user_problem *up, const sources *src) {
  char what[300], w[400];
  const char *text = lookup(src, "region", what, sizeof what);
  if (!text || !*text) return HDGCL_SUCCESS;
  char buf[16384], *pieces[HDG_USER_MAX_REGIONS];
  int n = split(text, ';', buf, sizeof buf, pieces, HDG_USER_MAX_REGIONS);
  if (n < 0) return hdgcl_error(HDGCL_ERROR_ARGUMENT, "%s: more than %d regions", what, HDG_USER_MAX_REGIONS);
  for (int i = 0; i < n; i++) {
    if (!*pieces[i]) continue;
    hdg_user_region *r = &up->regions[up->num_regions];
    char *colon = strchr(pieces[i], ':');
    if (!colon)
      return hdgcl_error(HDGCL_ERROR_ARGUMENT, "%s: '%s': expected TAG: NAME = EXPRESSION, ...",
                         what, pieces[i]);
    *colon = '\0';
    char *tag = pieces[i], *e = tag + strlen(tag);
    while (e > tag && isspace((unsigned char)e[-1])) *--e = '\0';
    snprintf(r->tag, sizeof r->tag, "%s", tag);
    char buf2[8192], *items[8];
    int m = split(colon + 1, ',', buf2, sizeof buf2, items, 8);
    if (m < 0) return hdgcl_error(HDGCL_ERROR_ARGUMENT, "%s: region %s: too many entries", what, r->tag);
    for (int j = 0; j < m; j++) {
      char *eq = strchr(items[j], '=');
      if (!eq)
        return hdgcl_error(HDGCL_ERROR_ARGUMENT, "%s: region %s: '%s': expected NAME = EXPRESSION",
                           what, r->tag, items[j]);
      *eq = '\0';
      char *name = items[j], *ne = name + strlen(name);
      while (ne > name && isspace((unsigned char)ne[-1])) *--ne = '\0';
      bool kappa = strcmp(name, "kappa") == 0;
      hdg_expr **slot = strcmp(name, "c") == 0        ? &r->c
                        : strcmp(name, "mu") == 0     ? &r->mu
                        : strcmp(name, "lambda") == 0 ? &r->lambda
                                                      : NULL;
      bool ok = up->problem.vector ? (slot == &r->mu || slot == &r->lambda) : (kappa || slot == &r->c);
      if (!ok)
        return hdgcl_error(HDGCL_ERROR_ARGUMENT, "%s: region %s: '%s' is not a coefficient of %s",
                           what, r->tag, name,
                           up->problem.vector ? "elasticity (mu, lambda)" : "the scalar PDE (kappa, c)");
      snprintf(w, sizeof w, "%s (region %s, %s)", what, r->tag, name);
      if (kappa)
        HDGCL_TRY(parse_kappa(up, eq + 1, w, &r->kappa));
      else
        HDGCL_TRY(parse_field(up, eq + 1, w, slot));
    }
    up->num_regions++;
  }
  return HDGCL_SUCCESS;
}

static int read_outputs(hdg_user_problem *up, const sources *src) {
  char what[300], w[400];
  const char *text = lookup(src, "output", what, sizeof what);
  if (!text || !*text) return HDGCL_SUCCESS;
  char buf[16384], *pieces[HDG_USER_MAX_OUTPUTS];
  int n = split(text, ';', buf, sizeof buf, pieces, HDG_USER_MAX_OUTPUTS);
  if (n < 0) return hdgcl_error(HDGCL_ERROR_ARGUMENT, "%s: more than %d outputs", what, HDG_USER_MAX_OUTPUTS);
  for (int i = 0; i < n; i++) {
    if (!*pieces[i]) continue;
    hdg_user_output *o = &up->outputs[up->num_outputs];
    snprintf(o->label, sizeof o->label, "%s", pieces[i]);
    char *colon = strchr(pieces[i], ':');
    char *arg = colon ? colon + 1 : (char *)"";
    if (colon) *colon = '\0';
    char *kind = pieces[i], *ke = kind + strlen(kind);
    while (ke > kind && isspace((unsigned char)ke[-1])) *--ke = '\0';
    while (isspace((unsigned char)*arg)) arg++;
    char *at = strchr(kind, '@'); /* integral@REGION */
    if (at) {
      *at = '\0';
      snprintf(o->tags, sizeof o->tags, "%s", at + 1);
    }
    snprintf(w, sizeof w, "%s ('%s')", what, o->label);
    if (strcmp(kind, "flux") == 0 && !up->problem.vector) {
      o->kind = USER_OUT_FLUX;
    } else if (strcmp(kind, "reaction") == 0 && up->problem.vector) {
      o->kind = USER_OUT_REACTION;
    } else if (strcmp(kind, "integral") == 0) {
      o->kind = USER_OUT_INTEGRAL;
      if (up->problem.vector)
        return hdgcl_error(HDGCL_ERROR_ARGUMENT, "%s: integrals are of the scalar PDE's solution", w);
      HDGCL_TRY(parse(up, arg, w, true, &o->integrand));
    } else if (strcmp(kind, "point") == 0) {
      o->kind = USER_OUT_POINT;
      char b2[1024], *xs[3];
      int m = split(arg, ',', b2, sizeof b2, xs, 3);
      if (m < 2)
        return hdgcl_error(HDGCL_ERROR_ARGUMENT, "%s: expected 'point: X, Y[, Z]'", w);
      for (int k = 0; k < m; k++) {
        char *end;
        o->point[k] = strtod(xs[k], &end);
        if (end == xs[k] || *end || !isfinite(o->point[k]))
          return hdgcl_error(HDGCL_ERROR_ARGUMENT, "%s: '%s' is not a coordinate", w, xs[k]);
      }
    } else if (strcmp(kind, "von-mises") == 0 && up->problem.vector) {
      o->kind = USER_OUT_VON_MISES;
    } else {
      return hdgcl_error(HDGCL_ERROR_ARGUMENT, "%s: unknown output '%s' (%s)", what, kind,
                         up->problem.vector ? "elasticity: reaction: TAGS, point: X, Y[, Z], von-mises"
                                            : "scalar: flux: TAGS, integral[@REGION]: EXPRESSION, "
                                              "point: X, Y[, Z]");
    }
    if (o->kind == USER_OUT_FLUX || o->kind == USER_OUT_REACTION) {
      if (!*arg) return hdgcl_error(HDGCL_ERROR_ARGUMENT, "%s: expected '%s: TAGS'", w, kind);
      snprintf(o->tags, sizeof o->tags, "%s", arg);
    }
    up->num_outputs++;
  }
  return HDGCL_SUCCESS;
}

static int read_exact(hdg_user_problem *up, const sources *src) {
  char what[300];
  const char *text = lookup(src, "exact", what, sizeof what);
  if (!text || !*text) return HDGCL_SUCCESS;
  int n = 0;
  HDGCL_TRY(parse_vector(up, text, what, false, up->exact, &n));
  int want = up->problem.vector ? -1 : 1;
  if (want == 1 && n != 1)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "%s: a scalar problem's exact solution is one expression", what);
  if (up->problem.vector && n < 2)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "%s: the exact displacement needs 2 or 3 components", what);
  up->has_exact = true;
  int nc = up->problem.vector ? n : 1;
  const char *gtext = lookup(src, "exact-grad", what, sizeof what);
  if (gtext && *gtext) {
    char buf[16384], *rows[3];
    int m = split(gtext, ';', buf, sizeof buf, rows, 3);
    if (m != nc)
      return hdgcl_error(HDGCL_ERROR_ARGUMENT, "%s: expected %d row(s) separated by ';' (one per component)",
                         what, nc);
    for (int c = 0; c < nc; c++) {
      int k = 0;
      HDGCL_TRY(parse_vector(up, rows[c], what, false, up->exact_grad[c], &k));
    }
  } else {
    for (int c = 0; c < nc; c++)
      for (int v = 0; v < 3; v++) {
        HDGCL_TRY(hdg_expr_derivative(up->exact[c], v, &up->exact_grad[c][v]));
        char label[512];
        const char *of = hdg_expr_label(up->exact[c]);
        snprintf(label, sizeof label, "d/d%c of %s", "xyz"[v], of ? of : "the exact solution");
        HDGCL_TRY(hdg_expr_set_label(up->exact_grad[c][v], label));
      }
  }
  return HDGCL_SUCCESS;
}

static int read_field(hdg_user_problem *up, const sources *src, const char *key, const char *def,
                      hdg_expr **e) {
  char what[300];
  const char *text = lookup(src, key, what, sizeof what);
  if (!text) {
    text = def;
    snprintf(what, sizeof what, "%s (default)", key);
  }
  return parse_field(up, text, what, e);
}

/* Refuses t in e unless `allowed` (the problem is transient and e is one of
 * the exact solution, the source and the boundary data). */
static int check_time(const hdg_user_problem *up, const hdg_expr *e, const char *what, bool allowed) {
  if (!e || !hdg_expr_uses(e, USER_T)) return HDGCL_SUCCESS;
  if (!up->problem.transient)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                       "%s uses the time t: the problem is steady (give transient = true; "
                       "docs/time.md)",
                       what);
  if (!allowed)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                       "%s uses the time t: only the exact solution, f and the boundary data "
                       "may depend on t (docs/time.md)",
                       what);
  return HDGCL_SUCCESS;
}

/* "transient" and "initial" (docs/time.md), then where the time t may appear. */
static int read_time(hdg_user_problem *up, const sources *src) {
  char what[300];
  const char *text = lookup(src, "transient", what, sizeof what);
  if (text) {
    if (!strcmp(text, "true") || !strcmp(text, "1"))
      up->problem.transient = true;
    else if (strcmp(text, "false") && strcmp(text, "0"))
      return hdgcl_error(HDGCL_ERROR_ARGUMENT, "%s: '%s': expected true or false", what, text);
  }
  text = lookup(src, "initial", what, sizeof what);
  if (text) {
    if (!up->problem.transient)
      return hdgcl_error(HDGCL_ERROR_ARGUMENT, "%s: an initial condition needs transient = true",
                         what);
    HDGCL_TRY(parse_field(up, text, what, &up->initial));
    if (hdg_expr_uses(up->initial, USER_T))
      return hdgcl_error(HDGCL_ERROR_ARGUMENT, "%s: '%s': u at t = 0 cannot depend on t", what, text);
  }
  if (up->problem.transient && up->problem.vector)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                       "transient = true: time stepping solves scalar problems only (pde = scalar)");
  if (up->problem.transient && !up->initial && !up->has_exact)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                       "transient = true: give initial (u at t = 0) or exact (docs/time.md)");
  /* t: in the exact solution, f and the boundary values; nowhere else */
  for (int c = 0; c < 3; c++) {
    HDGCL_TRY(check_time(up, up->exact[c], "exact", !up->problem.vector));
    for (int k = 0; k < 3; k++) HDGCL_TRY(check_time(up, up->exact_grad[c][k], "exact-grad", !up->problem.vector));
    HDGCL_TRY(check_time(up, up->beta[c], "beta", false));
    HDGCL_TRY(check_time(up, up->force[c], "body-force", false));
  }
  HDGCL_TRY(check_time(up, up->f, "f", true));
  HDGCL_TRY(check_time(up, up->c, "c", false));
  HDGCL_TRY(check_time(up, up->mu, "mu", false));
  HDGCL_TRY(check_time(up, up->lambda, "lambda", false));
  HDGCL_TRY(check_time(up, up->kappa.scalar, "kappa", false));
  for (int k = 0; k < 3; k++)
    for (int l = 0; l < 3; l++) HDGCL_TRY(check_time(up, up->kappa.m[k][l], "kappa", false));
  for (int i = 0; i < up->num_conditions; i++) {
    const hdg_user_condition *bc = &up->conditions[i];
    snprintf(what, sizeof what, "the boundary condition on %s", bc->tags[0] ? bc->tags : "the default");
    for (int c = 0; c < 3; c++) HDGCL_TRY(check_time(up, bc->value[c], what, !up->problem.vector));
    HDGCL_TRY(check_time(up, bc->alpha, what, false));
  }
  for (int i = 0; i < up->num_regions; i++) {
    const hdg_user_region *r = &up->regions[i];
    snprintf(what, sizeof what, "region %s", r->tag);
    HDGCL_TRY(check_time(up, r->kappa.scalar, what, false));
    for (int k = 0; k < 3; k++)
      for (int l = 0; l < 3; l++) HDGCL_TRY(check_time(up, r->kappa.m[k][l], what, false));
    HDGCL_TRY(check_time(up, r->c, what, false));
    HDGCL_TRY(check_time(up, r->mu, what, false));
    HDGCL_TRY(check_time(up, r->lambda, what, false));
  }
  return HDGCL_SUCCESS;
}

/* True if the scalar PDE's kappa, c or beta (or a region's) depends on x, y, z. */
static bool coefficients_vary(const hdg_user_problem *up) {
  if (up->problem.vector) return false;
  const hdg_expr *all[5 + 2 * HDG_USER_MAX_REGIONS] = {up->kappa.scalar, up->c};
  int n = 2;
  for (int c = 0; c < 3; c++)
    if (up->beta[c]) all[n++] = up->beta[c];
  for (int i = 0; i < up->num_regions; i++) {
    all[n++] = up->regions[i].kappa.scalar;
    all[n++] = up->regions[i].c;
  }
  for (int i = 0; i < n; i++)
    if (all[i] && !hdg_expr_constant(all[i], NULL)) return true;
  return false;
}

/* "coefficients": points (kappa, c, beta evaluated at every quadrature point:
 * the mapped kernels on every element type) or centroid (one value per
 * element: the affine fast path on simplices).  Default: points where a
 * coefficient varies in space, else centroid (the same values). */
static int read_sampling(hdg_user_problem *up, const sources *src) {
  char what[300];
  const char *t = lookup(src, "coefficients", what, sizeof what);
  bool vary = coefficients_vary(up);
  if (!t && up->tensor_kappa && vary)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                       "%s: kappa is a tensor, taken at each element's centroid, while c or beta "
                       "varies in space: give coefficients = centroid to take c there too (a "
                       "variable beta needs a scalar kappa)", up->source);
  if (!t) {
    up->point_coefficients = vary;
    return HDGCL_SUCCESS;
  }
  if (strcmp(t, "points") != 0 && strcmp(t, "centroid") != 0)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "%s: '%s': expected points or centroid", what, t);
  up->point_coefficients = strcmp(t, "points") == 0;
  if (up->point_coefficients && up->tensor_kappa)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                       "%s: points: a tensor kappa is taken at each element's centroid (points "
                       "needs a scalar kappa)", what);
  if (up->point_coefficients && up->problem.vector)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                       "%s: points: elasticity's mu and lambda are taken at each element's centroid "
                       "(points is for the scalar PDE's kappa, c and beta)", what);
  for (int c = 0; c < 3 && !up->point_coefficients; c++)
    if (up->beta[c] && !hdg_expr_constant(up->beta[c], NULL))
      return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                         "%s: centroid: beta varies in space, which needs coefficients = points "
                         "(the affine kernels take one beta for the whole mesh)", what);
  return HDGCL_SUCCESS;
}

int hdg_user_problem_create(hdgcl_options opts, hdg_user_problem **out) {
  *out = NULL;
  hdg_user_problem *up;
  HDGCL_TRY(hdgcl_calloc(1, sizeof *up, "user problem", &up));
  sources src = {opts, NULL, NULL};
  int status;
  const char *file = NULL;
  HDGCL_TRY_GOTO(status, hdgcl_options_get_string(opts, "problem-file", "", &file), fail);
  snprintf(up->source, sizeof up->source, "%s", *file ? file : "options");
  if (*file) {
    HDGCL_TRY_GOTO(status, hdg_problem_file_read(file, &src.file), fail);
    src.file_name = file;
  }
  if (hdgcl_options_has(opts, "problem")) {
    const char *name;
    hdgcl_options_get_string(opts, "problem", "", &name);
    if (strcmp(name, "user") != 0) {
      status = hdgcl_error(HDGCL_ERROR_ARGUMENT, "--problem %s and --problem-file %s: give one of them",
                           name, file);
      goto fail;
    }
  }
  char what[300];
  const char *pde = lookup(&src, "pde", what, sizeof what);
  if (pde && strcmp(pde, "scalar") != 0 && strcmp(pde, "elasticity") != 0) {
    status = hdgcl_error(HDGCL_ERROR_ARGUMENT, "%s: '%s': expected scalar or elasticity", what, pde);
    goto fail;
  }
  bool vector = pde && strcmp(pde, "elasticity") == 0;
  up->problem = (hdg_problem){{"user", "a user's own problem (docs/problems.md)", 0, "square:8"},
                              PROBLEM_USER, {0}, 0, false, vector, false, false};
  HDGCL_TRY_GOTO(status, read_constants(up, &src), fail);
  HDGCL_TRY_GOTO(status, read_exact(up, &src), fail);
  if (vector) {
    HDGCL_TRY_GOTO(status, read_field(up, &src, "mu", "1", &up->mu), fail);
    HDGCL_TRY_GOTO(status, read_field(up, &src, "lambda", "1", &up->lambda), fail);
    const char *t = lookup(&src, "body-force", what, sizeof what);
    int n = 0;
    HDGCL_TRY_GOTO(status, parse_vector(up, t ? t : "0", t ? what : "body-force (default)", false,
                                        up->force, &n),
                   fail);
    for (int c = n; c < 3; c++)
      HDGCL_TRY_GOTO(status, hdg_expr_copy(up->force[n == 1 ? 0 : c - 1], &up->force[c]), fail);
    if (n == 2) { /* a 2D force: the third component is unused; make it 0 */
      hdg_expr_destroy(&up->force[2]);
      HDGCL_TRY_GOTO(status, parse_field(up, "0", "body-force", &up->force[2]), fail);
    }
    const char *const scalar_only[] = {"kappa", "c", "f", "beta", NULL};
    for (int i = 0; scalar_only[i]; i++)
      if (lookup(&src, scalar_only[i], what, sizeof what)) {
        status = hdgcl_error(HDGCL_ERROR_ARGUMENT, "%s: not a coefficient of elasticity (mu, lambda, body-force)", what);
        goto fail;
      }
  } else {
    const char *kt = lookup(&src, "kappa", what, sizeof what);
    if (!kt) snprintf(what, sizeof what, "kappa (default)");
    bool nonlinear = false;
    if (kt) HDGCL_TRY_GOTO(status, parse_kappa_u(up, kt, what, &nonlinear), fail);
    HDGCL_TRY_GOTO(status, parse_kappa(up, kt && !nonlinear ? kt : "1", what, &up->kappa), fail);
    HDGCL_TRY_GOTO(status, read_field(up, &src, "c", "0", &up->c), fail);
    HDGCL_TRY_GOTO(status, read_field(up, &src, "f", "0", &up->f), fail);
    const char *t = lookup(&src, "beta", what, sizeof what);
    if (t) {
      int n = 0;
      HDGCL_TRY_GOTO(status, parse_vector(up, t, what, false, up->beta, &n), fail);
      for (int c = 0; c < n; c++) {
        /* a variable beta (coefficients = points) is evaluated per point:
         * beta_value, the affine kernels' constant beta, stays 0 */
        bool constant = hdg_expr_constant(up->beta[c], &up->beta_value[c]);
        if (!constant) up->beta_value[c] = 0.0;
        if (!constant || up->beta_value[c] != 0.0) up->problem.nonsymmetric = true;
      }
    }
    const char *const vector_only[] = {"mu", "lambda", "body-force", NULL};
    for (int i = 0; vector_only[i]; i++)
      if (lookup(&src, vector_only[i], what, sizeof what)) {
        status = hdgcl_error(HDGCL_ERROR_ARGUMENT, "%s: a coefficient of elasticity (give pde = elasticity)", what);
        goto fail;
      }
  }
  HDGCL_TRY_GOTO(status, read_conditions(up, &src), fail);
  HDGCL_TRY_GOTO(status, read_regions(up, &src), fail);
  HDGCL_TRY_GOTO(status, read_outputs(up, &src), fail);
  HDGCL_TRY_GOTO(status, read_sampling(up, &src), fail);
  HDGCL_TRY_GOTO(status, read_time(up, &src), fail);
  /* Traction data make the elasticity trace system nonsymmetric (as elasticity-mixed), and so
   * do per-component faces, whose free components are traction rows ((E13), (P4)). */
  for (int i = 0; i < up->num_conditions; i++) {
    int kind = up->conditions[i].kind;
    if (vector && (kind == USER_BC_NEUMANN || kind == USER_BC_COMPONENTS)) up->problem.nonsymmetric = true;
    if (up->conditions[i].kind == USER_BC_ROBIN) up->any_robin = true;
  }
  if (src.file) hdgcl_options_destroy(&src.file);
  *out = up;
  return HDGCL_SUCCESS;
fail:
  if (src.file) hdgcl_options_destroy(&src.file);
  hdg_user_problem_destroy(&up);
  return status;
}

void hdg_user_problem_destroy(hdg_user_problem **upp) {
  hdg_user_problem *up = *upp;
  if (!up) return;
  hdg_user_kappa_destroy(&up->kappa);
  hdg_expr **all[] = {&up->c, &up->f, &up->mu, &up->lambda, &up->kappa_u, &up->dkappa_u};
  for (size_t i = 0; i < sizeof all / sizeof *all; i++) hdg_expr_destroy(all[i]);
  for (int c = 0; c < 3; c++) {
    hdg_expr_destroy(&up->beta[c]);
    hdg_expr_destroy(&up->force[c]);
    hdg_expr_destroy(&up->exact[c]);
    for (int v = 0; v < 3; v++) hdg_expr_destroy(&up->exact_grad[c][v]);
  }
  for (int i = 0; i < HDG_USER_MAX_CONDITIONS; i++) {
    for (int c = 0; c < 3; c++) hdg_expr_destroy(&up->conditions[i].value[c]);
    hdg_expr_destroy(&up->conditions[i].alpha);
  }
  for (int i = 0; i < HDG_USER_MAX_REGIONS; i++) {
    hdg_user_region *r = &up->regions[i];
    hdg_user_kappa_destroy(&r->kappa);
    hdg_expr_destroy(&r->c);
    hdg_expr_destroy(&r->mu);
    hdg_expr_destroy(&r->lambda);
  }
  for (int i = 0; i < HDG_USER_MAX_OUTPUTS; i++) hdg_expr_destroy(&up->outputs[i].integrand);
  hdg_expr_destroy(&up->initial);
  free(up);
  *upp = NULL;
}

/* A rank's part of a distributed solve (host/parallel): faces cut by its
 * partition are tagged HDG_PARTITION_TAG.  Its tags are a subset of the whole
 * mesh's, against which hdgcl_solver_create_mpi checked the problem first. */
static bool is_partition_part(const hdgcl_mesh *mesh) {
  for (int32_t f = mesh->num_interior_faces; f < mesh->num_faces; f++)
    if (mesh->face_tags && mesh->face_tags[f] == HDG_PARTITION_TAG) return true;
  return false;
}

/* A tag given by its number (optional blanks around it). */
static bool is_number(const char *text, int32_t *tag) {
  char *end;
  errno = 0;
  long long v = strtoll(text, &end, 10);
  while (*end == ' ' || *end == '\t') end++;
  if (errno || end == text || *end || v < INT32_MIN || v > INT32_MAX) return false;
  *tag = (int32_t)v;
  return true;
}

/* Resolves "a, b, 3" against the mesh's tags of dimension dim. */
static int resolve_tags(const hdgcl_mesh *mesh, int dim, const char *text, const char *what,
                        int32_t *ids, int *count) {
  char buf[1024], *pieces[HDG_USER_MAX_TAGS];
  int n = split(text, ',', buf, sizeof buf, pieces, HDG_USER_MAX_TAGS);
  if (n < 0) return hdgcl_error(HDGCL_ERROR_ARGUMENT, "%s: more than %d tags", what, HDG_USER_MAX_TAGS);
  for (int i = 0; i < n; i++) {
    int status = hdgcl_mesh_find_tag(mesh, dim, pieces[i], &ids[i]);
    if (status != HDGCL_SUCCESS && is_partition_part(mesh) && is_number(pieces[i], &ids[i]))
      continue; /* a rank's part: the whole mesh had the tag (host/parallel/solver_mpi.c) */
    if (status != HDGCL_SUCCESS) {
      char msg[1024];
      snprintf(msg, sizeof msg, "%s", hdgcl_last_error());
      return hdgcl_error(status, "%s: %s", what, msg);
    }
  }
  *count = n;
  return HDGCL_SUCCESS;
}

/* The axis k whose coordinate is the same at every vertex of boundary face f
 * (relative to the face's size), i.e. the face is normal to e_k; -1 if none.
 * n gets the face's unit normal (for messages). */
static int face_axis(const hdgcl_mesh *mesh, int32_t f, double *n) {
  int d = mesh->dim, nv = mesh->verts_per_face;
  const int32_t *v = mesh->face_verts + (size_t)f * nv;
  double lo[3], hi[3], size = 0.0;
  for (int k = 0; k < d; k++) {
    lo[k] = hi[k] = mesh->coords[(size_t)v[0] * d + k];
    for (int a = 1; a < nv; a++) {
      double x = mesh->coords[(size_t)v[a] * d + k];
      lo[k] = fmin(lo[k], x);
      hi[k] = fmax(hi[k], x);
    }
    size = fmax(size, hi[k] - lo[k]);
  }
  double t[2][3] = {{0, 0, 0}, {0, 0, 0}};
  for (int k = 0; k < d; k++) {
    t[0][k] = mesh->coords[(size_t)v[1] * d + k] - mesh->coords[(size_t)v[0] * d + k];
    t[1][k] = mesh->coords[(size_t)v[nv - 1] * d + k] - mesh->coords[(size_t)v[0] * d + k];
  }
  hdg_normal_from_tangents(d, (const double(*)[3])t, n);
  double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  for (int k = 0; k < 3; k++) n[k] = len > 0 ? n[k] / len : 0.0;
  for (int k = 0; k < d; k++)
    if (hi[k] - lo[k] <= 1e-10 * size) return k;
  return -1;
}

/* The number of components of an elasticity condition: 1 (every component)
 * or the mesh's dim for displacement and traction; at most dim for per-component data. */
static int check_components(const hdg_user_problem *up, const hdg_user_condition *bc, int dim) {
  if (!up->problem.vector || bc->num_values == 0) return HDGCL_SUCCESS;
  if (bc->kind == USER_BC_COMPONENTS) {
    if (bc->num_values <= dim) return HDGCL_SUCCESS;
    return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                       "%s: boundary condition on '%s' names component z (uz or tz), the mesh is 2D",
                       up->source, bc->tags);
  }
  if (bc->num_values == 1 || bc->num_values == dim) return HDGCL_SUCCESS;
  return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                     "%s: boundary condition on '%s': %s has %d components, the mesh is %dD (give "
                     "%d, or 1 for all)",
                     up->source, bc->tags, bc->kind == USER_BC_DIRICHLET ? "displacement" : "traction",
                     bc->num_values, dim, dim);
}

int hdg_user_problem_bind(hdg_user_problem *up, const hdgcl_mesh *mesh, int8_t *bnd_bc,
                          int8_t *bnd_cond, int8_t *bnd_fixed) {
  up->dim = mesh->dim;
  char what[400];
  int nreal = up->num_conditions - (up->has_default ? 1 : 0);
  for (int i = 0; i < nreal; i++) {
    hdg_user_condition *bc = &up->conditions[i];
    snprintf(what, sizeof what, "%s: boundary condition on '%s'", up->source, bc->tags);
    HDGCL_TRY(resolve_tags(mesh, mesh->dim - 1, bc->tags, what, bc->tag_ids, &bc->num_tags));
  }
  for (int i = 0; i < up->num_conditions; i++) HDGCL_TRY(check_components(up, &up->conditions[i], mesh->dim));
  for (int i = 0; i < up->num_regions; i++) {
    hdg_user_region *r = &up->regions[i];
    snprintf(what, sizeof what, "%s: region '%s'", up->source, r->tag);
    int n;
    HDGCL_TRY(resolve_tags(mesh, mesh->dim, r->tag, what, &r->tag_id, &n));
    if (n != 1) return hdgcl_error(HDGCL_ERROR_ARGUMENT, "%s: one tag per region", what);
  }
  for (int i = 0; i < up->num_outputs; i++) {
    hdg_user_output *o = &up->outputs[i];
    snprintf(what, sizeof what, "%s: output '%s'", up->source, o->label);
    if (o->kind == USER_OUT_FLUX || o->kind == USER_OUT_REACTION)
      HDGCL_TRY(resolve_tags(mesh, mesh->dim - 1, o->tags, what, o->tag_ids, &o->num_tags));
    else if (o->kind == USER_OUT_INTEGRAL && *o->tags)
      HDGCL_TRY(resolve_tags(mesh, mesh->dim, o->tags, what, o->tag_ids, &o->num_tags));
  }
  if (!up->problem.vector) { /* a tensor kappa is d x d */
    HDGCL_TRY(hdg_user_kappa_check_size(&up->kappa, mesh->dim));
    for (int i = 0; i < up->num_regions; i++)
      HDGCL_TRY(hdg_user_kappa_check_size(&up->regions[i].kappa, mesh->dim));
  }
  if (up->problem.vector) {
    int ncomp = 0;
    while (ncomp < 3 && up->exact[ncomp]) ncomp++;
    if (up->has_exact && ncomp != mesh->dim)
      return hdgcl_error(HDGCL_ERROR_ARGUMENT, "%s: the exact displacement has %d components, the mesh is %dD",
                         up->source, ncomp, mesh->dim);
  }
  for (int32_t f = mesh->num_interior_faces; f < mesh->num_faces; f++) {
    int32_t tag = mesh->face_tags[f];
    if (tag == HDG_PARTITION_TAG) { /* a face cut by a distributed solve's partition: an
                                       interior face there (hdg_numbering), no condition */
      int b = f - mesh->num_interior_faces;
      bnd_bc[b] = FACE_NEUMANN;
      bnd_cond[b] = 0;
      bnd_fixed[b] = 0;
      continue;
    }
    int found = -1;
    for (int i = 0; i < nreal && found < 0; i++)
      for (int t = 0; t < up->conditions[i].num_tags; t++)
        if (up->conditions[i].tag_ids[t] == tag) found = i;
    if (found < 0 && up->has_default) found = up->num_conditions - 1;
    if (found < 0) {
      const char *name = hdgcl_mesh_tag_name(mesh, mesh->dim - 1, tag);
      return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                         "%s: boundary tag %d%s%s%s has no boundary condition (add it to bc, or "
                         "give bc-default)",
                         up->source, (int)tag, name ? " ('" : "", name ? name : "", name ? "')" : "");
    }
    int b = f - mesh->num_interior_faces;
    int kind = up->conditions[found].kind;
    bnd_bc[b] = kind == USER_BC_DIRICHLET ? FACE_DIRICHLET : kind == USER_BC_ROBIN ? FACE_ROBIN : FACE_NEUMANN;
    bnd_cond[b] = (int8_t)found;
    /* (P4): a per-component face is a traction face whose fixed components are given */
    const hdg_user_condition *bc = &up->conditions[found];
    bnd_fixed[b] = (int8_t)(kind == USER_BC_COMPONENTS ? bc->fixed : 0);
    if (kind == USER_BC_COMPONENTS && bc->roller) {
      double n[3], x[3];
      int axis = face_axis(mesh, f, n);
      if (axis < 0) {
        const char *name = hdgcl_mesh_tag_name(mesh, mesh->dim - 1, tag);
        int d = mesh->dim, nv = mesh->verts_per_face;
        for (int k = 0; k < 3; k++) x[k] = 0.0;
        for (int a = 0; a < nv; a++)
          for (int k = 0; k < d; k++) x[k] += mesh->coords[(size_t)mesh->face_verts[(size_t)f * nv + a] * d + k] / nv;
        char at[128], nn[128];
        if (d == 3) {
          snprintf(at, sizeof at, "(%g, %g, %g)", x[0], x[1], x[2]);
          snprintf(nn, sizeof nn, "(%.3g, %.3g, %.3g)", n[0], n[1], n[2]);
        } else {
          snprintf(at, sizeof at, "(%g, %g)", x[0], x[1]);
          snprintf(nn, sizeof nn, "(%.3g, %.3g)", n[0], n[1]);
        }
        return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                           "%s: roller on '%s': the face at %s of boundary tag %d%s%s%s has normal %s, "
                           "not along x, y or z (a roller needs faces normal to an axis)",
                           up->source, bc->tags, at, (int)tag, name ? " ('" : "", name ? name : "",
                           name ? "')" : "", nn);
      }
      bnd_fixed[b] = (int8_t)(1 << axis);
    }
  }
  return HDGCL_SUCCESS;
}

int hdg_user_element_set(const hdg_user_problem *up, const hdgcl_mesh *mesh, int32_t e) {
  int32_t tag = mesh->elem_tags ? mesh->elem_tags[e] : 0;
  int r = -1;
  for (int i = 0; i < up->num_regions; i++)
    if (up->regions[i].tag_id == tag) r = i;
  return r;
}

/* With point coefficients, kappa > 0 and c >= 0 are checked at the vertices
 * too (the quadrature points lie inside their hull). */
static int check_vertices(const hdg_user_problem *up, const hdgcl_mesh *mesh, int32_t e) {
  /* the row width nv, element e's own count (a triangle's row of a mixed
   * mesh ends in -1) */
  int d = mesh->dim, nv = mesh->verts_per_element, set = hdg_user_element_set(up, mesh, e);
  int own = hdgcl_mesh_element_verts(mesh, e);
  for (int a = 0; a < own; a++) {
    double x[3] = {0, 0, 0}, kappa, c, b[3];
    const int32_t v = mesh->elem_verts[(size_t)e * nv + a];
    for (int k = 0; k < d; k++) x[k] = mesh->coords[(size_t)v * d + k];
    hdg_user_coefficients(up, set, x[0], x[1], x[2], &kappa, &c, b);
    if (!(kappa > 0) || !isfinite(kappa) || !(c >= 0) || !isfinite(c) || !isfinite(b[0]) ||
        !isfinite(b[1]) || !isfinite(b[2]))
      return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                         "%s: element %d (tag %d) at its vertex (%g, %g, %g): kappa = %g, c = %g, "
                         "beta = (%g, %g, %g) (need kappa > 0, c >= 0, all finite)",
                         up->source, (int)e, mesh->elem_tags ? (int)mesh->elem_tags[e] : 0, x[0],
                         x[1], x[2], kappa, c, b[0], b[1], b[2]);
  }
  return HDGCL_SUCCESS;
}

int hdg_user_problem_coefficients(const hdg_user_problem *up, const hdgcl_mesh *mesh,
                                  double *kappa, double *ktensor, double *c, double *mu,
                                  double *lambda) {
  int d = mesh->dim;
  for (int32_t e = 0; e < mesh->num_elements; e++) {
    double v[USER_NUM_BOUNDARY_VARS] = {0};
    hdg_problem_centroid(mesh, e, v);
    int ri = hdg_user_element_set(up, mesh, e);
    const hdg_user_region *r = ri >= 0 ? &up->regions[ri] : NULL;
    int32_t tag = mesh->elem_tags ? mesh->elem_tags[e] : 0;
    if (up->point_coefficients) HDGCL_TRY(check_vertices(up, mesh, e));
    if (up->problem.vector) {
      mu[e] = hdg_expr_eval(r && r->mu ? r->mu : up->mu, v);
      lambda[e] = hdg_expr_eval(r && r->lambda ? r->lambda : up->lambda, v);
      /* kappa = 1 as for the built-in elasticity problems (problem_kappa): the
       * reference path builds its mass matrix M from the scalar element
       * matrices with 1 / kappa and applies mu itself (A_H = M / mu,
       * host/reference/reference_elasticity.c (E7)); the device path takes mu from s->mu. */
      kappa[e] = 1.0;
      c[e] = 0.0;
      if (!(mu[e] > 0) || !isfinite(mu[e]) || !(lambda[e] > -2.0 * mu[e] / d) || !isfinite(lambda[e]))
        return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                           "%s: element %d (tag %d) at (%g, %g, %g): mu = %g, lambda = %g (need mu > 0 "
                           "and lambda + 2 mu / %d > 0)",
                           up->source, (int)e, (int)tag, v[0], v[1], v[2], mu[e], lambda[e], d);
    } else if (up->tensor_kappa) { /* K, K^-1, R; kappa = 1 (the reference path's M) */
      const hdg_user_kappa *k = r && hdg_user_kappa_given(&r->kappa) ? &r->kappa : &up->kappa;
      double K[9];
      hdg_user_kappa_eval(k, d, v, K);
      HDGCL_TRY(hdg_user_kappa_factor(k, up->source, d, K, (int)e, (int)tag, v,
                                      ktensor + (size_t)e * KAPPA_TENSOR_VALUES(d)));
      kappa[e] = 1.0;
      c[e] = hdg_expr_eval(r && r->c ? r->c : up->c, v);
      if (!(c[e] >= 0) || !isfinite(c[e]))
        return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                           "%s: element %d (tag %d) at (%g, %g, %g): c = %g (need c >= 0)",
                           up->source, (int)e, (int)tag, v[0], v[1], v[2], c[e]);
    } else {
      double b[3];
      hdg_user_coefficients(up, ri, v[0], v[1], v[2], &kappa[e], &c[e], b);
      if (!(kappa[e] > 0) || !isfinite(kappa[e]) || !(c[e] >= 0) || !isfinite(c[e]))
        return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                           "%s: element %d (tag %d) at (%g, %g, %g): kappa = %g, c = %g (need kappa > 0, "
                           "c >= 0)",
                           up->source, (int)e, (int)tag, v[0], v[1], v[2], kappa[e], c[e]);
    }
  }
  return HDGCL_SUCCESS;
}

/* ---- the host's evaluation (cl/fem/problems.h's USER() on the host) ---- */

static void point(double *v, double x, double y, double z) {
  v[0] = x;
  v[1] = y;
  v[2] = z;
  v[3] = v[4] = v[5] = 0.0;
  v[USER_T] = 0.0;
}

double hdg_user_u(const hdg_user_problem *up, double t, double x, double y, double z, double *g) {
  double v[USER_NUM_BOUNDARY_VARS];
  point(v, x, y, z);
  v[USER_T] = t;
  g[0] = g[1] = g[2] = 0.0;
  if (!up->has_exact) return 0.0;
  for (int k = 0; k < up->dim; k++) g[k] = hdg_expr_eval(up->exact_grad[0][k], v);
  return hdg_expr_eval(up->exact[0], v);
}

double hdg_user_f(const hdg_user_problem *up, double t, double x, double y, double z) {
  double v[USER_NUM_BOUNDARY_VARS];
  point(v, x, y, z);
  v[USER_T] = t;
  return up->f ? hdg_expr_eval(up->f, v) : 0.0; /* elasticity: no scalar load */
}

void hdg_user_beta(const hdg_user_problem *up, double *b) {
  for (int c = 0; c < 3; c++) b[c] = c < up->dim ? up->beta_value[c] : 0.0;
}

void hdg_user_coefficients(const hdg_user_problem *up, int set, double x, double y, double z,
                           double *kappa, double *c, double *b) {
  double v[USER_NUM_BOUNDARY_VARS];
  point(v, x, y, z);
  const hdg_user_region *r = set >= 0 && set < up->num_regions ? &up->regions[set] : NULL;
  /* a scalar kappa (coefficients = points refuses a tensor) */
  *kappa = hdg_expr_eval(r && r->kappa.scalar ? r->kappa.scalar : up->kappa.scalar, v);
  *c = hdg_expr_eval(r && r->c ? r->c : up->c, v);
  for (int k = 0; k < 3; k++) b[k] = k < up->dim && up->beta[k] ? hdg_expr_eval(up->beta[k], v) : 0.0;
}

/* kappa grad u . n of the exact solution (data a condition leaves out),
 * with the problem's kappa at the point; a tensor: n . K grad u as
 * sum_k (sum_l K_kl g_l) n_k (user_problem_emit.c writes the same). */
static double exact_flux(const hdg_user_problem *up, const double *v) {
  double s = 0.0;
  if (up->kappa.rows) {
    for (int k = 0; k < up->dim; k++) {
      double t = 0.0;
      for (int l = 0; l < up->dim; l++)
        t += hdg_expr_eval(up->kappa.m[k][l], v) * hdg_expr_eval(up->exact_grad[0][l], v);
      s += t * v[USER_NX + k];
    }
    return s;
  }
  for (int k = 0; k < up->dim; k++) s += hdg_expr_eval(up->exact_grad[0][k], v) * v[USER_NX + k];
  if (up->kappa_u) { /* kappa(u) at the exact u (docs/nonlinear.md) */
    double dk;
    return hdg_user_kappa_u(up, v[0], v[1], v[2], hdg_expr_eval(up->exact[0], v), &dk) * s;
  }
  return hdg_expr_eval(up->kappa.scalar, v) * s;
}

double hdg_user_dirichlet(const hdg_user_problem *up, double t, int cond, double x, double y,
                          double z) {
  double v[USER_NUM_BOUNDARY_VARS];
  point(v, x, y, z);
  v[USER_T] = t;
  const hdg_user_condition *bc = &up->conditions[cond];
  return bc->value[0] ? hdg_expr_eval(bc->value[0], v) : hdg_expr_eval(up->exact[0], v);
}

double hdg_user_flux(const hdg_user_problem *up, double t, int cond, double x, double y, double z,
                     double nx, double ny, double nz) {
  double v[USER_NUM_BOUNDARY_VARS] = {x, y, z, nx, ny, nz, t};
  const hdg_user_condition *bc = &up->conditions[cond];
  return bc->value[0] ? hdg_expr_eval(bc->value[0], v) : exact_flux(up, v);
}

double hdg_user_initial(const hdg_user_problem *up, double x, double y, double z) {
  double v[USER_NUM_BOUNDARY_VARS], g[3];
  point(v, x, y, z);
  return up->initial ? hdg_expr_eval(up->initial, v) : hdg_user_u(up, 0.0, x, y, z, g);
}

double hdg_user_robin_alpha(const hdg_user_problem *up, int cond, const double *x) {
  const hdg_user_condition *bc = &up->conditions[cond];
  if (bc->kind != USER_BC_ROBIN) return 0.0;
  double v[USER_NUM_BOUNDARY_VARS];
  point(v, x[0], x[1], up->dim == 3 ? x[2] : 0.0);
  return hdg_expr_eval(bc->alpha, v);
}

static void vector_point(const hdg_user_problem *up, const double *x, double *v) {
  point(v, x[0], x[1], up->dim == 3 ? x[2] : 0.0);
}

void hdg_user_elasticity_u(const hdg_user_problem *up, double mu, double lambda, const double *x,
                           double *u, double *grad, double *p) {
  int d = up->dim;
  double v[USER_NUM_BOUNDARY_VARS], div = 0.0;
  vector_point(up, x, v);
  for (int i = 0; i < d; i++) {
    u[i] = up->has_exact ? hdg_expr_eval(up->exact[i], v) : 0.0;
    for (int j = 0; j < d; j++)
      grad[i * d + j] = up->has_exact ? hdg_expr_eval(up->exact_grad[i][j], v) : 0.0;
    div += grad[i * d + i];
  }
  *p = -(mu + lambda) * div;
}

void hdg_user_elasticity_f(const hdg_user_problem *up, const double *x, double *f) {
  double v[USER_NUM_BOUNDARY_VARS];
  vector_point(up, x, v);
  for (int i = 0; i < up->dim; i++) f[i] = hdg_expr_eval(up->force[i], v);
}

void hdg_user_displacement(const hdg_user_problem *up, int cond, const double *x, double *out) {
  double v[USER_NUM_BOUNDARY_VARS];
  vector_point(up, x, v);
  const hdg_user_condition *bc = &up->conditions[cond];
  for (int i = 0; i < up->dim; i++) {
    const hdg_expr *g = bc->value[i];
    if (!g && bc->kind != USER_BC_COMPONENTS) g = up->exact[i]; /* from the exact solution */
    out[i] = g ? hdg_expr_eval(g, v) : 0.0;                    /* per component: 0 if not given */
  }
}

void hdg_user_traction(const hdg_user_problem *up, int cond, const double *x, const double *n,
                       double *g) {
  int d = up->dim;
  double v[USER_NUM_BOUNDARY_VARS];
  vector_point(up, x, v);
  for (int k = 0; k < d; k++) v[USER_NX + k] = n[k];
  const hdg_user_condition *bc = &up->conditions[cond];
  if (bc->kind == USER_BC_COMPONENTS || bc->value[0]) { /* per component: 0 if not given */
    for (int i = 0; i < d; i++) g[i] = bc->value[i] ? hdg_expr_eval(bc->value[i], v) : 0.0;
    return;
  }
  /* sigma n of the exact solution with the problem's own mu, lambda at x. */
  double mu = hdg_expr_eval(up->mu, v), lambda = hdg_expr_eval(up->lambda, v), h[9], tr = 0.0;
  for (int i = 0; i < d; i++)
    for (int j = 0; j < d; j++) h[i * d + j] = hdg_expr_eval(up->exact_grad[i][j], v);
  for (int i = 0; i < d; i++) tr += h[i * d + i];
  for (int i = 0; i < d; i++) {
    g[i] = lambda * tr * n[i];
    for (int j = 0; j < d; j++) g[i] += mu * (h[i * d + j] + h[j * d + i]) * n[j];
  }
}
