/* Z = S^-1 [W | F] for each element in one kernel: Gauss-Jordan elimination
 * of the augmented matrix [S | W F] (NZ rows, NC = NZ + NRHS columns) until
 * its left block is the identity; the right block is then Z (F10's first
 * product, without forming S^-1 and without the batched GEMM that would
 * multiply it).  The same pivots, in the same order, as cl/pipeline/local.cl's
 * local_invert (no pivoting: see there why every pivot is > 0), and the same
 * register tiling as cl/pipeline/local_invert_tiled.cl; the elimination is
 * cl/pipeline/gauss_jordan_tiled.h's, on GJ_ROWS = NZ rows and GJ_COLS = NZ + NRHS
 * columns.  Prepended: common.h, gauss_jordan_tiled.h.  Compile-time sizes:
 * NZ, NRHS, GRID.  Layouts,
 * per element, column-major: S [NZ][NZ], WF and Z [NRHS][NZ]; Z starts zoff
 * doubles into its buffer. */

__kernel __attribute__((reqd_work_group_size(GRID * GRID, 1, 1)))
void local_solve_tiled(__global const double *S, __global const double *WF, __global double *Z,
                       const long zoff) {
  __local double rowk[2 * GJ_TC * GRID], colk[2 * GJ_TR * GRID];
  const int lid = get_local_id(0), tr = lid % GRID, tc = lid / GRID;
  const long e = get_group_id(0);
  __global const double *Se = S + e * NZ * NZ, *Be = WF + e * NZ * NRHS;
  __global double *Ze = Z + zoff + e * NZ * NRHS;
  double t[GJ_TR][GJ_TC];
#pragma unroll
  for (int a = 0; a < GJ_TR; a++)
#pragma unroll
    for (int b = 0; b < GJ_TC; b++) {
      const int i = tr + a * GRID, j = tc + b * GRID;
      t[a][b] = i >= NZ ? 0.0 : j < NZ ? Se[j * NZ + i] : j < GJ_COLS ? Be[(j - NZ) * NZ + i] : 0.0;
    }
  gauss_jordan_tiled(t, tr, tc, rowk, colk, 0);
#pragma unroll
  for (int a = 0; a < GJ_TR; a++)
#pragma unroll
    for (int b = 0; b < GJ_TC; b++) {
      const int i = tr + a * GRID, j = tc + b * GRID;
      if (i < NZ && j >= NZ && j < GJ_COLS) Ze[(j - NZ) * NZ + i] = t[a][b];
    }
}
