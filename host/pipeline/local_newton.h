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

/* *norm = ||R|| (N4) at the state, without the Jacobian (Z of the last
 * linearisation is kept); after a linearisation. */
int local_newton_residual(local_newton *ln, double *norm);

/* The state lives on the device from the first linearisation on (u, q and
 * the trace uploaded from pl's solution then) until local_newton_download.
 * Keeps the state as the line search's base, builds and condenses every
 * element's Jacobian and assembles the trace system (N6); *norm = ||R|| (N4). */
int local_newton_linearise(local_newton *ln, double *norm);

/* The Krylov solve of the trace update to rtol; *iterations its iterations. */
int local_newton_solve(local_newton *ln, double rtol, int *iterations);

/* The state = base + alpha (dL, dtrace) (N7) on the device and *norm = ||R||
 * there; nothing crosses to the host but the norm. */
int local_newton_update(local_newton *ln, double alpha, double *norm);

/* The device's state (u, q, trace) into pl's solution, for the host's
 * recovery (u*, errors) or a pseudo-time shift; the next linearisation
 * uploads the solution's state again. */
int local_newton_download(local_newton *ln);

#endif
