/* Time stepping of the transient problems (docs/time.md):
 *   - orders in time on the reference path (argument "orders" only): heat (u = 0 on the boundary),
 *     p = 8 on square:4 so that the error is the scheme's, dt and dt/2 to
 *     t = 0.5: backward Euler 1, DIRK(2,2) 2, BDF2 2, DIRK(3,3) 3; on
 *     heat-boundary (Dirichlet data changing in time) the first three keep
 *     theirs and DIRK(3,3) falls to between 2 and 3 (its order reduction);
 *   - rates in space p+1 (u, q) and p+2 (u*) at a time step too small to matter;
 *   - the device (OpenCL) against the reference path, two steps of every
 *     scheme on triangles, quadrilaterals (the mapped kernels) and
 *     tetrahedra, and with each one-kernel local stage and p-multigrid:
 *     u, q, u* and the trace to 1e-10, and the same errors;
 *   - the step callback (hdgcl_solver_set_step_callback): every step, its
 *     time and its errors, and a callback's error ends the solve; the CLI's
 *     --vtu-every series (.vtu files and the .pvd listing them);
 *   - a user's transient problem (t in its expressions): heat-boundary
 *     written as expressions gives the built-in's solution on the reference
 *     path and the device; an initial condition without an exact solution
 *     decays as it must (an integral output against exp(-2 pi^2 t)); the
 *     example examples/heat-transient.json runs, device = reference;
 *   - bad input: a time step or final time <= 0, an unknown scheme, time
 *     options on a steady problem, t where it may not appear. */
#include "cli_run.h"
#include "core/error.h"
#include "hdg_test.h"

static solved heat(hdgcl_context ctx, const char *mesh, const char *problem, const char *order,
                   const char *scheme, const char *dt, const char *t) {
  return solve_with(ctx, mesh, "problem", problem, "order", order, "scheme", scheme, "time-step", dt,
                    "final-time", t, "rtol", "1e-13", NULL);
}

/* The observed order of L2(u) between time steps dt and dt / 2. */
static double time_order(hdgcl_context ref, const char *problem, const char *scheme, const char *dt,
                         const char *dt2) {
  solved a = heat(ref, "square:4", problem, "8", scheme, dt, "0.5");
  solved b = heat(ref, "square:4", problem, "8", scheme, dt2, "0.5");
  CHECK_OK(a.status);
  CHECK_OK(b.status);
  double order = a.status || b.status ? 0.0 : log2(a.result->l2_u / b.result->l2_u);
  if (!a.status && !b.status) {
    printf("%s %s dt %s..%s: L2(u) %.3e %.3e, order %.2f (%d steps, %d stage solves)\n", problem,
           scheme, dt, dt2, a.result->l2_u, b.result->l2_u, order, b.result->time_steps,
           b.result->stage_solves);
    CHECK(strcmp(b.result->scheme, scheme) == 0);
    CHECK(b.result->time_steps == 2 * a.result->time_steps);
    CHECK(fabs(b.result->final_time - 0.5) < 1e-15);
  }
  solved_destroy(&a);
  solved_destroy(&b);
  return order;
}

static void check_time_orders(hdgcl_context ref) {
  static const struct {
    const char *scheme, *dt, *dt2;
    double lo, hi;       /* heat */
    double lo_b, hi_b;   /* heat-boundary */
  } cases[] = {
      {"be", "0.025", "0.0125", 0.9, 1.15, 0.9, 1.15},
      {"dirk2", "0.025", "0.0125", 1.8, 2.2, 1.8, 2.2},
      {"bdf2", "0.025", "0.0125", 1.8, 2.3, 1.8, 2.3},
      {"dirk3", "0.0125", "0.00625", 2.7, 3.3, 2.0, 2.7},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    double o = time_order(ref, "heat", cases[i].scheme, cases[i].dt, cases[i].dt2);
    CHECK_MSG(o >= cases[i].lo && o <= cases[i].hi, "heat %s: order %.2f", cases[i].scheme, o);
    o = time_order(ref, "heat-boundary", cases[i].scheme, cases[i].dt, cases[i].dt2);
    CHECK_MSG(o >= cases[i].lo_b && o <= cases[i].hi_b, "heat-boundary %s: order %.2f",
              cases[i].scheme, o);
  }
}

/* Space: DIRK(3,3) with dt = 0.01 to t = 0.1 (its error about 1e-9), p = 2 on square:4 and :8. */
static void check_space_rates(hdgcl_context ref) {
  solved a = heat(ref, "square:4", "heat-boundary", "2", "dirk3", "0.01", "0.1");
  solved b = heat(ref, "square:8", "heat-boundary", "2", "dirk3", "0.01", "0.1");
  CHECK_OK(a.status);
  CHECK_OK(b.status);
  if (!a.status && !b.status) check_convergence_rates("heat-boundary dirk3", &a, &b, 2, 4);
  solved_destroy(&a);
  solved_destroy(&b);
}

/* Two steps of every scheme on the device and the reference path. */
static void check_device(hdgcl_context dev, hdgcl_context ref) {
  static const char *const schemes[] = {"be", "dirk2", "dirk3", "bdf2"};
  static const char *const meshes[] = {"square:3", "quad:3,perturb=0.2,seed=1", "cube:1"};
  for (int m = 0; m < 3; m++)
    for (int i = 0; i < 4; i++) {
      solved r = heat(ref, meshes[m], "heat-boundary", "3", schemes[i], "0.1", "0.2");
      solved d = heat(dev, meshes[m], "heat-boundary", "3", schemes[i], "0.1", "0.2");
      CHECK_OK(r.status);
      CHECK_OK(d.status);
      if (!r.status && !d.status) {
        double diff = solution_difference(&d, &r, 1);
        double de = fabs(d.result->l2_u - r.result->l2_u) / r.result->l2_u;
        printf("%s %s: device - reference %.2e, L2(u) %.6e / %.6e\n", meshes[m], schemes[i], diff,
               d.result->l2_u, r.result->l2_u);
        CHECK_MSG(diff <= 1e-10, "%s %s: device differs by %.2e", meshes[m], schemes[i], diff);
        CHECK_MSG(de <= 1e-8, "%s %s: L2(u) differs by %.2e", meshes[m], schemes[i], de);
        CHECK(d.result->stage_solves == r.result->stage_solves);
      }
      solved_destroy(&d);
      solved_destroy(&r);
    }
  /* The one-kernel local stages (local_element, local_element_tiled) and
   * p-multigrid (its levels take the stage's shifted reaction). */
  solved r = heat(ref, "square:3", "heat-boundary", "3", "dirk2", "0.1", "0.2");
  CHECK_OK(r.status);
  static const char *const element[] = {"on", "tiled"};
  for (int i = 0; i < 2; i++) {
    setenv("HDGCL_LOCAL_ELEMENT", element[i], 1);
    solved d = heat(dev, "square:3", "heat-boundary", "3", "dirk2", "0.1", "0.2");
    unsetenv("HDGCL_LOCAL_ELEMENT");
    CHECK_OK(d.status);
    if (!d.status && !r.status) {
      double diff = solution_difference(&d, &r, 1);
      printf("HDGCL_LOCAL_ELEMENT=%s: device - reference %.2e\n", element[i], diff);
      CHECK_MSG(diff <= 1e-10, "HDGCL_LOCAL_ELEMENT=%s: %.2e", element[i], diff);
    }
    solved_destroy(&d);
  }
  solved p = solve_with(dev, "square:3", "problem", "heat-boundary", "order", "3", "scheme", "dirk2",
                        "time-step", "0.1", "final-time", "0.2", "rtol", "1e-13", "precond", "pmg",
                        NULL);
  CHECK_OK(p.status);
  if (!p.status && !r.status) {
    double diff = solution_difference(&p, &r, 1);
    printf("pmg: device - reference %.2e, %d iterations in %d solves\n", diff, p.result->iterations,
           p.result->stage_solves);
    CHECK_MSG(diff <= 1e-10, "pmg: %.2e", diff);
    CHECK_MSG(p.result->iterations_max <= 30, "pmg: %d iterations in a solve", p.result->iterations_max);
  }
  solved_destroy(&p);
  solved_destroy(&r);
}

typedef struct steps_seen {
  int count, last;
  double time, l2_u, stop_at;
} steps_seen;

static int on_step(void *data, hdgcl_solver solver, int step, double time) {
  steps_seen *s = data;
  const hdgcl_result *r;
  const double *u;
  CHECK_OK(hdgcl_solver_result(solver, &r));
  CHECK_OK(hdgcl_solver_solution(solver, &u, NULL, NULL, NULL));
  CHECK_MSG(step == s->last + 1, "step %d after %d", step, s->last);
  CHECK_MSG(fabs(time - 0.1 * step) < 1e-14, "step %d at t = %.17g", step, time);
  CHECK_MSG(isfinite(r->l2_u) && r->l2_u > 0 && r->l2_u < 1e-2, "step %d: L2(u) %g", step, r->l2_u);
  s->count++;
  s->last = step;
  s->time = time;
  s->l2_u = r->l2_u;
  if (s->stop_at > 0 && time >= s->stop_at - 1e-12)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "stopped by the test");
  return HDGCL_SUCCESS;
}

static void check_step_callback(hdgcl_context ref) {
  hdgcl_mesh *mesh = NULL;
  hdgcl_options opts = NULL;
  hdgcl_solver s = NULL;
  const hdgcl_result *r;
  CHECK_OK(hdgcl_mesh_create_from_spec("square:3", &mesh));
  CHECK_OK(hdgcl_options_create(&opts));
  CHECK_OK(hdgcl_options_set(opts, "problem", "heat-boundary"));
  CHECK_OK(hdgcl_options_set(opts, "scheme", "dirk2"));
  CHECK_OK(hdgcl_options_set(opts, "time-step", "0.1"));
  CHECK_OK(hdgcl_options_set(opts, "final-time", "0.5"));
  CHECK_OK(hdgcl_solver_create(ref, mesh, opts, &s));
  steps_seen seen = {0};
  CHECK_OK(hdgcl_solver_set_step_callback(s, on_step, &seen));
  CHECK_OK(hdgcl_solver_solve(s));
  CHECK_OK(hdgcl_solver_result(s, &r));
  CHECK_MSG(seen.count == 5 && seen.last == 5, "%d steps seen, last %d", seen.count, seen.last);
  CHECK(fabs(seen.l2_u - r->l2_u) <= 1e-15 * r->l2_u); /* the last step is the result */
  CHECK(r->time_steps == 5 && r->stage_solves == 10);
  /* a callback's error stops the integration and is the solve's */
  seen = (steps_seen){.stop_at = 0.2};
  CHECK_FAILS(hdgcl_solver_solve(s), HDGCL_ERROR_ARGUMENT);
  CHECK_MSG(strstr(hdgcl_last_error(), "step 2 (t = 0.2): the step callback returned") &&
                strstr(hdgcl_last_error(), "stopped by the test"),
            "message: %s", hdgcl_last_error());
  CHECK(seen.count == 2);
  hdgcl_solver_destroy(&s);
  /* refused on a steady problem */
  CHECK_OK(hdgcl_options_set(opts, "problem", "helmholtz-sin"));
  hdgcl_options_destroy(&opts);
  CHECK_OK(hdgcl_options_create(&opts));
  CHECK_OK(hdgcl_solver_create(ref, mesh, opts, &s));
  CHECK_FAILS(hdgcl_solver_set_step_callback(s, on_step, &seen), HDGCL_ERROR_ARGUMENT);
  CHECK(strstr(hdgcl_last_error(), "problem helmholtz-sin is steady") != NULL);
  hdgcl_solver_destroy(&s);
  hdgcl_options_destroy(&opts);
  hdgcl_mesh_destroy(&mesh);
}

/* The CLI: --vtu-every's files, the summary and JSON of a transient run, and its errors. */
static void check_cli(void) {
  char dir[256];
  test_cache_dir_create(dir, sizeof dir, "hdgcl-time");
  CHECK(cli_run(dir, "solve --device ref --problem heat --scheme bdf2 --time-step 0.1 "
                     "--final-time 0.45 --vtu run.vtu --vtu-every 2 --json run.json") == 0);
  CHECK_MSG(strstr(cli_out, "time      bdf2, 5 steps of 0.09 to t = 0.45, 6 stage solves"),
            "summary: %s", cli_out);
  static const char *const files[] = {"run.vtu", "run.pvd", "run-000002.vtu", "run-000004.vtu",
                                      "run-000005.vtu", "run.json"};
  char path[512];
  for (int i = 0; i < 6; i++) {
    snprintf(path, sizeof path, "%s/%s", dir, files[i]);
    CHECK_MSG(access(path, R_OK) == 0, "%s not written", files[i]);
    unlink(path);
  }
  snprintf(path, sizeof path, "%s/run-000001.vtu", dir);
  CHECK_MSG(access(path, F_OK) != 0, "run-000001.vtu written (every 2nd step asked)");
  CHECK(cli_run(dir, "solve --device ref --problem heat --vtu-every 2") != 0);
  CHECK(strstr(cli_err, "--vtu-every needs --vtu FILE") != NULL);
  CHECK(cli_run(dir, "solve --device ref --vtu a.vtu --vtu-every 2") != 0);
  CHECK(strstr(cli_err, "--vtu-every: hdgcl_solver_set_step_callback: problem helmholtz-sin is steady") != NULL);
  CHECK(cli_run(dir, "solve --device ref --problem heat --time-step -1") != 0);
  CHECK(strstr(cli_err, "--time-step -1: must be a finite number > 0") != NULL);
  rmdir(dir);
}

#define HEAT_EXACT "cos(t)*sin(pi*x)*sin(pi*y) + sin(t)*(x+y)/2"
#define HEAT_F "(2*pi^2*cos(t) - sin(t))*sin(pi*x)*sin(pi*y) + cos(t)*(x+y)/2"

static solved user_heat(hdgcl_context ctx, const char *mesh) {
  return solve_with(ctx, mesh, "problem", "user", "transient", "true", "exact", HEAT_EXACT, "f", HEAT_F,
                    "bc-default", "dirichlet", "order", "3", "scheme", "dirk3", "time-step", "0.1",
                    "final-time", "0.2", "rtol", "1e-13", NULL);
}

static void check_user_problems(hdgcl_context dev, hdgcl_context ref, const char *examples) {
  static const char *const meshes[] = {"square:3", "quad:3,perturb=0.2,seed=1"};
  for (int m = 0; m < 2; m++) {
    solved b = heat(ref, meshes[m], "heat-boundary", "3", "dirk3", "0.1", "0.2");
    solved r = user_heat(ref, meshes[m]);
    solved d = user_heat(dev, meshes[m]);
    CHECK_OK(b.status);
    CHECK_OK(r.status);
    CHECK_OK(d.status);
    if (!b.status && !r.status && !d.status) {
      double same = solution_difference(&r, &b, 1), dr = solution_difference(&d, &r, 1);
      printf("%s: user heat-boundary - built-in %.2e, device - reference %.2e\n", meshes[m], same, dr);
      CHECK_MSG(same <= 1e-12, "%s: the user's problem differs from the built-in by %.2e", meshes[m], same);
      CHECK_MSG(dr <= 1e-10, "%s: device - reference %.2e", meshes[m], dr);
      CHECK(fabs(r.result->l2_u - b.result->l2_u) <= 1e-12 * b.result->l2_u);
    }
    solved_destroy(&b);
    solved_destroy(&r);
    solved_destroy(&d);
  }
  /* u0 = sin(pi x) sin(pi y), f = 0, u = 0 on the boundary: u = exp(-2 pi^2 t) u0 */
  for (int k = 0; k < 2; k++) {
    solved s = solve_with(k ? dev : ref, "square:4", "problem", "user", "transient", "true", "initial",
                          "sin(pi*x)*sin(pi*y)", "bc-default", "dirichlet: 0", "order", "4",
                          "scheme", "dirk3", "time-step", "0.005", "final-time", "0.1", "output",
                          "integral: u", NULL);
    CHECK_OK(s.status);
    if (!s.status) {
      const double pi = 3.14159265358979323846;
      double exact = 4.0 / (pi * pi) * exp(-2.0 * pi * pi * 0.1);
      double got = s.result->outputs[0].values[0];
      printf("decay (%s): integral of u %.10f, exact %.10f\n", k ? "device" : "reference", got, exact);
      CHECK_MSG(fabs(got - exact) <= 1e-4 * exact, "decay: %.10f against %.10f", got, exact);
      CHECK(isnan(s.result->l2_u)); /* no exact solution given */
    }
    solved_destroy(&s);
  }
  /* the example problem file, through the CLI, device and reference */
  char args[1024], out[2][64] = {"", ""};
  for (int k = 0; k < 2; k++) {
    snprintf(args, sizeof args,
             "solve %s --problem-file %s/heat-transient.json --mesh square:4 --order 2 "
             "--time-step 0.1 --final-time 1",
             k ? "" : "--device ref", examples);
    CHECK_MSG(cli_run(NULL, args) == 0, "%s: %s", args, cli_err);
    const char *at = strstr(cli_out, "integral: u: integral = ");
    CHECK_MSG(at != NULL, "no integral in %s", cli_out);
    if (at) sscanf(at + strlen("integral: u: integral = "), "%63s", out[k]);
  }
  double a = atof(out[0]), b = atof(out[1]);
  printf("heat-transient.json: integral of u at t = 1: %s (reference), %s (device)\n", out[0], out[1]);
  CHECK_MSG(a > 0.5 && a < 1.0, "heat-transient.json: integral %g", a);
  CHECK_MSG(fabs(a - b) <= 1e-9 * a, "heat-transient.json: device %s, reference %s", out[1], out[0]);
}

static void check_bad_input(hdgcl_context ref) {
  check_rejected(ref, "--time-step 0: must be a finite number > 0", "problem", "heat", "time-step",
                 "0", NULL);
  check_rejected(ref, "--time-step -0.1: must be", "problem", "heat", "time-step", "-0.1", NULL);
  check_rejected(ref, "--final-time 0: must be", "problem", "heat", "final-time", "0", NULL);
  check_rejected(ref, "scheme", "problem", "heat", "scheme", "rk4", NULL);
  check_rejected(ref, "--time-step: problem helmholtz-sin is steady", "problem", "helmholtz-sin",
                 "time-step", "0.1", NULL);
  check_rejected(ref, "--scheme: problem elasticity is steady", "problem", "elasticity", "scheme",
                 "be", NULL);
  /* a user's problem: where t may appear */
  const char *u = "problem", *user = "user", *bc = "bc-default", *zero = "dirichlet: 0";
  check_rejected(ref, "f uses the time t: the problem is steady (give transient = true", u, user,
                 bc, zero, "f", "t*x", NULL);
  check_rejected(ref, "kappa uses the time t: only the exact solution, f and the boundary data", u,
                 user, bc, zero, "transient", "true", "initial", "x", "kappa", "1 + t", NULL);
  check_rejected(ref, "c uses the time t", u, user, bc, zero, "transient", "true", "initial", "x",
                 "c", "t", NULL);
  check_rejected(ref, "transient = true: give initial (u at t = 0) or exact", u, user, bc, zero,
                 "transient", "true", NULL);
  check_rejected(ref, "--initial: an initial condition needs transient = true", u, user, bc, zero,
                 "initial", "x", NULL);
  check_rejected(ref, "--transient: 'maybe': expected true or false", u, user, bc, zero,
                 "transient", "maybe", NULL);
  check_rejected(ref, "--initial: 't': u at t = 0 cannot depend on t", u, user, bc, zero,
                 "transient", "true", "initial", "t", NULL);
  check_rejected(ref, "time stepping solves scalar problems only", u, user, "pde", "elasticity",
                 "exact", "x, y", "bc-default", "displacement", "transient", "true", NULL);
}

/* "orders": the orders in time alone (ctest's test_time_orders, label slow:
 * about 100 s of reference solves, not repeated under the sanitizers). */
int main(int argc, char **argv) {
  hdgcl_context ref = NULL;
  CHECK_OK(hdgcl_context_create("ref", NULL, &ref));
  const char *examples = argc > 1 ? argv[1] : "examples";
  if (strcmp(examples, "orders") == 0) {
    check_time_orders(ref);
    hdgcl_context_destroy(&ref);
    CHECK_DONE();
  }
  check_bad_input(ref);
  check_step_callback(ref);
  check_cli();
  check_space_rates(ref);
  hdgcl_context dev = test_device();
  check_device(dev, ref);
  check_user_problems(dev, ref, examples);
  hdgcl_context_destroy(&dev);
  hdgcl_context_destroy(&ref);
  CHECK_DONE();
}
