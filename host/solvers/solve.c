/* The trace solve stage on the device: builds the stage's program (solve_files: the
 * vectors, the trace operator y = A x of spmv.c + cl/solvers/spmv.cl in the matrix's
 * storage only, CG), creates the preconditioner (precond.c, each with its own small
 * program, krylov_program) and runs the chosen Krylov method (krylov_cg.c,
 * krylov_gmres.c), with the preconditioner setup timed apart from the iterations.
 * Split so that a run compiles only the kernels it uses (docs/tuning.md, "Start-up":
 * NVIDIA's clBuildProgram compiles every kernel of a program), and so that solves
 * with different preconditioners in one process share the stage's program. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/error.h"
#include "solvers/precond.h"
#include "solvers/spmv.h"

/* Kernel files of the stage's program, in order. */
static const char *const solve_files[] = {"core/common.h", "solvers/trace_matrix.h",
                                          "solvers/vectors.cl", "solvers/spmv.cl",
                                          "solvers/krylov_cg.cl"};

/* program NULL: start its build in a thread (hdgcl_program_prefetch). */
static int stage_program(const krylov *kr, const char *file, const char *extra, cl_program *program) {
  const char *files[] = {"core/common.h", "solvers/trace_matrix.h", "solvers/vectors.cl", file};
  char options[sizeof kr->options + 256];
  snprintf(options, sizeof options, "%s %s", kr->options, extra ? extra : "");
  if (!program) return hdgcl_program_prefetch(kr->ctx, NULL, 0, files, 4, options);
  return hdgcl_program_get(kr->ctx, files, 4, options, program);
}

int krylov_program(const krylov *kr, const char *file, const char *extra, cl_program *program) {
  return stage_program(kr, file, extra, program);
}

static size_t dot_group_size(hdgcl_context ctx) {
  hdgcl_device_info info;
  if (hdgcl_context_info(ctx, &info) != HDGCL_SUCCESS) return 64;
  size_t wg = 256;
  while (wg > info.max_work_group && wg > 1) wg /= 2;
  return wg;
}

int krylov_launch(const krylov *kr, cl_kernel k, int nargs, const hdgcl_arg *args, size_t global,
                  size_t local) {
  HDGCL_TRY(hdgcl_kernel_set_args(k, nargs, args));
  if (!local) return hdgcl_kernel_launch_items(kr->ctx, k, global);
  return hdgcl_kernel_launch(kr->ctx, k, 1, &global, &local, NULL);
}

/* kr->vec.wg, kr->options, and in main the options of the stage's program (solve_files). */
static void stage_options(krylov *kr, char *main, size_t n) {
  const linear_system *sys = &kr->sys;
  kr->vec.wg = dot_group_size(kr->ctx);
  char spmv[128];
  spmv_options(sys->nf, sys->nslots, kr->ctx->info.max_work_group, spmv, sizeof spmv);
  snprintf(kr->options, sizeof kr->options, "%s %s -DBJ_FACES=%d -DDOT_WG=%zu -DDOT_GROUPS=%d -DMDOT_MAX=%d -DCG_COEFFS=%d%s%s",
           sys->options, spmv, precond_block_jacobi_faces(kr->ctx, sys->nf), kr->vec.wg, DOT_GROUPS, MDOT_MAX, CG_COEFFS,
           FORMAT_INTERLEAVED(sys->format) ? " -DINTERLEAVED" : "",
           kr->ctx->info.is_gpu ? "" : " -DCG_CONTIGUOUS");
  snprintf(main, n, "%s -DSPMV_ONLY=%d -DVECTORS_NO_BASIS", kr->options,
           (int)spmv_format_storage(sys->format));
}

int krylov_prefetch(krylov *kr) {
  char options[sizeof kr->options + 64];
  stage_options(kr, options, sizeof options);
  HDGCL_TRY(hdgcl_program_prefetch(kr->ctx, NULL, 0, solve_files,
                                   (int)(sizeof solve_files / sizeof *solve_files), options));
  const solver_settings *set = &kr->set;
  int kinds[2] = {set->precond, set->precond == PRECOND_CHEBYSHEV ? set->cheb_inner : PRECOND_NONE};
  for (int i = 0; i < 2; i++) {
    const char *file = precond_program_file(kinds[i]);
    if (file) HDGCL_TRY(stage_program(kr, file, KRYLOV_HELPERS_ONLY, NULL));
  }
  if (set->solver == SOLVER_GMRES || (set->precond == PRECOND_CHEBYSHEV && set->nonsymmetric))
    HDGCL_TRY(stage_program(kr, "solvers/krylov_gmres.cl", "-DVECTORS_BASIS_ONLY", NULL));
  return HDGCL_SUCCESS;
}

int krylov_create(krylov *kr) {
  const linear_system *sys = &kr->sys;
  kr->rows = sys->rows;
  kr->n = kr->rows * sys->nf;
  char options[sizeof kr->options + 64];
  stage_options(kr, options, sizeof options); /* also kr->vec.wg */
  /* No more first-pass groups than the vector fills: idle groups still run
   * their tree reductions (costly on CPU runtimes).  With one element per
   * work-item either way, the partial sums and so the results are the same. */
  size_t need = ((size_t)kr->n + kr->vec.wg - 1) / kr->vec.wg;
  kr->vec.groups = (cl_int)(need < 1 ? 1 : need > DOT_GROUPS ? DOT_GROUPS : need);
  spmv_storage storage = spmv_format_storage(sys->format);
  HDGCL_TRY(hdgcl_program_get(kr->ctx, solve_files, (int)(sizeof solve_files / sizeof *solve_files),
                              options, &kr->program));
  HDGCL_TRY(hdgcl_kernel_create(kr->program, spmv_kernel_name(storage), &kr->spmv));
  HDGCL_TRY(vectors_create(kr));
  size_t vb = (size_t)(kr->n ? kr->n : 1) * 8;
  HDGCL_TRY(hdgcl_buffer_create(kr->ctx, vb, "trace solution", &kr->x));
  HDGCL_TRY(hdgcl_calloc(1, sizeof *kr->pc, "preconditioner", &kr->pc));
  HDGCL_TRY(precond_create(kr, kr->set.precond, kr->pc));
  HDGCL_TRY(krylov_cg_create(kr)); /* also used by the Chebyshev eigenvalue estimate */
  if (kr->set.solver == SOLVER_GMRES) HDGCL_TRY(krylov_gmres_create(kr));
  return HDGCL_SUCCESS;
}

uint64_t krylov_bytes(const linear_system *sys, const solver_settings *set) {
  uint64_t n = (uint64_t)sys->rows * sys->nf;
  uint64_t bytes = n * 8 * 5;                       /* x; CG r, z, p, Ap */
  bytes += (uint64_t)DOT_GROUPS * MDOT_MAX * 8;     /* partial sums */
  /* the residual history */
  bytes += (uint64_t)((set->maxit > CG_COEFFS ? set->maxit : CG_COEFFS) + 1) * 8;
  bytes += precond_bytes(sys, set, set->precond);
  if (set->solver == SOLVER_GMRES) bytes += krylov_gmres_bytes(sys, set);
  return bytes;
}

int krylov_record_residual(krylov *kr, double relres) {
  return kr->history.record ? kr->history.record(kr->history.owner, relres) : HDGCL_SUCCESS;
}

int krylov_solve(krylov *kr) {
  solve_stats *res = &kr->stats;
  *res = (solve_stats){0};
  if (kr->n == 0) /* every face is Dirichlet: nothing to solve */
    return krylov_record_residual(kr, 0.0);
  if (kr->set.solver == SOLVER_CG && !kr->pc->symmetric)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "--precond %s is not symmetric: use --solver gmres",
                       kr->pc->name);
  double t0 = hdgcl_wtime();
  HDGCL_TRY(kr->pc->setup(kr, kr->pc));
  HDGCL_TRY(hdgcl_context_finish(kr->ctx));
  kr->setup_seconds = hdgcl_wtime() - t0;
  res->precond_seconds = kr->setup_seconds;

  int iters;
  double residual;
  bool converged;
  const char *method = kr->set.solver == SOLVER_GMRES ? "GMRES" : "CG";
  if (kr->set.solver == SOLVER_GMRES) {
    HDGCL_TRY(krylov_gmres_run(kr, kr->pc, kr->sys.rhs, &kr->x, &iters, &residual, &converged));
  } else {
    cg_outcome out;
    HDGCL_TRY(krylov_cg_run(kr, kr->pc, kr->sys.rhs, &kr->x, kr->set.maxit, kr->set.rtol, true,
                            &out));
    iters = out.iterations;
    residual = out.residual;
    converged = out.converged;
  }
  res->iterations = iters;
  res->residual = residual;
  if (!isfinite(residual))
    return hdgcl_error(HDGCL_ERROR_CONVERGENCE, KRYLOV_NOT_FINITE, method,
                       isnan(residual) ? "NaN" : "Inf", iters);
  if (!converged)
    return hdgcl_error(HDGCL_ERROR_CONVERGENCE,
                       "%s did not converge: relative residual %.3e after %d iterations "
                       "(--rtol %g, --maxit %d)",
                       method, residual, iters, kr->set.rtol, kr->set.maxit);
  return HDGCL_SUCCESS;
}

void krylov_destroy(krylov *kr) {
  krylov_gmres_destroy(kr);
  krylov_cg_destroy(kr);
  if (kr->pc) {
    precond_destroy(kr, kr->pc);
    free(kr->pc);
  }
  vectors_destroy(kr);
  if (kr->spmv) clReleaseKernel(kr->spmv);
  hdgcl_buffer_release(kr->ctx, &kr->x);
  *kr = (krylov){0};
}
