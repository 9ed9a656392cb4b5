/* Recovery (docs/formulation.md section 8, step 4): u and q of every element
 * from the trace (F9), (F17); the postprocessed u* of degree p+1 (F12); and
 * the L2 errors against the exact solution.  One work-group per element.
 * Prepended: common.h, problems.h, geometry.h.  Sizes: DIM, NVERT, NFACES,
 * NORIENT, NP, NP1, NF, NT, NQ_ERR. */

#define FACE_DIRICHLET 1

/* The trace half of the recovery, (F9) and (E8), shared by the scalar and the
 * vector problems (nf values per face: NF, or NFB = NCOMP NF):
 * lam = the element's trace values, face-major (unknowns from x, Dirichlet
 * values from bvals), then out_i = Z_F,i + sum_a Z_W,ia lam_a for i < nz,
 * Z column-major nz x (nt+1).  Each work-item writes the out_i of its own i
 * (i = lid, lid + wg, ...), so it may read them back without a barrier. */
static void element_trace_solution(const long e, const int nint, const int nf, const int nt,
                                   const int nz, __global const double *Ze,
                                   __global const double *x, __global const double *bvals,
                                   __global const int *elem_faces,
                                   __global const int *face_unknown, __local double *lam,
                                   __local double *out) {
  const int lid = get_local_id(0), wg = get_local_size(0);
  for (int a = lid; a < nt; a += wg) {
    const int f = a / nf, n = a % nf;
    const int face = elem_faces[e * ELEM_NFACES + f];
    const int uk = face_unknown[face];
    lam[a] = uk >= 0 ? x[(long)uk * nf + n] : bvals[(long)(face - nint) * nf + n];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int i = lid; i < nz; i += wg) {
    double s = Ze[nt * nz + i];
    for (int a = 0; a < nt; a++) s += Ze[a * nz + i] * lam[a];
    out[i] = s;
  }
}

/* u = Z_F + Z_W lambda (F9) and q (F17) for chunk elements [e0, e0+n):
 * Z is column-major NP x (NT+1) per element, starting at element zfirst. */
__kernel void recover_local(const int e0, const int zfirst, const int nint,
                            __global const double *Z,
                            __global const double *x, __global const double *bvals,
                            __global const int *elem_faces, __global const int *face_unknown,
                            __global const double *coords, __global const int *elem_verts,
                            __global const char *elem_orient, __global const double *kappa_e,
                            __global const double *dm, /* [DIM][NP][NP] */
                            __global const double *ef, /* [NFACES][NORIENT][NP][NF] */
                            __global double *u, __global double *q) {
  const int le = get_group_id(0);
  const long e = e0 + le;
  const int lid = get_local_id(0), wg = get_local_size(0);
  __local double lam[NT];
  __local double ul[NP];
  element_trace_solution(e, nint, NF, NT, NP, Z + (e - zfirst) * NP * (NT + 1), x, bvals,
                         elem_faces, face_unknown, lam, ul);
  for (int i = lid; i < NP; i += wg) u[e * ROW_NP + i] = ul[i];
#if !MAPPED /* mapped elements: mapped_recover_q */
  barrier(CLK_LOCAL_MEM_FENCE);
  geometry g;
  element_geometry(e, coords, elem_verts, &g);
#ifdef KAPPA_TENSOR
  /* (F17t): q = K q1 per node j, q1 the q of (F17) with kappa = 1 */
  double K[DIM * DIM];
  kappa_tensor(kappa_e, e, KAPPA_K(DIM), K);
  for (int j = lid; j < NP; j += wg) {
    double q1[DIM];
    for (int k = 0; k < DIM; k++) {
      double s = 0.0;
      for (int l = 0; l < DIM; l++) {
        double dtu = 0.0;
        for (int i = 0; i < NP; i++) dtu += dm[(l * NP + i) * NP + j] * ul[i];
        s += g.jinv[l * DIM + k] * dtu;
      }
      for (int f = 0; f < NFACES; f++) {
        const int o = elem_orient[e * ELEM_NFACES + f];
        __global const double *E = ef + ((f * NORIENT + o) * NP + j) * NF;
        double el = 0.0;
        for (int m = 0; m < NF; m++) el += E[m] * lam[f * NF + m];
        s -= (g.face_measure[f] / FACE_REF_MEASURE) * g.normal[f][k] * el / g.detj;
      }
      q1[k] = s;
    }
    for (int k = 0; k < DIM; k++) {
      double s = 0.0;
      for (int l = 0; l < DIM; l++) s += K[k * DIM + l] * q1[l];
      q[(e * DIM + k) * ROW_NP + j] = s;
    }
  }
#else
  const double kappa = kappa_e[e];
  /* q_k = kappa sum_l Jinv[l][k] (Dm_l^T u) - (kappa/|J|) sum_f sigma_f n_fk Ef_{f,o} lambda_f */
  for (int idx = lid; idx < DIM * NP; idx += wg) {
    const int k = idx / NP, j = idx % NP;
    double s = 0.0;
    for (int l = 0; l < DIM; l++) {
      double dtu = 0.0;
      for (int i = 0; i < NP; i++) dtu += dm[(l * NP + i) * NP + j] * ul[i];
      s += kappa * g.jinv[l * DIM + k] * dtu;
    }
    for (int f = 0; f < NFACES; f++) {
      const int o = elem_orient[e * ELEM_NFACES + f];
      __global const double *E = ef + ((f * NORIENT + o) * NP + j) * NF;
      double el = 0.0;
      for (int m = 0; m < NF; m++) el += E[m] * lam[f * NF + m];
      s -= kappa / g.detj * (g.face_measure[f] / FACE_REF_MEASURE) * g.normal[f][k] * el;
    }
    q[(e * DIM + k) * ROW_NP + j] = s;
  }
#endif /* KAPPA_TENSOR */
#endif
}

#if NCOMP > 1
/* Linear elasticity (docs/elasticity.md section 11): [u; p] =
 * Z_F + Z_W lambda (E8) with Z = Z^-1 [Wext | Fext] column-major NZ x (NTB+1)
 * per element (starting at element zfirst), then (E7) with M = |J| I:
 *   H_ij = M^-1 (B_j u_i + C_j lambda_i)
 *        = -sum_l Jinv[l][j] (Dm_l^T u_i) + |J|^-1 sum_f sigma_f n_f,j Ef_f lambda_{f,i}
 * on affine elements (mapped elements: mapped_elasticity_h).
 * u [e][c][NP], H in q [e][c][DIM][NP], p [e][NP]. */
__kernel void elasticity_recover(const int e0, const int zfirst, const int nint,
                                 __global const double *Z, __global const double *x,
                                 __global const double *bvals, __global const int *elem_faces,
                                 __global const int *face_unknown, __global const double *coords,
                                 __global const int *elem_verts, __global const char *elem_orient,
                                 __global const double *dm, /* [DIM][NP][NP] */
                                 __global const double *ef, /* [NFACES][NORIENT][NP][NF] */
                                 __global double *u, __global double *q, __global double *p) {
  const int le = get_group_id(0);
  const long e = e0 + le;
  const int lid = get_local_id(0), wg = get_local_size(0);
  __local double lam[NTB];
  __local double up[NZ];
  element_trace_solution(e, nint, NFB, NTB, NZ, Z + (e - zfirst) * NZ * (NTB + 1), x, bvals,
                         elem_faces, face_unknown, lam, up);
  for (int i = lid; i < NZ; i += wg) {
    if (i < DIM * NP)
      u[(e * DIM + i / NP) * ROW_NP + i % NP] = up[i];
    else
      p[e * ROW_NP + i - DIM * NP] = up[i];
  }
#if !MAPPED
  barrier(CLK_LOCAL_MEM_FENCE);
  geometry g;
  element_geometry(e, coords, elem_verts, &g);
  for (int idx = lid; idx < DIM * DIM * NP; idx += wg) {
    const int i = idx / (DIM * NP), j = (idx / NP) % DIM, a = idx % NP;
    double s = 0.0;
    for (int l = 0; l < DIM; l++) {
      double dtu = 0.0;
      for (int b = 0; b < NP; b++) dtu += dm[(l * NP + b) * NP + a] * up[i * NP + b];
      s -= g.jinv[l * DIM + j] * dtu;
    }
    for (int f = 0; f < NFACES; f++) {
      const int o = elem_orient[e * ELEM_NFACES + f];
      __global const double *E = ef + ((f * NORIENT + o) * NP + a) * NF;
      double el = 0.0;
      for (int m = 0; m < NF; m++) el += E[m] * lam[f * NFB + i * NF + m];
      s += (g.face_measure[f] / FACE_REF_MEASURE) * g.normal[f][j] * el / g.detj;
    }
    q[(e * DIM * DIM + idx / NP) * ROW_NP + a] = s;
  }
#endif
}
#endif

/* Work arrays of the postprocessing Cholesky: local memory, or with
 * SCRATCH_GLOBAL a global scratch buffer (when they exceed local memory). */
#ifdef SCRATCH_GLOBAL
#define SCRATCH __global
#else
#define SCRATCH __local
#endif
#define FENCE (CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)

/* Index of (i, j), j <= i, in packed lower-triangular storage. */
#define PACKED(i, j) ((i) * ((i) + 1) / 2 + (j))

/* In-place Cholesky of an n x n SPD matrix in packed lower storage, by the
 * whole work-group (right-looking, one column per step). */
void cholesky_packed(SCRATCH double *a, const int n) {
  const int lid = get_local_id(0), wg = get_local_size(0);
  for (int k = 0; k < n; k++) {
    if (lid == 0) a[PACKED(k, k)] = sqrt(a[PACKED(k, k)]);
    barrier(FENCE);
    const double dkk = a[PACKED(k, k)];
    for (int i = k + 1 + lid; i < n; i += wg) a[PACKED(i, k)] /= dkk;
    barrier(FENCE);
    /* The trailing lower triangle, entry by entry in packed order: entry t
     * of it is (i, j) = (k + 1 + r, k + 1 + c) with c <= r; each work-item
     * walks its entries t = lid, lid + wg, ... by steps, no division.  (A
     * loop without a bound, left by a break, made PoCL 5.0's work-item loop
     * pass abort: "Cannot add context restore for a PHI node".) */
    const int m = n - 1 - k;
    int r = 0, c = lid;
    for (int t = lid; t < m * (m + 1) / 2; t += wg, c += wg) {
      while (c > r) { /* past the end of row r: on to the next rows */
        c -= r + 1;
        r++;
      }
      a[PACKED(k + 1 + r, k + 1 + c)] -= a[PACKED(k + 1 + r, k)] * a[PACKED(k + 1 + c, k)];
    }
    barrier(FENCE);
  }
}

/* Solves L L^T y = b in place (b in local memory), by the whole work-group. */
void cholesky_packed_solve(SCRATCH const double *l, SCRATCH double *b, const int n) {
  const int lid = get_local_id(0), wg = get_local_size(0);
  for (int k = 0; k < n; k++) { /* L y = b, column oriented */
    if (lid == 0) b[k] /= l[PACKED(k, k)];
    barrier(FENCE);
    for (int i = k + 1 + lid; i < n; i += wg) b[i] -= l[PACKED(i, k)] * b[k];
    barrier(FENCE);
  }
  for (int k = n - 1; k >= 0; k--) { /* L^T x = y, row oriented */
    if (lid == 0) b[k] /= l[PACKED(k, k)];
    barrier(FENCE);
    for (int i = lid; i < k; i += wg) b[i] -= l[PACKED(k, i)] * b[k];
    barrier(FENCE);
  }
}

#if !MAPPED
/* u* (F12) on the non-constant modes 1..NP1-1 of the degree p+1 basis:
 *   |J| sum_lm G_lm Kpost_lm u* = -(|J|/kappa) sum_l sum_k Jinv[l][k] Dpost_l q_k,
 * and u*_0 = u_0: in the orthonormal basis phi+_0 is the only mode with a
 * non-zero mean on an affine element.  Vector problems (NCOMP > 1): (E10),
 * each component c from row c of H (q [e][c][DIM][NP]) in place of
 * -q / kappa, one factorisation for the NCOMP right-hand sides. */
#define NPOST (NP1 - 1)
__kernel void postprocess(const int e0, __global const double *coords,
                          __global const int *elem_verts, __global const double *kappa_e,
                          __global const double *kpost, /* [DIM*DIM][NP1][NP1] */
                          __global const double *dpost, /* [DIM][NP1][NP] */
                          __global const double *u, __global const double *q,
                          __global double *ustar, __global double *scratch) {
  const int le = get_group_id(0);
  const long e = e0 + le;
  const int lid = get_local_id(0), wg = get_local_size(0);
#ifdef SCRATCH_GLOBAL
  __global double *a = scratch + (long)le * (NPOST * (NPOST + 1) / 2 + NCOMP * NPOST);
  __global double *b = a + NPOST * (NPOST + 1) / 2;
#else
  __local double a[NPOST * (NPOST + 1) / 2];
  __local double b[NCOMP * NPOST];
#endif
  geometry g;
  element_geometry(e, coords, elem_verts, &g);
  double G[DIM * DIM]; /* |J| J^-1 J^-T */
  element_metric(&g, G);
  for (int lm = 0; lm < DIM * DIM; lm++) G[lm] *= g.detj;
  for (int t = lid; t < NPOST * (NPOST + 1) / 2; t += wg) {
    /* invert PACKED: row i is the largest with i(i+1)/2 <= t */
    int i = (int)((sqrt(8.0 * t + 1.0) - 1.0) / 2.0);
    while (PACKED(i + 1, 0) <= t) i++;
    while (PACKED(i, 0) > t) i--;
    const int j = t - PACKED(i, 0);
    double s = 0.0;
    for (int lm = 0; lm < DIM * DIM; lm++)
      s += G[lm] * kpost[(lm * NP1 + i + 1) * NP1 + j + 1];
    a[t] = s;
  }
#if NCOMP > 1
  const double scale = g.detj; /* (E10): H_c. = -q / kappa */
  const double *jq = g.jinv;
#elif defined(KAPPA_TENSOR)
  const double scale = -g.detj; /* (F12t): K^-1 q in place of q / kappa */
  double jq[DIM * DIM];
  kappa_jinv(g.jinv, kappa_e, e, jq);
#else
  const double scale = -(g.detj / kappa_e[e]);
  const double *jq = g.jinv;
#endif
  for (int ci = lid; ci < NCOMP * NPOST; ci += wg) {
    const int cc = ci / NPOST, i = ci % NPOST;
    double s = 0.0;
    for (int l = 0; l < DIM; l++)
      for (int k = 0; k < DIM; k++) {
        double c = jq[l * DIM + k];
        __global const double *qk = q + ((e * NCOMP + cc) * DIM + k) * ROW_NP;
        __global const double *D = dpost + (l * NP1 + i + 1) * NP;
        double dq = 0.0;
        for (int j = 0; j < NP; j++) dq += D[j] * qk[j];
        s += c * dq;
      }
    b[ci] = scale * s;
  }
  barrier(FENCE);
  cholesky_packed(a, NPOST);
  for (int cc = 0; cc < NCOMP; cc++) {
    cholesky_packed_solve(a, b + cc * NPOST, NPOST);
    __global double *us = ustar + (e * NCOMP + cc) * ROW_NP1;
    if (lid == 0) us[0] = u[(e * NCOMP + cc) * ROW_NP];
    for (int i = lid; i < NPOST; i += wg) us[i + 1] = b[cc * NPOST + i];
  }
}
#else /* mapped elements */

#define XROWS (DIM * NP)
#define XCOLS (NP + NT)

/* q_k = -kappa M^-1 (B_k u + C_k lambda) = -Ls^T X_k [u; lambda] (F8) with
 * M = L L^T, Ls = sqrt(kappa) L^-1 and X = Ls [B | C] from cl/pipeline/local_mapped.cl
 * (chunk-relative).  A tensor kappa, factored: X_m = sum_k R_km L^-1 Y_k
 * (mapped_kappa_mix), so q_k = -sum_m R_km L^-T X_m [u; lambda]. */
__kernel void mapped_recover_q(const int e0, const int nint, const int inverse,
                               __global const double *Ls,
                               __global const double *X, __global const double *x,
                               __global const double *bvals, __global const int *elem_faces,
                               __global const int *face_unknown, __global const double *kappa_e,
                               __global const double *u, __global double *q) {
  const int le = get_group_id(0);
  const long e = e0 + le;
  const int lid = get_local_id(0), wg = get_local_size(0);
  __local double lam[NT];
  __local double v[DIM * NP];
  for (int a = lid; a < NT; a += wg) {
    const int face = elem_faces[e * ELEM_NFACES + a / NF];
    const int uk = face_unknown[face];
    lam[a] = uk >= 0 ? x[(long)uk * NF + a % NF] : bvals[(long)(face - nint) * NF + a % NF];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  __global const double *Xe = X + (long)le * XROWS * XCOLS, *Le = Ls + (long)le * NP * NP;
  for (int r = lid; r < XROWS; r += wg) {
    double s = 0.0;
    for (int c = 0; c < NP; c++) s += Xe[c * XROWS + r] * u[e * ROW_NP + c];
    for (int a = 0; a < NT; a++) s += Xe[(NP + a) * XROWS + r] * lam[a];
    v[r] = s;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  /* q = -Ls^T v per component (Ls lower triangular), or with inverse
   * (X = A^-1 Y, host/pipeline/local_mapped.c) q = -v. */
  for (int r = lid; r < XROWS && inverse; r += wg) q[(e * DIM + r / NP) * ROW_NP + r % NP] = -v[r];
#ifdef KAPPA_TENSOR
  double R[DIM * DIM];
  kappa_tensor(kappa_e, e, KAPPA_R(DIM), R);
  for (int i = lid; i < NP && !inverse; i += wg) {
    double t[DIM];
    for (int m = 0; m < DIM; m++) {
      double s = 0.0;
      for (int j = i; j < NP; j++) s += Le[j * NP + i] * v[m * NP + j];
      t[m] = s;
    }
    for (int k = 0; k < DIM; k++) {
      double s = 0.0;
      for (int m = 0; m <= k; m++) s += R[k * DIM + m] * t[m];
      q[(e * DIM + k) * ROW_NP + i] = -s;
    }
  }
#else
  for (int r = lid; r < XROWS && !inverse; r += wg) {
    const int k = r / NP, i = r % NP;
    double s = 0.0;
    for (int j = i; j < NP; j++) s += Le[j * NP + i] * v[k * NP + j];
    q[(e * DIM + k) * ROW_NP + i] = -s;
  }
#endif
}

#if NCOMP > 1
/* Elasticity on mapped elements: H_ij = M^-1 (B_j u_i + C_j lambda_i)
 * = Ls^T X_j [u_i; lambda_i] / mu (E7), Ls = sqrt(mu) L^-1, X = Ls [B | C] from
 * cl/pipeline/local_mapped.cl (kappa_e holds mu), component by component. */
__kernel void mapped_elasticity_h(const int e0, const int nint,
                                  const int inverse, /* 0: elasticity keeps Ls (mapped_recover_q's arguments) */
                                  __global const double *Ls,
                                  __global const double *X, __global const double *x,
                                  __global const double *bvals, __global const int *elem_faces,
                                  __global const int *face_unknown,
                                  __global const double *kappa_e, __global const double *u,
                                  __global double *q) {
  const int le = get_group_id(0);
  const long e = e0 + le;
  const int lid = get_local_id(0), wg = get_local_size(0);
  __local double lam[NTB];
  __local double v[DIM * NP];
  for (int a = lid; a < NTB; a += wg) {
    const int face = elem_faces[e * ELEM_NFACES + a / NFB];
    const int uk = face_unknown[face];
    lam[a] = uk >= 0 ? x[(long)uk * NFB + a % NFB] : bvals[(long)(face - nint) * NFB + a % NFB];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  __global const double *Xe = X + (long)le * XROWS * XCOLS, *Le = Ls + (long)le * NP * NP;
  const double mu = kappa_e[e];
  for (int i = 0; i < DIM; i++) {
    __global const double *ui = u + (e * DIM + i) * ROW_NP;
    for (int r = lid; r < XROWS; r += wg) {
      double s = 0.0;
      for (int c = 0; c < NP; c++) s += Xe[c * XROWS + r] * ui[c];
      for (int a = 0; a < NT; a++) s += Xe[(NP + a) * XROWS + r] * lam[(a / NF) * NFB + i * NF + a % NF];
      v[r] = s;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int r = lid; r < XROWS; r += wg) { /* Ls^T v / mu per block (Ls lower triangular) */
      const int b = r / NP, k = r % NP;
      double s = 0.0;
      for (int j = k; j < NP; j++) s += Le[j * NP + k] * v[b * NP + j];
      q[((e * DIM + i) * DIM + b) * ROW_NP + k] = s / mu;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
#endif

/* u* (F12) on a mapped element by quadrature at the load points: the reduced
 * stiffness sum_q grad phi+_i . G_q grad phi+_j (G_q = w |J| J^-1 J^-T) on the
 * non-constant modes, the right-hand side -(1/kappa) sum_q q_h . (w adj(J)^T
 * grad phi+_i), and the constant mode from (u*, 1)_K = (u_h, 1)_K. */
#define NPOST (NP1 - 1)
#define POST_FAC (1 + 2 * DIM * DIM + DIM + 1) /* w|J|, G, w adj, q_h, u_h */
#define POST_SCRATCH (NQ_LOAD * POST_FAC + NPOST * (NPOST + 1) / 2 + NPOST + NP1 + 1)
__kernel void mapped_postprocess(const int e0, __global const double *coords,
                                 __global const int *elem_verts, __global const double *kappa_e,
                                 __global const double *load_points,
                                 __global const double *load_weights,
                                 __global const double *phi,   /* [NQ_LOAD][NP] */
                                 __global const double *phi1,  /* [NQ_LOAD][NP1] */
                                 __global const double *dphi1, /* [NQ_LOAD][NP1][DIM] */
                                 __global const double *u, __global const double *q,
                                 __global double *ustar, __global double *scratch,
                                 const int problem_id, __global const int *elem_set) {
  const int le = get_group_id(0);
  const long e = e0 + le;
  const int lid = get_local_id(0), wg = get_local_size(0);
  __global double *pf = scratch + (long)le * POST_SCRATCH;
  __global double *a = pf + NQ_LOAD * POST_FAC, *b = a + NPOST * (NPOST + 1) / 2;
  __global double *mphi = b + NPOST, *mean_u = mphi + NP1;
  for (int k = lid; k < NQ_LOAD; k += wg) {
    double xi[DIM], x[3], jac[DIM * DIM], adj[DIM * DIM];
    for (int l = 0; l < DIM; l++) xi[l] = load_points[k * DIM + l];
    const double detj = element_map(e, coords, elem_verts, xi, x, jac);
    adjugate(jac, adj);
    const double w = load_weights[k];
    __global double *f = pf + k * POST_FAC;
    f[0] = w * detj;
    for (int l = 0; l < DIM; l++)
      for (int m = 0; m < DIM; m++) {
        double s = 0.0;
        for (int c = 0; c < DIM; c++) s += adj[l * DIM + c] * adj[m * DIM + c];
        f[1 + l * DIM + m] = w / detj * s;
      }
#ifdef POINT_COEFFICIENTS /* kappa(x) at the point: w adj / kappa, and kappa = 1 below */
    problem_params pp = {problem_id, DIM, 0, 0.0};
    double kappa, c, b[3];
    problem_coefficients_at(pp, elem_set[e], x[0], x[1], x[2], &kappa, &c, b);
    for (int c = 0; c < DIM * DIM; c++) f[1 + DIM * DIM + c] = w * adj[c] / kappa;
#else
    for (int c = 0; c < DIM * DIM; c++) f[1 + DIM * DIM + c] = w * adj[c];
#endif
  }
  barrier(CLK_GLOBAL_MEM_FENCE);
#ifdef KAPPA_TENSOR
  double kinv[DIM * DIM]; /* (F12t): K^-1 q_h at each point, in place of q_h / kappa */
  kappa_tensor(kappa_e, e, KAPPA_KINV(DIM), kinv);
#elif defined(POINT_COEFFICIENTS) /* 1 / kappa(x) is in the points' w adj already */
  const double kappa = 1.0;
#elif NCOMP == 1
  const double kappa = kappa_e[e];
#endif
  for (int t = lid; t < NPOST * (NPOST + 1) / 2; t += wg) {
    int i = (int)((sqrt(8.0 * t + 1.0) - 1.0) / 2.0);
    while (PACKED(i + 1, 0) <= t) i++;
    while (PACKED(i, 0) > t) i--;
    const int j = t - PACKED(i, 0);
    double s = 0.0;
    for (int k = 0; k < NQ_LOAD; k++) {
      __global const double *G = pf + k * POST_FAC + 1;
      __global const double *gi = dphi1 + (k * NP1 + i + 1) * DIM, *gj = dphi1 + (k * NP1 + j + 1) * DIM;
      for (int l = 0; l < DIM; l++)
        for (int m = 0; m < DIM; m++) s += gi[l] * G[l * DIM + m] * gj[m];
    }
    a[t] = s;
  }
  for (int j = lid; j < NP1; j += wg) {
    double s = 0.0;
    for (int k = 0; k < NQ_LOAD; k++) s += pf[k * POST_FAC] * phi1[k * NP1 + j];
    mphi[j] = s;
  }
  barrier(CLK_GLOBAL_MEM_FENCE);
  cholesky_packed(a, NPOST);
  /* Per component (vector problems: (E10), row cc of H in place of -q / kappa). */
  for (int cc = 0; cc < NCOMP; cc++) {
    __global const double *uc = u + (e * NCOMP + cc) * ROW_NP, *qc = q + (e * NCOMP + cc) * DIM * ROW_NP;
    for (int k = lid; k < NQ_LOAD; k += wg) {
      __global double *f = pf + k * POST_FAC;
      double uh = 0.0;
      for (int j = 0; j < NP; j++) uh += uc[j] * phi[k * NP + j];
#ifdef KAPPA_TENSOR
      double qh[DIM];
      for (int c = 0; c < DIM; c++) {
        qh[c] = 0.0;
        for (int j = 0; j < NP; j++) qh[c] += qc[c * ROW_NP + j] * phi[k * NP + j];
      }
      for (int c = 0; c < DIM; c++) {
        double s = 0.0;
        for (int l = 0; l < DIM; l++) s += kinv[c * DIM + l] * qh[l];
        f[1 + 2 * DIM * DIM + c] = s;
      }
#else
      for (int c = 0; c < DIM; c++) {
        double qh = 0.0;
        for (int j = 0; j < NP; j++) qh += qc[c * ROW_NP + j] * phi[k * NP + j];
        f[1 + 2 * DIM * DIM + c] = qh;
      }
#endif
      f[1 + 2 * DIM * DIM + DIM] = uh;
    }
    barrier(CLK_GLOBAL_MEM_FENCE);
    for (int i = lid; i < NPOST; i += wg) {
      double s = 0.0;
      for (int k = 0; k < NQ_LOAD; k++) {
        __global const double *f = pf + k * POST_FAC;
        __global const double *gi = dphi1 + (k * NP1 + i + 1) * DIM;
        for (int c = 0; c < DIM; c++) {
          double ag = 0.0; /* (w adj^T grad phi+_i)_c */
          for (int l = 0; l < DIM; l++) ag += f[1 + DIM * DIM + l * DIM + c] * gi[l];
          s += f[1 + 2 * DIM * DIM + c] * ag;
        }
      }
#if NCOMP > 1
      b[i] = s;
#elif defined(KAPPA_TENSOR)
      b[i] = -s; /* K^-1 q_h above */
#else
      b[i] = -s / kappa;
#endif
    }
    if (lid == 0) {
      double s = 0.0;
      for (int k = 0; k < NQ_LOAD; k++) s += pf[k * POST_FAC] * pf[k * POST_FAC + 1 + 2 * DIM * DIM + DIM];
      mean_u[0] = s;
    }
    barrier(CLK_GLOBAL_MEM_FENCE);
    cholesky_packed_solve(a, b, NPOST);
    __global double *us = ustar + (e * NCOMP + cc) * ROW_NP1;
    for (int i = lid; i < NPOST; i += wg) us[i + 1] = b[i];
    if (lid == 0) {
      double rest = 0.0;
      for (int j = 1; j < NP1; j++) rest += b[j - 1] * mphi[j];
      us[0] = (mean_u[0] - rest) / mphi[0];
    }
    barrier(CLK_GLOBAL_MEM_FENCE);
  }
}
#endif /* AFFINE */

/* u*'s consistency check (host/pipeline/recover.c: ustar_check_element), after the
 * errors of each element: CHECK_VALUES values per element,
 *   [c] = (u*_c - u_c, 1)_K, [NCOMP + c] = (u_c^2, 1)_K per component c,
 *   [2 NCOMP] = |K| (all three at the error points: (F12)'s constraint
 *   (u*, 1)_K = (u_h, 1)_K makes the first zero up to round-off),
 *   [2 NCOMP + 1] = max_i |r_i|, [2 NCOMP + 2] = max_i (sum_j |A_ij u*_j| + |b_i|),
 * r = A u* - b the residual of u*'s equations on the modes 1..NP1-1 (affine
 * elements; 0 on mapped ones), A and b as postprocess and postprocess_tiled
 * form them.  The last two are maxima, the others sums over the points. */
#define CHECK_VALUES (2 * NCOMP + 3)
#define CHECK_IS_MAX(c, nvalues) ((c) >= (nvalues) - 2)

#if !MAPPED
/* Rows i = 1 + lid, 1 + lid + ERR_WG, ... of r = A u* - b (F12), every
 * component, into *rmax and *rscale (see CHECK_VALUES). */
static void ustar_residual(const long e, __global const double *coords,
                           __global const int *elem_verts, __global const double *kappa_e,
                           __global const double *kpost, __global const double *dpost,
                           __global const double *q, __global const double *ustar,
                           double *rmax, double *rscale) {
  geometry g;
  element_geometry(e, coords, elem_verts, &g);
  double G[DIM * DIM]; /* |J| J^-1 J^-T */
  element_metric(&g, G);
  for (int lm = 0; lm < DIM * DIM; lm++) G[lm] *= g.detj;
#if NCOMP > 1
  const double scale = g.detj; /* (E10) */
  const double *jq = g.jinv;
#elif defined(KAPPA_TENSOR)
  const double scale = -g.detj; /* (F12t) */
  double jq[DIM * DIM];
  kappa_jinv(g.jinv, kappa_e, e, jq);
#else
  const double scale = -(g.detj / kappa_e[e]);
  const double *jq = g.jinv;
#endif
  for (int cc = 0; cc < NCOMP; cc++) {
    __global const double *us = ustar + (e * NCOMP + cc) * ROW_NP1;
    __global const double *qc = q + (e * NCOMP + cc) * DIM * ROW_NP;
    for (int i = 1 + (int)get_local_id(0); i < NP1; i += ERR_WG) {
      double au = 0.0, sa = 0.0, b = 0.0;
      for (int j = 1; j < NP1; j++) {
        double a = 0.0;
        for (int lm = 0; lm < DIM * DIM; lm++) a += G[lm] * kpost[(lm * NP1 + i) * NP1 + j];
        au += a * us[j];
        sa += fabs(a * us[j]);
      }
      for (int l = 0; l < DIM; l++)
        for (int j = 0; j < NP; j++) {
          double v = 0.0;
          for (int k = 0; k < DIM; k++) v += jq[l * DIM + k] * qc[k * ROW_NP + j];
          b += dpost[(l * NP1 + i) * NP + j] * v;
        }
      b *= scale;
      *rmax = fmax(*rmax, fabs(au - b));
      *rscale = fmax(*rscale, sa + fabs(b));
    }
  }
}
#endif

/* Per element: squared L2 errors of u, q, u*, max |u - u_h| at the error
 * quadrature points, and the squared L2 norms of the exact u and q, then
 * u*'s check (CHECK_VALUES): err[e][ERR_VALUES]. */
#define ERR_VALUES (6 + CHECK_VALUES)
__kernel void errors(const int e0, __global const double *coords, __global const int *elem_verts,
                     const int problem_id, const int problem_degree, const double problem_param,
                     __global const double *err_points,  /* [NQ_ERR][DIM] */
                     __global const double *err_weights, /* [NQ_ERR] */
                     __global const double *phi_err,     /* [NQ_ERR][NP]  degree p */
                     __global const double *phi1_err,    /* [NQ_ERR][NP1] degree p+1 */
                     __global const double *u, __global const double *q,
                     __global const double *ustar, __global double *err,
                     __global const double *kappa_e,
                     __global const double *kpost, /* [DIM*DIM][NP1][NP1] */
                     __global const double *dpost,  /* [DIM][NP1][NP] */
                     __global const int *elem_set /* region per element (POINT_COEFFICIENTS) */) {
  const int le = get_group_id(0);
  const long e = e0 + le;
  const int lid = get_local_id(0);
  __local double buf[ERR_WG];
  problem_params pp = {problem_id, DIM, problem_degree, problem_param};
  double s[ERR_VALUES];
  for (int c = 0; c < ERR_VALUES; c++) s[c] = 0.0;
#ifdef KAPPA_TENSOR
  double K[DIM * DIM]; /* exact q = -K grad u */
  kappa_tensor(kappa_e, e, KAPPA_K(DIM), K);
#elif !defined(POINT_COEFFICIENTS) /* else kappa(x) at each point below */
  const double kap = kappa_e[e]; /* constant per element (host/problem/problem.c) */
#endif
  for (int k = lid; k < NQ_ERR; k += ERR_WG) {
    double xi[DIM], x[3], grad[3], jac[DIM * DIM];
    for (int l = 0; l < DIM; l++) xi[l] = err_points[k * DIM + l];
    const double detj = element_map(e, coords, elem_verts, xi, x, jac);
#ifdef POINT_COEFFICIENTS /* exact q = -kappa(x) grad u */
    double kap, cc, bb[3];
    problem_coefficients_at(pp, elem_set[e], x[0], x[1], x[2], &kap, &cc, bb);
#endif
    const double uex = problem_u(pp, x[0], x[1], x[2], grad);
    __global const double *phi = phi_err + k * NP, *phi1 = phi1_err + k * NP1;
    double uh = 0.0, us = 0.0, eq = 0.0, qq = 0.0;
    for (int i = 0; i < NP; i++) uh += u[e * ROW_NP + i] * phi[i];
    for (int i = 0; i < NP1; i++) us += ustar[e * ROW_NP1 + i] * phi1[i];
    for (int c = 0; c < DIM; c++) {
      double qh = 0.0;
      for (int i = 0; i < NP; i++) qh += q[(e * DIM + c) * ROW_NP + i] * phi[i];
#ifdef KAPPA_TENSOR
      double kg = 0.0; /* (K grad u)_c */
      for (int l = 0; l < DIM; l++) kg += K[c * DIM + l] * grad[l];
      const double dq = qh + kg;
      eq += dq * dq;
      qq += kg * kg;
#else
      const double dq = qh + kap * grad[c];
      eq += dq * dq;
      qq += kap * kap * grad[c] * grad[c];
#endif
    }
    const double w = err_weights[k] * detj;
    s[0] += w * (uh - uex) * (uh - uex);
    s[1] += w * eq;
    s[2] += w * (us - uex) * (us - uex);
    s[3] = fmax(s[3], fabs(uh - uex));
    s[4] += w * uex * uex;
    s[5] += w * qq;
    s[6] += w * (us - uh);
    s[7] += w * uh * uh;
    s[8] += w;
  }
#if !MAPPED
  ustar_residual(e, coords, elem_verts, kappa_e, kpost, dpost, q, ustar, &s[9], &s[10]);
#endif
  for (int c = 0; c < ERR_VALUES; c++) {
    const bool is_max = c == 3 || CHECK_IS_MAX(c, ERR_VALUES);
    buf[lid] = s[c];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int h = ERR_WG / 2; h > 0; h >>= 1) {
      if (lid < h) buf[lid] = !is_max ? buf[lid] + buf[lid + h] : fmax(buf[lid], buf[lid + h]);
      barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) err[e * ERR_VALUES + c] = buf[0];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}

/* Vector problems (docs/elasticity.md (E11)): per element the squared L2
 * errors of u, H, p, u*, max |u - u_h| (Euclidean) at the error points, and
 * the squared norms of the exact u, H, p, then u*'s check (CHECK_VALUES):
 * err[e][ELAS_ERR_VALUES]. */
#define ELAS_ERR_VALUES (8 + CHECK_VALUES)
__kernel void elasticity_errors(const int e0, __global const double *coords,
                                __global const int *elem_verts, const int problem_id,
                                const double problem_param, const double mu, const double lambda,
                                __global const double *err_points,  /* [NQ_ERR][DIM] */
                                __global const double *err_weights, /* [NQ_ERR] */
                                __global const double *phi_err,     /* [NQ_ERR][NP] */
                                __global const double *phi1_err,    /* [NQ_ERR][NP1] */
                                __global const double *u, __global const double *q,
                                __global const double *p, __global const double *ustar,
                                __global double *err,
                                __global const double *kappa_e, /* mu per element */
                                __global const double *kpost, /* [DIM*DIM][NP1][NP1] */
                                __global const double *dpost, /* [DIM][NP1][NP] */
                                __global const double *lambda_e /* lambda per element */) {
  const int le = get_group_id(0);
  const long e = e0 + le;
  const int lid = get_local_id(0);
  __local double buf[ERR_WG];
  problem_params pp = {problem_id, DIM, 0, problem_param, mu, lambda};
  /* A user's exact pressure -(mu + lambda) div u takes the element's own mu, lambda. */
  if (problem_id == PROBLEM_USER) {
    pp.mu = kappa_e[e];
    pp.lambda = lambda_e[e];
  }
  double s[ELAS_ERR_VALUES];
  for (int c = 0; c < ELAS_ERR_VALUES; c++) s[c] = 0.0;
  for (int k = lid; k < NQ_ERR; k += ERR_WG) {
    double xi[DIM], x[3], jac[DIM * DIM], uex[3], gex[9], pex;
    for (int l = 0; l < DIM; l++) xi[l] = err_points[k * DIM + l];
    const double w = err_weights[k] * element_map(e, coords, elem_verts, xi, x, jac);
    problem_elasticity_u(pp, x, uex, gex, &pex);
    __global const double *phi = phi_err + k * NP, *phi1 = phi1_err + k * NP1;
    double eu = 0.0, es = 0.0, uu = 0.0, eh = 0.0, hh = 0.0;
    for (int i = 0; i < DIM; i++) {
      double uh = 0.0, us = 0.0;
      for (int a = 0; a < NP; a++) uh += u[(e * DIM + i) * ROW_NP + a] * phi[a];
      for (int a = 0; a < NP1; a++) us += ustar[(e * DIM + i) * ROW_NP1 + a] * phi1[a];
      eu += (uh - uex[i]) * (uh - uex[i]);
      es += (us - uex[i]) * (us - uex[i]);
      uu += uex[i] * uex[i];
      s[8 + i] += w * (us - uh);
      s[8 + NCOMP + i] += w * uh * uh;
      for (int j = 0; j < DIM; j++) {
        double hv = 0.0;
        for (int a = 0; a < NP; a++) hv += q[((e * DIM + i) * DIM + j) * ROW_NP + a] * phi[a];
        eh += (hv - gex[i * DIM + j]) * (hv - gex[i * DIM + j]);
        hh += gex[i * DIM + j] * gex[i * DIM + j];
      }
    }
    double ph = 0.0;
    for (int a = 0; a < NP; a++) ph += p[e * ROW_NP + a] * phi[a];
    s[0] += w * eu;
    s[1] += w * eh;
    s[2] += w * (ph - pex) * (ph - pex);
    s[3] += w * es;
    s[4] = fmax(s[4], sqrt(eu));
    s[5] += w * uu;
    s[6] += w * hh;
    s[7] += w * pex * pex;
    s[8 + 2 * NCOMP] += w;
  }
#if !MAPPED
  ustar_residual(e, coords, elem_verts, kappa_e, kpost, dpost, q, ustar, &s[8 + 2 * NCOMP + 1],
                 &s[8 + 2 * NCOMP + 2]); /* NCOMP > 1: kappa_e unused */
#endif
  for (int c = 0; c < ELAS_ERR_VALUES; c++) {
    const bool is_max = c == 4 || CHECK_IS_MAX(c, ELAS_ERR_VALUES);
    buf[lid] = s[c];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int h = ERR_WG / 2; h > 0; h >>= 1) {
      if (lid < h) buf[lid] = !is_max ? buf[lid] + buf[lid + h] : fmax(buf[lid], buf[lid + h]);
      barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) err[e * ELAS_ERR_VALUES + c] = buf[0];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
