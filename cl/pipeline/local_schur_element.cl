/* K = K0 - [W | F]^T Z (F10's second product; [W_t | F] with convection,
 * (F24)), one element per work-item, subtracting in place from the K0 that
 * K holds (local_k0, or the build of mapped elements and elasticity): the
 * form for CPUs (PoCL), beside local_cholesky_solve.  Z is transposed into
 * zt (row r its NRHS values of row r), so that row i of [W | F]^T Z is the
 * sum over r of [W | F]_ri times row r of zt: axpys of NRHS values, a length
 * the compiler knows and vectorises.  Flops 2 NZ NRHS^2.  zt and the row
 * (NZ NRHS + NRHS doubles) are private: the host offers this method to CPU
 * devices only (host/pipeline/local.c).
 * Prepended: common.h.  Compile-time sizes: NZ, NRHS (the columns of
 * [W | F]).  Layouts per element, column-major: WF and Z [NRHS][NZ] (Z
 * starts zoff doubles into its buffer), K [NRHS][NRHS]. */

__kernel void local_schur_element(const int n, __global const double *WF,
                                  __global const double *Z, const long zoff,
                                  __global double *K) {
  const long e = get_global_id(0);
  if (e >= n) return;
  __global const double *w = WF + e * NZ * NRHS, *z = Z + zoff + e * NZ * NRHS;
  __global double *k = K + e * NRHS * NRHS;
  double zt[NZ * NRHS], row[NRHS];
  for (int c = 0; c < NRHS; c++)
    for (int r = 0; r < NZ; r++) zt[r * NRHS + c] = z[c * NZ + r];
  for (int i = 0; i < NRHS; i++) {
    for (int j = 0; j < NRHS; j++) row[j] = 0.0;
    for (int r = 0; r < NZ; r++) {
      const double f = w[i * NZ + r];
      for (int j = 0; j < NRHS; j++) row[j] += f * zt[r * NRHS + j];
    }
    for (int j = 0; j < NRHS; j++) k[j * NRHS + i] -= row[j];
  }
}
