/* Newton's method on the device (docs/nonlinear.md, host/pipeline/local_newton.c):
 * per element, the residual (N2)-(N3) at the state and, with `jacobian`, the
 * dense element Jacobian (N5), condensed (N6) by Gauss elimination with
 * partial pivoting on the augmented matrix [J_LL | J_LT | R_L]; then the
 * recovery of the update (N7).  One work-item per element, its matrices in
 * global scratch (R_L kept apart from the augmented matrix, whose Z the
 * line search's trials reuse).  The map's Jacobian at every quadrature point
 * (element_map, face_normal: cl/fem/geometry.h), so straight-sided triangles,
 * quadrilaterals (bilinear), tetrahedra and hexahedra (trilinear) alike.
 * Viscous Burgers (PROBLEM_IS_BURGERS) adds its convective terms (N15) and
 * their derivatives (N16), as host/reference/reference_burgers.c. */

/* FACE_*, NL, NA, AUG, JTL, KE, newton_kappa: cl/pipeline/newton_element.h */

/* flags[e] = 1 where kappa(u_h) <= 0 (or not finite) was met at a quadrature point. */
__kernel void newton_element(const int jacobian, const int nonlinear, __global const double *coords,
                             __global const int *elem_verts, __global const char *elem_orient,
                             __global const int *elem_faces, __global const char *face_bc,
                             __global const double *kappa_e, __global const double *c_e,
                             const double tau, const int problem_id, const int problem_degree,
                             const double problem_param, const double problem_nu,
                             __global const double *load_points,  /* [NQ_LOAD][DIM] */
                             __global const double *load_weights, /* [NQ_LOAD] */
                             __global const double *phi,          /* [NQ_LOAD][NP] */
                             __global const double *dphi,         /* [NQ_LOAD][NP][DIM] */
                             __global const double *face_weights, /* [NQ_FACE] */
                             __global const double *psi,          /* [NQ_FACE][NF] */
                             __global const double *phi_face, /* [NFACES][NORIENT][NQ_FACE][NP] */
                             __global const double *face_xi,  /* [NFACES][NORIENT][NQ_FACE][DIM] */
                             __global const double *face_tangent, __global const double *face_nref,
                             __global const double *element_load, /* [E][NP] with ELEMENT_LOAD */
                             __global const double *state_u,     /* [E][NP] */
                             __global const double *state_q,     /* [E][DIM][NP] */
                             __global const double *state_trace, /* [faces][NF] */
                             __global double *rl_all,   /* [E][NL]: R_L (N2) */
                             __global double *aug_all,  /* [E][NL][NA] */
                             __global double *jtl_all,  /* [E][NT][NL] */
                             __global double *k_all,    /* [E][NT+1][NT+1] */
                             __global double *rl2,      /* [E]: |R_L|^2 */
                             __global double *rt_all,   /* [E][NT]: R_T^e */
                             __global int *flags, const int num_elements) {
  const long e = get_global_id(0);
  if (e >= num_elements) return;
  problem_params pp = {problem_id, DIM, problem_degree, problem_param, 0.0, 0.0, problem_nu};
  const int burgers = PROBLEM_IS_BURGERS(problem_id);
  double av[3], bv[3]; /* F(u) = u^2/2 a + u b (N15) */
  burgers_flux_vectors(pp, av, bv);
  __global const double *u = state_u + e * NP, *q = state_q + e * DIM * NP;
  __global double *aug = aug_all + e * NL * NA, *jtl = jtl_all + e * NT * NL;
  __global double *k = k_all + e * (NT + 1) * (NT + 1), *rt = rt_all + e * NT;
  __global double *rl = rl_all + e * NL;
  const double kap_e = kappa_e[e], c = c_e[e];
  double lam[NT];
  for (int f = 0; f < NFACES; f++) {
    const long F = elem_faces[e * NFACES + f];
    for (int m = 0; m < NF; m++) lam[f * NF + m] = state_trace[F * NF + m];
  }
  /* Only the Jacobian pass writes aug, jtl and k: a residual pass (a line
   * search's trial) leaves the Z of the last linearisation for (N7). */
  for (int i = 0; i < NL; i++) rl[i] = 0.0;
  for (int m = 0; m < NT; m++) rt[m] = 0.0;
  if (jacobian) {
    for (long i = 0; i < (long)NL * NA; i++) aug[i] = 0.0;
    for (int i = 0; i < NT * NL; i++) jtl[i] = 0.0;
    for (int i = 0; i < (NT + 1) * (NT + 1); i++) k[i] = 0.0;
  }
  int bad = 0;

  /* Volume integrals at the load points: A(u), N_k, B_k, D, F (N2), (N5). */
  for (int qp = 0; qp < NQ_LOAD; qp++) {
    double xi[DIM], x[3], jac[DIM * DIM], adj[DIM * DIM];
    for (int l = 0; l < DIM; l++) xi[l] = load_points[qp * DIM + l];
    const double detj = element_map(e, coords, elem_verts, xi, x, jac);
    adjugate(jac, adj);
    const double w = load_weights[qp] * detj;
    __global const double *ph = phi + qp * NP;
    double uh = 0.0, qh[DIM], divq = 0.0;
    for (int kk = 0; kk < DIM; kk++) qh[kk] = 0.0;
    for (int j = 0; j < NP; j++) {
      uh += u[j] * ph[j];
      for (int kk = 0; kk < DIM; kk++) {
        qh[kk] += q[kk * NP + j] * ph[j];
        double g = 0.0; /* d_k phi_j = sum_l (J^-1)_lk d_l phi_j, J^-1 = adj / det */
        for (int l = 0; l < DIM; l++) g += adj[l * DIM + kk] * dphi[(qp * NP + j) * DIM + l];
        divq += q[kk * NP + j] * g / detj;
      }
    }
    double dk, kappa = newton_kappa(pp, nonlinear, kap_e, x, uh, &dk);
    if (!(kappa > 0.0) || !isfinite(kappa)) bad = 1;
    double fq = problem_f(pp, x[0], x[1], x[2]);
#ifdef ELEMENT_LOAD /* a time step's stage: its element load s (docs/time.md (T3)) */
    fq += element_load_at(element_load, e, phi, qp);
#endif
    for (int i = 0; i < NP; i++) {
      double gi[DIM];
      for (int kk = 0; kk < DIM; kk++) {
        gi[kk] = 0.0;
        for (int l = 0; l < DIM; l++) gi[kk] += adj[l * DIM + kk] * dphi[(qp * NP + i) * DIM + l];
        gi[kk] /= detj;
        /* R_{q_k} += (kappa^-1 q_h,k, phi_i) + (B_k u)_i, (B_k u)_i = -(u_h, d_k phi_i) */
        rl[kk * NP + i] += w * (qh[kk] / kappa * ph[i] - uh * gi[kk]);
      }
      /* R_u += (div q_h, phi_i) + (c u_h, phi_i) - (f, phi_i); Burgers (N15):
       * - (F(u_h), grad phi_i) = -(u_h^2 / 2 a + u_h b, grad phi_i) */
      double agrad = 0.0, bgrad = 0.0;
      for (int kk = 0; kk < DIM; kk++) {
        agrad += av[kk] * gi[kk];
        bgrad += bv[kk] * gi[kk];
      }
      rl[DIM * NP + i] +=
          w * ((divq + c * uh - fq) * ph[i] - (burgers ? 0.5 * uh * uh * agrad + uh * bgrad : 0.0));
      if (!jacobian) continue;
      for (int j = 0; j < NP; j++) {
        const double pij = w * ph[i] * ph[j];
        for (int kk = 0; kk < DIM; kk++) {
          AUG(kk * NP + i, kk * NP + j) += pij / kappa;                          /* A(u) */
          AUG(kk * NP + i, DIM * NP + j) += -pij * dk / (kappa * kappa) * qh[kk]  /* N_k */
                                            - w * ph[j] * gi[kk];                /* B_k */
          AUG(DIM * NP + j, kk * NP + i) += w * ph[j] * gi[kk];                 /* -B_k^T */
        }
        AUG(DIM * NP + i, DIM * NP + j) += c * pij; /* D */
        if (burgers) AUG(DIM * NP + i, DIM * NP + j) -= w * ph[j] * (uh * agrad + bgrad); /* (N16) */
      }
    }
  }

  /* Face integrals: C_k, E, H and the stabilisation's part of D. */
  for (int f = 0; f < NFACES; f++) {
    const int o = elem_orient[e * NFACES + f];
    /* a Neumann face's datum is the viscous flux alone (paper 001's outflow,
     * (N25)): R_T takes no h there */
    const double ht = face_bc[elem_faces[e * NFACES + f]] == FACE_NEUMANN ? 0.0 : 1.0;
    for (int qp = 0; qp < NQ_FACE; qp++) {
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
      /* Burgers (N15): h = F(lambda) . n + |s| (u_h - lambda), s = F'(lambda) . n =
       * lambda an + bn, an = a . n, bn = b . n (here times ds), and (N16)
       * dh/du_h = |s|, dh/dlambda = s + sign(s) an (u_h - lambda) - |s| */
      double an = 0.0, bn = 0.0;
      for (int kk = 0; kk < DIM; kk++) {
        an += av[kk] * nds[kk];
        bn += bv[kk] * nds[kk];
      }
      if (!burgers) an = bn = 0.0;
      const double a = lh * an + bn, tauc = fabs(a), sg = a > 0.0 ? 1.0 : (a < 0.0 ? -1.0 : 0.0);
      const double hw = w * (0.5 * lh * lh * an + lh * bn + tauc * (uh - lh));
      const double dhu = w * tauc, dhl = w * (a + sg * an * (uh - lh) - tauc);
      for (int i = 0; i < NP; i++) {
        for (int kk = 0; kk < DIM; kk++) rl[kk * NP + i] += w * nds[kk] * lh * ph[i]; /* C_k lambda */
        rl[DIM * NP + i] += (tw * (uh - lh) + hw) * ph[i]; /* tau <u - lambda, phi_i> + <h, phi_i> */
      }
      /* R_T^e = -<q.n + tau (u - lambda) + h, psi_m> (N3), (N15) */
      for (int m = 0; m < NF; m++) rt[f * NF + m] -= (w * qn + tw * (uh - lh) + ht * hw) * ps[m];
      if (!jacobian) continue;
      for (int i = 0; i < NP; i++) {
        for (int j = 0; j < NP; j++) AUG(DIM * NP + i, DIM * NP + j) += (tw + dhu) * ph[i] * ph[j];
        for (int m = 0; m < NF; m++) {
          const int col = f * NF + m;
          for (int kk = 0; kk < DIM; kk++) {
            const double cv = w * nds[kk] * ps[m] * ph[i];
            AUG(kk * NP + i, NL + col) += cv;  /* J_LT: C_k */
            JTL(col, kk * NP + i) -= cv;       /* J_TL: -C_k^T */
          }
          const double ev = tw * ph[i] * ps[m];
          AUG(DIM * NP + i, NL + col) += dhl * ph[i] * ps[m] - ev; /* J_LT: -E + (N16) */
          JTL(col, DIM * NP + i) -= ev + ht * dhu * ph[i] * ps[m]; /* J_TL: -E^T + (N16) */
        }
      }
      for (int m = 0; m < NF; m++) /* J_TT: H + (N16) */
        for (int n = 0; n < NF; n++) KE(f * NF + m, f * NF + n) += (tw - ht * dhl) * ps[m] * ps[n];
    }
  }
  double s = 0.0;
  for (int i = 0; i < NL; i++) s += rl[i] * rl[i];
  rl2[e] = s;
  flags[e] = bad;
  if (!jacobian) return;
  for (int i = 0; i < NL; i++) AUG(i, NA - 1) = rl[i]; /* R_L: the last column */

  /* (N6): Gauss elimination with partial pivoting of [J_LL | J_LT | R_L] to
   * [I | Z_T | Z_R], Z = J_LL^-1 [J_LT | R_L]. */
  for (int col = 0; col < NL; col++) {
    int p = col;
    double best = fabs(AUG(col, col));
    for (int r = col + 1; r < NL; r++)
      if (fabs(AUG(r, col)) > best) {
        best = fabs(AUG(r, col));
        p = r;
      }
    if (best == 0.0) {
      flags[e] = 2; /* singular */
      return;
    }
    if (p != col)
      for (int j = col; j < NA; j++) {
        const double t = AUG(col, j);
        AUG(col, j) = AUG(p, j);
        AUG(p, j) = t;
      }
    const double inv = 1.0 / AUG(col, col);
    for (int j = col; j < NA; j++) AUG(col, j) *= inv;
    for (int r = 0; r < NL; r++) {
      if (r == col) continue;
      const double fct = AUG(r, col);
      if (fct == 0.0) continue;
      for (int j = col; j < NA; j++) AUG(r, j) -= fct * AUG(col, j);
    }
  }
  /* K_e = H - J_TL Z_T; last column -g_e = R_T^e - J_TL Z_R; the columns of
   * Dirichlet faces zero (the update vanishes there). */
  for (int b = 0; b <= NT; b++) {
    const bool dirichlet = b < NT && face_bc[elem_faces[e * NFACES + b / NF]] == FACE_DIRICHLET;
    for (int a = 0; a < NT; a++) {
      double v = b < NT ? KE(a, b) : rt[a];
      for (int l = 0; l < NL; l++) v -= JTL(a, l) * AUG(l, NL + b);
      KE(a, b) = dirichlet ? 0.0 : v;
    }
  }
}

/* (N7): dL = -Z_R - Z_T dlambda, the state = base + alpha dL; dlambda of the
 * element's unknown faces from the solved x (0 on Dirichlet faces). */
__kernel void newton_update(const double alpha, __global const int *elem_faces,
                            __global const int *face_unknown, __global const double *x,
                            __global const double *aug_all, __global const double *u0,
                            __global const double *q0, __global double *u, __global double *q,
                            const int num_elements) {
  const long e = get_global_id(0);
  if (e >= num_elements) return;
  __global const double *aug = aug_all + e * NL * NA;
  double dlam[NT];
  for (int f = 0; f < NFACES; f++) {
    const int row = face_unknown[elem_faces[e * NFACES + f]];
    for (int m = 0; m < NF; m++) dlam[f * NF + m] = row < 0 ? 0.0 : x[(long)row * NF + m];
  }
  for (int i = 0; i < NL; i++) {
    double dl = -AUG(i, NA - 1);
    for (int m = 0; m < NT; m++) dl -= AUG(i, NL + m) * dlam[m];
    if (i < DIM * NP) q[e * DIM * NP + i] = q0[e * DIM * NP + i] + alpha * dl;
    else u[e * NP + i - DIM * NP] = u0[e * NP + i - DIM * NP] + alpha * dl;
  }
}

/* (N11): the trial trace = base + alpha dlambda on the unknown faces, the
 * base (Dirichlet data) elsewhere; one work-item per face value. */
__kernel void newton_trace_update(const double alpha, __global const int *face_unknown,
                                  __global const double *x, __global const double *trace0,
                                  __global double *trace, const int num_faces) {
  const long i = get_global_id(0);
  if (i >= (long)num_faces * NF) return;
  const int row = face_unknown[i / NF];
  trace[i] = row < 0 ? trace0[i] : trace0[i] + alpha * x[(long)row * NF + i % NF];
}

/* ||R||^2 (N4) on the device, by one work-group of a power-of-two size:
 * sum_e |R_L^e|^2 plus, on every unknown face, |R_T|^2 with
 * R_T = sum of its elements' R_T^e - <g_N, mu> (bvals on the boundary's
 * unknown faces, which are Neumann faces); and the first element whose flag
 * is set (kappa <= 0, or J_LL singular) with its flag.  out[0] = ||R||^2;
 * bad[0] = that element or -1, bad[1] its flag.  part, first: the group's
 * local scratch (one value per work-item). */
__kernel void newton_norm(const int num_elements, const int nunknown, const int nint,
                          __global const int *unknown_face, __global const int *face_elems,
                          __global const char *face_local, __global const double *bvals,
                          __global const double *rl2, __global const double *rt_all,
                          __global const int *flags, __local double *part, __local int *first,
                          __global double *out, __global int *bad) {
  const int lid = get_local_id(0), nw = get_local_size(0);
  double s = 0.0;
  int f0 = num_elements;
  for (int e = lid; e < num_elements; e += nw) {
    s += rl2[e];
    if (flags[e] && e < f0) f0 = e;
  }
  for (long t = lid; t < (long)nunknown * NF; t += nw) {
    const int u = t / NF, m = t % NF, F = unknown_face[u];
    double r = F >= nint ? -bvals[(long)(F - nint) * NF + m] : 0.0;
    for (int side = 0; side < 2; side++) {
      const int e = face_elems[2 * F + side];
      if (e >= 0) r += rt_all[(long)e * NT + face_local[2 * F + side] * NF + m];
    }
    s += r * r;
  }
  part[lid] = s;
  first[lid] = f0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int span = nw / 2; span > 0; span /= 2) {
    if (lid < span) {
      part[lid] += part[lid + span];
      first[lid] = min(first[lid], first[lid + span]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) {
    out[0] = part[0];
    bad[0] = first[0] < num_elements ? first[0] : -1;
    bad[1] = first[0] < num_elements ? flags[first[0]] : 0;
  }
}
