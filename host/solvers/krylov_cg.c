/* Preconditioned conjugate gradients on the device (kernels: cl/solvers/krylov_cg.cl,
 * dot products from cl/solvers/vectors.cl).  Reductions and the CG scalars stay on the
 * device; the host enqueues iterations in batches and reads the small scalar
 * block once per batch, so it never stalls the device every iteration (the
 * preconditioner's apply only enqueues, precond.h). */
#include <math.h>
#include <stdlib.h>

#include "core/error.h"
#include "solvers/precond.h"

#define CG_SCALARS 16 /* size of the scalar block (S_* in cl/solvers/krylov_cg.cl) */
#define CG_S_RR0 6
#define CG_S_DONE 8 /* two slots: the flag after iteration it is in slot it & 1 */
#define CG_S_ITER 10
#define CHECK_EVERY 16 /* iterations between two reads of the scalars */
/* Most work-groups of cg_update_xr and cg_update_p: each group sums the
 * DOT_GROUPS partials again, so no more groups than a bandwidth-bound update
 * needs (one vector entry per work-item up to here, a grid-stride loop beyond).
 * CPU devices take one group per compute unit, each work-item a contiguous
 * range (CG_CONTIGUOUS, cl/solvers/krylov_cg.cl): PoCL on 2 cores took twice the
 * time with a group per 256 entries (perf/results/stop19/pocl-2core.txt). */
#define UPDATE_GROUPS 1024

typedef struct krylov_cg {
  cl_kernel init, update_xr, update_p;
  size_t update_groups; /* work-groups of the two update kernels */
  hdgcl_buffer r, z, p, ap, scalars, history, coeffs;
} krylov_cg;

int krylov_cg_create(krylov *kr) {
  HDGCL_TRY(hdgcl_calloc(1, sizeof *kr->cg, "CG", &kr->cg));
  krylov_cg *cg = kr->cg;
  HDGCL_TRY(hdgcl_kernel_create(kr->program, "cg_init", &cg->init));
  HDGCL_TRY(hdgcl_kernel_create(kr->program, "cg_update_xr", &cg->update_xr));
  HDGCL_TRY(hdgcl_kernel_create(kr->program, "cg_update_p", &cg->update_p));
  size_t vb = (size_t)(kr->n ? kr->n : 1) * 8;
  cg->update_groups = ((size_t)kr->n + kr->vec.wg - 1) / kr->vec.wg;
  if (cg->update_groups > UPDATE_GROUPS) cg->update_groups = UPDATE_GROUPS;
  size_t cpu_groups = kr->ctx->info.compute_units ? kr->ctx->info.compute_units : 1;
  if (!kr->ctx->info.is_gpu && cg->update_groups > cpu_groups) cg->update_groups = cpu_groups;
  if (cg->update_groups < 1) cg->update_groups = 1;
  HDGCL_TRY(hdgcl_buffer_create(kr->ctx, vb, "CG r", &cg->r));
  HDGCL_TRY(hdgcl_buffer_create(kr->ctx, vb, "CG z", &cg->z));
  HDGCL_TRY(hdgcl_buffer_create(kr->ctx, vb, "CG p", &cg->p));
  HDGCL_TRY(hdgcl_buffer_create(kr->ctx, vb, "CG Ap", &cg->ap));
  HDGCL_TRY(hdgcl_buffer_create(kr->ctx, CG_SCALARS * 8, "CG scalars", &cg->scalars));
  /* Room for the solve's maxit iterations and for a Lanczos estimate's up
   * to CG_COEFFS (Chebyshev setup), whatever --maxit is. */
  size_t hist = (size_t)(kr->set.maxit > CG_COEFFS ? kr->set.maxit : CG_COEFFS) + 1;
  HDGCL_TRY(hdgcl_buffer_create(kr->ctx, hist * 8, "CG history", &cg->history));
  return hdgcl_buffer_create(kr->ctx, 2 * CG_COEFFS * 8, "CG coefficients", &cg->coeffs);
}

/* PCG iteration `it` (from 0), entirely enqueued (no host synchronisation):
 * five launches, or six where the preconditioner has no apply_dot2. */
static int iteration(krylov *kr, precond *pc, hdgcl_buffer *x, int it) {
  krylov_cg *cg = kr->cg;
  size_t wg = kr->vec.wg, global = wg * cg->update_groups;
  cl_int cit = it;
  hdgcl_buffer *partial = &kr->vec.partial;
  HDGCL_TRY(krylov_spmv(kr, &cg->p, &cg->ap));
  HDGCL_TRY(vec_dot(kr, &cg->p, &cg->ap));
  hdgcl_arg xr[] = {HDGCL_ARG(kr->n),           HDGCL_ARG(cit),         HDGCL_ARG(partial->mem),
                    HDGCL_ARG(kr->vec.groups),   HDGCL_ARG(cg->scalars.mem), HDGCL_ARG(cg->coeffs.mem),
                    HDGCL_ARG(cg->p.mem),        HDGCL_ARG(cg->ap.mem),  HDGCL_ARG(x->mem),
                    HDGCL_ARG(cg->r.mem)};
  HDGCL_TRY(krylov_launch(kr, cg->update_xr, 10, xr, global, wg));
  if (pc->apply_dot2) { /* z = M r and the partial sums of (r, z), (r, r) in one kernel */
    HDGCL_TRY(pc->apply_dot2(kr, pc, &cg->r, &cg->z));
  } else {
    HDGCL_TRY(pc->apply(kr, pc, &cg->r, &cg->z));
    HDGCL_TRY(vec_dot2(kr, &cg->r, &cg->z, &cg->r));
  }
  hdgcl_arg up[] = {HDGCL_ARG(kr->n),         HDGCL_ARG(cit),
                    HDGCL_ARG(partial->mem),  HDGCL_ARG(kr->vec.groups),
                    HDGCL_ARG(cg->scalars.mem), HDGCL_ARG(cg->history.mem),
                    HDGCL_ARG(cg->coeffs.mem), HDGCL_ARG(cg->z.mem),
                    HDGCL_ARG(cg->p.mem)};
  return krylov_launch(kr, cg->update_p, 9, up, global, wg);
}

void krylov_cg_counts(const krylov *kr, double *flops, double *bytes) {
  double n = (double)kr->sys.rows * kr->sys.nf;
  double f, b;
  krylov_spmv_counts(kr, &f, &b);
  /* SpMV, (p,Ap), x and r updates, (r,z) and (r,r), p update; the two
   * update kernels read the partial sums (1 and 2 per first-pass group) in
   * every one of their work-groups. */
  double g = kr->vec.groups, ug = kr->cg ? (double)kr->cg->update_groups : g;
  *flops = f + 2 * n + 4 * n + 4 * n + 2 * n;
  *bytes = b + 16 * n + 48 * n + 24 * n + 24 * n + 8 * 3 * g * ug;
}

int krylov_cg_run(krylov *kr, precond *pc, const hdgcl_buffer *b, hdgcl_buffer *x,
                  int maxit, double rtol, bool record, cg_outcome *out) {
  krylov_cg *cg = kr->cg;
  size_t wg = kr->vec.wg, bytes = (size_t)kr->n * 8;
  *out = (cg_outcome){0};
  /* x = 0, r = b, z = M r, p = z, then (r,z) and (r,r). */
  HDGCL_TRY(hdgcl_buffer_fill(kr->ctx, x, 0, bytes, 0.0));
  HDGCL_TRY(hdgcl_buffer_fill(kr->ctx, &cg->coeffs, 0, 2 * CG_COEFFS * 8, 0.0));
  HDGCL_TRY(hdgcl_buffer_copy(kr->ctx, b, &cg->r, bytes));
  HDGCL_TRY(pc->apply(kr, pc, &cg->r, &cg->z));
  HDGCL_TRY(hdgcl_buffer_copy(kr->ctx, &cg->z, &cg->p, bytes));
  HDGCL_TRY(vec_dot2(kr, &cg->r, &cg->z, &cg->r));
  hdgcl_arg init[] = {HDGCL_ARG(kr->vec.partial.mem), HDGCL_ARG(kr->vec.groups),
                      HDGCL_ARG(cg->scalars.mem), HDGCL_ARG(rtol),
                      HDGCL_ARG(cg->history.mem)};
  HDGCL_TRY(krylov_launch(kr, cg->init, 5, init, wg, wg));

  double scalars[CG_SCALARS];
  int enqueued = 0;
  HDGCL_TRY(hdgcl_buffer_read_named(kr->ctx, &cg->scalars, 0, sizeof scalars, scalars,
                                    "host read: CG scalars"));
  while (scalars[CG_S_DONE + (enqueued & 1)] == 0.0 && enqueued < maxit) {
    int batch = maxit - enqueued < CHECK_EVERY ? maxit - enqueued : CHECK_EVERY;
    for (int i = 0; i < batch; i++) HDGCL_TRY(iteration(kr, pc, x, enqueued + i));
    enqueued += batch;
    HDGCL_TRY(hdgcl_buffer_read_named(kr->ctx, &cg->scalars, 0, sizeof scalars, scalars,
                                      "host read: CG scalars"));
  }
  int iters = (int)scalars[CG_S_ITER];
  double *h = NULL;
  HDGCL_TRY(hdgcl_calloc((size_t)iters + 1, sizeof(double), "residual history", &h));
  int status = hdgcl_buffer_read(kr->ctx, &cg->history, 0, ((size_t)iters + 1) * 8, h);
  for (int i = 0; i <= iters && record && status == HDGCL_SUCCESS; i++)
    status = krylov_record_residual(kr, h[i]);
  out->iterations = iters;
  out->residual = scalars[CG_S_RR0] == 0.0 ? 0.0 : h[iters]; /* b = 0: x = 0 is exact */
  out->converged = scalars[CG_S_DONE + (enqueued & 1)] != 0.0 && isfinite(out->residual);
  free(h);
  HDGCL_TRY(status);
  double coeffs[2 * CG_COEFFS];
  HDGCL_TRY(hdgcl_buffer_read(kr->ctx, &cg->coeffs, 0, sizeof coeffs, coeffs));
  for (int i = 0; i < CG_COEFFS; i++) {
    out->alpha[i] = coeffs[2 * i];
    out->beta[i] = coeffs[2 * i + 1];
  }
  double f, by, pf, pb;
  krylov_cg_counts(kr, &f, &by);
  pc->counts(kr, pc, &pf, &pb);
  if (pc->apply_dot2) by -= 16.0 * kr->n; /* (r, z), (r, r) read r and z where the apply has them */
  kr->stats.flops += (f + pf) * iters;
  kr->stats.bytes += (by + pb) * iters;
  return HDGCL_SUCCESS;
}

void krylov_cg_destroy(krylov *kr) {
  krylov_cg *cg = kr->cg;
  if (!cg) return;
  cl_kernel k[] = {cg->init, cg->update_xr, cg->update_p};
  for (size_t i = 0; i < sizeof k / sizeof *k; i++)
    if (k[i]) clReleaseKernel(k[i]);
  hdgcl_buffer *bufs[] = {&cg->r,       &cg->z,       &cg->p,     &cg->ap,
                          &cg->scalars, &cg->history, &cg->coeffs};
  for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++) hdgcl_buffer_release(kr->ctx, bufs[i]);
  free(cg);
  kr->cg = NULL;
}
