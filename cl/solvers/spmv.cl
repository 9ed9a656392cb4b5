/* The trace operator y = A x (docs/formulation.md section 8, step 3) in every
 * storage hdgcl offers or measures (host/solvers/spmv.c).  Face row u holds NSLOTS
 * block columns block_cols[u * NSLOTS + slot] (-1 = empty slot) of NF x NF
 * blocks; scalar row u * NF + m.  Sizes: NF, NSLOTS; TC_FACES (face rows per
 * work-group of spmv_bell_tc), CSR_LANES (work-items per row of spmv_csr).
 *
 *   bell      values [u][slot][m][n] (row-major blocks), a work-item per row
 *   ell       scalar ELL: entry k = slot * NF + n of row r at values[k * nrows + r],
 *             a column index per entry
 *   bell-i    block-ELL with the ELL (interleaved) value layout: a work-item per
 *             row, consecutive rows read consecutive values (coalesced), one
 *             column index per face block instead of per entry
 *   bell-tc   bell-i by tensor contraction (paper 002): a work-group per
 *             TC_FACES face rows stages the x segments its blocks need in local
 *             memory, then y_u = sum_slot A_(u,slot) x_(col) reads them there
 *   bell-mixed bell-i with single-precision values, double x and accumulation
 *   csr       CSR of the non-empty blocks, CSR_LANES work-items per row
 *   bell-sym  symmetric matrices: the diagonal block and the blocks of columns
 *             above the row stored once (3 of 5 blocks per triangle row); a
 *             block below is read as the transpose of its mirror
 *
 * -DSPMV_ONLY=k compiles only storage k's kernel (spmv_storage's order in
 * host/solvers/spmv.h; values_to_float with bell-mixed): the solve compiles
 * the one it runs.  Without it every storage (hdgcl bench, tests/test_spmv.c). */
#ifdef SPMV_ONLY
#define SPMV_HAS(k) (SPMV_ONLY == (k))
#else
#define SPMV_HAS(k) 1
#endif

#if SPMV_HAS(0)
/* Block-ELL, row-major blocks: one work-item per row (u, m). */
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
#endif

#if SPMV_HAS(1)
/* Scalar ELL (column-major entries, padded with zeros). */
__kernel void spmv_ell(const int nrows, __global const int *cols, __global const double *values,
                       __global const double *x, __global double *y) {
  const int row = get_global_id(0);
  if (row >= nrows) return;
  double s = 0.0;
  for (int k = 0; k < NSLOTS * NF; k++) s += values[(long)k * nrows + row] * x[cols[(long)k * nrows + row]];
  y[row] = s;
}
#endif

/* Block-ELL with interleaved values: one work-item per row; empty slots are
 * skipped, so their padding is never read.  One body for two value types:
 * spmv_bell_i (double) and spmv_bell_mixed (float values, as a preconditioner
 * operator: about 1e-7 relative accuracy for half the matrix bytes); the
 * vectors and the sum are double in both. */
#define SPMV_BELL_INTERLEAVED(NAME, VALUE)                                              \
  __kernel void NAME(const int nunknown, __global const int *block_cols,              \
                     __global const VALUE *values, __global const double *x,          \
                     __global double *y) {                                            \
    const int nrows = nunknown * NF;                                                  \
    const int row = get_global_id(0);                                                 \
    if (row >= nrows) return;                                                         \
    const int u = row / NF;                                                           \
    double s = 0.0;                                                                   \
    for (int slot = 0; slot < NSLOTS; slot++) {                                       \
      const int c = block_cols[u * NSLOTS + slot];                                    \
      if (c < 0) continue;                                                            \
      __global const VALUE *a = values + (long)slot * NF * nrows + row;               \
      __global const double *xc = x + (long)c * NF;                                   \
      for (int n = 0; n < NF; n++) s += (double)a[(long)n * nrows] * xc[n];           \
    }                                                                                 \
    y[row] = s;                                                                       \
  }
#if SPMV_HAS(2)
SPMV_BELL_INTERLEAVED(spmv_bell_i, double)
#endif
#if SPMV_HAS(4)
SPMV_BELL_INTERLEAVED(spmv_bell_mixed, float)
#endif

#if SPMV_HAS(3)
/* Tensor-contraction block SpMV (paper 002): a work-group of TC_FACES * NF
 * work-items per TC_FACES face rows.  First the group gathers the NSLOTS x
 * segments of each of its faces into local memory (each segment NF contiguous
 * doubles, read by consecutive work-items), then work-item (f, m) contracts
 * row m of its face's blocks with them.  xs: TC_FACES * NSLOTS * NF doubles. */
__kernel void spmv_bell_tc(const int nunknown, __global const int *block_cols,
                           __global const double *values, __global const double *x,
                           __global double *y, __local double *xs) {
  const int nrows = nunknown * NF;
  const int lid = get_local_id(0);
  const int f0 = get_group_id(0) * TC_FACES;
  for (int t = lid; t < TC_FACES * NSLOTS * NF; t += TC_FACES * NF) {
    const int u = f0 + t / (NSLOTS * NF), slot = (t / NF) % NSLOTS, n = t % NF;
    double v = 0.0;
    if (u < nunknown) {
      const int c = block_cols[u * NSLOTS + slot];
      if (c >= 0) v = x[(long)c * NF + n];
    }
    xs[t] = v;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  const int f = lid / NF, row = f0 * NF + lid;
  if (row >= nrows) return;
  __local const double *xf = xs + f * NSLOTS * NF;
  double s = 0.0;
  for (int k = 0; k < NSLOTS * NF; k++) s += values[(long)k * nrows + row] * xf[k];
  y[row] = s;
}
#endif

#if SPMV_HAS(5)
/* CSR (row pointers, column per entry) with CSR_LANES work-items per row and
 * a tree sum in local memory (part: one double per work-item). */
__kernel void spmv_csr(const int nrows, __global const int *rowptr, __global const int *cols,
                       __global const double *values, __global const double *x,
                       __global double *y, __local double *part) {
  const int lid = get_local_id(0), lane = lid % CSR_LANES;
  const int row = get_global_id(0) / CSR_LANES;
  double s = 0.0;
  if (row < nrows)
    for (int k = rowptr[row] + lane; k < rowptr[row + 1]; k += CSR_LANES) s += values[k] * x[cols[k]];
  part[lid] = s;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int w = CSR_LANES / 2; w > 0; w /= 2) {
    if (lane < w) part[lid] += part[lid + w];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lane == 0 && row < nrows) y[row] = part[lid];
}
#endif

#if SPMV_HAS(6)
/* Symmetric block storage: ref[u][slot] >= 0 is the stored block A_(u,c)
 * itself, ref < 0 the block -ref-1 stored for A_(c,u), read transposed
 * (A_(u,c) = A_(c,u)^T).  Row-major blocks; one work-item per row (u, m). */
__kernel void spmv_bell_sym(const int nunknown, __global const int *block_cols,
                            __global const int *ref, __global const double *values,
                            __global const double *x, __global double *y) {
  const int row = get_global_id(0);
  if (row >= nunknown * NF) return;
  const int u = row / NF, m = row % NF;
  double s = 0.0;
  for (int slot = 0; slot < NSLOTS; slot++) {
    const int c = block_cols[u * NSLOTS + slot];
    if (c < 0) continue;
    const int r = ref[u * NSLOTS + slot];
    __global const double *xc = x + (long)c * NF;
    if (r >= 0) {
      __global const double *blk = values + ((long)r * NF + m) * NF; /* row m */
      for (int n = 0; n < NF; n++) s += blk[n] * xc[n];
    } else {
      __global const double *blk = values + (long)(-r - 1) * NF * NF + m; /* column m */
      for (int n = 0; n < NF; n++) s += blk[n * NF] * xc[n];
    }
  }
  y[row] = s;
}
#endif

#if SPMV_HAS(4)
/* f = (float) v, grid-stride: the single-precision copy of the assembled
 * matrix that --cheb-mixed's inner products read (host/solvers/precond_chebyshev.c). */
__kernel void values_to_float(const long n, __global const double *v, __global float *f) {
  for (long i = get_global_id(0); i < n; i += get_global_size(0)) f[i] = (float)v[i];
}
#endif
