/* Small dense linear algebra for the serial reference path (row-major). */
#ifndef HDGCL_HOST_DENSE_H
#define HDGCL_HOST_DENSE_H

/* In-place Cholesky factorisation A = L L^T of the SPD n x n matrix a (lower
 * triangle read and overwritten by L).  Returns 0, or k+1 if the pivot of
 * row k is not positive. */
int dense_cholesky(int n, double *a);

/* Solves L L^T X = B for nrhs columns of b (b is n x nrhs, row-major). */
void dense_cholesky_solve(int n, const double *l, int nrhs, double *b);

/* In-place LU factorisation P A = L U with partial pivoting of the n x n
 * matrix a (L unit lower, U upper, both in a; piv[k] = the row swapped with
 * row k at step k).  Returns 0, or k+1 if column k has no non-zero pivot. */
int dense_lu(int n, double *a, int *piv);

/* Solves A X = B with the factors of dense_lu, for nrhs columns of b (n x nrhs). */
void dense_lu_solve(int n, const double *lu, const int *piv, int nrhs, double *b);

/* c (n x m) = alpha a (n x k) b (k x m) + beta c; at/bt: use the transpose. */
void dense_gemm(int n, int m, int k, double alpha, const double *a, int at, const double *b, int bt,
                double beta, double *c);

#endif
