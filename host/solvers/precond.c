/* Preconditioner dispatch (precond.h): each kind is its own unit. */
#include "solvers/precond.h"

#include "core/error.h"

int precond_create(krylov *kr, int kind, precond *pc) {
  *pc = (precond){0};
  switch (kind) {
  case PRECOND_NONE: return precond_none_create(kr, pc);
  case PRECOND_JACOBI: return precond_jacobi_create(kr, pc);
  case PRECOND_BLOCK_JACOBI: return precond_block_jacobi_create(kr, pc);
  case PRECOND_CHEBYSHEV: return precond_chebyshev_create(kr, pc);
  case PRECOND_ASM: return precond_asm_create(kr, pc);
  case PRECOND_PMG: return precond_pmg_create(kr, pc);
  default: return hdgcl_error(HDGCL_ERROR_INTERNAL, "unknown preconditioner %d", kind);
  }
}

const char *precond_program_file(int kind) {
  switch (kind) {
  case PRECOND_JACOBI: return "solvers/precond_jacobi.cl";
  case PRECOND_BLOCK_JACOBI: return "solvers/precond_block_jacobi.cl";
  case PRECOND_CHEBYSHEV: return "solvers/precond_chebyshev.cl";
  case PRECOND_ASM: return "solvers/precond_asm.cl";
  default: return NULL;
  }
}

void precond_destroy(krylov *kr, precond *pc) {
  if (pc->destroy) pc->destroy(kr, pc);
  *pc = (precond){0};
}

uint64_t precond_bytes(const linear_system *sys, const solver_settings *set, int kind) {
  uint64_t rows = (uint64_t)sys->rows, n = rows * sys->nf;
  switch (kind) {
  case PRECOND_JACOBI: return n * 8;
  case PRECOND_BLOCK_JACOBI: return n * sys->nf * 8;
  case PRECOND_CHEBYSHEV:
    return precond_bytes(sys, set, set->cheb_inner) + 3 * n * 8 +
           (set->cheb_mixed ? n * sys->nslots * sys->nf * 4 : 0) + /* float matrix */
           (set->nonsymmetric ? 13 * n * 8 : 0); /* Arnoldi basis (precond_chebyshev.c) */
  case PRECOND_ASM:
    return (uint64_t)sys->patches.num_elements * sys->patches.nt * sys->patches.nt * 8;
  case PRECOND_PMG: return precond_pmg_bytes(sys, set);
  default: return 0;
  }
}
