/* 32-bit index limits are refused, not run into: a kernel launch of 2^31 or
 * more work-items and a CLBlast batched GEMM whose operands span more than
 * 2^31 doubles both fail with HDGCL_ERROR_ARGUMENT and a message, before
 * anything reaches the device (both would index out of bounds silently on
 * runtimes that compute offsets in int, as NVIDIA's and CLBlast's kernels do). */
#include <limits.h>
#include <string.h>

#include "core/blas.h"
#include "check.h"
#include "core/context.h"
#include "hdg_test.h"

int main(void) {
  hdgcl_context ctx = test_device();
  const char *files[] = {"core/common.h", "core/selftest.cl"};
  cl_program program;
  cl_kernel axpy = NULL;
  CHECK_OK(hdgcl_program_get(ctx, files, 2, NULL, &program));
  CHECK_OK(hdgcl_kernel_create(program, "selftest_axpy", &axpy));
  hdgcl_buffer x = {0}, y = {0};
  CHECK_OK(hdgcl_buffer_create(ctx, 64 * 8, "x", &x));
  CHECK_OK(hdgcl_buffer_create(ctx, 64 * 8, "y", &y));
  cl_int n = 64;
  double a = 2.0;
  hdgcl_arg args[] = {HDGCL_ARG(n), HDGCL_ARG(a), HDGCL_ARG(x.mem), HDGCL_ARG(y.mem)};
  CHECK_OK(hdgcl_kernel_set_args(axpy, 4, args));

  /* Within the limit the launch works; at 2^31 it is refused with a message. */
  size_t global = 64;
  CHECK_OK(hdgcl_kernel_launch(ctx, axpy, 1, &global, NULL, NULL));
  CHECK_OK(hdgcl_context_finish(ctx));
  global = (size_t)INT_MAX + 1;
  CHECK(hdgcl_kernel_launch(ctx, axpy, 1, &global, NULL, NULL) == HDGCL_ERROR_ARGUMENT);
  CHECK_MSG(strstr(hdgcl_last_error(), "selftest_axpy") != NULL, "message: %s", hdgcl_last_error());
  CHECK_MSG(strstr(hdgcl_last_error(), "2^31") != NULL, "message: %s", hdgcl_last_error());

  /* A batched GEMM of 8x8 matrices: batch 1 runs, a batch reaching past
   * 2^31 doubles is refused before CLBlast sees it. */
  CHECK_OK(hdgcl_dgemm_strided_batched(ctx, false, false, 2, 2, 2, 1.0, x.mem, 0, 2, 4, x.mem, 0,
                                       2, 4, 0.0, y.mem, 0, 2, 4, 1, NULL));
  CHECK_OK(hdgcl_context_finish(ctx));
  size_t big = (size_t)INT_MAX / 4 + 1;
  CHECK(hdgcl_dgemm_strided_batched(ctx, false, false, 2, 2, 2, 1.0, x.mem, 0, 2, 4, x.mem, 0, 2,
                                    4, 0.0, y.mem, 0, 2, 4, big, NULL) == HDGCL_ERROR_ARGUMENT);
  CHECK_MSG(strstr(hdgcl_last_error(), "32-bit") != NULL, "message: %s", hdgcl_last_error());

  clReleaseKernel(axpy);
  CHECK_OK(hdgcl_buffer_release(ctx, &x));
  CHECK_OK(hdgcl_buffer_release(ctx, &y));
  CHECK_OK(hdgcl_context_destroy(&ctx));
  return check_failures;
}
