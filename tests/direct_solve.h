/* The dense direct solve the Krylov tests compare with (test_krylov.c,
 * test_pmg.c): LU with partial pivoting on the host of the assembled trace
 * matrix read back, and the difference of a solver's trace from it. */
#ifndef HDGCL_TESTS_DIRECT_SOLVE_H
#define HDGCL_TESTS_DIRECT_SOLVE_H

#include "hdg_test.h"
#include "drivers/solver_impl.h"

/* Solves the dense n x n system a x = b in place (a row-major, destroyed). */
static inline int dense_lu_solve(int n, double *a, double *b) {
  for (int k = 0; k < n; k++) {
    int piv = k;
    for (int i = k + 1; i < n; i++)
      if (fabs(a[(size_t)i * n + k]) > fabs(a[(size_t)piv * n + k])) piv = i;
    if (a[(size_t)piv * n + k] == 0.0) return 1;
    if (piv != k) {
      for (int j = 0; j < n; j++) {
        double t = a[(size_t)k * n + j];
        a[(size_t)k * n + j] = a[(size_t)piv * n + j];
        a[(size_t)piv * n + j] = t;
      }
      double t = b[k];
      b[k] = b[piv];
      b[piv] = t;
    }
    for (int i = k + 1; i < n; i++) {
      double f = a[(size_t)i * n + k] / a[(size_t)k * n + k];
      if (f == 0.0) continue;
      for (int j = k; j < n; j++) a[(size_t)i * n + j] -= f * a[(size_t)k * n + j];
      b[i] -= f * b[k];
    }
  }
  for (int i = n - 1; i >= 0; i--) {
    double t = b[i];
    for (int j = i + 1; j < n; j++) t -= a[(size_t)i * n + j] * b[j];
    b[i] = t / a[(size_t)i * n + i];
  }
  return 0;
}

/* The direct solution of the assembled trace system of s, [rows * nf]. */
static inline double *direct_solution(const solved *s, int *nout) {
  int rows, slots, nf;
  const double *values, *rhs;
  const int32_t *cols;
  CHECK_OK(hdgcl_solver_matrix(s->solver, &rows, &slots, &nf, &values, &cols, &rhs));
  int n = rows * nf;
  double *a = calloc((size_t)n * n + 1, sizeof *a), *x = calloc((size_t)n + 1, sizeof *x);
  for (int u = 0; u < rows; u++)
    for (int sl = 0; sl < slots; sl++) {
      int c = cols[u * slots + sl];
      if (c < 0) continue;
      for (int m = 0; m < nf; m++)
        for (int k = 0; k < nf; k++)
          a[(size_t)(u * nf + m) * n + c * nf + k] += values[(((size_t)u * slots + sl) * nf + m) * nf + k];
    }
  for (int i = 0; i < n; i++) x[i] = rhs[i];
  CHECK(dense_lu_solve(n, a, x) == 0);
  free(a);
  *nout = n;
  return x;
}

/* max |trace(unknown faces) - x| / max |x|. */
static inline double trace_difference(const solved *s, const double *x, int n) {
  const double *trace;
  CHECK_OK(hdgcl_solver_solution(s->solver, NULL, NULL, NULL, &trace));
  hdgcl_solver impl = s->solver;
  int nf = impl->disc.ref.sz.nfb; /* ncomp * Nf values per face */
  double d = 0.0, m = 0.0;
  for (int u = 0; u < impl->disc.num.num_unknown_faces; u++)
    for (int k = 0; k < nf; k++) {
      int i = u * nf + k;
      if (i >= n) return INFINITY;
      double t = trace[(size_t)impl->disc.num.unknown_face[u] * nf + k];
      d = fmax(d, fabs(t - x[i]));
      m = fmax(m, fabs(x[i]));
    }
  return m > 0 ? d / m : d;
}

#endif
