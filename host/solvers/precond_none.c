/* No preconditioner: z = r (a device copy). */
#include "core/error.h"
#include "solvers/precond.h"

static int setup(krylov *kr, precond *pc) {
  (void)kr, (void)pc;
  return HDGCL_SUCCESS;
}

static int apply(krylov *kr, precond *pc, const hdgcl_buffer *r, hdgcl_buffer *z) {
  (void)pc;
  return hdgcl_buffer_copy(kr->ctx, r, z, (size_t)kr->n * 8);
}

static void counts(const krylov *kr, const precond *pc, double *flops, double *bytes) {
  (void)pc;
  *flops = 0;
  *bytes = 16.0 * kr->sys.rows * kr->sys.nf;
}

int precond_none_create(krylov *kr, precond *pc) {
  (void)kr;
  *pc = (precond){.name = "none", .setup = setup, .apply = apply, .counts = counts,
                  .fixed = true, .symmetric = true};
  return HDGCL_SUCCESS;
}
