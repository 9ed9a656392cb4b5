/* The solver object (include/hdgcl/solver.h): options, setup shared by both
 * paths, dispatch to the reference path or the device pipeline, results. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "pipeline/pipeline_operator.h"
#include "reference/reference_operator.h"
#include "solvers/krylov.h" /* MDOT_MAX */
#include "drivers/solver_impl.h"
#include "drivers/newton.h"
#include "reference/reference_neo_hookean_solve.h"
#include "drivers/time_stepping.h"
#include "problem/user_problem.h"

#define MAX_ORDER 10

const char *const hdgcl_solver_options[] = {
    "problem",   "order",       "tau",        "rtol",     "maxit",      "solver",
    "precond",   "restart",     "flexible",   "cheb-degree", "cheb-inner", "cheb-mixed", "format",
    "chunk",     "keep-local",  "poly-degree", "kappa2",  "beta",  "scratch",    "pmg-smooth", "pmg-coarse",
    "pmg-coarse-solve",
    "mu",        "lambda",      "weight",     "contrast", "material",
    "scheme",    "time-step",   "final-time", /* transient problems (drivers/time_stepping.h) */
    "newton",    "newton-rtol", "newton-max", "newton-forcing", "kappa-u2", "nu", /* drivers/newton.h */
    "ptc",       "ptc-dt0",     "ptc-dt-max", "newton-start", "load-steps", "load-scale",
    "line-search", /* neo-hookean (docs/nonlinear.md section 11) */
    /* a user's own problem (host/problem/user_problem.h, docs/problems.md) */
    HDG_USER_PROBLEM_OPTION_NAMES, NULL};

/* In the order of PRECOND_* and SOLVER_* (solvers/solver_settings.h), FORMAT_*
 * (solvers/linear_system.h). */
static const char *const precond_names[] = {"none", "jacobi", "block-jacobi", "chebyshev", "asm",
                                            "pmg",  NULL};
static const char *const solver_names[] = {"cg", "gmres", NULL};
static const char *const format_names[] = {"bell", "ell", "bell-i", NULL};
static const char *const stage_names[HDGCL_NUM_STAGES] = {"upload",  "local",   "assemble",
                                                          "solve",   "recover", "download"};

static double largest_diameter(const hdgcl_mesh *mesh) {
  double h = 0.0;
  int nv = mesh->verts_per_element, d = mesh->dim;
  for (int32_t e = 0; e < mesh->num_elements; e++) {
    const int32_t *v = mesh->elem_verts + (size_t)e * nv;
    int ev = hdgcl_mesh_element_verts(mesh, e); /* a mixed mesh: e's own vertices */
    for (int a = 0; a < ev; a++)
      for (int b = a + 1; b < ev; b++) {
        double s = 0.0;
        for (int k = 0; k < d; k++) {
          double dx = mesh->coords[(size_t)v[a] * d + k] - mesh->coords[(size_t)v[b] * d + k];
          s += dx * dx;
        }
        if (s > h) h = s;
      }
  }
  return sqrt(h);
}

/* The time stepping of a transient problem (docs/time.md); refused for the others. */
static int read_time_options(hdgcl_solver s, hdgcl_options opts) {
  static const char *const names[] = {"scheme", "time-step", "final-time"};
  if (!s->disc.problem->transient) {
    for (int i = 0; i < 3; i++)
      if (opts && hdgcl_options_has(opts, names[i]))
        return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                           "--%s: problem %s is steady (time stepping needs a transient problem, "
                           "e.g. --problem heat; docs/time.md)",
                           names[i], s->disc.problem->info.name);
    return HDGCL_SUCCESS;
  }
  HDGCL_TRY(hdgcl_options_get_choice(opts, "scheme", time_scheme_names, 1, &s->scheme));
  HDGCL_TRY(hdgcl_options_get_real(opts, "time-step", 0.05, -HUGE_VAL, HUGE_VAL, &s->time_step));
  HDGCL_TRY(hdgcl_options_get_real(opts, "final-time", 1.0, -HUGE_VAL, HUGE_VAL, &s->final_time));
  if (!(s->time_step > 0) || !isfinite(s->time_step))
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "--time-step %g: must be a finite number > 0",
                       s->time_step);
  if (!(s->final_time > 0) || !isfinite(s->final_time))
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "--final-time %g: must be a finite number > 0",
                       s->final_time);
  return HDGCL_SUCCESS;
}

/* Pseudo-transient continuation (docs/nonlinear.md section 10): a steady
 * problem solved by Newton's method; its options refused elsewhere. */
static int read_ptc_options(hdgcl_solver s, hdgcl_options opts) {
  static const char *const names[] = {"ptc-dt0", "ptc-dt-max"};
  HDGCL_TRY(hdgcl_options_get_bool(opts, "ptc", false, &s->ptc));
  if (s->ptc && (!s->newton || s->disc.problem->transient))
    return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                       "--ptc true: problem %s is %s; pseudo-transient continuation takes a steady "
                       "problem solved by Newton's method (docs/nonlinear.md)",
                       s->disc.problem->info.name, s->newton ? "transient" : "linear (--newton false)");
  for (int i = 0; i < 2 && !s->ptc; i++)
    if (opts && hdgcl_options_has(opts, names[i]))
      return hdgcl_error(HDGCL_ERROR_ARGUMENT, "--%s: an option of --ptc true", names[i]);
  HDGCL_TRY(hdgcl_options_get_real(opts, "ptc-dt0", 0.1, -HUGE_VAL, HUGE_VAL, &s->ptc_dt0));
  HDGCL_TRY(hdgcl_options_get_real(opts, "ptc-dt-max", 1e12, -HUGE_VAL, HUGE_VAL, &s->ptc_dt_max));
  if (!(s->ptc_dt0 > 0) || !isfinite(s->ptc_dt0))
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "--ptc-dt0 %g: must be a finite number > 0", s->ptc_dt0);
  if (!(s->ptc_dt_max >= s->ptc_dt0) || !isfinite(s->ptc_dt_max))
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "--ptc-dt-max %g: must be a finite number >= --ptc-dt0 %g",
                       s->ptc_dt_max, s->ptc_dt0);
  return HDGCL_SUCCESS;
}

/* Newton's method (docs/nonlinear.md): on for a nonlinear problem, or asked
 * for a linear one (--newton true); its options refused elsewhere. */
static int read_newton_options(hdgcl_solver s, hdgcl_options opts) {
  static const char *const names[] = {"newton-rtol", "newton-max", "newton-forcing", "newton-start"};
  bool nonlinear = s->disc.problem->nonlinear;
  HDGCL_TRY(hdgcl_options_get_bool(opts, "newton", nonlinear, &s->newton));
  if (nonlinear && !s->newton)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                       "--newton false: problem %s is nonlinear, it needs Newton's method",
                       s->disc.problem->info.name);
  for (int i = 0; i < 4 && !s->newton; i++)
    if (opts && hdgcl_options_has(opts, names[i]))
      return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                         "--%s: problem %s is linear (Newton's method needs a nonlinear problem "
                         "or --newton true; docs/nonlinear.md)",
                         names[i], s->disc.problem->info.name);
  HDGCL_TRY(hdgcl_options_get_real(opts, "newton-rtol", 1e-8, -HUGE_VAL, HUGE_VAL, &s->newton_rtol));
  if (!(s->newton_rtol > 0 && s->newton_rtol < 1))
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "--newton-rtol %g: must be a number in (0, 1)",
                       s->newton_rtol);
  HDGCL_TRY(hdgcl_options_get_int(opts, "newton-max", 25, 1, 10000, &s->newton_max));
  HDGCL_TRY(hdgcl_options_get_choice(opts, "newton-forcing", newton_forcing_names,
                                     NEWTON_FORCING_EW, &s->newton_forcing));
  static const char *const start_names[] = {"zero", "exact", NULL};
  int start;
  HDGCL_TRY(hdgcl_options_get_choice(opts, "newton-start", start_names, 0, &start));
  if (start && (s->disc.problem->transient || (s->disc.user && !s->disc.user->has_exact)))
    return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                       "--newton-start exact: problem %s has no steady exact solution",
                       s->disc.problem->info.name);
  s->newton_start_exact = start == 1;
  return read_ptc_options(s, opts);
}

/* neo-hookean* (docs/nonlinear.md section 11): the load in steps, the
 * reference path; its options refused elsewhere.  The cube's defaults: the
 * traction 0.1 in 5 increments. */
static int read_load_options(hdgcl_solver s, hdgcl_options opts) {
  static const char *const names[] = {"load-steps", "load-scale", "line-search"};
  bool nh = PROBLEM_IS_NEO_HOOKEAN(s->disc.problem->id);
  bool cube = s->disc.problem->id == PROBLEM_NEO_HOOKEAN_CUBE;
  for (int i = 0; i < 3 && !nh; i++)
    if (opts && hdgcl_options_has(opts, names[i]))
      return hdgcl_error(HDGCL_ERROR_ARGUMENT, "--%s: an option of --problem neo-hookean", names[i]);
  HDGCL_TRY(hdgcl_options_get_bool(opts, "line-search", true, &s->line_search));
  HDGCL_TRY(hdgcl_options_get_int(opts, "load-steps", cube ? 5 : 1, 1, 100000, &s->load_steps));
  HDGCL_TRY(hdgcl_options_get_real(opts, "load-scale", cube ? 0.1 : 1.0, -HUGE_VAL, HUGE_VAL,
                                   &s->load_scale));
  if (!nh) return HDGCL_SUCCESS;
  if (!isfinite(s->load_scale))
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "--load-scale %g: must be a finite number", s->load_scale);
  if (!hdgcl_context_is_reference(s->ctx))
    return hdgcl_error(HDGCL_ERROR_UNSUPPORTED,
                       "problem %s runs on the reference path only: use --device ref "
                       "(docs/nonlinear.md section 11)",
                       s->disc.problem->info.name);
  if (s->ptc || s->newton_start_exact)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                       "problem %s: --ptc and --newton-start are not implemented for it",
                       s->disc.problem->info.name);
  return HDGCL_SUCCESS;
}

static int read_options(hdgcl_solver s, hdgcl_options opts, int dim, int *order) {
  const char *name;
  bool user = hdg_user_problem_requested(opts);
  if (user) {
    HDGCL_TRY(hdg_user_problem_create(opts, &s->disc.user));
    s->disc.owns_user = true;
    s->disc.problem = &s->disc.user->problem;
  } else {
    HDGCL_TRY(hdgcl_options_get_string(opts, "problem", "helmholtz-sin", &name));
    HDGCL_TRY(hdg_problem_find(name, &s->disc.problem));
    for (int i = 1; hdg_user_problem_options[i]; i++) /* [0] is problem-file */
      if (opts && hdgcl_options_has(opts, hdg_user_problem_options[i]) &&
          strcmp(hdg_user_problem_options[i], "beta") && strcmp(hdg_user_problem_options[i], "mu") &&
          strcmp(hdg_user_problem_options[i], "lambda"))
        return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                           "--%s: an option of a user's own problem (give --problem-file FILE or "
                           "--problem user; docs/problems.md), not of --problem %s",
                           hdg_user_problem_options[i], name);
  }
  HDGCL_TRY(hdgcl_options_get_int(opts, "order", 3, 0, MAX_ORDER, order));
  /* The Neo-Hookean cube: tau = 10 (docs/nonlinear.md section 11: at tau = 1
   * Newton stalls on quad:4 and hex:4, p = 1, and hex:2's answer is twice). */
  bool nh_cube = s->disc.problem->id == PROBLEM_NEO_HOOKEAN_CUBE;
  HDGCL_TRY(hdgcl_options_get_real(opts, "tau", nh_cube ? 10.0 : 1.0, 1e-300, 1e300, &s->disc.tau));
  if (!(s->disc.tau > 0)) return hdgcl_error(HDGCL_ERROR_ARGUMENT, "--tau must be > 0");
  /* The cantilever (docs/elasticity.md section 9): GMRES's true residual stalls
   * near eps cond(K) ~ 1e-10..1e-9 on a slender beam, and restarts slow it down. */
  bool beam = s->disc.problem->id == PROBLEM_CANTILEVER;
  /* The Neo-Hookean cube (docs/nonlinear.md section 11) is clamped on one side
   * only, as the cantilever: GMRES(30) stalls (square:4 p = 2, traction 1e-3:
   * relative residual 0.30 after 10000 iterations at a Newton step, 150 with
   * GMRES(300)); its Newton steps solve to 1e-10. */
  bool cube = nh_cube;
  HDGCL_TRY(hdgcl_options_get_real(opts, "rtol", beam ? 1e-8 : cube ? 1e-10 : 1e-12, 1e-300, 1.0,
                                   &s->rtol));
  HDGCL_TRY(hdgcl_options_get_int(opts, "maxit", 10000, 1, 1000000000, &s->maxit));
  if (user && hdgcl_options_has(opts, "material"))
    return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                       "--material: a user's problem gives coefficients per tag with --region "
                       "'TAG: mu = ..., lambda = ...'");
  if (!user) HDGCL_TRY(hdg_problem_read_materials(s->disc.problem, opts, dim, &s->disc.materials));
  s->disc.nonsymmetric = s->disc.problem->nonsymmetric;
  bool nonsym = s->disc.nonsymmetric;
  HDGCL_TRY(hdgcl_options_get_choice(opts, "solver", solver_names, nonsym ? SOLVER_GMRES : SOLVER_CG,
                                     &s->solver));
  /* The slender cantilever: GMRES(62) with block-Jacobi stalls on a device
   * (square:40x4 p = 3: residual 0.68 after 10000 iterations), p-multigrid
   * takes 36; the reference path has no p-multigrid but a long restart. */
  bool reference = hdgcl_context_is_reference(s->ctx);
  HDGCL_TRY(hdgcl_options_get_choice(opts, "precond", precond_names,
                                     beam && !reference ? PRECOND_PMG : PRECOND_BLOCK_JACOBI,
                                     &s->precond));
  /* more than MDOT_MAX - 2 on the reference path only (solver_init): the
   * cantilever's long restart there, the longest a device takes elsewhere */
  int beam_restart = reference ? 1000 : MDOT_MAX - 2;
  HDGCL_TRY(hdgcl_options_get_int(opts, "restart", beam || cube ? beam_restart : 30, 1, 100000,
                                  &s->restart));
  HDGCL_TRY(hdgcl_options_get_bool(opts, "flexible", false, &s->flexible));
  HDGCL_TRY(hdgcl_options_get_int(opts, "cheb-degree", 4, 1, 100, &s->cheb_degree));
  static const char *const inner_names[] = {"jacobi", "block-jacobi", NULL};
  int inner;
  HDGCL_TRY(hdgcl_options_get_choice(opts, "cheb-inner", inner_names, 1, &inner));
  s->cheb_inner = inner == 0 ? PRECOND_JACOBI : PRECOND_BLOCK_JACOBI;
  HDGCL_TRY(hdgcl_options_get_int(opts, "pmg-smooth", 4, 1, 100, &s->pmg_smooth));
  HDGCL_TRY(hdgcl_options_get_int(opts, "pmg-coarse", 0, 0, 1, &s->pmg_coarse));
  /* The coarsest level: a BoomerAMG hierarchy where hypre is built in, its
   * V-cycle on the device (amg) or by hypre on the host (amg-host), else (or
   * asked) the Chebyshev solve on the device (solvers/precond_pmg.c). */
  static const char *const coarse_names[] = {"amg", "amg-host", "chebyshev", NULL};
  int coarse;
#ifdef HDGCL_WITH_HYPRE
  HDGCL_TRY(hdgcl_options_get_choice(opts, "pmg-coarse-solve", coarse_names, 0, &coarse));
#else
  HDGCL_TRY(hdgcl_options_get_choice(opts, "pmg-coarse-solve", coarse_names, 2, &coarse));
  if (coarse < 2)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                       "--pmg-coarse-solve %s: this build of hdgcl has no hypre (BoomerAMG); "
                       "use chebyshev",
                       coarse_names[coarse]);
#endif
  s->pmg_coarse_amg = coarse < 2;
  s->pmg_amg_host = coarse == 1;
  HDGCL_TRY(hdgcl_options_get_choice(opts, "format", format_names, FORMAT_BELL_I, &s->format));
  HDGCL_TRY(hdgcl_options_get_bool(opts, "cheb-mixed", false, &s->cheb_mixed));
  /* CG and Chebyshev (real eigenvalue bounds) need a symmetric positive
   * definite trace system; pmg has a nonsymmetric variant (precond_pmg.c),
   * with GMRES only. */
  if (nonsym && (s->solver == SOLVER_CG || s->precond == PRECOND_CHEBYSHEV))
    return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                       "--problem %s is nonsymmetric: --%s %s needs a symmetric positive definite "
                       "system (use --solver gmres with --precond none, jacobi, block-jacobi, asm "
                       "or pmg)",
                       s->disc.problem->info.name, s->solver == SOLVER_CG ? "solver" : "precond",
                       s->solver == SOLVER_CG ? "cg" : precond_names[s->precond]);
  if (s->cheb_mixed && s->format != FORMAT_BELL_I)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "--cheb-mixed true needs --format bell-i (got %s)",
                       format_names[s->format]);
  int chunk;
  HDGCL_TRY(hdgcl_options_get_int(opts, "chunk", 0, 0, 2000000000, &chunk));
  s->chunk_option = chunk;
  static const char *const keep_names[] = {"auto", "false", "true", NULL};
  int keep;
  HDGCL_TRY(hdgcl_options_get_choice(opts, "keep-local", keep_names, 0, &keep));
  s->keep_local = keep - 1;
  static const char *const scratch_names[] = {"auto", "local", "global", NULL};
  HDGCL_TRY(hdgcl_options_get_choice(opts, "scratch", scratch_names, SCRATCH_AUTO, &s->scratch));
  if (user) {
    /* mu, lambda of the exact pressure -(mu + lambda) div u: the problem's own where constant */
    double mu = NAN, lambda = NAN;
    if (s->disc.problem->vector) {
      if (!hdg_expr_constant(s->disc.user->mu, &mu)) mu = NAN;
      if (!hdg_expr_constant(s->disc.user->lambda, &lambda)) lambda = NAN;
    }
    s->disc.params = (problem_params){.id = PROBLEM_USER, .dim = dim, .degree = *order,
                                      .mu = mu, .lambda = lambda, .user = s->disc.user};
    HDGCL_TRY(read_newton_options(s, opts));
    return read_time_options(s, opts);
  }
  HDGCL_TRY(hdg_problem_params(s->disc.problem, opts, *order, dim, &s->disc.params));
  if (s->disc.problem->id != PROBLEM_NONLINEAR_DIFFUSION && opts && hdgcl_options_has(opts, "kappa-u2"))
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "--kappa-u2: an option of --problem nonlinear-diffusion");
  if (!PROBLEM_IS_BURGERS(s->disc.problem->id) && opts && hdgcl_options_has(opts, "nu"))
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "--nu: an option of --problem burgers and burgers-transient");
  HDGCL_TRY(read_newton_options(s, opts));
  HDGCL_TRY(read_load_options(s, opts));
  return read_time_options(s, opts);
}

/* Everything of a solver after its options: checks, reference tables,
 * numbering, coefficients, host arrays, result fields and the pipeline. */
/* The progress line of a Krylov solve (hdgcl_context_set_progress): the
 * iteration, the residual and the time left if the residual keeps falling
 * at its mean rate so far (log-linear from 1 at iteration 0). */
static void progress_iterations(void *solver, int it, double relres) {
  hdgcl_solver s = solver;
  if (!s->ctx->progress) return;
  double now = hdgcl_wtime();
  if (it == 0) s->krylov_started = now;
  char left[64] = "";
  if (it > 0 && relres > 0 && relres < 1 && relres > s->rtol) {
    double per_iteration = log(relres) / it; /* < 0 */
    double remaining = log(s->rtol / relres) / per_iteration;
    snprintf(left, sizeof left, ", about %.0f s left", remaining * (now - s->krylov_started) / it);
  }
  hdgcl_progress(s->ctx, "%s iteration %d, residual %.2e (rtol %.0e)%s",
                 s->solver == SOLVER_GMRES ? "GMRES" : "CG", it, relres, s->rtol, left);
}

static int solver_init(hdgcl_solver s, int order) {
  const hdgcl_mesh *mesh = s->disc.mesh;
  hdgcl_context ctx = s->ctx;
  if (hdgcl_context_is_reference(ctx) &&
      (s->precond == PRECOND_CHEBYSHEV || s->precond == PRECOND_ASM || s->precond == PRECOND_PMG))
    return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                       "--solver %s --precond %s: the reference path (--device ref) has CG and "
                       "GMRES with none, jacobi or block-jacobi only",
                       solver_names[s->solver], precond_names[s->precond]);
  if (!hdgcl_context_is_reference(ctx) && s->restart > MDOT_MAX - 2)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                       "--restart %d: at most %d on OpenCL devices (the reference path takes more)",
                       s->restart, MDOT_MAX - 2);
  HDGCL_TRY(discretisation_init(&s->disc, order));
  const hdg_sizes *sz = &s->disc.ref.sz;
  size_t nc = (size_t)sz->ncomp;
  size_t ne = (size_t)mesh->num_elements, rows = (size_t)s->disc.num.num_unknown_faces;
  HDGCL_TRY(hdg_solution_create(&s->disc, &s->sol));
  /* a stage's element load, or the pseudo-time term's (N17) (before the operator: it compiles for it) */
  if (s->disc.problem->transient || s->ptc)
    HDGCL_TRY(hdgcl_calloc(ne * sz->np, sizeof(double), "element load", &s->disc.element_load));
  s->sol.on_residual = progress_iterations; /* a progress line, where the context has one */
  s->sol.on_residual_owner = s;

  hdgcl_result *r = &s->result;
  r->problem = s->disc.problem->info.name;
  hdgcl_device_info info;
  HDGCL_TRY(hdgcl_context_info(ctx, &info));
  snprintf(r->device, sizeof r->device, "%s", info.name);
  r->solver = solver_names[s->solver];
  r->precond = precond_names[s->precond];
  r->restart = s->solver == SOLVER_GMRES ? s->restart : 0;
  r->cheb_degree = s->precond == PRECOND_CHEBYSHEV ? s->cheb_degree : 0;
  r->format = format_names[s->format];
  r->order = order;
  r->tau = s->disc.tau;
  r->rtol = s->rtol;
  r->num_elements = mesh->num_elements;
  r->num_faces = mesh->num_faces;
  r->num_unknown_faces = s->disc.num.num_unknown_faces;
  /* scalar: u and q; vector: u, H and p (docs/elasticity.md) */
  r->element_dofs = (int64_t)ne * (nc * (1 + sz->dim) + (s->disc.problem->vector ? 1 : 0)) * sz->np;
  if (s->disc.other_ref.sz.np > 0) /* a mixed mesh: each element's own np (scalar problems) */
    r->element_dofs -= (int64_t)hdgcl_mesh_count_type(mesh, s->disc.other_ref.sz.type) *
                       (1 + sz->dim) * (sz->np - s->disc.other_ref.sz.np);
  r->trace_dofs = (int64_t)rows * sz->nfb;
  r->l2_p = r->norm_p = s->disc.problem->vector ? 0.0 : NAN;
  r->tip_deflection = r->beam_deflection = NAN;
  r->ptc_dt_first = r->ptc_dt_last = NAN;
  r->loaded_face_u[0] = r->loaded_face_u[1] = r->loaded_face_u[2] = NAN;
  r->ustar_check = NAN;
  r->mu_min = s->disc.mu_min;
  r->mu_max = s->disc.mu_max;
  r->lambda_min = s->disc.lambda_min;
  r->lambda_max = s->disc.lambda_max;
  r->h = largest_diameter(mesh);
  for (int i = 0; i < HDGCL_NUM_STAGES; i++) r->stages[i].name = stage_names[i];
  if (s->newton) { /* the Newton step's trace system is not symmetric (docs/nonlinear.md (N6)) */
    s->solver = SOLVER_GMRES;
    r->solver = solver_names[s->solver];
    r->restart = s->restart;
  }
  solver_settings set = solver_krylov_settings(s);
  if (s->newton) set.nonsymmetric = true;
  if (hdgcl_context_is_reference(ctx))
    return reference_operator_create(&s->disc, &set, &s->sol, &s->op);
  pipeline_options popts = {.chunk = s->chunk_option,
                            .keep_local = s->keep_local,
                            .scratch = s->scratch,
                            .format = s->format};
  HDGCL_TRY(pipeline_operator_create(ctx, &s->disc, &popts, &set, &s->sol, &s->result, &s->op));
  s->dev = pipeline_operator_pipeline(&s->op);
  return HDGCL_SUCCESS;
}

int hdgcl_solver_create(hdgcl_context ctx, const hdgcl_mesh *mesh, hdgcl_options opts,
                        hdgcl_solver *solver) {
  if (!ctx || !mesh || !solver)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "hdgcl_solver_create: NULL argument");
  *solver = NULL;
  double t0 = hdgcl_wtime();
  hdgcl_solver s;
  HDGCL_TRY(hdgcl_calloc(1, sizeof *s, "solver", &s));
  s->ctx = ctx;
  s->disc.mesh = mesh;
  int status, order;
  HDGCL_TRY_GOTO(status, read_options(s, opts, mesh->dim, &order), fail);
  HDGCL_TRY_GOTO(status, solver_init(s, order), fail);
  s->result.setup_seconds = hdgcl_wtime() - t0;
  *solver = s;
  return HDGCL_SUCCESS;
fail:
  hdgcl_solver_destroy(&s);
  return status;
}

solver_settings solver_krylov_settings(const struct hdgcl_solver_s *s) {
  return (solver_settings){.solver = s->solver,
                           .rtol = s->rtol,
                           .maxit = s->maxit,
                           .restart = s->restart,
                           .flexible = s->flexible,
                           .precond = s->precond,
                           .cheb_degree = s->cheb_degree,
                           .cheb_inner = s->cheb_inner,
                           .cheb_mixed = s->cheb_mixed,
                           .pmg_smooth = s->pmg_smooth,
                           .pmg_coarse = s->pmg_coarse,
                           .pmg_coarse_amg = s->pmg_coarse_amg,
                           .pmg_amg_host = s->pmg_amg_host,
                           .global_scratch = s->scratch == SCRATCH_GLOBAL,
                           .nonsymmetric = s->disc.nonsymmetric};
}

/* The figures of a solve that s->sol and s->result share, both ways. */
#define SOLUTION_FIGURES(X)                                                                        \
  X(iterations) X(residual) X(l2_u) X(l2_q) X(l2_ustar) X(linf_u) X(norm_u) X(norm_q) X(l2_p)     \
  X(norm_p) X(ustar_check) X(tip_deflection) X(beam_deflection)

static void figures_to_solution(const hdgcl_result *r, hdg_solution *sol) {
#define COPY(f) sol->f = r->f;
  SOLUTION_FIGURES(COPY)
#undef COPY
  for (int i = 0; i < HDGCL_NUM_STAGES; i++) sol->stage_seconds[i] = r->stages[i].seconds;
}

static void figures_to_result(const hdg_solution *sol, hdgcl_result *r) {
#define COPY(f) r->f = sol->f;
  SOLUTION_FIGURES(COPY)
#undef COPY
  for (int i = 0; i < HDGCL_NUM_STAGES; i++) r->stages[i].seconds = sol->stage_seconds[i];
  r->history = sol->history;
  r->history_length = sol->history_length;
}

void solver_figures_to_result(hdgcl_solver s) { figures_to_result(&s->sol, &s->result); }
void solver_figures_to_solution(hdgcl_solver s) { figures_to_solution(&s->result, &s->sol); }

/* One solve by the trace operator, either implementation (the device
 * pipeline or the reference path): assemble, solve, recover.  Both write the
 * solution and its figures into s->sol, whose figures go into the result
 * (also on failure, as the iterations of a solve that did not converge); the
 * pipeline writes its device figures into the result itself. */
static int solve_trace(hdgcl_solver s) {
  figures_to_solution(&s->result, &s->sol);
  int status = trace_operator_assemble(&s->op);
  if (status == HDGCL_SUCCESS) status = trace_operator_solve(&s->op);
  if (status == HDGCL_SUCCESS) status = trace_operator_recover(&s->op);
  figures_to_result(&s->sol, &s->result);
  return status;
}

/* A transient problem: time stepping, each stage one solve_trace's steps. */
static int solve_transient(hdgcl_solver s) {
  figures_to_solution(&s->result, &s->sol);
  int status = time_stepping_run(s);
  figures_to_result(&s->sol, &s->result);
  return status;
}

/* neo-hookean (docs/nonlinear.md section 11): load steps of Newton's method
 * on the reference path; the result's Newton figures are the last load
 * step's, newton_steps_all those of all load steps. */
static int solve_neo_hookean(hdgcl_solver s) {
  figures_to_solution(&s->result, &s->sol);
  hdgcl_result *res = &s->result;
  solver_settings set = solver_krylov_settings(s);
  bool cube = s->disc.problem->id == PROBLEM_NEO_HOOKEAN_CUBE;
  neo_hookean_settings ns = {.mu = s->disc.params.mu, .lambda = s->disc.params.lambda,
                             .alpha = s->load_scale, .load_steps = s->load_steps,
                             .load = cube ? NEO_HOOKEAN_CUBE : NEO_HOOKEAN_MANUFACTURED,
                             .line_search = s->line_search,
                             .newton_max = s->newton_max, .newton_rtol = s->newton_rtol};
  neo_hookean_report *rep;
  HDGCL_TRY(hdgcl_calloc(1, sizeof *rep, "Neo-Hookean report", &rep));
  double t0 = hdgcl_wtime();
  int status = reference_neo_hookean_solve(&s->disc, &set, &s->sol, &ns, rep);
  s->sol.stage_seconds[HDGCL_STAGE_SOLVE] += hdgcl_wtime() - t0;
  /* the last load step's entries (the report keeps NEO_HOOKEAN_HISTORY of them) */
  int last = rep->step_start[s->load_steps - 1 < NEO_HOOKEAN_HISTORY ? s->load_steps - 1
                                                                     : NEO_HOOKEAN_HISTORY - 1];
  int n = rep->history_length - last; /* entries of the last load step */
  free(s->newton_history);
  free(s->newton_iterations);
  free(s->load_newton_steps);
  free(s->load_history);
  s->newton_history = NULL;
  s->newton_iterations = NULL;
  s->load_newton_steps = NULL;
  s->load_history = NULL;
  /* the load steps whose history the report holds whole (NEO_HOOKEAN_HISTORY entries) */
  int nl = 0;
  while (nl < s->load_steps && nl < NEO_HOOKEAN_HISTORY &&
         rep->step_start[nl] + rep->newton_per_step[nl] < rep->history_length)
    nl++;
  if (status == HDGCL_SUCCESS && n < 1)
    status = hdgcl_error(HDGCL_ERROR_ARGUMENT,
                         "--load-steps %d: the Newton histories of the load steps exceed the %d "
                         "entries kept; use fewer load steps",
                         s->load_steps, NEO_HOOKEAN_HISTORY);
  if (status == HDGCL_SUCCESS) {
    status = hdgcl_calloc((size_t)n, sizeof(double), "Newton history", &s->newton_history);
    if (status == HDGCL_SUCCESS)
      status = hdgcl_calloc((size_t)n, sizeof(int), "Newton iterations", &s->newton_iterations);
    if (status == HDGCL_SUCCESS)
      status = hdgcl_calloc((size_t)nl + 1, sizeof(int), "load steps", &s->load_newton_steps);
    if (status == HDGCL_SUCCESS)
      status = hdgcl_calloc((size_t)rep->history_length + 1, sizeof(double), "load history",
                            &s->load_history);
  }
  if (status == HDGCL_SUCCESS) {
    memcpy(s->load_newton_steps, rep->newton_per_step, sizeof(int) * nl);
    memcpy(s->load_history, rep->history, sizeof(double) * rep->history_length);
    res->load_steps = nl;
    res->load_newton_steps = s->load_newton_steps;
    res->load_history = s->load_history;
    res->line_search_halvings = rep->halvings;
    res->line_search_halvings_j = rep->halvings_j;
    for (int c = 0; c < 3; c++) res->loaded_face_u[c] = rep->face_u[c];
  }
  if (status == HDGCL_SUCCESS) {
    memcpy(s->newton_history, rep->history + last, sizeof(double) * n);
    memcpy(s->newton_iterations, rep->iterations_per_step + last + 1, sizeof(int) * (n - 1));
    res->newton_history = s->newton_history;
    res->newton_iterations = s->newton_iterations;
    res->newton_steps = n - 1;
    res->newton_steps_all = rep->newton_steps;
    res->newton_rtol = s->newton_rtol;
    s->sol.iterations = rep->iterations;
    s->sol.residual = s->newton_history[0] > 0 ? s->newton_history[n - 1] / s->newton_history[0] : 0.0;
    s->sol.l2_u = rep->l2_u;
    s->sol.l2_q = rep->l2_h;
    s->sol.norm_u = rep->norm_u;
    s->sol.norm_q = rep->norm_h;
    s->sol.l2_ustar = s->sol.linf_u = s->sol.l2_p = s->sol.norm_p = s->sol.ustar_check = NAN;
  }
  free(rep);
  figures_to_result(&s->sol, &s->result);
  return status;
}

/* A nonlinear problem (or --newton true): Newton's method, each step one
 * linearisation, Krylov solve and update on the reference path. */
static int solve_newton(hdgcl_solver s) {
  figures_to_solution(&s->result, &s->sol);
  int status = newton_run(s, false);
  figures_to_result(&s->sol, &s->result);
  return status;
}

/* A user's problem: its outputs, and NaN errors where it has no exact solution. */
static int user_results(hdgcl_solver s) {
  hdgcl_result *r = &s->result;
  if (!s->disc.user->has_exact)
    r->l2_u = r->l2_q = r->l2_ustar = r->linf_u = r->norm_u = r->norm_q = r->l2_p = r->norm_p = NAN;
  HDGCL_TRY(solver_outputs(s));
  if (s->reduce_outputs) HDGCL_TRY(s->reduce_outputs(s, s->solve_steps_data));
  int n = s->disc.user->num_outputs;
  if (n == 0) return HDGCL_SUCCESS;
  if (!s->outputs) HDGCL_TRY(hdgcl_calloc((size_t)n, sizeof *s->outputs, "outputs", &s->outputs));
  for (int i = 0; i < n; i++) {
    const hdg_user_output *o = &s->disc.user->outputs[i];
    hdgcl_output *p = &s->outputs[i];
    p->label = o->label;
    p->names = o->names;
    p->num_values = o->num_values;
    memcpy(p->values, o->values, sizeof p->values);
  }
  r->num_outputs = n;
  r->outputs = s->outputs;
  return HDGCL_SUCCESS;
}

int hdgcl_solver_solve(hdgcl_solver s) {
  if (!s) return hdgcl_error(HDGCL_ERROR_ARGUMENT, "hdgcl_solver_solve: NULL solver");
  s->result.history_length = s->sol.history_length = 0;
  for (int i = 0; i < HDGCL_NUM_STAGES; i++) {
    s->result.stages[i].seconds = 0;
    s->result.stages[i].flops = 0;
    s->result.stages[i].bytes = 0;
  }
  /* a distributed solve's own steps (host/parallel), time stepping included */
  int status = s->solve_steps                             ? s->solve_steps(s, s->solve_steps_data)
               : s->disc.problem->transient                ? solve_transient(s)
               : PROBLEM_IS_NEO_HOOKEAN(s->disc.problem->id) ? solve_neo_hookean(s)
               : s->newton                                ? solve_newton(s)
                                           : solve_trace(s);
  if (status == HDGCL_SUCCESS && s->disc.user) status = user_results(s);
  s->solved = status == HDGCL_SUCCESS;
  double total = 0.0;
  for (int i = 0; i < HDGCL_NUM_STAGES; i++) total += s->result.stages[i].seconds;
  s->result.total_seconds = total;
  return status;
}

int hdgcl_solver_result(hdgcl_solver s, const hdgcl_result **result) {
  if (!s || !result) return hdgcl_error(HDGCL_ERROR_ARGUMENT, "hdgcl_solver_result: NULL argument");
  *result = &s->result;
  return HDGCL_SUCCESS;
}

int hdgcl_solver_solution(hdgcl_solver s, const double **u, const double **q, const double **ustar,
                          const double **trace) {
  if (!s) return hdgcl_error(HDGCL_ERROR_ARGUMENT, "hdgcl_solver_solution: NULL solver");
  if (!s->solved)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "hdgcl_solver_solution: call hdgcl_solver_solve first");
  if (u) *u = s->sol.u;
  if (q) *q = s->sol.q;
  if (ustar) *ustar = s->sol.ustar;
  if (trace) *trace = s->sol.trace;
  return HDGCL_SUCCESS;
}

int hdgcl_solver_pressure(hdgcl_solver s, const double **p) {
  if (!s || !p) return hdgcl_error(HDGCL_ERROR_ARGUMENT, "hdgcl_solver_pressure: NULL argument");
  if (!s->solved)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "hdgcl_solver_pressure: call hdgcl_solver_solve first");
  if (!s->sol.p)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "hdgcl_solver_pressure: problem %s has no pressure",
                       s->disc.problem->info.name);
  *p = s->sol.p;
  return HDGCL_SUCCESS;
}

int hdgcl_solver_materials(hdgcl_solver s, const double **mu, const double **lambda) {
  if (!s || !mu || !lambda)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "hdgcl_solver_materials: NULL argument");
  if (!s->disc.problem->vector)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                       "hdgcl_solver_materials: problem %s is scalar (no Lame parameters)",
                       s->disc.problem->info.name);
  *mu = s->disc.mu;
  *lambda = s->disc.lambda;
  return HDGCL_SUCCESS;
}

int hdgcl_solver_matrix(hdgcl_solver s, int *rows, int *slots, int *nf, const double **values,
                        const int32_t **columns, const double **rhs) {
  if (!s) return hdgcl_error(HDGCL_ERROR_ARGUMENT, "hdgcl_solver_matrix: NULL solver");
  if (!s->solved)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "hdgcl_solver_matrix: call hdgcl_solver_solve first");
  if (values) HDGCL_TRY(trace_operator_matrix(&s->op));
  if (rows) *rows = s->disc.num.num_unknown_faces;
  if (slots) *slots = s->disc.ref.sz.nslots;
  if (nf) *nf = s->disc.ref.sz.nfb; /* block size: ncomp * Nf */
  if (values) *values = s->sol.matrix;
  if (columns) *columns = s->disc.num.block_cols;
  if (rhs) *rhs = s->sol.rhs;
  return HDGCL_SUCCESS;
}

int hdgcl_solver_set_step_callback(hdgcl_solver s, hdgcl_step_fn fn, void *data) {
  if (!s) return hdgcl_error(HDGCL_ERROR_ARGUMENT, "hdgcl_solver_set_step_callback: NULL solver");
  if (fn && !s->disc.problem->transient)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                       "hdgcl_solver_set_step_callback: problem %s is steady (no time steps)",
                       s->disc.problem->info.name);
  s->on_step = fn;
  s->on_step_data = data;
  return HDGCL_SUCCESS;
}

int hdgcl_solver_destroy(hdgcl_solver *solver) {
  if (!solver || !*solver) return HDGCL_SUCCESS;
  hdgcl_solver s = *solver;
  /* Its kernels' binaries to the disk cache now, not only when the context
   * ends: a later context in the same process (Python, a notebook) finds them. */
  if (s->ctx) hdgcl_program_cache_store(s->ctx);
  trace_operator_destroy(&s->op);
  s->dev = NULL;
  discretisation_release(&s->disc);
  free(s->outputs);
  free(s->newton_history);
  free(s->newton_iterations);
  free(s->load_newton_steps);
  free(s->load_history);
  hdg_solution_destroy(&s->sol);
  /* last: a distributed solve's data holds the rank's part of the mesh */
  if (s->solve_steps_free) s->solve_steps_free(s->solve_steps_data);
  free(s);
  *solver = NULL;
  return HDGCL_SUCCESS;
}
