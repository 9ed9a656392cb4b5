/* Local stage for mapped (bilinear/trilinear) elements (kernels:
 * cl/pipeline/local_mapped.cl): element matrices by quadrature, Y = [B_k | C_k] (B_k by
 * a batched GEMM with the basis table), A^-1 = kappa M^-1 (scalar problems,
 * register-tiled Gauss-Jordan) or M = L L^T and Ls = sqrt(kappa) L^-1,
 * X = A^-1 Y or Ls Y by batched GEMMs (a tensor kappa: with kappa = 1, then
 * mixed by K or R per element, mapped_kappa_mix), and the three couplings
 * S = D + G_BB, W = E - G_BC, K0 = H + G_CC with G = Y^T A^-1 Y (= Y^T X, or
 * X^T X) by blocks (G_CB = G_BC^T not formed), batched GEMMs that add into
 * S, [W | F] and K.  The affine steps of local.c finish the condensation. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/blas.h"
#include "core/error.h"
#include "pipeline/pipeline.h"
#include "problem/user_problem.h"

/* Per-element doubles of each mapped buffer (Y has X's). */
void local_mapped_sizes(device_pipeline *pl, uint64_t *m, uint64_t *x, uint64_t *t, uint64_t *fac) {
  const hdg_sizes *sz = &pl->ref->sz;
  uint64_t np = sz->np, cols = sz->np + sz->nt, d = sz->dim;
  *m = np * np;
  *x = d * np * cols;
  *t = d * np * (uint64_t)pl->ref->qload.n;
  /* per face point: w dS, w n dS, and w dS times tau_f and tau_f - beta.n (cl/pipeline/local_mapped.cl) */
  /* per volume point w|J|, w|J| f, w adj J; with point coefficients also
   * w|J| / kappa, w|J| c and beta (cl/pipeline/local_mapped.cl VOL_FAC) */
  uint64_t vol = 2 + d * d + (pl->disc->user && pl->disc->user->point_coefficients ? 2 + d : 0);
  *fac = (uint64_t)pl->ref->qload.n * vol + (uint64_t)sz->nfaces * pl->ref->qface.n * (3 + d);
}

/* Per-element doubles of the scalar S, [W | F], [W_t | F], K that the vector
 * problems expand (0 for the scalar problems, which build into the stage's own). */
static uint64_t scalar_copies(device_pipeline *pl) {
  const hdg_sizes *sz = &pl->ref->sz;
  uint64_t np = sz->np, nt1 = sz->nt + 1;
  return sz->ncomp > 1 ? np * np + 2 * np * nt1 + nt1 * nt1 : 0;
}

uint64_t local_mapped_bytes_per_element(device_pipeline *pl) {
  uint64_t m, x, t, fac;
  local_mapped_sizes(pl, &m, &x, &t, &fac);
  return 8 * (m + 2 * x + t + fac + scalar_copies(pl));
}

int local_mapped_create(device_pipeline *pl, local_stage *ls) {
  /* mapped_factor's work copy of M in local memory when it fits. */
  const hdg_sizes *sz = &pl->ref->sz;
  bool factor_global = pipeline_scratch_global(pl, ((size_t)sz->np * sz->np + sz->np) * 8);
  char defines[64];
  snprintf(defines, sizeof defines, "%s%s", factor_global ? "-DSCRATCH_GLOBAL " : "",
           ls->nonsymmetric ? "-DNONSYMMETRIC" : "");
  cl_program program;
  HDGCL_TRY(pipeline_program(pl, "pipeline/local_mapped.cl", true, defines, &program));
  HDGCL_TRY(hdgcl_kernel_create(program, "mapped_build", &ls->mbuild));
  /* The scalar problems invert A = M / kappa by the register-tiled
   * Gauss-Jordan (X = A^-1 Y, and recovery's q = -X [u; lambda]): hex:16
   * p = 3 mapped_factor took 1.7 ms of the stage's 17 (perf/results/stop22).
   * Elasticity, whose expansion works with X = Ls Y, and sizes whose tile does
   * not fit factor M (mapped_factor).  HDGCL_MAPPED_INVERSE=on|off chooses
   * (tests compare both). */
  bool inverse, set;
  HDGCL_TRY(env_on_off("HDGCL_MAPPED_INVERSE", !ls->vector, &inverse, &set));
  bool forced = set && inverse;
  if (inverse && ls->vector)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                       "HDGCL_MAPPED_INVERSE=on: elasticity factors M (mapped_factor), not inverts it");
  if (inverse) {
    int status = local_invert_tiled_kernel(pl, ls, &ls->minverse, &ls->minverse_wg);
    if (status != HDGCL_SUCCESS && forced) return status;
    if (!ls->minverse && forced)
      return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                         "HDGCL_MAPPED_INVERSE=on: no grid's register tile fits M (%d rows)", sz->np);
  }
  if (!ls->minverse) HDGCL_TRY(hdgcl_kernel_create(program, "mapped_factor", &ls->mfactor));
  if (pl->disc->kappa_tensor) HDGCL_TRY(hdgcl_kernel_create(program, "mapped_kappa_mix", &ls->mkmix));
  uint64_t m, x, t, fac, c = ls->chunk;
  local_mapped_sizes(pl, &m, &x, &t, &fac);
  HDGCL_TRY(hdgcl_buffer_create(pl->ctx, c * m * 8, "mapped M", &ls->m));
  HDGCL_TRY(hdgcl_buffer_create(pl->ctx, c * x * 8, "mapped X", &ls->x));
  HDGCL_TRY(hdgcl_buffer_create(pl->ctx, c * x * 8, "mapped Y", &ls->y));
  HDGCL_TRY(hdgcl_buffer_create(pl->ctx, c * t * 8, "mapped T", &ls->t));
  HDGCL_TRY(hdgcl_buffer_create(pl->ctx, c * fac * 8, "mapped factors", &ls->fac));
  if (ls->vector) {
    uint64_t np = sz->np, nt1 = sz->nt + 1;
    HDGCL_TRY(hdgcl_kernel_create(program, "mapped_elasticity_pre", &ls->mepre));
    HDGCL_TRY(hdgcl_kernel_create(program, "mapped_elasticity_post", &ls->mepost));
    HDGCL_TRY(hdgcl_buffer_create(pl->ctx, c * np * np * 8, "mapped S0", &ls->ms));
    HDGCL_TRY(hdgcl_buffer_create(pl->ctx, c * np * nt1 * 8, "mapped [W0|F]", &ls->mwf));
    HDGCL_TRY(hdgcl_buffer_create(pl->ctx, ls->nonsymmetric ? c * np * nt1 * 8 : 8,
                                  "mapped [W0t|F]", &ls->mwl));
    HDGCL_TRY(hdgcl_buffer_create(pl->ctx, c * nt1 * nt1 * 8, "mapped K0", &ls->mk));
  }
  /* The shapes of mapped_operands' products (CLBlast until local_mapped_choose_gemms). */
  size_t rows = (size_t)sz->dim * sz->np, cols = (size_t)sz->np + sz->nt, gp = sz->np, gt = sz->nt;
  size_t nq = (size_t)pl->ref->qload.n;
  batched_gemm_init(&ls->mgemm[MAPPED_GEMM_Y], false, true, rows, gp, nq, rows, gp, rows);
  batched_gemm_init(&ls->mgemm[MAPPED_GEMM_X], !ls->minverse, false, gp, cols, gp, gp, rows, rows);
  batched_gemm_init(&ls->mgemm[MAPPED_GEMM_S], true, false, gp, gp, rows, rows, rows, gp);
  batched_gemm_init(&ls->mgemm[MAPPED_GEMM_W], true, false, gp, gt, rows, rows, rows, gp);
  batched_gemm_init(&ls->mgemm[MAPPED_GEMM_K], true, false, gt, gt, rows, rows, rows, gt + 1);
  return HDGCL_SUCCESS;
}

/* The operands, alpha and beta of the mapped stage's batched GEMM `which`
 * (part: the component block k of X, or W (0) and W_t (1)), column-major:
 *   Y:  Y's B part = -T Phi^T, T (dim np) x nq per element, Phi^T from the
 *       table phi_load[q][i] (np x nq, shared: stride 0);
 *   X:  X_k = A^-1 Y_k, or Ls Y_k (M holds A^-1, or Ls row by row: Ls^T
 *       column-major), rows k np.. of Y and X;
 *   S, W, K: the blocks of G = Y^T A^-1 Y = Y^T X (A^-1) = X^T X (Ls), where
 *       they belong ((dim np) x (np + nt): the B part the first np columns,
 *       the C part the nt after): S += G_BB, W -= G_BC (and W_t), K0 += G_CC
 *       (F19), (F20), with the left factor Y (A^-1) or X (Ls).
 * The vector problems build the scalar S0, [W0 | F], K0 into their own
 * buffers and expand them. */
static void mapped_operands(device_pipeline *pl, local_stage *ls, int which, int part,
                            gemm_operands *o, double *alpha, double *beta) {
  const hdg_sizes *sz = &pl->ref->sz;
  size_t rows = (size_t)sz->dim * sz->np, cols = (size_t)sz->np + sz->nt, np = sz->np;
  size_t nt = sz->nt, nq = (size_t)pl->ref->qload.n;
  size_t xs = rows * cols, xc = rows * np; /* an element's X, and its C part's offset */
  cl_mem left = ls->minverse ? ls->y.mem : ls->x.mem;
  const hdgcl_buffer *bs = ls->vector ? &ls->ms : &ls->s, *bwf = ls->vector ? &ls->mwf : &ls->wf;
  const hdgcl_buffer *bwl = ls->vector ? &ls->mwl : &ls->wl, *bk = ls->vector ? &ls->mk : &ls->k;
  *alpha = 1.0;
  *beta = 1.0;
  switch (which) {
  case MAPPED_GEMM_Y:
    *o = (gemm_operands){.a = ls->t.mem, .a_stride = rows * nq, .b = pl->data.phi_load.mem,
                         .c = ls->y.mem, .c_stride = xs};
    *alpha = -1.0;
    *beta = 0.0;
    return;
  case MAPPED_GEMM_X:
    *o = (gemm_operands){.a = ls->m.mem, .a_stride = np * np, .b = ls->y.mem,
                         .b_offset = part * np, .b_stride = xs, .c = ls->x.mem,
                         .c_offset = part * np, .c_stride = xs};
    *beta = 0.0;
    return;
  case MAPPED_GEMM_S:
    *o = (gemm_operands){.a = left, .a_stride = xs, .b = ls->x.mem, .b_stride = xs,
                         .c = bs->mem, .c_stride = np * np};
    return;
  case MAPPED_GEMM_W:
    *o = (gemm_operands){.a = left, .a_stride = xs, .b = ls->x.mem, .b_offset = xc,
                         .b_stride = xs, .c = (part ? bwl : bwf)->mem, .c_stride = np * (nt + 1)};
    *alpha = -1.0;
    return;
  default: /* MAPPED_GEMM_K */
    *o = (gemm_operands){.a = left, .a_offset = xc, .a_stride = xs, .b = ls->x.mem,
                         .b_offset = xc, .b_stride = xs, .c = bk->mem,
                         .c_stride = (nt + 1) * (nt + 1)};
  }
}

static int mapped_gemm(device_pipeline *pl, local_stage *ls, int which, int part, int64_t n) {
  gemm_operands o;
  double alpha, beta;
  mapped_operands(pl, ls, which, part, &o, &alpha, &beta);
  return batched_gemm_run(pl->ctx, &ls->mgemm[which], alpha, &o, beta, (size_t)n);
}

int local_mapped_trial_gemms(device_pipeline *pl, local_stage *ls, int64_t n) {
  for (int which = 0; which < NUM_MAPPED_GEMM; which++) {
    gemm_operands o;
    double alpha, beta;
    mapped_operands(pl, ls, which, 0, &o, &alpha, &beta);
    HDGCL_TRY(batched_gemm_trial(pl->ctx, &ls->mgemm[which], beta, &o, (size_t)n));
  }
  return HDGCL_SUCCESS;
}

int local_mapped_build(device_pipeline *pl, local_stage *ls, int64_t e0, int64_t n, hdgcl_stage charge) {
  const hdg_sizes *sz = &pl->ref->sz;
  device_data *d = &pl->data;
  /* The vector problems build the scalar S0, [W0 | F], K0 (kappa = mu) into
   * their own buffers and expand them (mapped_elasticity_pre / _post). */
  const hdgcl_buffer *bs = ls->vector ? &ls->ms : &ls->s, *bwf = ls->vector ? &ls->mwf : &ls->wf;
  const hdgcl_buffer *bwl = ls->vector ? &ls->mwl : &ls->wl, *bk = ls->vector ? &ls->mk : &ls->k;
  double mu = pl->disc->params.mu, lambda = pl->disc->params.lambda, mu0 = discretisation_mu0(pl->disc); /* (E17) */
  cl_int ce0 = (cl_int)e0, pid = pl->disc->params.id, pdeg = pl->disc->params.degree;
  cl_int m_over_kappa = ls->minverse != NULL;
  double tau = pl->disc->tau, k2 = pl->disc->params.param;
  hdgcl_arg args[] = {HDGCL_ARG(ce0),           HDGCL_ARG(m_over_kappa),
                      HDGCL_ARG(d->kappa.mem),  HDGCL_ARG(d->coords.mem),
                      HDGCL_ARG(d->elem_verts.mem), HDGCL_ARG(d->elem_orient.mem),
                      HDGCL_ARG(d->c.mem),      HDGCL_ARG(tau),
                      HDGCL_ARG(pid),           HDGCL_ARG(pdeg),
                      HDGCL_ARG(k2),            HDGCL_ARG(d->load_points.mem),
                      HDGCL_ARG(d->load_weights.mem), HDGCL_ARG(d->phi_load.mem),
                      HDGCL_ARG(d->dphi_load.mem), HDGCL_ARG(d->face_weights.mem),
                      HDGCL_ARG(d->psi_face.mem), HDGCL_ARG(d->phi_face.mem),
                      HDGCL_ARG(d->face_xi.mem), HDGCL_ARG(d->face_tangent.mem),
                      HDGCL_ARG(d->face_nref.mem), HDGCL_ARG(ls->fac.mem),
                      HDGCL_ARG(ls->m.mem),     HDGCL_ARG(ls->y.mem),
                      HDGCL_ARG(ls->t.mem),     HDGCL_ARG(bs->mem),       HDGCL_ARG(bwf->mem),
                      HDGCL_ARG(bwl->mem),      HDGCL_ARG(bk->mem),
                      HDGCL_ARG(d->elem_set.mem), HDGCL_ARG(d->element_load.mem)};
  HDGCL_TRY(hdgcl_kernel_set_args(ls->mbuild, sizeof args / sizeof *args, args));
  size_t global = (size_t)n * ls->wg;
  HDGCL_TRY(hdgcl_kernel_launch(pl->ctx, ls->mbuild, 1, &global, &ls->wg, NULL));
  /* Y's B part = -T Phi^T (mapped_operands). */
  HDGCL_TRY(mapped_gemm(pl, ls, MAPPED_GEMM_Y, 0, n));
  if (ls->vector) {
    hdgcl_arg pargs[] = {HDGCL_ARG(ce0),      HDGCL_ARG(d->kappa.mem), HDGCL_ARG(d->lambda.mem),
                         HDGCL_ARG(ls->m.mem), HDGCL_ARG(ls->y.mem),    HDGCL_ARG(ls->s.mem),
                         HDGCL_ARG(ls->wf.mem)};
    HDGCL_TRY(hdgcl_kernel_set_args(ls->mepre, sizeof pargs / sizeof *pargs, pargs));
    HDGCL_TRY(hdgcl_kernel_launch(pl->ctx, ls->mepre, 1, &global, &ls->wg, NULL));
  }
  if (ls->minverse) { /* M <- A^-1 = kappa M^-1 (M / kappa from mapped_build) */
    hdgcl_arg iargs[] = {HDGCL_ARG(ls->m.mem)};
    HDGCL_TRY(hdgcl_kernel_set_args(ls->minverse, 1, iargs));
    size_t iglobal = (size_t)n * ls->minverse_wg;
    HDGCL_TRY(hdgcl_kernel_launch(pl->ctx, ls->minverse, 1, &iglobal, &ls->minverse_wg, NULL));
  } else {
    /* mapped_factor: one element per work-group, the largest work-group the
     * kernel allows (at most 256: its rank-1 updates have (NP - k)^2 / 2 entries). */
    hdgcl_arg fargs[] = {HDGCL_ARG(ce0), HDGCL_ARG(d->kappa.mem), HDGCL_ARG(ls->m.mem)};
    HDGCL_TRY(hdgcl_kernel_set_args(ls->mfactor, 3, fargs));
    size_t fwg = pipeline_kernel_max_wg(pl, ls->mfactor), fglobal = (size_t)n * fwg;
    HDGCL_TRY(hdgcl_kernel_launch(pl->ctx, ls->mfactor, 1, &fglobal, &fwg, NULL));
  }
  /* X_k = A^-1 Y_k, or Ls Y_k, for each component block k, then the blocks
   * of G added to S, [W | F] (and [W_t | F]) and K0 (F19), (F20): mapped_operands. */
  for (int k = 0; k < sz->dim; k++) HDGCL_TRY(mapped_gemm(pl, ls, MAPPED_GEMM_X, k, n));
  if (ls->mkmix) { /* a tensor kappa: A^-1 = K (x) M^-1 (cl/pipeline/local_mapped.cl) */
    cl_int inverse = ls->minverse != NULL;
    hdgcl_arg kargs[] = {HDGCL_ARG(ce0), HDGCL_ARG(inverse), HDGCL_ARG(d->kappa.mem),
                         HDGCL_ARG(ls->x.mem)};
    HDGCL_TRY(hdgcl_kernel_set_args(ls->mkmix, 4, kargs));
    HDGCL_TRY(hdgcl_kernel_launch(pl->ctx, ls->mkmix, 1, &global, &ls->wg, NULL));
  }
  HDGCL_TRY(mapped_gemm(pl, ls, MAPPED_GEMM_S, 0, n));
  for (int w = 0; w < (ls->nonsymmetric ? 2 : 1); w++) HDGCL_TRY(mapped_gemm(pl, ls, MAPPED_GEMM_W, w, n));
  HDGCL_TRY(mapped_gemm(pl, ls, MAPPED_GEMM_K, 0, n));
  if (ls->vector) {
    cl_int ce0v = (cl_int)e0, problem = pl->disc->params.id;
    double param = pl->disc->params.param;
    hdgcl_arg eargs[] = {HDGCL_ARG(ce0v),          HDGCL_ARG(d->coords.mem),
                         HDGCL_ARG(d->elem_verts.mem), HDGCL_ARG(d->elem_faces.mem),
                         HDGCL_ARG(d->face_bc.mem), HDGCL_ARG(mu),
                         HDGCL_ARG(lambda),        HDGCL_ARG(d->kappa.mem),
                         HDGCL_ARG(mu0),           HDGCL_ARG(problem),
                         HDGCL_ARG(param),         HDGCL_ARG(d->load_points.mem),
                         HDGCL_ARG(d->phi_load.mem), HDGCL_ARG(ls->fac.mem),
                         HDGCL_ARG(ls->x.mem),     HDGCL_ARG(ls->ms.mem),
                         HDGCL_ARG(ls->mwf.mem),   HDGCL_ARG(ls->mk.mem),
                         HDGCL_ARG(ls->s.mem),     HDGCL_ARG(ls->wf.mem),
                         HDGCL_ARG(ls->wl.mem),    HDGCL_ARG(ls->k.mem)};
    HDGCL_TRY(hdgcl_kernel_set_args(ls->mepost, sizeof eargs / sizeof *eargs, eargs));
    HDGCL_TRY(hdgcl_kernel_launch(pl->ctx, ls->mepost, 1, &global, &ls->wg, NULL));
  }
  /* Flops: quadrature of M, D (NQ NP^2 each, faces NFACES NQF NP^2), T (2 d^2 NP NQ),
   * B = -T Phi^T (2 d NP^2 NQ), C (d NP NT NQF), E, H; Cholesky and L^-1 NP^3/3 each;
   * X = Ls Y, Ls triangular, d (NP+NT) NP^2 (the same count with A^-1: the
   * cheaper route's, so the faster kernel shows as a higher rate); G's blocks 2 d NP (NP^2 + NP NT + NT^2)
   * (NP NT again for W_t). */
  double P = sz->np, T = sz->nt, D = sz->dim, Q = pl->ref->qload.n, QF = pl->ref->qface.n;
  double flops = 3 * Q * P * P + 3 * sz->nfaces * QF * P * P + 2 * D * D * P * Q +
                 2 * D * P * P * Q + 3 * D * P * T * QF + 3 * P * T * QF + 3 * T * sz->nf * QF +
                 2 * P * P * P / 3 + D * (P + T) * P * P +
                 2 * D * P * (P * P + (ls->nonsymmetric ? 2 : 1) * P * T + T * T);
  uint64_t m, x, t, fac;
  local_mapped_sizes(pl, &m, &x, &t, &fac);
  /* M written, read and rewritten as Ls, read; T written and read; Y and X
   * written and read; the factors; S, [W | F], K written, and read and written
   * again by G's blocks. */
  double bytes = 8.0 * (4 * m + 2 * t + 4 * x + 2 * fac + 3 * (P * P + P * (T + 1) +
                        (T + 1) * (T + 1)));
  if (ls->vector) { /* the expansion: Z, [Wext | Fext] (P), K (Q), the load */
    double Z = ls->rows, C = ls->cols, TB = sz->ntb;
    flops += 2.0 * Q * D * P + 60.0 * Q;
    if (ls->nonsymmetric) flops += 4.0 * P * (D * P * TB + TB * TB);
    if (discretisation_mu_varies(pl->disc)) flops += 4.0 * P * (D * (D - 1) * P * P + D * P * TB + TB * TB); /* (E17) */
    bytes += 8.0 * (2 * Z * Z + 2 * Z * C + C * C + P * P + P * (T + 1) + (T + 1) * (T + 1));
  }
  pl->report->stages[charge].flops += flops * n;
  pl->report->stages[charge].bytes += bytes * n;
  return HDGCL_SUCCESS;
}

void local_mapped_destroy(device_pipeline *pl, local_stage *ls) {
  cl_kernel kernels[] = {ls->mbuild, ls->mfactor, ls->mepre, ls->mepost, ls->mkmix};
  for (size_t i = 0; i < sizeof kernels / sizeof *kernels; i++)
    if (kernels[i]) clReleaseKernel(kernels[i]);
  for (int i = 0; i < NUM_MAPPED_GEMM; i++) batched_gemm_destroy(&ls->mgemm[i]);
  hdgcl_buffer_release(pl->ctx, &ls->ms);
  hdgcl_buffer_release(pl->ctx, &ls->mwf);
  hdgcl_buffer_release(pl->ctx, &ls->mwl);
  hdgcl_buffer_release(pl->ctx, &ls->mk);
  hdgcl_buffer_release(pl->ctx, &ls->m);
  hdgcl_buffer_release(pl->ctx, &ls->x);
  hdgcl_buffer_release(pl->ctx, &ls->y);
  hdgcl_buffer_release(pl->ctx, &ls->t);
  hdgcl_buffer_release(pl->ctx, &ls->fac);
}
