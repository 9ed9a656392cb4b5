/* Gauss-Jordan elimination in registers, shared by cl/pipeline/local_solve_tiled.cl
 * (Z = S^-1 [W | F]) and cl/pipeline/postprocess_tiled.cl (u* of (F12)).
 *
 * The augmented matrix [A | B] has GJ_ROWS rows and GJ_COLS > GJ_ROWS columns, one matrix
 * per work-group of GRID x GRID work-items: work-item (tr, tc) holds the
 * entries (tr + a GRID, tc + b GRID), a < GJ_TR = ceil(GJ_ROWS / GRID), b < GJ_TC =
 * ceil(GJ_COLS / GRID), in t[a][b] (zero outside the matrix).  Eliminating until
 * the left block is the identity leaves A^-1 B in the right block.  No
 * pivoting: A must have non-zero leading minors (both users' A are SPD, or
 * as cl/pipeline/local.cl's local_invert explains).  Step k publishes pivot row k and
 * pivot column k in local memory (two copies, alternating: one barrier per
 * step).  Columns left of the pivot's column tile are finished (unit
 * vectors) and are skipped; the rest of that tile is updated with the others
 * and never read again.  Compile-time sizes (-D options of the
 * program): GJ_ROWS, GJ_COLS, GRID (the host builds a
 * grid only when the tile fits in registers). */
#define GJ_TR ((GJ_ROWS + GRID - 1) / GRID)
#define GJ_TC ((GJ_COLS + GRID - 1) / GRID)
/* Pivots: all GJ_ROWS rows unless the program sets fewer.  With GJ_PIVOTS =
 * n < GJ_ROWS on [[A, B], [C, D]] (A n x n) the elimination stops after
 * A's columns, leaving A^-1 B above and the Schur complement D - C A^-1 B
 * below (cl/pipeline/local_element_tiled.cl). */
#ifndef GJ_PIVOTS
#define GJ_PIVOTS GJ_ROWS
#endif
/* out's column stride (postprocess_tiled: ROW_NP1, a mixed mesh's widest rows). */
#ifndef GJ_OUT_STRIDE
#define GJ_OUT_STRIDE GJ_ROWS
#endif

/* rowk: 2 GJ_TC GRID doubles, colk: 2 GJ_TR GRID doubles of local memory.
 * out (or 0): the right block is also stored there, column by column
 * (out[(j - GJ_ROWS) GJ_OUT_STRIDE + i], GJ_ROWS = GJ_PIVOTS), in the last step
 * itself.  postprocess_tiled stores u* so: PoCL 5.0 sometimes compiled its
 * store after the elimination with the last updated tile entry carried
 * out of the step's barrier region as one value for every work-item, not one
 * per work-item (a nondeterministic compile, docs/reliability.md). */
void gauss_jordan_tiled(double t[GJ_TR][GJ_TC], const int tr, const int tc,
                        __local double *rowk, __local double *colk, __global double *out) {
  double g[GJ_TR], r[GJ_TC];
  /* Step k = kb GRID + kk: kb is unrolled, so t[.][kb] is a register and the
   * finished tiles b < kb are skipped at compile time. */
#pragma unroll
  for (int kb = 0; kb < (GJ_PIVOTS + GRID - 1) / GRID; kb++)
    for (int kk = 0; kk < GRID && kb * GRID + kk < GJ_PIVOTS; kk++) {
      const int k = kb * GRID + kk, rbuf = (k & 1) * GJ_TC * GRID, cbuf = (k & 1) * GJ_TR * GRID;
      if (tc == kk)
#pragma unroll
        for (int a = 0; a < GJ_TR; a++) colk[cbuf + tr + a * GRID] = t[a][kb];
      if (tr == kk)
#pragma unroll
        for (int b = kb; b < GJ_TC; b++) rowk[rbuf + tc + b * GRID] = t[kb][b];
      barrier(CLK_LOCAL_MEM_FENCE);
      const double p = 1.0 / rowk[rbuf + k];
#pragma unroll
      for (int a = 0; a < GJ_TR; a++) g[a] = colk[cbuf + tr + a * GRID] * p;
#pragma unroll
      for (int b = kb; b < GJ_TC; b++) r[b] = rowk[rbuf + tc + b * GRID];
      /* row k: a_kj / a_kk; rows i != k: a_ij - (a_ik / a_kk) a_kj */
#pragma unroll
      for (int a = 0; a < GJ_TR; a++) {
        const bool row_k = a == kb && tr == kk;
#pragma unroll
        for (int b = kb; b < GJ_TC; b++) t[a][b] = row_k ? r[b] * p : t[a][b] - g[a] * r[b];
      }
      if (out && k == GJ_PIVOTS - 1)
#pragma unroll
        for (int a = 0; a < GJ_TR; a++)
#pragma unroll
          for (int b = 0; b < GJ_TC; b++) {
            const int i = tr + a * GRID, j = tc + b * GRID;
            if (i < GJ_ROWS && j >= GJ_ROWS && j < GJ_COLS) out[(j - GJ_ROWS) * GJ_OUT_STRIDE + i] = t[a][b];
          }
    }
}
