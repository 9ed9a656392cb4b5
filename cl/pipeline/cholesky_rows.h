/* Cholesky factor and solves of one NZ x NZ SPD matrix by one work-item,
 * the form for CPUs (cl/pipeline/local_cholesky_solve.cl, cl/pipeline/local_element.cl):
 * every inner loop runs along contiguous memory, so the compiler vectorises
 * it.  The right-hand sides are held transposed, row i its NRHS values, so
 * that every step of a solve works on whole rows of NRHS values (on 2 cores, PoCL
 * 3.1, square:40 p = 5, 7, 9: 13.6, 36.2, 77.6 ms column by column, 8.6,
 * 19.9, 57.9 ms so), in double4s (NRP).
 * The address spaces of the matrix (CHOL_A_SPACE) and of the right-hand
 * sides (CHOL_W_SPACE) are the program's: __global and __private unless it
 * defines them (-D options).  Compile-time sizes: NZ, NRHS. */
#ifndef HDGCL_CL_CHOLESKY_ROWS_H
#define HDGCL_CL_CHOLESKY_ROWS_H
#ifndef CHOL_A_SPACE
#define CHOL_A_SPACE __global
#endif
#ifndef CHOL_W_SPACE
#define CHOL_W_SPACE __private
#endif

/* Column k of L from S's column k, already updated by the columns before it
 * (right-looking): its diagonal's square root, the rest over it. */
void cholesky_column(CHOL_A_SPACE double *lk, const int k) {
  const double d = sqrt(lk[k]), inv = 1.0 / d;
  lk[k] = d;
  for (int i = k + 1; i < NZ; i++) lk[i] *= inv;
}

/* S = L L^T, right-looking, in place in a's lower triangle (column-major),
 * in panels of four columns: the panel's columns of L one by one (each
 * updating the panel's later columns), then every column j to the right
 * loses the rank-4 product sum_t L_j(k0+t) L_:(k0+t) in one pass down it
 * (four times fewer passes over the trailing matrix than one column at a
 * time: on 2 cores, PoCL 3.1, square:40 p = 9 the factor went from about 11
 * to 6 ms of local_element's 70).  L_jk is mirrored to (k, j), so the upper
 * triangle holds L^T by columns.  Reads the lower triangle only.
 * Flops NZ^3 / 3. */
void cholesky_factor(CHOL_A_SPACE double *a) {
  for (int k0 = 0; k0 < NZ; k0 += 4) {
    const int k1 = k0 + 4 < NZ ? k0 + 4 : NZ; /* the panel: columns k0 .. k1 - 1 */
    for (int k = k0; k < k1; k++) {
      CHOL_A_SPACE double *lk = a + k * NZ;
      cholesky_column(lk, k);
      for (int j = k + 1; j < k1; j++) {
        CHOL_A_SPACE double *cj = a + j * NZ;
        const double ljk = lk[j];
        for (int i = j; i < NZ; i++) cj[i] -= ljk * lk[i];
        cj[k] = ljk; /* (k, j) = L^T's entry */
      }
    }
    if (k1 - k0 < 4) break; /* the last, narrower panel has no columns to its right */
    CHOL_A_SPACE const double *l0 = a + k0 * NZ, *l1 = l0 + NZ, *l2 = l1 + NZ, *l3 = l2 + NZ;
    for (int j = k1; j < NZ; j++) {
      CHOL_A_SPACE double *cj = a + j * NZ;
      const double s0 = l0[j], s1 = l1[j], s2 = l2[j], s3 = l3[j];
      for (int i = j; i < NZ; i++) cj[i] -= s0 * l0[i] + s1 * l1[i] + s2 * l2[i] + s3 * l3[i];
      cj[k0] = s0;
      cj[k0 + 1] = s1;
      cj[k0 + 2] = s2;
      cj[k0 + 3] = s3;
    }
  }
}

/* The right-hand sides: row i of B is w[i NRP .. i NRP + NRHS), padded with
 * zeros to NRP, a multiple of 4, so that every step is an explicit vector
 * operation on NRP / 4 double4s (PoCL 3.1 left the scalar loops unvectorised). */
#define NRP ((NRHS + 3) / 4 * 4)

/* A row stored from its double4 accumulators, scaled by inv. */
void row_store(double4 *acc, const double inv, CHOL_W_SPACE double *w0) {
#pragma unroll
  for (int c = 0; c < NRP / 4; c++) vstore4(inv * acc[c], c, w0);
}

/* Rows k (acc0, finished first, scale inv0) and k' (acc1: loses l10 times
 * row k's solution, then scale inv1) stored from their accumulators. */
void row_pair_store(double4 *acc0, double4 *acc1, const double inv0, const double l10,
                    const double inv1, CHOL_W_SPACE double *w0, CHOL_W_SPACE double *w1) {
#pragma unroll
  for (int c = 0; c < NRP / 4; c++) {
    const double4 x0 = inv0 * acc0[c];
    vstore4(x0, c, w0);
    vstore4(inv1 * (acc1[c] - l10 * x0), c, w1);
  }
}

/* Both solves, in place on w, left-looking and two rows at a time:
 *   forward  (L Y = B):   Y_k = (B_k - sum_{i<k} L_ki Y_i) / L_kk, k = 0, 1, ...
 *   backward (L^T Z = Y): Z_k = (Y_k - sum_{i>k} L_ik Z_i) / L_kk, k = NZ-1, ...
 * Column k of a holds both coefficient sets contiguously: L_ki (i < k) in
 * the mirrored upper triangle, L_ik (i > k) below the diagonal.  Rows k and
 * k' = k +- 1 stay in double4 registers while every finished row i is read
 * once and subtracted from both: one load per two vector FMAs, where the
 * right-looking form loaded and stored row i for each k (on 2 cores, PoCL
 * 3.1, square:40 p = 9 the two solves went from about 16 to 9 ms of
 * local_element's 70).  Flops NZ^2 NRHS each. */
void cholesky_solve_rows(CHOL_A_SPACE const double *a, CHOL_W_SPACE double *w, const bool forward) {
  for (int t = 0; t < NZ; t += 2) {
    const int k = forward ? t : NZ - 1 - t;
    const int k1 = t + 1 == NZ ? k : forward ? k + 1 : k - 1; /* an odd NZ's last row: alone */
    CHOL_A_SPACE const double *c0 = a + k * NZ, *c1 = a + k1 * NZ;
    CHOL_W_SPACE double *w0 = w + k * NRP, *w1 = w + k1 * NRP;
    double4 acc0[NRP / 4], acc1[NRP / 4];
#pragma unroll
    for (int c = 0; c < NRP / 4; c++) {
      acc0[c] = vload4(c, w0);
      acc1[c] = vload4(c, w1);
    }
    const int i0 = forward ? 0 : k + 1, i1 = forward ? k : NZ; /* the finished rows */
    for (int i = i0; i < i1; i++) {
      const double l0 = c0[i], l1 = c1[i];
      CHOL_W_SPACE const double *wi = w + i * NRP;
#pragma unroll
      for (int c = 0; c < NRP / 4; c++) {
        const double4 v = vload4(c, wi);
        acc0[c] -= l0 * v;
        acc1[c] -= l1 * v;
      }
    }
    if (k1 == k)
      row_store(acc0, 1.0 / c0[k], w0);
    else /* c1[k]: L_(k+1)k forward, L_k(k-1) backward */
      row_pair_store(acc0, acc1, 1.0 / c0[k], c1[k], 1.0 / c1[k1], w0, w1);
  }
}

/* L Y = B in place on w. */
void cholesky_forward(CHOL_A_SPACE const double *a, CHOL_W_SPACE double *w) {
  cholesky_solve_rows(a, w, true);
}

/* L^T Z = Y in place on w. */
void cholesky_backward(CHOL_A_SPACE const double *a, CHOL_W_SPACE double *w) {
  cholesky_solve_rows(a, w, false);
}

#endif
