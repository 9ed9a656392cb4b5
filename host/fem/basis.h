/* Orthonormal polynomial bases on the reference shapes:
 *   integral over the reference shape of phi_i phi_j = delta_ij.
 *   segment       Legendre, degree <= p,                      N = p+1
 *   triangle      Dubiner/Koornwinder, total degree <= p,     N = (p+1)(p+2)/2
 *   tetrahedron   Dubiner/Koornwinder, total degree <= p,     N = (p+1)(p+2)(p+3)/6
 *   quadrilateral tensor Legendre Q_p,                        N = (p+1)^2
 *   hexahedron    tensor Legendre Q_p,                        N = (p+1)^3
 * Simplex bases are ordered by total degree (all functions of degree 0, then
 * degree 1, ...), so the first N(p-1) functions span P_{p-1} (hierarchical);
 * phi_0 is the constant 1/sqrt(measure).  With the collapsed coordinates
 *   triangle     a = 2(1+x)/(1-y) - 1, b = y
 *   tetrahedron  a = -2(1+x)/(y+z) - 1, b = 2(1+y)/(1-z) - 1, c = z
 * the functions are
 *   phi_ij  = sqrt((2i+1)(i+j+1)/2) P_i(a) ((1-b)/2)^i P_j^(2i+1,0)(b)
 *   phi_ijk = sqrt((2i+1)(2i+2j+2)(2i+2j+2k+3)/8) P_i(a) ((1-b)/2)^i
 *             P_j^(2i+1,0)(b) ((1-c)/2)^(i+j) P_k^(2i+2j+2,0)(c)
 * and within total degree n they come in the order
 *   triangle     j = 0..n (i = n-j)
 *   tetrahedron  k = 0..n, then j = 0..n-k (i = n-j-k).
 * Tensor bases are ordered with the first coordinate fastest:
 * index = i + (p+1) j (+ (p+1)^2 k), phi = L_i(x) L_j(y) (L_k(z)) with
 * L_i = sqrt(i+1/2) P_i; they are not hierarchical in this order.
 * Evaluated with three-term recurrences written in the Cartesian reference
 * coordinates (no division by (1-s) at the collapsed vertex), so values and
 * gradients are finite and accurate everywhere on the closed shape. */
#ifndef HDGCL_HOST_BASIS_H
#define HDGCL_HOST_BASIS_H

#include "fem/shape.h"

/* Number of basis functions N (supported degrees 0 <= p <= 100); 0 for an
 * invalid shape or degree. */
int hdgcl_basis_size(hdgcl_shape shape, int p);

/* For npts points (pts[npts][dim]) fills values[npts][N] (may be NULL) and
 * grads[npts][N][dim] (may be NULL), N = hdgcl_basis_size(shape, p). */
int hdgcl_basis_eval(hdgcl_shape shape, int p, int npts, const double *pts, double *values,
                     double *grads);

/* Total degree of basis function i (simplices) or max degree (tensor); -1
 * for an invalid shape, degree or index. */
int hdgcl_basis_degree(hdgcl_shape shape, int p, int i);

#endif
