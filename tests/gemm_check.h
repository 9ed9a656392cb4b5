/* One batched DGEMM (hdgcl_dgemm_strided_batched, host/core/blas.c, or a
 * configuration of host/core/batched_gemm.c) checked against a host triple loop:
 * the check of test_clblast.c (every case), test_clblast_tuning.c (products
 * under a tuning) and test_batched_gemm.c (the tiled kernel). */
#ifndef HDGCL_TESTS_GEMM_CHECK_H
#define HDGCL_TESTS_GEMM_CHECK_H

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "core/batched_gemm.h"
#include "core/blas.h"
#include "check.h"

/* C_q = alpha op(A_q) op(B_q) + beta C_q, q < batch, column-major. */
typedef struct gemm_case {
  bool ta, tb;
  size_t m, n, k, batch;
  size_t pad;    /* extra rows of each leading dimension */
  size_t offset; /* doubles before the first matrix of each operand */
  size_t gap;    /* extra doubles between two batch members */
  double alpha, beta;
} gemm_case;

static inline double gemm_check_value(unsigned *seed) {
  *seed = *seed * 1103515245u + 12345u;
  return ((*seed >> 8) & 0xffff) / 32768.0 - 1.0;
}

static inline double gemm_check_elem(const double *x, size_t ld, size_t i, size_t j) {
  return x[i + j * ld];
}

/* Runs case c on ctx with pseudo-random A, B and C, by CLBlast directly
 * (impl NULL) or by batched_gemm_use's `impl`, and returns the status of
 * the product (not itself checked: callers expect success or a refusal).
 * When it ran, checks C against the host loop (error relative to the largest
 * entry of the product <= 1e-13) and that no entry of C's buffer outside the
 * m x n blocks changed.  launch_max, where not 0, lowers the tiled
 * kernel's work-items per launch (batched_gemm's launch_max). */
static inline int gemm_check_launches(hdgcl_context ctx, const gemm_case *c, const char *impl,
                                      size_t launch_max) {
  size_t rows_a = c->ta ? c->k : c->m, cols_a = c->ta ? c->m : c->k;
  size_t rows_b = c->tb ? c->n : c->k, cols_b = c->tb ? c->k : c->n;
  size_t lda = rows_a + c->pad, ldb = rows_b + c->pad, ldc = c->m + c->pad;
  size_t sa = lda * cols_a + c->gap, sb = ldb * cols_b + c->gap, sc = ldc * c->n + c->gap;
  size_t na = c->offset + sa * c->batch, nb = c->offset + sb * c->batch,
         nc = c->offset + sc * c->batch;
  double *a = malloc(na * 8), *b = malloc(nb * 8), *cc = malloc(nc * 8), *ref = malloc(nc * 8),
         *got = malloc(nc * 8);
  unsigned seed = (unsigned)(c->m * 131 + c->n * 17 + c->k * 7 + c->ta * 2 + c->tb);
  for (size_t i = 0; i < na; i++) a[i] = gemm_check_value(&seed);
  for (size_t i = 0; i < nb; i++) b[i] = gemm_check_value(&seed);
  for (size_t i = 0; i < nc; i++) cc[i] = ref[i] = gemm_check_value(&seed);
  /* Reference: C_b = alpha op(A_b) op(B_b) + beta C_b on the m x n block only. */
  double scale = 0.0;
  for (size_t q = 0; q < c->batch; q++) {
    const double *A = a + c->offset + q * sa, *B = b + c->offset + q * sb;
    double *C = ref + c->offset + q * sc;
    for (size_t j = 0; j < c->n; j++)
      for (size_t i = 0; i < c->m; i++) {
        double s = 0.0;
        for (size_t l = 0; l < c->k; l++)
          s += (c->ta ? gemm_check_elem(A, lda, l, i) : gemm_check_elem(A, lda, i, l)) *
               (c->tb ? gemm_check_elem(B, ldb, j, l) : gemm_check_elem(B, ldb, l, j));
        C[i + j * ldc] = c->alpha * s + c->beta * C[i + j * ldc];
        if (fabs(C[i + j * ldc]) > scale) scale = fabs(C[i + j * ldc]);
      }
  }
  hdgcl_buffer da, db, dc;
  CHECK_OK(hdgcl_buffer_create(ctx, na * 8, "A", &da));
  CHECK_OK(hdgcl_buffer_create(ctx, nb * 8, "B", &db));
  CHECK_OK(hdgcl_buffer_create(ctx, nc * 8, "C", &dc));
  CHECK_OK(hdgcl_buffer_write(ctx, &da, 0, na * 8, a));
  CHECK_OK(hdgcl_buffer_write(ctx, &db, 0, nb * 8, b));
  CHECK_OK(hdgcl_buffer_write(ctx, &dc, 0, nc * 8, cc));
  int status;
  if (!impl) {
    status = hdgcl_dgemm_strided_batched(ctx, c->ta, c->tb, c->m, c->n, c->k, c->alpha, da.mem,
                                         c->offset, lda, sa, db.mem, c->offset, ldb, sb, c->beta,
                                         dc.mem, c->offset, ldc, sc, c->batch, NULL);
  } else {
    batched_gemm g;
    batched_gemm_init(&g, c->ta, c->tb, c->m, c->n, c->k, lda, ldb, ldc);
    gemm_operands o = {da.mem, db.mem, dc.mem, c->offset, sa, c->offset, sb, c->offset, sc};
    status = batched_gemm_use(ctx, &g, impl, "");
    g.launch_max = launch_max;
    if (status == HDGCL_SUCCESS) status = batched_gemm_run(ctx, &g, c->alpha, &o, c->beta, c->batch);
    batched_gemm_destroy(&g);
  }
  if (status == HDGCL_SUCCESS) {
    CHECK_OK(hdgcl_buffer_read(ctx, &dc, 0, nc * 8, got));
    /* Relative error over the product; every entry outside the blocks untouched. */
    double err = 0.0;
    size_t touched = 0;
    for (size_t i = 0; i < nc; i++) {
      double d = fabs(got[i] - ref[i]);
      if (d > err) err = d;
      if (got[i] != ref[i] && ref[i] == cc[i]) touched++;
    }
    err /= scale > 0 ? scale : 1.0;
    CHECK_MSG(err <= 1e-13 && touched == 0,
              "%s: %s%s m=%zu n=%zu k=%zu batch=%zu pad=%zu offset=%zu gap=%zu launch_max=%zu: "
              "relative error %.3g, %zu entries outside C changed",
              impl ? impl : "CLBlast", c->ta ? "T" : "N", c->tb ? "T" : "N", c->m, c->n, c->k, c->batch, c->pad,
              c->offset, c->gap, launch_max, err, touched);
  }
  hdgcl_buffer_release(ctx, &da);
  hdgcl_buffer_release(ctx, &db);
  hdgcl_buffer_release(ctx, &dc);
  free(a), free(b), free(cc), free(ref), free(got);
  return status;
}

static inline int gemm_check_by(hdgcl_context ctx, const gemm_case *c, const char *impl) {
  return gemm_check_launches(ctx, c, impl, 0);
}

static inline int gemm_check(hdgcl_context ctx, const gemm_case *c) {
  return gemm_check_by(ctx, c, NULL);
}

#endif
