/* Local stage for mapped (bilinear/trilinear) elements, whose Jacobian varies
 * over the element: the matrices of (F6) by quadrature on every element, then
 *   Y = [B_k | C_k] stacked over k (rows k*NP..), its B part as the product
 *       B = -T Phi^T of T[q][(k,j)] = sum_l (w adj J)_lk d_l phi_j(x_q) with the
 *       table Phi[q][i] = phi_i(x_q)          (CLBlast, host/pipeline/local_mapped.c),
 *   scalar problems: A^-1 = (M / kappa)^-1 in place (local_invert_tiled.cl),
 *      X = A^-1 Y per component block          (CLBlast), G = Y^T X;
 *   elasticity: M = L L^T,  Ls = sqrt(kappa) L^-1 (mapped_factor),
 *      X = Ls Y  per component block            (CLBlast), G = X^T X;
 *   S = D + G_BB,  W = E - G_BC,  K0 = H + G_CC        (F9), (F10)
 *      with G's blocks added by CLBlast into the S, [W | F], K
 *      that mapped_build leaves holding D, E, H (host/pipeline/local_mapped.c)
 * since A^-1 = kappa M^-1 = kappa L^-T L^-1.  The rest (S^-1, Z, K) is the
 * affine pipeline's (cl/pipeline/local.cl, host/pipeline/local.c).  One work-group per element.
 * Convection (F22): the volume term in S, the upwinded tau at each face point
 * in S, E and H, and with NONSYMMETRIC [W_t | F] (F24) in WL.
 * Prepended: common.h, problems.h, geometry.h.  Sizes: DIM, NVERT, NFACES,
 * NORIENT, NP, NF, NT, NQ_LOAD, NQ_FACE; SCRATCH_GLOBAL when M (NP^2 doubles)
 * does not fit in local memory.
 *
 * Layouts per element (chunk-relative):
 *   M  [NP][NP] (row i at i NP): M (M / kappa with m_over_kappa), then A^-1
 *      or Ls (zero above the diagonal);
 *   S [NP][NP] column-major; WF, WL, K as in cl/pipeline/local.cl
 *   Y, X  column-major (DIM*NP) x (NP+NT): column c < NP is B_k's column c,
 *      column NP + (f,m) is C_k's; row k*NP + j is test function j, component k
 *   T  column-major (DIM*NP) x NQ_LOAD
 *   G  column-major (NP+NT) x (NP+NT)
 *   FAC per-point factors: [NQ_LOAD][2 + DIM*DIM] (w|J|, w|J| f(x), w adj(J)),
 *      then [NFACES][NQ_FACE][3 + DIM] (w dS, w n dS, w dS tau_f, w dS (tau_f - beta.n)),
 *      tau_f = tau + max(beta.n, 0) the upwinded stabilisation (F22) */

#ifdef POINT_COEFFICIENTS
/* and per volume point w|J| / kappa(x), w|J| c(x), beta(x) (the user's
 * coefficients = points: cl/fem/problems.h problem_coefficients_at) */
#define VOL_FAC (4 + DIM * DIM + DIM)
#else
#define VOL_FAC (2 + DIM * DIM)
#endif
#define VF_MK (2 + DIM * DIM)   /* w|J| / kappa */
#define VF_C (3 + DIM * DIM)    /* w|J| c */
#define VF_BETA (4 + DIM * DIM) /* beta[DIM] */
#define FACE_FAC (3 + DIM)
#define FACE_TAUF (1 + DIM) /* offset of w dS tau_f in a face point's factors */
#define FACE_TAUN (2 + DIM) /* offset of w dS (tau_f - beta.n) */
#define FAC_PER_ELEMENT (NQ_LOAD * VOL_FAC + NFACES * NQ_FACE * FACE_FAC)
#define XROWS (DIM * NP)
#define XCOLS (NP + NT)
#define MB 4 /* columns of M and S per work-item in mapped_build */


__kernel void mapped_build(const int e0, const int m_over_kappa, __global const double *kappa_e,
                           __global const double *coords,
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
                           __global double *fac, __global double *M, __global double *Y,
                           __global double *T, __global double *S, __global double *WF, __global double *WL,
                           __global double *K,
                           __global const int *elem_set, /* region per element (POINT_COEFFICIENTS) */
                           __global const double *element_load /* ELEMENT_LOAD: [E][NP] */) {
  const int le = get_group_id(0);
  const long e = e0 + le;
  const int lid = get_local_id(0), wg = get_local_size(0);
  problem_params pp = {problem_id, DIM, problem_degree, problem_param};
  __global double *vf = fac + (long)le * FAC_PER_ELEMENT, *ff = vf + NQ_LOAD * VOL_FAC;
  int orient[NFACES];
  for (int f = 0; f < NFACES; f++) orient[f] = elem_orient[e * ELEM_NFACES + f];
  double beta[3];
  problem_beta(pp, beta);
#ifdef POINT_COEFFICIENTS
  const int set = elem_set[e];
#endif
#ifdef POINT_BETA
  const bool convection = true; /* beta(x) at each point, not 0 everywhere */
#else
  const bool convection = beta[0] != 0.0 || beta[1] != 0.0 || beta[2] != 0.0;
#endif

  /* Geometric factors at every volume and face point. */
  for (int q = lid; q < NQ_LOAD; q += wg) {
    double xi[DIM], x[3], jac[DIM * DIM], adj[DIM * DIM];
    for (int l = 0; l < DIM; l++) xi[l] = load_points[q * DIM + l];
    const double detj = element_map(e, coords, elem_verts, xi, x, jac);
    adjugate(jac, adj);
    const double w = load_weights[q];
    vf[q * VOL_FAC] = w * detj;
    double fq = problem_f(pp, x[0], x[1], x[2]);
#ifdef ELEMENT_LOAD
    fq += element_load_at(element_load, e, phi, q);
#endif
    vf[q * VOL_FAC + 1] = w * detj * fq;
    for (int k = 0; k < DIM * DIM; k++) vf[q * VOL_FAC + 2 + k] = w * adj[k];
#ifdef POINT_COEFFICIENTS
    double kappa, c, b[3];
    problem_coefficients_at(pp, set, x[0], x[1], x[2], &kappa, &c, b);
    vf[q * VOL_FAC + VF_MK] = w * detj / kappa;
    vf[q * VOL_FAC + VF_C] = w * detj * c;
    for (int k = 0; k < DIM; k++) vf[q * VOL_FAC + VF_BETA + k] = b[k];
#endif
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
#ifdef POINT_COEFFICIENTS
    double kappa, c;
    problem_coefficients_at(pp, set, x[0], x[1], x[2], &kappa, &c, beta);
#endif
    double bn = 0.0; /* beta . n w dS */
    for (int k = 0; k < DIM; k++) bn += beta[k] * ff[t * FACE_FAC + 1 + k];
    ff[t * FACE_FAC + FACE_TAUF] = tau * w * ds + fmax(bn, 0.0);
    ff[t * FACE_FAC + FACE_TAUN] = tau * w * ds + fmax(bn, 0.0) - bn;
  }
  barrier(CLK_GLOBAL_MEM_FENCE);

  /* M = (phi_j, phi_i)_K;  D = (c phi_j, phi_i)_K + <tau_f phi_j, phi_i>_dK
   * - (beta phi_j, grad phi_i)_K  (F22); S[i][j] at j NP + i.  Each work-item
   * takes MB columns j of row i, so phi_i and its factors are loaded once for
   * MB products (columns past NP read column NP - 1 and are not stored). */
#ifndef POINT_COEFFICIENTS
  const double c = c_e[e];
#endif
  __global double *Me = M + (long)le * NP * NP, *Se = S + (long)le * NP * NP;
  for (int t = lid; t < NP * ((NP + MB - 1) / MB); t += wg) {
    const int i = t % NP, j0 = (t / NP) * MB;
    int jb[MB];
    for (int b = 0; b < MB; b++) jb[b] = min(j0 + b, NP - 1);
    double m[MB], d[MB];
    for (int b = 0; b < MB; b++) m[b] = d[b] = 0.0;
#ifdef POINT_COEFFICIENTS /* m: (phi_j / kappa, phi_i)_K; d starts with (c phi_j, phi_i)_K */
    for (int q = 0; q < NQ_LOAD; q++) {
      const double pi = phi[q * NP + i], wm = vf[q * VOL_FAC + VF_MK] * pi, wc = vf[q * VOL_FAC + VF_C] * pi;
      for (int b = 0; b < MB; b++) {
        m[b] += wm * phi[q * NP + jb[b]];
        d[b] += wc * phi[q * NP + jb[b]];
      }
    }
#else
    for (int q = 0; q < NQ_LOAD; q++) {
      const double wi = vf[q * VOL_FAC] * phi[q * NP + i];
      for (int b = 0; b < MB; b++) m[b] += wi * phi[q * NP + jb[b]];
    }
#endif
    for (int f = 0; f < NFACES; f++) {
      __global const double *pf = phi_face + (f * NORIENT + orient[f]) * NQ_FACE * NP;
      for (int q = 0; q < NQ_FACE; q++) {
        const double wi = ff[(f * NQ_FACE + q) * FACE_FAC + FACE_TAUF] * pf[q * NP + i];
        for (int b = 0; b < MB; b++) d[b] += wi * pf[q * NP + jb[b]];
      }
    }
    if (convection) /* w|J| beta . grad phi_i = sum_kl beta_k (w adj J)_lk d_l phi_i */
      for (int q = 0; q < NQ_LOAD; q++) {
#ifdef POINT_COEFFICIENTS
        for (int k = 0; k < DIM; k++) beta[k] = vf[q * VOL_FAC + VF_BETA + k];
#endif
        double bg = 0.0;
        for (int k = 0; k < DIM; k++)
          for (int l = 0; l < DIM; l++)
            bg += beta[k] * vf[q * VOL_FAC + 2 + l * DIM + k] * dphi[(q * NP + i) * DIM + l];
        for (int b = 0; b < MB; b++) d[b] -= bg * phi[q * NP + jb[b]];
      }
#ifdef POINT_COEFFICIENTS /* M holds A = (phi_j / kappa, phi_i)_K already */
    for (int b = 0; b < MB && j0 + b < NP; b++) {
      Me[(j0 + b) * NP + i] = m[b];
      Se[(j0 + b) * NP + i] = d[b];
    }
#else
#ifdef KAPPA_TENSOR
    const double ms = 1.0; /* A^-1 = K (x) M^-1: M^-1 here, K by mapped_kappa_mix */
#else
    const double ms = m_over_kappa ? 1.0 / kappa_e[e] : 1.0; /* A = M / kappa for its inverse */
#endif
    for (int b = 0; b < MB && j0 + b < NP; b++) {
      Me[(j0 + b) * NP + i] = ms * m[b];
      Se[(j0 + b) * NP + i] = c * m[b] + d[b];
    }
#endif
  }

  /* T[q][(k, j)] = sum_l (w adj J)_lk d_l phi_j at point q, so that
   * B_k[j][i] = -(phi_i, d_k phi_j)_K = -sum_q T[q][(k, j)] phi_i(x_q) (the GEMM
   * B = -T Phi^T of host/pipeline/local_mapped.c); C_k[j][(f,m)] = <psi_m, phi_j n_k>_F
   * into Y's columns NP + (f, m).  One work-item per (q, j), resp. (f, m, j),
   * for every component k. */
  __global double *Te = T + (long)le * XROWS * NQ_LOAD;
  for (int idx = lid; idx < NP * NQ_LOAD; idx += wg) {
    const int q = idx / NP, j = idx % NP;
    double g[DIM];
    for (int l = 0; l < DIM; l++) g[l] = dphi[(q * NP + j) * DIM + l];
    for (int k = 0; k < DIM; k++) {
      double dk = 0.0;
      for (int l = 0; l < DIM; l++) dk += vf[q * VOL_FAC + 2 + l * DIM + k] * g[l];
      Te[q * XROWS + k * NP + j] = dk;
    }
  }
  __global double *Ye = Y + (long)le * XROWS * XCOLS + XROWS * NP;
  for (int idx = lid; idx < NP * NT; idx += wg) {
    const int a = idx / NP, j = idx % NP, f = a / NF, m = a % NF;
    __global const double *pf = phi_face + (f * NORIENT + orient[f]) * NQ_FACE * NP;
    double v[DIM];
    for (int k = 0; k < DIM; k++) v[k] = 0.0;
    for (int q = 0; q < NQ_FACE; q++) {
      const double pq = psi[q * NF + m] * pf[q * NP + j];
      for (int k = 0; k < DIM; k++) v[k] += pq * ff[(f * NQ_FACE + q) * FACE_FAC + 1 + k];
    }
    for (int k = 0; k < DIM; k++) Ye[a * XROWS + k * NP + j] = v[k];
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

/* M = L L^T (right-looking Cholesky), then L^-1 in place column by column
 * from the last (LAPACK's dtrti2: with L = [l 0; v L2], column j of L^-1 below
 * the diagonal is -L2^-1 v / l, L2^-1 already in place), written back as
 * Ls = sqrt(kappa) L^-1 with zeros above the diagonal.  The work copy is in
 * local memory unless SCRATCH_GLOBAL (then M itself). */
#ifdef SCRATCH_GLOBAL
#define FACTOR_FENCE CLK_GLOBAL_MEM_FENCE
#else
#define FACTOR_FENCE CLK_LOCAL_MEM_FENCE
#endif
__kernel void mapped_factor(const int e0, __global const double *kappa_e, __global double *M) {
  const int le = get_group_id(0);
  const int lid = get_local_id(0), wg = get_local_size(0);
  __global double *Me = M + (long)le * NP * NP;
  __local double col[NP];
#ifdef SCRATCH_GLOBAL
  __global double *a = Me;
#else
  __local double a[NP * NP];
  for (int idx = lid; idx < NP * NP; idx += wg) a[idx] = Me[idx];
  barrier(CLK_LOCAL_MEM_FENCE);
#endif
  CHOLESKY_IN_PLACE(a, NP, lid, wg, FACTOR_FENCE);
  for (int j = NP - 1; j >= 0; j--) {
    const double inv = 1.0 / a[j * NP + j];
    for (int i = j + 1 + lid; i < NP; i += wg) {
      double s = 0.0;
      for (int k = j + 1; k <= i; k++) s += a[i * NP + k] * a[k * NP + j];
      col[i] = s;
    }
    barrier(CLK_LOCAL_MEM_FENCE | FACTOR_FENCE);
    for (int i = j + 1 + lid; i < NP; i += wg) a[i * NP + j] = -inv * col[i];
    if (lid == 0) a[j * NP + j] = inv;
    barrier(CLK_LOCAL_MEM_FENCE | FACTOR_FENCE);
  }
#if defined(POINT_COEFFICIENTS) || defined(KAPPA_TENSOR)
  /* points: M was A = (phi_j / kappa, phi_i)_K, A^-1 = L^-T L^-1; a tensor:
   * Ls = L^-1, K enters by mapped_kappa_mix */
  const double sk = 1.0;
#else
  const double sk = sqrt(kappa_e[e0 + le]);
#endif
  for (int idx = lid; idx < NP * NP; idx += wg) Me[idx] = idx % NP <= idx / NP ? sk * a[idx] : 0.0;
}
#undef FACTOR_FENCE

#ifdef KAPPA_TENSOR
/* A tensor kappa (docs/formulation.md section 7c): A^-1 = K (x) M^-1 for the
 * element's constant K, so with X_l = M^-1 Y_l (inverse) or L^-1 Y_l
 * (factored) computed with kappa = 1, per column of X and row j, in place:
 *   inverse:  X_k <- sum_l K_kl X_l       (X = A^-1 Y, G = Y^T X),
 *   factored: X_m <- sum_k R_km X_k       (K = R R^T: G = X^T X = Y^T A^-1 Y),
 * and recovery (cl/pipeline/recover.cl mapped_recover_q) applies R again in the
 * factored form. */
__kernel void mapped_kappa_mix(const int e0, const int inverse, __global const double *kappa_e,
                               __global double *X) {
  const int le = get_group_id(0);
  const int lid = get_local_id(0), wg = get_local_size(0);
  double t[DIM * DIM];
  kappa_tensor(kappa_e, e0 + le, inverse ? KAPPA_K(DIM) : KAPPA_R(DIM), t);
  __global double *Xe = X + (long)le * XROWS * XCOLS;
  for (int idx = lid; idx < NP * XCOLS; idx += wg) {
    const int c = idx / NP, j = idx % NP;
    double x[DIM];
    for (int l = 0; l < DIM; l++) x[l] = Xe[c * XROWS + l * NP + j];
    for (int k = 0; k < DIM; k++) {
      double s = 0.0;
      for (int l = 0; l < DIM; l++) s += (inverse ? t[k * DIM + l] : t[l * DIM + k]) * x[l];
      Xe[c * XROWS + k * NP + j] = s;
    }
  }
}
#endif

#if NCOMP > 1
/* Linear elasticity on mapped elements (docs/elasticity.md section 11): the
 * scalar kernels above run with kappa = mu (the device's kappa buffer holds
 * mu for the vector problems) into scalar-sized S, [W | F], K, giving S0, W0
 * and K0 of (E7); these two kernels expand them into Z, [Wext | Fext] and
 * K0 (x) I_d of (E8)-(E9) in the layouts of cl/pipeline/local.cl's elasticity_build.
 * mapped_elasticity_pre runs before mapped_factor, on the raw M and Y
 * (Y rows (k, j), column c < NP: B_k[j][c], column NP + (f, m): C_k[j][(f, m)]):
 * the blocks -B^T, -B and -eps M of Z and the pressure rows C of Wext. */
#define DNP (DIM * NP)
#define FACE_NEUMANN 2 /* host/fem/hdg.h */
__kernel void mapped_elasticity_pre(const int e0, __global const double *mu_e,
                                    __global const double *lambda_e,
                                    __global const double *M, __global const double *Y,
                                    __global double *Z, __global double *WF) {
  const int le = get_group_id(0);
  const long e = e0 + le;
  const int lid = get_local_id(0), wg = get_local_size(0);
  const double eps = 1.0 / (mu_e[e] + lambda_e[e]);
  __global const double *Me = M + (long)le * NP * NP, *Ye = Y + (long)le * XROWS * XCOLS;
  __global double *Ze = Z + (long)le * NZ * NZ, *WFe = WF + (long)le * NZ * (NTB + 1);
  for (int idx = lid; idx < NZ * NZ; idx += wg) {
    const int r = idx % NZ, col = idx / NZ;
    const int ri = r / NP, a = r % NP, ci = col / NP, b = col % NP;
    double v = 0.0;
    if (ri < DIM && ci == DIM) /* -B_ri^T[a][b] = -B_ri[b][a] */
      v = -Ye[a * XROWS + ri * NP + b];
    else if (ri == DIM && ci < DIM) /* -B_ci[a][b] */
      v = -Ye[b * XROWS + ci * NP + a];
    else if (ri == DIM && ci == DIM)
      v = -eps * Me[b * NP + a];
    Ze[idx] = v; /* u blocks: S0 (x) I_d in mapped_elasticity_post */
  }
  for (int idx = lid; idx < (NTB + 1) * NP; idx += wg) { /* pressure rows: C_c[a][(f, m)], 0 */
    const int col = idx / NP, a = idx % NP;
    const int f = col / NFB, c = (col % NFB) / NF, m = col % NF;
    WFe[col * NZ + DNP + a] = col < NTB ? Ye[(NP + f * NF + m) * XROWS + c * NP + a] : 0.0;
  }
}

/* After G's blocks are added: S0 on the u blocks of Z, the u rows of [Wext | Fext]
 * (W0 on component c's columns, the load (f_i, phi_a)_K by the load points'
 * w |J| of FAC), K0 (x) I_d; the terms of (E17) (weight w = mu_e - mu0, on
 * every face) and with traction data (NONSYMMETRIC) those of (E13) (weight
 * mu0, traction faces), from the factored X = sqrt(mu_e) L^-1 [B | C], since
 * mu_e C_i^T M^-1 B_j = X_Ci^T X_Bj: per unit of mu_e
 *   P[(j, b)][(f, i, m)] = sum_a X[(i,a), NP+fm] X[(j,a), b] - X[(j,a), NP+fm] X[(i,a), b],
 *   Q[(f, i, m)][(g, j, n)] = sum_a X[(i,a), NP+fm] X[(j,a), NP+gn] - X[(j,a), NP+fm] X[(i,a), NP+gn],
 *   Z[(i, a)][(j, b)] += sum_r X[(j,r), a] X[(i,r), b] - X[(i,r), a] X[(j,r), b]   (E17 only). */
__kernel void mapped_elasticity_post(const int e0, __global const double *coords,
                                     __global const int *elem_verts,
                                     __global const int *elem_faces, __global const char *face_bc,
                                     const double mu, const double lambda,
                                     __global const double *mu_e, const double mu0,
                                     const int problem_id,
                                     const double problem_param,
                                     __global const double *load_points,
                                     __global const double *phi, /* [NQ_LOAD][NP] */
                                     __global const double *fac, __global const double *X,
                                     __global const double *S, __global const double *WS,
                                     __global const double *KS, __global double *Z,
                                     __global double *WF, __global double *WL, __global double *K) {
  const int le = get_group_id(0);
  const long e = e0 + le;
  const int lid = get_local_id(0), wg = get_local_size(0);
  __local double fq[NQ_LOAD * DIM];
  problem_params pp = {problem_id, DIM, 0, problem_param, mu, lambda};
  __global const double *vf = fac + (long)le * FAC_PER_ELEMENT, *Xe = X + (long)le * XROWS * XCOLS;
  __global const double *Se = S + (long)le * NP * NP, *WSe = WS + (long)le * NP * (NT + 1);
  __global const double *KSe = KS + (long)le * (NT + 1) * (NT + 1);
  __global double *Ze = Z + (long)le * NZ * NZ, *WFe = WF + (long)le * NZ * (NTB + 1);
  __global double *WLe = WL + (long)le * NZ * (NTB + 1), *Ke = K + (long)le * (NTB + 1) * (NTB + 1);
  bool traction[NFACES];
  for (int f = 0; f < NFACES; f++) traction[f] = face_bc[elem_faces[e * ELEM_NFACES + f]] == FACE_NEUMANN;
  const double wm = (mu_e[e] - mu0) / mu_e[e], tm = mu0 / mu_e[e]; /* weights per unit of mu_e */
  for (int idx = lid; idx < DIM * NP * NP; idx += wg) {
    const int i = idx / (NP * NP), a = idx % NP, b = (idx / NP) % NP;
    Ze[(i * NP + b) * NZ + i * NP + a] = Se[b * NP + a];
  }
  if (wm != 0.0) /* (E17): the u blocks i != j */
    for (int idx = lid; idx < DNP * DNP; idx += wg) {
      const int col = idx / DNP, r = idx % DNP, i = r / NP, a = r % NP, j = col / NP, b = col % NP;
      if (i == j) continue;
      double v = 0.0;
      for (int k = 0; k < NP; k++)
        v += Xe[a * XROWS + j * NP + k] * Xe[b * XROWS + i * NP + k] -
             Xe[a * XROWS + i * NP + k] * Xe[b * XROWS + j * NP + k];
      Ze[col * NZ + r] = wm * v;
    }
  for (int q = lid; q < NQ_LOAD; q += wg) {
    double xi[DIM], x[3], jac[DIM * DIM], fv[3];
    for (int l = 0; l < DIM; l++) xi[l] = load_points[q * DIM + l];
    element_map(e, coords, elem_verts, xi, x, jac);
    problem_elasticity_f(pp, x, fv);
    for (int i = 0; i < DIM; i++) fq[q * DIM + i] = vf[q * VOL_FAC] * fv[i];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int idx = lid; idx < (NTB + 1) * DNP; idx += wg) {
    const int col = idx / DNP, r = idx % DNP, i = r / NP, a = r % NP;
    double w = 0.0, pt = 0.0;
    if (col == NTB) {
      for (int q = 0; q < NQ_LOAD; q++) w += fq[q * DIM + i] * phi[q * NP + a];
    } else {
      const int f = col / NFB, c = (col % NFB) / NF, m = col % NF;
      if (c == i) {
        w = WSe[(f * NF + m) * NP + a];
      } else if (wm != 0.0 || traction[f]) { /* P[(i, a)][(f, c, m)] */
        double p1 = 0.0;
        for (int k = 0; k < NP; k++)
          p1 += Xe[(NP + f * NF + m) * XROWS + c * NP + k] * Xe[a * XROWS + i * NP + k] -
                Xe[(NP + f * NF + m) * XROWS + i * NP + k] * Xe[a * XROWS + c * NP + k];
        w = wm * p1;
        if (traction[f]) pt = tm * p1;
      }
    }
    WFe[col * NZ + r] = w;
#ifdef NONSYMMETRIC
    WLe[col * NZ + r] = w + pt;
#endif
  }
#ifdef NONSYMMETRIC
  for (int idx = lid; idx < (NTB + 1) * NP; idx += wg) /* pressure rows: as WF */
    WLe[(idx / NP) * NZ + DNP + idx % NP] = WFe[(idx / NP) * NZ + DNP + idx % NP];
#endif
  for (int idx = lid; idx < (NTB + 1) * (NTB + 1); idx += wg) {
    const int col = idx / (NTB + 1), r = idx % (NTB + 1);
    double k = 0.0;
    if (r < NTB && col < NTB) {
      const int f = r / NFB, c = (r % NFB) / NF, m = r % NF;
      const int h = col / NFB, c2 = (col % NFB) / NF, n = col % NF;
      if (c == c2) {
        k = KSe[(h * NF + n) * (NT + 1) + f * NF + m];
      } else if (wm != 0.0 || traction[f]) { /* -Q[(f, c, m)][(h, c2, n)] */
        for (int a = 0; a < NP; a++)
          k -= Xe[(NP + f * NF + m) * XROWS + c * NP + a] * Xe[(NP + h * NF + n) * XROWS + c2 * NP + a] -
               Xe[(NP + f * NF + m) * XROWS + c2 * NP + a] * Xe[(NP + h * NF + n) * XROWS + c * NP + a];
        k *= wm + (traction[f] ? tm : 0.0);
      }
    }
    Ke[idx] = k;
  }
}
#undef DNP
#undef FACE_NEUMANN
#endif /* NCOMP > 1 */
