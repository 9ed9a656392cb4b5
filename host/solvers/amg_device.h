/* A BoomerAMG hierarchy run on the device (amg_device.c + cl/solvers/amg_device.cl):
 * hypre builds the levels on the host once per setup (coarsening,
 * interpolation, Galerkin products); the matrices go to the device in CSR and
 * every V-cycle runs there, so p-multigrid's coarsest solve needs no host
 * round trip (issue 31, goal 2).  Only in builds with hypre. */
#ifndef HDGCL_HOST_AMG_DEVICE_H
#define HDGCL_HOST_AMG_DEVICE_H

#include "solvers/krylov.h"

typedef struct amg_device amg_device;

/* Sets the BoomerAMG solver `boomeramg` (a HYPRE_Solver, before its setup) to
 * the cycle the device runs: l1-Jacobi relaxation (relax type 18), one sweep
 * down and up, all points at once, Gaussian elimination on a coarsest level
 * of at most AMG_DEVICE_COARSE_MAX unknowns.  hypre's own BoomerAMGSolve on
 * the same setup then computes the device's cycle (amg_device_verify). */
int amg_device_configure(void *boomeramg);
/* Uploads the hierarchy of the set-up solver `boomeramg` (matrices of kr's
 * system at level 0) with kernels from kr->program. */
int amg_device_create(krylov *kr, void *boomeramg, amg_device **out);
/* x = V b: one V-cycle from zero (enqueued only). */
int amg_device_apply(krylov *kr, amg_device *a, const hdgcl_buffer *b, hdgcl_buffer *x);
/* Flops and bytes of one cycle. */
void amg_device_counts(const amg_device *a, double *flops, double *bytes);
/* Levels and the coarsest level's unknowns. */
void amg_device_shape(const amg_device *a, int *levels, int *coarsest);
/* "n/nnz" of each level's matrix, space-separated, into out. */
void amg_device_describe(const amg_device *a, char *out, size_t size);
void amg_device_destroy(krylov *kr, amg_device *a);

#endif
