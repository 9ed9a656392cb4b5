/* Fused vector kernels and deterministic device reductions (cl/solvers/vectors.cl)
 * shared by the Krylov methods and the preconditioners: all enqueued, none
 * waits for the device. */
#include "core/error.h"
#include "solvers/krylov.h"

int vectors_create(krylov *kr) {
  vector_kernels *v = &kr->vec;
  cl_program p = kr->program;
  HDGCL_TRY(hdgcl_kernel_create(p, "dot_partial", &v->dot));
  HDGCL_TRY(hdgcl_kernel_create(p, "dot2_partial", &v->dot2));
  HDGCL_TRY(hdgcl_kernel_create(p, "vec_axpby", &v->axpby));
  HDGCL_TRY(hdgcl_kernel_create(p, "vec_residual", &v->residual));
  return hdgcl_buffer_create(kr->ctx, (size_t)DOT_GROUPS * MDOT_MAX * 8, "partial sums",
                             &v->partial);
}

/* The Krylov basis kernels (GMRES, Chebyshev's Arnoldi) from their own program
 * (vectors.cl with -DVECTORS_BASIS_ONLY and krylov_gmres.cl): a CG solve never
 * compiles them.  Created once; *program (may be NULL) gets the program. */
int vectors_basis_create(krylov *kr, cl_program *program) {
  vector_kernels *v = &kr->vec;
  cl_program p;
  HDGCL_TRY(krylov_program(kr, "solvers/krylov_gmres.cl", "-DVECTORS_BASIS_ONLY", &p));
  if (program) *program = p;
  if (v->mdot) return HDGCL_SUCCESS;
  HDGCL_TRY(hdgcl_kernel_create(p, "mdot_partial", &v->mdot));
  HDGCL_TRY(hdgcl_kernel_create(p, "mdot_reduce", &v->mdot_reduce));
  HDGCL_TRY(hdgcl_kernel_create(p, "norm_reduce", &v->norm_reduce));
  HDGCL_TRY(hdgcl_kernel_create(p, "scale_inv", &v->scale_inv));
  HDGCL_TRY(hdgcl_kernel_create(p, "basis_subtract", &v->basis_subtract));
  return hdgcl_kernel_create(p, "basis_combine", &v->basis_combine);
}

void vectors_destroy(krylov *kr) {
  vector_kernels *v = &kr->vec;
  cl_kernel k[] = {v->dot,      v->dot2,  v->mdot,     v->mdot_reduce,    v->norm_reduce,
                   v->scale_inv, v->axpby, v->residual, v->basis_subtract, v->basis_combine};
  for (size_t i = 0; i < sizeof k / sizeof *k; i++)
    if (k[i]) clReleaseKernel(k[i]);
  hdgcl_buffer_release(kr->ctx, &v->partial);
  size_t wg = v->wg;
  cl_int groups = v->groups;
  *v = (vector_kernels){0};
  v->wg = wg;
  v->groups = groups;
}

int vec_dot(krylov *kr, const hdgcl_buffer *a, const hdgcl_buffer *b) {
  hdgcl_arg args[] = {HDGCL_ARG(kr->n), HDGCL_ARG(a->mem), HDGCL_ARG(b->mem),
                      HDGCL_ARG(kr->vec.partial.mem)};
  return krylov_launch(kr, kr->vec.dot, 4, args, kr->vec.wg * kr->vec.groups, kr->vec.wg);
}

int vec_dot2(krylov *kr, const hdgcl_buffer *a, const hdgcl_buffer *b,
             const hdgcl_buffer *c) {
  hdgcl_arg args[] = {HDGCL_ARG(kr->n), HDGCL_ARG(a->mem), HDGCL_ARG(b->mem), HDGCL_ARG(c->mem),
                      HDGCL_ARG(kr->vec.partial.mem)};
  return krylov_launch(kr, kr->vec.dot2, 5, args, kr->vec.wg * kr->vec.groups, kr->vec.wg);
}

int vec_mdot(krylov *kr, const hdgcl_buffer *v, int k, const hdgcl_buffer *w,
             hdgcl_buffer *h, bool accumulate) {
  if (k < 1 || k > MDOT_MAX) return hdgcl_error(HDGCL_ERROR_INTERNAL, "multi-dot of %d vectors", k);
  cl_int ck = k, acc = accumulate;
  hdgcl_arg a[] = {HDGCL_ARG(kr->n), HDGCL_ARG(ck), HDGCL_ARG(v->mem), HDGCL_ARG(w->mem),
                   HDGCL_ARG(kr->vec.partial.mem)};
  HDGCL_TRY(krylov_launch(kr, kr->vec.mdot, 5, a, kr->vec.wg * kr->vec.groups, kr->vec.wg));
  hdgcl_arg b[] = {HDGCL_ARG(ck), HDGCL_ARG(acc), HDGCL_ARG(kr->vec.partial.mem),
                   HDGCL_ARG(kr->vec.groups), HDGCL_ARG(h->mem)};
  return krylov_launch(kr, kr->vec.mdot_reduce, 5, b, kr->vec.wg, kr->vec.wg);
}

int vec_normalize(krylov *kr, const hdgcl_buffer *w, hdgcl_buffer *h, int index,
                  hdgcl_buffer *y, int64_t y_offset, hdgcl_buffer *v) {
  cl_int ci = index;
  cl_long off = y_offset;
  HDGCL_TRY(vec_dot(kr, w, w));
  hdgcl_arg a[] = {HDGCL_ARG(kr->vec.partial.mem), HDGCL_ARG(kr->vec.groups), HDGCL_ARG(ci),
                   HDGCL_ARG(h->mem)};
  HDGCL_TRY(krylov_launch(kr, kr->vec.norm_reduce, 4, a, kr->vec.wg, kr->vec.wg));
  hdgcl_arg b[] = {HDGCL_ARG(kr->n), HDGCL_ARG(h->mem), HDGCL_ARG(ci), HDGCL_ARG(w->mem),
                   HDGCL_ARG(y->mem), HDGCL_ARG(off), HDGCL_ARG(v->mem)};
  return krylov_launch(kr, kr->vec.scale_inv, 7, b, (size_t)kr->n, 0);
}

int vec_axpby(krylov *kr, double a, const hdgcl_buffer *x, double b,
              hdgcl_buffer *y) {
  hdgcl_arg args[] = {HDGCL_ARG(kr->n), HDGCL_ARG(a), HDGCL_ARG(x->mem), HDGCL_ARG(b),
                      HDGCL_ARG(y->mem)};
  return krylov_launch(kr, kr->vec.axpby, 5, args, (size_t)kr->n, 0);
}

int vec_residual(krylov *kr, const hdgcl_buffer *b, hdgcl_buffer *ax) {
  hdgcl_arg args[] = {HDGCL_ARG(kr->n), HDGCL_ARG(b->mem), HDGCL_ARG(ax->mem)};
  return krylov_launch(kr, kr->vec.residual, 3, args, (size_t)kr->n, 0);
}

int vec_basis_subtract(krylov *kr, const hdgcl_buffer *v, int k,
                       const hdgcl_buffer *h, hdgcl_buffer *w) {
  cl_int ck = k;
  hdgcl_arg args[] = {HDGCL_ARG(kr->n), HDGCL_ARG(ck), HDGCL_ARG(v->mem), HDGCL_ARG(h->mem),
                      HDGCL_ARG(w->mem)};
  return krylov_launch(kr, kr->vec.basis_subtract, 5, args, (size_t)kr->n, 0);
}

int vec_basis_combine(krylov *kr, const hdgcl_buffer *v, int k,
                      const hdgcl_buffer *y, bool accumulate, hdgcl_buffer *out) {
  cl_int ck = k, acc = accumulate;
  hdgcl_arg args[] = {HDGCL_ARG(kr->n), HDGCL_ARG(ck), HDGCL_ARG(v->mem), HDGCL_ARG(y->mem),
                      HDGCL_ARG(acc), HDGCL_ARG(out->mem)};
  return krylov_launch(kr, kr->vec.basis_combine, 6, args, (size_t)kr->n, 0);
}

void krylov_pseudo_random(double *v, size_t n) {
  uint64_t state = 0x9e3779b97f4a7c15ull; /* fixed seed: deterministic */
  for (size_t i = 0; i < n; i++) {
    state ^= state << 13, state ^= state >> 7, state ^= state << 17;
    v[i] = (double)(state >> 11) / 9007199254740992.0 - 0.5;
  }
}
