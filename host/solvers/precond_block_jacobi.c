/* Face block-Jacobi preconditioner (kernels: cl/solvers/precond_block_jacobi.cl;
 * paper 001 sections 3.2 and 4.5): the diagonal face blocks of the trace
 * matrix inverted in a batch once per solve, applied as a batched GEMV. */
#include <stdlib.h>

#include "core/error.h"
#include "solvers/precond.h"

typedef struct block_jacobi {
  cl_kernel setup, apply, apply_dot2;
  bool local;        /* setup in local memory (BJ_FACES faces per group), else global */
  size_t wg;         /* work-group size of the local-memory setup */
  hdgcl_buffer binv; /* [rows][nf][nf] inverses */
} block_jacobi;

#define BJ_WG 64 /* work-items per group of block_jacobi_setup (at most) */

int precond_block_jacobi_faces(hdgcl_context ctx, int nf) {
  return hdgcl_faces_per_group(ctx->info.max_work_group, BJ_WG, nf);
}

static int setup(krylov *kr, precond *pc) {
  block_jacobi *b = pc->data;
  if (b->local) {
    int nf = kr->sys.nf, faces = precond_block_jacobi_faces(kr->ctx, nf);
    hdgcl_arg a[] = {HDGCL_ARG(kr->rows), HDGCL_ARG(kr->sys.values->mem), HDGCL_ARG(b->binv.mem),
                     HDGCL_ARG_LOCAL(b->wg * (size_t)nf * sizeof(double))};
    size_t groups = ((size_t)kr->rows + (size_t)faces - 1) / (size_t)faces;
    HDGCL_TRY(krylov_launch(kr, b->setup, 4, a, groups * b->wg, b->wg));
  } else {
    hdgcl_arg a[] = {HDGCL_ARG(kr->rows), HDGCL_ARG(kr->sys.values->mem), HDGCL_ARG(b->binv.mem)};
    HDGCL_TRY(krylov_launch(kr, b->setup, 3, a, (size_t)kr->rows, 0));
  }
  double nf = kr->sys.nf;
  kr->stats.flops += 2.0 * nf * nf * nf * kr->rows;
  kr->stats.bytes += 16.0 * nf * nf * kr->rows;
  return HDGCL_SUCCESS;
}

static int apply(krylov *kr, precond *pc, const hdgcl_buffer *r, hdgcl_buffer *z) {
  block_jacobi *b = pc->data;
  hdgcl_arg a[] = {HDGCL_ARG(kr->rows), HDGCL_ARG(b->binv.mem), HDGCL_ARG(r->mem),
                   HDGCL_ARG(z->mem)};
  return krylov_launch(kr, b->apply, 4, a, (size_t)kr->n, 0);
}

/* z = M r with the partial sums of (r, z) and (r, r), as vec_dot2 leaves them. */
static int apply_dot2(krylov *kr, precond *pc, const hdgcl_buffer *r,
                      hdgcl_buffer *z) {
  block_jacobi *b = pc->data;
  hdgcl_arg a[] = {HDGCL_ARG(kr->rows), HDGCL_ARG(b->binv.mem), HDGCL_ARG(r->mem),
                   HDGCL_ARG(z->mem), HDGCL_ARG(kr->vec.partial.mem)};
  return krylov_launch(kr, b->apply_dot2, 5, a, kr->vec.wg * (size_t)kr->vec.groups, kr->vec.wg);
}

static void counts(const krylov *kr, const precond *pc, double *flops, double *bytes) {
  (void)pc;
  double nf = kr->sys.nf, n = (double)kr->sys.rows * nf;
  *flops = 2 * n * nf;
  *bytes = 8 * n * nf + 16 * n;
}

static void destroy(krylov *kr, precond *pc) {
  block_jacobi *b = pc->data;
  if (!b) return;
  if (b->setup) clReleaseKernel(b->setup);
  if (b->apply) clReleaseKernel(b->apply);
  if (b->apply_dot2) clReleaseKernel(b->apply_dot2);
  hdgcl_buffer_release(kr->ctx, &b->binv);
  free(b);
  pc->data = NULL;
}

const hdgcl_buffer *precond_block_jacobi_inverses(const precond *pc) {
  const block_jacobi *b = pc->apply == apply ? pc->data : NULL;
  return b ? &b->binv : NULL;
}

int precond_block_jacobi_create(krylov *kr, precond *pc) {
  *pc = (precond){.name = "block-jacobi", .setup = setup, .apply = apply,
                  .apply_dot2 = apply_dot2, .counts = counts, .destroy = destroy,
                  .fixed = true, .symmetric = true};
  block_jacobi *b;
  HDGCL_TRY(hdgcl_calloc(1, sizeof *b, "block-Jacobi preconditioner", &b));
  pc->data = b;
  /* The local-memory setup when a group of its face blocks fits in local
   * memory and its work-items in a group, unless --scratch global asks for
   * global memory; otherwise one work-item per face. */
  int nf = kr->sys.nf, faces = precond_block_jacobi_faces(kr->ctx, nf);
  b->wg = (size_t)faces * nf;
  b->local = !kr->set.global_scratch && b->wg <= kr->ctx->info.max_work_group &&
             b->wg * nf * sizeof(double) + 1024 <= kr->ctx->info.local_mem;
  cl_program program;
  HDGCL_TRY(krylov_program(kr, "solvers/precond_block_jacobi.cl", KRYLOV_HELPERS_ONLY, &program));
  HDGCL_TRY(hdgcl_kernel_create(program, b->local ? "block_jacobi_setup" : "block_jacobi_setup_global",
                                &b->setup));
  HDGCL_TRY(hdgcl_kernel_create(program, "block_jacobi_apply", &b->apply));
  HDGCL_TRY(hdgcl_kernel_create(program, "block_jacobi_apply_dot2", &b->apply_dot2));
  size_t bytes = (size_t)(kr->n ? kr->n : 1) * kr->sys.nf * 8;
  return hdgcl_buffer_create(kr->ctx, bytes, "block-Jacobi inverses", &b->binv);
}
