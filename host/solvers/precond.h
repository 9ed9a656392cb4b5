/* One interface for the preconditioners of the trace solve.  Each is a unit
 * precond_<name>.c (beside cl/precond_<name>.cl where it has kernels) that
 * fills a `precond` with its methods; precond.c picks one by kind
 * (PRECOND_*).  Every method gets the solve stage it serves (krylov.h): its
 * context, system, settings and counters.
 *
 *   create   kernels and buffers (before assembly; sizes only)
 *   setup    from the assembled matrix (once per solve; may read back a few
 *            numbers, e.g. the Chebyshev eigenvalue estimate)
 *   apply    z = M r, only enqueued: no host synchronisation, so CG keeps
 *            its "no host round trip per iteration" property
 *   apply_dot2  (optional) z = M r and, in the same kernel, the first-pass
 *            partial sums of (r, z) and (r, r) in kr->vec.partial exactly as
 *            vec_dot2(r; z, r) leaves them (CG's fused iteration)
 *   counts   flops and bytes of one apply, counted from the algorithm
 *   destroy  releases what create made (safe on a partly created one)
 *
 * `fixed`: apply is the same linear operator at every call (GMRES may then
 * use the plain right-preconditioned form; otherwise FGMRES).  `symmetric`:
 * M is symmetric positive definite, as CG requires. */
#ifndef HDGCL_HOST_PRECOND_H
#define HDGCL_HOST_PRECOND_H

#include "fem/shape.h"
#include "solvers/krylov.h"

struct precond {
  const char *name;
  int (*setup)(krylov *kr, precond *pc);
  int (*apply)(krylov *kr, precond *pc, const hdgcl_buffer *r, hdgcl_buffer *z);
  int (*apply_dot2)(krylov *kr, precond *pc, const hdgcl_buffer *r, hdgcl_buffer *z);
  void (*counts)(const krylov *kr, const precond *pc, double *flops, double *bytes);
  void (*destroy)(krylov *kr, precond *pc);
  bool fixed, symmetric;
  void *data; /* the unit's own state */
};

/* Creates the preconditioner `kind` (PRECOND_*) into *pc. */
int precond_create(krylov *kr, int kind, precond *pc);
/* The kernel file of the program precond_create of `kind` builds itself
 * (krylov_program; NULL: none, or several as p-multigrid's levels), for
 * krylov_prefetch. */
const char *precond_program_file(int kind);
/* Calls destroy (if any) and zeroes *pc. */
void precond_destroy(krylov *kr, precond *pc);
/* Device bytes the preconditioner `kind` needs. */
uint64_t precond_bytes(const linear_system *sys, const solver_settings *set, int kind);

int precond_none_create(krylov *kr, precond *pc);
int precond_jacobi_create(krylov *kr, precond *pc);
int precond_block_jacobi_create(krylov *kr, precond *pc);
int precond_chebyshev_create(krylov *kr, precond *pc);
/* The Chebyshev preconditioner's interval of M^-1 A (precond_chebyshev.c,
 * its setup's rule) from the first k >= 1 CG coefficients of an
 * M-preconditioned CG: lmax = 1.1 x the largest Ritz value, lmin = max(the
 * smallest, lmax / 30).  Also the distributed solve's (host/parallel). */
int precond_chebyshev_interval(int k, const double *alpha, const double *beta, double *lmin,
                               double *lmax);
int precond_asm_create(krylov *kr, precond *pc);
int precond_pmg_create(krylov *kr, precond *pc);
/* Chebyshev of `degree` inner applications of `inner` (PRECOND_JACOBI or
 * PRECOND_BLOCK_JACOBI): the p-multigrid smoother; degree 0: an approximate
 * solver, degree chosen at setup from the estimated spectrum (the device
 * coarse solver of p-multigrid). */
int precond_chebyshev_create_degree(krylov *kr, int degree, int inner, precond *pc);
/* p-multigrid transfer (precond_pmg.c): map[k] = the mode of the degree-pf
 * face basis (shape) equal to mode k of the degree-pc one, k < nfc. */
int precond_pmg_mode_map(hdgcl_shape shape, int pf, int pc, int32_t *map, int nfc);
/* The same for a face block of ncomp components (component-major, c Nf + m):
 * map[c nfc + k] = c nff + (scalar map)[k], ncomp * nfc entries. */
int precond_pmg_block_map(hdgcl_shape shape, int pf, int pc, int ncomp, int32_t *map);
/* Device bytes of the p-multigrid preconditioner (precond_pmg.c). */
uint64_t precond_pmg_bytes(const linear_system *sys, const solver_settings *set);
/* The inverted face blocks ([rows][nf][nf], row-major) of a face block-Jacobi
 * preconditioner made by precond_block_jacobi_create, valid after its setup;
 * NULL for any other preconditioner. */
const hdgcl_buffer *precond_block_jacobi_inverses(const precond *pc);
/* Face blocks per work-group of block-Jacobi's local-memory setup (BJ_FACES). */
int precond_block_jacobi_faces(hdgcl_context ctx, int nf);

#endif
