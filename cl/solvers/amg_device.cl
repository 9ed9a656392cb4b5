/* One V-cycle of a BoomerAMG hierarchy on the device (host/solvers/amg_device.c):
 * the p-multigrid coarsest level's solve without a host round trip.  Level
 * matrices A_l, interpolations P_l and restrictions R_l = P_l^T are CSR
 * (row pointers ai, columns aj, values ax); l1 holds the l1 row norms of
 * A_l that scale hypre's l1-Jacobi relaxation (relax type 18), w its weight.
 * One work-item per row.
 *
 * The cycle at level l (Briggs, Henson, McCormick, A Multigrid Tutorial, 2nd
 * ed., section 3; the order of hypre's par_cycle.c), x_l from zero:
 *   x = w D1^-1 b;  r = b - A x;  b_{l+1} = R r;  (cycle at l+1);
 *   t = x + P x_{l+1};  x = t + w D1^-1 (b - A t),
 * and at the coarsest level x = A^-1 b with the inverse formed on the host. */

/* The first relaxation from zero and the residual in one pass:
 * x_i = w b_i / d_i and r_i = b_i - sum_j a_ij (w b_j / d_j); the neighbours'
 * x_j are recomputed from b, so no second launch waits for x. */
__kernel void amg_relax0_residual(const int n, __global const int *ai, __global const int *aj,
                                  __global const double *ax, __global const double *l1,
                                  const double w, __global const double *b,
                                  __global double *x, __global double *r) {
  const int i = get_global_id(0);
  if (i >= n) return;
  double s = b[i];
  for (int k = ai[i]; k < ai[i + 1]; k++) {
    const int j = aj[k];
    s -= ax[k] * (w * b[j] / l1[j]);
  }
  x[i] = w * b[i] / l1[i];
  r[i] = s;
}

/* y = M x for a CSR matrix M (the restriction R = P^T). */
__kernel void amg_spmv(const int n, __global const int *ai, __global const int *aj,
                       __global const double *ax, __global const double *x,
                       __global double *y) {
  const int i = get_global_id(0);
  if (i >= n) return;
  double s = 0.0;
  for (int k = ai[i]; k < ai[i + 1]; k++) s += ax[k] * x[aj[k]];
  y[i] = s;
}

/* t = x + P xc (the coarse correction, out of place so the relaxation after
 * it reads a complete t). */
__kernel void amg_prolong(const int n, __global const int *pi, __global const int *pj,
                          __global const double *px, __global const double *xc,
                          __global const double *x, __global double *t) {
  const int i = get_global_id(0);
  if (i >= n) return;
  double s = x[i];
  for (int k = pi[i]; k < pi[i + 1]; k++) s += px[k] * xc[pj[k]];
  t[i] = s;
}

/* x = t + w D1^-1 (b - A t): one l1-Jacobi sweep from t. */
__kernel void amg_relax(const int n, __global const int *ai, __global const int *aj,
                        __global const double *ax, __global const double *l1, const double w,
                        __global const double *b, __global const double *t,
                        __global double *x) {
  const int i = get_global_id(0);
  if (i >= n) return;
  double s = b[i];
  for (int k = ai[i]; k < ai[i + 1]; k++) s -= ax[k] * t[aj[k]];
  x[i] = t[i] + w * s / l1[i];
}

/* The coarsest level: x = Ainv b, Ainv dense row-major n x n. */
__kernel void amg_dense(const int n, __global const double *inv, __global const double *b,
                        __global double *x) {
  const int i = get_global_id(0);
  if (i >= n) return;
  double s = 0.0;
  for (int j = 0; j < n; j++) s += inv[(long)i * n + j] * b[j];
  x[i] = s;
}
