/* Local stage for mapped (bilinear/trilinear) elements, whose Jacobian varies
 * over the element: the matrices of (F6) by quadrature on every element, then
 *   M = L L^T,   X = sqrt(kappa) L^-1 [B_k | C_k]  stacked over k (rows k*NP..),
 *   G = X^T X    (CLBlast, host/local_mapped.c),
 *   S = D + G_BB,  W = E - G_BC,  K0 = H + G_CC        (F9), (F10)
 * since A^-1 = kappa M^-1 = kappa L^-T L^-1.  The rest (S^-1, Z, K) is the
 * affine pipeline's (cl/local.cl, host/local.c).  One work-group per element.
 * Convection (F22): the volume term in S, the upwinded tau at each face point
 * in S, E and H, and with NONSYMMETRIC [W_t | F] (F24) in WL.
 * Prepended: common.h, problems.h, geometry.h.  Sizes: DIM, NVERT, NFACES,
 * NORIENT, NP, NF, NT, NQ_LOAD, NQ_FACE.
 *
 * Layouts per element (chunk-relative):
 *   M  [NP][NP]; S [NP][NP] column-major; WF, WL, K as in cl/local.cl
 *   X  column-major (DIM*NP) x (NP+NT): column c < NP is B_k's column c,
 *      column NP + (f,m) is C_k's; row k*NP + j is test function j, component k
 *   G  column-major (NP+NT) x (NP+NT)
 *   FAC per-point factors: [NQ_LOAD][2 + DIM*DIM] (w|J|, w|J| f(x), w adj(J)),
 *      then [NFACES][NQ_FACE][3 + DIM] (w dS, w n dS, w dS tau_f, w dS (tau_f - beta.n)),
 *      tau_f = tau + max(beta.n, 0) the upwinded stabilisation (F22) */

#define VOL_FAC (2 + DIM * DIM)
#define FACE_FAC (3 + DIM)
#define FACE_TAUF (1 + DIM) /* offset of w dS tau_f in a face point's factors */
#define FACE_TAUN (2 + DIM) /* offset of w dS (tau_f - beta.n) */
#define FAC_PER_ELEMENT (NQ_LOAD * VOL_FAC + NFACES * NQ_FACE * FACE_FAC)
#define XROWS (DIM * NP)
#define XCOLS (NP + NT)


__kernel void mapped_build(const int e0, __global const double *coords,
                           __global const int *elem_verts, __global const char *elem_orient,
                           __global const double *c_e, const double tau, const int problem_id,
                           const int problem_degree, const double problem_param,
                           __global const double *load_points,  /* [NQ_LOAD][DIM] */
                           __global const double *load_weights, /* [NQ_LOAD] */
                           __global const double *phi,          /* [NQ_LOAD][NP] */
                           __global const double *dphi,         /* [NQ_LOAD][NP][DIM] */
                           __global const double *face_weights, /* [NQ_FACE] */
                           __global const double *psi,          /* [NQ_FACE][NF] */
                           __global const double *phi_face, /* [NFACES][NORIENT][NQ_FACE][NP] */
                           __global const double *face_xi,  /* [NFACES][NORIENT][NQ_FACE][DIM] */
                           __global const double *face_tangent, __global const double *face_nref,
                           __global double *fac, __global double *M, __global double *X,
                           __global double *S, __global double *WF, __global double *WL,
                           __global double *K) {
  const int le = get_group_id(0);
  const long e = e0 + le;
  const int lid = get_local_id(0), wg = get_local_size(0);
  problem_params pp = {problem_id, DIM, problem_degree, problem_param};
  __global double *vf = fac + (long)le * FAC_PER_ELEMENT, *ff = vf + NQ_LOAD * VOL_FAC;
  int orient[NFACES];
  for (int f = 0; f < NFACES; f++) orient[f] = elem_orient[e * NFACES + f];
  double beta[3];
  problem_beta(pp, beta);
  const bool convection = beta[0] != 0.0 || beta[1] != 0.0 || beta[2] != 0.0;

  /* Geometric factors at every volume and face point. */
  for (int q = lid; q < NQ_LOAD; q += wg) {
    double xi[DIM], x[3], jac[DIM * DIM], adj[DIM * DIM];
    for (int l = 0; l < DIM; l++) xi[l] = load_points[q * DIM + l];
    const double detj = element_map(e, coords, elem_verts, xi, x, jac);
    adjugate(jac, adj);
    const double w = load_weights[q];
    vf[q * VOL_FAC] = w * detj;
    vf[q * VOL_FAC + 1] = w * detj * problem_f(pp, x[0], x[1], x[2]);
    for (int k = 0; k < DIM * DIM; k++) vf[q * VOL_FAC + 2 + k] = w * adj[k];
  }
  for (int t = lid; t < NFACES * NQ_FACE; t += wg) {
    const int f = t / NQ_FACE, q = t % NQ_FACE;
    double X3[DIM], x[3], nds[3];
    for (int l = 0; l < DIM; l++) X3[l] = face_xi[((f * NORIENT + orient[f]) * NQ_FACE + q) * DIM + l];
    const double ds = face_normal(e, coords, elem_verts, X3, face_tangent + f * 2 * DIM,
                                  face_nref + f * DIM, x, nds);
    const double w = face_weights[q];
    ff[t * FACE_FAC] = w * ds;
    for (int k = 0; k < DIM; k++) ff[t * FACE_FAC + 1 + k] = w * nds[k];
    double bn = 0.0; /* beta . n w dS */
    for (int k = 0; k < DIM; k++) bn += beta[k] * ff[t * FACE_FAC + 1 + k];
    ff[t * FACE_FAC + FACE_TAUF] = tau * w * ds + fmax(bn, 0.0);
    ff[t * FACE_FAC + FACE_TAUN] = tau * w * ds + fmax(bn, 0.0) - bn;
  }
  barrier(CLK_GLOBAL_MEM_FENCE);

  /* M = (phi_j, phi_i)_K;  D = (c phi_j, phi_i)_K + <tau_f phi_j, phi_i>_dK
   * - (beta phi_j, grad phi_i)_K  (F22); S[i][j] at j NP + i. */
  const double c = c_e[e];
  __global double *Me = M + (long)le * NP * NP, *Se = S + (long)le * NP * NP;
  for (int idx = lid; idx < NP * NP; idx += wg) {
    const int i = idx % NP, j = idx / NP;
    double m = 0.0, d = 0.0;
    for (int q = 0; q < NQ_LOAD; q++) m += vf[q * VOL_FAC] * phi[q * NP + i] * phi[q * NP + j];
    for (int f = 0; f < NFACES; f++) {
      __global const double *pf = phi_face + (f * NORIENT + orient[f]) * NQ_FACE * NP;
      for (int q = 0; q < NQ_FACE; q++)
        d += ff[(f * NQ_FACE + q) * FACE_FAC + FACE_TAUF] * pf[q * NP + i] * pf[q * NP + j];
    }
    if (convection) /* w|J| beta . grad phi_i = sum_kl beta_k (w adj J)_lk d_l phi_i */
      for (int q = 0; q < NQ_LOAD; q++) {
        double bg = 0.0;
        for (int k = 0; k < DIM; k++)
          for (int l = 0; l < DIM; l++)
            bg += beta[k] * vf[q * VOL_FAC + 2 + l * DIM + k] * dphi[(q * NP + i) * DIM + l];
        d -= bg * phi[q * NP + j];
      }
    Me[idx] = m;
    Se[idx] = c * m + d;
  }

  /* X rows (k, j): B_k[j][i] = -(phi_i, d_k phi_j)_K = -sum_q phi_i sum_l (w adj)_lk d_l phi_j;
   * C_k[j][(f,m)] = <psi_m, phi_j n_k>_F. */
  __global double *Xe = X + (long)le * XROWS * XCOLS;
  for (int idx = lid; idx < XROWS * XCOLS; idx += wg) {
    const int col = idx / XROWS, r = idx % XROWS, k = r / NP, j = r % NP;
    double v = 0.0;
    if (col < NP) {
      for (int q = 0; q < NQ_LOAD; q++) {
        double dk = 0.0;
        for (int l = 0; l < DIM; l++)
          dk += vf[q * VOL_FAC + 2 + l * DIM + k] * dphi[(q * NP + j) * DIM + l];
        v -= phi[q * NP + col] * dk;
      }
    } else {
      const int a = col - NP, f = a / NF, m = a % NF;
      __global const double *pf = phi_face + (f * NORIENT + orient[f]) * NQ_FACE * NP;
      for (int q = 0; q < NQ_FACE; q++)
        v += psi[q * NF + m] * pf[q * NP + j] * ff[(f * NQ_FACE + q) * FACE_FAC + 1 + k];
    }
    Xe[idx] = v;
  }

  /* [E | F]: E[i][(f,m)] = <(tau_f - beta.n) psi_m, phi_i>_F, F_i = (f, phi_i)_K;
   * NONSYMMETRIC: [E_t | F], E_t with tau_f alone (F22). */
  __global double *WFe = WF + (long)le * NP * (NT + 1);
  __global double *WLe = WL + (long)le * NP * (NT + 1);
  for (int idx = lid; idx < NP * (NT + 1); idx += wg) {
    const int col = idx / NP, i = idx % NP;
    double v = 0.0, vt = 0.0;
    if (col < NT) {
      const int f = col / NF, m = col % NF;
      __global const double *pf = phi_face + (f * NORIENT + orient[f]) * NQ_FACE * NP;
      for (int q = 0; q < NQ_FACE; q++) {
        const double pq = pf[q * NP + i] * psi[q * NF + m];
        v += ff[(f * NQ_FACE + q) * FACE_FAC + FACE_TAUN] * pq;
        vt += ff[(f * NQ_FACE + q) * FACE_FAC + FACE_TAUF] * pq;
      }
    } else {
      for (int q = 0; q < NQ_LOAD; q++) v += vf[q * VOL_FAC + 1] * phi[q * NP + i];
      vt = v;
    }
    WFe[idx] = v;
#ifdef NONSYMMETRIC
    WLe[idx] = vt;
#endif
  }

  /* K0 starts as H = <(tau_f - beta.n) psi_n, psi_m>_F (block diagonal); last
   * row/column zero. */
  __global double *Ke = K + (long)le * (NT + 1) * (NT + 1);
  for (int idx = lid; idx < (NT + 1) * (NT + 1); idx += wg) {
    const int b = idx / (NT + 1), a = idx % (NT + 1);
    double v = 0.0;
    if (a < NT && b < NT && a / NF == b / NF) {
      const int f = a / NF, m = a % NF, n = b % NF;
      for (int q = 0; q < NQ_FACE; q++)
        v += ff[(f * NQ_FACE + q) * FACE_FAC + FACE_TAUN] * psi[q * NF + m] * psi[q * NF + n];
    }
    Ke[idx] = v;
  }
}

/* M = L L^T in place (right-looking, lower triangle), then every column of
 * each component block of X is replaced by sqrt(kappa) L^-1 times itself. */
__kernel void mapped_factor(const int e0, __global const double *kappa_e, __global double *M,
                            __global double *X) {
  const int le = get_group_id(0);
  const int lid = get_local_id(0), wg = get_local_size(0);
  __global double *a = M + (long)le * NP * NP;
  CHOLESKY_IN_PLACE(a, NP, lid, wg, CLK_GLOBAL_MEM_FENCE);
  const double sk = sqrt(kappa_e[e0 + le]);
  __global double *Xe = X + (long)le * XROWS * XCOLS;
  for (int t = lid; t < DIM * XCOLS; t += wg) {
    __global double *y = Xe + (long)(t / DIM) * XROWS + (t % DIM) * NP; /* column t/DIM, block t%DIM */
    for (int i = 0; i < NP; i++) {
      double s = y[i];
      for (int j = 0; j < i; j++) s -= a[i * NP + j] * y[j];
      y[i] = s / a[i * NP + i];
    }
    for (int i = 0; i < NP; i++) y[i] *= sk;
  }
}

/* S += G_BB, W -= G_BC (and W_t with NONSYMMETRIC), K0 += G_CC  (G = X^T X,
 * column-major XCOLS^2). */
__kernel void mapped_combine(__global const double *G, __global double *S, __global double *WF,
                             __global double *WL, __global double *K) {
  const int le = get_group_id(0);
  const int lid = get_local_id(0), wg = get_local_size(0);
  __global const double *Ge = G + (long)le * XCOLS * XCOLS;
  __global double *Se = S + (long)le * NP * NP, *WFe = WF + (long)le * NP * (NT + 1);
  __global double *Ke = K + (long)le * (NT + 1) * (NT + 1);
  for (int idx = lid; idx < NP * NP; idx += wg) Se[idx] += Ge[(idx / NP) * XCOLS + idx % NP];
  for (int idx = lid; idx < NP * NT; idx += wg) {
    const int a = idx / NP, i = idx % NP;
    WFe[idx] -= Ge[(NP + a) * XCOLS + i];
#ifdef NONSYMMETRIC
    WL[(long)le * NP * (NT + 1) + idx] -= Ge[(NP + a) * XCOLS + i];
#endif
  }
  for (int idx = lid; idx < NT * NT; idx += wg) {
    const int b = idx / NT, a = idx % NT;
    Ke[b * (NT + 1) + a] += Ge[(NP + b) * XCOLS + NP + a];
  }
}
