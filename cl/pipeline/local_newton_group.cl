/* Newton's element kernel with one work-group of NEWTON_WG work-items per
 * element (docs/nonlinear.md section 7, host/pipeline/local_newton.c): the
 * same residual (N2)-(N3), Jacobian (N5) and condensation (N6) as
 * newton_element of cl/pipeline/local_newton.cl, in the same layouts and the
 * same order of summation per entry, so the two agree to round-off (the
 * pivots are chosen alike).  Phases, with a barrier between each:
 *  1. the state (u, q, the trace) into local memory, the element's scratch zeroed;
 *  2. one work-item per quadrature point (volume, then faces): the map,
 *     u_h, q_h, kappa(u_h), kappa'(u_h), f, and on faces lambda_h, q_h . n and
 *     Burgers' h, dh/du, dh/dlambda (N15)-(N16), into local memory;
 *  3. the residual, one entry of R_L (N2) or R_T^e (N3) per work-item, each
 *     a sum over the points;
 *  4. the Jacobian: one basis pair (i, j) per work-item for the volume blocks
 *     A(u), N_k, B_k, -B_k^T, D (+ the faces' part of D), one pair (i, m) for
 *     J_LT and J_TL, one (m, n) for J_TT;
 *  5. Gauss-Jordan with partial pivoting on [J_LL | J_LT | R_L] (in global
 *     memory: at k = 4 on quadrilaterals it is 75 x 96): per column the pivot
 *     (the first largest |a_rc|, as the one-item kernel, by a reduction over
 *     the work-items), the scaled pivot row and the factor column into local
 *     memory, then every entry updated in parallel;
 *  6. K_e = J_TT - J_TL Z_T and -g_e = R_T^e - J_TL Z_R, one entry per work-item.
 * Prepended: common.h, problems.h, geometry.h, pipeline/newton_element.h.
 * Compile-time sizes: the pipeline's, and NEWTON_WG. */

/* per volume point: weight * det J, det J, u_h, kappa, kappa', div q_h, f, q_h[DIM], adj J[DIM^2] */
#define VW 0
#define VDET 1
#define VUH 2
#define VK 3
#define VDK 4
#define VDIVQ 5
#define VF 6
#define VQH 7
#define VADJ (7 + DIM)
#define VQ (7 + DIM + DIM * DIM)
/* per face point: weight, tau w ds, u_h, lambda_h, q_h . n ds, w h, w dh/du, w dh/dlambda,
 * 1 where R_T takes h (not an outflow face, (N25)), n ds[DIM] */
#define FW 0
#define FTW 1
#define FUH 2
#define FLH 3
#define FQN 4
#define FHW 5
#define FDHU 6
#define FDHL 7
#define FHT 8
#define FN 9
#define FQ (9 + DIM)

/* the smallest power of two >= NEWTON_WG (the pivot's reduction) */
#define WG_POW2 (NEWTON_WG <= 1 ? 1 : NEWTON_WG <= 2 ? 2 : NEWTON_WG <= 4 ? 4 : NEWTON_WG <= 8 ? 8 : \
                 NEWTON_WG <= 16 ? 16 : NEWTON_WG <= 32 ? 32 : NEWTON_WG <= 64 ? 64 : \
                 NEWTON_WG <= 128 ? 128 : NEWTON_WG <= 256 ? 256 : NEWTON_WG <= 512 ? 512 : 1024)

/* d_k phi_i at volume point qp: sum_l (J^-1)_lk d_l phi_i, J^-1 = adj / det (as newton_element) */
void group_grad(__local const double *v, __global const double *dphi, const int qp, const int i,
                double gi[DIM]) {
  for (int kk = 0; kk < DIM; kk++) {
    gi[kk] = 0.0;
    for (int l = 0; l < DIM; l++) gi[kk] += v[VADJ + l * DIM + kk] * dphi[(qp * NP + i) * DIM + l];
    gi[kk] /= v[VDET];
  }
}

__kernel __attribute__((reqd_work_group_size(NEWTON_WG, 1, 1)))
void newton_element_group(const int jacobian, const int nonlinear, __global const double *coords,
                          __global const int *elem_verts, __global const char *elem_orient,
                          __global const int *elem_faces, __global const char *face_bc,
                          __global const double *kappa_e, __global const double *c_e,
                          const double tau, const int problem_id, const int problem_degree,
                          const double problem_param, const double problem_nu,
                          __global const double *load_points, __global const double *load_weights,
                          __global const double *phi, __global const double *dphi,
                          __global const double *face_weights, __global const double *psi,
                          __global const double *phi_face, __global const double *face_xi,
                          __global const double *face_tangent, __global const double *face_nref,
                          __global const double *element_load, __global const double *state_u,
                          __global const double *state_q, __global const double *state_trace,
                          __global double *rl_all, __global double *aug_all, __global double *jtl_all,
                          __global double *k_all, __global double *rl2, __global double *rt_all,
                          __global int *flags, const int num_elements) {
  __local double vq[NQ_LOAD * VQ], fq[NFACES * NQ_FACE * FQ];
  __local double u[NP], q[DIM * NP], lam[NT], rl_l[NL], rt_l[NT];
  __local double rowk[NA], oldrow[NA], colk[NL];
  __local int orient[NFACES], pivot, singular, pidx[NEWTON_WG];
  __local double pbest[NEWTON_WG];
  const long e = get_group_id(0);
  const int lid = get_local_id(0);
  if (e >= num_elements) return; /* the whole group: the range is whole groups of elements */
  problem_params pp = {problem_id, DIM, problem_degree, problem_param, 0.0, 0.0, problem_nu};
  const int burgers = PROBLEM_IS_BURGERS(problem_id);
  double av[3], bv[3]; /* F(u) = u^2/2 a + u b (N15) */
  burgers_flux_vectors(pp, av, bv);
  __global double *aug = aug_all + e * NL * NA, *jtl = jtl_all + e * NT * NL;
  __global double *k = k_all + e * (NT + 1) * (NT + 1), *rt = rt_all + e * NT;
  __global double *rl = rl_all + e * NL;
  const double kap_e = kappa_e[e], c = c_e[e];

  /* 1. the state; the scratch zeroed (only the Jacobian pass writes aug, jtl, k:
   * a line search's trial keeps the Z of the last linearisation for (N7)) */
  for (int j = lid; j < NP; j += NEWTON_WG) u[j] = state_u[e * NP + j];
  for (int j = lid; j < DIM * NP; j += NEWTON_WG) q[j] = state_q[e * DIM * NP + j];
  for (int j = lid; j < NT; j += NEWTON_WG)
    lam[j] = state_trace[(long)elem_faces[e * NFACES + j / NF] * NF + j % NF];
  for (int f = lid; f < NFACES; f += NEWTON_WG) orient[f] = elem_orient[e * NFACES + f];
  if (jacobian) {
    for (long i = lid; i < (long)NL * NA; i += NEWTON_WG) aug[i] = 0.0;
    for (int i = lid; i < NT * NL; i += NEWTON_WG) jtl[i] = 0.0;
    for (int i = lid; i < (NT + 1) * (NT + 1); i += NEWTON_WG) k[i] = 0.0;
  }
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);

  /* 2. the quadrature points' values */
  for (int qp = lid; qp < NQ_LOAD; qp += NEWTON_WG) {
    __local double *v = vq + qp * VQ;
    double xi[DIM], x[3], jac[DIM * DIM], adj[DIM * DIM];
    for (int l = 0; l < DIM; l++) xi[l] = load_points[qp * DIM + l];
    const double detj = element_map(e, coords, elem_verts, xi, x, jac);
    adjugate(jac, adj);
    __global const double *ph = phi + qp * NP;
    double uh = 0.0, qh[DIM], divq = 0.0;
    for (int kk = 0; kk < DIM; kk++) qh[kk] = 0.0;
    for (int j = 0; j < NP; j++) {
      uh += u[j] * ph[j];
      for (int kk = 0; kk < DIM; kk++) {
        qh[kk] += q[kk * NP + j] * ph[j];
        double g = 0.0;
        for (int l = 0; l < DIM; l++) g += adj[l * DIM + kk] * dphi[(qp * NP + j) * DIM + l];
        divq += q[kk * NP + j] * g / detj;
      }
    }
    double dk, kappa = newton_kappa(pp, nonlinear, kap_e, x, uh, &dk);
    double fx = problem_f(pp, x[0], x[1], x[2]);
#ifdef ELEMENT_LOAD /* a time step's stage: its element load s (docs/time.md (T3)) */
    fx += element_load_at(element_load, e, phi, qp);
#endif
    v[VW] = load_weights[qp] * detj;
    v[VDET] = detj;
    v[VUH] = uh;
    v[VK] = kappa;
    v[VDK] = dk;
    v[VDIVQ] = divq;
    v[VF] = fx;
    for (int kk = 0; kk < DIM; kk++) v[VQH + kk] = qh[kk];
    for (int l = 0; l < DIM * DIM; l++) v[VADJ + l] = adj[l];
  }
  for (int fp = lid; fp < NFACES * NQ_FACE; fp += NEWTON_WG) {
    const int f = fp / NQ_FACE, qp = fp % NQ_FACE, o = orient[f];
    __local double *v = fq + fp * FQ;
    double X[DIM], x[3], nds[3];
    for (int l = 0; l < DIM; l++) X[l] = face_xi[((f * NORIENT + o) * NQ_FACE + qp) * DIM + l];
    const double ds = face_normal(e, coords, elem_verts, X, face_tangent + f * 2 * DIM,
                                  face_nref + f * DIM, x, nds);
    const double w = face_weights[qp], tw = tau * w * ds;
    __global const double *ph = phi_face + ((f * NORIENT + o) * NQ_FACE + qp) * NP;
    __global const double *ps = psi + qp * NF;
    double uh = 0.0, lh = 0.0, qn = 0.0;
    for (int j = 0; j < NP; j++) {
      uh += u[j] * ph[j];
      for (int kk = 0; kk < DIM; kk++) qn += q[kk * NP + j] * ph[j] * nds[kk];
    }
    for (int m = 0; m < NF; m++) lh += lam[f * NF + m] * ps[m];
    /* Burgers (N15)-(N16), as newton_element */
    double an = 0.0, bn = 0.0;
    for (int kk = 0; kk < DIM; kk++) {
      an += av[kk] * nds[kk];
      bn += bv[kk] * nds[kk];
    }
    if (!burgers) an = bn = 0.0;
    const double a = lh * an + bn, tauc = fabs(a), sg = a > 0.0 ? 1.0 : (a < 0.0 ? -1.0 : 0.0);
    v[FW] = w;
    v[FTW] = tw;
    v[FUH] = uh;
    v[FLH] = lh;
    v[FQN] = qn;
    v[FHW] = w * (0.5 * lh * lh * an + lh * bn + tauc * (uh - lh));
    v[FDHU] = w * tauc;
    v[FDHL] = w * (a + sg * an * (uh - lh) - tauc);
    v[FHT] = face_bc[elem_faces[e * NFACES + f]] == FACE_NEUMANN ? 0.0 : 1.0;
    for (int kk = 0; kk < DIM; kk++) v[FN + kk] = nds[kk];
  }
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);

  /* 3. the residual: R_L row r (N2), then R_T^e entry m (N3) */
  for (int r = lid; r < NL + NT; r += NEWTON_WG) {
    double s = 0.0;
    if (r < DIM * NP) { /* R_{q_k}: (kappa^-1 q_h,k, phi_i) - (u_h, d_k phi_i) + <lambda n_k, phi_i> */
      const int kk = r / NP, i = r % NP;
      for (int qp = 0; qp < NQ_LOAD; qp++) {
        __local const double *v = vq + qp * VQ;
        double gi[DIM];
        group_grad(v, dphi, qp, i, gi);
        s += v[VW] * (v[VQH + kk] / v[VK] * phi[qp * NP + i] - v[VUH] * gi[kk]);
      }
      for (int fp = 0; fp < NFACES * NQ_FACE; fp++) {
        __local const double *v = fq + fp * FQ;
        const int f = fp / NQ_FACE, qp = fp % NQ_FACE;
        s += v[FW] * v[FN + kk] * v[FLH] * phi_face[((f * NORIENT + orient[f]) * NQ_FACE + qp) * NP + i];
      }
    } else if (r < NL) { /* R_u: (div q_h + c u_h - f, phi_i) - (F(u_h), grad phi_i) + <tau (u - lambda) + h, phi_i> */
      const int i = r - DIM * NP;
      for (int qp = 0; qp < NQ_LOAD; qp++) {
        __local const double *v = vq + qp * VQ;
        double gi[DIM], agrad = 0.0, bgrad = 0.0;
        group_grad(v, dphi, qp, i, gi);
        for (int kk = 0; kk < DIM; kk++) {
          agrad += av[kk] * gi[kk];
          bgrad += bv[kk] * gi[kk];
        }
        const double uh = v[VUH];
        s += v[VW] * ((v[VDIVQ] + c * uh - v[VF]) * phi[qp * NP + i] -
                      (burgers ? 0.5 * uh * uh * agrad + uh * bgrad : 0.0));
      }
      for (int fp = 0; fp < NFACES * NQ_FACE; fp++) {
        __local const double *v = fq + fp * FQ;
        const int f = fp / NQ_FACE, qp = fp % NQ_FACE;
        s += (v[FTW] * (v[FUH] - v[FLH]) + v[FHW]) *
             phi_face[((f * NORIENT + orient[f]) * NQ_FACE + qp) * NP + i];
      }
    } else { /* R_T^e = -<q.n + tau (u - lambda) + h, psi_m> */
      const int col = r - NL, f = col / NF, m = col % NF;
      for (int qp = 0; qp < NQ_FACE; qp++) {
        __local const double *v = fq + (f * NQ_FACE + qp) * FQ;
        s -= (v[FW] * v[FQN] + v[FTW] * (v[FUH] - v[FLH]) + v[FHT] * v[FHW]) * psi[qp * NF + m];
      }
    }
    if (r < NL) {
      rl[r] = s;
      rl_l[r] = s;
      if (jacobian) AUG(r, NA - 1) = s; /* R_L: the last column */
    } else {
      rt[r - NL] = s;
      rt_l[r - NL] = s;
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  if (lid == 0) {
    double s = 0.0;
    for (int i = 0; i < NL; i++) s += rl_l[i] * rl_l[i];
    rl2[e] = s;
    int bad = 0;
    for (int qp = 0; qp < NQ_LOAD; qp++) {
      const double kappa = vq[qp * VQ + VK];
      if (!(kappa > 0.0) || !isfinite(kappa)) bad = 1;
    }
    flags[e] = bad;
  }
  if (!jacobian) return;

  /* 4a. volume blocks, one basis pair (i, j) per work-item: A(u), N_k + B_k, -B_k^T, D */
  for (int p = lid; p < NP * NP; p += NEWTON_WG) {
    const int i = p / NP, j = p % NP;
    double mass = 0.0, nb[DIM], bt[DIM], dd = 0.0;
    for (int kk = 0; kk < DIM; kk++) nb[kk] = bt[kk] = 0.0;
    for (int qp = 0; qp < NQ_LOAD; qp++) {
      __local const double *v = vq + qp * VQ;
      const double w = v[VW], kappa = v[VK], phi_i = phi[qp * NP + i], phi_j = phi[qp * NP + j];
      double gi[DIM], agrad = 0.0, bgrad = 0.0;
      group_grad(v, dphi, qp, i, gi);
      for (int kk = 0; kk < DIM; kk++) {
        agrad += av[kk] * gi[kk];
        bgrad += bv[kk] * gi[kk];
      }
      const double pij = w * phi_i * phi_j;
      mass += pij / kappa;
      for (int kk = 0; kk < DIM; kk++) {
        nb[kk] += -pij * v[VDK] / (kappa * kappa) * v[VQH + kk] - w * phi_j * gi[kk];
        bt[kk] += w * phi_j * gi[kk];
      }
      dd += c * pij;
      if (burgers) dd -= w * phi_j * (v[VUH] * agrad + bgrad); /* (N16) */
    }
    /* the stabilisation's and Burgers' face part of D: <(tau + dh/du) phi_j, phi_i> */
    for (int fp = 0; fp < NFACES * NQ_FACE; fp++) {
      __local const double *v = fq + fp * FQ;
      const int f = fp / NQ_FACE, qp = fp % NQ_FACE;
      __global const double *ph = phi_face + ((f * NORIENT + orient[f]) * NQ_FACE + qp) * NP;
      dd += (v[FTW] + v[FDHU]) * ph[i] * ph[j];
    }
    for (int kk = 0; kk < DIM; kk++) {
      AUG(kk * NP + i, kk * NP + j) = mass;    /* A(u) */
      AUG(kk * NP + i, DIM * NP + j) = nb[kk]; /* N_k + B_k */
      AUG(DIM * NP + j, kk * NP + i) = bt[kk]; /* -B_k^T */
    }
    AUG(DIM * NP + i, DIM * NP + j) = dd;
  }
  /* 4b. J_LT (C_k, -E + (N16)) and J_TL (-C_k^T, -E^T + (N16)), one pair (i, col) per work-item */
  for (int p = lid; p < NP * NT; p += NEWTON_WG) {
    const int i = p / NT, col = p % NT, f = col / NF, m = col % NF;
    double cl[DIM], ctl[DIM], elt = 0.0, etl = 0.0;
    for (int kk = 0; kk < DIM; kk++) cl[kk] = ctl[kk] = 0.0;
    for (int qp = 0; qp < NQ_FACE; qp++) {
      __local const double *v = fq + (f * NQ_FACE + qp) * FQ;
      const double ph_i = phi_face[((f * NORIENT + orient[f]) * NQ_FACE + qp) * NP + i];
      const double ps_m = psi[qp * NF + m];
      for (int kk = 0; kk < DIM; kk++) {
        const double cv = v[FW] * v[FN + kk] * ps_m * ph_i;
        cl[kk] += cv;
        ctl[kk] -= cv;
      }
      const double ev = v[FTW] * ph_i * ps_m;
      elt += v[FDHL] * ph_i * ps_m - ev;
      etl -= ev + v[FHT] * v[FDHU] * ph_i * ps_m;
    }
    for (int kk = 0; kk < DIM; kk++) {
      AUG(kk * NP + i, NL + col) = cl[kk];
      JTL(col, kk * NP + i) = ctl[kk];
    }
    AUG(DIM * NP + i, NL + col) = elt;
    JTL(col, DIM * NP + i) = etl;
  }
  /* 4c. J_TT: H + (N16), one pair (m, n) of a face per work-item */
  for (int p = lid; p < NFACES * NF * NF; p += NEWTON_WG) {
    const int f = p / (NF * NF), m = (p / NF) % NF, n = p % NF;
    double s = 0.0;
    for (int qp = 0; qp < NQ_FACE; qp++) {
      __local const double *v = fq + (f * NQ_FACE + qp) * FQ;
      s += (v[FTW] - v[FHT] * v[FDHL]) * psi[qp * NF + m] * psi[qp * NF + n];
    }
    KE(f * NF + m, f * NF + n) = s;
  }
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);

  /* 5. (N6): [J_LL | J_LT | R_L] -> [I | Z_T | Z_R] by Gauss-Jordan with partial pivoting */
  if (lid == 0) singular = 0;
  for (int col = 0; col < NL; col++) {
    /* the pivot: the first row of largest |a_r,col|, r >= col (as newton_element), by a
     * reduction over the work-items in the order (larger value, then smaller row) */
    double best = -1.0;
    int at = NL;
    for (int r = col + lid; r < NL; r += NEWTON_WG)
      if (fabs(AUG(r, col)) > best) {
        best = fabs(AUG(r, col));
        at = r;
      }
    pbest[lid] = best;
    pidx[lid] = at;
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    for (int span = WG_POW2 / 2; span > 0; span /= 2) {
      if (lid < span && lid + span < NEWTON_WG) {
        const double b = pbest[lid + span];
        const int i = pidx[lid + span];
        if (b > pbest[lid] || (b == pbest[lid] && i < pidx[lid])) {
          pbest[lid] = b;
          pidx[lid] = i;
        }
      }
      barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    }
    if (lid == 0) pivot = singular || pbest[0] == 0.0 || pidx[0] >= NL ? -1 : pidx[0];
    if (lid == 0 && pivot < 0) singular = 1;
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    /* the pivot row scaled, the row it swaps with, the factors a_r,col of the other rows
     * (a singular J_LL leaves the rest of the elimination undone, every barrier still
     * met: no early return from inside the loop, whose barriers PoCL's work-item loops
     * must see alike) */
    if (pivot >= 0) {
      const int p = pivot;
      const double inv = 1.0 / AUG(p, col);
      for (int j = col + lid; j < NA; j += NEWTON_WG) {
        rowk[j] = AUG(p, j) * inv;
        oldrow[j] = AUG(col, j);
      }
      for (int r = lid; r < NL; r += NEWTON_WG) colk[r] = r == p ? AUG(col, col) : AUG(r, col);
    }
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    if (pivot >= 0) { /* pivot is read again here, not carried across the barrier */
      const int p = pivot, width = NA - col;
      for (int t = lid; t < NL * width; t += NEWTON_WG) {
        const int r = t / width, j = col + t % width;
        if (r == col) {
          AUG(col, j) = rowk[j];
        } else {
          const double src = r == p ? oldrow[j] : AUG(r, j), fct = colk[r];
          AUG(r, j) = fct == 0.0 ? src : src - fct * rowk[j];
        }
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  }
  if (singular) { /* J_LL singular: uniform across the group, after the last barrier */
    if (lid == 0) flags[e] = 2;
    return;
  }

  /* 6. K_e = H - J_TL Z_T; last column -g_e = R_T^e - J_TL Z_R; Dirichlet columns zero */
  for (int t = lid; t < NT * (NT + 1); t += NEWTON_WG) {
    const int b = t / NT, a = t % NT;
    const bool dirichlet = b < NT && face_bc[elem_faces[e * NFACES + b / NF]] == FACE_DIRICHLET;
    double v = b < NT ? KE(a, b) : rt_l[a];
    for (int l = 0; l < NL; l++) v -= JTL(a, l) * AUG(l, NL + b);
    KE(a, b) = dirichlet ? 0.0 : v;
  }
  /* A last barrier: without it PoCL 3.1 (CPU) miscompiled this phase in work-groups larger
   * than its NT (NT + 1) entries (wrong K_e, heap corruption; oclgrind found nothing). */
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
}
