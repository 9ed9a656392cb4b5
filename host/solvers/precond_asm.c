/* Additive Schwarz preconditioner with element patches (kernels:
 * cl/solvers/precond_asm.cl; paper 001 eq. 12, sections 3.3 and 4.6).
 *
 * Subdomain of element e: the trace unknowns of its faces (nfaces * nf
 * values).  A_e = R_e A R_e^T is read from the assembled matrix (unlike
 * paper 001 section 4.6, which enriches the element matrix with the
 * neighbours' diagonal blocks: the exact restriction is the textbook ASM and
 * needs no element matrices kept), inverted in a batch once per solve, and
 *     z = sum_e R_e^T A_e^-1 R_e r
 * is gathered face by face over the face's 1-2 neighbour elements, so no
 * atomics and a fixed summation order.
 *
 * Which sum: the plain (unweighted) one.  It is symmetric positive definite,
 * so it serves CG as well as GMRES.  Restricted ASM (each face takes only one
 * patch's value) or a weighted sum with weight 1/2 on shared faces applied
 * only on the prolongation side (R~_e^T) are not symmetric, and weighting both
 * sides by 1/2 is just a scaled plain sum on interior faces; so one plain
 * sum for both methods.  Memory: nelements * (nfaces nf)^2 doubles. */
#include <stdlib.h>

#include "core/error.h"
#include "solvers/precond.h"

typedef struct asm_data {
  cl_kernel setup, apply;
  hdgcl_buffer ainv; /* [num_elements][nt][nt] patch inverses */
} asm_data;

static int setup(krylov *kr, precond *pc) {
  asm_data *a = pc->data;
  const element_patches *d = &kr->sys.patches;
  cl_int ne = d->num_elements;
  hdgcl_arg args[] = {HDGCL_ARG(ne),
                      HDGCL_ARG(kr->rows),
                      HDGCL_ARG(d->elem_faces->mem),
                      HDGCL_ARG(d->face_elems->mem),
                      HDGCL_ARG(d->face_unknown->mem),
                      HDGCL_ARG(kr->sys.values->mem),
                      HDGCL_ARG(a->ainv.mem)};
  HDGCL_TRY(krylov_launch(kr, a->setup, 7, args, (size_t)ne, 0));
  double nt = d->nt;
  kr->stats.flops += 2.0 * nt * nt * nt * ne;
  kr->stats.bytes += 16.0 * nt * nt * ne;
  return HDGCL_SUCCESS;
}

static int apply(krylov *kr, precond *pc, const hdgcl_buffer *r, hdgcl_buffer *z) {
  asm_data *a = pc->data;
  const element_patches *d = &kr->sys.patches;
  hdgcl_arg args[] = {HDGCL_ARG(kr->rows),           HDGCL_ARG(d->unknown_face->mem),
                      HDGCL_ARG(d->elem_faces->mem), HDGCL_ARG(d->face_elems->mem),
                      HDGCL_ARG(d->face_local->mem), HDGCL_ARG(d->face_unknown->mem),
                      HDGCL_ARG(a->ainv.mem),       HDGCL_ARG(r->mem),
                      HDGCL_ARG(z->mem)};
  return krylov_launch(kr, a->apply, 9, args, (size_t)kr->n, 0);
}

static void counts(const krylov *kr, const precond *pc, double *flops, double *bytes) {
  (void)pc;
  double ne = kr->sys.patches.num_elements, nt = kr->sys.patches.nt;
  double n = (double)kr->sys.rows * kr->sys.nf;
  /* Every row of every patch inverse is used once; r read and z written once
   * (the minimum traffic, as for the SpMV). */
  *flops = 2 * ne * nt * nt;
  *bytes = 8 * ne * nt * nt + 16 * n;
}

static void destroy(krylov *kr, precond *pc) {
  asm_data *a = pc->data;
  if (!a) return;
  if (a->setup) clReleaseKernel(a->setup);
  if (a->apply) clReleaseKernel(a->apply);
  hdgcl_buffer_release(kr->ctx, &a->ainv);
  free(a);
  pc->data = NULL;
}

int precond_asm_create(krylov *kr, precond *pc) {
  *pc = (precond){.name = "asm", .setup = setup, .apply = apply, .counts = counts,
                  .destroy = destroy, .fixed = true, .symmetric = true};
  asm_data *a;
  HDGCL_TRY(hdgcl_calloc(1, sizeof *a, "additive Schwarz preconditioner", &a));
  pc->data = a;
  cl_program program;
  HDGCL_TRY(krylov_program(kr, "solvers/precond_asm.cl", KRYLOV_HELPERS_ONLY, &program));
  HDGCL_TRY(hdgcl_kernel_create(program, "asm_setup", &a->setup));
  HDGCL_TRY(hdgcl_kernel_create(program, "asm_apply", &a->apply));
  size_t nt = (size_t)kr->sys.patches.nt;
  return hdgcl_buffer_create(kr->ctx, (size_t)kr->sys.patches.num_elements * nt * nt * 8,
                             "additive Schwarz patch inverses", &a->ainv);
}
