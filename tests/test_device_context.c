/* The device layer on a real OpenCL device (host/core/device.c, context.c):
 * the device list, context creation, device-memory accounting, buffers
 * refused up front, buffer write/read/fill/copy round trips, the selftest
 * kernels (cl/core/selftest.cl) and named launch errors.
 *
 * Usage: test_device_context [SPEC]   (default $HDGCL_DEVICE, else "pocl";
 * the oclgrind test runs it with "oclgrind" under the simulator).  The
 * PoCL-specific checks apply when SPEC is "pocl". */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/context.h"
#include "hdgcl/device.h"
#include "hdgcl/options.h"

#define MiB ((size_t)1 << 20)

static void check_list(const char *spec) {
  hdgcl_device_info *list = NULL;
  int count = -1;
  CHECK_OK(hdgcl_device_list(&list, &count));
  CHECK(count >= 1);
  int pocl = -1;
  for (int i = 0; i < count; i++) {
    const hdgcl_device_info *d = &list[i];
    CHECK_MSG(d->name[0] && d->platform[0] && d->version[0], "device %d has empty strings", i);
    CHECK_MSG(strncmp(d->version, "OpenCL ", 7) == 0, "device %d version '%s'", i, d->version);
    CHECK(d->compute_units >= 1);
    CHECK(d->global_mem > 0 && d->max_alloc > 0 && d->max_alloc <= d->global_mem);
    CHECK(d->local_mem > 0);
    CHECK(d->max_work_group >= 1);
    CHECK(d->platform_index >= 0 && d->device_index >= 0);
    /* Indices: platforms in order, devices numbered 0, 1, ... within each. */
    if (i > 0) {
      const hdgcl_device_info *prev = &list[i - 1];
      if (prev->platform_index == d->platform_index)
        CHECK(d->device_index == prev->device_index + 1);
      else
        CHECK(d->platform_index > prev->platform_index && d->device_index == 0);
    } else {
      CHECK(d->device_index == 0);
    }
    if (pocl < 0 && strstr(d->version, "PoCL")) pocl = i;
  }
  if (!strcmp(spec, "pocl")) {
    CHECK_MSG(pocl >= 0, "PoCL is not among the %d device(s)", count);
    if (pocl >= 0) {
      const hdgcl_device_info *d = &list[pocl];
      CHECK(d->is_cpu && !d->is_gpu);
      CHECK(d->fp64);
      CHECK(strstr(d->platform, "Portable Computing Language") != NULL);
      CHECK(d->driver[0] != '\0');
      CHECK(d->max_work_group >= 64);
    }
  }
  /* The list agrees with hdgcl_device_match. */
  int chosen = -1;
  CHECK_OK(hdgcl_device_match(spec, list, count, &chosen));
  CHECK(chosen >= 0 && chosen < count && list[chosen].fp64);
  free(list);
}

static void check_reference(void) {
  hdgcl_context ref = NULL;
  CHECK_OK(hdgcl_context_create("ref", NULL, &ref));
  CHECK(hdgcl_context_is_reference(ref));
  hdgcl_device_info info;
  CHECK_OK(hdgcl_context_info(ref, &info));
  CHECK(strstr(info.name, "reference") != NULL && info.fp64);
  hdgcl_buffer buf;
  CHECK_FAILS(hdgcl_buffer_create(ref, 64, "x", &buf), HDGCL_ERROR_INTERNAL);
  CHECK(buf.mem == NULL);
  CHECK_OK(hdgcl_context_destroy(&ref));
  CHECK(ref == NULL);
  CHECK_OK(hdgcl_context_destroy(&ref)); /* destroying NULL is a no-op */
}

static void check_memory(hdgcl_context ctx) {
  uint64_t in_use = 1, high = 1;
  CHECK_OK(hdgcl_context_memory(ctx, &in_use, &high));
  CHECK(in_use == 0 && high == 0);
  hdgcl_buffer a, b, c;
  CHECK_OK(hdgcl_buffer_create(ctx, 1 * MiB, "a", &a));
  CHECK_OK(hdgcl_buffer_create(ctx, 3 * MiB, "b", &b));
  CHECK(a.mem && a.bytes == 1 * MiB && b.bytes == 3 * MiB);
  CHECK_OK(hdgcl_context_memory(ctx, &in_use, &high));
  CHECK(in_use == 4 * MiB && high == 4 * MiB);
  CHECK_OK(hdgcl_buffer_release(ctx, &a));
  CHECK(a.mem == NULL && a.bytes == 0);
  CHECK_OK(hdgcl_buffer_release(ctx, &a)); /* a released buffer: no-op */
  CHECK_OK(hdgcl_context_memory(ctx, &in_use, &high));
  CHECK(in_use == 3 * MiB && high == 4 * MiB);
  CHECK_OK(hdgcl_buffer_create(ctx, 2 * MiB, "c", &c));
  CHECK_OK(hdgcl_context_memory(ctx, &in_use, &high));
  CHECK(in_use == 5 * MiB && high == 5 * MiB);
  CHECK_OK(hdgcl_buffer_release(ctx, &b));
  CHECK_OK(hdgcl_buffer_release(ctx, &c));
  CHECK_OK(hdgcl_context_memory(ctx, &in_use, &high));
  CHECK(in_use == 0 && high == 5 * MiB);
  CHECK_FAILS(hdgcl_context_memory(NULL, &in_use, &high), HDGCL_ERROR_ARGUMENT);
  /* The high water by name: b 3, c 2 (a was released before it), summed per
   * name; then two buffers named "a" and one "d" make a new high of 6 MiB +
   * 1 MiB, of which b and c hold nothing. */
  hdgcl_memory_use uses[4];
  int count = -1;
  CHECK_OK(hdgcl_context_memory_breakdown(ctx, 4, uses, &count));
  CHECK(count == 2 && !strcmp(uses[0].name, "b") && uses[0].bytes == 3 * MiB &&
        !strcmp(uses[1].name, "c") && uses[1].bytes == 2 * MiB);
  hdgcl_buffer a2, d;
  CHECK_OK(hdgcl_buffer_create(ctx, 3 * MiB, "a", &a));
  CHECK_OK(hdgcl_buffer_create(ctx, 3 * MiB, "a", &a2));
  CHECK_OK(hdgcl_buffer_create(ctx, 1 * MiB, "d", &d));
  CHECK_OK(hdgcl_buffer_release(ctx, &a2));
  CHECK_OK(hdgcl_context_memory_breakdown(ctx, 1, uses, &count)); /* the largest only */
  CHECK(count == 2 && !strcmp(uses[0].name, "a") && uses[0].bytes == 6 * MiB);
  CHECK_OK(hdgcl_context_memory_breakdown(ctx, 0, NULL, &count));
  CHECK(count == 2);
  CHECK_FAILS(hdgcl_context_memory_breakdown(ctx, 1, NULL, &count), HDGCL_ERROR_ARGUMENT);
  CHECK_FAILS(hdgcl_context_memory_breakdown(NULL, 0, NULL, &count), HDGCL_ERROR_ARGUMENT);
  CHECK_OK(hdgcl_buffer_release(ctx, &a));
  CHECK_OK(hdgcl_buffer_release(ctx, &d));
  CHECK_OK(hdgcl_context_memory(ctx, &in_use, &high));
  CHECK(in_use == 0 && high == 7 * MiB);

  /* Over the largest allocation: refused before any OpenCL call, with the name and sizes. */
  hdgcl_clear_error();
  hdgcl_buffer big;
  CHECK_FAILS(hdgcl_buffer_create(ctx, (size_t)ctx->info.max_alloc + 8, "huge matrix", &big),
              HDGCL_ERROR_MEMORY);
  CHECK(big.mem == NULL && big.bytes == 0);
  CHECK_MSG(strstr(hdgcl_last_error(), "huge matrix") && strstr(hdgcl_last_error(), "largest"),
            "message '%s'", hdgcl_last_error());
  hdgcl_buffer absurd;
  CHECK_FAILS(hdgcl_buffer_create(ctx, SIZE_MAX / 2, "absurd", &absurd), HDGCL_ERROR_MEMORY);
  /* Would push the total past the device memory: refused, nothing allocated. */
  uint64_t saved = ctx->mem_in_use;
  ctx->mem_in_use = ctx->info.global_mem - MiB / 2;
  hdgcl_buffer over;
  hdgcl_clear_error();
  CHECK_FAILS(hdgcl_buffer_create(ctx, MiB, "one too many", &over), HDGCL_ERROR_MEMORY);
  CHECK(over.mem == NULL);
  CHECK_MSG(strstr(hdgcl_last_error(), "one too many") && strstr(hdgcl_last_error(), "already held"),
            "message '%s'", hdgcl_last_error());
  ctx->mem_in_use = saved;
  CHECK_OK(hdgcl_context_memory(ctx, &in_use, &high));
  CHECK(in_use == 0 && high == 7 * MiB);
  hdgcl_memory_use none[1];
  CHECK_OK(hdgcl_context_memory_breakdown(ctx, 1, none, &count)); /* refused buffers: not counted */
  CHECK(count == 2);
  hdgcl_buffer zero;
  CHECK_FAILS(hdgcl_buffer_create(ctx, 0, "empty", &zero), HDGCL_ERROR_INTERNAL);
}

static void check_round_trip(hdgcl_context ctx) {
  enum { N = 1001 };
  double *host = malloc(N * sizeof *host), *back = malloc(N * sizeof *back);
  for (int i = 0; i < N; i++) host[i] = 0.5 * i - 17.25 + 1e-3 * (i % 7);
  hdgcl_buffer x, y;
  CHECK_OK(hdgcl_buffer_create(ctx, N * 8, "x", &x));
  CHECK_OK(hdgcl_buffer_create(ctx, N * 8, "y", &y));
  CHECK_OK(hdgcl_buffer_write(ctx, &x, 0, N * 8, host));
  memset(back, 0, N * 8);
  CHECK_OK(hdgcl_buffer_read(ctx, &x, 0, N * 8, back));
  CHECK(memcmp(host, back, N * 8) == 0);
  /* Partial read and write at an offset. */
  double part[3] = {-1.0, -2.0, -3.0}, got[5];
  CHECK_OK(hdgcl_buffer_write(ctx, &x, 10 * 8, 3 * 8, part));
  CHECK_OK(hdgcl_buffer_read(ctx, &x, 9 * 8, 5 * 8, got));
  CHECK(got[0] == host[9] && got[1] == -1.0 && got[2] == -2.0 && got[3] == -3.0 && got[4] == host[13]);
  host[10] = -1.0, host[11] = -2.0, host[12] = -3.0;
  /* Fill a range, copy the whole buffer, read the copy. */
  CHECK_OK(hdgcl_buffer_fill(ctx, &x, 100 * 8, 50 * 8, 2.5));
  for (int i = 100; i < 150; i++) host[i] = 2.5;
  CHECK_OK(hdgcl_buffer_fill(ctx, &y, 0, N * 8, -7.0));
  CHECK_OK(hdgcl_buffer_copy(ctx, &x, &y, 500 * 8));
  CHECK_OK(hdgcl_buffer_read(ctx, &y, 0, N * 8, back));
  int bad = 0;
  for (int i = 0; i < N; i++) bad += back[i] != (i < 500 ? host[i] : -7.0);
  CHECK_MSG(bad == 0, "%d wrong entries after fill and copy", bad);
  /* Out of range and misaligned requests are refused. */
  CHECK_FAILS(hdgcl_buffer_write(ctx, &x, (N - 1) * 8, 16, part), HDGCL_ERROR_INTERNAL);
  CHECK_FAILS(hdgcl_buffer_read(ctx, &x, SIZE_MAX - 4, 8, got), HDGCL_ERROR_INTERNAL);
  CHECK_FAILS(hdgcl_buffer_fill(ctx, &x, 4, 8, 1.0), HDGCL_ERROR_INTERNAL);
  CHECK_FAILS(hdgcl_buffer_fill(ctx, &x, 0, 12, 1.0), HDGCL_ERROR_INTERNAL);
  CHECK_FAILS(hdgcl_buffer_copy(ctx, &x, &y, (N + 1) * 8), HDGCL_ERROR_INTERNAL);
  CHECK_OK(hdgcl_buffer_read(ctx, &x, 0, N * 8, back));
  CHECK(memcmp(host, back, N * 8) == 0);
  CHECK_OK(hdgcl_buffer_release(ctx, &x));
  CHECK_OK(hdgcl_buffer_release(ctx, &y));
  free(host);
  free(back);
}

/* cl/core/selftest.cl: y = a x + y over a size that is no multiple of the
 * work-group, and work-group sums through local memory. */
static void check_selftest(hdgcl_context ctx, bool api_errors) {
  const char *files[] = {"core/common.h", "core/selftest.cl"};
  cl_program program;
  CHECK_OK(hdgcl_program_get(ctx, files, 2, "", &program));
  cl_kernel axpy = NULL, sum = NULL;
  CHECK_OK(hdgcl_kernel_create(program, "selftest_axpy", &axpy));
  CHECK_OK(hdgcl_kernel_create(program, "selftest_group_sum", &sum));
  if (api_errors) {
    CHECK_FAILS(hdgcl_kernel_create(program, "no_such_kernel", &(cl_kernel){NULL}), HDGCL_ERROR_OPENCL);
    CHECK(strstr(hdgcl_last_error(), "no_such_kernel") && strstr(hdgcl_last_error(), "CL_INVALID_KERNEL_NAME"));
  }
  if (!axpy || !sum) return;

  enum { N = 1000, WG = 64, GROUPS = (N + WG - 1) / WG };
  double x[N], y[N], out[N], partial[GROUPS];
  for (int i = 0; i < N; i++) x[i] = 1.0 / (i + 1), y[i] = i;
  hdgcl_buffer bx, by, bp;
  CHECK_OK(hdgcl_buffer_create(ctx, sizeof x, "x", &bx));
  CHECK_OK(hdgcl_buffer_create(ctx, sizeof y, "y", &by));
  CHECK_OK(hdgcl_buffer_create(ctx, sizeof partial, "partial", &bp));
  CHECK_OK(hdgcl_buffer_write(ctx, &bx, 0, sizeof x, x));
  CHECK_OK(hdgcl_buffer_write(ctx, &by, 0, sizeof y, y));
  cl_int n = N;
  double a = -3.0;
  hdgcl_arg args[] = {HDGCL_ARG(n), HDGCL_ARG(a), HDGCL_ARG(bx.mem), HDGCL_ARG(by.mem)};
  CHECK_OK(hdgcl_kernel_set_args(axpy, 4, args));
  size_t global = N, local = WG;
  cl_event event = NULL;
  CHECK_OK(hdgcl_kernel_launch(ctx, axpy, 1, &global, &local, &event)); /* rounded up to 1024 */
  CHECK_OK(hdgcl_context_finish(ctx));
  if (event) {
    CHECK(hdgcl_event_seconds(event) >= 0.0);
    clReleaseEvent(event);
  }
  CHECK_OK(hdgcl_buffer_read(ctx, &by, 0, sizeof out, out));
  int bad = 0;
  for (int i = 0; i < N; i++) bad += out[i] != a * x[i] + y[i];
  CHECK_MSG(bad == 0, "selftest_axpy: %d wrong entries", bad);

  hdgcl_arg sargs[] = {HDGCL_ARG(n), HDGCL_ARG(bx.mem), HDGCL_ARG_LOCAL(WG * sizeof(double)),
                       HDGCL_ARG(bp.mem)};
  CHECK_OK(hdgcl_kernel_set_args(sum, 4, sargs));
  global = GROUPS * WG;
  CHECK_OK(hdgcl_kernel_launch(ctx, sum, 1, &global, &local, NULL));
  CHECK_OK(hdgcl_buffer_read(ctx, &bp, 0, sizeof partial, partial));
  for (int g = 0; g < GROUPS; g++) {
    double want = 0.0;
    for (int i = g * WG; i < (g + 1) * WG && i < N; i++) want += x[i];
    CHECK_NEAR(partial[g], want, 1e-14 * want);
  }

  /* Named errors: a wrong argument size names the kernel, the argument and the CL code. */
  if (api_errors) {
    char wrong = 0;
    hdgcl_arg bad_args[] = {HDGCL_ARG(n), HDGCL_ARG(wrong)};
    CHECK_FAILS(hdgcl_kernel_set_args(axpy, 2, bad_args), HDGCL_ERROR_OPENCL);
    CHECK_MSG(strstr(hdgcl_last_error(), "selftest_axpy, argument 1") &&
                  strstr(hdgcl_last_error(), "CL_INVALID_ARG_SIZE"),
              "message '%s'", hdgcl_last_error());
  }
  /* A global size of zero launches nothing and succeeds. */
  size_t none = 0;
  CHECK_OK(hdgcl_kernel_launch(ctx, axpy, 1, &none, NULL, NULL));
  clReleaseKernel(axpy);
  clReleaseKernel(sum);
  CHECK_OK(hdgcl_buffer_release(ctx, &bx));
  CHECK_OK(hdgcl_buffer_release(ctx, &by));
  CHECK_OK(hdgcl_buffer_release(ctx, &bp));
}

int main(int argc, char **argv) {
  /* The device: argv[1], else $HDGCL_DEVICE (to run the suite on a GPU), else PoCL. */
  char spec[128];
  const char *env = getenv("HDGCL_DEVICE");
  if (!env || !env[0] || !strcmp(env, "ref")) env = "pocl"; /* these tests need OpenCL */
  snprintf(spec, sizeof spec, "%s", argc > 1 ? argv[1] : env);
  check_list(spec);
  check_reference();

  hdgcl_options opts;
  CHECK_OK(hdgcl_options_create(&opts));
  CHECK_OK(hdgcl_options_set(opts, "no-cache", NULL));
  hdgcl_context ctx = NULL;
  CHECK_OK(hdgcl_context_create(spec, opts, &ctx));
  if (!ctx) CHECK_DONE();
  CHECK(!hdgcl_context_is_reference(ctx));
  hdgcl_device_info info;
  CHECK_OK(hdgcl_context_info(ctx, &info));
  CHECK(info.fp64 && info.max_alloc > 0);
  if (!strcmp(spec, "pocl")) CHECK(strstr(info.version, "PoCL") && info.is_cpu);
  CHECK(ctx->context && ctx->queue && ctx->device);
  CHECK(!ctx->use_cache);

  check_memory(ctx);
  check_round_trip(ctx);
  /* Under oclgrind --check-api the deliberate API errors would be reported: skipped there. */
  check_selftest(ctx, strcmp(spec, "oclgrind") != 0);
  uint64_t in_use = 1;
  CHECK_OK(hdgcl_context_memory(ctx, &in_use, NULL));
  CHECK(in_use == 0);
  CHECK_OK(hdgcl_context_destroy(&ctx));

  /* Selection errors through hdgcl_context_create: nothing is returned. */
  hdgcl_context none = (hdgcl_context)1;
  CHECK_FAILS(hdgcl_context_create("nosuchvendor", opts, &none), HDGCL_ERROR_NO_DEVICE);
  CHECK(none == NULL);
  CHECK_FAILS(hdgcl_context_create("0:x", opts, &none), HDGCL_ERROR_ARGUMENT);
  CHECK_FAILS(hdgcl_context_create("9:9", opts, &none), HDGCL_ERROR_NO_DEVICE);
  /* $HDGCL_DEVICE applies to a NULL spec. */
  setenv("HDGCL_DEVICE", "nosuchvendor", 1);
  CHECK_FAILS(hdgcl_context_create(NULL, opts, &none), HDGCL_ERROR_NO_DEVICE);
  CHECK(strstr(hdgcl_last_error(), "nosuchvendor") != NULL);
  setenv("HDGCL_DEVICE", spec, 1);
  CHECK_OK(hdgcl_context_create("", opts, &ctx));
  CHECK_OK(hdgcl_context_destroy(&ctx));
  unsetenv("HDGCL_DEVICE");
  /* A bad option value is refused. */
  CHECK_OK(hdgcl_options_set(opts, "no-cache", "maybe"));
  CHECK_FAILS(hdgcl_context_create(spec, opts, &none), HDGCL_ERROR_ARGUMENT);
  CHECK(none == NULL);
  CHECK_OK(hdgcl_options_destroy(&opts));
  CHECK_DONE();
}
