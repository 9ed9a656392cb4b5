/* Helpers shared by the HDG pipeline tests. */
#ifndef HDGCL_TESTS_HDG_TEST_H
#define HDGCL_TESTS_HDG_TEST_H

#include <dirent.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "hdgcl/hdgcl.h"

#include <unistd.h>

/* A solved problem: mesh + solver (destroy with solved_destroy). */
typedef struct solved {
  hdgcl_mesh *mesh;
  hdgcl_solver solver;
  const hdgcl_result *result;
  int status;
} solved;

/* Solves on ctx with the mesh spec and "key", "value", ... pairs (NULL-terminated). */
static inline solved solve_with(hdgcl_context ctx, const char *mesh_spec, ...) {
  solved s = {0};
  hdgcl_options opts = NULL;
  hdgcl_options_create(&opts);
  va_list ap;
  va_start(ap, mesh_spec);
  for (const char *k = va_arg(ap, const char *); k; k = va_arg(ap, const char *)) {
    const char *v = va_arg(ap, const char *);
    hdgcl_options_set(opts, k, v);
  }
  va_end(ap);
  s.status = hdgcl_mesh_create_from_spec(mesh_spec, &s.mesh);
  if (!s.status) s.status = hdgcl_solver_create(ctx, s.mesh, opts, &s.solver);
  if (!s.status) s.status = hdgcl_solver_solve(s.solver);
  if (!s.status) s.status = hdgcl_solver_result(s.solver, &s.result);
  if (s.status)
    fprintf(stderr, "solve %s failed: %s: %s\n", mesh_spec, hdgcl_status_name(s.status),
            hdgcl_last_error());
  hdgcl_options_destroy(&opts);
  return s;
}

/* Solves mesh_spec with problem and order (in chunks of `chunk` elements
 * unless NULL) with the environment variable var set to value for the solve. */
static inline solved solve_with_env(hdgcl_context ctx, const char *var, const char *value,
                                    const char *mesh_spec, const char *problem, const char *order,
                                    const char *chunk) {
  setenv(var, value, 1);
  solved s = chunk ? solve_with(ctx, mesh_spec, "problem", problem, "order", order, "chunk", chunk,
                                NULL)
                   : solve_with(ctx, mesh_spec, "problem", problem, "order", order, NULL);
  unsetenv(var);
  return s;
}

static inline void solved_destroy(solved *s) {
  hdgcl_solver_destroy(&s->solver);
  hdgcl_mesh_destroy(&s->mesh);
}

/* hdgcl_solver_create on square:2 with the "key", "value", ... pairs
 * (NULL-terminated) must fail with HDGCL_ERROR_ARGUMENT, with `message` in
 * its error message, and leave no solver. */
static inline void check_rejected(hdgcl_context ctx, const char *message, ...) {
  hdgcl_mesh *mesh = NULL;
  hdgcl_options opts = NULL;
  hdgcl_solver s = NULL;
  CHECK_OK(hdgcl_mesh_create_from_spec("square:2", &mesh));
  CHECK_OK(hdgcl_options_create(&opts));
  va_list ap;
  va_start(ap, message);
  for (const char *k = va_arg(ap, const char *); k; k = va_arg(ap, const char *))
    CHECK_OK(hdgcl_options_set(opts, k, va_arg(ap, const char *)));
  va_end(ap);
  CHECK_FAILS(hdgcl_solver_create(ctx, mesh, opts, &s), HDGCL_ERROR_ARGUMENT);
  CHECK_MSG(strstr(hdgcl_last_error(), message) != NULL, "expected '%s' in '%s'", message,
            hdgcl_last_error());
  CHECK(s == NULL);
  hdgcl_options_destroy(&opts);
  hdgcl_mesh_destroy(&mesh);
}

/* max |a - b| / max |b| over n values. */
static inline double relative_difference(const double *a, const double *b, size_t n) {
  double d = 0.0, m = 0.0;
  for (size_t i = 0; i < n; i++) {
    if (fabs(a[i] - b[i]) > d) d = fabs(a[i] - b[i]);
    if (fabs(b[i]) > m) m = fabs(b[i]);
  }
  return m > 0 ? d / m : d;
}

/* Number of u* values per element (degree p + 1). */
static inline size_t ustar_per_element(const solved *s) {
  size_t p = (size_t)s->result->order;
  int dim = s->mesh->dim;
  bool tensor = s->mesh->type == HDGCL_QUADRILATERAL || s->mesh->type == HDGCL_HEXAHEDRON;
  return tensor ? (dim == 2 ? (p + 2) * (p + 2) : (p + 2) * (p + 2) * (p + 2))
                : (dim == 2 ? (p + 2) * (p + 3) / 2 : (p + 2) * (p + 3) * (p + 4) / 6);
}

/* max relative difference of u, q, u* and the trace of two solves of one problem. */
static inline double solution_difference(const solved *a, const solved *b, int ncomp) {
  const double *au, *aq, *as, *at, *bu, *bq, *bs, *bt;
  CHECK_OK(hdgcl_solver_solution(a->solver, &au, &aq, &as, &at));
  CHECK_OK(hdgcl_solver_solution(b->solver, &bu, &bq, &bs, &bt));
  const hdgcl_result *r = a->result;
  int dim = a->mesh->dim;
  size_t ne = (size_t)r->num_elements;
  /* element_dofs = (ncomp (1 + dim) [+ 1 for the pressure]) Np per element */
  size_t np = (size_t)r->element_dofs / ne / ((size_t)ncomp * (1 + dim) + (ncomp > 1 ? 1 : 0));
  /* trace values per face (none to compare where every face is Dirichlet, e.g. hex:1) */
  size_t nf = r->num_unknown_faces ? (size_t)r->trace_dofs / (size_t)r->num_unknown_faces : 0;
  double d = relative_difference(au, bu, ne * ncomp * np);
  d = fmax(d, relative_difference(aq, bq, ne * ncomp * dim * np));
  d = fmax(d, relative_difference(as, bs, ne * ncomp * ustar_per_element(a)));
  d = fmax(d, relative_difference(at, bt, (size_t)r->num_faces * nf));
  return d;
}

/* The observed rates of L2(u), L2(q), L2(u*) from solves s0 (mesh n0) and s1
 * (2 n0) at degree p, printed after `label`, and checked against p+1, p+1
 * (within 0.25) and p+2 (within 0.35). */
static inline void check_convergence_rates(const char *label, const solved *s0, const solved *s1, int p, int n0) {
  double e0[3] = {s0->result->l2_u, s0->result->l2_q, s0->result->l2_ustar};
  double e1[3] = {s1->result->l2_u, s1->result->l2_q, s1->result->l2_ustar}, rate[3];
  for (int k = 0; k < 3; k++) rate[k] = log(e0[k] / e1[k]) / log(s0->result->h / s1->result->h);
  printf("%s p=%d n=%d..%d rates u %.2f q %.2f u* %.2f (finest %.2e %.2e %.2e)\n", label, p, n0,
         2 * n0, rate[0], rate[1], rate[2], e1[0], e1[1], e1[2]);
  CHECK_MSG(fabs(rate[0] - (p + 1)) <= 0.25, "%s: u rate %.2f", label, rate[0]);
  CHECK_MSG(fabs(rate[1] - (p + 1)) <= 0.25, "%s: q rate %.2f", label, rate[1]);
  CHECK_MSG(fabs(rate[2] - (p + 2)) <= 0.35, "%s: u* rate %.2f", label, rate[2]);
}

/* Orders in time of a transient problem solved by Newton's method: L2(u*)
 * at t = 0.2 on square:4 at degree `order` (high enough that the time error
 * shows above the spatial one) with dt = 0.02 and 0.01, checked within
 * [0.85, 1.15] for backward Euler and [1.75, 2.25] for DIRK(2,2); each run
 * takes Newton steps. */
static inline double time_order_ustar(hdgcl_context ref, const char *problem, const char *order,
                                      const char *scheme, const char *dt, int *newton_steps) {
  solved s = solve_with(ref, "square:4", "problem", problem, "order", order, "scheme", scheme,
                        "time-step", dt, "final-time", "0.2", NULL);
  CHECK_OK(s.status);
  double e = s.status ? NAN : s.result->l2_ustar;
  *newton_steps = s.status ? 0 : s.result->newton_steps_all;
  solved_destroy(&s);
  return e;
}

static inline void check_newton_time_orders(hdgcl_context ref, const char *problem, const char *order) {
  static const struct {
    const char *scheme;
    double lo, hi;
  } cases[] = {{"be", 0.85, 1.15}, {"dirk2", 1.75, 2.25}};
  for (int i = 0; i < 2; i++) {
    int n1, n2;
    double e1 = time_order_ustar(ref, problem, order, cases[i].scheme, "0.02", &n1);
    double e2 = time_order_ustar(ref, problem, order, cases[i].scheme, "0.01", &n2);
    double rate = log2(e1 / e2);
    printf("%s %s dt 0.02..0.01: L2(u*) %.3e %.3e, order %.2f (%d, %d Newton steps)\n", problem,
           cases[i].scheme, e1, e2, rate, n1, n2);
    CHECK_MSG(rate >= cases[i].lo && rate <= cases[i].hi, "%s %s: order %.2f", problem,
              cases[i].scheme, rate);
    CHECK(n2 > 0);
  }
}

/* max |K - K^T| / max |K| of the solver's assembled block-ELL trace matrix
 * (block (u, slot s) with column c against the transpose of block (c, slot t)
 * with column u); INFINITY if a block has no transposed partner or the
 * matrix is not available. */
static inline double trace_matrix_asymmetry(hdgcl_solver solver) {
  int rows, slots, nb;
  const double *val, *rhs;
  const int32_t *cols;
  if (hdgcl_solver_matrix(solver, &rows, &slots, &nb, &val, &cols, &rhs)) return INFINITY;
  double asym = 0.0, amax = 0.0;
  for (int u = 0; u < rows; u++)
    for (int s = 0; s < slots; s++) {
      int c = cols[(size_t)u * slots + s];
      if (c < 0) continue;
      int t = -1;
      for (int k = 0; k < slots; k++)
        if (cols[(size_t)c * slots + k] == u) t = k;
      if (t < 0) return INFINITY;
      const double *a = val + ((size_t)u * slots + s) * nb * nb;
      const double *b = val + ((size_t)c * slots + t) * nb * nb;
      for (int m = 0; m < nb; m++)
        for (int n = 0; n < nb; n++) {
          asym = fmax(asym, fabs(a[m * nb + n] - b[n * nb + m]));
          amax = fmax(amax, fabs(a[m * nb + n]));
        }
    }
  return amax > 0 ? asym / amax : asym;
}

/* The OpenCL context the tests use: $HDGCL_DEVICE or auto (PoCL in CI). */
static inline hdgcl_context test_device(void) {
  hdgcl_context ctx = NULL;
  int st = hdgcl_context_create(NULL, NULL, &ctx);
  if (st) {
    fprintf(stderr, "no OpenCL device: %s\n", hdgcl_last_error());
    exit(1);
  }
  return ctx;
}

/* A fresh temporary cache directory (program binaries, tuning records)
 * $TMPDIR/NAME-XXXXXX (or under /tmp) into dir; exits if it cannot be made. */
static inline void test_cache_dir_create(char *dir, size_t size, const char *name) {
  const char *tmp = getenv("TMPDIR");
  snprintf(dir, size, "%s/%s-XXXXXX", tmp && tmp[0] ? tmp : "/tmp", name);
  if (!mkdtemp(dir)) {
    perror("mkdtemp");
    exit(1);
  }
}

/* A context on device spec (NULL: the default device) with its cache in
 * dir (no_cache: bypassed). */
static inline hdgcl_context test_context_cached_on(const char *spec, const char *dir, bool no_cache) {
  hdgcl_options opts;
  CHECK_OK(hdgcl_options_create(&opts));
  CHECK_OK(hdgcl_options_set(opts, "cache-dir", dir));
  if (no_cache) CHECK_OK(hdgcl_options_set(opts, "no-cache", NULL));
  hdgcl_context ctx = NULL;
  CHECK_OK(hdgcl_context_create(spec, opts, &ctx));
  CHECK_OK(hdgcl_options_destroy(&opts));
  return ctx;
}

/* The same on the default device. */
static inline hdgcl_context test_context_cached(const char *dir, bool no_cache) {
  return test_context_cached_on(NULL, dir, no_cache);
}

/* Removes test_cache_dir_create's directory and the files in it. */
static inline void test_cache_dir_remove(const char *dir) {
  DIR *d = opendir(dir);
  if (d) {
    struct dirent *e;
    char path[600];
    while ((e = readdir(d)))
      if (e->d_name[0] != '.') {
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        remove(path);
      }
    closedir(d);
  }
  rmdir(dir);
}

#endif
