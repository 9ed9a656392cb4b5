/* u* (F12) on affine elements by Gauss-Jordan in registers, one element per
 * work-group of GRID x GRID work-items: the system of cl/pipeline/recover.cl's
 * postprocess,
 *   |J| sum_lm G_lm Kpost_lm u* = -(|J|/kappa) sum_l sum_k Jinv[l][k] Dpost_l q_k,
 * on the modes 1..NP1-1, with mode 0 as an identity row whose right-hand side
 * is u_0 (u*_0 = u_0: in the orthonormal basis phi+_0 is the only mode with a
 * non-zero mean), so that the right block left by the elimination is u*
 * itself, every mode, one column per component.  Vector problems (NCOMP >
 * 1): (E10), component c from row c of H (q [e][c][DIM][NP]) in place of
 * -q / kappa; a tensor kappa: K^-1 q in place of q / kappa (F12t).  The
 * elimination is cl/pipeline/gauss_jordan_tiled.h's with GJ_ROWS = NP1, GJ_COLS =
 * NP1 + NCOMP (the host's -D options).  Prepended: common.h, problems.h,
 * geometry.h, gauss_jordan_tiled.h. */
__kernel __attribute__((reqd_work_group_size(GRID * GRID, 1, 1)))
void postprocess_tiled(const int e0, __global const double *coords,
                       __global const int *elem_verts, __global const double *kappa_e,
                       __global const double *kpost, /* [DIM*DIM][NP1][NP1] */
                       __global const double *dpost, /* [DIM][NP1][NP] */
                       __global const double *u, __global const double *q,
                       __global double *ustar) {
  __local double rowk[2 * GJ_TC * GRID], colk[2 * GJ_TR * GRID];
  __local double v[NCOMP * DIM * NP]; /* scale sum_k jq[l][k] q_k, per component and l */
  __local double rhs[NCOMP * NP1];
  const int lid = get_local_id(0), tr = lid % GRID, tc = lid / GRID;
  const long e = e0 + get_group_id(0);
  geometry g;
  element_geometry(e, coords, elem_verts, &g);
  double G[DIM * DIM]; /* |J| J^-1 J^-T */
  element_metric(&g, G);
  for (int lm = 0; lm < DIM * DIM; lm++) G[lm] *= g.detj;
#if NCOMP > 1
  const double scale = g.detj; /* (E10): H_c. = -q / kappa */
  const double *jq = g.jinv;
#elif defined(KAPPA_TENSOR)
  const double scale = -g.detj; /* (F12t) */
  double jq[DIM * DIM];
  kappa_jinv(g.jinv, kappa_e, e, jq);
#else
  const double scale = -(g.detj / kappa_e[e]);
  const double *jq = g.jinv;
#endif
  /* The right-hand sides: Dpost_l applied to v_l = scale sum_k Jinv[l][k] q_k. */
  for (int t = lid; t < NCOMP * DIM * NP; t += GRID * GRID) {
    const int j = t % NP, l = (t / NP) % DIM, cc = t / (NP * DIM);
    __global const double *qc = q + (e * NCOMP + cc) * DIM * ROW_NP;
    double s = 0.0;
    for (int k = 0; k < DIM; k++) s += jq[l * DIM + k] * qc[k * ROW_NP + j];
    v[t] = scale * s;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int t = lid; t < NCOMP * NP1; t += GRID * GRID) {
    const int i = t % NP1, cc = t / NP1;
    double s = 0.0;
    if (i == 0)
      s = u[(e * NCOMP + cc) * ROW_NP];
    else
      for (int l = 0; l < DIM; l++) {
        __global const double *D = dpost + (l * NP1 + i) * NP;
        __local const double *vl = v + (cc * DIM + l) * NP;
        for (int j = 0; j < NP; j++) s += D[j] * vl[j];
      }
    rhs[t] = s;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  double t[GJ_TR][GJ_TC];
#pragma unroll
  for (int a = 0; a < GJ_TR; a++)
#pragma unroll
    for (int b = 0; b < GJ_TC; b++) {
      const int i = tr + a * GRID, j = tc + b * GRID;
      double x = 0.0;
      if (i < NP1 && j < NP1) {
        if (i == 0 || j == 0)
          x = i == j ? 1.0 : 0.0;
        else
          for (int lm = 0; lm < DIM * DIM; lm++) x += G[lm] * kpost[(lm * NP1 + i) * NP1 + j];
      } else if (i < NP1 && j < GJ_COLS) {
        x = rhs[(j - NP1) * NP1 + i];
      }
      t[a][b] = x;
    }
  /* u* [e][c][ROW_NP1]: the right block, stored by the elimination's last step. */
  gauss_jordan_tiled(t, tr, tc, rowk, colk, ustar + e * NCOMP * ROW_NP1);
}
