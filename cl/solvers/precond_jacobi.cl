/* Point-Jacobi preconditioner: z = D^-1 r, D the diagonal of the trace matrix.
 * Needs trace_matrix.h. */

__kernel void jacobi_setup(const int nunknown, __global const double *values,
                           __global double *dinv) {
  const int row = get_global_id(0);
  if (row >= nunknown * NF) return;
  const int m = row % NF;
  dinv[row] = 1.0 / trace_block_entry(values, nunknown, row / NF, 0, m, m);
}

__kernel void jacobi_apply(const int n, __global const double *dinv, __global const double *r,
                           __global double *z) {
  const int i = get_global_id(0);
  if (i < n) z[i] = dinv[i] * r[i];
}
