/* No preconditioner: z = r (a device copy). */
#include "core/error.h"
#include "solvers/precond.h"

static int setup(hdgcl_solver s, krylov *kr, precond *pc) {
  (void)s, (void)kr, (void)pc;
  return HDGCL_SUCCESS;
}

static int apply(hdgcl_solver s, krylov *kr, precond *pc, const hdgcl_buffer *r, hdgcl_buffer *z) {
  (void)pc;
  return hdgcl_buffer_copy(s->ctx, r, z, (size_t)kr->n * 8);
}

static void counts(hdgcl_solver s, const precond *pc, double *flops, double *bytes) {
  (void)pc;
  *flops = 0;
  *bytes = 16.0 * s->num.num_unknown_faces * s->ref.sz.nfb;
}

int precond_none_create(hdgcl_solver s, krylov *kr, precond *pc) {
  (void)s, (void)kr;
  *pc = (precond){.name = "none", .setup = setup, .apply = apply, .counts = counts,
                  .fixed = true, .symmetric = true};
  return HDGCL_SUCCESS;
}
