/* Face block-Jacobi preconditioner (paper 001 sections 3.2 and 4.5): z_f =
 * A_ff^-1 r_f with the diagonal face blocks inverted once per solve.
 * Needs trace_matrix.h. */

/* Inverse of each diagonal face block (SPD, NF x NF) in the output buffer.
 * One work-item per face; this runs once per solve. */
__kernel void block_jacobi_setup(const int nunknown, __global const double *values,
                                 __global double *binv) {
  const int u = get_global_id(0);
  if (u >= nunknown) return;
  __global double *a = binv + (long)u * NF * NF;
  for (int m = 0; m < NF; m++)
    for (int n = 0; n < NF; n++) a[m * NF + n] = trace_block_entry(values, nunknown, u, 0, m, n);
  spd_invert_in_place(a, NF);
}

/* z = blockdiag(binv) r: one work-item per row (u, m). */
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
