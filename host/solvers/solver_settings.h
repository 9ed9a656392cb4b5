/* The options of a trace solve: Krylov method, tolerances, preconditioner
 * (filled by the driver from the user's options, host/drivers/solver.c). */
#ifndef HDGCL_HOST_SOLVER_SETTINGS_H
#define HDGCL_HOST_SOLVER_SETTINGS_H

#include <stdbool.h>

/* In the order of the names in host/drivers/solver.c. */
enum { SOLVER_CG = 0, SOLVER_GMRES = 1 };
enum { PRECOND_NONE = 0, PRECOND_JACOBI, PRECOND_BLOCK_JACOBI, PRECOND_CHEBYSHEV, PRECOND_ASM,
       PRECOND_PMG };

typedef struct solver_settings {
  int solver; /* SOLVER_* */
  double rtol;
  int maxit;
  int restart;        /* GMRES(m): m */
  bool flexible;      /* FGMRES even for a fixed preconditioner */
  int precond;        /* PRECOND_* */
  int cheb_degree;    /* Chebyshev: inner preconditioner applications per apply */
  int cheb_inner;     /* Chebyshev: PRECOND_JACOBI or PRECOND_BLOCK_JACOBI */
  bool cheb_mixed;    /* Chebyshev: products with a single-precision copy of the matrix */
  int pmg_smooth;     /* p-multigrid: smoothing steps before and after the correction */
  int pmg_coarse;     /* p-multigrid: coarsest degree, 0 or 1 */
  bool pmg_coarse_amg; /* p-multigrid: coarsest level by BoomerAMG (hypre builds), else Chebyshev */
  bool pmg_amg_host;   /* ... its V-cycle by hypre on the host (else on the device, amg_device.h) */
  bool global_scratch; /* --scratch global: block-Jacobi's setup in global memory */
  bool nonsymmetric;  /* the trace system is not symmetric */
} solver_settings;

#endif
