/* Point-Jacobi preconditioner (kernels: cl/solvers/precond_jacobi.cl): z = D^-1 r. */
#include <stdlib.h>

#include "core/error.h"
#include "solvers/precond.h"

typedef struct jacobi {
  cl_kernel setup, apply;
  hdgcl_buffer dinv;
} jacobi;

static int setup(krylov *kr, precond *pc) {
  jacobi *j = pc->data;
  hdgcl_arg a[] = {HDGCL_ARG(kr->rows), HDGCL_ARG(kr->sys.values->mem), HDGCL_ARG(j->dinv.mem)};
  return krylov_launch(kr, j->setup, 3, a, (size_t)kr->n, 0);
}

static int apply(krylov *kr, precond *pc, const hdgcl_buffer *r, hdgcl_buffer *z) {
  jacobi *j = pc->data;
  hdgcl_arg a[] = {HDGCL_ARG(kr->n), HDGCL_ARG(j->dinv.mem), HDGCL_ARG(r->mem), HDGCL_ARG(z->mem)};
  return krylov_launch(kr, j->apply, 4, a, (size_t)kr->n, 0);
}

static void counts(const krylov *kr, const precond *pc, double *flops, double *bytes) {
  (void)pc;
  double n = (double)kr->sys.rows * kr->sys.nf;
  *flops = n;
  *bytes = 24 * n;
}

static void destroy(krylov *kr, precond *pc) {
  jacobi *j = pc->data;
  if (!j) return;
  if (j->setup) clReleaseKernel(j->setup);
  if (j->apply) clReleaseKernel(j->apply);
  hdgcl_buffer_release(kr->ctx, &j->dinv);
  free(j);
  pc->data = NULL;
}

int precond_jacobi_create(krylov *kr, precond *pc) {
  *pc = (precond){.name = "jacobi", .setup = setup, .apply = apply, .counts = counts,
                  .destroy = destroy, .fixed = true, .symmetric = true};
  jacobi *j;
  HDGCL_TRY(hdgcl_calloc(1, sizeof *j, "Jacobi preconditioner", &j));
  pc->data = j;
  cl_program program;
  HDGCL_TRY(krylov_program(kr, "solvers/precond_jacobi.cl", KRYLOV_HELPERS_ONLY, &program));
  HDGCL_TRY(hdgcl_kernel_create(program, "jacobi_setup", &j->setup));
  HDGCL_TRY(hdgcl_kernel_create(program, "jacobi_apply", &j->apply));
  return hdgcl_buffer_create(kr->ctx, (size_t)(kr->n ? kr->n : 1) * 8, "Jacobi diagonal", &j->dinv);
}
