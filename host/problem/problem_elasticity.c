/* The vector problems of host/problem/problem.c (docs/elasticity.md section 6): the
 * functions are cl/fem/problems.h's problem_elasticity_*, which the device
 * kernels evaluate too; these are the host's entry points. */
#include "problem/problem_elasticity.h"

void elasticity_exact(const problem_params *pp, const double *x, double *u, double *grad,
                      double *p) {
  problem_elasticity_u(*pp, x, u, grad, p);
}

void elasticity_load(const problem_params *pp, const double *x, double *f) {
  problem_elasticity_f(*pp, x, f);
}

void elasticity_traction(const problem_params *pp, const double *x, const double *n, double *g) {
  problem_elasticity_traction(*pp, 0, x, n, g);
}
