/* Newton's method for a nonlinear problem (docs/nonlinear.md): each step
 * linearises the HDG residual at the state, solves the condensed trace
 * system by the Krylov method (its tolerance the Eisenstat-Walker forcing
 * term, or fixed), recovers the update of u and q and takes the longest step
 * of a backtracking line search that decreases the residual norm. */
#ifndef HDGCL_HOST_NEWTON_H
#define HDGCL_HOST_NEWTON_H

#include <stdbool.h>

#include "hdgcl/solver.h"
#include "solvers/newton_rules.h" /* NEWTON_ATOL, NEWTON_LS_* */

/* The values of the "newton-forcing" option, in the order of NEWTON_FORCING_*. */
extern const char *const newton_forcing_names[];
enum { NEWTON_FORCING_EW, NEWTON_FORCING_FIXED };

/* Solves s's problem by Newton's method from the state (N8) on the reference
 * path (with from_solution: from the u, q and trace in s->sol, a time step's
 * previous stage); s->sol gets the solution, its errors, the Krylov iterations summed over
 * the steps, and s->result the Newton figures (steps, residual history,
 * iterations per step).  Divergence (no convergence in newton-max steps, a
 * residual that is not finite, a line search that finds no decrease) is an
 * HDGCL_ERROR_CONVERGENCE naming it. */
int newton_run(hdgcl_solver s, bool from_solution);

#endif
