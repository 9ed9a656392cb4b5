/* The distributed preconditioned CG and GMRES on the device (krylov_mpi.c, kernels:
 * cl/parallel/krylov_mpi.cl; docs/mpi.md). */
#ifndef HDGCL_HOST_KRYLOV_MPI_H
#define HDGCL_HOST_KRYLOV_MPI_H

#include "discretisation/discretisation.h"
#include "fem/hdg.h"
#include "parallel/partition.h"
#include "solvers/krylov.h"

/* Figures of the exchange in the last solve (rank-local). */
typedef struct mpi_krylov_stats {
  double halo_seconds;   /* packing, messages and adding of the cut faces' shares */
  double reduce_seconds; /* partial sums read back and MPI_Allreduce */
  int64_t halo_bytes;    /* bytes this rank sent in halo messages */
  double hidden_seconds; /* overlapped product: exchange time covered by the interior rows */
  bool overlap;          /* the products overlapped the exchange (HDGCL_MPI_OVERLAP=1) */
  double eig_min, eig_max; /* Chebyshev: the interval (0 otherwise) */
} mpi_krylov_stats;

/* Solves the global trace system by CG, or restarted GMRES where
 * kr->set.solver is SOLVER_GMRES (m = kr->set.restart), with pc_kind
 * (PRECOND_NONE, _JACOBI, _BLOCK_JACOBI, _CHEBYSHEV of kr->set's degree and
 * inner kind, its interval estimated globally, _ASM with element patches)
 * into kr->x, on the part's assembled system (kr->sys) whose
 * cut faces' rows the ranks sum (part, num: the part's numbering): x, r, z,
 * p, A p stay on the device; each product exchanges only the cut faces'
 * blocks.  Iterations, residual and its history go into sol.  With guess,
 * from the initial guess in kr->x (a time step's previous stage, docs/time.md
 * (T5): the correction solved to rtol relative to ||b||).  Collective. */
int mpi_krylov_solve(krylov *kr, const parallel_part *part, const hdg_numbering *num, int pc_kind,
                  int maxit, double rtol, bool guess, hdg_solution *sol, mpi_krylov_stats *stats);

#endif
