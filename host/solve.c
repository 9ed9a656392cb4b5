/* Trace solve on the device (kernels: cl/solve.cl): preconditioned CG with
 * point or face block-Jacobi.  Reductions and the CG scalars stay on the
 * device; the host enqueues iterations in batches and reads the small scalar
 * block once per batch, so it never stalls the device every iteration. */
#include <math.h>
#include <stdio.h>

#include "error.h"
#include "pipeline.h"

#define CG_SCALARS 16      /* size of the scalar block (S_COUNT in cl/solve.cl) */
#define CG_S_RR0 5
#define CG_S_DONE 7
#define CG_S_ITER 8
#define CHECK_EVERY 16     /* iterations between two reads of the scalars */
#define DOT_GROUPS 256

static size_t dot_group_size(hdgcl_context ctx) {
  hdgcl_device_info info;
  if (hdgcl_context_info(ctx, &info) != HDGCL_SUCCESS) return 64;
  size_t wg = 256;
  while (wg > info.max_work_group && wg > 1) wg /= 2;
  return wg;
}

int krylov_create(hdgcl_solver s, krylov *kr) {
  const hdg_sizes *sz = &s->ref.sz;
  size_t wg = dot_group_size(s->ctx);
  char extra[128];
  snprintf(extra, sizeof extra, "-DDOT_WG=%zu -DDOT_GROUPS=%d%s", wg, DOT_GROUPS,
           s->format == FORMAT_ELL ? " -DFORMAT_ELL" : "");
  cl_program program;
  HDGCL_TRY(pipeline_program(s, "solve.cl", false, extra, &program));
  bool ell = s->format == FORMAT_ELL, block = s->precond == PRECOND_BLOCK_JACOBI;
  HDGCL_TRY(hdgcl_kernel_create(program, ell ? "spmv_ell" : "spmv_bell", &kr->spmv));
  HDGCL_TRY(hdgcl_kernel_create(program, block ? "block_jacobi_setup" : "jacobi_setup",
                                &kr->pc_setup));
  HDGCL_TRY(hdgcl_kernel_create(program, block ? "block_jacobi_apply" : "jacobi_apply",
                                &kr->pc_apply));
  HDGCL_TRY(hdgcl_kernel_create(program, "dot_partial", &kr->dot));
  HDGCL_TRY(hdgcl_kernel_create(program, "dot2_partial", &kr->dot2));
  HDGCL_TRY(hdgcl_kernel_create(program, "cg_init", &kr->init));
  HDGCL_TRY(hdgcl_kernel_create(program, "cg_alpha", &kr->alpha));
  HDGCL_TRY(hdgcl_kernel_create(program, "cg_update_xr", &kr->update_xr));
  HDGCL_TRY(hdgcl_kernel_create(program, "cg_beta", &kr->beta));
  HDGCL_TRY(hdgcl_kernel_create(program, "cg_update_p", &kr->update_p));
  size_t rows = s->num.num_unknown_faces, n = rows * sz->nf;
  size_t vb = (n ? n : 1) * 8;
  HDGCL_TRY(hdgcl_buffer_create(s->ctx, vb, "CG x", &kr->x));
  HDGCL_TRY(hdgcl_buffer_create(s->ctx, vb, "CG r", &kr->r));
  HDGCL_TRY(hdgcl_buffer_create(s->ctx, vb, "CG z", &kr->z));
  HDGCL_TRY(hdgcl_buffer_create(s->ctx, vb, "CG p", &kr->p));
  HDGCL_TRY(hdgcl_buffer_create(s->ctx, vb, "CG Ap", &kr->ap));
  HDGCL_TRY(hdgcl_buffer_create(s->ctx, block ? vb * sz->nf : vb, "preconditioner", &kr->pc));
  HDGCL_TRY(hdgcl_buffer_create(s->ctx, 2 * DOT_GROUPS * 8, "CG partial sums", &kr->partial));
  HDGCL_TRY(hdgcl_buffer_create(s->ctx, CG_SCALARS * 8, "CG scalars", &kr->scalars));
  HDGCL_TRY(hdgcl_buffer_create(s->ctx, (size_t)(s->maxit + 1) * 8, "CG history", &kr->history));
  return HDGCL_SUCCESS;
}

static int launch(hdgcl_solver s, cl_kernel k, int nargs, const hdgcl_arg *args, size_t global,
                  size_t local) {
  HDGCL_TRY(hdgcl_kernel_set_args(k, nargs, args));
  return hdgcl_kernel_launch(s->ctx, k, 1, &global, local ? &local : NULL, NULL);
}

/* z = M r */
static int precondition(hdgcl_solver s, krylov *kr, hdgcl_buffer *r, hdgcl_buffer *z) {
  const hdg_sizes *sz = &s->ref.sz;
  cl_int rows = s->num.num_unknown_faces, n = rows * sz->nf;
  hdgcl_arg args[] = {s->precond == PRECOND_JACOBI ? HDGCL_ARG(n) : HDGCL_ARG(rows),
                      HDGCL_ARG(kr->pc.mem), HDGCL_ARG(r->mem), HDGCL_ARG(z->mem)};
  return launch(s, kr->pc_apply, 4, args, (size_t)n, 0);
}

/* One PCG iteration, entirely enqueued (no host synchronisation). */
static int iteration(hdgcl_solver s, krylov *kr, const assembly *as, size_t wg) {
  const hdg_sizes *sz = &s->ref.sz;
  cl_int rows = s->num.num_unknown_faces, n = rows * sz->nf;
  size_t ndot = wg * DOT_GROUPS;
  if (s->format == FORMAT_ELL) {
    hdgcl_arg a[] = {HDGCL_ARG(n), HDGCL_ARG(as->cols.mem), HDGCL_ARG(as->values.mem),
                     HDGCL_ARG(kr->p.mem), HDGCL_ARG(kr->ap.mem)};
    HDGCL_TRY(launch(s, kr->spmv, 5, a, (size_t)n, 0));
  } else {
    hdgcl_arg a[] = {HDGCL_ARG(rows), HDGCL_ARG(s->dev->data.block_cols.mem),
                     HDGCL_ARG(as->values.mem), HDGCL_ARG(kr->p.mem), HDGCL_ARG(kr->ap.mem)};
    HDGCL_TRY(launch(s, kr->spmv, 5, a, (size_t)n, 0));
  }
  hdgcl_arg dot[] = {HDGCL_ARG(n), HDGCL_ARG(kr->p.mem), HDGCL_ARG(kr->ap.mem),
                     HDGCL_ARG(kr->partial.mem)};
  HDGCL_TRY(launch(s, kr->dot, 4, dot, ndot, wg));
  hdgcl_arg alpha[] = {HDGCL_ARG(kr->partial.mem), HDGCL_ARG(kr->scalars.mem)};
  HDGCL_TRY(launch(s, kr->alpha, 2, alpha, wg, wg));
  hdgcl_arg xr[] = {HDGCL_ARG(n), HDGCL_ARG(kr->scalars.mem), HDGCL_ARG(kr->p.mem),
                    HDGCL_ARG(kr->ap.mem), HDGCL_ARG(kr->x.mem), HDGCL_ARG(kr->r.mem)};
  HDGCL_TRY(launch(s, kr->update_xr, 6, xr, (size_t)n, 0));
  HDGCL_TRY(precondition(s, kr, &kr->r, &kr->z));
  hdgcl_arg dot2[] = {HDGCL_ARG(n), HDGCL_ARG(kr->r.mem), HDGCL_ARG(kr->z.mem),
                      HDGCL_ARG(kr->r.mem), HDGCL_ARG(kr->partial.mem)};
  HDGCL_TRY(launch(s, kr->dot2, 5, dot2, ndot, wg));
  hdgcl_arg beta[] = {HDGCL_ARG(kr->partial.mem), HDGCL_ARG(kr->scalars.mem),
                      HDGCL_ARG(kr->history.mem)};
  HDGCL_TRY(launch(s, kr->beta, 3, beta, wg, wg));
  hdgcl_arg up[] = {HDGCL_ARG(n), HDGCL_ARG(kr->scalars.mem), HDGCL_ARG(kr->z.mem),
                    HDGCL_ARG(kr->p.mem)};
  return launch(s, kr->update_p, 4, up, (size_t)n, 0);
}

/* Flops and bytes of one iteration (counted from the algorithm). */
static void iteration_counts(hdgcl_solver s, double *flops, double *bytes) {
  const hdg_sizes *sz = &s->ref.sz;
  double rows = s->num.num_unknown_faces, n = rows * sz->nf;
  double nnz = rows * sz->nslots * sz->nf * sz->nf; /* stored entries, padding included */
  double index = s->format == FORMAT_ELL ? 4 * nnz : 4 * rows * sz->nslots;
  double pc_flops = s->precond == PRECOND_JACOBI ? n : 2 * n * sz->nf;
  double pc_bytes = s->precond == PRECOND_JACOBI ? 24 * n : 8 * n * sz->nf + 16 * n;
  *flops = 2 * nnz + 2 * n + 4 * n + pc_flops + 4 * n + 2 * n;
  *bytes = (8 * nnz + index + 16 * n) + 16 * n + 48 * n + pc_bytes + 24 * n + 24 * n;
}

int krylov_solve(hdgcl_solver s, krylov *kr, const assembly *as) {
  const hdg_sizes *sz = &s->ref.sz;
  hdgcl_result *res = &s->result;
  cl_int rows = s->num.num_unknown_faces, n = rows * sz->nf;
  size_t wg = dot_group_size(s->ctx), ndot = wg * DOT_GROUPS;
  res->history_length = 0;
  if (n == 0) { /* every face is Dirichlet: nothing to solve */
    res->iterations = 0;
    res->residual = 0.0;
    return solver_record_residual(s, 0.0);
  }
  double t0 = hdgcl_wtime();
  hdgcl_arg setup[] = {HDGCL_ARG(rows), HDGCL_ARG(as->values.mem), HDGCL_ARG(kr->pc.mem)};
  HDGCL_TRY(launch(s, kr->pc_setup, 3, setup,
                   s->precond == PRECOND_JACOBI ? (size_t)n : (size_t)rows, 0));
  HDGCL_TRY(hdgcl_context_finish(s->ctx));
  kr->setup_seconds = hdgcl_wtime() - t0;
  res->precond_seconds = kr->setup_seconds;

  /* x = 0, r = b, z = M r, p = z, then (r,z) and (r,r). */
  HDGCL_TRY(hdgcl_buffer_fill(s->ctx, &kr->x, 0, (size_t)n * 8, 0.0));
  HDGCL_TRY(hdgcl_buffer_copy(s->ctx, &as->rhs_buf, &kr->r, (size_t)n * 8));
  HDGCL_TRY(precondition(s, kr, &kr->r, &kr->z));
  HDGCL_TRY(hdgcl_buffer_copy(s->ctx, &kr->z, &kr->p, (size_t)n * 8));
  hdgcl_arg dot2[] = {HDGCL_ARG(n), HDGCL_ARG(kr->r.mem), HDGCL_ARG(kr->z.mem),
                      HDGCL_ARG(kr->r.mem), HDGCL_ARG(kr->partial.mem)};
  HDGCL_TRY(launch(s, kr->dot2, 5, dot2, ndot, wg));
  double rtol = s->rtol;
  hdgcl_arg init[] = {HDGCL_ARG(kr->partial.mem), HDGCL_ARG(kr->scalars.mem), HDGCL_ARG(rtol),
                      HDGCL_ARG(kr->history.mem)};
  HDGCL_TRY(launch(s, kr->init, 4, init, wg, wg));

  double scalars[CG_SCALARS];
  int enqueued = 0;
  HDGCL_TRY(hdgcl_buffer_read(s->ctx, &kr->scalars, 0, sizeof scalars, scalars));
  while (scalars[CG_S_DONE] == 0.0 && enqueued < s->maxit) {
    int batch = s->maxit - enqueued < CHECK_EVERY ? s->maxit - enqueued : CHECK_EVERY;
    for (int b = 0; b < batch; b++) HDGCL_TRY(iteration(s, kr, as, wg));
    enqueued += batch;
    HDGCL_TRY(hdgcl_buffer_read(s->ctx, &kr->scalars, 0, sizeof scalars, scalars));
  }
  int iters = (int)scalars[CG_S_ITER];
  res->iterations = iters;
  double *h = NULL;
  HDGCL_TRY(hdgcl_calloc((size_t)iters + 1, sizeof(double), "residual history", &h));
  int status = hdgcl_buffer_read(s->ctx, &kr->history, 0, ((size_t)iters + 1) * 8, h);
  for (int i = 0; i <= iters && status == HDGCL_SUCCESS; i++) status = solver_record_residual(s, h[i]);
  res->residual = scalars[CG_S_RR0] == 0.0 ? 0.0 : h[iters]; /* b = 0: x = 0 is exact */
  free(h);
  HDGCL_TRY(status);
  double f, b;
  iteration_counts(s, &f, &b);
  res->stages[HDGCL_STAGE_SOLVE].flops += f * iters;
  res->stages[HDGCL_STAGE_SOLVE].bytes += b * iters;
  if (scalars[CG_S_DONE] == 0.0 || !isfinite(res->residual))
    return hdgcl_error(HDGCL_ERROR_CONVERGENCE,
                       "CG did not converge: relative residual %.3e after %d iterations "
                       "(--rtol %g, --maxit %d)",
                       res->residual, iters, s->rtol, s->maxit);
  return HDGCL_SUCCESS;
}

void krylov_destroy(hdgcl_solver s, krylov *kr) {
  cl_kernel kernels[] = {kr->spmv, kr->pc_setup, kr->pc_apply, kr->dot,    kr->dot2,
                         kr->init, kr->alpha,    kr->update_xr, kr->beta, kr->update_p};
  for (size_t i = 0; i < sizeof kernels / sizeof *kernels; i++)
    if (kernels[i]) clReleaseKernel(kernels[i]);
  hdgcl_buffer *bufs[] = {&kr->x,  &kr->r,       &kr->z,       &kr->p,      &kr->ap,
                          &kr->pc, &kr->partial, &kr->scalars, &kr->history};
  for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++) hdgcl_buffer_release(s->ctx, bufs[i]);
  *kr = (krylov){0};
}
