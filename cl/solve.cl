/* Trace solve (docs/formulation.md section 8, step 3): the trace operator
 * y = A x in block-ELL and scalar ELL.  The Krylov methods (krylov_cg.cl,
 * host/krylov_gmres.c), their vector kernels (vectors.cl) and the
 * preconditioners (precond_*.cl) are built into the same program.
 * Sizes: NF, NSLOTS. */

/* y = A x, block-ELL: one work-item per row (u, m). */
__kernel void spmv_bell(const int nunknown, __global const int *block_cols,
                        __global const double *values, __global const double *x,
                        __global double *y) {
  const int row = get_global_id(0);
  if (row >= nunknown * NF) return;
  const int u = row / NF, m = row % NF;
  double s = 0.0;
  for (int slot = 0; slot < NSLOTS; slot++) {
    const int c = block_cols[u * NSLOTS + slot];
    if (c < 0) continue;
    __global const double *blk = values + ((long)(u * NSLOTS + slot) * NF + m) * NF;
    __global const double *xc = x + (long)c * NF;
    for (int n = 0; n < NF; n++) s += blk[n] * xc[n];
  }
  y[row] = s;
}

/* y = A x, scalar ELL (column-major entries, padded with zeros). */
__kernel void spmv_ell(const int nrows, __global const int *cols, __global const double *values,
                       __global const double *x, __global double *y) {
  const int row = get_global_id(0);
  if (row >= nrows) return;
  double s = 0.0;
  for (int k = 0; k < NSLOTS * NF; k++) s += values[(long)k * nrows + row] * x[cols[(long)k * nrows + row]];
  y[row] = s;
}
