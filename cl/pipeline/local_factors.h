/* Per-element factors of the local stage on affine scalar elements
 * (docs/formulation.md sections 7-9), shared by cl/pipeline/local.cl (local_build_s
 * computes them, local_build, local_k0 and local_schur_k0 read them) and
 * cl/pipeline/local_element.cl and cl/pipeline/local_element_tiled.cl (which compute and use
 * them).
 * Prepended after common.h, problems.h, geometry.h. */
#ifndef HDGCL_CL_LOCAL_FACTORS_H
#define HDGCL_CL_LOCAL_FACTORS_H
#if AFFINE

/* (F22) beta . n_f of face f into *bn, and the upwinded tau_f = tau + max(beta . n_f, 0). */
double face_tau(const geometry *g, const double *beta, const double tau, const int f, double *bn) {
  double b = 0.0;
  for (int k = 0; k < DIM; k++) b += beta[k] * g->normal[f][k];
  *bn = b;
  return tau + fmax(b, 0.0);
}

/* Per element, the NWS weights of S's reference tables (F13), (F25):
 * tau_f sigma_f per face, c|J|, kappa|J| G_lm (G = J^-1 J^-T; a tensor
 * kappa: |J| (J^-1 K J^-T)_lm, (F13t)) and |J| (J^-1 beta)_l. */
#define WS_C NFACES
#define WS_G (NFACES + 1)
#define WS_BETA (NFACES + 1 + DIM * DIM)
#define NWS (NFACES + 1 + DIM * DIM + DIM)
/* Per element, the NKF factors of K0 (k0_entry): (kappa/|J|) sigma_fa
 * sigma_fb (n_fa . n_fb) (a tensor: (1/|J|) sigma_fa sigma_fb (n_fa . K n_fb),
 * (F15t)) for each pair of faces, then (tau_f - beta.n_f) sigma_f. */
#define NKF (NFACES * NFACES + NFACES)
/* Per element, the NEF factors of [W | F] (local_build): for [W | F] (F14),
 * (F25) sigma_f (tau_f - beta.n_f), sigma_f kappa (J^-1 n_f)_l (a tensor:
 * sigma_f (J^-1 K n_f)_l, (F14t)) and
 * sigma_f beta.n_f per face; for the load (F16) the affine map x0, J and |J|. */
#define EF_A 0                        /* [NFACES] */
#define EF_B NFACES                   /* [NFACES][DIM] */
#define EF_C (NFACES * (DIM + 1))     /* [NFACES] */
#define EF_X0 (NFACES * (DIM + 2))    /* [DIM] */
#define EF_JAC (EF_X0 + DIM)          /* [DIM][DIM] row-major */
#define EF_DETJ (EF_JAC + DIM * DIM)
#define NEF (EF_DETJ + 1)

/* The three sets of factors of element e with geometry g, conductivity
 * kappa_e[e] (KAPPA_TENSOR: the tensor K, cl/fem/problems.h) and reaction c, for
 * the problem's beta and stabilisation tau; ws only where ef is NULL
 * (local_build_s's work-groups but the first). */
void element_factors(const geometry *g, const double *beta, const double tau,
                     __global const double *kappa_e, const long e, const double c, double *ws,
                     double *ef, double *kf) {
  double sigma[NFACES], bn[NFACES], taun[NFACES];
  for (int f = 0; f < NFACES; f++) {
    sigma[f] = g->face_measure[f] / FACE_REF_MEASURE;
    const double tf = face_tau(g, beta, tau, f, &bn[f]);
    taun[f] = tf - bn[f]; /* (F22): E and H of the u-equation carry tau_f - beta.n_f */
    ws[f] = tf * sigma[f];
  }
  ws[WS_C] = c * g->detj;
#ifdef KAPPA_TENSOR
  /* A^-1 = (K (x) I) / |J| on an affine element, so in (F13) kappa G becomes
   * J^-1 K J^-T, in (F14) kappa J^-1 n_f becomes J^-1 K n_f and in (F15)
   * kappa n_fa . n_fb becomes n_fa . K n_fb (docs/formulation.md section 7c). */
  double K[DIM * DIM], JK[DIM * DIM]; /* K, J^-1 K */
  kappa_tensor(kappa_e, e, KAPPA_K(DIM), K);
  for (int l = 0; l < DIM; l++)
    for (int m = 0; m < DIM; m++) {
      double s = 0.0;
      for (int d = 0; d < DIM; d++) s += g->jinv[l * DIM + d] * K[d * DIM + m];
      JK[l * DIM + m] = s;
    }
  for (int l = 0; l < DIM; l++)
    for (int m = l; m < DIM; m++) { /* (J^-1 K J^-T)_lm, symmetric to the bit */
      double s = 0.0;
      for (int d = 0; d < DIM; d++) s += JK[l * DIM + d] * g->jinv[m * DIM + d];
      ws[WS_G + l * DIM + m] = ws[WS_G + m * DIM + l] = g->detj * s;
    }
#else
  const double kappa = kappa_e[e];
  double G[DIM * DIM]; /* J^-1 J^-T */
  element_metric(g, G);
  for (int lm = 0; lm < DIM * DIM; lm++) ws[WS_G + lm] = kappa * g->detj * G[lm];
#endif
  for (int l = 0; l < DIM; l++) {
    double bref = 0.0;
    for (int d = 0; d < DIM; d++) bref += g->jinv[l * DIM + d] * beta[d];
    ws[WS_BETA + l] = g->detj * bref;
  }
  if (!ef) return;
  for (int f = 0; f < NFACES; f++) {
    ef[EF_A + f] = sigma[f] * taun[f];
    for (int l = 0; l < DIM; l++) {
#ifdef KAPPA_TENSOR
      double v = 0.0; /* (J^-1 K n_f)_l */
      for (int d = 0; d < DIM; d++) v += JK[l * DIM + d] * g->normal[f][d];
      ef[EF_B + f * DIM + l] = sigma[f] * v;
#else
      double v = 0.0; /* (J^-1 n_f)_l */
      for (int d = 0; d < DIM; d++) v += g->jinv[l * DIM + d] * g->normal[f][d];
      ef[EF_B + f * DIM + l] = sigma[f] * kappa * v;
#endif
    }
    ef[EF_C + f] = sigma[f] * bn[f];
#ifdef KAPPA_TENSOR
    for (int h = f; h < NFACES; h++) { /* (F15t), symmetric to the bit */
      double ndot = 0.0; /* n_f . K n_h */
      for (int d = 0; d < DIM; d++)
        for (int m = 0; m < DIM; m++) ndot += g->normal[f][d] * K[d * DIM + m] * g->normal[h][m];
      kf[f * NFACES + h] = kf[h * NFACES + f] = sigma[f] * sigma[h] * ndot / g->detj;
    }
#else
    for (int h = 0; h < NFACES; h++) { /* (F15) */
      double ndot = 0.0;
      for (int d = 0; d < DIM; d++) ndot += g->normal[f][d] * g->normal[h][d];
      kf[f * NFACES + h] = (kappa / g->detj) * sigma[f] * sigma[h] * ndot;
    }
#endif
    kf[NFACES * NFACES + f] = taun[f] * sigma[f];
  }
  for (int d = 0; d < DIM; d++) ef[EF_X0 + d] = g->x0[d];
  for (int lm = 0; lm < DIM * DIM; lm++) ef[EF_JAC + lm] = g->jac[lm];
  ef[EF_DETJ] = g->detj;
}

/* K0[a][b] (F15) of one element from its factors kf (element_factors) and face
 * orientations: kf[fa NFACES + fb] (Ef_fa^T Ef_fb)[m][n], plus kf[NFACES^2 + fa]
 * on the diagonal, for a = (fa, m), b = (fb, n); row and column NT are zero.
 * The products in the order local_build formed K0 in before its factors.
 * k0_entry reads kf from global memory, k0_entry_local from local memory
 * (cl/pipeline/local_element_tiled.cl). */
#define K0_ENTRY(name, SPACE)                                                                     \
  double name(SPACE const double *kf, __global const char *orient, __global const double *efef,   \
              const int a, const int b) {                                                         \
    if (a >= NT || b >= NT) return 0.0;                                                           \
    const int fa = a / NF, m = a % NF, fb = b / NF, n = b % NF;                                   \
    const double s = efef[(((fa * NORIENT + orient[fa]) * NFACES + fb) * NORIENT + orient[fb]) *  \
                              NF * NF + m * NF + n]; /* (Ef_fa^T Ef_fb)[m][n] */                  \
    double k = kf[fa * NFACES + fb] * s;                                                          \
    if (a == b) k += kf[NFACES * NFACES + fa];                                                    \
    return k;                                                                                     \
  }
K0_ENTRY(k0_entry, __global)
K0_ENTRY(k0_entry_local, __local)
#undef K0_ENTRY

/* (F14) entry (i, m) of W_f = sigma_f [(tau_f - beta.n_f) Ef + kappa sum_l
 * (J^-1 n_f)_l Dm_l Ef] on face f in orientation o, from the element's
 * factors r (element_factors' ef: EF_A, EF_B) and efv, Ef's entry
 * ef[((f NORIENT + o) NP + i) NF + m] (the caller's, which (F25) reuses):
 * w_entry with r in global memory, w_entry_local in local memory. */
#define W_ENTRY(name, SPACE)                                                                      \
  double name(SPACE const double *r, const double efv, __global const double *dmef, const int f,  \
              const int o, const int i, const int m) {                                            \
    double w = r[EF_A + f] * efv;                                                                 \
    for (int l = 0; l < DIM; l++)                                                                 \
      w += r[EF_B + f * DIM + l] * dmef[(((l * NFACES + f) * NORIENT + o) * NP + i) * NF + m];    \
    return w;                                                                                     \
  }
W_ENTRY(w_entry, __global)
W_ENTRY(w_entry_local, __local)
#undef W_ENTRY

/* (F16)'s load at quadrature point q, w_q f(x_q) with x_q = x0 + J (xi_q + 1),
 * from the element's factors r (element_factors' ef: EF_X0, EF_JAC) in
 * global (load_value), local (load_value_local) or private memory
 * (load_value_private). */
#define LOAD_VALUE(name, SPACE)                                                                   \
  double name(const problem_params pp, SPACE const double *r,                                     \
              __global const double *load_points, __global const double *load_weights,            \
              const int q) {                                                                      \
    double x[3] = {0.0, 0.0, 0.0};                                                                \
    for (int k = 0; k < DIM; k++) {                                                               \
      x[k] = r[EF_X0 + k];                                                                        \
      for (int l = 0; l < DIM; l++)                                                               \
        x[k] += r[EF_JAC + k * DIM + l] * (load_points[q * DIM + l] + 1.0);                       \
    }                                                                                             \
    return load_weights[q] * problem_f(pp, x[0], x[1], x[2]);                                     \
  }
LOAD_VALUE(load_value, __global)
LOAD_VALUE(load_value_local, __local)
LOAD_VALUE(load_value_private, __private)
#undef LOAD_VALUE

#endif /* AFFINE */
#endif
