/* Exact solutions and loads of the vector (linear elasticity) problems,
 * docs/elasticity.md (E1) and section 6: the host's calls of cl/fem/problems.h's
 * problem_elasticity_* (shared with the device kernels). */
#ifndef HDGCL_HOST_PROBLEM_ELASTICITY_H
#define HDGCL_HOST_PROBLEM_ELASTICITY_H

#include "cl/fem/problems.h"

/* Exact displacement u[d], its gradient grad[d][d] (grad[i*d+j] = d_j u_i)
 * and pressure p = -(mu + lambda) div u at x (d = pp->dim; x[2] ignored in 2D). */
void elasticity_exact(const problem_params *pp, const double *x, double *u, double *grad,
                      double *p);

/* Body force f[d] = -div(mu grad u + (mu + lambda) div u I) = -mu lap u - (mu + lambda) grad div u. */
void elasticity_load(const problem_params *pp, const double *x, double *f);

/* Traction g[d] = sigma n of the exact solution on a face with unit outer
 * normal n, sigma = mu (H + H^T) + lambda tr(H) I the physical (Cauchy)
 * stress (docs/elasticity.md (E12)); zero for the cantilever (traction-free). */
void elasticity_traction(const problem_params *pp, const double *x, const double *n, double *g);

/* True if the problem has an exact solution to measure errors against (not the cantilever). */
static inline int elasticity_has_exact(const problem_params *pp) {
  return pp->id != PROBLEM_CANTILEVER && pp->id != PROBLEM_NEO_HOOKEAN_CUBE;
}

#endif
