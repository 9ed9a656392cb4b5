/* Z = S^-1 [W | F] (F10's first product) for SPD S, one element per
 * work-item: the form for CPUs (PoCL), where a work-group runs on one core
 * and its barriers cost more than the arithmetic between them.  S = L L^T
 * in place (cl/pipeline/cholesky_rows.h), [W | F] transposed into w (row i its NRHS
 * values, padded to NRP), L Y = [W | F], L^T Z = Y, Z written back column-major.
 * Flops NZ^3 / 3 + 2 NZ^2 NRHS; S is overwritten (its lower and upper
 * triangles).  w (NZ NRP doubles) is private: on a GPU it would spill, and
 * the host offers this method to CPU devices only (host/pipeline/local.c).
 * Prepended: common.h, cholesky_rows.h.  Compile-time sizes: NZ (S is
 * NZ x NZ), NRHS (the columns of [W | F]).  Layouts per element,
 * column-major: S [NZ][NZ], WF and Z [NRHS][NZ]; Z starts zoff doubles into
 * its buffer. */

__kernel void local_cholesky_solve(const int n, __global double *S, __global const double *WF,
                                   __global double *Z, const long zoff) {
  const long e = get_global_id(0);
  if (e >= n) return;
  __global double *a = S + e * NZ * NZ;
  cholesky_factor(a);
  __global const double *b = WF + e * NZ * NRHS;
  __global double *z = Z + zoff + e * NZ * NRHS;
  double w[NZ * NRP];
  for (int i = 0; i < NZ; i++)
    for (int c = NRHS; c < NRP; c++) w[i * NRP + c] = 0.0; /* the padding */
  for (int c = 0; c < NRHS; c++)
    for (int i = 0; i < NZ; i++) w[i * NRP + c] = b[c * NZ + i];
  cholesky_forward(a, w);
  cholesky_backward(a, w);
  for (int c = 0; c < NRHS; c++)
    for (int i = 0; i < NZ; i++) z[c * NZ + i] = w[i * NRP + c];
}
