/* The solver object: options, the discretisation (disc), the host copies of
 * the solution (sol), the result and the device pipeline, shared by the
 * driver (solver.c) and the device pipeline (local.c, assemble.c, recover.c,
 * levels.c).  The reference path reads only disc and writes sol. */
#ifndef HDGCL_HOST_SOLVER_IMPL_H
#define HDGCL_HOST_SOLVER_IMPL_H

#include <stdbool.h>

#include "core/context.h"
#include "discretisation/discretisation.h"
#include "fem/hdg.h"
#include "hdgcl/solver.h"
#include "problem/problem.h"
#include "solvers/linear_system.h"   /* FORMAT_* */
#include "solvers/solver_settings.h" /* SOLVER_*, PRECOND_* */

enum { SCRATCH_AUTO = 0, SCRATCH_LOCAL = 1, SCRATCH_GLOBAL = 2 };

/* True if a per-element work array of `bytes` must go to global memory. */
bool solver_scratch_global(hdgcl_solver s, size_t bytes);

typedef struct device_pipeline device_pipeline; /* pipeline.c */

struct hdgcl_solver_s {
  hdgcl_context ctx;
  hdg_discretisation disc; /* mesh, problem, reference tables, numbering, coefficients */
  double rtol;
  int maxit;
  int precond, format;  /* PRECOND_*, FORMAT_* */
  int solver;           /* SOLVER_CG / SOLVER_GMRES */
  int restart;          /* GMRES(m): m */
  bool flexible;        /* FGMRES even for a fixed preconditioner */
  int cheb_degree;      /* Chebyshev: inner preconditioner applications per apply */
  int cheb_inner;       /* Chebyshev: PRECOND_JACOBI or PRECOND_BLOCK_JACOBI */
  int pmg_smooth;       /* p-multigrid: Chebyshev smoothing steps before and after the correction */
  int pmg_coarse;       /* p-multigrid: coarsest degree, 0 or 1 */
  bool cheb_mixed;      /* Chebyshev: products with a single-precision copy of the matrix */
  int64_t chunk_option; /* 0 = automatic */
  int keep_local;       /* -1 automatic, 0 recompute, 1 keep */
  int scratch;          /* SCRATCH_AUTO / _LOCAL / _GLOBAL: where per-element factorisations work */
  hdgcl_output *outputs; /* [user->num_outputs], result.outputs */

  hdg_solution sol; /* host copies of the trace system and the solution, both paths */
  bool solved;
  double krylov_started; /* wall time of the Krylov solve's first residual (the progress line) */
  hdgcl_result result;
  device_pipeline *dev;
};

/* docs/elasticity.md (E17): mu0, the smallest mu of the mesh (elements with
 * mu > mu0 carry (mu - mu0) (H^T - tr(H) I) in their stress), and whether
 * some element has mu > mu0 (then the terms of (E17) are built). */
static inline double solver_mu0(const struct hdgcl_solver_s *s) {
  return discretisation_mu0(&s->disc);
}
static inline bool solver_mu_varies(const struct hdgcl_solver_s *s) {
  return discretisation_mu_varies(&s->disc);
}

/* The device pipeline (pipeline.c drives local.c, assemble.c, solve.c, recover.c). */
int pipeline_create(hdgcl_solver s);
int pipeline_solve(hdgcl_solver s);
void pipeline_destroy(hdgcl_solver s);
/* Copies the device's trace matrix and right-hand side into s->sol.matrix, s->sol.rhs. */
int pipeline_download_matrix(hdgcl_solver s);
/* Upload, local stage and assembly only (a p-multigrid level): the assembled
 * trace system stays on the device, in s->dev->assemble, where its solve
 * stage s->dev->krylov reads it. */
int pipeline_assemble_only(hdgcl_solver s);

/* An internal solver on the same mesh, problem, coefficients and options at
 * degree `order` with preconditioner `precond_kind` (and Chebyshev degree
 * cheb_degree where that is Chebyshev) and local-stage batches of at most
 * `chunk` elements: a p-multigrid level (precond_pmg.c).  Its Krylov method
 * is CG, or GMRES(gmres_restart) when gmres_restart > 0 (the nonsymmetric
 * coarsest level without hypre).
 * Its trace unknowns are numbered as the fine solver's. */
int solver_create_level(hdgcl_solver fine, int order, int precond_kind, int cheb_degree,
                        int gmres_restart, int64_t chunk, hdgcl_solver *level);

/* Appends a relative residual to the history. */
int solver_record_residual(hdgcl_solver s, double relres);
/* The solver's options that the trace solve reads (host/solvers). */
solver_settings solver_krylov_settings(const struct hdgcl_solver_s *s);

/* The vector problems after the device's recovery: the cantilever's result
 * fields (elasticity_finish of the reference path, on s->sol and s->result). */
int solver_elasticity_finish(hdgcl_solver s);

/* The user's outputs from the host copies of the solution (host/drivers/outputs.c). */
int solver_outputs(hdgcl_solver s);

#endif
