/* hdgcl_dgemm_strided_batched (host/core/blas.c, CLBlast) against a host triple
 * loop: transposes, odd sizes, padded leading dimensions, offsets, strides
 * between batch members, alpha and beta; and its argument errors.
 *
 * Under HDGCL_CLBLAST_TUNING=FILE (test_clblast_tuned) it checks that the
 * tuning applies, so every case also runs under tuned CLBlast parameters.
 *
 * Usage: test_clblast [SPEC]   (default $HDGCL_DEVICE, else "pocl"; the
 * oclgrind test runs a smaller set with "oclgrind" under the simulator). */
#include <stdlib.h>
#include <string.h>

#include "gemm_check.h"
#include "hdgcl/options.h"

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
  for (int i = 0; i < ncases; i++) CHECK_OK(gemm_check(ctx, &cases[i]));
  check_errors(ctx);
  CHECK_OK(hdgcl_context_destroy(&ctx));
  CHECK_DONE();
}
