/* Small dense linear algebra for the serial reference path (row-major). */
#ifndef HDGCL_HOST_DENSE_H
#define HDGCL_HOST_DENSE_H

/* In-place Cholesky factorisation A = L L^T of the SPD n x n matrix a (lower
 * triangle read and overwritten by L).  Returns 0, or k+1 if the pivot of
 * row k is not positive. */
int dense_cholesky(int n, double *a);

/* Solves L L^T X = B for nrhs columns of b (b is n x nrhs, row-major). */
void dense_cholesky_solve(int n, const double *l, int nrhs, double *b);

/* c (n x m) = alpha a (n x k) b (k x m) + beta c; at/bt: use the transpose. */
void dense_gemm(int n, int m, int k, double alpha, const double *a, int at, const double *b, int bt,
                double beta, double *c);

#endif
