/* Z = S^-1 [W | F] for the small SPD S of low orders (F10's first product):
 * one work-item per column of [W | F], which factors its element's S = L L^T
 * (Cholesky) in private memory and solves L L^T z = b for its column b by a
 * forward and a back substitution.  The factorisation is repeated by the
 * NRHS work-items of an element, NZ^3 / 3 flops each: where NZ is small that
 * costs less than the synchronisation of a work-group sharing one factor
 * (cl/pipeline/local_solve_tiled.cl runs a whole work-group of at least 64 work-items
 * per element, most of them idle on a 4 x 4 S).  S is read by all of an
 * element's work-items from the same addresses (the cache serves them).
 * Prepended: common.h.  Compile-time sizes: NZ (S is NZ x NZ), NRHS (the
 * columns of [W | F]).  Layouts, per element, column-major: S [NZ][NZ],
 * WF and Z [NRHS][NZ]; Z starts zoff doubles into its buffer.  The host
 * builds this kernel only for NZ <= 11 (the packed factor, NZ (NZ+1) / 2
 * doubles, stays in registers). */
#define LIDX(i, j) ((i) * ((i) + 1) / 2 + (j)) /* L[i][j], j <= i, packed by rows */

__kernel void local_solve_columns(const int n, __global const double *S,
                                  __global const double *WF, __global double *Z,
                                  const long zoff) {
  const long gid = get_global_id(0);
  if (gid >= (long)n * NRHS) return;
  const long e = gid / NRHS;
  const int c = (int)(gid - e * NRHS);
  __global const double *Se = S + e * NZ * NZ;
  double l[NZ * (NZ + 1) / 2], dinv[NZ], x[NZ];
  /* S = L L^T, left-looking by columns: L[i][j] = (S[i][j] - sum_k<j L[i][k] L[j][k]) / L[j][j]. */
#pragma unroll
  for (int j = 0; j < NZ; j++) {
    double d = Se[j * NZ + j];
#pragma unroll
    for (int k = 0; k < j; k++) d -= l[LIDX(j, k)] * l[LIDX(j, k)];
    const double ljj = sqrt(d);
    dinv[j] = 1.0 / ljj;
    l[LIDX(j, j)] = ljj;
#pragma unroll
    for (int i = j + 1; i < NZ; i++) {
      double v = Se[j * NZ + i];
#pragma unroll
      for (int k = 0; k < j; k++) v -= l[LIDX(i, k)] * l[LIDX(j, k)];
      l[LIDX(i, j)] = v * dinv[j];
    }
  }
  __global const double *b = WF + e * NZ * NRHS + c * NZ;
  /* L y = b, then L^T z = y (z over y in x). */
#pragma unroll
  for (int i = 0; i < NZ; i++) {
    double v = b[i];
#pragma unroll
    for (int k = 0; k < i; k++) v -= l[LIDX(i, k)] * x[k];
    x[i] = v * dinv[i];
  }
#pragma unroll
  for (int i = NZ - 1; i >= 0; i--) {
    double v = x[i];
#pragma unroll
    for (int k = i + 1; k < NZ; k++) v -= l[LIDX(k, i)] * x[k];
    x[i] = v * dinv[i];
  }
  __global double *z = Z + zoff + e * NZ * NRHS + c * NZ;
#pragma unroll
  for (int i = 0; i < NZ; i++) z[i] = x[i];
}
#undef LIDX
