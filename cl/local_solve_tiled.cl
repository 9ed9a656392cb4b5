/* Z = S^-1 [W | F] for each element in one kernel: Gauss-Jordan elimination
 * of the augmented matrix [S | W F] (NZ rows, NC = NZ + NRHS columns) until
 * its left block is the identity; the right block is then Z (F10's first
 * product, without forming S^-1 and without the batched GEMM that would
 * multiply it).  The same pivots, in the same order, as cl/local.cl's
 * local_invert (no pivoting: see there why every pivot is > 0), and the same
 * register tiling as cl/local_invert_tiled.cl: a GRID x GRID square of
 * work-items per element, work-item (tr, tc) holding the entries
 * (tr + a GRID, tc + b GRID), a < TR = ceil(NZ / GRID), b < TC =
 * ceil(NC / GRID).  Step k publishes pivot row k and pivot column k in local
 * memory (two copies, alternating: one barrier per step).  Columns left of
 * the pivot's column tile are finished (unit vectors) and are skipped; the
 * rest of that tile is updated with the others and never read again.
 * Prepended: common.h.  Compile-time sizes: NZ, NRHS, GRID (host/local.c
 * builds a grid only when the tile fits in registers).  Layouts, per element,
 * column-major: S [NZ][NZ], WF and Z [NRHS][NZ]; Z starts zoff doubles into
 * its buffer. */
#define NC (NZ + NRHS)
#define TR ((NZ + GRID - 1) / GRID)
#define TC ((NC + GRID - 1) / GRID)

__kernel __attribute__((reqd_work_group_size(GRID * GRID, 1, 1)))
void local_solve_tiled(__global const double *S, __global const double *WF, __global double *Z,
                       const long zoff) {
  __local double rowk[2 * TC * GRID], colk[2 * TR * GRID];
  const int lid = get_local_id(0), tr = lid % GRID, tc = lid / GRID;
  const long e = get_group_id(0);
  __global const double *Se = S + e * NZ * NZ, *Be = WF + e * NZ * NRHS;
  __global double *Ze = Z + zoff + e * NZ * NRHS;
  double t[TR][TC], g[TR], r[TC];
#pragma unroll
  for (int a = 0; a < TR; a++)
#pragma unroll
    for (int b = 0; b < TC; b++) {
      const int i = tr + a * GRID, j = tc + b * GRID;
      t[a][b] = i >= NZ ? 0.0 : j < NZ ? Se[j * NZ + i] : j < NC ? Be[(j - NZ) * NZ + i] : 0.0;
    }
  /* Step k = kb GRID + kk: kb is unrolled, so t[.][kb] is a register and the
   * finished tiles b < kb are skipped at compile time. */
#pragma unroll
  for (int kb = 0; kb < TR; kb++)
    for (int kk = 0; kk < GRID && kb * GRID + kk < NZ; kk++) {
      const int k = kb * GRID + kk, rbuf = (k & 1) * TC * GRID, cbuf = (k & 1) * TR * GRID;
      if (tc == kk)
#pragma unroll
        for (int a = 0; a < TR; a++) colk[cbuf + tr + a * GRID] = t[a][kb];
      if (tr == kk)
#pragma unroll
        for (int b = kb; b < TC; b++) rowk[rbuf + tc + b * GRID] = t[kb][b];
      barrier(CLK_LOCAL_MEM_FENCE);
      const double p = 1.0 / rowk[rbuf + k];
#pragma unroll
      for (int a = 0; a < TR; a++) g[a] = colk[cbuf + tr + a * GRID] * p;
#pragma unroll
      for (int b = kb; b < TC; b++) r[b] = rowk[rbuf + tc + b * GRID];
      /* row k: a_kj / a_kk; rows i != k: a_ij - (a_ik / a_kk) a_kj */
#pragma unroll
      for (int a = 0; a < TR; a++) {
        const bool row_k = a == kb && tr == kk;
#pragma unroll
        for (int b = kb; b < TC; b++) t[a][b] = row_k ? r[b] * p : t[a][b] - g[a] * r[b];
      }
    }
#pragma unroll
  for (int a = 0; a < TR; a++)
#pragma unroll
    for (int b = 0; b < TC; b++) {
      const int i = tr + a * GRID, j = tc + b * GRID;
      if (i < NZ && j >= NZ && j < NC) Ze[(j - NZ) * NZ + i] = t[a][b];
    }
}
