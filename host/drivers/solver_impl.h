/* The solver object of the steady linear solve (the driver, solver.c): the
 * user's options, the discretisation (disc), the host copies of the solution
 * (sol), the result, and the trace operator (op: the device pipeline or the
 * reference path).  Both read disc and write sol; the pipeline also writes
 * the device's figures into result. */
#ifndef HDGCL_HOST_SOLVER_IMPL_H
#define HDGCL_HOST_SOLVER_IMPL_H

#include <stdbool.h>

#include "core/context.h"
#include "discretisation/discretisation.h"
#include "fem/hdg.h"
#include "hdgcl/solver.h"
#include "discretisation/trace_operator.h"
#include "pipeline/pipeline.h"
#include "problem/problem.h"
#include "solvers/linear_system.h"   /* FORMAT_* */
#include "solvers/solver_settings.h" /* SOLVER_*, PRECOND_* */

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
  bool pmg_coarse_amg;  /* p-multigrid: --pmg-coarse-solve amg|amg-host (BoomerAMG) or chebyshev */
  bool pmg_amg_host;    /* --pmg-coarse-solve amg-host: hypre runs the V-cycle on the host */
  bool cheb_mixed;      /* Chebyshev: products with a single-precision copy of the matrix */
  int64_t chunk_option; /* 0 = automatic */
  int keep_local;       /* -1 automatic, 0 recompute, 1 keep */
  int scratch;          /* SCRATCH_AUTO / _LOCAL / _GLOBAL: where per-element factorisations work */
  hdgcl_output *outputs; /* [user->num_outputs], result.outputs */
  /* A transient problem (drivers/time_stepping.h): the scheme's index in
   * time_scheme_names, the time step asked and the final time. */
  int scheme;
  double time_step, final_time;
  hdgcl_step_fn on_step; /* hdgcl_solver_set_step_callback */
  void *on_step_data;

  /* Newton's method (drivers/newton.h, docs/nonlinear.md): on for a nonlinear
   * problem or --newton true; its tolerance, most steps, forcing
   * (NEWTON_FORCING_*), and the history the result points to
   * ([newton_max + 1] residuals, [newton_max] iterations). */
  bool newton;
  double newton_rtol;
  int newton_max, newton_forcing;
  /* Pseudo-transient continuation (--ptc, docs/nonlinear.md section 10): on,
   * the first pseudo time step and the cap of its growth (N18). */
  bool ptc;
  double ptc_dt0, ptc_dt_max;
  /* --newton-start exact: Newton's first u the L2 projection of the exact
   * solution (q = 0, the trace (N8)) in place of 0. */
  bool newton_start_exact;
  /* neo-hookean* (docs/nonlinear.md section 11): --load-steps, --load-scale,
   * and the result's Newton steps and residual history per load step. */
  int load_steps;
  double load_scale;
  bool line_search; /* --line-search (default true): the line search (N11), (N27) */
  int *load_newton_steps;
  double *load_history;
  double *newton_history;
  int *newton_iterations;

  hdg_solution sol; /* host copies of the trace system and the solution, both paths */
  bool solved;
  double krylov_started; /* wall time of the Krylov solve's first residual (the progress line) */
  hdgcl_result result;
  trace_operator op;    /* the device pipeline or the reference path */
  /* A distributed solve (host/parallel, docs/mpi.md): the steady linear
   * solve's steps done by solve_steps(s, solve_steps_data) in place of
   * solver.c's, its data freed by solve_steps_free at the solver's end;
   * NULL: the serial solve. */
  int (*solve_steps)(hdgcl_solver s, void *data);
  void *solve_steps_data;
  /* A distributed solve's assembly and trace solve of one time-step stage
   * (drivers/time_stepping.c), in place of trace_operator_assemble and
   * trace_operator_solve; NULL: those. */
  int (*stage_steps)(hdgcl_solver s, void *data);
  /* A distributed solve's reduction of the user's outputs over the ranks
   * (each computed on the rank's part first, host/drivers/outputs.c); NULL:
   * none. */
  int (*reduce_outputs)(hdgcl_solver s, void *data);
  void (*solve_steps_free)(void *data);
  device_pipeline *dev; /* op's pipeline where it is one (bench), else NULL */
};

/* The solver's options that the trace solve reads (host/solvers). */
solver_settings solver_krylov_settings(const struct hdgcl_solver_s *s);

/* s->sol's figures (errors, iterations, stage seconds, history) into s->result. */
void solver_figures_to_result(hdgcl_solver s);
/* The reverse, before a solve adds to s->sol's figures. */
void solver_figures_to_solution(hdgcl_solver s);

/* The user's outputs from the host copies of the solution (host/drivers/outputs.c). */
int solver_outputs(hdgcl_solver s);

#endif
