/* The OpenCL C of a user's problem: the user_* functions cl/fem/problems.h calls
 * for PROBLEM_USER, written from the parsed expressions (hdg_expr_emit), so
 * the kernels compute exactly what hdg_user_* computes on the host.  The text
 * is part of the program source, so the binary cache is keyed on it. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "problem/user_problem.h"

typedef struct text {
  char *s;
  size_t len, cap;
  int status;
} text;

static void add(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(text *t, const char *fmt, ...) {
  if (t->status) return;
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (t->len + (size_t)n + 1 > t->cap) {
    size_t cap = (t->cap + (size_t)n + 1) * 2;
    char *s = realloc(t->s, cap);
    if (!s) {
      t->status = hdgcl_error(HDGCL_ERROR_MEMORY, "out of host memory writing the problem's kernel code");
      return;
    }
    t->s = s;
    t->cap = cap;
  }
  va_start(ap, fmt);
  vsnprintf(t->s + t->len, t->cap - t->len, fmt, ap);
  va_end(ap);
  t->len += (size_t)n;
}

static const char *const cvars[] = {"x", "y", "z", "nx", "ny", "nz", "t"};

/* kappa(u)'s variables (host/problem/user_problem.c parse_kappa_u). */
static const char *const kappa_u_vars[] = {"x", "y", "z", "u"};

/* Appends the expression's OpenCL C (or "0.0" for NULL), its variables
 * named by vars. */
static void expr_of(text *t, const hdg_expr *e, const char *const *vars) {
  if (!e) {
    add(t, "0.0");
    return;
  }
  char *s = NULL;
  int status = hdg_expr_emit(e, vars, &s);
  if (status) {
    if (!t->status) t->status = status;
    return;
  }
  add(t, "%s", s);
  free(s);
  /* its name in a comment, for a compiler's complaint (host/core/program.c);
   * a label cannot close the comment early */
  const char *label = hdg_expr_label(e);
  if (label) {
    add(t, " /* " HDGCL_SOURCE_ORIGIN);
    for (const char *c = label; *c; c++) add(t, "%c", c[0] == '*' && c[1] == '/' ? '+' : *c);
    add(t, " */");
  }
}

static void expr(text *t, const hdg_expr *e) { expr_of(t, e, cvars); }

/* Locals x, y, z (and nx, ny, nz) from an array X (N) of DIM values. */
static void unpack(text *t, bool normal) {
  add(t, "  const double x = X[0], y = X[1], z = DIM == 3 ? X[2] : 0.0;\n");
  if (normal) add(t, "  const double nx = N[0], ny = N[1], nz = DIM == 3 ? N[2] : 0.0;\n");
  add(t, "  (void)x; (void)y; (void)z;\n");
}

int hdg_user_problem_emit(const hdg_user_problem *up, char **source) {
  text t = {0};
  /* the mesh's dimension (hdg_user_problem_bind): components and gradients of d entries */
  int d = up->dim < 2 ? 2 : up->dim, nc = up->problem.vector ? d : 1;
  add(&t, "/* The user's problem %s (host/problem/user_problem_emit.c) */\n", up->source);
  add(&t, "#define HDGCL_USER_PROBLEM 1\n");
  /* Scalar PDE. */
  add(&t, "double user_u(double t, double x, double y, double z, double *g) {\n  (void)t;\n");
  for (int k = 0; k < 3; k++) {
    add(&t, "  g[%d] = ", k);
    expr(&t, up->has_exact && !up->problem.vector ? up->exact_grad[0][k] : NULL);
    add(&t, ";\n");
  }
  add(&t, "  return ");
  expr(&t, up->has_exact && !up->problem.vector ? up->exact[0] : NULL);
  add(&t, ";\n}\n");
  add(&t, "double user_f(double t, double x, double y, double z) {\n  (void)t;\n  return ");
  expr(&t, up->f);
  add(&t, ";\n}\n");
  add(&t, "void user_beta(double *b) {\n");
  for (int k = 0; k < 3; k++) add(&t, "  b[%d] = %.17g;\n", k, k < up->dim ? up->beta_value[k] : 0.0);
  add(&t, "}\n");
  /* Coefficients at a point of an element of region `set` (-1: none), for
   * coefficients = points (cl/fem/problems.h problem_coefficients_at; the
   * kernels call it only where the prelude defines POINT_COEFFICIENTS). */
  {
    if (up->point_coefficients && !up->problem.vector) {
      add(&t, "#define POINT_COEFFICIENTS 1\n");
      /* beta somewhere not 0: the kernels add the convection terms */
      if (up->problem.nonsymmetric) add(&t, "#define POINT_BETA 1\n");
    }
    add(&t, "void user_coefficients(int set, double x, double y, double z, double *kappa, double *c, "
            "double *b) {\n  switch (set) {\n");
    for (int i = 0; i < up->num_regions; i++) {
      const hdg_user_region *r = &up->regions[i];
      if (!r->kappa.scalar && !r->c) continue;
      add(&t, "  case %d:\n    *kappa = ", i);
      expr(&t, r->kappa.scalar ? r->kappa.scalar : up->kappa.scalar); /* a tensor: 0.0, unused */
      add(&t, ";\n    *c = ");
      expr(&t, r->c ? r->c : up->c);
      add(&t, ";\n    break;\n");
    }
    add(&t, "  default:\n    *kappa = ");
    expr(&t, up->kappa.scalar);
    add(&t, ";\n    *c = ");
    expr(&t, up->c);
    add(&t, ";\n  }\n");
    for (int k = 0; k < 3; k++) {
      add(&t, "  b[%d] = ", k);
      expr(&t, k < up->dim ? up->beta[k] : NULL);
      add(&t, ";\n");
    }
    add(&t, "}\n");
  }
  /* kappa(u) and kappa'(u) (docs/nonlinear.md section 1; the symbolic
   * derivative), for the device's Newton kernels (newton_kappa,
   * cl/pipeline/newton_element.h); 1 and 0 where kappa does not use u. */
  add(&t, "double user_kappa_u(double x, double y, double z, double u, double *dk) {\n"
          "  (void)x; (void)y; (void)z; (void)u;\n  *dk = ");
  if (up->kappa_u) expr_of(&t, up->dkappa_u, kappa_u_vars);
  else add(&t, "0.0");
  add(&t, ";\n  return ");
  if (up->kappa_u) expr_of(&t, up->kappa_u, kappa_u_vars);
  else add(&t, "1.0");
  add(&t, ";\n}\n");
    /* Boundary data: one case per condition. */
  add(&t, "double user_dirichlet(double t, int cond, double x, double y, double z) {\n  (void)t;\n"
          "  const double nx = 0.0, ny = 0.0, nz = 0.0;\n  (void)nx; (void)ny; (void)nz;\n"
          "  switch (cond) {\n");
  for (int i = 0; i < up->num_conditions; i++) {
    const hdg_user_condition *bc = &up->conditions[i];
    if (up->problem.vector || bc->kind != USER_BC_DIRICHLET) continue;
    add(&t, "  case %d: return ", i);
    expr(&t, bc->value[0] ? bc->value[0] : up->exact[0]);
    add(&t, ";\n");
  }
  add(&t, "  }\n  return 0.0;\n}\n");
  add(&t, "double user_flux(double t, int cond, double x, double y, double z, double nx, double ny, "
          "double nz) {\n  (void)t;\n  double dk_exact;\n  (void)dk_exact;\n"
          "  switch (cond) {\n");
  for (int i = 0; i < up->num_conditions; i++) {
    const hdg_user_condition *bc = &up->conditions[i];
    if (up->problem.vector || bc->kind == USER_BC_DIRICHLET) continue;
    add(&t, "  case %d: return ", i);
    if (bc->value[0]) {
      expr(&t, bc->value[0]);
    } else if (up->kappa.rows) { /* n . K grad u of the exact solution, as exact_flux() */
      const char *nn[3] = {"nx", "ny", "nz"};
      for (int k = 0; k < up->dim; k++) {
        add(&t, "%s(", k ? " + " : "");
        for (int l = 0; l < up->dim; l++) {
          add(&t, "%s(", l ? " + " : "");
          expr(&t, up->kappa.m[k][l]);
          add(&t, ") * (");
          expr(&t, up->exact_grad[0][l]);
          add(&t, ")");
        }
        add(&t, ") * %s", nn[k]);
      }
    } else { /* kappa grad u . n of the exact solution, as exact_flux() */
      add(&t, "(");
      if (up->kappa_u) { /* kappa(u) at the exact u */
        add(&t, "user_kappa_u(x, y, z, ");
        expr(&t, up->exact[0]);
        add(&t, ", &dk_exact)");
      } else {
        expr(&t, up->kappa.scalar);
      }
      add(&t, ") * (");
      const char *nn[3] = {"nx", "ny", "nz"};
      for (int k = 0; k < up->dim; k++) {
        add(&t, "%s(", k ? " + " : "");
        expr(&t, up->exact_grad[0][k]);
        add(&t, ") * %s", nn[k]);
      }
      add(&t, ")");
    }
    add(&t, ";\n");
  }
  add(&t, "  }\n  return 0.0;\n}\n");
  /* Elasticity. */
  add(&t, "void user_elasticity_u(double mu, double lambda, const double *X, double *u, double *grad, "
          "double *p) {\n");
  unpack(&t, false);
  add(&t, "  double div = 0.0;\n");
  for (int i = 0; i < d; i++) {
    add(&t, "  u[%d] = ", i);
    expr(&t, up->has_exact && up->problem.vector ? up->exact[i] : NULL);
    add(&t, ";\n");
    for (int j = 0; j < d; j++) {
      add(&t, "  grad[%d] = ", i * d + j);
      expr(&t, up->has_exact && up->problem.vector ? up->exact_grad[i][j] : NULL);
      add(&t, ";\n");
    }
    add(&t, "  div += grad[%d];\n", i * d + i);
  }
  add(&t, "  *p = -(mu + lambda) * div;\n}\n");
  add(&t, "void user_elasticity_f(const double *X, double *f) {\n");
  unpack(&t, false);
  for (int i = 0; i < d; i++) {
    add(&t, "  f[%d] = ", i);
    expr(&t, up->problem.vector ? up->force[i] : NULL);
    add(&t, ";\n");
  }
  add(&t, "}\n");
  add(&t, "void user_displacement(int cond, const double *X, double *v) {\n");
  unpack(&t, false);
  add(&t, "  const double nx = 0.0, ny = 0.0, nz = 0.0;\n  (void)nx; (void)ny; (void)nz;\n  switch (cond) {\n");
  for (int i = 0; i < up->num_conditions; i++) {
    const hdg_user_condition *bc = &up->conditions[i];
    if (!up->problem.vector || (bc->kind != USER_BC_DIRICHLET && bc->kind != USER_BC_COMPONENTS))
      continue;
    add(&t, "  case %d:\n", i);
    for (int c = 0; c < nc; c++) { /* per component: the given ones, 0 elsewhere (unused) */
      add(&t, "    v[%d] = ", c);
      expr(&t, bc->value[0] || bc->kind == USER_BC_COMPONENTS ? bc->value[c] : up->exact[c]);
      add(&t, ";\n");
    }
    add(&t, "    return;\n");
  }
  add(&t, "  }\n}\n");
  add(&t, "void user_traction(int cond, const double *X, const double *N, double *g) {\n");
  unpack(&t, true);
  add(&t, "  switch (cond) {\n");
  for (int i = 0; i < up->num_conditions; i++) {
    const hdg_user_condition *bc = &up->conditions[i];
    if (!up->problem.vector || (bc->kind != USER_BC_NEUMANN && bc->kind != USER_BC_COMPONENTS))
      continue;
    add(&t, "  case %d: {\n", i);
    if (bc->value[0] || bc->kind == USER_BC_COMPONENTS) { /* per component: 0 where not given */
      for (int c = 0; c < nc; c++) {
        add(&t, "    g[%d] = ", c);
        expr(&t, bc->value[c]);
        add(&t, ";\n");
      }
    } else { /* sigma n of the exact solution, as hdg_user_traction() */
      add(&t, "    const double mu = ");
      expr(&t, up->mu);
      add(&t, ", lambda = ");
      expr(&t, up->lambda);
      add(&t, ";\n    double h[9], tr = 0.0;\n");
      for (int a = 0; a < d; a++)
        for (int b = 0; b < d; b++) {
          add(&t, "    h[%d] = ", a * d + b);
          expr(&t, up->exact_grad[a][b]);
          add(&t, ";\n");
        }
      add(&t, "    for (int i = 0; i < DIM; i++) tr += h[i * DIM + i];\n"
              "    for (int i = 0; i < DIM; i++) {\n"
              "      g[i] = lambda * tr * N[i];\n"
              "      for (int j = 0; j < DIM; j++) g[i] += mu * (h[i * DIM + j] + h[j * DIM + i]) * N[j];\n"
              "    }\n");
    }
    add(&t, "    return;\n  }\n");
  }
  add(&t, "  }\n}\n");
  if (t.status) {
    free(t.s);
    return t.status;
  }
  /* Every function body evaluates without contraction into fused
   * multiply-adds, as the host does (expr.h). */
  text u = {0};
  for (char *line = t.s; *line;) {
    char *nl = strchr(line, '\n');
    size_t n = nl ? (size_t)(nl - line + 1) : strlen(line);
    add(&u, "%.*s", (int)n, line);
    if ((strncmp(line, "double user_", 12) == 0 || strncmp(line, "void user_", 10) == 0) &&
        n >= 2 && line[n - 2] == '{')
      add(&u, "#pragma OPENCL FP_CONTRACT OFF\n");
    line += n;
  }
  free(t.s);
  if (u.status) {
    free(u.s);
    return u.status;
  }
  *source = u.s;
  return HDGCL_SUCCESS;
}
