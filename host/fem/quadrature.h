/* Gauss(-Jacobi) quadrature on the reference shapes (see shape.h). */
#ifndef HDGCL_HOST_QUADRATURE_H
#define HDGCL_HOST_QUADRATURE_H

#include "fem/shape.h"

/* n-point Gauss-Jacobi rule on [-1,1] for the weight (1-x)^alpha (1+x)^beta
 * (alpha, beta > -1): exact for polynomials of degree 2n-1.  Nodes ascending,
 * computed by Golub-Welsch (symmetric tridiagonal eigenproblem) and refined
 * by Newton steps on the Jacobi polynomial. */
int hdgcl_gauss_jacobi(int n, double alpha, double beta, double *x, double *w);

typedef struct hdgcl_quadrature {
  hdgcl_shape shape;
  int dim;
  int degree;       /* exact for polynomials of total degree <= degree (per-variable for quad/hex) */
  int n;            /* number of points */
  double *points;   /* [n][dim], reference coordinates */
  double *weights;  /* [n], sum = measure of the reference shape */
} hdgcl_quadrature;

/* Simplices: collapsed-coordinate (Duffy) products of Gauss-Jacobi rules
 * (weights (1-b)^1 on triangles, (1-b)^1 and (1-c)^2 on tetrahedra); quads
 * and hexes: tensor Gauss-Legendre.  All points strictly inside the shape.
 * ceil((degree+1)/2) points per direction (the Jacobi weights absorb the
 * collapse Jacobian, so simplices need no extra point), first direction
 * fastest.  0 <= degree <= 100.  On failure *q is left zeroed. */
int hdgcl_quadrature_create(hdgcl_shape shape, int degree, hdgcl_quadrature *q);
void hdgcl_quadrature_destroy(hdgcl_quadrature *q);

#endif
