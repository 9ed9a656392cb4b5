/* Face block-Jacobi preconditioner (paper 001 sections 3.2 and 4.5): z_f =
 * A_ff^-1 r_f with the diagonal face blocks inverted once per solve, stored
 * row-major [face][NF][NF].  Needs trace_matrix.h.  Sizes: NF, BJ_FACES
 * (face blocks per work-group of block_jacobi_setup). */

/* Inverse of each diagonal face block (NF x NF, SPD or, with convection, of
 * positive definite symmetric part) by Gauss-Jordan without pivoting (the
 * pivots stay positive) in local memory: a work-group of
 * BJ_FACES * NF work-items per BJ_FACES faces, work-item (f, i) owning row i
 * of face f's block.  a: BJ_FACES * NF * NF doubles. */
__kernel void block_jacobi_setup(const int nunknown, __global const double *values,
                                 __global double *binv, __local double *a) {
  const int lid = get_local_id(0);
  const int f = lid / NF, i = lid % NF;
  const int u = get_group_id(0) * BJ_FACES + f;
  const bool live = f < BJ_FACES && u < nunknown;
  __local double *af = a + f * NF * NF;
  if (live)
    for (int n = 0; n < NF; n++) af[i * NF + n] = trace_block_entry(values, nunknown, u, 0, i, n);
  for (int k = 0; k < NF; k++) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (live && i == k) { /* row k /= pivot; the pivot's place becomes 1 / pivot */
      const double pivot = af[k * NF + k];
      af[k * NF + k] = 1.0;
      for (int n = 0; n < NF; n++) af[k * NF + n] /= pivot;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (live && i != k) { /* row i -= a_ik row k; column k's place becomes -a_ik / pivot */
      const double g = af[i * NF + k];
      af[i * NF + k] = 0.0;
      for (int n = 0; n < NF; n++) af[i * NF + n] -= g * af[k * NF + n];
    }
  }
  if (live)
    for (int n = 0; n < NF; n++) binv[((long)u * NF + i) * NF + n] = af[i * NF + n];
}

/* The same, one work-item per face in global memory, for blocks that do not
 * fit in local memory (NF^2 doubles; hexahedra of high order). */
__kernel void block_jacobi_setup_global(const int nunknown, __global const double *values,
                                        __global double *binv) {
  const int u = get_global_id(0);
  if (u >= nunknown) return;
  __global double *a = binv + (long)u * NF * NF;
  for (int m = 0; m < NF; m++)
    for (int n = 0; n < NF; n++) a[m * NF + n] = trace_block_entry(values, nunknown, u, 0, m, n);
  posdef_invert_in_place(a, NF);
}

/* Row `row` = (u, m) of blockdiag(binv) r. */
double block_jacobi_row(__global const double *binv, __global const double *r, const int row) {
  const int u = row / NF, m = row % NF;
  __global const double *b = binv + ((long)u * NF + m) * NF;
  __global const double *ru = r + (long)u * NF;
  double s = 0.0;
  for (int n = 0; n < NF; n++) s += b[n] * ru[n];
  return s;
}

/* z = blockdiag(binv) r: one work-item per row (u, m). */
__kernel void block_jacobi_apply(const int nunknown, __global const double *binv,
                                 __global const double *r, __global double *z) {
  const int row = get_global_id(0);
  if (row >= nunknown * NF) return;
  z[row] = block_jacobi_row(binv, r, row);
}

/* z = blockdiag(binv) r and, as dot2_partial(r; z, r) would compute them
 * afterwards (the same grid-stride rows, the same order), the partial sums
 * partial[2g] = (r, z) and partial[2g+1] = (r, r) of this group: CG's
 * preconditioner step and its reductions in one launch (cl/solvers/krylov_cg.cl).
 * Launched as DOT_GROUPS-limited groups of DOT_WG (host/solvers/vectors.c). */
__kernel void block_jacobi_apply_dot2(const int nunknown, __global const double *binv,
                                      __global const double *r, __global double *z,
                                      __global double *partial) {
  __local double buf[DOT_WG];
  double s = 0.0, t = 0.0;
  for (int row = get_global_id(0); row < nunknown * NF; row += get_global_size(0)) {
    const double zr = block_jacobi_row(binv, r, row);
    z[row] = zr;
    s += r[row] * zr;
    t += r[row] * r[row];
  }
  group_partials2(buf, s, t, partial);
}
