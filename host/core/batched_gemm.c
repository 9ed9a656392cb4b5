/* Batched dense products by CLBlast or cl/core/batched_gemm.cl, chosen per shape
 * and device (batched_gemm.h). */
#include "core/batched_gemm.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/blas.h"
#include "core/error.h"

/* The tile configurations a trial times, the first also what plain "tiled"
 * means.  On the H100 (stop 24) 80 x 80 in slices of 16 was the fastest at
 * the K and Z shapes of tetrahedra p = 7 (145 x 145 x 120 and 120 x 145 x
 * 120), 64 x 64 at p = 6 (113 x 113 x 84); longer slices beat shorter ones. */
static const gemm_tiles tile_candidates[] = {
    {64, 64, 4, 4, 16}, {80, 80, 5, 5, 16}, {80, 80, 5, 5, 24}, {64, 64, 4, 4, 8},
    {48, 48, 3, 3, 16}, {32, 32, 2, 2, 16},
};
#define NUM_TILE_CANDIDATES (int)(sizeof tile_candidates / sizeof tile_candidates[0])

static size_t tiles_wg(const gemm_tiles *t) { return (size_t)(t->tm / t->rm) * (size_t)(t->tn / t->rn); }

/* The local memory of a configuration: op(A)'s and B's slices, padded. */
static size_t tiles_local_bytes(const gemm_tiles *t) {
  return 8 * (size_t)t->kb * (size_t)(t->tm + 1 + t->tn + 1);
}

static void set_name(batched_gemm *g) {
  if (!g->tiles.tm)
    snprintf(g->name, sizeof g->name, "clblast");
  else
    snprintf(g->name, sizeof g->name, "tiled:%dx%d:%dx%d:%d", g->tiles.tm, g->tiles.tn,
             g->tiles.rm, g->tiles.rn, g->tiles.kb);
}

void batched_gemm_init(batched_gemm *g, bool trans_a, bool trans_b, size_t m, size_t n, size_t k,
                       size_t lda, size_t ldb, size_t ldc) {
  *g = (batched_gemm){.trans_a = trans_a, .trans_b = trans_b, .m = m, .n = n, .k = k,
                      .lda = lda, .ldb = ldb, .ldc = ldc, .source = "default"};
  set_name(g);
}

void batched_gemm_destroy(batched_gemm *g) {
  if (g->kernel) clReleaseKernel(g->kernel);
  g->kernel = NULL;
}

/* Whether configuration t can run on this device: a whole tile per
 * work-group within the device's work-group and local-memory limits. */
static bool tiles_valid(hdgcl_context ctx, const gemm_tiles *t) {
  if (t->tm < 1 || t->tn < 1 || t->rm < 1 || t->rn < 1 || t->kb < 1) return false;
  if (t->tm % t->rm || t->tn % t->rn) return false;
  return tiles_wg(t) <= ctx->info.max_work_group &&
         tiles_local_bytes(t) <= ctx->info.local_mem;
}

/* Compiles configuration t for g's shape into *kernel; NULL where the
 * compiled kernel allows fewer work-items than a tile needs. */
static int tiles_kernel(hdgcl_context ctx, const batched_gemm *g, const gemm_tiles *t,
                        cl_kernel *kernel) {
  char options[320];
  snprintf(options, sizeof options,
           "-DGM=%zu -DGN=%zu -DGK=%zu -DTRANS_A=%d -DTRANS_B=%d -DLDA=%zu -DLDB=%zu -DLDC=%zu "
           "-DTM=%d -DTN=%d -DRM=%d -DRN=%d -DKB=%d",
           g->m, g->n, g->k, g->trans_a, g->trans_b, g->lda, g->ldb, g->ldc, t->tm, t->tn, t->rm,
           t->rn, t->kb);
  const char *files[] = {"core/batched_gemm.cl"};
  cl_program program;
  HDGCL_TRY(hdgcl_program_get(ctx, files, 1, options, &program));
  HDGCL_TRY(hdgcl_kernel_create(program, "batched_gemm", kernel));
  size_t kmax = 0;
  HDGCL_CL(clGetKernelWorkGroupInfo(*kernel, ctx->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof kmax,
                                    &kmax, NULL),
           "clGetKernelWorkGroupInfo", "batched_gemm");
  if (kmax < tiles_wg(t)) {
    clReleaseKernel(*kernel);
    *kernel = NULL;
  }
  return HDGCL_SUCCESS;
}

int batched_gemm_run(hdgcl_context ctx, batched_gemm *g, double alpha,
                     const gemm_operands *o, double beta, size_t batch) {
  if (!batch) return HDGCL_SUCCESS;
  if (g->tiles.tm && !g->kernel) { /* a default taken without compiling (batched_gemm_choose) */
    HDGCL_TRY(tiles_kernel(ctx, g, &g->tiles, &g->kernel));
    if (!g->kernel) { /* the kernel allows too few work-items: CLBlast after all */
      g->tiles = (gemm_tiles){0};
      set_name(g);
    }
  }
  if (!g->tiles.tm)
    return hdgcl_dgemm_strided_batched(ctx, g->trans_a, g->trans_b, g->m, g->n, g->k, alpha, o->a,
                                       o->a_offset, g->lda, o->a_stride, o->b, o->b_offset, g->ldb,
                                       o->b_stride, beta, o->c, o->c_offset, g->ldc, o->c_stride,
                                       batch, NULL);
  const gemm_tiles *t = &g->tiles;
  size_t tiles = ((g->m + (size_t)t->tm - 1) / (size_t)t->tm) * ((g->n + (size_t)t->tn - 1) / (size_t)t->tn);
  size_t wg = tiles_wg(t);
  /* Launches of at most launch_max work-items (by default 2^31 - 1,
   * hdgcl_kernel_launch's limit): the batch in pieces where a huge chunk of
   * small matrices would pass it. */
  size_t most = (g->launch_max ? g->launch_max : (size_t)INT_MAX) / (tiles * wg);
  if (most < 1) most = 1;
  for (size_t e0 = 0; e0 < batch; e0 += most) {
    size_t count = batch - e0 < most ? batch - e0 : most, global = tiles * count * wg;
    cl_long ao = (cl_long)(o->a_offset + e0 * o->a_stride), as = (cl_long)o->a_stride,
            bo = (cl_long)(o->b_offset + e0 * o->b_stride), bs = (cl_long)o->b_stride,
            co = (cl_long)(o->c_offset + e0 * o->c_stride), cs = (cl_long)o->c_stride;
    hdgcl_arg a[] = {HDGCL_ARG(alpha), HDGCL_ARG(o->a), HDGCL_ARG(ao), HDGCL_ARG(as),
                     HDGCL_ARG(o->b),  HDGCL_ARG(bo),   HDGCL_ARG(bs), HDGCL_ARG(beta),
                     HDGCL_ARG(o->c),  HDGCL_ARG(co),   HDGCL_ARG(cs)};
    HDGCL_TRY(hdgcl_kernel_set_args(g->kernel, 11, a));
    HDGCL_TRY(hdgcl_kernel_launch(ctx, g->kernel, 1, &global, &wg, NULL));
  }
  return HDGCL_SUCCESS;
}

/* One run of a trial, as hdgcl_time_best passes it. */
typedef struct {
  hdgcl_context ctx;
  batched_gemm *g;
  double beta;
  const gemm_operands *ops;
  size_t batch;
} gemm_run;

static int run_gemm(void *data) {
  gemm_run *r = data;
  return batched_gemm_run(r->ctx, r->g, 1.0, r->ops, r->beta, r->batch);
}

/* g's time per run on ops, by the trials' timing policy (hdgcl_time_best). */
static int time_run(hdgcl_context ctx, batched_gemm *g, double beta, const gemm_operands *ops,
                    size_t batch, double *seconds) {
  gemm_run r = {ctx, g, beta, ops, batch};
  return hdgcl_time_best(ctx, run_gemm, NULL, &r, seconds, NULL);
}

/* g takes configuration t (tm == 0: CLBlast); false in *ok where it cannot
 * run here. */
static int take_tiles(hdgcl_context ctx, batched_gemm *g, const gemm_tiles *t, bool *ok) {
  cl_kernel kernel = NULL;
  *ok = true;
  if (t->tm) {
    *ok = tiles_valid(ctx, t);
    if (*ok) HDGCL_TRY(tiles_kernel(ctx, g, t, &kernel));
    *ok = *ok && kernel;
    if (!*ok) return HDGCL_SUCCESS;
  }
  batched_gemm_destroy(g);
  g->kernel = kernel;
  g->tiles = t->tm ? *t : (gemm_tiles){0};
  set_name(g);
  return HDGCL_SUCCESS;
}

/* "clblast", "tiled" or "tiled:TMxTN:RMxRN:KB" -> *t (tm 0: CLBlast); false
 * for anything else. */
static bool parse_tiles(const char *text, gemm_tiles *t) {
  *t = (gemm_tiles){0};
  if (!strcmp(text, "clblast")) return true;
  if (!strcmp(text, "tiled")) {
    *t = tile_candidates[0];
    return true;
  }
  char end;
  return sscanf(text, "tiled:%dx%d:%dx%d:%d%c", &t->tm, &t->tn, &t->rm, &t->rn, &t->kb, &end) == 5 &&
         t->tm > 0;
}

/* The tuning record's label of g's shape. */
static void record_label(const batched_gemm *g, char *label, size_t n) {
  snprintf(label, n, "batched_gemm v1 %c%c m=%zu n=%zu k=%zu lda=%zu ldb=%zu ldc=%zu",
           g->trans_a ? 'T' : 'N', g->trans_b ? 'T' : 'N', g->m, g->n, g->k, g->lda, g->ldb,
           g->ldc);
}

int batched_gemm_use(hdgcl_context ctx, batched_gemm *g, const char *name, const char *what) {
  gemm_tiles t;
  bool ok;
  if (!parse_tiles(name, &t))
    return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                       "%s%s: expected clblast, tiled, tiled:TMxTN:RMxRN:KB or tuned", what, name);
  HDGCL_TRY(take_tiles(ctx, g, &t, &ok));
  if (!ok)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                       "%s%s: not a tiling this device runs (TM, TN multiples of RM, RN; "
                       "(TM/RM)(TN/RN) work-items and 8 KB (TM+TN+2) bytes of local memory "
                       "within its limits)", what, name);
  return HDGCL_SUCCESS;
}

bool batched_gemm_is_clblast(const batched_gemm *g) { return !g->tiles.tm; }

int batched_gemm_choose(hdgcl_context ctx, batched_gemm *g, bool trial, bool quick_compile) {
  const char *env = getenv("HDGCL_BATCHED_GEMM");
  bool tuned = env && !strcmp(env, "tuned");
  gemm_tiles t;
  bool ok;
  g->untried = false;
  if (env && env[0] && !tuned) {
    HDGCL_TRY(batched_gemm_use(ctx, g, env, "HDGCL_BATCHED_GEMM="));
    g->source = "environment";
    return HDGCL_SUCCESS;
  }
  char label[160], value[48];
  record_label(g, label, sizeof label);
  if (hdgcl_tuning_load(ctx, label, value, sizeof value) && parse_tiles(value, &t)) {
    HDGCL_TRY(take_tiles(ctx, g, &t, &ok));
    if (ok) {
      g->source = "cache";
      return HDGCL_SUCCESS;
    }
  }
  g->source = "default";
  g->untried = trial || tuned;
  if (quick_compile && !g->untried && tiles_valid(ctx, &tile_candidates[0])) {
    /* compiled at the first product (batched_gemm_run): a shape that never
     * runs (K's where local_schur makes K) compiles nothing */
    batched_gemm_destroy(g);
    g->tiles = tile_candidates[0];
    set_name(g);
    return HDGCL_SUCCESS;
  }
  HDGCL_TRY(take_tiles(ctx, g, &(gemm_tiles){0}, &ok)); /* CLBlast */
  return HDGCL_SUCCESS;
}

int batched_gemm_trial(hdgcl_context ctx, batched_gemm *g, double beta, const gemm_operands *ops,
                       size_t batch) {
  if (!g->untried || !batch) return HDGCL_SUCCESS;
  char label[160];
  record_label(g, label, sizeof label);
  double best;
  bool ok;
  HDGCL_TRY(take_tiles(ctx, g, &(gemm_tiles){0}, &ok)); /* CLBlast */
  HDGCL_TRY(time_run(ctx, g, beta, ops, batch, &best));
  if (ctx->verbose)
    fprintf(stderr, "hdgcl: batched_gemm trial (%s) clblast on %zu: %.3f ms\n", label, batch,
            1e3 * best);
  gemm_tiles chosen = {0};
  for (int i = 0; i < NUM_TILE_CANDIDATES; i++) {
    HDGCL_TRY(take_tiles(ctx, g, &tile_candidates[i], &ok));
    if (!ok) continue;
    double s;
    HDGCL_TRY(time_run(ctx, g, beta, ops, batch, &s));
    if (ctx->verbose)
      fprintf(stderr, "hdgcl: batched_gemm trial %s: %.3f ms\n", g->name, 1e3 * s);
    if (s < best) {
      best = s;
      chosen = tile_candidates[i];
    }
  }
  HDGCL_TRY(take_tiles(ctx, g, &chosen, &ok));
  g->source = "trial";
  g->untried = false;
  hdgcl_tuning_store(ctx, label, g->name);
  return HDGCL_SUCCESS;
}
