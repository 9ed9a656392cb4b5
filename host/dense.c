/* Small dense linear algebra for the serial reference path. */
#include "dense.h"

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
