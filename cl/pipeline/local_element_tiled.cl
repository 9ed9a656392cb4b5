/* The whole local stage of one element per GRID x GRID work-items, for GPUs: symmetric
 * scalar problems on affine elements (docs/formulation.md sections 7-8).
 * The element's augmented matrix
 *
 *       [ S          W F ]     NZ = NP rows: S (F13), [W | F] (F14), (F16)
 *   M = [                ]
 *       [ (W F)^T    K0  ]     NRHS = NT + 1 rows: K0 (F15), row and column NT zero
 *
 * is built in local memory from the element's geometry and the reference
 * tables (NA^2 doubles, NA = NZ + NRHS: the host takes this kernel where that
 * fits), then loaded onto cl/pipeline/gauss_jordan_tiled.h's GRID x GRID register
 * tiles, and Gauss-Jordan elimination over its first NZ columns only
 * (GJ_PIVOTS = NZ) leaves
 *
 *   Z = S^-1 [W | F]                  in the upper right block, and
 *   K = K0 - [W | F]^T S^-1 [W | F]   (F10) in the lower right block,
 *
 * the Schur complement of S in M.  Only Z and K are written: against the
 * split kernels (local_build_s, local_build, local_solve_tiled,
 * local_schur_k0) S and [W | F] go nowhere and one launch does the work of
 * four.  The pivots are those of local_solve_tiled (S's, in order, no
 * pivoting: S is SPD).  The lower left block, eliminated with the rest, is
 * never read.
 * Prepended: common.h, problems.h, geometry.h, local_factors.h,
 * gauss_jordan_tiled.h.  Compile-time sizes: the shared ones, GRID, EPG
 * (elements per work-group: several for the small grids), NRHS,
 * GJ_ROWS = GJ_COLS = NA, GJ_PIVOTS = NZ (NZ = NP).  Layouts per
 * element, column-major: Z [NRHS][NP] (from zoff doubles into its buffer),
 * K [NRHS][NRHS]; the tables as in cl/pipeline/local.cl. */

/* M (NA x NA, NA = NZ + NRHS, row-major) of the group's element into local
 * memory ml, each block with consecutive work-items on consecutive entries
 * of the reference tables (coalesced reads); lid: the work-item's index among
 * the element's GRID^2.  ws, r, kf: the element's
 * factors (element_factors), fq: the load's weighted values at the
 * quadrature points (F16). */
#define NA (NZ + NRHS)
void build_augmented(const int lid, __local double *ml, __local const double *ws,
                     __local const double *r, __local const double *kf,
                     __local const double *fq, __global const char *orient,
                     __global const double *dmdmt, __global const double *pf,
                     __global const double *ef, __global const double *dmef,
                     __global const double *efef, __global const double *phi_load) {
  for (int idx = lid; idx < NP * NP; idx += GRID * GRID) { /* (F13), in local_build_s's order */
    const int i = idx / NP, j = idx % NP;
    double s = i == j ? ws[WS_C] : 0.0;
    for (int f = 0; f < NFACES; f++) s += ws[f] * pf[(f * NP + i) * NP + j];
    for (int lm = 0; lm < DIM * DIM; lm++) s += ws[WS_G + lm] * dmdmt[(lm * NP + i) * NP + j];
    ml[i * NA + j] = s;
  }
  /* (F14) W's entry (i, (f, m)) right of S and, transposed, below it */
  for (int idx = lid; idx < NFACES * NP * NF; idx += GRID * GRID) {
    const int f = idx / (NP * NF), i = idx / NF % NP, m = idx % NF, o = orient[f];
    const double w =
        w_entry_local(r, ef[((f * NORIENT + o) * NP + i) * NF + m], dmef, f, o, i, m);
    ml[i * NA + NZ + f * NF + m] = w;
    ml[(NZ + f * NF + m) * NA + i] = w;
  }
  for (int i = lid; i < NP; i += GRID * GRID) { /* (F16) F_i = |J| sum_q w_q phi_i(xi_q) f(x_q) */
    double s = 0.0;
    for (int q = 0; q < NQ_LOAD; q++) s += fq[q] * phi_load[q * NP + i];
    ml[i * NA + NZ + NT] = ml[(NZ + NT) * NA + i] = r[EF_DETJ] * s;
  }
  for (int idx = lid; idx < NRHS * NRHS; idx += GRID * GRID) /* K0 (F15) */
    ml[(NZ + idx / NRHS) * NA + NZ + idx % NRHS] =
        k0_entry_local(kf, orient, efef, idx / NRHS, idx % NRHS);
}

/* Elements e0 + EPG group id + sub, n elements in all: work-groups of
 * GRID^2 x EPG work-items, the element's GRID^2 in dimension 0 and sub in
 * dimension 1 (so no index arithmetic: PoCL 3.1 miscompiled the elimination
 * with its work-item's index as get_local_id(0) % GRID^2, tiles of 6 rows
 * and more).  The work-items of a missing last element still meet the
 * barriers (live). */
__kernel __attribute__((reqd_work_group_size(GRID * GRID, EPG, 1)))
void local_element_tiled(const int e0, const int n, __global const double *coords,
                         __global const int *elem_verts, __global const char *elem_orient,
                         __global const double *kappa_e, __global const double *c_e,
                         const double tau, const int problem_id, const int problem_degree,
                         const double problem_param,
                         __global const double *dmdmt, /* [DIM*DIM][NP][NP] Dm_l Dm_m^T */
                         __global const double *pf,    /* [NFACES][NP][NP] */
                         __global const double *ef,    /* [NFACES][NORIENT][NP][NF] */
                         __global const double *dmef,  /* [DIM][NFACES][NORIENT][NP][NF] */
                         __global const double *efef,  /* Ef_fa^T Ef_fb (k0_entry) */
                         __global const double *load_points,  /* [NQ_LOAD][DIM] */
                         __global const double *load_weights, /* [NQ_LOAD] */
                         __global const double *phi_load,     /* [NQ_LOAD][NP] */
                         __global double *Z, const long zoff, __global double *K,
                         __global const double *element_load /* ELEMENT_LOAD: [E][NP] */) {
  __local double rowk_all[EPG][2 * GJ_TC * GRID], colk_all[EPG][2 * GJ_TR * GRID];
  __local double factors_all[EPG][NWS + NEF + NKF], fq_all[EPG][NQ_LOAD], ml_all[EPG][NA * NA];
  const int sub = get_local_id(1), lid = get_local_id(0);
  const int tr = lid % GRID, tc = lid / GRID;
  __local double *factors = factors_all[sub], *fq = fq_all[sub], *ml = ml_all[sub];
  __local const double *ws = factors, *r = factors + NWS, *kf = factors + NWS + NEF;
  const long le0 = get_group_id(1) * EPG + sub;
  const bool live = le0 < n;
  const long le = live ? le0 : n - 1, e = e0 + le;
  problem_params pp = {problem_id, DIM, problem_degree, problem_param};
  if (lid == 0) { /* the element's geometry, once */
    double beta[3];
    problem_beta(pp, beta);
    geometry g;
    element_geometry(e, coords, elem_verts, &g);
    double w[NWS], rp[NEF], k[NKF];
    element_factors(&g, beta, tau, kappa_e, e, c_e[e], w, rp, k);
    for (int t = 0; t < NWS; t++) factors[t] = w[t];
    for (int t = 0; t < NEF; t++) factors[NWS + t] = rp[t];
    for (int t = 0; t < NKF; t++) factors[NWS + NEF + t] = k[t];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int q = lid; q < NQ_LOAD; q += GRID * GRID) { /* (F16)'s w_q f(x_q) */
    fq[q] = load_value_local(pp, r, load_points, load_weights, q);
#ifdef ELEMENT_LOAD
    fq[q] += load_weights[q] * element_load_at(element_load, e, phi_load, q);
#endif
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  build_augmented(lid, ml, ws, r, kf, fq, elem_orient + e * ELEM_NFACES, dmdmt, pf, ef, dmef, efef,
                  phi_load);
  barrier(CLK_LOCAL_MEM_FENCE);
  double t[GJ_TR][GJ_TC];
#pragma unroll
  for (int a = 0; a < GJ_TR; a++)
#pragma unroll
    for (int b = 0; b < GJ_TC; b++) {
      const int i = tr + a * GRID, j = tc + b * GRID;
      t[a][b] = i < NA && j < NA ? ml[i * NA + j] : 0.0;
    }
  gauss_jordan_tiled(t, tr, tc, rowk_all[sub], colk_all[sub], 0);
  if (!live) return;
  __global double *Ze = Z + zoff + le * NP * NRHS, *Ke = K + le * NRHS * NRHS;
#pragma unroll
  for (int a = 0; a < GJ_TR; a++)
#pragma unroll
    for (int b = 0; b < GJ_TC; b++) {
      const int i = tr + a * GRID, j = tc + b * GRID;
      if (j < NZ || j >= NA || i >= NA) continue;
      if (i < NZ) Ze[(j - NZ) * NZ + i] = t[a][b];
      else Ke[(j - NZ) * NRHS + i - NZ] = t[a][b];
    }
}
