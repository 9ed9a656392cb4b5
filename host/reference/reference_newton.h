/* Reference path, Newton's method for a nonlinear problem (docs/nonlinear.md):
 * the HDG residual at a state (u, q per element, the trace), its element
 * Jacobians, their static condensation (N5)-(N6) assembled into the trace
 * system, and the recovery of the update (N7).  The Newton loop itself is a
 * driver (host/drivers/newton.c). */
#ifndef HDGCL_HOST_REFERENCE_NEWTON_H
#define HDGCL_HOST_REFERENCE_NEWTON_H

#include "discretisation/discretisation.h"

/* The state is the solution's u, q and trace (sol->u, sol->q, sol->trace);
 * reference_newton_linearise keeps a copy of it (the base of the line
 * search) and each element's Z = J_LL^-1 [J_LT | R_L] (N6). */
typedef struct reference_newton {
  const hdg_discretisation *disc;
  hdg_solution *sol;
  double *u0, *q0, *trace0; /* the state at the last linearisation */
  double *z;                /* [num_elements][nl][nt + 1], nl = (dim + 1) np */
  double *rt;               /* [num_unknown_faces][nf]: the global trace residual (N4) */
  double *bvals;            /* boundary data [num_faces - num_interior][nf] */
} reference_newton;

/* Refuses what Newton's method does not handle yet (vector problems, Robin
 * faces, a tensor kappa), naming it. */
int reference_newton_create(const hdg_discretisation *disc, hdg_solution *sol,
                            reference_newton **out);
void reference_newton_destroy(reference_newton **rn);

/* The first state (N8): u = q = 0, the trace the projected Dirichlet data on
 * Dirichlet faces and 0 elsewhere; with `from_solution`, u, q and the trace of
 * the unknown faces as sol holds them (a time step's previous stage) and the
 * Dirichlet faces' data (at the discretisation's time). */
int reference_newton_initial_state(reference_newton *rn, bool from_solution);

/* At the state in sol: the condensed Newton system (N6) into sol->matrix
 * and sol->rhs, and *norm = ||R|| (N4). */
int reference_newton_linearise(reference_newton *rn, double *norm);

/* *norm = ||R|| (N4) at the state in sol, without the Jacobian (the
 * condensed system and Z of the last linearisation are kept). */
int reference_newton_residual(reference_newton *rn, double *norm);

/* The state = base + alpha (dL, dtrace) (N7), dtrace the solved trace update
 * [num_unknown_faces][nf] (0 on Dirichlet faces), and *norm = ||R|| there. */
int reference_newton_update(reference_newton *rn, const double *dtrace, double alpha,
                            double *norm);

/* u* (N9) and the error norms of the state, into sol. */
int reference_newton_recover(reference_newton *rn);

#endif
