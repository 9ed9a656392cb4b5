/* hdgcl solve: one HDG solve (or a convergence study) of a built-in problem. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/error.h"
#include "cli/report.h"
#ifdef HDGCL_WITH_MPI
#include "hdgcl/mpi.h"
#endif
#include "cli/report_json.h"

static const char *const solve_cli_options[] = {"device",  "mesh",  "json",   "vtu",   "convergence",
                                                "history", "quiet", "warmup", "repeat", "export-matrix",
                                                "vtu-every", NULL};

/* The default coarsest p-multigrid solver of this build (host/solvers/precond_pmg.c). */
#ifdef HDGCL_WITH_HYPRE
#define PMG_COARSE_DEFAULT "amg"
#else
#define PMG_COARSE_DEFAULT "chebyshev; this build has no hypre"
#endif

static void help(FILE *out) {
  fprintf(out,
          "usage: hdgcl solve [--problem NAME | --problem-file F.json] [--mesh SPEC|file.msh]\n"
          "                   [--order P] [--device SPEC]\n"
          "                   [--tau T] [--rtol R] [--maxit N] [--solver cg|gmres]\n"
          "                   [--precond none|jacobi|block-jacobi|chebyshev|asm|pmg]\n"
          "                   [--format bell-i|bell|ell] [--json out.json] [--vtu out.vtu]\n"
          "                   [--convergence K] [--history] [--quiet]\n\n"
          "Solves -div(kappa grad u) + beta . grad u + c u = f (or linear elasticity) by HDG:\n"
          "local solvers and Schur complements,\n"
          "face-parallel assembly, preconditioned CG or GMRES and recovery, on the chosen device\n"
          "(--device ref: the serial C reference path).  Prints errors against the exact\n"
          "solution and the time, GFLOP/s and GB/s of each stage.\n\n"
          "  --problem NAME     built-in problem (default helmholtz-sin):\n");
  for (int i = 0; i < hdgcl_problem_count(); i++) {
    const hdgcl_problem_info *p = hdgcl_problem_get(i);
    fprintf(out, "      %-16s %s\n", p->name, p->description);
  }
  fprintf(out,
          "  --problem-file F   your own problem: coefficients, source, boundary conditions\n"
          "                     per tag, outputs, as JSON (docs/problems.md; examples/*.json).\n"
          "                     Each of its settings is an option too (--problem user without\n"
          "                     a file): --pde --constants --kappa --c --f --beta --coefficients\n"
          "                     --mu --lambda --body-force --bc --bc-default --region --exact\n"
          "                     --exact-grad --output, e.g. --problem user --f 1\n"
          "                     --bc-default 'dirichlet: 0' --output 'integral: u'\n"
          "  --mesh SPEC        square:N[xM][,diag=right|left|alt][,perturb=A][,seed=S]\n"
          "                     [,size=L[xH]][,split=x|y:V] (quad:, cube:, hex:, annulus:N[,order=2|3]\n"
          "                     too; see hdgcl mesh --help) or a Gmsh .msh file (default: the\n"
          "                     problem's, e.g. square:8)\n"
          "  --order P          polynomial degree 0..10 (default 3)\n"
          "  --device SPEC      auto (default; or $HDGCL_DEVICE), gpu, cpu, ref, nvidia, amd,\n"
          "                     intel, pocl, or P:D from 'hdgcl devices'\n"
          "  --tau T            stabilisation parameter > 0 (default 1)\n"
          "  --rtol R           relative residual tolerance ||b-Ax|| <= R ||b|| (default 1e-12)\n"
          "  --maxit N          iteration limit (default 10000); not converging is an error\n"
          "  --solver S         cg (default; gmres for nonsymmetric problems) | gmres\n"
          "                     (restarted, right-preconditioned)\n"
          "  --precond P        none | jacobi | block-jacobi (face blocks; default) |\n"
          "                     chebyshev (polynomial in the (block-)Jacobi-preconditioned\n"
          "                     operator) | asm (additive Schwarz, element patches) |\n"
          "                     pmg (p-multigrid V-cycle over degrees p, p/2, .., pmg-coarse)\n"
          "  --restart M        GMRES restart length 1..62 (default 30; --device ref: any,\n"
          "                     cantilever: 1000 with --rtol 1e-8 by default)\n"
          "  --flexible B       true: FGMRES even for a fixed preconditioner (default false)\n"
          "  --cheb-degree K    Chebyshev steps per application 1..100 (default 4)\n"
          "  --cheb-inner P     jacobi | block-jacobi (default): what Chebyshev accelerates\n"
          "  --pmg-smooth N     pmg: Chebyshev/block-Jacobi smoothing steps before and after\n"
          "                     the coarse correction on each level, 1..100 (default 4)\n"
          "  --pmg-coarse D     pmg: coarsest degree 0 (default) or 1\n"
          "  --pmg-coarse-solve S  pmg: the coarsest level by amg (one V-cycle of a BoomerAMG\n"
          "                     hierarchy, on the device) | amg-host (hypre's V-cycle on\n"
          "                     the host) | chebyshev (a Chebyshev solve on the device)\n"
          "                     (default " PMG_COARSE_DEFAULT ")\n"
          "  --cheb-mixed B     true: Chebyshev's products use a single-precision copy of the\n"
          "                     matrix (half its bytes; the outer method keeps double)\n"
          "  --format F         trace matrix storage: bell-i (block-ELL with interleaved\n"
          "                     values, coalesced on GPUs; default) | bell (block-ELL,\n"
          "                     row-major blocks) | ell (scalar ELL); see hdgcl bench\n"
          "  --chunk N          elements per local-stage batch (default: from device memory)\n"
          "  --keep-local B     auto | true | false: keep all local solvers for the recovery\n"
          "  --scratch S        auto | local | global: memory for the per-element Cholesky work\n"
          "                     (and block-Jacobi's face-block inversions)\n"
          "  --poly-degree D    degree of the 'polynomial' problem's solution (default: P)\n"
          "  --kappa2 K         kappa on x > 1/2 for 'kappa-jump' (default 10)\n"
          "  --beta B           scale of beta for 'convection-diffusion' (default 10)\n"
          "  --mu M             shear modulus > 0 of the elasticity problems (default 1)\n"
          "  --lambda L         Lame parameter lambda > -2 mu / dim of the elasticity problems\n"
          "                     (default 1; up to 1e6 and more: locking-free)\n"
          "                     (cantilever: default mu 0.3846, lambda 0.5769, steel with E = 1)\n"
          "  --weight W         body force rho g of 'cantilever' (default 3.85e-7: steel, E = 1,\n"
          "                     lengths in units of H = 1 m)\n"
          "  --material T:M:L[,T:M:L...]  elasticity: mu = M, lambda = L on the elements of\n"
          "                     tag T (Gmsh physical group; others keep --mu/--lambda)\n"
          "  --contrast R       'elasticity-bimaterial': mu and lambda on x > 1/2 are R times\n"
          "                     those on x < 1/2 (default 10)\n"
          "  --scheme S         transient problems (heat, heat-boundary; docs/time.md): be |\n"
          "                     dirk2 (default) | dirk3 | bdf2\n"
          "  --time-step DT     the largest time step > 0 (default 0.05; the step taken is\n"
          "                     final-time / N)\n"
          "  --final-time T     integrate from t = 0 to T > 0 (default 1)\n"
          "  --newton-rtol R    nonlinear problems (nonlinear-diffusion, nonlinear-heat, burgers,\n"
          "                     a kappa of u; docs/nonlinear.md): Newton's tolerance on the\n"
          "                     residual relative to the first, in (0, 1) (default 1e-8)\n"
          "  --newton-max N     at most N Newton steps (default 25)\n"
          "  --newton-forcing F ew (Eisenstat-Walker Krylov tolerance, default) | fixed (--rtol)\n"
          "  --newton true      a linear problem through Newton's method (one step)\n"
          "  --ptc true         pseudo-transient continuation: each Newton step adds\n"
          "                     (1/dt) M (u - u_k), dt from --ptc-dt0 (default 0.1) grown by\n"
          "                     ||R_k-1|| / ||R_k||; dropped from --ptc-dt-max (default 1e12)\n"
          "  --newton-start S   zero (default) | exact: Newton's first u the projected exact u\n"
          "  --load-scale A     'neo-hookean(-mixed)': u = A u_E (default 1); 'neo-hookean-cube':\n"
          "                     the traction A on x = 1 (default 0.1)\n"
          "  --load-steps N     'neo-hookean*': the load in N steps (default 1; cube: 5)\n"
          "  --line-search B    'neo-hookean*': backtracking on ||R|| and J > 0 (default true)\n"
          "  --kappa-u2 A       'nonlinear-diffusion': kappa(u) = 1 + A u^2 (default 1)\n"
          "  --nu NU            'burgers', 'burgers-transient', 'burgers-paper001': the\n"
          "                     viscosity NU > 0 (default 0.1; burgers-paper001: 1/200)\n"
          "  --json FILE        write the results as JSON (atomically)\n"
          "  --vtu FILE         write u, q and u* for ParaView (atomically); FILE.pvtu: the\n"
          "                     index and its pieces STEM_RRRR.vtu, one per MPI rank\n"
          "  --vtu-every K      transient problems: also every K-th step (and the last) as\n"
          "                     STEM-NNNNNN.vtu and their collection STEM.pvd (STEM: FILE\n"
          "                     without .vtu)\n"
          "  --export-matrix P  write the trace matrix to P.mtx and its right-hand side to\n"
          "                     P.rhs.mtx (MatrixMarket; see perf/cupy_compare.py)\n"
          "  --convergence K    K runs, doubling the mesh each time; prints observed rates\n"
          "  --history          print the residual of every Krylov iteration\n"
          "  --warmup W         W untimed solves first (kernel JIT, caches; default 0)\n"
          "  --repeat R         R timed solves; each stage reports its median (default 1)\n"
          "  --no-cache         do not use the kernel binary cache\n"
          "  --max-device-memory SIZE  use at most SIZE of device memory (512M, 2G): the local\n"
          "                     stage runs in batches that fit, or the solve stops first\n"
          "  --profile          print each kernel's device time at the end (or HDGCL_PROFILE=1)\n"
          "  --quiet            print nothing but errors\n");
}

/* Doubles the cell counts of a generated mesh spec ("square:8x4,diag=alt"
 * -> "square:16x8,diag=alt"); a file cannot be refined. */
static int refine_spec(const char *spec, int factor, char *out, size_t n) {
  const char *colon = strchr(spec, ':');
  if (!colon || strstr(spec, ".msh"))
    return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                       "--convergence needs a generated mesh (e.g. square:4), not '%s'", spec);
  size_t len = (size_t)(colon - spec) + 1;
  if (len >= n) return hdgcl_error(HDGCL_ERROR_ARGUMENT, "mesh spec '%s' too long", spec);
  memcpy(out, spec, len);
  out[len] = '\0';
  const char *p = colon + 1;
  while (*p && *p != ',') {
    if (*p >= '0' && *p <= '9') {
      char *end;
      long v = strtol(p, &end, 10);
      char num[32];
      snprintf(num, sizeof num, "%ld", v * factor);
      strncat(out, num, n - strlen(out) - 1);
      p = end;
    } else {
      char c[2] = {*p++, '\0'};
      strncat(out, c, n - strlen(out) - 1);
    }
  }
  strncat(out, p, n - strlen(out) - 1);
  return HDGCL_SUCCESS;
}

#ifdef HDGCL_WITH_MPI
/* The partition's work imbalance: the heaviest rank's work (the elements'
 * work model, docs/mpi.md) over the mean. */
static int work_imbalance(hdgcl_solver solver, double *imbalance) {
  const int32_t *elements;
  const double *work;
  int ranks;
  *imbalance = 1.0;
  HDGCL_TRY(hdgcl_solver_partition_figures(solver, &elements, &work, &ranks));
  double sum = 0.0, most = 0.0;
  for (int k = 0; k < ranks; k++) {
    sum += work[k];
    most = work[k] > most ? work[k] : most;
  }
  if (sum > 0) *imbalance = most / (sum / ranks);
  return HDGCL_SUCCESS;
}

/* "mpi" in the JSON of a distributed solve (docs/mpi.md): each rank's stage
 * seconds and total, the slowest rank and the imbalance (slowest total over
 * the mean). */
static int json_mpi(hdgcl_solver solver, const hdgcl_result *r, cJSON *run) {
  const double *sec;
  int ranks;
  HDGCL_TRY(hdgcl_solver_rank_seconds(solver, &sec, &ranks));
  if (!sec) return HDGCL_SUCCESS;
  const int32_t *elements;
  const double *work;
  int parts;
  HDGCL_TRY(hdgcl_solver_partition_figures(solver, &elements, &work, &parts));
  if (parts != ranks)
    return hdgcl_error(HDGCL_ERROR_INTERNAL, "a partition of %d ranks for %d ranks", parts, ranks);
  cJSON *o, *a;
  HDGCL_TRY(json_add_object(run, "mpi", &o));
  HDGCL_TRY(json_add_int(o, "ranks", ranks));
  HDGCL_TRY(json_add_array(o, "rank_stages", &a));
  double slowest = -1.0, sum = 0.0;
  int slow = 0;
  for (int k = 0; k < ranks; k++) {
    cJSON *e, *st;
    HDGCL_TRY(json_add_object(a, NULL, &e));
    HDGCL_TRY(json_add_int(e, "rank", k));
    HDGCL_TRY(json_add_object(e, "seconds", &st));
    double total = 0.0;
    for (int i = 0; i < HDGCL_NUM_STAGES; i++) {
      double t = sec[(size_t)k * HDGCL_NUM_STAGES + i];
      HDGCL_TRY(json_add_real(st, r->stages[i].name, t));
      total += t;
    }
    HDGCL_TRY(json_add_real(e, "total", total));
    HDGCL_TRY(json_add_int(e, "elements", elements[k]));
    HDGCL_TRY(json_add_real(e, "work", work[k]));
    sum += total;
    if (total > slowest) {
      slowest = total;
      slow = k;
    }
  }
  HDGCL_TRY(json_add_int(o, "slowest_rank", slow));
  double halo, reduce;
  int64_t bytes;
  HDGCL_TRY(hdgcl_solver_exchange_figures(solver, &halo, &reduce, &bytes));
  HDGCL_TRY(json_add_real(o, "halo_seconds_max", halo));
  HDGCL_TRY(json_add_real(o, "reduce_seconds_max", reduce));
  HDGCL_TRY(json_add_real(o, "halo_bytes", (double)bytes));
  int overlap;
  double hidden;
  HDGCL_TRY(hdgcl_solver_overlap_figures(solver, &overlap, &hidden));
  HDGCL_TRY(json_add_bool(o, "halo_overlap", overlap != 0));
  HDGCL_TRY(json_add_real(o, "halo_hidden_seconds_max", hidden));
  double wi;
  HDGCL_TRY(work_imbalance(solver, &wi));
  HDGCL_TRY(json_add_real(o, "work_imbalance", wi));
  return json_add_real(o, "imbalance", sum > 0 ? slowest / (sum / ranks) : 1.0);
}
#endif

typedef struct run_record {
  char spec[256];
  hdgcl_result result;
} run_record;

static int run(hdgcl_options opts) {
  const char *const *known[] = {solve_cli_options, hdgcl_solver_options, hdgcl_context_options,
                                NULL};
  HDGCL_TRY(hdgcl_options_check_known(opts, known));
  const char *device_spec, *mesh_spec, *json_path, *vtu_path, *problem_name, *export_prefix;
  int levels, warmup, repeat;
  bool history, quiet;
  HDGCL_TRY(hdgcl_options_get_string(opts, "device", NULL, &device_spec));
  HDGCL_TRY(hdgcl_options_get_string(opts, "problem", "helmholtz-sin", &problem_name));
  HDGCL_TRY(hdgcl_options_get_string(opts, "json", NULL, &json_path));
  HDGCL_TRY(hdgcl_options_get_string(opts, "vtu", NULL, &vtu_path));
  HDGCL_TRY(hdgcl_options_get_string(opts, "export-matrix", NULL, &export_prefix));
  HDGCL_TRY(hdgcl_options_get_int(opts, "convergence", 1, 1, 12, &levels));
  HDGCL_TRY(hdgcl_options_get_bool(opts, "history", false, &history));
  HDGCL_TRY(hdgcl_options_get_bool(opts, "quiet", false, &quiet));
  HDGCL_TRY(hdgcl_options_get_int(opts, "warmup", 0, 0, 100, &warmup));
  HDGCL_TRY(hdgcl_options_get_int(opts, "repeat", 1, 1, 1000, &repeat));
  int vtu_every;
  HDGCL_TRY(hdgcl_options_get_int(opts, "vtu-every", 0, 1, 1000000000, &vtu_every));
  if (vtu_every && !vtu_path)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "--vtu-every needs --vtu FILE (the series' name)");
  const char *default_mesh = "square:8";
  for (int i = 0; i < hdgcl_problem_count(); i++)
    if (!strcmp(hdgcl_problem_get(i)->name, problem_name))
      default_mesh = hdgcl_problem_get(i)->default_mesh;
  HDGCL_TRY(hdgcl_options_get_string(opts, "mesh", default_mesh, &mesh_spec));
  if (vtu_path && levels > 1)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "--vtu cannot be combined with --convergence");
  if (export_prefix && levels > 1)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "--export-matrix cannot be combined with --convergence");
  /* Under mpirun (docs/mpi.md): one distributed solve, reported by rank 0. */
  bool mpi = cli_mpi_active();
  if (mpi && export_prefix)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "--export-matrix of a distributed solve is not done yet "
                       "(docs/mpi.md)");
  size_t vtu_len = vtu_path ? strlen(vtu_path) : 0;
  bool pvtu = vtu_len > 5 && !strcmp(vtu_path + vtu_len - 5, ".pvtu");
  if (mpi && vtu_path && !pvtu) /* one piece per rank and their index (docs/mpi.md) */
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "--vtu %s: a distributed solve writes STEM.pvtu and one "
                       "STEM_RRRR.vtu per rank: name it STEM.pvtu", vtu_path);
  if (mpi && cli_mpi_rank() > 0) {
    quiet = true;
    json_path = NULL;
  }
  HDGCL_TRY(cli_mpi_device(device_spec, &device_spec));

  hdgcl_context ctx = NULL;
  hdgcl_mesh *mesh = NULL;
  hdgcl_solver solver = NULL;
  run_record *runs = NULL;
  json_file json = {0};
  vtu_series series = {0};
  cJSON *root = NULL, *runs_json = NULL, *rates_json = NULL; /* --json */
  int status;
  HDGCL_TRY_GOTO(status, hdgcl_calloc(levels, sizeof *runs, "runs", &runs), done);
  HDGCL_TRY_GOTO(status, hdgcl_context_create(device_spec, opts, &ctx), done);
  HDGCL_TRY_GOTO(status, cli_progress_install(ctx, quiet), done);
  hdgcl_device_info dev;
  HDGCL_TRY_GOTO(status, hdgcl_context_info(ctx, &dev), done);
  if (json_path) HDGCL_TRY_GOTO(status, json_open(&json, json_path), done);
  if (json_path && levels > 1) { /* {"runs": [...], "rates": [...]} */
    HDGCL_TRY_GOTO(status, json_new_object(&root), done);
    HDGCL_TRY_GOTO(status, json_add_array(root, "runs", &runs_json), done);
  }
  for (int level = 0; level < levels; level++) {
    run_record *rec = &runs[level];
    if (levels > 1)
      HDGCL_TRY_GOTO(status, refine_spec(mesh_spec, 1 << level, rec->spec, sizeof rec->spec), done);
    else
      snprintf(rec->spec, sizeof rec->spec, "%s", mesh_spec);
    HDGCL_TRY_GOTO(status, hdgcl_mesh_create_from_spec(rec->spec, &mesh), done);
#ifdef HDGCL_WITH_MPI
    if (mpi)
      HDGCL_TRY_GOTO(status, hdgcl_solver_create_mpi(ctx, mesh, opts, MPI_COMM_WORLD, &solver), done);
    else
#endif
      HDGCL_TRY_GOTO(status, hdgcl_solver_create(ctx, mesh, opts, &solver), done);
    HDGCL_TRY_GOTO(status, hdgcl_options_check_unused(opts), done);
    if (vtu_every) {
      HDGCL_TRY_GOTO(status, cli_vtu_series_init(&series, vtu_path, vtu_every), done);
      if (hdgcl_solver_set_step_callback(solver, cli_vtu_series_step, &series) != HDGCL_SUCCESS) {
        char why[512];
        snprintf(why, sizeof why, "%s", hdgcl_last_error());
        status = hdgcl_error(HDGCL_ERROR_ARGUMENT, "--vtu-every: %s", why);
        goto done;
      }
    }
    HDGCL_TRY_GOTO(status, cli_timed_solves(solver, warmup, repeat, &rec->result), done);
    cli_progress_clear();
    const hdgcl_result *r = &rec->result;
    if (!quiet && levels == 1) report_summary(stdout, rec->spec, mesh, &dev, r, history);
    if (!quiet && mpi) {
      double halo = 0.0, reduce = 0.0, imbalance = 1.0;
      int64_t bytes = 0;
#ifdef HDGCL_WITH_MPI
      HDGCL_TRY_GOTO(status, hdgcl_solver_exchange_figures(solver, &halo, &reduce, &bytes), done);
      HDGCL_TRY_GOTO(status, work_imbalance(solver, &imbalance), done);
#endif
      printf("distributed: %d MPI ranks, elements partitioned by METIS (docs/mpi.md), work "
             "imbalance %.3f; in the solve, halo exchange %.3f ms, reductions %.3f ms (slowest "
             "rank), %.1f KiB sent\n",
             cli_mpi_size(), imbalance, 1e3 * halo, 1e3 * reduce, bytes / 1024.0);
    }
    fflush(stdout); /* the result before the solver's end writes the kernel cache */
    if (json_path) {
      cJSON *run;
      HDGCL_TRY_GOTO(status, report_json_run(rec->spec, mesh, &dev, r, repeat, &run), done);
#ifdef HDGCL_WITH_MPI
      if (mpi) {
        status = json_mpi(solver, r, run);
        if (status != HDGCL_SUCCESS) {
          cJSON_Delete(run);
          goto done;
        }
      }
#endif
      if (levels > 1)
        HDGCL_TRY_GOTO(status, json_add_item(runs_json, NULL, run), done);
      else
        root = run;
    }
#ifdef HDGCL_WITH_MPI
    if (vtu_path && mpi) /* collective: every rank's piece and rank 0's index, or nothing */
      HDGCL_TRY_GOTO(status, hdgcl_solver_write_pvtu(solver, vtu_path, 0), done);
    else
#endif
    if (vtu_path) HDGCL_TRY_GOTO(status, hdgcl_solver_write_vtu(solver, vtu_path, 0), done);
    if (export_prefix) HDGCL_TRY_GOTO(status, hdgcl_solver_export_matrix(solver, export_prefix), done);
    hdgcl_solver_destroy(&solver);
    hdgcl_mesh_destroy(&mesh);
  }
  if (levels > 1 && !isnan(runs[0].result.tip_deflection)) { /* cantilever: no exact solution */
    if (!quiet) {
      printf("problem %s, order %d, device %s\n", runs[0].result.problem, runs[0].result.order,
             dev.name);
      printf("%-28s %9s %14s %14s %8s %6s\n", "mesh", "h", "tip deflection", "Euler-Bernoulli",
             "ratio", "iters");
      for (int k = 0; k < levels; k++) {
        const hdgcl_result *r = &runs[k].result;
        printf("%-28s %9.3e %14.6e %14.6e %8.4f %6d\n", runs[k].spec, r->h, r->tip_deflection,
               r->beam_deflection, r->tip_deflection / r->beam_deflection, r->iterations);
      }
    }
  } else if (levels > 1) {
    /* Observed rates log(e_{k-1}/e_k) / log(h_{k-1}/h_k). */
    if (!quiet) {
      printf("problem %s, order %d, device %s\n", runs[0].result.problem, runs[0].result.order,
             dev.name);
      printf("%-22s %9s %10s %5s %10s %5s %10s %5s %6s\n", "mesh", "h", "L2(u)", "rate",
             isnan(runs[0].result.l2_p) ? "L2(q)" : "L2(H)", /* H = grad u: vector problems */
             "rate", "L2(u*)", "rate", "iters");
    }
    if (json_path) HDGCL_TRY_GOTO(status, json_add_array(root, "rates", &rates_json), done);
    for (int k = 0; k < levels; k++) {
      const hdgcl_result *r = &runs[k].result;
      double rate[3] = {NAN, NAN, NAN};
      if (k > 0) {
        const hdgcl_result *p = &runs[k - 1].result;
        double lh = log(p->h / r->h);
        rate[0] = log(p->l2_u / r->l2_u) / lh;
        rate[1] = log(p->l2_q / r->l2_q) / lh;
        rate[2] = log(p->l2_ustar / r->l2_ustar) / lh;
      }
      if (!quiet) {
        char text[3][16] = {"-", "-", "-"}; /* no rate on the first mesh */
        for (int i = 0; k > 0 && i < 3; i++) snprintf(text[i], sizeof text[i], "%.2f", rate[i]);
        printf("%-22s %9.3e %10.3e %5s %10.3e %5s %10.3e %5s %6d\n", runs[k].spec, r->h, r->l2_u,
               text[0], r->l2_q, text[1], r->l2_ustar, text[2], r->iterations);
      }
      if (json_path && k > 0) {
        cJSON *o;
        HDGCL_TRY_GOTO(status, json_add_object(rates_json, NULL, &o), done);
        HDGCL_TRY_GOTO(status, json_add_real(o, "u", rate[0]), done);
        HDGCL_TRY_GOTO(status, json_add_real(o, "q", rate[1]), done);
        HDGCL_TRY_GOTO(status, json_add_real(o, "ustar", rate[2]), done);
      }
    }
  }
  if (json_path) HDGCL_TRY_GOTO(status, json_commit(&json, root), done);
  status = HDGCL_SUCCESS;
done:
  if (json.f) json_abort(&json);
  cli_vtu_series_free(&series);
  cJSON_Delete(root);
  hdgcl_solver_destroy(&solver);
  hdgcl_mesh_destroy(&mesh);
  hdgcl_context_destroy(&ctx);
  free(runs);
  return status;
}

const cli_command cli_solve = {"solve", "solve a built-in problem or your own (--problem-file) by HDG on a device", run, help};
