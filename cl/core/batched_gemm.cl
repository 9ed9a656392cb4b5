/* Batched dense products C_e = alpha op(A_e) op(B_e) + beta C_e, all
 * column-major, op(A) GM x GK: A, or with TRANS_A A^T (A stored GK x GM);
 * op(B) GK x GN: B, or with TRANS_B B^T (B stored GN x GK).  For the local
 * stage's Z = S^-1 [W | F] (NN) and K = K0 - [W | F]^T Z (TN, (F10)), where
 * CLBlast's untuned direct GEMM is slow at those shapes (host/core/batched_gemm.c
 * times both and keeps the faster).
 *
 * One work-group computes a TM x TN tile of one C_e; its TX x TY work-items
 * (TX = TM / RM, TY = TN / RN) each hold RM x RN entries in registers, rows
 * tx + r TX and columns ty + c TY, so neighbouring work-items touch
 * neighbouring rows (coalesced stores, conflict-free local reads).  The sum
 * over k goes in slices of KB: the group copies op(A)'s TM x KB and B's
 * KB x TN slices to local memory (zero outside the matrices), then every
 * work-item does its RM RN KB multiply-adds from there.
 *
 * Compile-time: GM GN GK, TRANS_A TRANS_B, LDA LDB LDC, TM TN RM RN KB.
 * Arguments: A, B, C with their offsets and strides between elements (in
 * doubles), alpha, beta (beta = 0 does not read C). */
#define TX (TM / RM)
#define TY (TN / RN)
#define TILES_M ((GM + TM - 1) / TM)
#define TILES_N ((GN + TN - 1) / TN)
#define AS_LD (TM + 1) /* padded: the copy's stores spread over the banks */
#define BS_LD (TN + 1)

__kernel __attribute__((reqd_work_group_size(TX * TY, 1, 1)))
void batched_gemm(const double alpha, __global const double *A, const long a_off,
                  const long a_stride, __global const double *B, const long b_off,
                  const long b_stride, const double beta, __global double *C, const long c_off,
                  const long c_stride) {
  __local double as[KB * AS_LD];
  __local double bs[KB * BS_LD];
  const long g = get_group_id(0);
  const long e = g / (TILES_M * TILES_N);
  const int tile = (int)(g - e * (TILES_M * TILES_N));
  const int m0 = (tile % TILES_M) * TM, n0 = (tile / TILES_M) * TN;
  const int lid = (int)get_local_id(0), tx = lid % TX, ty = lid / TX;
  __global const double *Ae = A + a_off + e * a_stride;
  __global const double *Be = B + b_off + e * b_stride;
  double acc[RM][RN];
  for (int r = 0; r < RM; r++)
    for (int c = 0; c < RN; c++) acc[r][c] = 0.0;
  for (int k0 = 0; k0 < GK; k0 += KB) {
    for (int t = lid; t < KB * TM; t += TX * TY) {
#if TRANS_A /* A^T: column i of A holds row i of op(A), k fastest */
      const int kk = t % KB, i = t / KB;
      const bool in = m0 + i < GM && k0 + kk < GK;
      as[kk * AS_LD + i] = in ? Ae[(long)(m0 + i) * LDA + k0 + kk] : 0.0;
#else
      const int i = t % TM, kk = t / TM;
      const bool in = m0 + i < GM && k0 + kk < GK;
      as[kk * AS_LD + i] = in ? Ae[(long)(k0 + kk) * LDA + m0 + i] : 0.0;
#endif
    }
    for (int t = lid; t < KB * TN; t += TX * TY) {
#if TRANS_B /* B^T: column kk of B holds row kk of op(B), j fastest */
      const int j = t % TN, kk = t / TN;
      const bool in = n0 + j < GN && k0 + kk < GK;
      bs[kk * BS_LD + j] = in ? Be[(long)(k0 + kk) * LDB + n0 + j] : 0.0;
#else
      const int kk = t % KB, j = t / KB;
      const bool in = n0 + j < GN && k0 + kk < GK;
      bs[kk * BS_LD + j] = in ? Be[(long)(n0 + j) * LDB + k0 + kk] : 0.0;
#endif
    }
    barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
    for (int kk = 0; kk < KB; kk++) {
      double a[RM], b[RN];
      for (int r = 0; r < RM; r++) a[r] = as[kk * AS_LD + tx + r * TX];
      for (int c = 0; c < RN; c++) b[c] = bs[kk * BS_LD + ty + c * TY];
      for (int r = 0; r < RM; r++)
        for (int c = 0; c < RN; c++) acc[r][c] = fma(a[r], b[c], acc[r][c]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  __global double *Ce = C + c_off + e * c_stride;
  for (int c = 0; c < RN; c++) {
    const int j = n0 + ty + c * TY;
    if (j >= GN) continue;
    for (int r = 0; r < RM; r++) {
      const int i = m0 + tx + r * TX;
      if (i >= GM) continue;
      __global double *cij = Ce + (long)j * LDC + i;
      *cij = beta == 0.0 ? alpha * acc[r][c] : fma(alpha, acc[r][c], beta * *cij);
    }
  }
}
