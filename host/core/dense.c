/* Small dense linear algebra for the serial reference path. */
#include "core/dense.h"

#include <math.h>

int dense_cholesky(int n, double *a) {
  for (int j = 0; j < n; j++) {
    double d = a[j * n + j];
    for (int k = 0; k < j; k++) d -= a[j * n + k] * a[j * n + k];
    if (!(d > 0)) return j + 1;
    double ljj = sqrt(d);
    a[j * n + j] = ljj;
    for (int i = j + 1; i < n; i++) {
      double s = a[i * n + j];
      for (int k = 0; k < j; k++) s -= a[i * n + k] * a[j * n + k];
      a[i * n + j] = s / ljj;
    }
  }
  return 0;
}

void dense_cholesky_solve(int n, const double *l, int nrhs, double *b) {
  for (int c = 0; c < nrhs; c++) {
    for (int i = 0; i < n; i++) { /* L y = b */
      double s = b[i * nrhs + c];
      for (int k = 0; k < i; k++) s -= l[i * n + k] * b[k * nrhs + c];
      b[i * nrhs + c] = s / l[i * n + i];
    }
    for (int i = n - 1; i >= 0; i--) { /* L^T x = y */
      double s = b[i * nrhs + c];
      for (int k = i + 1; k < n; k++) s -= l[k * n + i] * b[k * nrhs + c];
      b[i * nrhs + c] = s / l[i * n + i];
    }
  }
}

int dense_lu(int n, double *a, int *piv) {
  for (int k = 0; k < n; k++) {
    int p = k;
    for (int i = k + 1; i < n; i++)
      if (fabs(a[i * n + k]) > fabs(a[p * n + k])) p = i;
    piv[k] = p;
    if (!(a[p * n + k] != 0)) return k + 1;
    if (p != k)
      for (int j = 0; j < n; j++) {
        double t = a[k * n + j];
        a[k * n + j] = a[p * n + j];
        a[p * n + j] = t;
      }
    for (int i = k + 1; i < n; i++) {
      double l = a[i * n + k] /= a[k * n + k];
      for (int j = k + 1; j < n; j++) a[i * n + j] -= l * a[k * n + j];
    }
  }
  return 0;
}

void dense_lu_solve(int n, const double *lu, const int *piv, int nrhs, double *b) {
  for (int k = 0; k < n; k++) /* the row swaps, in factorisation order */
    if (piv[k] != k)
      for (int c = 0; c < nrhs; c++) {
        double t = b[k * nrhs + c];
        b[k * nrhs + c] = b[piv[k] * nrhs + c];
        b[piv[k] * nrhs + c] = t;
      }
  for (int c = 0; c < nrhs; c++) {
    for (int i = 0; i < n; i++) { /* L y = P b, unit diagonal */
      double s = b[i * nrhs + c];
      for (int k = 0; k < i; k++) s -= lu[i * n + k] * b[k * nrhs + c];
      b[i * nrhs + c] = s;
    }
    for (int i = n - 1; i >= 0; i--) { /* U x = y */
      double s = b[i * nrhs + c];
      for (int k = i + 1; k < n; k++) s -= lu[i * n + k] * b[k * nrhs + c];
      b[i * nrhs + c] = s / lu[i * n + i];
    }
  }
}

void dense_gemm(int n, int m, int k, double alpha, const double *a, int at, const double *b, int bt,
                double beta, double *c) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) {
      double s = 0.0;
      for (int p = 0; p < k; p++) {
        double aip = at ? a[p * n + i] : a[i * k + p];
        double bpj = bt ? b[j * k + p] : b[p * m + j];
        s += aip * bpj;
      }
      c[i * m + j] = alpha * s + (beta != 0.0 ? beta * c[i * m + j] : 0.0);
    }
}
