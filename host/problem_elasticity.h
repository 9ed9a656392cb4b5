/* Exact solutions and loads of the vector (linear elasticity) problems,
 * docs/elasticity.md (E1) and section 6.  Host only: the device pipeline is
 * scalar, so these are not part of cl/problems.h. */
#ifndef HDGCL_HOST_PROBLEM_ELASTICITY_H
#define HDGCL_HOST_PROBLEM_ELASTICITY_H

#include "problems.h"

/* Exact displacement u[d], its gradient grad[d][d] (grad[i*d+j] = d_j u_i)
 * and pressure p = -(mu + lambda) div u at x (d = pp->dim; x[2] ignored in 2D). */
void elasticity_exact(const problem_params *pp, const double *x, double *u, double *grad,
                      double *p);

/* Body force f[d] = -div(mu grad u + (mu + lambda) div u I) = -mu lap u - (mu + lambda) grad div u. */
void elasticity_load(const problem_params *pp, const double *x, double *f);

#endif
