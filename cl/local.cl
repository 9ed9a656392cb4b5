/* Local stage (docs/formulation.md sections 7-8): per element, the SPD
 * local matrix S (F13), [W | F] (F14), (F16), and K0 = H + C^T A^-1 C
 * (F15); then S^-1 by a Cholesky factorisation in local memory.  The host
 * (host/local.c) finishes with two CLBlast batched GEMMs:
 *   Z = S^-1 [W | F],   K = K0 - [W | F]^T Z   (F10).
 * With convection (NONSYMMETRIC, section 9) S is not symmetric and the trace
 * equation has its own W_t (F24): local_build also writes [W_t | F], S^-1
 * comes from Gauss-Jordan, and the second GEMM is K = K0 - [W_t | F]^T Z.
 * S^-1 has two methods: Cholesky (SPD) and Gauss-Jordan (either).
 * Prepended: common.h, problems.h, geometry.h.  Compile-time sizes: DIM,
 * NVERT, NFACES, NORIENT, NP, NF, NT, NQ_LOAD.  One work-group per element.
 *
 * Layouts (per element, element-major):
 *   S   [NP][NP]                 column-major, as CLBlast reads it (symmetric
 *                                without convection)
 *   WF  [NT+1][NP]   column-major NP x (NT+1): column (f,m) of W, then F
 *   WL  [NT+1][NP]   the same for [W_t | F] (NONSYMMETRIC only)
 *   K   [NT+1][NT+1] column-major; row/column NT are zero on output here */

#if AFFINE /* mapped elements build their matrices in cl/local_mapped.cl */
__kernel void local_build(const int e0, __global const double *coords,
                          __global const int *elem_verts, __global const char *elem_orient,
                          __global const double *kappa_e, __global const double *c_e,
                          const double tau, const int problem_id, const int problem_degree,
                          const double problem_param,
                          __global const double *dm,    /* [DIM][NP][NP] Dm_l */
                          __global const double *dmdmt, /* [DIM*DIM][NP][NP] Dm_l Dm_m^T */
                          __global const double *pf,    /* [NFACES][NP][NP] */
                          __global const double *ef,    /* [NFACES][NORIENT][NP][NF] */
                          __global const double *dmef,  /* [DIM][NFACES][NORIENT][NP][NF] */
                          __global const double *load_points,  /* [NQ_LOAD][DIM] */
                          __global const double *load_weights, /* [NQ_LOAD] */
                          __global const double *phi_load,     /* [NQ_LOAD][NP] */
                          __global double *S, __global double *WF, __global double *WL,
                          __global double *K) {
  const int le = get_group_id(0);
  const long e = e0 + le;
  const int lid = get_local_id(0), wg = get_local_size(0);
  __local double fq[NQ_LOAD];
  problem_params pp = {problem_id, DIM, problem_degree, problem_param};

  geometry g;
  element_geometry(e, coords, elem_verts, &g);
  const double kappa = kappa_e[e], c = c_e[e];
  int orient[NFACES];
  double sigma[NFACES], tauf[NFACES], taun[NFACES], bn[NFACES];
  double beta[3], bref[DIM]; /* (F22) beta, and J^-1 beta */
  problem_beta(pp, beta);
  for (int l = 0; l < DIM; l++) {
    bref[l] = 0.0;
    for (int k = 0; k < DIM; k++) bref[l] += g.jinv[l * DIM + k] * beta[k];
  }
  const bool convection = beta[0] != 0.0 || beta[1] != 0.0 || beta[2] != 0.0;
  for (int f = 0; f < NFACES; f++) {
    orient[f] = elem_orient[e * NFACES + f];
    sigma[f] = g.face_measure[f] / FACE_REF_MEASURE;
    /* (F22) upwinded tau_f = tau + max(beta . n_f, 0); E and H of the
     * u-equation carry tau_f - beta . n_f (= tau without convection). */
    bn[f] = 0.0;
    for (int k = 0; k < DIM; k++) bn[f] += beta[k] * g.normal[f][k];
    tauf[f] = tau + fmax(bn[f], 0.0);
    taun[f] = tauf[f] - bn[f];
  }
  double G[DIM * DIM]; /* J^-1 J^-T */
  for (int l = 0; l < DIM; l++)
    for (int m = 0; m < DIM; m++) {
      double s = 0.0;
      for (int k = 0; k < DIM; k++) s += g.jinv[l * DIM + k] * g.jinv[m * DIM + k];
      G[l * DIM + m] = s;
    }

  /* (F13) S = sum_f tau_f sigma_f Pf_f + c|J| I + kappa|J| sum_lm G_lm Dm_l Dm_m^T,
   * (F25) minus |J| sum_l (J^-1 beta)_l Dm_l^T (convection). */
  __global double *Se = S + (long)le * NP * NP;
  for (int idx = lid; idx < NP * NP; idx += wg) { /* S[i][j] at idx = j NP + i */
    const int i = idx % NP, j = idx / NP;
    double s = (i == j) ? c * g.detj : 0.0;
    for (int f = 0; f < NFACES; f++) s += tauf[f] * sigma[f] * pf[(f * NP + i) * NP + j];
    for (int lm = 0; lm < DIM * DIM; lm++)
      s += kappa * g.detj * G[lm] * dmdmt[(lm * NP + i) * NP + j];
    if (convection)
      for (int l = 0; l < DIM; l++) s -= g.detj * bref[l] * dm[(l * NP + j) * NP + i];
    Se[idx] = s;
  }

  /* (F14) W_f = sigma_f [(tau_f - beta.n_f) Ef + kappa sum_l (J^-1 n_f)_l Dm_l Ef];
   * (F25) W_t,f = W_f + sigma_f (beta.n_f) Ef. */
  __global double *WFe = WF + (long)le * NP * (NT + 1);
  __global double *WLe = WL + (long)le * NP * (NT + 1);
  for (int idx = lid; idx < NT * NP; idx += wg) {
    const int col = idx / NP, i = idx % NP;
    const int f = col / NF, m = col % NF, o = orient[f];
    const double efv = ef[((f * NORIENT + o) * NP + i) * NF + m];
    double w = taun[f] * efv;
    for (int l = 0; l < DIM; l++) {
      double v = 0.0;
      for (int k = 0; k < DIM; k++) v += g.jinv[l * DIM + k] * g.normal[f][k];
      w += kappa * v * dmef[(((l * NFACES + f) * NORIENT + o) * NP + i) * NF + m];
    }
    WFe[idx] = sigma[f] * w;
#ifdef NONSYMMETRIC
    WLe[idx] = sigma[f] * (w + bn[f] * efv);
#endif
  }

  /* (F16) F_i = |J| sum_q w_q phi_i(xi_q) f(x_q) */
  for (int q = lid; q < NQ_LOAD; q += wg) {
    double xi[DIM], x[3];
    for (int l = 0; l < DIM; l++) xi[l] = load_points[q * DIM + l];
    element_point(&g, xi, x);
    fq[q] = load_weights[q] * problem_f(pp, x[0], x[1], x[2]);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int i = lid; i < NP; i += wg) {
    double s = 0.0;
    for (int q = 0; q < NQ_LOAD; q++) s += fq[q] * phi_load[q * NP + i];
    WFe[NT * NP + i] = g.detj * s;
#ifdef NONSYMMETRIC
    WLe[NT * NP + i] = g.detj * s;
#endif
  }

  /* (F15) K0 = H + C^T A^-1 C, zero last row and column */
  __global double *Ke = K + (long)le * (NT + 1) * (NT + 1);
  for (int idx = lid; idx < (NT + 1) * (NT + 1); idx += wg) {
    const int b = idx / (NT + 1), a = idx % (NT + 1);
    double k = 0.0;
    if (a < NT && b < NT) {
      const int fa = a / NF, m = a % NF, fb = b / NF, n = b % NF;
      double ndot = 0.0;
      for (int d = 0; d < DIM; d++) ndot += g.normal[fa][d] * g.normal[fb][d];
      __global const double *ea = ef + (fa * NORIENT + orient[fa]) * NP * NF;
      __global const double *eb = ef + (fb * NORIENT + orient[fb]) * NP * NF;
      double s = 0.0;
      for (int j = 0; j < NP; j++) s += ea[j * NF + m] * eb[j * NF + n];
      k = (kappa / g.detj) * sigma[fa] * sigma[fb] * ndot * s;
      if (a == b) k += taun[fa] * sigma[fa];
    }
    Ke[idx] = k;
  }
}

#endif /* AFFINE */

/* S <- S^-1 for each element by one of two methods (host/local.c picks one
 * per device and size from a timed trial, cached with the program binaries;
 * with convection only Gauss-Jordan applies), a kernel argument so that one
 * kernel holds both.  Either gives the inverse in either layout (the inverse
 * of the transpose is the transpose of the inverse).  The work copy is in
 * local memory, or with SCRATCH_GLOBAL (when NP^2 + NP doubles exceed the
 * device's local memory) in a global scratch buffer of NP^2 + NP doubles per
 * element.
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
  __global double *a = scratch + (long)le * (NP * NP + NP);
  __global double *xdiag = a + NP * NP;
#else
  __local double a[NP * NP];
  __local double xdiag[NP];
#endif
  __global double *Se = S + (long)le * NP * NP;
  for (int idx = lid; idx < NP * NP; idx += wg) a[idx] = Se[idx];
  barrier(FENCE);

  if (method == INVERT_GAUSS_JORDAN) {
    const bool wide = wg >= NP;
    const int parts = wide ? wg / NP : 1, part = wide ? lid / NP : 0;
    const int row0 = wide ? lid % NP : lid, rstep = wide ? NP : wg;
    const bool active = !wide || lid < parts * NP;
    for (int k = 0; k < NP; k++) {
      const double p = 1.0 / a[k * NP + k];
      for (int r = lid; r < NP; r += wg) xdiag[r] = a[r * NP + k] * p;
      barrier(FENCE);
      for (int r = row0; active && r < NP; r += rstep) {
        if (r == k) continue;
        const double g = xdiag[r];
        for (int n = part; n < NP; n += parts)
          a[r * NP + n] = (n == k) ? -g : a[r * NP + n] - g * a[k * NP + n];
      }
      barrier(FENCE);
      for (int n = lid; n < NP; n += wg) a[k * NP + n] = (n == k) ? p : a[k * NP + n] * p;
      barrier(FENCE);
    }
    for (int idx = lid; idx < NP * NP; idx += wg) Se[idx] = a[idx];
    return;
  }

  CHOLESKY_IN_PLACE(a, NP, lid, wg, FENCE);
  /* X[i][j] = -(sum_{k=j}^{i-1} L[i][k] X[k][j]) / L[i][i]; stored at a[j][i]. */
  for (int j = lid; j < NP; j += wg) {
    const double xjj = 1.0 / a[j * NP + j];
    xdiag[j] = xjj;
    for (int i = j + 1; i < NP; i++) {
      double s = a[i * NP + j] * xjj;
      for (int k = j + 1; k < i; k++) s += a[i * NP + k] * a[j * NP + k];
      a[j * NP + i] = -s / a[i * NP + i];
    }
  }
  barrier(FENCE);
  /* S^-1[i][j] = sum_{k >= max(i,j)} X[k][i] X[k][j] */
  for (int idx = lid; idx < NP * NP; idx += wg) {
    const int i = idx / NP, j = idx % NP;
    double s = 0.0;
    for (int k = max(i, j); k < NP; k++) {
      const double xki = (k == i) ? xdiag[i] : a[i * NP + k];
      const double xkj = (k == j) ? xdiag[j] : a[j * NP + k];
      s += xki * xkj;
    }
    Se[idx] = s;
  }
}
