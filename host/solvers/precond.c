/* Preconditioner dispatch (precond.h): each kind is its own unit. */
#include "solvers/precond.h"

#include "core/error.h"
#include "pipeline/pipeline.h"

int precond_create(hdgcl_solver s, krylov *kr, int kind, precond *pc) {
  *pc = (precond){0};
  switch (kind) {
  case PRECOND_NONE: return precond_none_create(s, kr, pc);
  case PRECOND_JACOBI: return precond_jacobi_create(s, kr, pc);
  case PRECOND_BLOCK_JACOBI: return precond_block_jacobi_create(s, kr, pc);
  case PRECOND_CHEBYSHEV: return precond_chebyshev_create(s, kr, pc);
  case PRECOND_ASM: return precond_asm_create(s, kr, pc);
  case PRECOND_PMG: return precond_pmg_create(s, kr, pc);
  default: return hdgcl_error(HDGCL_ERROR_INTERNAL, "unknown preconditioner %d", kind);
  }
}

void precond_destroy(hdgcl_solver s, precond *pc) {
  if (pc->destroy) pc->destroy(s, pc);
  *pc = (precond){0};
}

uint64_t precond_bytes(hdgcl_solver s, int kind) {
  const hdg_sizes *sz = &s->ref.sz;
  uint64_t rows = (uint64_t)s->num.num_unknown_faces, n = rows * sz->nfb;
  switch (kind) {
  case PRECOND_JACOBI: return n * 8;
  case PRECOND_BLOCK_JACOBI: return n * sz->nfb * 8;
  case PRECOND_CHEBYSHEV:
    return precond_bytes(s, s->cheb_inner) + 3 * n * 8 +
           (s->cheb_mixed ? n * s->ref.sz.nslots * s->ref.sz.nfb * 4 : 0) + /* float matrix */
           (s->nonsymmetric ? 13 * n * 8 : 0); /* Arnoldi basis (precond_chebyshev.c) */
  case PRECOND_ASM: return (uint64_t)s->mesh->num_elements * sz->ntb * sz->ntb * 8;
  case PRECOND_PMG: return precond_pmg_bytes(s);
  default: return 0;
  }
}
