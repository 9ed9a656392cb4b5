/* Orthonormal polynomial bases on the reference shapes:
 *   integral over the reference shape of phi_i phi_j = delta_ij.
 *   segment       Legendre, degree <= p,                      N = p+1
 *   triangle      Dubiner/Koornwinder, total degree <= p,     N = (p+1)(p+2)/2
 *   tetrahedron   Dubiner/Koornwinder, total degree <= p,     N = (p+1)(p+2)(p+3)/6
 *   quadrilateral tensor Legendre Q_p,                        N = (p+1)^2
 *   hexahedron    tensor Legendre Q_p,                        N = (p+1)^3
 * Simplex bases are ordered by total degree (all functions of degree 0, then
 * degree 1, ...), so the first N(p-1) functions span P_{p-1} (hierarchical);
 * phi_0 is the constant 1/sqrt(measure).  Tensor bases are ordered with the
 * first coordinate fastest: index = i + (p+1) j (+ (p+1)^2 k).
 * Evaluated with three-term recurrences written in the Cartesian reference
 * coordinates (no division by (1-s) at the collapsed vertex), so values and
 * gradients are finite and accurate everywhere on the closed shape. */
#ifndef HDGCL_HOST_BASIS_H
#define HDGCL_HOST_BASIS_H

#include "shape.h"

int hdgcl_basis_size(hdgcl_shape shape, int p);

/* For npts points (pts[npts][dim]) fills values[npts][N] (may be NULL) and
 * grads[npts][N][dim] (may be NULL), N = hdgcl_basis_size(shape, p). */
int hdgcl_basis_eval(hdgcl_shape shape, int p, int npts, const double *pts, double *values,
                     double *grads);

/* Total degree of basis function i (simplices) or max degree (tensor). */
int hdgcl_basis_degree(hdgcl_shape shape, int p, int i);

#endif
