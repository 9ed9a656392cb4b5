/* S <- S^-1 for each element by the Gauss-Jordan steps of cl/pipeline/local.cl's
 * local_invert (in place, without pivoting: see there why every pivot is
 * > 0), with the matrix in registers.  A GRID x GRID square of work-items per
 * element: work-item (tr, tc) holds the entries (tr + a GRID, tc + b GRID),
 * a, b < TILE = ceil(NZ / GRID).  Step k needs only pivot row k and pivot
 * column k, which their owners publish in local memory (two copies,
 * alternating, so that one barrier per step suffices); each work-item then
 * reads 2 TILE values for its TILE^2 updates, where local_invert reads two
 * and writes one local value per update (its limit on GPUs is local-memory
 * bandwidth).  Prepended: common.h.  Compile-time sizes: NZ, GRID (host/pipeline/local.c
 * builds a grid only when TILE <= 8, so that the tile stays in registers).
 * S is NZ x NZ per element, column-major; either layout works (the inverse of
 * the transpose is the transpose of the inverse). */
#define TILE ((NZ + GRID - 1) / GRID)

__kernel __attribute__((reqd_work_group_size(GRID * GRID, 1, 1)))
void local_invert_tiled(__global double *S) {
  __local double rowk[2 * TILE * GRID], colk[2 * TILE * GRID];
  const int lid = get_local_id(0), tr = lid % GRID, tc = lid / GRID;
  __global double *Se = S + (long)get_group_id(0) * NZ * NZ;
  double t[TILE][TILE], g[TILE], r[TILE];
#pragma unroll
  for (int a = 0; a < TILE; a++)
#pragma unroll
    for (int b = 0; b < TILE; b++) {
      const int i = tr + a * GRID, j = tc + b * GRID;
      t[a][b] = (i < NZ && j < NZ) ? Se[j * NZ + i] : 0.0;
    }
  /* Step k = kb GRID + kk: kb is unrolled, so t[.][kb] is a register. */
#pragma unroll
  for (int kb = 0; kb < TILE; kb++)
    for (int kk = 0; kk < GRID && kb * GRID + kk < NZ; kk++) {
      const int k = kb * GRID + kk, buf = (k & 1) * TILE * GRID;
      if (tc == kk)
#pragma unroll
        for (int a = 0; a < TILE; a++) colk[buf + tr + a * GRID] = t[a][kb];
      if (tr == kk)
#pragma unroll
        for (int b = 0; b < TILE; b++) rowk[buf + tc + b * GRID] = t[kb][b];
      barrier(CLK_LOCAL_MEM_FENCE);
      const double p = 1.0 / rowk[buf + k];
#pragma unroll
      for (int a = 0; a < TILE; a++) g[a] = colk[buf + tr + a * GRID] * p;
#pragma unroll
      for (int b = 0; b < TILE; b++) r[b] = rowk[buf + tc + b * GRID];
      /* rows i != k: a_ij -= g_i a_kj (j != k), a_ik = -g_i; row k: a_kj / a_kk, a_kk = 1 / a_kk */
#pragma unroll
      for (int a = 0; a < TILE; a++)
#pragma unroll
        for (int b = 0; b < TILE; b++) {
          const bool row_k = a == kb && tr == kk, col_k = b == kb && tc == kk;
          if (row_k) t[a][b] = col_k ? p : r[b] * p;
          else t[a][b] = col_k ? -g[a] : t[a][b] - g[a] * r[b];
        }
    }
#pragma unroll
  for (int a = 0; a < TILE; a++)
#pragma unroll
    for (int b = 0; b < TILE; b++) {
      const int i = tr + a * GRID, j = tc + b * GRID;
      if (i < NZ && j < NZ) Se[j * NZ + i] = t[a][b];
    }
}
