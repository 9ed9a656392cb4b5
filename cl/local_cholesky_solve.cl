/* Z = S^-1 [W | F] (F10's first product) for SPD S, one element per
 * work-item: the form for CPUs (PoCL), where a work-group runs on one core
 * and its barriers cost more than the arithmetic between them.  Every loop
 * below runs down a contiguous column, so the compiler vectorises it:
 *   S = L L^T, right-looking, in place in S's lower triangle: column k of L
 *      is S's column k over L_kk, then column j > k loses L_jk times column
 *      k of L (an axpy down column j); L_jk is mirrored to (k, j), so the
 *      upper triangle holds L^T by columns;
 *   for each column b of [W | F], copied into Z: L y = b (after y_k, b
 *      loses y_k times column k of L below k), then L^T z = y (after z_k, y
 *      loses z_k times column k of L^T above k).
 * Flops NZ^3 / 3 + 2 NZ^2 NRHS; S is overwritten (its lower and upper
 * triangles).  The host offers it on CPU devices (host/local.c).
 * Prepended: common.h.  Compile-time sizes: NZ (S is NZ x NZ), NRHS (the
 * columns of [W | F]).  Layouts per element, column-major: S [NZ][NZ],
 * WF and Z [NRHS][NZ]; Z starts zoff doubles into its buffer. */

__kernel void local_cholesky_solve(const int n, __global double *S, __global const double *WF,
                                   __global double *Z, const long zoff) {
  const long e = get_global_id(0);
  if (e >= n) return;
  __global double *a = S + e * NZ * NZ;
  for (int k = 0; k < NZ; k++) {
    __global double *lk = a + k * NZ; /* column k */
    const double d = sqrt(lk[k]), inv = 1.0 / d;
    lk[k] = d;
    for (int i = k + 1; i < NZ; i++) lk[i] *= inv;
    for (int j = k + 1; j < NZ; j++) {
      __global double *cj = a + j * NZ;
      const double ljk = lk[j];
      for (int i = j; i < NZ; i++) cj[i] -= ljk * lk[i];
      cj[k] = ljk; /* (k, j) = L^T's entry */
    }
  }
  __global const double *b = WF + e * NZ * NRHS;
  __global double *z = Z + zoff + e * NZ * NRHS;
  for (int c = 0; c < NRHS; c++) {
    __global double *zc = z + c * NZ;
    for (int i = 0; i < NZ; i++) zc[i] = b[c * NZ + i];
    for (int k = 0; k < NZ; k++) { /* L y = b */
      __global const double *lk = a + k * NZ;
      const double yk = zc[k] / lk[k];
      zc[k] = yk;
      for (int i = k + 1; i < NZ; i++) zc[i] -= yk * lk[i];
    }
    for (int k = NZ - 1; k >= 0; k--) { /* L^T z = y: column k of L^T is (0..k, k) */
      __global const double *uk = a + k * NZ;
      const double zk = zc[k] / uk[k];
      zc[k] = zk;
      for (int i = 0; i < k; i++) zc[i] -= zk * uk[i];
    }
  }
}
