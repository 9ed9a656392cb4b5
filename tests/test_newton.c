/* Newton's method for nonlinear HDG problems (docs/nonlinear.md), on the
 * reference path:
 *   - quadratic convergence: with the Krylov tolerance fixed, the residual
 *     history of nonlinear-diffusion falls faster and faster, and
 *     r_{k+1} / r_k^2 stays bounded over the last steps (N13);
 *   - a linear problem through Newton (--newton true) takes one step and gives
 *     the linear solve's u, q, u* and trace to 1e-12, the same errors;
 *   - rates p+1 for u and q, p+2 for u*, p = 1..3, on square:4 and :8 (and p = 2
 *     on quad:4 and :8, p = 1 on cube:2 and :4);
 *   - a user's kappa(u) with its symbolic derivative; transient nonlinear
 *     (orders in time); the device (PoCL) against the reference path;
 *   - the JSON and the summary report the steps and the history (the CLI);
 *   - refusals: bad option values, Newton options on a linear problem, Newton
 *     on an OpenCL device (not implemented), no convergence in --newton-max
 *     steps, kappa(u) <= 0 met during the iteration; each a one-line error. */
#include "cli_run.h"
#include "core/error.h"
#include "hdg_test.h"

static void check_quadratic(hdgcl_context ref) {
  solved s = solve_with(ref, "square:8", "problem", "nonlinear-diffusion", "order", "2",
                        "newton-forcing", "fixed", NULL);
  CHECK_OK(s.status);
  if (s.status) return;
  const hdgcl_result *r = s.result;
  int n = r->newton_steps;
  printf("nonlinear-diffusion square:8 p=2, fixed forcing: %d steps:", n);
  for (int i = 0; i <= n; i++) printf(" %.3e", r->newton_history[i]);
  printf("\n");
  CHECK_MSG(n >= 3 && n <= 6, "%d Newton steps", n);
  CHECK(r->newton_history[n] <= 1e-8 * r->newton_history[0]);
  CHECK(r->newton_iterations[0] > 0);
  int sum = 0;
  for (int i = 0; i < n; i++) sum += r->newton_iterations[i];
  CHECK(sum == r->iterations);
  /* quadratic (N13): over the last two steps the observed order
   * log(r_{k+1} / r_k) / log(r_k / r_{k-1}) is near 2 (1 for a linear rate)
   * and r_{k+1} / r_k^2 stays bounded */
  for (int k = n - 2; k < n; k++) {
    double rho = r->newton_history[k + 1] / (r->newton_history[k] * r->newton_history[k]);
    double c_now = r->newton_history[k + 1] / r->newton_history[k];
    double c_before = r->newton_history[k] / r->newton_history[k - 1];
    double order = log(c_now) / log(c_before);
    printf("  step %d: r_k+1/r_k^2 = %.3f, order %.2f\n", k + 1, rho, order);
    CHECK_MSG(rho < 10.0, "step %d: r_k+1/r_k^2 = %g", k + 1, rho);
    CHECK_MSG(order > 1.6, "step %d: order %.2f", k + 1, order);
  }
  solved_destroy(&s);
  /* Eisenstat-Walker (the default) converges too */
  s = solve_with(ref, "square:8", "problem", "nonlinear-diffusion", "order", "2", NULL);
  CHECK_OK(s.status);
  if (!s.status)
    CHECK(s.result->newton_history[s.result->newton_steps] <= 1e-8 * s.result->newton_history[0]);
  solved_destroy(&s);
}

static void check_linear(hdgcl_context ref) {
  static const char *const problems[] = {"helmholtz-sin", "kappa-jump", "poisson-mixed"};
  for (int i = 0; i < 3; i++) {
    solved a = solve_with(ref, "square:4", "problem", problems[i], "order", "3", "rtol", "1e-14",
                          "solver", "gmres", NULL);
    solved b = solve_with(ref, "square:4", "problem", problems[i], "order", "3", "rtol", "1e-14",
                          "newton", "true", NULL);
    CHECK_OK(a.status);
    CHECK_OK(b.status);
    if (!a.status && !b.status) {
      double d = solution_difference(&b, &a, 1);
      printf("%s through Newton: %d step(s), difference %.2e, L2(u) %.6e vs %.6e\n", problems[i],
             b.result->newton_steps, d, b.result->l2_u, a.result->l2_u);
      CHECK_MSG(b.result->newton_steps == 1, "%s: %d Newton steps", problems[i], b.result->newton_steps);
      CHECK_MSG(d < 1e-12, "%s: Newton vs linear %g", problems[i], d);
      CHECK(fabs(b.result->l2_u - a.result->l2_u) <= 1e-10 * a.result->l2_u);
      CHECK(fabs(b.result->l2_q - a.result->l2_q) <= 1e-10 * a.result->l2_q);
    }
    solved_destroy(&a);
    solved_destroy(&b);
  }
}

static void check_rates(hdgcl_context ref) {
  for (int p = 1; p <= 3; p++) {
    char order[8];
    snprintf(order, sizeof order, "%d", p);
    solved a = solve_with(ref, "square:4", "problem", "nonlinear-diffusion", "order", order, NULL);
    solved b = solve_with(ref, "square:8", "problem", "nonlinear-diffusion", "order", order, NULL);
    CHECK_OK(a.status);
    CHECK_OK(b.status);
    if (!a.status && !b.status) check_convergence_rates("nonlinear-diffusion", &a, &b, p, 4);
    solved_destroy(&a);
    solved_destroy(&b);
  }
  /* quadrilaterals (tau = 10, docs/formulation.md section 6), p = 2 */
  solved qa = solve_with(ref, "quad:4", "problem", "nonlinear-diffusion", "order", "2", "tau", "10", NULL);
  solved qb = solve_with(ref, "quad:8", "problem", "nonlinear-diffusion", "order", "2", "tau", "10", NULL);
  CHECK_OK(qa.status);
  CHECK_OK(qb.status);
  if (!qa.status && !qb.status) check_convergence_rates("nonlinear-diffusion quad", &qa, &qb, 2, 4);
  solved_destroy(&qa);
  solved_destroy(&qb);
  solved a = solve_with(ref, "cube:2", "problem", "nonlinear-diffusion", "order", "1", NULL);
  solved b = solve_with(ref, "cube:4", "problem", "nonlinear-diffusion", "order", "1", NULL);
  CHECK_OK(a.status);
  CHECK_OK(b.status);
  if (!a.status && !b.status) {
    double ru = log2(a.result->l2_u / b.result->l2_u), rq = log2(a.result->l2_q / b.result->l2_q);
    printf("nonlinear-diffusion cube p=1 n=2..4: rates u %.2f q %.2f (%d, %d steps)\n", ru, rq,
           a.result->newton_steps, b.result->newton_steps);
    CHECK_MSG(ru > 1.5 && rq > 1.3, "3D rates u %.2f q %.2f", ru, rq); /* coarse: preasymptotic */
  }
  solved_destroy(&a);
  solved_destroy(&b);
}

static void check_refusals(hdgcl_context ref) {
  check_rejected(ref, "--newton-rtol 0", "problem", "nonlinear-diffusion", "newton-rtol", "0", NULL);
  check_rejected(ref, "--newton-rtol 2", "problem", "nonlinear-diffusion", "newton-rtol", "2", NULL);
  check_rejected(ref, "newton-max", "problem", "nonlinear-diffusion", "newton-max", "0", NULL);
  check_rejected(ref, "newton-forcing", "problem", "nonlinear-diffusion", "newton-forcing", "ew2", NULL);
  check_rejected(ref, "is linear", "problem", "helmholtz-sin", "newton-max", "3", NULL);
  check_rejected(ref, "is nonlinear", "problem", "nonlinear-diffusion", "newton", "false", NULL);
  check_rejected(ref, "--kappa-u2", "problem", "helmholtz-sin", "kappa-u2", "2", NULL);
  /* no convergence in one step */
  solved s = solve_with(ref, "square:4", "problem", "nonlinear-diffusion", "order", "2",
                        "newton-max", "1", NULL);
  CHECK(s.status == HDGCL_ERROR_CONVERGENCE);
  CHECK(strstr(hdgcl_last_error(), "did not converge in 1 steps") != NULL);
  CHECK(s.solver && s.result == NULL);
  solved_destroy(&s);
  /* kappa = 1 - u^2 goes negative where |u| > 1 (u reaches 2) */
  s = solve_with(ref, "square:4", "problem", "nonlinear-diffusion", "order", "2", "kappa-u2", "-1",
                 NULL);
  CHECK(s.status == HDGCL_ERROR_ARGUMENT || s.status == HDGCL_ERROR_CONVERGENCE);
  printf("kappa = 1 - u^2: %s\n", hdgcl_last_error());
  CHECK(strstr(hdgcl_last_error(), "kappa(u) =") != NULL || strstr(hdgcl_last_error(), "diverged"));
  solved_destroy(&s);
}

static void check_cli(void) {
  char dir[] = "/tmp/hdgcl_newton_XXXXXX", path[256];
  CHECK(mkdtemp(dir) != NULL);
  snprintf(path, sizeof path, "%s/out.json", dir);
  int rc = cli_run(dir, "solve --device ref --problem nonlinear-diffusion --mesh square:2 "
                        "--order 1 --json out.json");
  CHECK(rc == 0);
  CHECK(strstr(cli_out, "newton ") != NULL && strstr(cli_out, "iterations per step") != NULL);
  char buf[16384];
  cli_slurp(path, buf, sizeof buf);
  CHECK(strstr(buf, "\"newton\"") && strstr(buf, "\"residual_history\"") && strstr(buf, "\"steps\""));
  remove(path);
  rc = cli_run(dir, "solve --device ref --problem nonlinear-diffusion --mesh square:2 "
                    "--order 1 --newton-max 1 --json out.json");
  CHECK(rc != 0);
  CHECK(strstr(cli_err, "did not converge") != NULL);
  FILE *f = fopen(path, "r");
  CHECK(f == NULL); /* no output file */
  if (f) fclose(f);
  remove(path);
  rmdir(dir);
}

/* A user's kappa(u) (docs/nonlinear.md, kappa'(u) by the symbolic
 * derivative): nonlinear-diffusion written as expressions gives the
 * built-in's solution; the example (a Neumann side) converges at the
 * built-in's accuracy; kappa = 1 - u^2 is refused when it meets u > 1. */
static void write_file(const char *path, const char *kappa, const char *extra) {
  FILE *f = fopen(path, "w");
  CHECK(f != NULL);
  if (!f) return;
  fprintf(f,
          "{\"kappa\": \"%s\", \"exact\": \"sin(pi*x)*sin(pi*y) + (x + y)/2\",\n"
          " \"f\": \"(1 + (sin(pi*x)*sin(pi*y) + (x + y)/2)^2) * 2*pi^2*sin(pi*x)*sin(pi*y) - "
          "2*(sin(pi*x)*sin(pi*y) + (x + y)/2) * ((pi*cos(pi*x)*sin(pi*y) + 0.5)^2 + "
          "(pi*sin(pi*x)*cos(pi*y) + 0.5)^2)\",\n %s \"default\": {\"dirichlet\": \"exact\"}}\n",
          kappa, extra);
  fclose(f);
}

static void check_user_kappa(hdgcl_context ref, const char *examples) {
  const char *path = "test_newton_user.json";
  write_file(path, "1 + u^2", "");
  solved a = solve_with(ref, "square:4", "problem", "nonlinear-diffusion", "order", "2",
                        "newton-rtol", "1e-12", NULL);
  solved b = solve_with(ref, "square:4", "problem-file", path, "order", "2", "newton-rtol", "1e-12",
                        NULL);
  CHECK_OK(a.status);
  CHECK_OK(b.status);
  if (!a.status && !b.status) {
    double d = solution_difference(&b, &a, 1);
    printf("kappa = 1 + u^2 as a user's expression: %d steps, difference %.2e from the built-in\n",
           b.result->newton_steps, d);
    CHECK_MSG(d < 1e-10, "user kappa(u) vs built-in: %g", d);
  }
  solved_destroy(&b);
  char example[1024];
  snprintf(example, sizeof example, "%s/nonlinear-diffusion.json", examples);
  b = solve_with(ref, "square:4", "problem-file", example, "order", "2", NULL);
  CHECK_OK(b.status);
  if (!a.status && !b.status) {
    printf("examples/nonlinear-diffusion.json: %d steps, L2(u) %.4e (built-in %.4e)\n",
           b.result->newton_steps, b.result->l2_u, a.result->l2_u);
    CHECK(fabs(b.result->l2_u / a.result->l2_u - 1) < 0.1);
  }
  solved_destroy(&a);
  solved_destroy(&b);
  write_file(path, "1 - u^2", "");
  b = solve_with(ref, "square:4", "problem-file", path, "order", "2", NULL);
  CHECK(b.status == HDGCL_ERROR_ARGUMENT);
  CHECK(strstr(hdgcl_last_error(), "kappa(u) =") != NULL);
  solved_destroy(&b);
  remove(path);
}

/* Transient nonlinear (nonlinear-heat): every stage a Newton solve; the
 * orders in time of backward Euler and DIRK(2,2) on u* (p = 6 on square:4,
 * so that the time error shows above the spatial one), and the linear heat
 * problem stepped through Newton (--newton true) equals its linear stepping. */
static void check_transient(hdgcl_context ref) {
  check_newton_time_orders(ref, "nonlinear-heat", "6");
  solved a = solve_with(ref, "square:4", "problem", "heat-boundary", "order", "3", "scheme", "dirk3",
                        "time-step", "0.05", "final-time", "0.2", "rtol", "1e-14", "solver", "gmres",
                        NULL);
  solved b = solve_with(ref, "square:4", "problem", "heat-boundary", "order", "3", "scheme", "dirk3",
                        "time-step", "0.05", "final-time", "0.2", "rtol", "1e-14", "newton", "true",
                        NULL);
  CHECK_OK(a.status);
  CHECK_OK(b.status);
  if (!a.status && !b.status) {
    double d = solution_difference(&b, &a, 1);
    printf("heat-boundary dirk3 through Newton: %d Newton steps for %d stage solves, difference %.2e\n",
           b.result->newton_steps_all, b.result->stage_solves, d);
    CHECK(d < 1e-11);
    CHECK(b.result->newton_steps_all <= b.result->stage_solves);
  }
  solved_destroy(&a);
  solved_destroy(&b);
}

/* The device (cl/pipeline/local_newton.cl) against the reference path:
 * triangles and tetrahedra, p = 1..3, quadrilaterals (rectangles and a
 * smoothly distorted, bilinear mesh) and hexahedra, the same Newton steps,
 * u, q, u* and the trace to 1e-10, each step's residual to 1e-10; a linear
 * problem in one step; what the device does not take (curved elements) is
 * refused. */
static void check_device(hdgcl_context dev, hdgcl_context ref) {
  /* forcing "fixed" (linear solves to 1e-12): quad:4 p = 1 under Eisenstat-Walker
   * stops step 5's GMRES at 9 iterations, loosely, where the two Krylov
   * implementations' round-off differs by 2e-10 of ||R_0|| after the step
   * (docs/nonlinear.md section 7); with exact solves the two agree to 1e-16. */
  static const struct {
    const char *mesh, *order, *forcing, *rtol;
  } cases[] = {{"square:4", "1", "ew", "1e-12"},
               {"square:4", "2", "ew", "1e-12"},
               {"square:4", "3", "ew", "1e-12"},
               {"cube:2", "1", "ew", "1e-12"},
               {"cube:2", "2", "ew", "1e-12"},
               {"quad:4", "1", "fixed", "1e-12"},
               {"quad:4", "2", "ew", "1e-12"},
               {"quad:4,distort=0.15", "3", "ew", "1e-12"},
               {"hex:2", "1", "ew", "1e-12"},
               {"hex:2,distort=0.1", "2", "ew", "1e-12"}};
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    solved a = solve_with(ref, cases[i].mesh, "problem", "nonlinear-diffusion", "order", cases[i].order,
                          "newton-forcing", cases[i].forcing, "rtol", cases[i].rtol, NULL);
    solved b = solve_with(dev, cases[i].mesh, "problem", "nonlinear-diffusion", "order", cases[i].order,
                          "newton-forcing", cases[i].forcing, "rtol", cases[i].rtol, NULL);
    CHECK_OK(a.status);
    CHECK_OK(b.status);
    if (!a.status && !b.status) {
      double d = solution_difference(&b, &a, 1), dr = 0.0;
      CHECK(a.result->newton_steps == b.result->newton_steps);
      for (int k = 0; k <= a.result->newton_steps && a.result->newton_steps == b.result->newton_steps; k++)
        dr = fmax(dr, fabs(b.result->newton_history[k] - a.result->newton_history[k]) /
                          a.result->newton_history[0]);
      printf("device vs reference %s p=%s: %d steps, solution %.2e, residual history %.2e\n",
             cases[i].mesh, cases[i].order, b.result->newton_steps, d, dr);
      CHECK_MSG(d < 1e-10, "%s p=%s: device vs reference %g", cases[i].mesh, cases[i].order, d);
      CHECK_MSG(dr < 1e-10, "%s p=%s: residual histories %g", cases[i].mesh, cases[i].order, dr);
      CHECK(fabs(b.result->l2_u - a.result->l2_u) <= 1e-10 * a.result->l2_u);
    }
    solved_destroy(&a);
    solved_destroy(&b);
  }
  solved a = solve_with(dev, "square:4", "problem", "helmholtz-sin", "order", "3", "rtol", "1e-14",
                        NULL);
  solved b = solve_with(dev, "square:4", "problem", "helmholtz-sin", "order", "3", "rtol", "1e-14",
                        "newton", "true", NULL);
  CHECK_OK(a.status);
  CHECK_OK(b.status);
  if (!a.status && !b.status) {
    double d = solution_difference(&b, &a, 1);
    printf("device: helmholtz-sin through Newton: %d step, difference %.2e\n", b.result->newton_steps, d);
    CHECK(b.result->newton_steps == 1);
    CHECK(d < 1e-12);
  }
  solved_destroy(&a);
  solved_destroy(&b);
  /* curved elements: --device ref */
  a = solve_with(dev, "annulus-quad:2,order=2", "problem", "nonlinear-diffusion", "order", "1", NULL);
  CHECK(a.status == HDGCL_ERROR_UNSUPPORTED);
  CHECK(strstr(hdgcl_last_error(), "--device ref") != NULL);
  solved_destroy(&a);
}

/* A user's kappa(u) on the device (user_kappa_u, emitted with its symbolic
 * derivative): a kappa depending on x, y and u, with kappa(u_exact) in a
 * Neumann side's exact flux, with the one-item and the work-group element
 * kernels, against the reference path (one problem file: each compiles its
 * own programs). */
static void check_device_user(hdgcl_context dev, hdgcl_context ref) {
  const char *path = "test_newton_user_device.json";
  write_file(path, "1 + u^2 + 0.5*x*y*u", "\"boundary\": {\"top\": {\"neumann\": \"exact\"}},");
  const char *files[1] = {path}, *kernels[2] = {"item", "group:8"};
  for (int i = 0; i < 1; i++)
    for (int k = 0; k < 2; k++) {
      solved a = solve_with(ref, "square:4", "problem-file", files[i], "order", "2", "rtol", "1e-12", NULL);
      setenv("HDGCL_NEWTON_KERNEL", kernels[k], 1);
      solved b = solve_with(dev, "square:4", "problem-file", files[i], "order", "2", "rtol", "1e-12", NULL);
      unsetenv("HDGCL_NEWTON_KERNEL");
      CHECK_OK(a.status);
      CHECK_OK(b.status);
      if (!a.status && !b.status) {
        double d = solution_difference(&b, &a, 1);
        printf("device (%s) vs reference, %s: %d / %d steps, solution %.2e\n", kernels[k], files[i],
               b.result->newton_steps, a.result->newton_steps, d);
        CHECK(a.result->newton_steps == b.result->newton_steps);
        CHECK_MSG(d < 1e-10, "%s (%s): device vs reference %g", files[i], kernels[k], d);
      }
      solved_destroy(&a);
      solved_destroy(&b);
    }
  remove(path);
}

int main(int argc, char **argv) {
  const char *examples = argc > 1 ? argv[1] : "examples";
  hdgcl_context ref = NULL;
  CHECK_OK(hdgcl_context_create("ref", NULL, &ref));
  check_refusals(ref);
  check_quadratic(ref);
  check_linear(ref);
  check_rates(ref);
  check_user_kappa(ref, examples);
  check_transient(ref);
  check_cli();
  hdgcl_context dev = test_device();
  check_device(dev, ref);
  check_device_user(dev, ref);
  hdgcl_context_destroy(&dev);
  hdgcl_context_destroy(&ref);
  CHECK_DONE();
}
