/* hdgcl_dgemm_strided_batched (host/blas.c, CLBlast) against a host triple
 * loop: transposes, odd sizes, padded leading dimensions, offsets, strides
 * between batch members, alpha and beta; and its argument errors.
 *
 * Under HDGCL_CLBLAST_TUNING=FILE (test_clblast_tuned) it checks that the
 * tuning applies, so every case also runs under tuned CLBlast parameters.
 *
 * Usage: test_clblast [SPEC]   (default $HDGCL_DEVICE, else "pocl"; the
 * oclgrind test runs a smaller set with "oclgrind" under the simulator). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "blas.h"
#include "check.h"
#include "hdgcl/options.h"

typedef struct gemm_case {
  bool ta, tb;
  size_t m, n, k, batch;
  size_t pad;    /* extra rows of each leading dimension */
  size_t offset; /* doubles before the first matrix of each operand */
  size_t gap;    /* extra doubles between two batch members */
  double alpha, beta;
} gemm_case;

static double value(unsigned *seed) {
  *seed = *seed * 1103515245u + 12345u;
  return ((*seed >> 8) & 0xffff) / 32768.0 - 1.0;
}

static double elem(const double *x, size_t ld, size_t i, size_t j) { return x[i + j * ld]; }

static void run_case(hdgcl_context ctx, const gemm_case *c) {
  size_t rows_a = c->ta ? c->k : c->m, cols_a = c->ta ? c->m : c->k;
  size_t rows_b = c->tb ? c->n : c->k, cols_b = c->tb ? c->k : c->n;
  size_t lda = rows_a + c->pad, ldb = rows_b + c->pad, ldc = c->m + c->pad;
  size_t sa = lda * cols_a + c->gap, sb = ldb * cols_b + c->gap, sc = ldc * c->n + c->gap;
  size_t na = c->offset + sa * c->batch, nb = c->offset + sb * c->batch,
         nc = c->offset + sc * c->batch;
  double *a = malloc(na * 8), *b = malloc(nb * 8), *cc = malloc(nc * 8), *ref = malloc(nc * 8),
         *got = malloc(nc * 8);
  unsigned seed = (unsigned)(c->m * 131 + c->n * 17 + c->k * 7 + c->ta * 2 + c->tb);
  for (size_t i = 0; i < na; i++) a[i] = value(&seed);
  for (size_t i = 0; i < nb; i++) b[i] = value(&seed);
  for (size_t i = 0; i < nc; i++) cc[i] = ref[i] = value(&seed);
  /* Reference: C_b = alpha op(A_b) op(B_b) + beta C_b on the m x n block only. */
  double scale = 0.0;
  for (size_t q = 0; q < c->batch; q++) {
    const double *A = a + c->offset + q * sa, *B = b + c->offset + q * sb;
    double *C = ref + c->offset + q * sc;
    for (size_t j = 0; j < c->n; j++)
      for (size_t i = 0; i < c->m; i++) {
        double s = 0.0;
        for (size_t l = 0; l < c->k; l++)
          s += (c->ta ? elem(A, lda, l, i) : elem(A, lda, i, l)) *
               (c->tb ? elem(B, ldb, j, l) : elem(B, ldb, l, j));
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
  int status = hdgcl_dgemm_strided_batched(ctx, c->ta, c->tb, c->m, c->n, c->k, c->alpha, da.mem,
                                           c->offset, lda, sa, db.mem, c->offset, ldb, sb, c->beta,
                                           dc.mem, c->offset, ldc, sc, c->batch, NULL);
  CHECK_MSG(status == HDGCL_SUCCESS, "%s", hdgcl_last_error());
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
            "%s%s m=%zu n=%zu k=%zu batch=%zu pad=%zu offset=%zu gap=%zu: relative error %.3g, "
            "%zu entries outside C changed",
            c->ta ? "T" : "N", c->tb ? "T" : "N", c->m, c->n, c->k, c->batch, c->pad, c->offset,
            c->gap, err, touched);
  hdgcl_buffer_release(ctx, &da);
  hdgcl_buffer_release(ctx, &db);
  hdgcl_buffer_release(ctx, &dc);
  free(a), free(b), free(cc), free(ref), free(got);
}

static void check_errors(hdgcl_context ctx) {
  hdgcl_buffer x;
  CHECK_OK(hdgcl_buffer_create(ctx, 16 * 8, "x", &x));
  /* Zero sizes and leading dimensions below the rows: refused before CLBlast. */
  CHECK_FAILS(hdgcl_dgemm_strided_batched(ctx, false, false, 0, 2, 2, 1.0, x.mem, 0, 2, 4, x.mem, 0,
                                          2, 4, 0.0, x.mem, 0, 2, 4, 1, NULL),
              HDGCL_ERROR_ARGUMENT);
  CHECK(strstr(hdgcl_last_error(), "m=0") != NULL);
  CHECK_FAILS(hdgcl_dgemm_strided_batched(ctx, false, false, 2, 2, 2, 1.0, x.mem, 0, 2, 4, x.mem, 0,
                                          2, 4, 0.0, x.mem, 0, 2, 4, 0, NULL),
              HDGCL_ERROR_ARGUMENT);
  CHECK_FAILS(hdgcl_dgemm_strided_batched(ctx, false, false, 3, 2, 2, 1.0, x.mem, 0, 2, 6, x.mem, 0,
                                          2, 4, 0.0, x.mem, 0, 3, 6, 1, NULL),
              HDGCL_ERROR_ARGUMENT);
  CHECK(strstr(hdgcl_last_error(), "lda=2") != NULL);
  CHECK_FAILS(hdgcl_dgemm_strided_batched(ctx, true, false, 2, 2, 3, 1.0, x.mem, 0, 2, 6, x.mem, 0,
                                          3, 6, 0.0, x.mem, 0, 2, 4, 1, NULL),
              HDGCL_ERROR_ARGUMENT);
  /* C does not fit in its buffer: CLBlast's status, by name. */
  CHECK_FAILS(hdgcl_dgemm_strided_batched(ctx, false, false, 4, 4, 1, 1.0, x.mem, 0, 4, 4, x.mem, 0,
                                          1, 4, 0.0, x.mem, 0, 4, 16, 2, NULL),
              HDGCL_ERROR_BLAS);
  CHECK_MSG(strstr(hdgcl_last_error(), "CLBlastInsufficientMemoryC") &&
                strstr(hdgcl_last_error(), "CLBlastDgemmStridedBatched"),
            "message '%s'", hdgcl_last_error());
  hdgcl_buffer_release(ctx, &x);
}

int main(int argc, char **argv) {
  /* The device: argv[1], else $HDGCL_DEVICE (to run the suite on a GPU), else PoCL. */
  char spec[128];
  const char *env = getenv("HDGCL_DEVICE");
  if (!env || !env[0] || !strcmp(env, "ref")) env = "pocl"; /* these tests need OpenCL */
  snprintf(spec, sizeof spec, "%s", argc > 1 ? argv[1] : env);
  bool small = strcmp(spec, "oclgrind") == 0; /* under the simulator: fewer cases */
  hdgcl_options opts;
  CHECK_OK(hdgcl_options_create(&opts));
  CHECK_OK(hdgcl_options_set(opts, "no-cache", NULL));
  hdgcl_context ctx = NULL;
  CHECK_OK(hdgcl_context_create(spec, opts, &ctx));
  CHECK_OK(hdgcl_options_destroy(&opts));
  if (!ctx) CHECK_DONE();
  /* Under HDGCL_CLBLAST_TUNING=FILE (ctest test_clblast_tuned) the tuning must apply. */
  const char *tuning = getenv("HDGCL_CLBLAST_TUNING");
  if (tuning && tuning[0] && strcmp(tuning, "none"))
    CHECK_MSG(strstr(ctx->blas_tuning, "XgemmDirect from ") && strstr(ctx->blas_tuning, tuning),
              "tuning '%s'", ctx->blas_tuning);
  const gemm_case cases[] = {
      /* ta  tb   m   n   k batch pad off gap alpha beta */
      {false, false, 4, 4, 4, 1, 0, 0, 0, 1.0, 0.0},
      {true, false, 3, 5, 7, 3, 0, 0, 0, -1.0, 1.0},  /* the Schur-complement shape of local.c */
      {false, true, 5, 3, 2, 2, 1, 3, 5, 0.5, -2.0},
      {true, true, 7, 1, 9, 4, 2, 1, 0, 1.25, 0.75},
      {false, false, 1, 1, 1, 5, 0, 2, 1, 2.0, 0.0},
      {false, false, 33, 17, 65, 3, 3, 7, 11, 1.0, 0.5},
      {true, false, 66, 66, 36, 5, 0, 0, 0, -1.0, 1.0}, /* larger than one CLBlast tile */
      {false, true, 129, 31, 64, 2, 1, 0, 3, 0.3, -0.1},
      {true, true, 40, 72, 50, 2, 0, 5, 0, 1.0, 1.0},
      {false, false, 10, 10, 10, 100, 0, 0, 0, 1.0, 0.0}, /* many small members */
  };
  int ncases = small ? 5 : (int)(sizeof cases / sizeof *cases);
  for (int i = 0; i < ncases; i++) run_case(ctx, &cases[i]);
  check_errors(ctx);
  CHECK_OK(hdgcl_context_destroy(&ctx));
  CHECK_DONE();
}
