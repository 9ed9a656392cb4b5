/* Cholesky factor and solves of one NZ x NZ SPD matrix by one work-item,
 * the form for CPUs (cl/local_cholesky_solve.cl, cl/local_element.cl):
 * every inner loop runs along contiguous memory, so the compiler vectorises
 * it.  The right-hand sides are held transposed, row i its NRHS values, so
 * that every step of a solve is an axpy of NRHS values (on 2 cores, PoCL
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

/* S = L L^T, right-looking, in place in a's lower triangle (column-major):
 * column k of L is S's column k over L_kk, then column j > k loses L_jk
 * times column k of L (an axpy down column j); L_jk is mirrored to (k, j),
 * so the upper triangle holds L^T by columns.  Reads the lower triangle
 * only.  Flops NZ^3 / 3. */
void cholesky_factor(CHOL_A_SPACE double *a) {
  for (int k = 0; k < NZ; k++) {
    CHOL_A_SPACE double *lk = a + k * NZ; /* column k */
    const double d = sqrt(lk[k]), inv = 1.0 / d;
    lk[k] = d;
    for (int i = k + 1; i < NZ; i++) lk[i] *= inv;
    for (int j = k + 1; j < NZ; j++) {
      CHOL_A_SPACE double *cj = a + j * NZ;
      const double ljk = lk[j];
      for (int i = j; i < NZ; i++) cj[i] -= ljk * lk[i];
      cj[k] = ljk; /* (k, j) = L^T's entry */
    }
  }
}

/* The right-hand sides: row i of B is w[i NRP .. i NRP + NRHS), padded with
 * zeros to NRP, a multiple of 4, so that every step is an explicit vector
 * axpy of NRP / 4 double4s (PoCL 3.1 left the scalar loops unvectorised). */
#define NRP ((NRHS + 3) / 4 * 4)

/* w[i NRP ..] -= l w[k NRP ..] (rows i and k of the right-hand sides). */
void row_axpy(CHOL_W_SPACE double *wi, const double l, CHOL_W_SPACE const double *wk) {
#pragma unroll
  for (int c = 0; c < NRP / 4; c++) vstore4(vload4(c, wi) - l * vload4(c, wk), c, wi);
}

/* w[k NRP ..] *= v */
void row_scale(CHOL_W_SPACE double *wk, const double v) {
#pragma unroll
  for (int c = 0; c < NRP / 4; c++) vstore4(v * vload4(c, wk), c, wk);
}

/* L Y = B in place on w: after row k of Y, row i > k loses L_ik times it.
 * Flops NZ^2 NRHS. */
void cholesky_forward(CHOL_A_SPACE const double *a, CHOL_W_SPACE double *w) {
  for (int k = 0; k < NZ; k++) {
    CHOL_A_SPACE const double *lk = a + k * NZ;
    row_scale(w + k * NRP, 1.0 / lk[k]);
    for (int i = k + 1; i < NZ; i++) row_axpy(w + i * NRP, lk[i], w + k * NRP);
  }
}

/* L^T Z = Y in place on w: after row k of Z, row i < k loses L_ki (column k
 * of L^T, the mirrored upper triangle) times it.  Flops NZ^2 NRHS. */
void cholesky_backward(CHOL_A_SPACE const double *a, CHOL_W_SPACE double *w) {
  for (int k = NZ - 1; k >= 0; k--) {
    CHOL_A_SPACE const double *uk = a + k * NZ;
    row_scale(w + k * NRP, 1.0 / uk[k]);
    for (int i = 0; i < k; i++) row_axpy(w + i * NRP, uk[i], w + k * NRP);
  }
}

#endif
