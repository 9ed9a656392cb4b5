/* Newton's method on the device (docs/nonlinear.md; kernels:
 * cl/pipeline/local_newton.cl): the element Jacobians and residuals at the
 * state, their condensation (N6) into the pipeline's trace system (the
 * existing assembly, Krylov solvers and preconditioners), the recovery of the
 * update (N7).  Affine simplices (triangles, tetrahedra), built-in problems,
 * no convection, no time-step load. */
#ifndef HDGCL_HOST_LOCAL_NEWTON_H
#define HDGCL_HOST_LOCAL_NEWTON_H

#include "pipeline/pipeline.h"

typedef struct local_newton local_newton;

/* On pl (whose settings must be GMRES): kernels and buffers; refuses what it
 * does not handle, naming it. */
int local_newton_create(device_pipeline *pl, local_newton **out);
void local_newton_destroy(local_newton **ln);

/* Uploads the discretisation's reaction c and element load again (they
 * change between pseudo time steps, docs/nonlinear.md (N17)); the element
 * load must exist (the pipeline compiled with it). */
int local_newton_upload_shift(local_newton *ln);

/* *norm = ||R|| (N4) at the state in pl's solution (uploaded), without the
 * Jacobian (Z of the last linearisation is kept); after a linearisation. */
int local_newton_residual(local_newton *ln, double *norm);

/* Uploads the state in pl's solution (u, q, trace), keeps it as the line
 * search's base, builds and condenses every element's Jacobian and assembles
 * the trace system (N6); *norm = ||R|| (N4). */
int local_newton_linearise(local_newton *ln, double *norm);

/* The Krylov solve of the trace update to rtol; *iterations its iterations. */
int local_newton_solve(local_newton *ln, double rtol, int *iterations);

/* The state = base + alpha (dL, dtrace) (N7) on the device and *norm = ||R||
 * there; u, q and the trace downloaded into pl's solution. */
int local_newton_update(local_newton *ln, double alpha, double *norm);

#endif
