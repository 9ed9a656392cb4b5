/* The postprocessed u* (F12) on the device, by both of its methods
 * (host/pipeline/recover.c): cl/pipeline/postprocess_tiled.cl (Gauss-Jordan of [A | b] in
 * registers, the default on affine elements whose system fits) and
 * cl/pipeline/recover.cl's postprocess (packed Cholesky, HDGCL_POSTPROCESS=cholesky).
 * On triangles p = 1, 5, 9 (grids 8, 8 and 11; p = 9 by default on GPUs
 * only), tetrahedra, convection-diffusion and elasticity in 2D and 3D (NCOMP
 * right-hand sides), and on the grids asked for (tiled:11, tiled:16), the two
 * give the same u* to round-off; mapped elements (quadrilaterals, hexahedra)
 * take the Cholesky kernel, HDGCL_POSTPROCESS=tiled is refused there, and a
 * bad HDGCL_POSTPROCESS value is an error naming the variable. */
#include "hdg_test.h"

/* u* of a solve with HDGCL_POSTPROCESS=method (NULL: unset), copied; *count
 * its length; NULL if the solve failed. */
static double *solve_ustar(hdgcl_context ctx, const char *method, const char *mesh,
                           const char *problem, const char *order, size_t per_element,
                           const char *expect_method, size_t *count) {
  if (method) setenv("HDGCL_POSTPROCESS", method, 1);
  else unsetenv("HDGCL_POSTPROCESS");
  solved s = solve_with(ctx, mesh, "problem", problem, "order", order, NULL);
  unsetenv("HDGCL_POSTPROCESS");
  double *copy = NULL;
  CHECK_MSG(s.status == 0, "%s %s p = %s (%s): %s", problem, mesh, order,
            method ? method : "default", hdgcl_last_error());
  if (!s.status) {
    CHECK_MSG(s.result->postprocess && !strcmp(s.result->postprocess, expect_method),
              "%s %s p = %s: u* by %s, expected %s", problem, mesh, order,
              s.result->postprocess ? s.result->postprocess : "(none)", expect_method);
    int g = method && !strncmp(method, "tiled:", 6) ? atoi(method + 6) : 0;
    CHECK_MSG(!g || s.result->postprocess_wg == g * g, "%s: work-groups of %d", method,
              s.result->postprocess_wg);
    const double *ustar;
    CHECK_OK(hdgcl_solver_solution(s.solver, NULL, NULL, &ustar, NULL));
    *count = (size_t)s.result->num_elements * per_element;
    copy = malloc(*count * sizeof *copy);
    if (copy) memcpy(copy, ustar, *count * sizeof *copy);
    printf("%-22s %-14s p = %-2s u* by %s, work-groups of %d, L2(u*) %.3e\n", problem, mesh,
           order, s.result->postprocess, s.result->postprocess_wg, s.result->l2_ustar);
  }
  solved_destroy(&s);
  return copy;
}

/* HDGCL_POSTPROCESS=method (NULL: the default), expected to take
 * expect_method, against Cholesky: the same u*. */
static void compare(hdgcl_context ctx, const char *mesh, const char *problem, int order, int dim,
                    int ncomp, const char *method, const char *expect_method) {
  char p[8];
  snprintf(p, sizeof p, "%d", order);
  size_t np1 = dim == 2 ? (size_t)(order + 2) * (order + 3) / 2
                        : (size_t)(order + 2) * (order + 3) * (order + 4) / 6;
  if (strncmp(mesh, "quad", 4) == 0) np1 = (size_t)(order + 2) * (order + 2);
  size_t n0 = 0, n1 = 0;
  double *a = solve_ustar(ctx, "cholesky", mesh, problem, p, ncomp * np1, "cholesky", &n0);
  double *b = solve_ustar(ctx, method, mesh, problem, p, ncomp * np1, expect_method, &n1);
  if (a && b && n0 == n1) {
    double diff = relative_difference(b, a, n0);
    printf("  u* differs by %.1e (relative to max |u*|)\n", diff);
    CHECK_MSG(diff < 1e-12, "%s %s p = %d: u* differs by %.3e", problem, mesh, order, diff);
  }
  free(a);
  free(b);
}

static void expect_refused(hdgcl_context ctx, const char *value, const char *mesh,
                           const char *message) {
  setenv("HDGCL_POSTPROCESS", value, 1);
  solved s = solve_with(ctx, mesh, "order", "1", NULL);
  unsetenv("HDGCL_POSTPROCESS");
  CHECK_MSG(s.status == HDGCL_ERROR_ARGUMENT, "HDGCL_POSTPROCESS=%s on %s: status %s", value,
            mesh, hdgcl_status_name(s.status));
  CHECK_MSG(strstr(hdgcl_last_error(), message) != NULL, "expected '%s' in '%s'", message,
            hdgcl_last_error());
  solved_destroy(&s);
}

int main(void) {
  hdgcl_context ctx = NULL;
  CHECK_OK(hdgcl_context_create(NULL, NULL, &ctx));
  if (!ctx) return 1;
  hdgcl_device_info info;
  CHECK_OK(hdgcl_context_info(ctx, &info));
  const char *tiled = "gauss-jordan-tiled", *tri = "square:4,perturb=0.2,seed=6";
  compare(ctx, tri, "helmholtz-sin", 1, 2, 1, NULL, tiled);
  compare(ctx, tri, "helmholtz-sin", 5, 2, 1, NULL, tiled);
  /* p = 9: the 11 x 11 grid, by default on GPUs only (host/pipeline/recover.c says why) */
  compare(ctx, tri, "helmholtz-sin", 9, 2, 1, NULL, info.is_cpu ? "cholesky" : tiled);
  compare(ctx, tri, "helmholtz-sin", 9, 2, 1, "tiled", tiled);
  compare(ctx, tri, "helmholtz-sin", 4, 2, 1, "tiled:16", tiled);
  compare(ctx, tri, "convection-diffusion", 3, 2, 1, NULL, tiled);
  compare(ctx, "cube:2", "helmholtz-sin", 3, 3, 1, NULL, tiled);
  compare(ctx, "cube:1", "helmholtz-sin", 2, 3, 1, "tiled:11", tiled);
  compare(ctx, tri, "elasticity", 3, 2, 2, NULL, tiled);
  compare(ctx, "cube:1", "elasticity", 2, 3, 3, NULL, tiled);
  compare(ctx, "quad:3", "helmholtz-sin", 2, 2, 1, NULL, "cholesky"); /* mapped */
  expect_refused(ctx, "tiled", "hex:1", "HDGCL_POSTPROCESS=tiled: mapped elements have no tiled u* kernel");
  expect_refused(ctx, "fast", "square:2", "HDGCL_POSTPROCESS=fast: expected auto, tiled, tiled:G");
  expect_refused(ctx, "tiled:9", "square:2", "HDGCL_POSTPROCESS=tiled:9: the grid side must be");
  hdgcl_context_destroy(&ctx);
  return check_failures;
}
