/* The whole local stage of one element per work-item, for CPU devices
 * (PoCL) and symmetric scalar problems on affine elements (docs/formulation.md
 * sections 7-8): from the element's geometry and the reference tables,
 *   S (F13), [W | F] (F14), (F16) and K0's factors (F15),
 *   S = L L^T, Y = L^-1 [W | F]        (cl/pipeline/cholesky_rows.h),
 *   K = K0 - Y^T Y                     (= K0 - [W | F]^T S^-1 [W | F], (F10)),
 *   Z = L^-T Y                         (= S^-1 [W | F]).
 * Only Z and K leave the work-item: S (column-major) and [W | F]
 * (transposed, row i its NRHS values padded to NRP) stay in its private
 * memory, NP (NP + NRP) doubles (the host takes this kernel where that is at
 * most ELEMENT_PRIVATE_MAX, host/pipeline/local.c).  Against the split kernels (local_build_s,
 * local_build, local_cholesky_solve, local_k0 and the GEMM) this
 * writes S and [W | F] nowhere and reads nothing back.
 * Flops: S's lower triangle (NFACES + DIM^2) NP (NP + 1), [W | F]
 * 2 (DIM + 1) NT NP + 2 NQ_LOAD NP, the factor NP^3 / 3, the two solves
 * 2 NP^2 NRHS, K 2 NP NRHS^2 and K0 (host/pipeline/local.c counts them).
 * Prepended: common.h, problems.h, geometry.h, local_factors.h,
 * cholesky_rows.h (-DCHOL_A_SPACE=__private: S is private too).  Compile-time
 * sizes: the shared ones and NRHS = NT + 1 (NZ = NP).  Layouts per element,
 * column-major: Z [NRHS][NP] (starting zoff doubles into its buffer),
 * K [NRHS][NRHS]; the tables as in cl/pipeline/local.cl. */

/* Column c of K = K0 - Y^T Y into ke (column-major), col column c of Y^T Y.
 * K0's column c = (fb, n) is, per face fa, kf[fa][fb] times column n of the
 * block Ef_fa^T Ef_fb (cl/pipeline/local_factors.h's k0_entry without its index
 * arithmetic), plus kf's diagonal term; row and column NT of K0 are zero. */
void store_k_column(const double *col, const int c, const double *kf, __global const char *orient,
                    __global const double *efef, __global double *ke) {
  if (c < NT) {
    const int fb = c / NF, nn = c % NF;
    for (int fa = 0; fa < NFACES; fa++) {
      const double v = kf[fa * NFACES + fb];
      __global const double *blk =
          efef + (((fa * NORIENT + orient[fa]) * NFACES + fb) * NORIENT + orient[fb]) * NF * NF + nn;
      for (int m = 0; m < NF; m++) {
        double k0 = v * blk[m * NF];
        if (fa * NF + m == c) k0 += kf[NFACES * NFACES + fa];
        ke[c * NRHS + fa * NF + m] = k0 - col[fa * NF + m];
      }
    }
  }
  for (int b = c < NT ? NT : 0; b < NRHS; b++) ke[c * NRHS + b] = -col[b];
}

__kernel void local_element(const int e0, const int n, __global const double *coords,
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
  const long le = get_global_id(0);
  if (le >= n) return;
  const long e = e0 + le;
  problem_params pp = {problem_id, DIM, problem_degree, problem_param};
  double beta[3];
  problem_beta(pp, beta);
  geometry g;
  element_geometry(e, coords, elem_verts, &g);
  double ws[NWS], r[NEF], kf[NKF];
  element_factors(&g, beta, tau, kappa_e, e, c_e[e], ws, r, kf);
  __global const char *orient = elem_orient + e * ELEM_NFACES;
  double a[NP * NP], w[NP * NRP];

  /* (F13) S's lower triangle, column j from its diagonal down: Pf_f and
   * G_lm Dm_l Dm_m^T summed over (l, m) are symmetric, so the tables' row j
   * (contiguous) gives S's column j.  (The whole column four rows at a time
   * from all tables at once was slower on PoCL 3.1, square:40 p = 9.) */
  for (int j = 0; j < NP; j++) {
    double *aj = a + j * NP;
    for (int i = j; i < NP; i++) aj[i] = 0.0;
    aj[j] = ws[WS_C];
    for (int f = 0; f < NFACES; f++) {
      const double v = ws[f];
      __global const double *t = pf + (f * NP + j) * NP;
      for (int i = j; i < NP; i++) aj[i] += v * t[i];
    }
    for (int lm = 0; lm < DIM * DIM; lm++) {
      const double v = ws[WS_G + lm];
      __global const double *t = dmdmt + (lm * NP + j) * NP;
      for (int i = j; i < NP; i++) aj[i] += v * t[i];
    }
  }

  /* (F14) W_f = sigma_f [(tau_f - beta.n_f) Ef + kappa sum_l (J^-1 n_f)_l Dm_l Ef],
   * row i of W from row i of each table (NF contiguous values). */
  for (int f = 0; f < NFACES; f++) {
    const int o = orient[f];
    __global const double *t0 = ef + (f * NORIENT + o) * NP * NF;
    for (int i = 0; i < NP; i++) {
      double *wi = w + i * NRP + f * NF;
      for (int m = 0; m < NF; m++) wi[m] = r[EF_A + f] * t0[i * NF + m];
      for (int l = 0; l < DIM; l++) {
        const double v = r[EF_B + f * DIM + l];
        __global const double *tl = dmef + ((l * NFACES + f) * NORIENT + o) * NP * NF;
        for (int m = 0; m < NF; m++) wi[m] += v * tl[i * NF + m];
      }
    }
  }
  /* (F16) F_i = |J| sum_q w_q phi_i(xi_q) f(x_q), x_q = x0 + J (xi_q + 1) */
  for (int i = 0; i < NP; i++)
    for (int c = NT; c < NRP; c++) w[i * NRP + c] = 0.0; /* F, and the padding */
  for (int q = 0; q < NQ_LOAD; q++) {
    double fq = load_value_private(pp, r, load_points, load_weights, q);
#ifdef ELEMENT_LOAD
    fq += load_weights[q] * element_load_at(element_load, e, phi_load, q);
#endif
    for (int i = 0; i < NP; i++) w[i * NRP + NT] += fq * phi_load[q * NP + i];
  }
  for (int i = 0; i < NP; i++) w[i * NRP + NT] *= r[EF_DETJ];

  cholesky_factor(a);
  cholesky_forward(a, w); /* w = Y = L^-1 [W | F] */
  /* K = K0 - Y^T Y two columns at a time: columns c and c + 1 of Y^T Y sum,
   * over the rows r of Y (rows of w), Y_rc and Y_r(c+1) times row r, held
   * in double4 accumulators (row r read once for both). */
  __global double *ke = K + le * NRHS * NRHS;
  for (int c = 0; c < NRHS; c += 2) {
    const int c1 = c + 1 < NRHS ? c + 1 : c;
    double4 acc0[NRP / 4], acc1[NRP / 4];
#pragma unroll
    for (int q = 0; q < NRP / 4; q++) acc0[q] = acc1[q] = (double4)(0.0);
    for (int rr = 0; rr < NP; rr++) {
      const double *wr = w + rr * NRP;
      const double y0 = wr[c], y1 = wr[c1];
#pragma unroll
      for (int q = 0; q < NRP / 4; q++) {
        const double4 v = vload4(q, wr);
        acc0[q] += y0 * v;
        acc1[q] += y1 * v;
      }
    }
    double col[NRP];
    for (int q = 0; q < NRP / 4; q++) vstore4(acc0[q], q, col);
    store_k_column(col, c, kf, orient, efef, ke);
    if (c1 == c) break;
    for (int q = 0; q < NRP / 4; q++) vstore4(acc1[q], q, col);
    store_k_column(col, c1, kf, orient, efef, ke);
  }
  cholesky_backward(a, w); /* w = Z = L^-T Y */
  __global double *z = Z + zoff + le * NP * NRHS;
  for (int c = 0; c < NRHS; c++)
    for (int i = 0; i < NP; i++) z[c * NP + i] = w[i * NRP + c];
}
