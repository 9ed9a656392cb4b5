/* Z = S^-1 [W | F] (F10's first product) for SPD S, one element per
 * work-item: the form for CPUs (PoCL), where a work-group runs on one core
 * and its barriers cost more than the arithmetic between them.  Every inner
 * loop below runs along contiguous memory, so the compiler vectorises it:
 *   S = L L^T, right-looking, in place in S's lower triangle: column k of L
 *      is S's column k over L_kk, then column j > k loses L_jk times column
 *      k of L (an axpy down column j); L_jk is mirrored to (k, j), so the
 *      upper triangle holds L^T by columns;
 *   [W | F] transposed into w (row i its NRHS values of row i), then
 *      L Y = [W | F] (after row k of Y, row i > k loses L_ik times it) and
 *      L^T Z = Y (after row k of Z, row i < k loses L_ki times it), every
 *      step an axpy of NRHS values, a length the compiler knows (on 2 cores,
 *      PoCL 3.1, square:40 p = 5, 7, 9: 13.6, 36.2, 77.6 ms column by column,
 *      8.6, 19.9, 57.9 ms so); Z written back column-major.
 * Flops NZ^3 / 3 + 2 NZ^2 NRHS; S is overwritten (its lower and upper
 * triangles).  w (NZ NRHS doubles) is private: on a GPU it would spill, and
 * the host offers this method to CPU devices only (host/local.c).
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
  double w[NZ * NRHS];
  for (int c = 0; c < NRHS; c++)
    for (int i = 0; i < NZ; i++) w[i * NRHS + c] = b[c * NZ + i];
  for (int k = 0; k < NZ; k++) { /* L Y = B */
    __global const double *lk = a + k * NZ;
    const double inv = 1.0 / lk[k];
    for (int c = 0; c < NRHS; c++) w[k * NRHS + c] *= inv;
    for (int i = k + 1; i < NZ; i++) {
      const double lik = lk[i];
      for (int c = 0; c < NRHS; c++) w[i * NRHS + c] -= lik * w[k * NRHS + c];
    }
  }
  for (int k = NZ - 1; k >= 0; k--) { /* L^T Z = Y: column k of L^T is (0..k, k) */
    __global const double *uk = a + k * NZ;
    const double inv = 1.0 / uk[k];
    for (int c = 0; c < NRHS; c++) w[k * NRHS + c] *= inv;
    for (int i = 0; i < k; i++) {
      const double uik = uk[i];
      for (int c = 0; c < NRHS; c++) w[i * NRHS + c] -= uik * w[k * NRHS + c];
    }
  }
  for (int c = 0; c < NRHS; c++)
    for (int i = 0; i < NZ; i++) z[c * NZ + i] = w[i * NRHS + c];
}
