/* Viscous Burgers through Newton's method (docs/nonlinear.md section 9,
 * (N14)-(N16)):
 *   - quadratic convergence of Newton on the residual history (the exact
 *     Jacobian (N16); a wrong convection derivative makes it linear);
 *   - rates p+1 for u and q, p+2 for u*, on square:4 and :8, p = 1, 2, on
 *     quad:4 and :8, p = 2, and on cube:2 and :4, p = 1 (coarse, preasymptotic),
 *     with nu = 1 (at the default nu = 0.1 these meshes are preasymptotic for q:
 *     docs/nonlinear.md section 9 has both);
 *   - burgers-transient: the orders in time of backward Euler (1) and
 *     DIRK(2,2) (2);
 *   - the device (PoCL) against the reference path: each step's residual and
 *     the converged u, q, u* and trace to 1e-10 on triangles, rectangles,
 *     distorted (bilinear) quadrilaterals, tetrahedra and hexahedra;
 *     burgers-transient and nonlinear-heat (DIRK(2,2), the stages' element
 *     load) to 1e-10 on triangles, distorted quadrilaterals and hexahedra;
 *   - paper 001's problem (burgers-paper001, (N25)): Newton converges with
 *     about Table 1's GMRES iterations, u_h bounded, device = reference;
 *   - refusals: --nu <= 0, --nu on another problem; each a one-line error. */
#include "core/error.h"
#include "hdg_test.h"

static void check_quadratic(hdgcl_context ref) {
  solved s = solve_with(ref, "square:8", "problem", "burgers", "order", "2", "newton-forcing",
                        "fixed", "newton-rtol", "1e-10", NULL);
  CHECK_OK(s.status);
  if (s.status) return;
  const hdgcl_result *r = s.result;
  int n = r->newton_steps;
  printf("burgers square:8 p=2, fixed forcing: %d steps:", n);
  for (int i = 0; i <= n; i++) printf(" %.3e", r->newton_history[i]);
  printf("\n");
  CHECK_MSG(n >= 3 && n <= 6, "%d Newton steps", n);
  CHECK(r->newton_history[n] <= 1e-10 * r->newton_history[0]);
  /* quadratic (N13): the observed order log(r_{k+1} / r_k) / log(r_k / r_{k-1})
   * near 2 over the last two steps, r_{k+1} / r_k^2 bounded */
  for (int k = n - 2; k < n; k++) {
    double rho = r->newton_history[k + 1] / (r->newton_history[k] * r->newton_history[k]);
    double order = log(r->newton_history[k + 1] / r->newton_history[k]) /
                   log(r->newton_history[k] / r->newton_history[k - 1]);
    printf("  step %d: r_k+1/r_k^2 = %.3f, order %.2f\n", k + 1, rho, order);
    CHECK_MSG(rho < 10.0, "step %d: r_k+1/r_k^2 = %g", k + 1, rho);
    CHECK_MSG(order > 1.6, "step %d: order %.2f", k + 1, order);
  }
  solved_destroy(&s);
}

static void check_rates(hdgcl_context ref) {
  static const struct {
    const char *coarse, *fine, *order, *tau, *label;
    int p, n0;
  } cases[] = {{"square:4", "square:8", "1", "1", "burgers nu=1", 1, 4},
               {"square:4", "square:8", "2", "1", "burgers nu=1", 2, 4},
               {"quad:4", "quad:8", "2", "1", "burgers nu=1 quad", 2, 4}};
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    solved a = solve_with(ref, cases[i].coarse, "problem", "burgers", "order", cases[i].order, "tau",
                          cases[i].tau, "nu", "1", NULL);
    solved b = solve_with(ref, cases[i].fine, "problem", "burgers", "order", cases[i].order, "tau",
                          cases[i].tau, "nu", "1", NULL);
    CHECK_OK(a.status);
    CHECK_OK(b.status);
    if (!a.status && !b.status) check_convergence_rates(cases[i].label, &a, &b, cases[i].p, cases[i].n0);
    solved_destroy(&a);
    solved_destroy(&b);
  }
  solved a = solve_with(ref, "cube:2", "problem", "burgers", "order", "1", "nu", "1", NULL);
  solved b = solve_with(ref, "cube:4", "problem", "burgers", "order", "1", "nu", "1", NULL);
  CHECK_OK(a.status);
  CHECK_OK(b.status);
  if (!a.status && !b.status) {
    double ru = log2(a.result->l2_u / b.result->l2_u), rq = log2(a.result->l2_q / b.result->l2_q);
    printf("burgers cube p=1 n=2..4: rates u %.2f q %.2f (%d, %d steps)\n", ru, rq,
           a.result->newton_steps, b.result->newton_steps);
    CHECK_MSG(ru > 1.5 && rq > 1.3, "3D rates u %.2f q %.2f", ru, rq); /* coarse: preasymptotic */
  }
  solved_destroy(&a);
  solved_destroy(&b);
}

/* burgers-transient to t = 0.2 on square:4, p = 5: orders of backward Euler and DIRK(2,2). */
static void check_transient(hdgcl_context ref) {
  check_newton_time_orders(ref, "burgers-transient", "5");
}

/* The device (cl/pipeline/local_newton.cl) against the reference path:
 * the same Newton steps with the same residuals (the first step's included),
 * and the converged u, q, u* and trace to 1e-10. */
static void check_device(hdgcl_context dev, hdgcl_context ref) {
  /* quad:4 p = 1 with the linear solves to --rtol 1e-12 ("fixed"): under
   * Eisenstat-Walker its loose GMRES solves leave the two Krylov
   * implementations' round-off at 2e-10 (test_newton's check_device) */
  static const struct {
    const char *mesh, *order, *forcing;
  } cases[] = {{"square:4", "1", "ew"}, {"square:4", "2", "ew"}, {"square:4", "3", "ew"},
               {"cube:2", "1", "ew"},   {"quad:4", "1", "fixed"}, {"quad:4", "2", "ew"},
               {"quad:4,distort=0.15", "3", "ew"},            {"hex:2", "1", "ew"},
               {"hex:2,distort=0.1", "2", "ew"}};
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    solved a = solve_with(ref, cases[i].mesh, "problem", "burgers", "order", cases[i].order,
                          "newton-forcing", cases[i].forcing, NULL);
    solved b = solve_with(dev, cases[i].mesh, "problem", "burgers", "order", cases[i].order,
                          "newton-forcing", cases[i].forcing, NULL);
    CHECK_OK(a.status);
    CHECK_OK(b.status);
    if (!a.status && !b.status) {
      double d = solution_difference(&b, &a, 1), dr = 0.0;
      CHECK(a.result->newton_steps == b.result->newton_steps);
      for (int k = 0; k <= a.result->newton_steps && a.result->newton_steps == b.result->newton_steps; k++)
        dr = fmax(dr, fabs(b.result->newton_history[k] - a.result->newton_history[k]) /
                          a.result->newton_history[0]);
      printf("burgers device vs reference %s p=%s: %d steps, solution %.2e, residual history %.2e\n",
             cases[i].mesh, cases[i].order, b.result->newton_steps, d, dr);
      CHECK_MSG(d < 1e-10, "%s p=%s: device vs reference %g", cases[i].mesh, cases[i].order, d);
      CHECK_MSG(dr < 1e-10, "%s p=%s: residual histories %g", cases[i].mesh, cases[i].order, dr);
    }
    solved_destroy(&a);
    solved_destroy(&b);
  }
  /* transient: every stage a Newton solve with the element load on the device
   * too (DIRK(2,2), 4 steps: 8 stages), on triangles, distorted
   * quadrilaterals and hexahedra */
  static const char *const transient[] = {"burgers-transient", "nonlinear-heat"};
  static const char *const tmesh[] = {"square:4", "quad:4,distort=0.15", "hex:2"};
  for (int i = 0; i < 6; i++) {
    const char *mesh = tmesh[i / 2], *order = i / 2 == 2 ? "1" : "2";
    solved a = solve_with(ref, mesh, "problem", transient[i % 2], "order", order, "scheme", "dirk2",
                          "time-step", "0.05", "final-time", "0.2", NULL);
    solved b = solve_with(dev, mesh, "problem", transient[i % 2], "order", order, "scheme", "dirk2",
                          "time-step", "0.05", "final-time", "0.2", NULL);
    CHECK_OK(a.status);
    CHECK_OK(b.status);
    if (!a.status && !b.status) {
      double d = solution_difference(&b, &a, 1);
      printf("%s device vs reference %s p=%s dirk2: %d, %d Newton steps, solution %.2e\n",
             transient[i % 2], mesh, order, a.result->newton_steps_all, b.result->newton_steps_all, d);
      CHECK(a.result->newton_steps_all == b.result->newton_steps_all);
      CHECK_MSG(d < 1e-10, "%s %s: device vs reference %g", transient[i % 2], mesh, d);
    }
    solved_destroy(&a);
    solved_destroy(&b);
  }
}

/* Paper 001's Burgers problem (section 5.1, (N25)) with the paper's solver
 * settings (GMRES(50), linear tolerance 1e-6 at every step, block-Jacobi):
 * Newton converges, the total GMRES iterations near Table 1's (203 at k = 2,
 * 1/h = 16), u_h - (1 - 2x) bounded by 2 (|u| <= 1 by the maximum
 * principle; no exact solution); the device against the reference path to
 * 1e-10 (linear solves to --rtol 1e-12, "fixed": under Eisenstat-Walker the
 * loose solves' round-off differs by 2e-10, as in check_device). */
static void check_paper001(hdgcl_context dev, hdgcl_context ref) {
  solved s = solve_with(ref, "quad:16", "problem", "burgers-paper001", "order", "2", "precond",
                        "block-jacobi", "restart", "50", "rtol", "1e-6", "newton-forcing", "fixed", NULL);
  CHECK_OK(s.status);
  if (!s.status) {
    const hdgcl_result *r = s.result;
    int total = 0;
    for (int k = 0; k < r->newton_steps; k++) total += r->newton_iterations[k];
    printf("burgers-paper001 quad:16 p=2 (ref): %d Newton steps, %d GMRES iterations (paper: 203), "
           "max |u_h - (1 - 2x)| %.4f\n", r->newton_steps, total, r->linf_u);
    CHECK_MSG(r->newton_steps >= 3 && r->newton_steps <= 10, "%d Newton steps", r->newton_steps);
    CHECK_MSG(total >= 150 && total <= 260, "%d GMRES iterations", total);
    /* |u| <= 1 and |1 - 2x| <= 1: their difference at most 2 (with a small overshoot) */
    CHECK_MSG(r->linf_u < 2.1, "max |u_h - (1 - 2x)| %g", r->linf_u);
  }
  solved_destroy(&s);
  static const char *const meshes[] = {"quad:8", "quad:8,distort=0.1"};
  for (int i = 0; i < 2; i++) {
    solved a = solve_with(ref, meshes[i], "problem", "burgers-paper001", "order", "2",
                          "newton-forcing", "fixed", NULL);
    solved b = solve_with(dev, meshes[i], "problem", "burgers-paper001", "order", "2",
                          "newton-forcing", "fixed", NULL);
    CHECK_OK(a.status);
    CHECK_OK(b.status);
    if (!a.status && !b.status) {
      double d = solution_difference(&b, &a, 1), dr = 0.0;
      CHECK(a.result->newton_steps == b.result->newton_steps);
      for (int k = 0; k <= a.result->newton_steps && a.result->newton_steps == b.result->newton_steps; k++)
        dr = fmax(dr, fabs(b.result->newton_history[k] - a.result->newton_history[k]) /
                          a.result->newton_history[0]);
      printf("burgers-paper001 device vs reference %s p=2: %d steps, solution %.2e, residual "
             "history %.2e\n", meshes[i], b.result->newton_steps, d, dr);
      CHECK_MSG(d < 1e-10, "paper001 %s: device vs reference %g", meshes[i], d);
      CHECK_MSG(dr < 1e-10, "paper001 %s: residual histories %g", meshes[i], dr);
    }
    solved_destroy(&a);
    solved_destroy(&b);
  }
  s = solve_with(ref, "hex:2", "problem", "burgers-paper001", NULL);
  CHECK(s.status == HDGCL_ERROR_ARGUMENT);
  CHECK(strstr(hdgcl_last_error(), "posed in 2D") != NULL);
  solved_destroy(&s);
}

static void check_refusals(hdgcl_context ref) {
  check_rejected(ref, "--nu -1", "problem", "burgers", "nu", "-1", NULL);
  check_rejected(ref, "--nu 0", "problem", "burgers-transient", "nu", "0", NULL);
  check_rejected(ref, "--nu", "problem", "nonlinear-diffusion", "nu", "1", NULL);
}

int main(void) {
  hdgcl_context ref = NULL;
  CHECK_OK(hdgcl_context_create("ref", NULL, &ref));
  check_refusals(ref);
  check_quadratic(ref);
  check_rates(ref);
  check_transient(ref);
  hdgcl_context dev = test_device();
  check_device(dev, ref);
  check_paper001(dev, ref);
  hdgcl_context_destroy(&dev);
  hdgcl_context_destroy(&ref);
  CHECK_DONE();
}
