/* Recovery on the device (kernels: cl/pipeline/recover.cl): u and q per element from
 * the trace (F9), (F17), the postprocessed u* (F12), and the error norms. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "pipeline/pipeline.h"

#define ERR_WG 64
/* Values per element of the errors kernels, as in cl/pipeline/recover.cl: the errors,
 * then u*'s check (CHECK_VALUES = 2 NCOMP + 3: ustar_check_element). */
#define ERR_VALUES 6
#define ELAS_ERR_VALUES 8
#define CHECK_VALUES(ncomp) (2 * (ncomp) + 3)

/* Test hook only ($HDGCL_TEST_CORRUPT_USTAR=E or, for the first attempt only,
 * $HDGCL_TEST_CORRUPT_USTAR_ONCE=E; docs/reliability.md): adds
 * 1e-6 (1 + max |u*|) to every coefficient of element E's u* in the device
 * buffer, before the errors kernel checks it. */
static int corrupt_ustar_for_test(device_pipeline *pl, recovery *rc) {
  const char *env = getenv("HDGCL_TEST_CORRUPT_USTAR");
  /* HDGCL_TEST_CORRUPT_USTAR_ONCE=E: only the first computation (the retry in
   * pipeline_solve then passes) */
  const char *once = getenv("HDGCL_TEST_CORRUPT_USTAR_ONCE");
  if ((!env || !env[0]) && once && once[0] && pl->report->ustar_retries == 0) env = once;
  if (!env || !env[0]) return HDGCL_SUCCESS;
  char *end;
  long e = strtol(env, &end, 10);
  if (*end || e < 0 || e >= pl->disc->mesh->num_elements) {
    /* Drain the queue first: exiting while PoCL's worker thread still
     * compiles the u* kernel crashed in libclang (seen under ASan). */
    clFinish(pl->ctx->queue);
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "HDGCL_TEST_CORRUPT_USTAR=%s: not an element", env);
  }
  size_t n = (size_t)pl->ref->sz.ncomp * pl->ref->sz.np1;
  double *v, vmax = 0.0;
  HDGCL_TRY(hdgcl_calloc(n, sizeof(double), "u* of one element", &v));
  int status = hdgcl_buffer_read(pl->ctx, &rc->ustar, (size_t)e * n * 8, n * 8, v);
  for (size_t i = 0; i < n; i++) vmax = fmax(vmax, fabs(v[i]));
  for (size_t i = 0; i < n; i++) v[i] += 1e-6 * (1.0 + vmax);
  if (status == HDGCL_SUCCESS)
    status = hdgcl_buffer_write(pl->ctx, &rc->ustar, (size_t)e * n * 8, n * 8, v);
  free(v);
  return status;
}

/* u*'s method: cl/pipeline/postprocess_tiled.cl on the smallest grid side G of
 * gauss_jordan_grids whose tile of [A | b] (NP1 rows, NP1 + NCOMP columns) fits in
 * registers, or cl/pipeline/recover.cl's postprocess (packed Cholesky by a work-group,
 * in local or global memory) where none fits and on mapped elements.  CPU
 * devices take the tiled kernel on the 8 x 8 grid only: PoCL on 2 cores,
 * square:40 (perf/results/postprocess/pocl-2core-square40.log), tiled:8
 * against Cholesky p = 1 7.5 / 15.7 ms, p = 3 30.9 / 34.4, p = 5 49.2 / 49.7,
 * p = 7 129 / 146, but p = 9 on grid 11 639 / 324 and grid 16 1254: the
 * work-items' register tiles live in memory there, across 66 barriers.
 * $HDGCL_POSTPROCESS: "auto" (or unset), "tiled" or "tiled:G" (a grid side of
 * gauss_jordan_grids; an error where it does not fit) or "cholesky" (tests compare
 * the two, benchmarks time them). */
static int choose_post_grid(device_pipeline *pl, int *grid, bool *forced) {
  const hdg_sizes *sz = &pl->ref->sz;
  const char *env = getenv("HDGCL_POSTPROCESS");
  int want = 0; /* a grid side asked for */
  bool force_tiled = false, cholesky = env && !strcmp(env, "cholesky");
  if (env && !strncmp(env, "tiled", 5)) {
    force_tiled = true;
    if (env[5] == ':') {
      char *end;
      long g = strtol(env + 6, &end, 10);
      for (int i = 0; i < NUM_TILED && !*end; i++)
        if (g == gauss_jordan_grids[i]) want = (int)g;
      if (!want)
        return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                           "HDGCL_POSTPROCESS=%s: the grid side must be 8, 11 or 16", env);
    } else if (env[5]) {
      force_tiled = false;
    }
  }
  if (env && env[0] && !force_tiled && !cholesky && strcmp(env, "auto"))
    return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                       "HDGCL_POSTPROCESS=%s: expected auto, tiled, tiled:G or cholesky", env);
  *grid = 0;
  *forced = force_tiled;
  int grids = force_tiled || !pl->ctx->info.is_cpu ? NUM_TILED : 1;
  for (int i = 0; i < grids && !cholesky && !pl->mapped && !*grid; i++)
    if ((!want || want == gauss_jordan_grids[i]) &&
        gauss_jordan_tile_fits(sz->np1, sz->np1 + sz->ncomp, gauss_jordan_grids[i]))
      *grid = gauss_jordan_grids[i];
  if (force_tiled && pl->mapped)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                       "HDGCL_POSTPROCESS=%s: mapped elements have no tiled u* kernel", env);
  if (force_tiled && !*grid)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                       "HDGCL_POSTPROCESS=%s: the %d x %d system of u* does not fit that tile",
                       env, sz->np1, sz->np1 + sz->ncomp);
  return HDGCL_SUCCESS;
}

/* The tiled kernel of u* on a grid of side g, into rc->post; rc->post_grid
 * stays 0 (the Cholesky kernel is used) where the device cannot run g x g
 * work-items of it. */
static int create_post_tiled(device_pipeline *pl, recovery *rc, int g) {
  char extra[128];
  snprintf(extra, sizeof extra, "-DGRID=%d -DGJ_ROWS=NP1 -DGJ_COLS=(NP1+NCOMP) -DGJ_OUT_STRIDE=ROW_NP1", g);
  cl_program program;
  static const char *const headers[] = {"pipeline/gauss_jordan_tiled.h", NULL};
  HDGCL_TRY(pipeline_program_with(pl, headers, "pipeline/postprocess_tiled.cl", true, extra, &program));
  cl_kernel kernel;
  HDGCL_TRY(hdgcl_kernel_create(program, "postprocess_tiled", &kernel));
  if (pipeline_kernel_max_wg(pl, kernel) < (size_t)g * g) {
    clReleaseKernel(kernel);
    return HDGCL_SUCCESS;
  }
  rc->post = kernel;
  rc->post_grid = g;
  return HDGCL_SUCCESS;
}

/* Whether u*'s scratch is in global memory, its doubles per element (*work) and the
 * recover.cl program's extra options. */
static bool recovery_options(device_pipeline *pl, size_t *work_out, char *extra, size_t n) {
  const hdg_sizes *sz = &pl->ref->sz;
  size_t npost = sz->np1 - 1;
  /* packed Cholesky factor and right-hand sides (one per component) */
  size_t work = npost * (npost + 1) / 2 + (size_t)sz->ncomp * npost;
  bool mapped = pl->mapped;
  if (mapped) /* per-point factors (w|J|, G, w adj, q_h, u_h), factor, rhs, means (cl/pipeline/recover.cl) */
    work += (size_t)pl->ref->qload.n * (1 + 2 * sz->dim * sz->dim + sz->dim + 1) + sz->np1 + 1;
  bool scratch_global = mapped || pipeline_scratch_global(pl, work * 8);
  *work_out = work;
  snprintf(extra, n, "-DERR_WG=%d%s", ERR_WG, scratch_global ? " -DSCRATCH_GLOBAL" : "");
  return scratch_global;
}

int recovery_prefetch(device_pipeline *pl) {
  char extra[64];
  size_t work;
  recovery_options(pl, &work, extra, sizeof extra);
  return pipeline_program_prefetch(pl, "pipeline/recover.cl", true, extra);
}

int recovery_create(device_pipeline *pl, recovery *rc, const local_stage *ls) {
  const hdg_sizes *sz = &pl->ref->sz;
  char extra[64];
  size_t work;
  bool mapped = pl->mapped;
  rc->scratch_global = recovery_options(pl, &work, extra, sizeof extra);
  rc->wg = ((size_t)sz->np1 + 31) / 32 * 32;
  if (rc->wg < 64) rc->wg = 64;
  if (rc->wg > 256) rc->wg = 256;
  rc->err_wg = ERR_WG;
  cl_program program;
  HDGCL_TRY(pipeline_program(pl, "pipeline/recover.cl", true, extra, &program));
  rc->vector = sz->ncomp > 1;
  HDGCL_TRY(hdgcl_kernel_create(program, rc->vector ? "elasticity_recover" : "recover_local",
                                &rc->local));
  int grid = 0;
  bool forced = false;
  HDGCL_TRY(choose_post_grid(pl, &grid, &forced));
  /* A device compiler that cannot build the tiled kernel leaves the default
   * to the Cholesky kernel (an error only when the tiled one was asked for). */
  int status = grid ? create_post_tiled(pl, rc, grid) : HDGCL_SUCCESS;
  if (status != HDGCL_SUCCESS && forced) return status;
  if (!rc->post_grid)
    HDGCL_TRY(hdgcl_kernel_create(program, mapped ? "mapped_postprocess" : "postprocess", &rc->post));
  pl->report->postprocess = rc->post_grid ? "gauss-jordan-tiled" : "cholesky";
  pl->report->postprocess_wg = rc->post_grid ? rc->post_grid * rc->post_grid : (int)rc->wg;
  if (mapped)
    HDGCL_TRY(hdgcl_kernel_create(program, rc->vector ? "mapped_elasticity_h" : "mapped_recover_q",
                                  &rc->mapped_q));
  HDGCL_TRY(hdgcl_kernel_create(program, rc->vector ? "elasticity_errors" : "errors", &rc->errors));
  size_t ne = pl->disc->mesh->num_elements, nc = sz->ncomp;
  HDGCL_TRY(hdgcl_buffer_create(pl->ctx, ne * nc * sz->np * 8, "u", &rc->u));
  HDGCL_TRY(hdgcl_buffer_create(pl->ctx, ne * nc * sz->dim * sz->np * 8, "q", &rc->q));
  HDGCL_TRY(hdgcl_buffer_create(pl->ctx, ne * nc * sz->np1 * 8, "u*", &rc->ustar));
  if (pl->types && pl->ref == &pl->disc->ref) { /* a mixed mesh: the narrower type's rows end in */
    HDGCL_TRY(hdgcl_buffer_fill(pl->ctx, &rc->u, 0, ne * nc * sz->np * 8, 0.0)); /* zeros */
    HDGCL_TRY(hdgcl_buffer_fill(pl->ctx, &rc->q, 0, ne * nc * sz->dim * sz->np * 8, 0.0));
    HDGCL_TRY(hdgcl_buffer_fill(pl->ctx, &rc->ustar, 0, ne * nc * sz->np1 * 8, 0.0));
  }
  HDGCL_TRY(hdgcl_buffer_create(pl->ctx, (rc->vector ? ne * sz->np : 1) * 8, "p", &rc->p));
  HDGCL_TRY(hdgcl_buffer_create(
      pl->ctx, ne * ((rc->vector ? ELAS_ERR_VALUES : ERR_VALUES) + CHECK_VALUES(nc)) * 8,
      "element errors", &rc->err));
  /* One chunk of the local stage at a time is postprocessed. */
  size_t chunk = (size_t)ls->chunk;
  HDGCL_TRY(hdgcl_buffer_create(pl->ctx, rc->scratch_global && !rc->post_grid ? chunk * work * 8 : 8,
                                "postprocessing scratch", &rc->scratch));
  return HDGCL_SUCCESS;
}

int recovery_use_cholesky(device_pipeline *pl, recovery *rc, const local_stage *ls, bool *switched) {
  *switched = false;
  if (!rc->post_grid) return HDGCL_SUCCESS;
  const hdg_sizes *sz = &pl->ref->sz;
  size_t npost = sz->np1 - 1, work = npost * (npost + 1) / 2 + (size_t)sz->ncomp * npost;
  char extra[64];
  snprintf(extra, sizeof extra, "-DERR_WG=%d%s", ERR_WG, rc->scratch_global ? " -DSCRATCH_GLOBAL" : "");
  cl_program program;
  HDGCL_TRY(pipeline_program(pl, "pipeline/recover.cl", true, extra, &program)); /* cached: recovery_create's */
  cl_kernel kernel;
  HDGCL_TRY(hdgcl_kernel_create(program, "postprocess", &kernel));
  if (rc->scratch_global) {
    hdgcl_buffer_release(pl->ctx, &rc->scratch);
    int status = hdgcl_buffer_create(pl->ctx, (size_t)ls->chunk * work * 8,
                                     "postprocessing scratch", &rc->scratch);
    if (status != HDGCL_SUCCESS) {
      clReleaseKernel(kernel);
      return status;
    }
  }
  clReleaseKernel(rc->post);
  rc->post = kernel;
  rc->post_grid = 0;
  pl->report->postprocess = "cholesky";
  pl->report->postprocess_wg = (int)rc->wg;
  *switched = true;
  return HDGCL_SUCCESS;
}

int recovery_run_chunk(device_pipeline *pl, recovery *rc, const local_stage *ls, const assembly *as,
                       const krylov *kr, int64_t e0, int64_t n) {
  const hdg_sizes *sz = &pl->ref->sz;
  device_data *d = &pl->data;
  cl_int ce0 = (cl_int)e0, nint = pl->disc->mesh->num_interior_faces;
  cl_int zfirst = (cl_int)local_stage_z_first(ls, e0), pid = pl->disc->params.id;
  size_t global = (size_t)n * rc->wg;
  if (rc->vector) {
    hdgcl_arg vargs[] = {HDGCL_ARG(ce0),          HDGCL_ARG(zfirst),
                         HDGCL_ARG(nint),         HDGCL_ARG(ls->z.mem),
                         HDGCL_ARG(kr->x.mem),    HDGCL_ARG(as->bvals.mem),
                         HDGCL_ARG(d->elem_faces.mem), HDGCL_ARG(d->face_unknown.mem),
                         HDGCL_ARG(d->coords.mem), HDGCL_ARG(d->elem_verts.mem),
                         HDGCL_ARG(d->elem_orient.mem), HDGCL_ARG(d->dm.mem),
                         HDGCL_ARG(d->ef.mem),    HDGCL_ARG(rc->u.mem),
                         HDGCL_ARG(rc->q.mem),    HDGCL_ARG(rc->p.mem)};
    HDGCL_TRY(hdgcl_kernel_set_args(rc->local, sizeof vargs / sizeof *vargs, vargs));
  } else {
    hdgcl_arg args[] = {HDGCL_ARG(ce0),          HDGCL_ARG(zfirst),
                        HDGCL_ARG(nint),         HDGCL_ARG(ls->z.mem),
                        HDGCL_ARG(kr->x.mem),    HDGCL_ARG(as->bvals.mem),
                        HDGCL_ARG(d->elem_faces.mem), HDGCL_ARG(d->face_unknown.mem),
                        HDGCL_ARG(d->coords.mem), HDGCL_ARG(d->elem_verts.mem),
                        HDGCL_ARG(d->elem_orient.mem), HDGCL_ARG(d->kappa.mem),
                        HDGCL_ARG(d->dm.mem),    HDGCL_ARG(d->ef.mem),
                        HDGCL_ARG(rc->u.mem),    HDGCL_ARG(rc->q.mem)};
    HDGCL_TRY(hdgcl_kernel_set_args(rc->local, sizeof args / sizeof *args, args));
  }
  HDGCL_TRY(hdgcl_kernel_launch(pl->ctx, rc->local, 1, &global, &rc->wg, NULL));
  if (pl->mapped) {
    cl_int inverse = ls->minverse != NULL; /* X = A^-1 Y (else Ls Y): cl/pipeline/local_mapped.cl */
    hdgcl_arg qargs[] = {HDGCL_ARG(ce0),           HDGCL_ARG(nint),
                         HDGCL_ARG(inverse),       HDGCL_ARG(ls->m.mem),
                         HDGCL_ARG(ls->x.mem),     HDGCL_ARG(kr->x.mem),
                         HDGCL_ARG(as->bvals.mem), HDGCL_ARG(d->elem_faces.mem),
                         HDGCL_ARG(d->face_unknown.mem), HDGCL_ARG(d->kappa.mem),
                         HDGCL_ARG(rc->u.mem),     HDGCL_ARG(rc->q.mem)};
    HDGCL_TRY(hdgcl_kernel_set_args(rc->mapped_q, sizeof qargs / sizeof *qargs, qargs));
    HDGCL_TRY(hdgcl_kernel_launch(pl->ctx, rc->mapped_q, 1, &global, &rc->wg, NULL));
    hdgcl_arg pargs[] = {HDGCL_ARG(ce0),           HDGCL_ARG(d->coords.mem),
                         HDGCL_ARG(d->elem_verts.mem), HDGCL_ARG(d->kappa.mem),
                         HDGCL_ARG(d->load_points.mem), HDGCL_ARG(d->load_weights.mem),
                         HDGCL_ARG(d->phi_load.mem), HDGCL_ARG(d->phi1_load.mem),
                         HDGCL_ARG(d->dphi1_load.mem), HDGCL_ARG(rc->u.mem),
                         HDGCL_ARG(rc->q.mem),     HDGCL_ARG(rc->ustar.mem),
                         HDGCL_ARG(rc->scratch.mem), HDGCL_ARG(pid),
                         HDGCL_ARG(d->elem_set.mem)};
    HDGCL_TRY(hdgcl_kernel_set_args(rc->post, sizeof pargs / sizeof *pargs, pargs));
  } else {
    hdgcl_arg pargs[] = {HDGCL_ARG(ce0),          HDGCL_ARG(d->coords.mem),
                         HDGCL_ARG(d->elem_verts.mem), HDGCL_ARG(d->kappa.mem),
                         HDGCL_ARG(d->kpost.mem), HDGCL_ARG(d->dpost.mem),
                         HDGCL_ARG(rc->u.mem),    HDGCL_ARG(rc->q.mem),
                         HDGCL_ARG(rc->ustar.mem), HDGCL_ARG(rc->scratch.mem)};
    /* postprocess_tiled has no scratch argument */
    HDGCL_TRY(hdgcl_kernel_set_args(rc->post, sizeof pargs / sizeof *pargs - (rc->post_grid ? 1 : 0),
                                    pargs));
  }
  size_t post_wg = rc->post_grid ? (size_t)rc->post_grid * rc->post_grid : rc->wg;
  size_t post_global = (size_t)n * post_wg;
  HDGCL_TRY(hdgcl_kernel_launch(pl->ctx, rc->post, 1, &post_global, &post_wg, NULL));
  /* u: 2 NP (NT+1); q: dim NP (2 NP dim + nfaces (2 NF + 6)); u*: its right-hand
   * sides 2 dim^2 NPOST NP per component (R = NCOMP of them), and its system:
   * packed Cholesky (build (2 dim^2 + 1) NPOST^2 / 2, factor NPOST^3 / 3,
   * solves 2 NPOST^2 each) or Gauss-Jordan on [A | b] (build 2 dim^2 NP1^2,
   * elimination NP1^3 + 2 R NP1^2). */
  double P = sz->np, T = sz->nt, D = sz->dim, Q = sz->np1 - 1, N = sz->np1, R = sz->ncomp;
  double ustar = R * 2 * D * D * Q * P +
                 (rc->post_grid ? 2 * D * D * N * N + N * N * N + 2 * R * N * N
                                : (2 * D * D + 1) * Q * Q / 2 + Q * Q * Q / 3 + R * 2 * Q * Q);
  double flops = 2 * P * (T + 1) + D * P * (2 * P * D + sz->nfaces * (2.0 * sz->nf + 6)) + ustar;
  double bytes = 8 * (P * (T + 1) + T + P + D * P + (D * P + 1) + (Q + 1));
  if (rc->vector) {
    /* elasticity_recover: [u; p] 2 NZ (NTB+1); H: D^2 NP (2 NP D + nfaces (2 NF + 6));
     * u* as above with R = D.  Bytes: Z, the trace, u, p, H written; H, u
     * read and u* written again. */
    double Z = ls->rows, TB = sz->ntb;
    flops = 2 * Z * (TB + 1) + D * D * P * (2 * P * D + sz->nfaces * (2.0 * sz->nf + 6)) + ustar;
    bytes = 8 * (Z * (TB + 1) + TB + Z + 2 * D * D * P + D * P + D * (Q + 1));
  }
  pl->report->stages[HDGCL_STAGE_RECOVER].flops += flops * n;
  pl->report->stages[HDGCL_STAGE_RECOVER].bytes += bytes * n;
  return HDGCL_SUCCESS;
}

/* The vector problems' sums of elasticity_errors (E11), in element order. */
static int vector_errors(device_pipeline *pl, recovery *rc) {
  const hdg_sizes *sz = &pl->ref->sz;
  size_t ne = pl->disc->mesh->num_elements, nv = ELAS_ERR_VALUES + CHECK_VALUES(sz->ncomp);
  double *err;
  HDGCL_TRY(hdgcl_calloc(ne * nv, sizeof(double), "element errors", &err));
  int status = hdgcl_buffer_read(pl->ctx, &rc->err, 0, ne * nv * 8, err);
  double sum[ELAS_ERR_VALUES] = {0}, emax = 0.0;
  ustar_check chk = {0};
  for (size_t e = 0; e < ne && status == HDGCL_SUCCESS; e++) {
    for (int c = 0; c < ELAS_ERR_VALUES; c++)
      if (c != 4) sum[c] += err[e * nv + c];
    if (err[e * nv + 4] > emax) emax = err[e * nv + 4];
    ustar_check_element(&chk, (int32_t)e, sz->ncomp, err + e * nv + ELAS_ERR_VALUES);
  }
  free(err);
  HDGCL_TRY(status);
  HDGCL_TRY(ustar_check_finish(&chk, pl->ctx->reference, &pl->sol->ustar_check));
  hdg_solution *sol = pl->sol;
  sol->l2_u = sqrt(sum[0]);
  sol->l2_q = sqrt(sum[1]);
  sol->l2_p = sqrt(sum[2]);
  sol->l2_ustar = sqrt(sum[3]);
  sol->linf_u = emax;
  sol->norm_u = sqrt(sum[5]);
  sol->norm_q = sqrt(sum[6]);
  sol->norm_p = sqrt(sum[7]);
  hdgcl_result *r = pl->report;
  /* Per error point: u, H, p and u* evaluated (2 NP (D + D^2 + 1) + 2 D NP1),
   * the exact fields (about 100 flops) and the sums (6 D^2). */
  double nq = pl->ref->qerr.n, D = sz->dim;
  r->stages[HDGCL_STAGE_RECOVER].flops +=
      ne * nq * (2.0 * (sz->np * (D + D * D + 1) + D * sz->np1) + 100 + 6 * D * D);
  r->stages[HDGCL_STAGE_RECOVER].bytes +=
      ne * 8.0 * (sz->np * (D + D * D + 1) + D * sz->np1 + ELAS_ERR_VALUES);
  return HDGCL_SUCCESS;
}

/* The errors kernel of rc over the elements [first, first + count), with the
 * view's tables. */
static int launch_errors(device_pipeline *pl, recovery *rc, size_t first_element, size_t count) {
  device_data *d = &pl->data;
  cl_int e0 = 0, pid = pl->disc->params.id, pdeg = pl->disc->params.degree;
  double k2 = pl->disc->params.param, mu = pl->disc->params.mu, lambda = pl->disc->params.lambda;
  if (rc->vector) {
    hdgcl_arg args[] = {HDGCL_ARG(e0),          HDGCL_ARG(d->coords.mem),
                        HDGCL_ARG(d->elem_verts.mem), HDGCL_ARG(pid),
                        HDGCL_ARG(k2),          HDGCL_ARG(mu),
                        HDGCL_ARG(lambda),      HDGCL_ARG(d->err_points.mem),
                        HDGCL_ARG(d->err_weights.mem), HDGCL_ARG(d->phi_err.mem),
                        HDGCL_ARG(d->phi1_err.mem), HDGCL_ARG(rc->u.mem),
                        HDGCL_ARG(rc->q.mem),   HDGCL_ARG(rc->p.mem),
                        HDGCL_ARG(rc->ustar.mem), HDGCL_ARG(rc->err.mem),
                        HDGCL_ARG(d->kappa.mem), HDGCL_ARG(d->kpost.mem),
                        HDGCL_ARG(d->dpost.mem), HDGCL_ARG(d->lambda.mem)};
    HDGCL_TRY(hdgcl_kernel_set_args(rc->errors, sizeof args / sizeof *args, args));
  } else {
    hdgcl_arg args[] = {HDGCL_ARG(e0),          HDGCL_ARG(d->coords.mem), HDGCL_ARG(d->elem_verts.mem),
                        HDGCL_ARG(pid),         HDGCL_ARG(pdeg),          HDGCL_ARG(k2),
                        HDGCL_ARG(d->err_points.mem), HDGCL_ARG(d->err_weights.mem),
                        HDGCL_ARG(d->phi_err.mem), HDGCL_ARG(d->phi1_err.mem),
                        HDGCL_ARG(rc->u.mem),  HDGCL_ARG(rc->q.mem),
                        HDGCL_ARG(rc->ustar.mem), HDGCL_ARG(rc->err.mem),
                        HDGCL_ARG(d->kappa.mem), HDGCL_ARG(d->kpost.mem),
                        HDGCL_ARG(d->dpost.mem), HDGCL_ARG(d->elem_set.mem)};
    HDGCL_TRY(hdgcl_kernel_set_args(rc->errors, sizeof args / sizeof *args, args));
  }
  /* In batches of elements, so each launch stays below 2^31 work-items. */
  const size_t batch = (size_t)1 << 22, end = first_element + count;
  for (size_t first = first_element; first < end; first += batch) {
    cl_int b0 = (cl_int)first;
    HDGCL_CL(clSetKernelArg(rc->errors, 0, sizeof b0, &b0), "clSetKernelArg", "errors");
    size_t global = (end - first < batch ? end - first : batch) * rc->err_wg;
    HDGCL_TRY(hdgcl_kernel_launch(pl->ctx, rc->errors, 1, &global, &rc->err_wg, NULL));
  }
  return HDGCL_SUCCESS;
}

int recovery_errors(device_pipeline *pl, recovery *rc) {
  const hdg_sizes *sz = &pl->ref->sz;
  size_t ne = pl->disc->mesh->num_elements;
  HDGCL_TRY(corrupt_ustar_for_test(pl, rc));
  if (!pl->types) {
    HDGCL_TRY(launch_errors(pl, rc, 0, ne));
  } else { /* a mixed mesh: each type's elements with its kernel and tables */
    int status = HDGCL_SUCCESS;
    for (int b = 0; b < pl->num_batches && status == HDGCL_SUCCESS; b++) {
      const element_batch *bt = &pl->batches[b];
      status = pipeline_use_batch(pl, b);
      if (status == HDGCL_SUCCESS)
        status = launch_errors(pl, bt->recover, (size_t)bt->first, (size_t)bt->count);
    }
    int back = pipeline_use_batch(pl, pl->num_batches - 1);
    HDGCL_TRY(status);
    HDGCL_TRY(back);
  }
  double *err;
  if (rc->vector) return vector_errors(pl, rc);
  const size_t nv = ERR_VALUES + CHECK_VALUES(1);
  HDGCL_TRY(hdgcl_calloc(ne * nv, sizeof(double), "element errors", &err));
  int status = hdgcl_buffer_read(pl->ctx, &rc->err, 0, ne * nv * 8, err);
  double sum[ERR_VALUES] = {0}, emax = 0.0;
  ustar_check chk = {0};
  for (size_t e = 0; e < ne && status == HDGCL_SUCCESS; e++) { /* fixed order: deterministic */
    for (int c = 0; c < ERR_VALUES; c++)
      if (c != 3) sum[c] += err[e * nv + c];
    if (err[e * nv + 3] > emax) emax = err[e * nv + 3];
    ustar_check_element(&chk, (int32_t)e, 1, err + e * nv + ERR_VALUES);
  }
  free(err);
  HDGCL_TRY(status);
  HDGCL_TRY(ustar_check_finish(&chk, pl->ctx->reference, &pl->sol->ustar_check));
  pl->sol->l2_u = sqrt(sum[0]);
  pl->sol->l2_q = sqrt(sum[1]);
  pl->sol->l2_ustar = sqrt(sum[2]);
  pl->sol->linf_u = emax;
  pl->sol->norm_u = sqrt(sum[4]);
  pl->sol->norm_q = sqrt(sum[5]);
  double nq = pl->ref->qerr.n;
  pl->report->stages[HDGCL_STAGE_RECOVER].flops +=
      ne * nq * (2.0 * (sz->np * (1 + sz->dim) + sz->np1) + 60);
  pl->report->stages[HDGCL_STAGE_RECOVER].bytes += ne * 8.0 * (sz->np * (1 + sz->dim) + sz->np1 + 4);
  return HDGCL_SUCCESS;
}

void recovery_destroy(device_pipeline *pl, recovery *rc) {
  cl_kernel kernels[] = {rc->local, rc->post, rc->errors, rc->mapped_q};
  for (size_t i = 0; i < 4; i++)
    if (kernels[i]) clReleaseKernel(kernels[i]);
  hdgcl_buffer_release(pl->ctx, &rc->u);
  hdgcl_buffer_release(pl->ctx, &rc->q);
  hdgcl_buffer_release(pl->ctx, &rc->ustar);
  hdgcl_buffer_release(pl->ctx, &rc->err);
  hdgcl_buffer_release(pl->ctx, &rc->p);
  hdgcl_buffer_release(pl->ctx, &rc->scratch);
  *rc = (recovery){0};
}
