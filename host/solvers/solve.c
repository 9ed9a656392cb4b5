/* The trace solve stage on the device (kernels: the files listed in
 * solve_files): builds the one program of the stage (with the trace operator
 * y = A x of spmv.c + cl/solvers/spmv.cl), creates the preconditioner (precond.c) and runs the chosen
 * Krylov method (krylov_cg.c, krylov_gmres.c), with the preconditioner setup
 * timed apart from the iterations. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/error.h"
#include "pipeline/pipeline.h"
#include "solvers/precond.h"
#include "solvers/spmv.h"

/* Kernel files of the stage's program, in order (common.h is prepended). */
static const char *const solve_files[] = {"core/common.h",          "solvers/trace_matrix.h",
                                          "solvers/vectors.cl",        "solvers/spmv.cl",
                                          "solvers/krylov_cg.cl",      "solvers/precond_jacobi.cl",
                                          "solvers/precond_block_jacobi.cl", "solvers/precond_chebyshev.cl",
                                          "solvers/precond_asm.cl",    "solvers/precond_pmg.cl"};

static size_t dot_group_size(hdgcl_context ctx) {
  hdgcl_device_info info;
  if (hdgcl_context_info(ctx, &info) != HDGCL_SUCCESS) return 64;
  size_t wg = 256;
  while (wg > info.max_work_group && wg > 1) wg /= 2;
  return wg;
}

int krylov_launch(hdgcl_solver s, cl_kernel k, int nargs, const hdgcl_arg *args, size_t global,
                  size_t local) {
  HDGCL_TRY(hdgcl_kernel_set_args(k, nargs, args));
  return hdgcl_kernel_launch(s->ctx, k, 1, &global, local ? &local : NULL, NULL);
}

int krylov_create(hdgcl_solver s, krylov *kr) {
  const hdg_sizes *sz = &s->ref.sz;
  kr->vec.wg = dot_group_size(s->ctx);
  kr->rows = s->num.num_unknown_faces;
  kr->n = kr->rows * sz->nfb;
  /* No more first-pass groups than the vector fills: idle groups still run
   * their tree reductions (costly on CPU runtimes).  With one element per
   * work-item either way, the partial sums and so the results are the same. */
  size_t need = ((size_t)kr->n + kr->vec.wg - 1) / kr->vec.wg;
  kr->vec.groups = (cl_int)(need < 1 ? 1 : need > DOT_GROUPS ? DOT_GROUPS : need);
  char spmv[128], options[1536];
  spmv_options(sz->nfb, sz->nslots, s->ctx->info.max_work_group, spmv, sizeof spmv);
  snprintf(options, sizeof options, "%s %s -DBJ_FACES=%d -DDOT_WG=%zu -DDOT_GROUPS=%d -DMDOT_MAX=%d -DCG_COEFFS=%d%s%s",
           s->dev->trace_options, spmv, precond_block_jacobi_faces(s->ctx, sz->nfb), kr->vec.wg, DOT_GROUPS, MDOT_MAX, CG_COEFFS,
           FORMAT_INTERLEAVED(s->format) ? " -DINTERLEAVED" : "",
           s->ctx->info.is_gpu ? "" : " -DCG_CONTIGUOUS");
  HDGCL_TRY(hdgcl_program_get(s->ctx, solve_files, (int)(sizeof solve_files / sizeof *solve_files),
                              options, &kr->program));
  HDGCL_TRY(hdgcl_kernel_create(kr->program, spmv_kernel_name(spmv_format_storage(s->format)),
                                &kr->spmv));
  HDGCL_TRY(vectors_create(s, kr));
  size_t vb = (size_t)(kr->n ? kr->n : 1) * 8;
  HDGCL_TRY(hdgcl_buffer_create(s->ctx, vb, "trace solution", &kr->x));
  HDGCL_TRY(hdgcl_calloc(1, sizeof *kr->pc, "preconditioner", &kr->pc));
  HDGCL_TRY(precond_create(s, kr, s->precond, kr->pc));
  HDGCL_TRY(krylov_cg_create(s, kr)); /* also used by the Chebyshev eigenvalue estimate */
  if (s->solver == SOLVER_GMRES) HDGCL_TRY(krylov_gmres_create(s, kr));
  return HDGCL_SUCCESS;
}

uint64_t krylov_bytes(hdgcl_solver s) {
  const hdg_sizes *sz = &s->ref.sz;
  uint64_t n = (uint64_t)s->num.num_unknown_faces * sz->nfb;
  uint64_t bytes = n * 8 * 5;                       /* x; CG r, z, p, Ap */
  bytes += (uint64_t)DOT_GROUPS * MDOT_MAX * 8;     /* partial sums */
  bytes += (uint64_t)((s->maxit > CG_COEFFS ? s->maxit : CG_COEFFS) + 1) * 8; /* residual history */
  bytes += precond_bytes(s, s->precond);
  if (s->solver == SOLVER_GMRES) bytes += krylov_gmres_bytes(s);
  return bytes;
}

int krylov_solve(hdgcl_solver s, krylov *kr, const assembly *as) {
  hdgcl_result *res = &s->result;
  kr->as = as;
  res->history_length = 0;
  res->precond_seconds = 0.0;
  res->eig_min = res->eig_max = 0.0;
  if (kr->n == 0) { /* every face is Dirichlet: nothing to solve */
    res->iterations = 0;
    res->residual = 0.0;
    return solver_record_residual(s, 0.0);
  }
  if (s->solver == SOLVER_CG && !kr->pc->symmetric)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "--precond %s is not symmetric: use --solver gmres",
                       kr->pc->name);
  double t0 = hdgcl_wtime();
  HDGCL_TRY(kr->pc->setup(s, kr, kr->pc));
  HDGCL_TRY(hdgcl_context_finish(s->ctx));
  kr->setup_seconds = hdgcl_wtime() - t0;
  res->precond_seconds = kr->setup_seconds;
  res->history_length = 0; /* a setup may have run a few iterations of its own */

  int iters;
  double residual;
  bool converged;
  const char *method = s->solver == SOLVER_GMRES ? "GMRES" : "CG";
  if (s->solver == SOLVER_GMRES) {
    HDGCL_TRY(krylov_gmres_run(s, kr, kr->pc, &as->rhs_buf, &kr->x, &iters, &residual, &converged));
  } else {
    cg_outcome out;
    HDGCL_TRY(krylov_cg_run(s, kr, kr->pc, &as->rhs_buf, &kr->x, s->maxit, s->rtol, true, &out));
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
                       method, residual, iters, s->rtol, s->maxit);
  return HDGCL_SUCCESS;
}

void krylov_destroy(hdgcl_solver s, krylov *kr) {
  krylov_gmres_destroy(s, kr);
  krylov_cg_destroy(s, kr);
  if (kr->pc) {
    precond_destroy(s, kr->pc);
    free(kr->pc);
  }
  vectors_destroy(s, kr);
  if (kr->spmv) clReleaseKernel(kr->spmv);
  hdgcl_buffer_release(s->ctx, &kr->x);
  *kr = (krylov){0};
}
