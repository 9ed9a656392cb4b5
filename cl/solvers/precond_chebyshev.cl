/* Chebyshev polynomial preconditioner (paper 001 sections 3.4 and 4.7: a
 * polynomial in the inner-preconditioned operator, here with Chebyshev
 * coefficients on an estimated eigenvalue interval, host/solvers/precond_chebyshev.c).
 * The three-term recurrence (Saad, Iterative Methods, 2nd ed., Algorithm
 * 12.1) with its coefficients passed as arguments: no host read per apply. */

/* First step: d = c w (w = M^-1 r), z = d. */
__kernel void chebyshev_first(const int n, const double c, __global const double *w,
                              __global double *d, __global double *z) {
  const int i = get_global_id(0);
  if (i >= n) return;
  const double di = c * w[i];
  d[i] = di;
  z[i] = di;
}

/* Later steps: d = c1 d + c2 w (w = M^-1 res), z += d. */
__kernel void chebyshev_step(const int n, const double c1, const double c2,
                             __global const double *w, __global double *d, __global double *z) {
  const int i = get_global_id(0);
  if (i >= n) return;
  const double di = c1 * d[i] + c2 * w[i];
  d[i] = di;
  z[i] += di;
}

/* One Chebyshev step with face block-Jacobi inside, fused into one launch
 * (host/solvers/precond_chebyshev.c, apply_fused): the four launches
 *   res = r - A z_in (spmv, vec_residual),  w = blockdiag(binv) res,
 *   d = c1 d + c2 w,  z_out = z_in + d      (chebyshev_step)
 * with the same sums in the same order, so the results are those of the
 * four.  first != 0: the first step from z = 0 (res = r, d = c2 w, z_out = d).
 * Work-groups of whole faces (a multiple of NF work-items): each work-item
 * puts its row's residual in local memory (res_l), and after the barrier
 * multiplies its row of the face's inverse block with the face's residual.
 * z_out must not be z_in: the rows of other work-groups still read z_in. */
__kernel void chebyshev_bj_step(const int nunknown, const int first, const double c1,
                                const double c2, __global const int *block_cols,
                                __global const double *values, __global const double *binv,
                                __global const double *r, __global const double *z_in,
                                __global double *d, __global double *z_out,
                                __local double *res_l) {
  const int nrows = nunknown * NF;
  const int row = get_global_id(0), lid = get_local_id(0);
  const bool active = row < nrows;
  const int u = row / NF, m = row % NF;
  double s = 0.0;
  if (active && !first)
    for (int slot = 0; slot < NSLOTS; slot++) {
      const int c = block_cols[u * NSLOTS + slot];
      if (c < 0) continue;
      __global const double *xc = z_in + (long)c * NF;
      for (int n = 0; n < NF; n++) s += trace_block_entry(values, nunknown, u, slot, m, n) * xc[n];
    }
  res_l[lid] = active ? (first ? r[row] : r[row] - s) : 0.0;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (!active) return;
  __global const double *b = binv + ((long)u * NF + m) * NF;
  double w = 0.0;
  for (int n = 0; n < NF; n++) w += b[n] * res_l[lid - m + n];
  const double di = first ? c2 * w : c1 * d[row] + c2 * w;
  d[row] = di;
  z_out[row] = first ? di : z_in[row] + di;
}
