/* The trace solve stage on the device (kernels: the files listed in
 * solve_files): builds the one program of the stage (with the trace operator
 * y = A x of spmv.c + cl/solvers/spmv.cl), creates the preconditioner (precond.c) and runs the chosen
 * Krylov method (krylov_cg.c, krylov_gmres.c), with the preconditioner setup
 * timed apart from the iterations. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/error.h"
#include "solvers/precond.h"
#include "solvers/spmv.h"

/* Kernel files of the stage's program, in order (common.h is prepended). */
static const char *const solve_files[] = {"core/common.h",          "solvers/trace_matrix.h",
                                          "solvers/vectors.cl",        "solvers/spmv.cl",
                                          "solvers/krylov_cg.cl",      "solvers/krylov_gmres.cl",
                                          "solvers/precond_jacobi.cl",
                                          "solvers/precond_block_jacobi.cl", "solvers/precond_chebyshev.cl",
                                          "solvers/precond_asm.cl",    "solvers/precond_pmg.cl",
                                          "solvers/amg_device.cl"};

static size_t dot_group_size(hdgcl_context ctx) {
  hdgcl_device_info info;
  if (hdgcl_context_info(ctx, &info) != HDGCL_SUCCESS) return 64;
  size_t wg = 256;
  while (wg > info.max_work_group && wg > 1) wg /= 2;
  return wg;
}

/* Work-group size of a launch that names none, on GPUs.  Left to pick,
 * NVIDIA's driver takes a divisor of the global size, so an awkward row
 * count gets small groups (docs/mpi.md, "Scaling": one rank's vector
 * updates and SpMV several times slower than the other's).  Every kernel
 * launched with no local size returns past its count (or strides by the
 * global size), so the rounded-up launch computes the same values.  CPU
 * devices still pick (PoCL's choice feeds its vectoriser).  Capped by the
 * device's largest group (oclgrind, a "GPU" of 64). */
#define KRYLOV_GPU_WG 128

int krylov_launch(const krylov *kr, cl_kernel k, int nargs, const hdgcl_arg *args, size_t global,
                  size_t local) {
  if (!local && kr->ctx->info.is_gpu)
    local = kr->ctx->info.max_work_group < KRYLOV_GPU_WG ? kr->ctx->info.max_work_group : KRYLOV_GPU_WG;
  HDGCL_TRY(hdgcl_kernel_set_args(k, nargs, args));
  return hdgcl_kernel_launch(kr->ctx, k, 1, &global, local ? &local : NULL, NULL);
}

int krylov_create(krylov *kr) {
  const linear_system *sys = &kr->sys;
  kr->vec.wg = dot_group_size(kr->ctx);
  kr->rows = sys->rows;
  kr->n = kr->rows * sys->nf;
  /* No more first-pass groups than the vector fills: idle groups still run
   * their tree reductions (costly on CPU runtimes).  With one element per
   * work-item either way, the partial sums and so the results are the same. */
  size_t need = ((size_t)kr->n + kr->vec.wg - 1) / kr->vec.wg;
  kr->vec.groups = (cl_int)(need < 1 ? 1 : need > DOT_GROUPS ? DOT_GROUPS : need);
  char spmv[128], options[1536];
  spmv_options(sys->nf, sys->nslots, kr->ctx->info.max_work_group, spmv, sizeof spmv);
  snprintf(options, sizeof options, "%s %s -DBJ_FACES=%d -DDOT_WG=%zu -DDOT_GROUPS=%d -DMDOT_MAX=%d -DCG_COEFFS=%d%s%s",
           sys->options, spmv, precond_block_jacobi_faces(kr->ctx, sys->nf), kr->vec.wg, DOT_GROUPS, MDOT_MAX, CG_COEFFS,
           FORMAT_INTERLEAVED(sys->format) ? " -DINTERLEAVED" : "",
           kr->ctx->info.is_gpu ? "" : " -DCG_CONTIGUOUS");
  HDGCL_TRY(hdgcl_program_get(kr->ctx, solve_files, (int)(sizeof solve_files / sizeof *solve_files),
                              options, &kr->program));
  HDGCL_TRY(hdgcl_kernel_create(kr->program, spmv_kernel_name(spmv_format_storage(sys->format)),
                                &kr->spmv));
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
