/* Local stage (docs/formulation.md sections 7-8): the SPD local matrix S
 * (F13) by local_build_s, SB elements per work-group, which also writes each
 * element's factors of K0 = H + C^T A^-1 C (F15) and of [W | F]; [W | F]
 * (F14), (F16) by local_build; then Z = S^-1 [W | F] (S^-1 by local_invert
 * or cl/pipeline/local_invert_tiled.cl and a CLBlast GEMM, or cl/pipeline/local_solve_tiled.cl,
 * or cl/pipeline/local_solve_columns.cl), and K = K0 - [W | F]^T Z (F10)
 * by local_schur_k0 (K0 evaluated from its factors) or by local_k0 and a
 * CLBlast batched GEMM (host/pipeline/local.c).
 * With convection (NONSYMMETRIC, section 9) S is not symmetric and the trace
 * equation has its own W_t (F24): local_build also writes [W_t | F], S^-1
 * comes from Gauss-Jordan, and the second GEMM is K = K0 - [W_t | F]^T Z.
 * local_invert's S^-1 has two methods, Cholesky (SPD) and Gauss-Jordan
 * (either), one work-group per element.
 * Prepended: common.h, problems.h, geometry.h, local_factors.h (the
 * per-element factors, k0_entry).  Compile-time sizes: DIM,
 * NVERT, NFACES, NORIENT, NP, NF, NT, NQ_LOAD.
 *
 * Layouts (per element, element-major):
 *   S   [NP][NP]                 column-major, as CLBlast reads it (symmetric
 *                                without convection)
 *   WF  [NT+1][NP]   column-major NP x (NT+1): column (f,m) of W, then F
 *   WL  [NT+1][NP]   the same for [W_t | F] (NONSYMMETRIC only)
 *   KF  [NKF]                K0's factors (k0_entry)
 *   EF  [NEF]                local_build's factors (EF_*, cl/pipeline/local_factors.h)
 *   K   [NT+1][NT+1] column-major; row/column NT of K0 are zero */

#if AFFINE /* mapped elements build their matrices in cl/pipeline/local_mapped.cl */
/* (F13) S = sum_f tau_f sigma_f Pf_f + c|J| I + kappa|J| sum_lm G_lm Dm_l Dm_m^T,
 * (F25) minus |J| sum_l (J^-1 beta)_l Dm_l^T (convection): a linear
 * combination of reference tables with NWS weights per element.  A
 * work-group takes SB elements (dimension 1) and one block of entries
 * (dimension 0): the elements' weights go to local memory, each work-item
 * reads its entry of every table once and writes that entry for all SB
 * elements, so the tables are read once per SB elements, not per element.
 * The sums run in local_build's former order (the same S to the bit).
 * The work-items that compute an element's weights (one per element, in
 * the first block of entries) also form its K0 factors KF and local_build's
 * factors EF, so that no other kernel computes the element's geometry; the
 * whole group stores them. */
/* SB: elements per work-group, -DSB from host/pipeline/local.c (BUILD_S_BLOCK). */
__kernel void local_build_s(const int e0, const int n, __global const double *coords,
                            __global const int *elem_verts, __global const double *kappa_e,
                            __global const double *c_e, const double tau, const int problem_id,
                            const int problem_degree, const double problem_param,
                            __global const double *dm,    /* [DIM][NP][NP] Dm_l */
                            __global const double *dmdmt, /* [DIM*DIM][NP][NP] Dm_l Dm_m^T */
                            __global const double *pf,    /* [NFACES][NP][NP] */
                            __global double *S, __global double *KF, __global double *EF) {
  __local double w[SB][NWS]; /* tau_f sigma_f, c|J|, kappa|J| G_lm, |J| (J^-1 beta)_l */
  __local double rec[SB][NEF + NKF]; /* the factors, stored together below */
  const int eb = get_group_id(1) * SB, lid = get_local_id(0);
  problem_params pp = {problem_id, DIM, problem_degree, problem_param};
  double beta[3];
  problem_beta(pp, beta);
  const bool convection = beta[0] != 0.0 || beta[1] != 0.0 || beta[2] != 0.0;
  for (int k = lid; k < SB; k += get_local_size(0)) {
    if (eb + k >= n) break;
    const long e = e0 + eb + k;
    geometry g;
    element_geometry(e, coords, elem_verts, &g);
    const bool first = get_group_id(0) == 0; /* the first block of entries writes the factors */
    double ws[NWS], ef[NEF], kf[NKF];
    element_factors(&g, beta, tau, kappa_e, e, c_e[e], ws, first ? ef : NULL, kf);
    for (int t = 0; t < NWS; t++) w[k][t] = ws[t];
    if (!first) continue;
    for (int t = 0; t < NEF; t++) rec[k][t] = ef[t];
    for (int t = 0; t < NKF; t++) rec[k][NEF + t] = kf[t];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_group_id(0) == 0) { /* the SB elements' factors: two contiguous stores by all work-items */
    const int ne = min(SB, n - eb);
    for (int t = lid; t < ne * NEF; t += get_local_size(0))
      EF[(long)eb * NEF + t] = rec[t / NEF][t % NEF];
    for (int t = lid; t < ne * NKF; t += get_local_size(0))
      KF[(long)eb * NKF + t] = rec[t / NKF][NEF + t % NKF];
  }
  const int idx = get_global_id(0); /* S[i][j] at idx = j NP + i */
  if (idx >= NP * NP) return;
  const int i = idx % NP, j = idx / NP;
  double tp[NFACES], td[DIM * DIM], tc[DIM];
  for (int f = 0; f < NFACES; f++) tp[f] = pf[(f * NP + i) * NP + j];
  for (int lm = 0; lm < DIM * DIM; lm++) td[lm] = dmdmt[(lm * NP + i) * NP + j];
  for (int l = 0; l < DIM; l++) tc[l] = convection ? dm[(l * NP + j) * NP + i] : 0.0;
  for (int k = 0; k < SB && eb + k < n; k++) {
    double s = (i == j) ? w[k][WS_C] : 0.0;
    for (int f = 0; f < NFACES; f++) s += w[k][f] * tp[f];
    for (int lm = 0; lm < DIM * DIM; lm++) s += w[k][WS_G + lm] * td[lm];
    if (convection)
      for (int l = 0; l < DIM; l++) s -= w[k][WS_BETA + l] * tc[l];
    S[(long)(eb + k) * NP * NP + idx] = s;
  }
}

/* Rows of local_build's W tiles (BUILD_TILE, a -D option from host/pipeline/local.c):
 * at most 8 KiB of local memory for all of a group's tiles. */
#ifdef NONSYMMETRIC
#define BUILD_ROWS_MAX (512 / BEPG / (NF + 1))
#else
#define BUILD_ROWS_MAX (1024 / BEPG / (NF + 1))
#endif
#define BUILD_ROWS (NP < BUILD_ROWS_MAX ? NP : BUILD_ROWS_MAX)

/* [W | F] of BEPG elements per work-group (a -D option: several for the
 * small blocks of low orders, where one element leaves most work-items of a
 * group idle), local_size / BEPG work-items each; n elements from e0.  The
 * element's factors EF come from local_build_s: no geometry here. */
__kernel void local_build(const int e0, const int n, __global const char *elem_orient,
                          const int problem_id, const int problem_degree,
                          const double problem_param,
                          __global const double *ef,    /* [NFACES][NORIENT][NP][NF] */
                          __global const double *dmef,  /* [DIM][NFACES][NORIENT][NP][NF] */
                          __global const double *load_points,  /* [NQ_LOAD][DIM] */
                          __global const double *load_weights, /* [NQ_LOAD] */
                          __global const double *phi_load,     /* [NQ_LOAD][NP] */
                          __global const double *EF, __global double *WF, __global double *WL,
                          __global const double *element_load /* ELEMENT_LOAD: [E][NP] */) {
  const int wg = get_local_size(0) / BEPG, sub = get_local_id(0) / wg;
  const int lid = get_local_id(0) % wg, le = get_group_id(0) * BEPG + sub;
  const bool live = le < n; /* work-items of a missing last element still meet the barrier */
  const long e = e0 + (live ? le : n - 1);
  __global const double *r = EF + (long)(live ? le : n - 1) * NEF;
  __global const char *orient = elem_orient + e * ELEM_NFACES;
  __local double fq_all[BEPG][NQ_LOAD];
  __local double *fq = fq_all[sub];
  problem_params pp = {problem_id, DIM, problem_degree, problem_param};

  /* (F14) W_f = sigma_f [(tau_f - beta.n_f) Ef + kappa sum_l (J^-1 n_f)_l Dm_l Ef];
   * (F25) W_t,f = W_f + sigma_f (beta.n_f) Ef. */
  __global double *WFe = WF + (long)le * NP * (NT + 1);
  __global double *WLe = WL + (long)le * NP * (NT + 1);
#if BUILD_TILE
  /* Face by face, BUILD_ROWS rows i at a time, the tables' rows (NF entries
   * each, contiguous) are read coalesced into a local tile, which is written
   * out by columns (contiguous in W, column-major): the same products as
   * below, in the same order.  The host takes this where the element's
   * slices of the tables outgrow the cache (tetrahedra p = 7: 13.2 -> 4.8 ms
   * on the H100, perf/results/stop21; p = 3-5 were 12-16% slower). */
  __local double wt_all[BEPG][BUILD_ROWS * (NF + 1)];
  __local double *wt = wt_all[sub];
#ifdef NONSYMMETRIC
  __local double wlt_all[BEPG][BUILD_ROWS * (NF + 1)];
  __local double *wlt = wlt_all[sub];
#endif
  for (int f = 0; f < NFACES; f++) {
    const int o = orient[f];
    for (int i0 = 0; i0 < NP; i0 += BUILD_ROWS) {
      const int rows = min(BUILD_ROWS, NP - i0);
      for (int t = lid; t < rows * NF; t += wg) {
        const int i = i0 + t / NF, m = t % NF;
        const double efv = ef[((f * NORIENT + o) * NP + i) * NF + m];
        const double w = w_entry(r, efv, dmef, f, o, i, m);
        wt[(t / NF) * (NF + 1) + m] = w;
#ifdef NONSYMMETRIC
        wlt[(t / NF) * (NF + 1) + m] = w + r[EF_C + f] * efv;
#endif
      }
      barrier(CLK_LOCAL_MEM_FENCE);
      for (int t = lid; live && t < rows * NF; t += wg) {
        const int m = t / rows, ii = t % rows;
        WFe[(f * NF + m) * NP + i0 + ii] = wt[ii * (NF + 1) + m];
#ifdef NONSYMMETRIC
        WLe[(f * NF + m) * NP + i0 + ii] = wlt[ii * (NF + 1) + m];
#endif
      }
      barrier(CLK_LOCAL_MEM_FENCE);
    }
  }
#else
  for (int idx = lid; live && idx < NT * NP; idx += wg) {
    const int col = idx / NP, i = idx % NP;
    const int f = col / NF, m = col % NF, o = orient[f];
    const double efv = ef[((f * NORIENT + o) * NP + i) * NF + m];
    const double w = w_entry(r, efv, dmef, f, o, i, m);
    WFe[idx] = w;
#ifdef NONSYMMETRIC
    WLe[idx] = w + r[EF_C + f] * efv;
#endif
  }
#endif

  /* (F16) F_i = |J| sum_q w_q phi_i(xi_q) f(x_q) */
  for (int q = lid; q < NQ_LOAD; q += wg) {
    fq[q] = load_value(pp, r, load_points, load_weights, q);
#ifdef ELEMENT_LOAD
    fq[q] += load_weights[q] * element_load_at(element_load, e, phi_load, q);
#endif
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  const double detj = r[EF_DETJ];
  for (int i = lid; live && i < NP; i += wg) {
    double s = 0.0;
    for (int q = 0; q < NQ_LOAD; q++) s += fq[q] * phi_load[q * NP + i];
    WFe[NT * NP + i] = detj * s;
#ifdef NONSYMMETRIC
    WLe[NT * NP + i] = detj * s;
#endif
  }
}

/* K0 of n elements from e0 into K (column-major (NT+1)^2 per element), one
 * work-item per entry: before K -= [W | F]^T Z by a batched GEMM. */
__kernel void local_k0(const int e0, const int n, __global const double *KF,
                       __global const char *elem_orient, __global const double *efef,
                       __global double *K) {
  const long gid = get_global_id(0);
  if (gid >= (long)n * (NT + 1) * (NT + 1)) return;
  const long le = gid / ((NT + 1) * (NT + 1));
  const int idx = (int)(gid - le * (NT + 1) * (NT + 1));
  K[gid] = k0_entry(KF + le * NKF, elem_orient + (e0 + le) * ELEM_NFACES, efef, idx % (NT + 1),
                    idx / (NT + 1));
}

#endif /* AFFINE */

#if AFFINE && NCOMP > 1
/* Linear elasticity (docs/elasticity.md, "Device pipeline"): per element the
 * (u, p) system Z of (E8) with H already eliminated (E7), [Wext | Fext], and
 * K0 (x) I_d, from the same reference tables as local_build.  On an affine
 * simplex the mass matrix is M = |J| I (orthonormal basis), so H = M^-1 (...)
 * is eliminated entry by entry: S0, W0 and K0 of (E7) are local_build's S, W
 * and K0 with kappa = mu, c = 0, and B_i[a][b] = -(phi_b, d_i phi_a)_K =
 * -|J| sum_l Jinv[l][i] Dm_l[b][a].  The Lame parameters are the element's
 * (mu_e, lambda_e; mu, lambda are the problem's, for its load); an element
 * with mu_e > mu0 (the mesh's smallest) adds w = mu_e - mu0 times the terms
 * of (E17) to Z, Wext and K.  With NONSYMMETRIC (traction data) the
 * trace equations' left factor [Wext + P | Fext] goes to WL and K gets -Q on
 * the rows of traction faces (E13), both with mu0.  Sizes: NZ = (DIM+1) NP, NFB = DIM NF,
 * NTB = DIM NT.  Layouts (column-major, per element):
 *   Z   [NZ][NZ]       rows/columns (i, a) = i NP + a (u_i), (DIM, a) (p)
 *   WF  [NTB+1][NZ]    column (f, c, m) = f NFB + c NF + m, then Fext
 *   WL  [NTB+1][NZ]    [Wext + P | Fext] (NONSYMMETRIC only)
 *   K   [NTB+1][NTB+1] K0 (x) I_d (- Q); row/column NTB zero */
#define DNP (DIM * NP)
#define FACE_NEUMANN 2 /* host/fem/hdg.h */
__kernel void elasticity_build(const int e0, __global const double *coords,
                               __global const int *elem_verts, __global const char *elem_orient,
                               __global const int *elem_faces, __global const char *face_bc,
                               const double tau, const double mu, const double lambda,
                               __global const double *mu_e, __global const double *lambda_e,
                               const double mu0, const int problem_id,
                               const double problem_param,
                               __global const double *dm, __global const double *dmdmt,
                               __global const double *pf, __global const double *ef,
                               __global const double *dmef, __global const double *efef,
                               __global const double *load_points,
                               __global const double *load_weights,
                               __global const double *phi_load, __global double *Z,
                               __global double *WF, __global double *WL, __global double *K) {
  const int le = get_group_id(0);
  const long e = e0 + le;
  const int lid = get_local_id(0), wg = get_local_size(0);
  __local double fq[NQ_LOAD * DIM];
  problem_params pp = {problem_id, DIM, 0, problem_param, mu, lambda};
  const double mue = mu_e[e], eps = 1.0 / (mue + lambda_e[e]), w = mue - mu0;

  geometry g;
  element_geometry(e, coords, elem_verts, &g);
  int orient[NFACES];
  double sigma[NFACES], jn[NFACES][DIM]; /* J^-1 n_f */
  bool traction[NFACES];
  for (int f = 0; f < NFACES; f++) {
    orient[f] = elem_orient[e * ELEM_NFACES + f];
    sigma[f] = g.face_measure[f] / FACE_REF_MEASURE;
    traction[f] = face_bc[elem_faces[e * ELEM_NFACES + f]] == FACE_NEUMANN;
    for (int l = 0; l < DIM; l++) {
      double v = 0.0;
      for (int k = 0; k < DIM; k++) v += g.jinv[l * DIM + k] * g.normal[f][k];
      jn[f][l] = v;
    }
  }
  double G[DIM * DIM]; /* J^-1 J^-T */
  element_metric(&g, G);

  /* (E8) Z = [[S0 (x) I_d, -B^T], [-B, -eps M]],
   * S0 = tau sum_f sigma_f Pf_f + mu |J| sum_lm G_lm Dm_l Dm_m^T (E7). */
  __global double *Ze = Z + (long)le * NZ * NZ;
  for (int idx = lid; idx < NZ * NZ; idx += wg) {
    const int r = idx % NZ, col = idx / NZ;
    const int ri = r / NP, a = r % NP, ci = col / NP, b = col % NP;
    double s = 0.0;
    if (ri < DIM && ci < DIM) {
      if (ri == ci) {
        for (int f = 0; f < NFACES; f++) s += tau * sigma[f] * pf[(f * NP + a) * NP + b];
        for (int lm = 0; lm < DIM * DIM; lm++)
          s += mue * g.detj * G[lm] * dmdmt[(lm * NP + a) * NP + b];
      } else if (w != 0.0) { /* (E17): w (B_ci^T M^-1 B_ri - B_ri^T M^-1 B_ci) */
        for (int lm = 0; lm < DIM * DIM; lm++) {
          const int l = lm / DIM, m = lm % DIM;
          s += w * g.detj *
               (g.jinv[l * DIM + ci] * g.jinv[m * DIM + ri] - g.jinv[l * DIM + ri] * g.jinv[m * DIM + ci]) *
               dmdmt[(lm * NP + a) * NP + b];
        }
      }
    } else if (ri < DIM) { /* -B_ri^T[a][b] = |J| sum_l Jinv[l][ri] Dm_l[a][b] */
      for (int l = 0; l < DIM; l++) s += g.detj * g.jinv[l * DIM + ri] * dm[(l * NP + a) * NP + b];
    } else if (ci < DIM) { /* -B_ci[a][b] = |J| sum_l Jinv[l][ci] Dm_l[b][a] */
      for (int l = 0; l < DIM; l++) s += g.detj * g.jinv[l * DIM + ci] * dm[(l * NP + b) * NP + a];
    } else if (a == b) {
      s = -eps * g.detj;
    }
    Ze[idx] = s;
  }

  /* [Wext | Fext]: u_i rows W0 = sigma_f [tau Ef + mu sum_l (J^-1 n_f)_l Dm_l Ef]
   * on component i's columns, pressure rows C_c = sigma_f n_f,c Ef (E8);
   * rows (j, b), columns (f, i, m), i != j: P of (E13) per unit of mu,
   *   P1 = -sigma_f sum_l (Dm_l Ef)[b][m] (n_f,i Jinv[l][j] - n_f,j Jinv[l][i]),
   * w P1 on every face (E17), mu0 P1 on traction faces (WL only). */
  __global double *WFe = WF + (long)le * NZ * (NTB + 1);
  __global double *WLe = WL + (long)le * NZ * (NTB + 1);
  for (int idx = lid; idx < NTB * NZ; idx += wg) {
    const int col = idx / NZ, r = idx % NZ;
    const int f = col / NFB, c = (col % NFB) / NF, m = col % NF, o = orient[f];
    const int ri = r / NP, a = r % NP;
    double wv = 0.0, pt = 0.0;
    if (ri == DIM) {
      wv = sigma[f] * g.normal[f][c] * ef[((f * NORIENT + o) * NP + a) * NF + m];
    } else if (ri == c) {
      double v = tau * ef[((f * NORIENT + o) * NP + a) * NF + m];
      for (int l = 0; l < DIM; l++)
        v += mue * jn[f][l] * dmef[(((l * NFACES + f) * NORIENT + o) * NP + a) * NF + m];
      wv = sigma[f] * v;
    } else if (w != 0.0 || traction[f]) {
      double p1 = 0.0;
      for (int l = 0; l < DIM; l++)
        p1 += dmef[(((l * NFACES + f) * NORIENT + o) * NP + a) * NF + m] *
              (g.normal[f][c] * g.jinv[l * DIM + ri] - g.normal[f][ri] * g.jinv[l * DIM + c]);
      p1 *= -sigma[f];
      wv = w * p1;
      if (traction[f]) pt = mu0 * p1;
    }
    WFe[idx] = wv;
#ifdef NONSYMMETRIC
    WLe[idx] = wv + pt;
#endif
  }

  /* Fext: F_i[a] = |J| sum_q w_q phi_a(xi_q) f_i(x_q) (E5); pressure rows 0. */
  for (int q = lid; q < NQ_LOAD; q += wg) {
    double xi[DIM], x[3], fv[3];
    for (int l = 0; l < DIM; l++) xi[l] = load_points[q * DIM + l];
    element_point(&g, xi, x);
    problem_elasticity_f(pp, x, fv);
    for (int i = 0; i < DIM; i++) fq[q * DIM + i] = load_weights[q] * fv[i];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int r = lid; r < NZ; r += wg) {
    const int i = r / NP, a = r % NP;
    double s = 0.0;
    if (i < DIM)
      for (int q = 0; q < NQ_LOAD; q++) s += fq[q * DIM + i] * phi_load[q * NP + a];
    WFe[NTB * NZ + r] = g.detj * s;
#ifdef NONSYMMETRIC
    WLe[NTB * NZ + r] = g.detj * s;
#endif
  }

  /* K0 (x) I_d (E9), K0 = tau sigma_f I + (mu/|J|) sigma_f sigma_g (n_f . n_g) Ef^T Eg;
   * c != c': minus Q of (E13) with w on every row (E17) and mu0 on traction rows,
   *   Q = (mu/|J|) sigma_f sigma_g (n_f,c n_g,c' - n_f,c' n_g,c) Ef^T Eg. */
  __global double *Ke = K + (long)le * (NTB + 1) * (NTB + 1);
  for (int idx = lid; idx < (NTB + 1) * (NTB + 1); idx += wg) {
    const int col = idx / (NTB + 1), r = idx % (NTB + 1);
    double k = 0.0;
    if (r < NTB && col < NTB) {
      const int f = r / NFB, c = (r % NFB) / NF, m = r % NF;
      const int h = col / NFB, c2 = (col % NFB) / NF, n = col % NF;
      double factor = 0.0;
      if (c == c2) {
        for (int d = 0; d < DIM; d++) factor += g.normal[f][d] * g.normal[h][d];
        factor *= mue;
      } else if (w != 0.0 || traction[f]) {
        factor = -(g.normal[f][c] * g.normal[h][c2] - g.normal[f][c2] * g.normal[h][c]) *
                 (w + (traction[f] ? mu0 : 0.0));
      }
      if (factor != 0.0) {
        const double s = efef[(((f * NORIENT + orient[f]) * NFACES + h) * NORIENT + orient[h]) *
                                  NF * NF + m * NF + n]; /* (Ef_f^T Ef_h)[m][n] */
        k = sigma[f] * sigma[h] * factor * s / g.detj;
      }
      if (c == c2 && f == h && m == n) k += tau * sigma[f];
    }
    Ke[idx] = k;
  }
}
#undef DNP
#undef FACE_NEUMANN
#endif /* AFFINE && NCOMP > 1 */

/* S <- S^-1 for each element by one of two methods (host/pipeline/local.c picks one
 * per device and size from a timed trial, cached with the program binaries;
 * with convection only Gauss-Jordan applies), a kernel argument so that one
 * kernel holds both.  Either gives the inverse in either layout (the inverse
 * of the transpose is the transpose of the inverse).  The work copy is in
 * local memory, or with SCRATCH_GLOBAL (when NP^2 + NP doubles exceed the
 * device's local memory) in a global scratch buffer of NP^2 + NP doubles per
 * element.  The matrix is NZ x NZ: S (NZ = NP), or elasticity's (u, p)
 * matrix Z (NZ = (DIM+1) NP, Gauss-Jordan only: docs/elasticity.md, "Device
 * pipeline", says why no pivoting is needed).
 *
 * INVERT_CHOLESKY (SPD S only): S = L L^T (right-looking Cholesky), X = L^-1
 * column by column, S^-1 = X^T X.  L lives in the lower triangle of the work
 * copy, X (strictly lower part) in its upper triangle as X^T, diag(X) apart.
 *
 * INVERT_GAUSS_JORDAN: in place without pivoting, for SPD S and for S whose
 * symmetric part is positive definite (convection, (F26)): every pivot is
 * > 0.  Step k: g_r = a_rk / a_kk for every row (in xdiag), then rows r != k
 * a_rn -= g_r a_kn (n != k) and a_rk = -g_r, then row k scaled by 1/a_kk.
 * A work-group of at least NP work-items splits each row's columns among
 * wg / NP work-items (more parallelism per step); a smaller one loops over
 * rows. */
#define INVERT_CHOLESKY 0
#define INVERT_GAUSS_JORDAN 1
#ifdef SCRATCH_GLOBAL
#define SCRATCH __global
#else
#define SCRATCH __local
#endif
#define FENCE (CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)
__kernel void local_invert(__global double *S, __global double *scratch, const int method) {
  const int le = get_group_id(0);
  const int lid = get_local_id(0), wg = get_local_size(0);
#ifdef SCRATCH_GLOBAL
  __global double *a = scratch + (long)le * (NZ * NZ + NZ);
  __global double *xdiag = a + NZ * NZ;
#else
  __local double a[NZ * NZ];
  __local double xdiag[NZ];
#endif
  __global double *Se = S + (long)le * NZ * NZ;
  for (int idx = lid; idx < NZ * NZ; idx += wg) a[idx] = Se[idx];
  barrier(FENCE);

  if (method == INVERT_GAUSS_JORDAN) {
    const bool wide = wg >= NZ;
    const int parts = wide ? wg / NZ : 1, part = wide ? lid / NZ : 0;
    const int row0 = wide ? lid % NZ : lid, rstep = wide ? NZ : wg;
    const bool active = !wide || lid < parts * NZ;
    for (int k = 0; k < NZ; k++) {
      const double p = 1.0 / a[k * NZ + k];
      for (int r = lid; r < NZ; r += wg) xdiag[r] = a[r * NZ + k] * p;
      barrier(FENCE);
      for (int r = row0; active && r < NZ; r += rstep) {
        if (r == k) continue;
        const double g = xdiag[r];
        for (int n = part; n < NZ; n += parts)
          a[r * NZ + n] = (n == k) ? -g : a[r * NZ + n] - g * a[k * NZ + n];
      }
      barrier(FENCE);
      for (int n = lid; n < NZ; n += wg) a[k * NZ + n] = (n == k) ? p : a[k * NZ + n] * p;
      barrier(FENCE);
    }
    for (int idx = lid; idx < NZ * NZ; idx += wg) Se[idx] = a[idx];
    return;
  }

  CHOLESKY_IN_PLACE(a, NZ, lid, wg, FENCE);
  /* X[i][j] = -(sum_{k=j}^{i-1} L[i][k] X[k][j]) / L[i][i]; stored at a[j][i]. */
  for (int j = lid; j < NZ; j += wg) {
    const double xjj = 1.0 / a[j * NZ + j];
    xdiag[j] = xjj;
    for (int i = j + 1; i < NZ; i++) {
      double s = a[i * NZ + j] * xjj;
      for (int k = j + 1; k < i; k++) s += a[i * NZ + k] * a[j * NZ + k];
      a[j * NZ + i] = -s / a[i * NZ + i];
    }
  }
  barrier(FENCE);
  /* S^-1[i][j] = sum_{k >= max(i,j)} X[k][i] X[k][j] */
  for (int idx = lid; idx < NZ * NZ; idx += wg) {
    const int i = idx / NZ, j = idx % NZ;
    double s = 0.0;
    for (int k = max(i, j); k < NZ; k++) {
      const double xki = (k == i) ? xdiag[i] : a[i * NZ + k];
      const double xkj = (k == j) ? xdiag[j] : a[j * NZ + k];
      s += xki * xkj;
    }
    Se[idx] = s;
  }
}

/* K = K0 - L^T Z (F10), (F24) for n elements, L = [W | F] or [W_t | F] and Z
 * column-major NZ x (NTB+1) (Z from element offset zoff), K column-major
 * (NTB+1)^2: one work-item per row a of K, which keeps column a of L in
 * registers and walks the columns b of Z.  The work-items of an element read
 * the same column of Z at each step (one broadcast), from local memory where
 * the group's elements fit (SCHUR_Z_LOAD).  For the small blocks
 * of low orders this is a stream of the three arrays, where a general batched
 * GEMM pays for its tiling and padding.  local_schur reads K0 from K (in
 * place); local_schur_k0 evaluates it from its factors.  (Forming whole
 * elements' K in local memory and storing it in order was slower on the H100:
 * perf/results/stop19/README.md.) */
#define KC (NTB + 1)
#if NZ <= 64
#define SCHUR_ROW_LOAD(la) \
  double l[NZ];            \
  for (int i = 0; i < NZ; i++) l[i] = la[i];
#define SCHUR_L(i) l[i]
#else /* a long column stays in memory (the cache) */
#define SCHUR_ROW_LOAD(la)
#define SCHUR_L(i) la[i]
#endif
/* The columns of Z that a work-group's rows need: with SCHUR_STAGE (a -D
 * option from host/pipeline/local.c), the elements that its work-items touch, zfirst
 * onwards, are copied to local memory zl by the whole group, so each is read
 * from global memory once, coalesced.  The host (schur_layout) makes each
 * group epg whole elements, epg KC work-items, and sizes zl for them. */
#if SCHUR_STAGE
#define SCHUR_Z_LOAD()                                                                  \
  const long epg = (long)get_local_size(0) / KC, zfirst = (long)get_group_id(0) * epg;  \
  {                                                                                     \
    const int count = (int)min(epg, (long)n - zfirst) * NZ * KC;                        \
    __global const double *zs = Z + zoff + zfirst * NZ * KC;                            \
    for (int t = (int)get_local_id(0); t < count; t += (int)get_local_size(0)) zl[t] = zs[t]; \
  }                                                                                     \
  barrier(CLK_LOCAL_MEM_FENCE);
#define SCHUR_ZE (zl + (le - zfirst) * NZ * KC)
#define SCHUR_SPACE __local
#else
#define SCHUR_Z_LOAD()
#define SCHUR_ZE (Z + zoff + le * NZ * KC)
#define SCHUR_SPACE __global
#endif
/* (L^T Z)[a][b] with column a of L as SCHUR_L and zb column b of Z. */
#define SCHUR_DOT(zb, s)                                   \
  double s = 0.0;                                          \
  for (int i = 0; i < NZ; i++) s += SCHUR_L(i) * (zb)[i];
/* The element (le) and row (a) of this work-item, live if it has one, and
 * Ke, its element's K. */
#define SCHUR_ROW()                                 \
  const long gid = get_global_id(0), le = gid / KC; \
  const int a = (int)(gid - le * KC);               \
  const bool live = gid < (long)n * KC;             \
  __global double *Ke = K + (live ? le : 0) * KC * KC;

__kernel void local_schur(const int n, __global const double *L, __global const double *Z,
                          const long zoff, __global double *K, __local double *zl) {
  SCHUR_ROW()
  SCHUR_Z_LOAD()
  if (live) {
    __global const double *la = L + le * NZ * KC + a * NZ;
    SCHUR_SPACE const double *ze = SCHUR_ZE;
    SCHUR_ROW_LOAD(la)
    for (int b = 0; b < KC; b++) {
      SCHUR_DOT(ze + b * NZ, s)
      Ke[b * KC + a] -= s;
    }
  }
}

#if AFFINE
/* K = K0 - [W | F]^T Z (F10), (F24) as local_schur, with K0 from its factors
 * (as k0_entry) instead of read from K: scalar problems on affine elements,
 * whose K0 is never stored.  Row a = (fa, m) of K0 is kf[fa NFACES + fb]
 * (Ef_fa^T Ef_fb)[m][.] over the faces fb, so the factor and the face's
 * orientation are read once per face.  Elements e0.. of the mesh,
 * chunk-relative KF and K. */
__kernel void local_schur_k0(const int e0, const int n, __global const double *L,
                             __global const double *Z, const long zoff,
                             __global const double *KF, __global const char *elem_orient,
                             __global const double *efef, __global double *K,
                             __local double *zl) {
  SCHUR_ROW()
  SCHUR_Z_LOAD()
  if (live) {
    __global const double *la = L + le * NZ * KC + a * NZ;
    SCHUR_SPACE const double *ze = SCHUR_ZE;
    __global const double *kf = KF + le * NKF;
    __global const char *orient = elem_orient + (e0 + le) * ELEM_NFACES;
    SCHUR_ROW_LOAD(la)
    const bool trace_row = a < NT; /* row NT of K0 is zero */
    const int fa = trace_row ? a / NF : 0, m = a % NF;
    const int oa = orient[fa];
    for (int fb = 0; fb < NFACES; fb++) {
      const double c = trace_row ? kf[fa * NFACES + fb] : 0.0;
      __global const double *row =
          efef + (((fa * NORIENT + oa) * NFACES + fb) * NORIENT + orient[fb]) * NF * NF + m * NF;
      for (int nn = 0; nn < NF; nn++) {
        const int b = fb * NF + nn;
        SCHUR_DOT(ze + b * NZ, s)
        double k0 = c * row[nn]; /* (Ef_fa^T Ef_fb)[m][nn] */
        if (a == b) k0 += kf[NFACES * NFACES + fa];
        Ke[b * KC + a] = k0 - s;
      }
    }
    SCHUR_DOT(ze + NT * NZ, s) /* column NT of K0 is zero */
    Ke[NT * KC + a] = -s;
  }
}
#endif
#undef SCHUR_ROW
#undef SCHUR_Z_LOAD
#undef SCHUR_ZE
#undef SCHUR_SPACE
#undef SCHUR_ROW_LOAD
#undef SCHUR_L
#undef SCHUR_DOT
#undef KC
