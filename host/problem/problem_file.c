/* Problem files: JSON (cJSON parses it; its error pointer gives the place)
 * mapped onto the option syntax of user_problem.c:
 *
 *   {"pde": "scalar", "constants": {"k0": 2.5, "r": "2 * k0"},
 *    "kappa": "k0", "f": 1, "beta": [1, 0.5],
 *    "boundary": {"cone": {"dirichlet": 1}, "box": {"neumann": 0},
 *                 "left, right": {"robin": [2, "x"]}},
 *    (elasticity: "left": "roller", "bottom": {"uy": 0, "tx": "0.1*x"}),
 *    "default": {"dirichlet": 0},
 *    "regions": {"7": {"kappa": 2}, "8": {"kappa": [[2, 0.5], [0.5, 1]]}},
 *    "exact": "sin(pi * x)", "outputs": ["flux: cone", {"point": [0.5, 0.5]}]}
 *
 * Numbers may stand for expressions; arrays for comma-separated vectors; a
 * tensor kappa is an array of rows, written [[a, b], [c, d]] as in the
 * option syntax. */
#include "problem/problem_file.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"

typedef struct out {
  char s[16384];
  size_t len;
} out;

static int put(out *o, const char *path, const char *what, const char *text) {
  size_t n = strlen(text);
  if (o->len + n + 1 > sizeof o->s)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "%s: %s: too long (more than %zu characters)", path,
                       what, sizeof o->s - 1);
  memcpy(o->s + o->len, text, n + 1);
  o->len += n;
  return HDGCL_SUCCESS;
}

/* A number or string as expression text. */
static int scalar(const cJSON *v, const char *path, const char *what, out *o) {
  char num[64];
  if (cJSON_IsNumber(v)) {
    snprintf(num, sizeof num, "%.15g", v->valuedouble); /* the shortest that reads back */
    if (strtod(num, NULL) != v->valuedouble) snprintf(num, sizeof num, "%.17g", v->valuedouble);
    return put(o, path, what, num);
  }
  if (cJSON_IsString(v)) return put(o, path, what, v->valuestring);
  return hdgcl_error(HDGCL_ERROR_ARGUMENT, "%s: %s: expected a number or an expression string",
                     path, what);
}

/* A scalar, or an array of scalars joined by `sep`. */
static int vector(const cJSON *v, const char *path, const char *what, const char *sep, out *o) {
  if (!cJSON_IsArray(v)) return scalar(v, path, what, o);
  const cJSON *item;
  int i = 0;
  cJSON_ArrayForEach(item, v) {
    if (i++) HDGCL_TRY(put(o, path, what, sep));
    if (cJSON_IsArray(item)) /* a matrix row (exact-grad of elasticity) */
      HDGCL_TRY(vector(item, path, what, ", ", o));
    else
      HDGCL_TRY(scalar(item, path, what, o));
  }
  if (i == 0) return hdgcl_error(HDGCL_ERROR_ARGUMENT, "%s: %s: empty array", path, what);
  return HDGCL_SUCCESS;
}

/* kappa: a scalar, or an array of row arrays as "[[a, b], [c, d]]" (user_kappa.c). */
static int coefficient(const cJSON *v, const char *path, const char *what, out *o) {
  if (!cJSON_IsArray(v)) return scalar(v, path, what, o);
  const cJSON *row;
  int i = 0;
  HDGCL_TRY(put(o, path, what, "["));
  cJSON_ArrayForEach(row, v) {
    if (!cJSON_IsArray(row))
      return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                         "%s: %s: expected a number, an expression or a matrix [[kxx, kxy], [kxy, kyy]]",
                         path, what);
    HDGCL_TRY(put(o, path, what, i++ ? ", [" : "["));
    HDGCL_TRY(vector(row, path, what, ", ", o));
    HDGCL_TRY(put(o, path, what, "]"));
  }
  if (i == 0) return hdgcl_error(HDGCL_ERROR_ARGUMENT, "%s: %s: empty array", path, what);
  return put(o, path, what, "]");
}

/* True if every member of object v is a component: ux, uy, uz, tx, ty, tz. */
static bool components(const cJSON *v) {
  static const char *const names[] = {"ux", "uy", "uz", "tx", "ty", "tz"};
  const cJSON *c;
  cJSON_ArrayForEach(c, v) {
    bool known = false;
    for (int i = 0; i < 6; i++) known |= strcmp(c->string, names[i]) == 0;
    if (!known) return false;
  }
  return v->child != NULL;
}

/* {"KIND": VALUE} (exactly one member) as "KIND: VALUE"; a string as itself
 * ("roller"); {"ux": G, "ty": G, ...} as "ux = G, ty = G, ...". */
static int condition(const cJSON *v, const char *path, const char *what, out *o) {
  if (cJSON_IsString(v)) return put(o, path, what, v->valuestring);
  if (cJSON_IsObject(v) && components(v)) {
    const cJSON *c;
    int i = 0;
    cJSON_ArrayForEach(c, v) {
      if (i++) HDGCL_TRY(put(o, path, what, ", "));
      HDGCL_TRY(put(o, path, what, c->string));
      HDGCL_TRY(put(o, path, what, " = "));
      HDGCL_TRY(scalar(c, path, what, o));
    }
    return HDGCL_SUCCESS;
  }
  if (!cJSON_IsObject(v) || !v->child || v->child->next)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                       "%s: %s: expected {\"KIND\": VALUE} with one kind (dirichlet, neumann, robin, "
                       "displacement, traction), \"roller\", or components {\"ux\": G, \"ty\": G, ...}",
                       path, what);
  const cJSON *c = v->child;
  HDGCL_TRY(put(o, path, what, c->string));
  if (cJSON_IsNull(c) || (cJSON_IsString(c) && strcmp(c->valuestring, "exact") == 0))
    return HDGCL_SUCCESS; /* data from the exact solution */
  HDGCL_TRY(put(o, path, what, ": "));
  if (cJSON_IsObject(c)) { /* robin: {"alpha": A, "g": G} */
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(c, "alpha");
    const cJSON *g = cJSON_GetObjectItemCaseSensitive(c, "g");
    if (!a || !g)
      return hdgcl_error(HDGCL_ERROR_ARGUMENT, "%s: %s: expected {\"alpha\": A, \"g\": G}", path, what);
    HDGCL_TRY(scalar(a, path, what, o));
    HDGCL_TRY(put(o, path, what, ", "));
    return scalar(g, path, what, o);
  }
  return vector(c, path, what, ", ", o);
}

static int members(const cJSON *v, const char *path, const char *what, out *o, bool regions) {
  if (!cJSON_IsObject(v))
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "%s: %s: expected an object keyed by tag", path, what);
  const cJSON *item;
  int i = 0;
  cJSON_ArrayForEach(item, v) {
    char w[300];
    snprintf(w, sizeof w, "%s \"%s\"", what, item->string);
    if (i++) HDGCL_TRY(put(o, path, what, "; "));
    HDGCL_TRY(put(o, path, what, item->string));
    HDGCL_TRY(put(o, path, what, ": "));
    if (!regions) {
      HDGCL_TRY(condition(item, path, w, o));
      continue;
    }
    if (!cJSON_IsObject(item))
      return hdgcl_error(HDGCL_ERROR_ARGUMENT, "%s: %s: expected {\"kappa\": ..., ...}", path, w);
    const cJSON *c;
    int j = 0;
    cJSON_ArrayForEach(c, item) {
      if (j++) HDGCL_TRY(put(o, path, w, ", "));
      HDGCL_TRY(put(o, path, w, c->string));
      HDGCL_TRY(put(o, path, w, " = "));
      HDGCL_TRY(strcmp(c->string, "kappa") == 0 ? coefficient(c, path, w, o) : scalar(c, path, w, o));
    }
  }
  return HDGCL_SUCCESS;
}

static int outputs(const cJSON *v, const char *path, out *o) {
  if (!cJSON_IsArray(v))
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "%s: outputs: expected an array", path);
  const cJSON *item;
  int i = 0;
  cJSON_ArrayForEach(item, v) {
    if (i++) HDGCL_TRY(put(o, path, "outputs", "; "));
    if (cJSON_IsString(item)) {
      HDGCL_TRY(put(o, path, "outputs", item->valuestring));
      continue;
    }
    if (!cJSON_IsObject(item) || !item->child)
      return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                         "%s: outputs: expected \"KIND: ARGUMENT\" or {\"KIND\": ARGUMENT}", path);
    const cJSON *kind = item->child, *region = cJSON_GetObjectItemCaseSensitive(item, "region");
    HDGCL_TRY(put(o, path, "outputs", kind->string));
    if (region && cJSON_IsString(region)) {
      HDGCL_TRY(put(o, path, "outputs", "@"));
      HDGCL_TRY(put(o, path, "outputs", region->valuestring));
    }
    if (!cJSON_IsNull(kind) && !cJSON_IsTrue(kind)) {
      HDGCL_TRY(put(o, path, "outputs", ": "));
      HDGCL_TRY(vector(kind, path, "outputs", ", ", o));
    }
  }
  return HDGCL_SUCCESS;
}

/* Line and column of offset `at` in text. */
static void place(const char *text, const char *at, int *line, int *col) {
  *line = 1;
  *col = 1;
  for (const char *p = text; p < at && *p; p++) {
    if (*p == '\n') {
      (*line)++;
      *col = 1;
    } else {
      (*col)++;
    }
  }
}

static int read_text(const char *path, char **text) {
  FILE *f = fopen(path, "rb");
  if (!f) return hdgcl_error(HDGCL_ERROR_IO, "--problem-file %s: %s", path, strerror(errno));
  size_t cap = 4096, len = 0;
  char *buf = malloc(cap);
  int status = buf ? HDGCL_SUCCESS : hdgcl_error(HDGCL_ERROR_MEMORY, "out of host memory reading %s", path);
  while (status == HDGCL_SUCCESS) {
    if (len + 1 >= cap) {
      if (cap > ((size_t)64 << 20)) {
        status = hdgcl_error(HDGCL_ERROR_ARGUMENT, "--problem-file %s: larger than 64 MiB", path);
        break;
      }
      char *b = realloc(buf, cap *= 2);
      if (!b) {
        status = hdgcl_error(HDGCL_ERROR_MEMORY, "out of host memory reading %s", path);
        break;
      }
      buf = b;
    }
    size_t n = fread(buf + len, 1, cap - len - 1, f);
    len += n;
    if (n == 0) break;
  }
  if (status == HDGCL_SUCCESS && ferror(f))
    status = hdgcl_error(HDGCL_ERROR_IO, "--problem-file %s: read error", path);
  fclose(f);
  if (status != HDGCL_SUCCESS) {
    free(buf);
    return status;
  }
  buf[len] = '\0';
  if (strlen(buf) != len) {
    free(buf);
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "--problem-file %s: contains a NUL byte (not a text file)", path);
  }
  *text = buf;
  return HDGCL_SUCCESS;
}

static const char *const plain_keys[] = {"pde", "c", "f", "mu", "lambda", "bc-default",
                                         "coefficients", "initial", NULL};
static const char *const vector_keys[] = {"beta", "body-force", "exact", NULL};

static bool in(const char *const *list, const char *s) {
  for (int i = 0; list[i]; i++)
    if (strcmp(list[i], s) == 0) return true;
  return false;
}

static int convert(const cJSON *root, const char *path, hdgcl_options opts) {
  if (!cJSON_IsObject(root))
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "%s: expected a JSON object at the top", path);
  const cJSON *item;
  cJSON_ArrayForEach(item, root) {
    const char *key = item->string;
    out *o = malloc(sizeof *o);
    if (!o) return hdgcl_error(HDGCL_ERROR_MEMORY, "out of host memory reading %s", path);
    o->len = 0;
    o->s[0] = '\0';
    const char *option = key;
    int status;
    if (strcmp(key, "comment") == 0 || strcmp(key, "description") == 0) {
      free(o);
      continue;
    } else if (in(plain_keys, key)) {
      status = scalar(item, path, key, o);
    } else if (strcmp(key, "kappa") == 0) {
      status = coefficient(item, path, key, o);
    } else if (strcmp(key, "transient") == 0) { /* docs/time.md */
      status = cJSON_IsBool(item) ? put(o, path, key, cJSON_IsTrue(item) ? "true" : "false")
                                  : hdgcl_error(HDGCL_ERROR_ARGUMENT,
                                                "%s: transient: expected true or false", path);
    } else if (in(vector_keys, key)) {
      status = vector(item, path, key, ", ", o);
    } else if (strcmp(key, "exact-grad") == 0) {
      status = vector(item, path, key, "; ", o);
    } else if (strcmp(key, "default") == 0) {
      option = "bc-default";
      status = condition(item, path, key, o);
    } else if (strcmp(key, "constants") == 0) {
      status = HDGCL_SUCCESS;
      if (!cJSON_IsObject(item))
        status = hdgcl_error(HDGCL_ERROR_ARGUMENT, "%s: constants: expected {\"NAME\": VALUE, ...}", path);
      const cJSON *c;
      int i = 0;
      cJSON_ArrayForEach(c, item) {
        if (status) break;
        if (i++) status = put(o, path, key, ", ");
        if (!status) status = put(o, path, key, c->string);
        if (!status) status = put(o, path, key, " = ");
        if (!status) status = scalar(c, path, key, o);
      }
    } else if (strcmp(key, "boundary") == 0) {
      option = "bc";
      status = members(item, path, key, o, false);
    } else if (strcmp(key, "regions") == 0) {
      option = "region";
      status = members(item, path, key, o, true);
    } else if (strcmp(key, "outputs") == 0) {
      option = "output";
      status = outputs(item, path, o);
    } else {
      status = hdgcl_error(HDGCL_ERROR_ARGUMENT,
                           "%s: unknown key \"%s\" (known: pde, constants, kappa, c, f, beta, mu, "
                           "lambda, body-force, exact, exact-grad, boundary, default, regions, "
                           "outputs, transient, initial, comment)",
                           path, key);
    }
    if (status == HDGCL_SUCCESS) {
      if (hdgcl_options_has(opts, option))
        status = hdgcl_error(HDGCL_ERROR_ARGUMENT, "%s: \"%s\" given twice", path, key);
      else
        status = hdgcl_options_set(opts, option, o->s);
    }
    free(o);
    if (status) return status;
  }
  return HDGCL_SUCCESS;
}

int hdg_problem_file_parse(const char *text, const char *path, hdgcl_options *opts) {
  *opts = NULL;
  const char *end = NULL;
  cJSON *root = cJSON_ParseWithOpts(text, &end, 1);
  if (!root) {
    int line, col;
    const char *at = end ? end : cJSON_GetErrorPtr();
    place(text, at ? at : text, &line, &col);
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "%s:%d:%d: not valid JSON", path, line, col);
  }
  int status = hdgcl_options_create(opts);
  if (status == HDGCL_SUCCESS) status = convert(root, path, *opts);
  cJSON_Delete(root);
  if (status != HDGCL_SUCCESS && *opts) hdgcl_options_destroy(opts);
  return status;
}

int hdg_problem_file_read(const char *path, hdgcl_options *opts) {
  char *text = NULL;
  HDGCL_TRY(read_text(path, &text));
  int status = hdg_problem_file_parse(text, path, opts);
  free(text);
  return status;
}
