/* One batched dense product shape, C_e = alpha op(A_e) op(B_e) + beta C_e
 * (column-major, e = 0..batch-1), run by CLBlast's DgemmStridedBatched or by
 * cl/core/batched_gemm.cl's register-tiled kernel in one of a few tile
 * configurations, whichever a timed trial on the caller's own operands found
 * faster on this device (kept as a tuning record).  On the H100 CLBlast's
 * untuned direct GEMM reaches 4.3-5.1 TFLOP/s at the local stage's shapes of
 * tetrahedra p = 7, where the tiled kernel reaches 8.6-9.7
 * (perf/results/stop24/README.md). */
#ifndef HDGCL_HOST_BATCHED_GEMM_H
#define HDGCL_HOST_BATCHED_GEMM_H

#include <stdbool.h>
#include <stddef.h>

#include "core/context.h"

/* A tile configuration of cl/core/batched_gemm.cl: tm x tn entries of C per
 * work-group, rm x rn per work-item, sums in slices of kb. */
typedef struct gemm_tiles {
  int tm, tn, rm, rn, kb;
} gemm_tiles;

typedef struct batched_gemm {
  bool trans_a, trans_b;
  size_t m, n, k, lda, ldb, ldc;
  gemm_tiles tiles;   /* tm == 0: CLBlast */
  cl_kernel kernel;   /* the tiled kernel (NULL with CLBlast, or until its first product) */
  const char *source; /* "default", "environment", "cache" or "trial" */
  bool untried;       /* batched_gemm_choose left the choice to batched_gemm_trial */
  size_t launch_max;  /* most work-items per launch of the tiled kernel; 0: 2^31 - 1,
                       * hdgcl_kernel_launch's limit (tests lower it to run the batch
                       * in pieces) */
  char name[48];      /* "clblast" or "tiled:TMxTN:RMxRN:KB" */
} batched_gemm;

/* The operands of one batched product: offsets and strides between the
 * matrices of consecutive e, in doubles. */
typedef struct gemm_operands {
  cl_mem a, b, c;
  size_t a_offset, a_stride, b_offset, b_stride, c_offset, c_stride;
} gemm_operands;

/* The shape (op(A) m x k, op(B) k x n); CLBlast until batched_gemm_choose. */
void batched_gemm_init(batched_gemm *g, bool trans_a, bool trans_b, size_t m, size_t n, size_t k,
                       size_t lda, size_t ldb, size_t ldc);
/* Chooses the implementation: $HDGCL_BATCHED_GEMM ("clblast", "tiled" for
 * the first configuration, "tiled:TMxTN:RMxRN:KB", or "tuned": the record
 * or the trial whatever `trial` says), else this device's record for the
 * shape, else the default, with g->untried set where `trial` (or "tuned")
 * asks batched_gemm_trial to decide.  The default is CLBlast, or with
 * `quick_compile` the first tile configuration (where the device runs it):
 * one kernel that compiles in a second where CLBlast's GEMM program took
 * 35 s on PoCL (2 cores) on a cold cache; both sum each entry in the order
 * of k by fused multiply-adds, so the products are the same to the bit
 * (docs/tuning.md, "Start-up"). */
int batched_gemm_choose(hdgcl_context ctx, batched_gemm *g, bool trial, bool quick_compile);
/* Whether g runs by CLBlast. */
bool batched_gemm_is_clblast(const batched_gemm *g);
/* Where g->untried: a timed trial of CLBlast and each tile configuration
 * that fits the device on `ops` (batch matrices; C is overwritten, with
 * beta = 1 accumulated into, so its values are lost), the fastest kept and
 * stored as the record; nothing otherwise. */
int batched_gemm_trial(hdgcl_context ctx, batched_gemm *g, double beta, const gemm_operands *ops,
                       size_t batch);
/* g runs by `name`: "clblast", "tiled" or "tiled:TMxTN:RMxRN:KB"; an
 * argument error, starting with `what` (e.g. "HDGCL_BATCHED_GEMM="), for any
 * other name or a tiling this device cannot run. */
int batched_gemm_use(hdgcl_context ctx, batched_gemm *g, const char *name, const char *what);
/* C_e = alpha op(A_e) op(B_e) + beta C_e for e < batch (beta = 0 does not read C);
 * compiles the tiled kernel first where batched_gemm_choose left it for later. */
int batched_gemm_run(hdgcl_context ctx, batched_gemm *g, double alpha, const gemm_operands *ops,
                     double beta, size_t batch);
void batched_gemm_destroy(batched_gemm *g);

#endif
