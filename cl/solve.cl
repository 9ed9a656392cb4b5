/* Trace solve (docs/formulation.md section 8, step 3): SpMV in block-ELL and
 * scalar ELL, point and face block-Jacobi preconditioners, and the
 * preconditioned conjugate gradient method with every reduction and scalar
 * update on the device.  The host enqueues iterations in batches and only
 * reads the scalar block between batches; once converged, the `done` flag
 * turns the remaining enqueued iterations into no-ops.
 * Prepended: common.h.  Sizes: NF, NSLOTS, DOT_WG (power of two), DOT_GROUPS.
 *
 * Scalars (one small buffer):                                                */
#define S_RZ 0    /* (r, z) */
#define S_PAP 1   /* (p, A p) */
#define S_ALPHA 2
#define S_BETA 3
#define S_RR 4    /* (r, r) */
#define S_RR0 5   /* (b, b) */
#define S_TOL2 6  /* (rtol ||b||)^2 */
#define S_DONE 7  /* 1 once converged */
#define S_ITER 8  /* iterations done */
#define S_COUNT 9

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

/* Diagonal entry (row, row) of either layout. */
double diagonal_entry(__global const double *values, const int nunknown, const int row) {
  const int u = row / NF, m = row % NF;
#ifdef FORMAT_ELL
  return values[(long)m * nunknown * NF + row];
#else
  return values[((long)u * NSLOTS * NF + m) * NF + m];
#endif
}

/* Entry (m, n) of the diagonal block of face row u. */
double diagonal_block_entry(__global const double *values, const int nunknown, const int u,
                            const int m, const int n) {
#ifdef FORMAT_ELL
  return values[(long)n * nunknown * NF + (long)u * NF + m];
#else
  return values[((long)u * NSLOTS * NF + m) * NF + n];
#endif
}

__kernel void jacobi_setup(const int nunknown, __global const double *values,
                           __global double *dinv) {
  const int row = get_global_id(0);
  if (row >= nunknown * NF) return;
  dinv[row] = 1.0 / diagonal_entry(values, nunknown, row);
}

/* Inverse of each diagonal face block (SPD, NF x NF) by in-place Gauss-Jordan
 * elimination in the output buffer: SPD pivots stay positive, so no pivoting
 * is needed, and no private arrays (which a CPU runtime would multiply by its
 * work-group size).  One work-item per face; this runs once per solve. */
__kernel void block_jacobi_setup(const int nunknown, __global const double *values,
                                 __global double *binv) {
  const int u = get_global_id(0);
  if (u >= nunknown) return;
  __global double *a = binv + (long)u * NF * NF;
  for (int m = 0; m < NF; m++)
    for (int n = 0; n < NF; n++) a[m * NF + n] = diagonal_block_entry(values, nunknown, u, m, n);
  for (int k = 0; k < NF; k++) {
    const double pivot = a[k * NF + k];
    a[k * NF + k] = 1.0;
    for (int j = 0; j < NF; j++) a[k * NF + j] /= pivot;
    for (int i = 0; i < NF; i++) {
      if (i == k) continue;
      const double f = a[i * NF + k];
      a[i * NF + k] = 0.0;
      for (int j = 0; j < NF; j++) a[i * NF + j] -= f * a[k * NF + j];
    }
  }
}

__kernel void jacobi_apply(const int n, __global const double *dinv, __global const double *r,
                           __global double *z) {
  const int i = get_global_id(0);
  if (i < n) z[i] = dinv[i] * r[i];
}

__kernel void block_jacobi_apply(const int nunknown, __global const double *binv,
                                 __global const double *r, __global double *z) {
  const int row = get_global_id(0);
  if (row >= nunknown * NF) return;
  const int u = row / NF, m = row % NF;
  __global const double *b = binv + ((long)u * NF + m) * NF;
  __global const double *ru = r + (long)u * NF;
  double s = 0.0;
  for (int n = 0; n < NF; n++) s += b[n] * ru[n];
  z[row] = s;
}

/* Work-group tree reduction of DOT_WG values in local memory; returns the sum
 * to work-item 0.  Fixed order: deterministic. */
double group_sum(__local double *buf, double v) {
  const int lid = get_local_id(0);
  buf[lid] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = DOT_WG / 2; s > 0; s >>= 1) {
    if (lid < s) buf[lid] += buf[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  return buf[0];
}

/* partial[g] = sum over this group's grid-stride share of a.b; DOT_GROUPS groups. */
__kernel void dot_partial(const int n, __global const double *a, __global const double *b,
                          __global double *partial) {
  __local double buf[DOT_WG];
  double s = 0.0;
  for (int i = get_global_id(0); i < n; i += DOT_WG * DOT_GROUPS) s += a[i] * b[i];
  s = group_sum(buf, s);
  if (get_local_id(0) == 0) partial[get_group_id(0)] = s;
}

/* Two dots sharing a: partial[2g] = a.b, partial[2g+1] = a.c. */
__kernel void dot2_partial(const int n, __global const double *a, __global const double *b,
                           __global const double *c, __global double *partial) {
  __local double buf[DOT_WG];
  double s = 0.0, t = 0.0;
  for (int i = get_global_id(0); i < n; i += DOT_WG * DOT_GROUPS) {
    s += a[i] * b[i];
    t += a[i] * c[i];
  }
  s = group_sum(buf, s);
  barrier(CLK_LOCAL_MEM_FENCE);
  t = group_sum(buf, t);
  if (get_local_id(0) == 0) {
    partial[2 * get_group_id(0)] = s;
    partial[2 * get_group_id(0) + 1] = t;
  }
}

/* Sum of DOT_GROUPS partials (stride `stride`, offset `first`) by one group. */
double reduce_partials(__local double *buf, __global const double *partial, int stride, int first) {
  double s = 0.0;
  for (int g = get_local_id(0); g < DOT_GROUPS; g += DOT_WG) s += partial[g * stride + first];
  return group_sum(buf, s);
}

/* After r = b, z = M r and dot2(r; z, r): initial scalars. One group. */
__kernel void cg_init(__global const double *partial, __global double *scalars,
                      const double rtol, __global double *history) {
  __local double buf[DOT_WG];
  const double rz = reduce_partials(buf, partial, 2, 0);
  barrier(CLK_LOCAL_MEM_FENCE);
  const double rr = reduce_partials(buf, partial, 2, 1);
  if (get_local_id(0) == 0) {
    scalars[S_RZ] = rz;
    scalars[S_RR] = rr;
    scalars[S_RR0] = rr;
    scalars[S_TOL2] = rtol * rtol * rr;
    scalars[S_DONE] = rr > 0.0 ? 0.0 : 1.0;
    scalars[S_ITER] = 0.0;
    scalars[S_ALPHA] = 0.0;
    scalars[S_BETA] = 0.0;
    history[0] = 1.0;
  }
}

/* alpha = (r,z) / (p,Ap). */
__kernel void cg_alpha(__global const double *partial, __global double *scalars) {
  __local double buf[DOT_WG];
  const double pap = reduce_partials(buf, partial, 1, 0);
  if (get_local_id(0) == 0) {
    scalars[S_PAP] = pap;
    scalars[S_ALPHA] = scalars[S_DONE] != 0.0 ? 0.0 : scalars[S_RZ] / pap;
  }
}

/* x += alpha p, r -= alpha A p. */
__kernel void cg_update_xr(const int n, __global const double *scalars, __global const double *p,
                           __global const double *ap, __global double *x, __global double *r) {
  const int i = get_global_id(0);
  if (i >= n || scalars[S_DONE] != 0.0) return;
  const double alpha = scalars[S_ALPHA];
  x[i] += alpha * p[i];
  r[i] -= alpha * ap[i];
}

/* beta = (r,z)_new / (r,z); records ||r||/||b||; sets done at the tolerance. */
__kernel void cg_beta(__global const double *partial, __global double *scalars,
                      __global double *history) {
  __local double buf[DOT_WG];
  const double rz = reduce_partials(buf, partial, 2, 0);
  barrier(CLK_LOCAL_MEM_FENCE);
  const double rr = reduce_partials(buf, partial, 2, 1);
  if (get_local_id(0) == 0 && scalars[S_DONE] == 0.0) {
    scalars[S_BETA] = rz / scalars[S_RZ];
    scalars[S_RZ] = rz;
    scalars[S_RR] = rr;
    const double it = scalars[S_ITER] + 1.0;
    scalars[S_ITER] = it;
    history[(int)it] = sqrt(rr / scalars[S_RR0]);
    if (rr <= scalars[S_TOL2] || !(rr == rr)) scalars[S_DONE] = 1.0;
  }
}

/* p = z + beta p. */
__kernel void cg_update_p(const int n, __global const double *scalars, __global const double *z,
                          __global double *p) {
  const int i = get_global_id(0);
  if (i >= n || scalars[S_DONE] != 0.0) return;
  p[i] = z[i] + scalars[S_BETA] * p[i];
}
