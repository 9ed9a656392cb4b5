/* Time stepping of a transient problem u_t + N(u) = f(t), N the steady HDG
 * operator (docs/time.md): singly diagonally implicit Runge-Kutta schemes
 * (backward Euler, DIRK(2,2), DIRK(3,3)) and BDF2, each stage one solve of
 * the trace operator with a shifted reaction and an element load. */
#ifndef HDGCL_HOST_TIME_STEPPING_H
#define HDGCL_HOST_TIME_STEPPING_H

#include "hdgcl/solver.h"

/* The schemes' names in the order of their indices (NULL-terminated): the
 * values of the "scheme" option. */
extern const char *const time_scheme_names[];

/* The observed order of convergence in time of scheme i (1, 2, 3, 2). */
int time_scheme_order(int scheme);

/* Integrates s's transient problem from t = 0 (the L2 projection of its
 * exact u) to the solver's final time in steps of (at most) its time step:
 * every stage assembles, solves and recovers with s's trace operator, and
 * the solution of the last stage is u at the final time, with its errors.
 * s->sol gets the iterations summed over the stage solves, the largest final
 * residual and the stage seconds summed; s->result the scheme's figures. */
int time_stepping_run(hdgcl_solver s);

#endif
