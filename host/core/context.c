/* Contexts: device selection, queue, device buffers with memory accounting,
 * kernel launches with named errors, timing. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/blas.h"
#include "core/context.h"
#include "core/error.h"
#include "core/profile.h"

const char *const hdgcl_context_options[] = {"no-cache", "cache-dir", "verbose", "profile",
                                             "max-device-memory", NULL};

/* Cache directory: option, else $XDG_CACHE_HOME/hdgcl, else ~/.cache/hdgcl. */
static void default_cache_dir(char *out, size_t n) {
  const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
  if (xdg && xdg[0])
    snprintf(out, n, "%s/hdgcl", xdg);
  else if (home && home[0])
    snprintf(out, n, "%s/.cache/hdgcl", home);
  else
    out[0] = '\0';
}

static int open_device(hdgcl_context ctx, const char *spec) {
  hdgcl_device_info *list;
  int count, chosen;
  HDGCL_TRY(hdgcl_device_list(&list, &count));
  int status = hdgcl_device_match(spec, list, count, &chosen);
  if (status != HDGCL_SUCCESS) {
    free(list);
    return status;
  }
  ctx->info = list[chosen];
  free(list);
  /* Look the chosen device up again by its indices. */
  cl_uint np = 0;
  HDGCL_CL(clGetPlatformIDs(0, NULL, &np), "clGetPlatformIDs", NULL);
  cl_platform_id platforms[64];
  if (np > 64) np = 64;
  HDGCL_CL(clGetPlatformIDs(np, platforms, NULL), "clGetPlatformIDs", NULL);
  ctx->platform = platforms[ctx->info.platform_index];
  cl_device_id devices[256];
  cl_uint nd = 0;
  HDGCL_CL(clGetDeviceIDs(ctx->platform, CL_DEVICE_TYPE_ALL, 256, devices, &nd), "clGetDeviceIDs",
           ctx->info.platform);
  if ((cl_uint)ctx->info.device_index >= nd)
    return hdgcl_error(HDGCL_ERROR_NO_DEVICE, "device %d:%d vanished", ctx->info.platform_index,
                       ctx->info.device_index);
  ctx->device = devices[ctx->info.device_index];
  cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)ctx->platform, 0};
  cl_int err;
  ctx->context = clCreateContext(props, 1, &ctx->device, NULL, NULL, &err);
  if (err != CL_SUCCESS) return hdgcl_error_cl(err, "clCreateContext", ctx->info.name);
  ctx->queue = clCreateCommandQueue(ctx->context, ctx->device, CL_QUEUE_PROFILING_ENABLE, &err);
  if (err != CL_SUCCESS) return hdgcl_error_cl(err, "clCreateCommandQueue", ctx->info.name);
  /* Before any CLBlast call: its programs are built with the parameters in force. */
  HDGCL_TRY(hdgcl_blas_tuning_apply(ctx->device, ctx->info.name, ctx->blas_tuning,
                                    sizeof ctx->blas_tuning));
  if (ctx->verbose) fprintf(stderr, "hdgcl: CLBlast tuning for %s: %s\n", ctx->info.name,
                            ctx->blas_tuning);
  return HDGCL_SUCCESS;
}

/* "N", "NK", "NM", "NG" (binary units, K = 1024; also KiB, MB, ...) -> bytes. */
static int parse_memory_size(const char *text, uint64_t *bytes) {
  char *end;
  errno = 0;
  double v = strtod(text, &end);
  uint64_t unit = 1;
  switch (*end) {
  case 'k': case 'K': unit = 1ull << 10; end++; break;
  case 'm': case 'M': unit = 1ull << 20; end++; break;
  case 'g': case 'G': unit = 1ull << 30; end++; break;
  case 't': case 'T': unit = 1ull << 40; end++; break;
  }
  if (unit > 1 && (!strcmp(end, "iB") || !strcmp(end, "B"))) end += strlen(end);
  if (end == text || *end || errno || !(v >= 1) || v * unit > 1e18)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                       "--max-device-memory '%s': expected a size such as 512M, 2G or 1048576 bytes",
                       text);
  *bytes = (uint64_t)(v * unit);
  return HDGCL_SUCCESS;
}

/* --max-device-memory: hdgcl uses at most that much of the device, as if the
 * device had no more (chunk sizes and the up-front refusals follow it). */
static int apply_memory_limit(hdgcl_context ctx, hdgcl_options opts) {
  const char *text;
  HDGCL_TRY(hdgcl_options_get_string(opts, "max-device-memory", NULL, &text));
  if (!text) return HDGCL_SUCCESS;
  uint64_t cap = 0;
  HDGCL_TRY(parse_memory_size(text, &cap));
  if (ctx->reference) return HDGCL_SUCCESS; /* the reference path holds no device memory */
  if (cap < ctx->info.global_mem) {
    ctx->info.global_mem = cap;
    ctx->memory_limited = true;
  }
  if (cap < ctx->info.max_alloc) ctx->info.max_alloc = cap;
  return HDGCL_SUCCESS;
}

const char *hdgcl_context_memory_name(hdgcl_context ctx) {
  return ctx->memory_limited ? "--max-device-memory" : "the device's memory";
}

int hdgcl_context_create(const char *spec, hdgcl_options opts, hdgcl_context *ctx_out) {
  if (!ctx_out) return hdgcl_error(HDGCL_ERROR_ARGUMENT, "hdgcl_context_create: NULL output");
  *ctx_out = NULL;
  const char *given = spec; /* NULL/empty: hdgcl_device_match reads HDGCL_DEVICE and says so */
  if (!spec || !spec[0]) spec = getenv("HDGCL_DEVICE");
  if (!spec || !spec[0]) spec = "auto";
  hdgcl_context ctx;
  HDGCL_TRY(hdgcl_calloc(1, sizeof *ctx, "context", &ctx));
  int status;
  bool no_cache;
  const char *dir;
  HDGCL_TRY_GOTO(status, hdgcl_options_get_bool(opts, "no-cache", false, &no_cache), fail);
  HDGCL_TRY_GOTO(status, hdgcl_options_get_bool(opts, "verbose", false, &ctx->verbose), fail);
  const char *env_profile = getenv("HDGCL_PROFILE");
  bool profile_default = env_profile && env_profile[0] && strcmp(env_profile, "0") != 0;
  HDGCL_TRY_GOTO(status, hdgcl_options_get_bool(opts, "profile", profile_default, &ctx->profile), fail);
  HDGCL_TRY_GOTO(status, hdgcl_options_get_string(opts, "cache-dir", NULL, &dir), fail);
  if (dir)
    snprintf(ctx->cache_dir, sizeof ctx->cache_dir, "%s", dir);
  else
    default_cache_dir(ctx->cache_dir, sizeof ctx->cache_dir);
  ctx->use_cache = !no_cache && ctx->cache_dir[0];
  if (!strcmp(spec, "ref")) {
    ctx->reference = true;
    snprintf(ctx->info.name, sizeof ctx->info.name, "reference (serial C)");
    snprintf(ctx->info.platform, sizeof ctx->info.platform, "hdgcl");
    snprintf(ctx->info.vendor, sizeof ctx->info.vendor, "hdgcl");
    ctx->info.is_cpu = true;
    ctx->info.fp64 = true;
    ctx->info.compute_units = 1;
    ctx->info.platform_index = ctx->info.device_index = -1;
  } else {
    HDGCL_TRY_GOTO(status, open_device(ctx, given), fail);
  }
  HDGCL_TRY_GOTO(status, apply_memory_limit(ctx, opts), fail);
  const char *fail = getenv("HDGCL_TEST_FAIL_ENQUEUE"); /* a test hook: context.h */
  if (fail && fail[0]) ctx->fail_enqueue = strtol(fail, NULL, 10);
  *ctx_out = ctx;
  return HDGCL_SUCCESS;
fail:
  hdgcl_context_destroy(&ctx);
  return status;
}

bool hdgcl_context_is_reference(hdgcl_context ctx) { return ctx && ctx->reference; }

int hdgcl_context_info(hdgcl_context ctx, hdgcl_device_info *info) {
  if (!ctx || !info) return hdgcl_error(HDGCL_ERROR_ARGUMENT, "hdgcl_context_info: NULL argument");
  *info = ctx->info;
  return HDGCL_SUCCESS;
}

int hdgcl_context_memory(hdgcl_context ctx, uint64_t *in_use, uint64_t *high_water) {
  if (!ctx) return hdgcl_error(HDGCL_ERROR_ARGUMENT, "hdgcl_context_memory: NULL context");
  if (in_use) *in_use = ctx->mem_in_use;
  if (high_water) *high_water = ctx->mem_high_water;
  return HDGCL_SUCCESS;
}

int hdgcl_context_set_progress(hdgcl_context ctx, hdgcl_progress_fn fn, void *data) {
  if (!ctx) return hdgcl_error(HDGCL_ERROR_ARGUMENT, "hdgcl_context_set_progress: NULL context");
  ctx->progress = fn;
  ctx->progress_data = data;
  return HDGCL_SUCCESS;
}

void hdgcl_progress(hdgcl_context ctx, const char *fmt, ...) {
  if (!ctx || !ctx->progress) return;
  char line[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  ctx->progress(ctx->progress_data, line);
}

int hdgcl_context_destroy(hdgcl_context *ctx) {
  if (!ctx || !*ctx) return HDGCL_SUCCESS;
  hdgcl_context c = *ctx;
  if (c->queue) clFinish(c->queue); /* enqueued commands end before their objects go */
  profile_report(c, stderr);
  profile_destroy(c);
  if (c->fill) clReleaseKernel(c->fill);
  program_cache_release(c);
  free(c->ledger);
  if (c->queue) hdgcl_blas_release(); /* CLBlast may hold programs of this context */
  if (c->queue) clReleaseCommandQueue(c->queue);
  if (c->context) clReleaseContext(c->context);
  free(c);
  *ctx = NULL;
  return HDGCL_SUCCESS;
}

/* The ledger entry of `name` (added if new) with `bytes` more held; -1 when
 * the ledger cannot grow (the buffer is then only in the totals). */
static int ledger_add(hdgcl_context ctx, const char *name, size_t bytes) {
  int i = 0;
  while (i < ctx->ledger_count && strncmp(ctx->ledger[i].name, name, sizeof ctx->ledger[i].name - 1)) i++;
  if (i == ctx->ledger_count) {
    if (ctx->ledger_count == ctx->ledger_capacity) {
      int capacity = ctx->ledger_capacity ? 2 * ctx->ledger_capacity : 64;
      memory_ledger_entry *grown = realloc(ctx->ledger, (size_t)capacity * sizeof *grown);
      if (!grown) return -1;
      ctx->ledger = grown;
      ctx->ledger_capacity = capacity;
    }
    memory_ledger_entry *e = &ctx->ledger[ctx->ledger_count++];
    snprintf(e->name, sizeof e->name, "%s", name);
    e->bytes = e->at_high_water = 0;
  }
  ctx->ledger[i].bytes += bytes;
  return i;
}

static int by_bytes_descending(const void *a, const void *b) {
  const memory_ledger_entry *x = *(const memory_ledger_entry *const *)a, *y = *(const memory_ledger_entry *const *)b;
  return x->at_high_water < y->at_high_water ? 1 : x->at_high_water > y->at_high_water ? -1 : strcmp(x->name, y->name);
}

int hdgcl_context_memory_breakdown(hdgcl_context ctx, int max, hdgcl_memory_use *uses, int *count) {
  if (!ctx || !count || (max > 0 && !uses))
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "hdgcl_context_memory_breakdown: NULL argument");
  *count = 0;
  if (ctx->ledger_count == 0) return HDGCL_SUCCESS;
  const memory_ledger_entry **order;
  HDGCL_TRY(hdgcl_calloc((size_t)ctx->ledger_count, sizeof *order, "memory breakdown", &order));
  int n = 0;
  for (int i = 0; i < ctx->ledger_count; i++)
    if (ctx->ledger[i].at_high_water) order[n++] = &ctx->ledger[i];
  qsort(order, (size_t)n, sizeof *order, by_bytes_descending);
  for (int i = 0; i < n && i < max; i++) uses[i] = (hdgcl_memory_use){order[i]->name, order[i]->at_high_water};
  *count = n;
  free(order);
  return HDGCL_SUCCESS;
}

int hdgcl_buffer_create(hdgcl_context ctx, size_t bytes, const char *name, hdgcl_buffer *buf) {
  buf->mem = NULL;
  buf->bytes = 0;
  if (ctx->reference)
    return hdgcl_error(HDGCL_ERROR_INTERNAL, "device buffer %s asked of the reference path", name);
  if (bytes == 0) return hdgcl_error(HDGCL_ERROR_INTERNAL, "device buffer %s of 0 bytes", name);
  if (bytes > ctx->info.max_alloc)
    return hdgcl_error(HDGCL_ERROR_MEMORY,
                       "device buffer %s needs %.1f MiB, more than the largest allocation "
                       "(%.1f MiB, %s)",
                       name, bytes / 1048576.0, ctx->info.max_alloc / 1048576.0,
                       ctx->memory_limited ? "--max-device-memory" : "the device's");
  if (ctx->mem_in_use + bytes > ctx->info.global_mem)
    return hdgcl_error(HDGCL_ERROR_MEMORY,
                       "device buffer %s needs %.1f MiB; with the %.1f MiB already held that "
                       "exceeds the %.1f MiB of %s",
                       name, bytes / 1048576.0, ctx->mem_in_use / 1048576.0,
                       ctx->info.global_mem / 1048576.0, hdgcl_context_memory_name(ctx));
  cl_int err;
  buf->mem = clCreateBuffer(ctx->context, CL_MEM_READ_WRITE, bytes, NULL, &err);
  if (err != CL_SUCCESS) return hdgcl_error_cl(err, "clCreateBuffer", name);
  buf->bytes = bytes;
  buf->ledger = ledger_add(ctx, name, bytes);
  ctx->mem_in_use += bytes;
  if (ctx->mem_in_use > ctx->mem_high_water) { /* a new high: what each name holds now */
    ctx->mem_high_water = ctx->mem_in_use;
    for (int i = 0; i < ctx->ledger_count; i++) ctx->ledger[i].at_high_water = ctx->ledger[i].bytes;
  }
  return HDGCL_SUCCESS;
}

int hdgcl_buffer_release(hdgcl_context ctx, hdgcl_buffer *buf) {
  if (!buf || !buf->mem) return HDGCL_SUCCESS;
  clReleaseMemObject(buf->mem);
  ctx->mem_in_use -= buf->bytes;
  if (buf->ledger >= 0 && buf->ledger < ctx->ledger_count) ctx->ledger[buf->ledger].bytes -= buf->bytes;
  buf->mem = NULL;
  buf->bytes = 0;
  return HDGCL_SUCCESS;
}

static int check_range(const hdgcl_buffer *buf, size_t offset, size_t bytes, const char *what) {
  if (!buf->mem || offset + bytes > buf->bytes || offset + bytes < offset)
    return hdgcl_error(HDGCL_ERROR_INTERNAL, "%s of %zu bytes at %zu outside a buffer of %zu bytes",
                       what, bytes, offset, buf->bytes);
  return HDGCL_SUCCESS;
}

/* The test hook's fault (context.h fail_enqueue): CL_OUT_OF_RESOURCES in
 * place of the Nth enqueue, else CL_SUCCESS and the enqueue goes ahead. */
static cl_int injected_fault(hdgcl_context ctx) {
  if (ctx->fail_enqueue > 0 && ++ctx->enqueues == ctx->fail_enqueue) return CL_OUT_OF_RESOURCES;
  return CL_SUCCESS;
}

/* An enqueue's error: hdgcl_error_cl's message, saying when the test hook made it. */
static int enqueue_error(hdgcl_context ctx, cl_int err, const char *call, const char *what) {
  int status = hdgcl_error_cl(err, call, what);
  if (ctx->fail_enqueue > 0 && ctx->enqueues == ctx->fail_enqueue) {
    char message[512]; /* a copy: the message is formatted into the same buffer */
    snprintf(message, sizeof message, "%s", hdgcl_last_error());
    hdgcl_error(status, "%s (injected by HDGCL_TEST_FAIL_ENQUEUE=%ld)", message, ctx->fail_enqueue);
  }
  return status;
}

/* Enqueues `call` unless the test hook fails it; an error names the call. */
#define ENQUEUE(ctx, call_expr, call_name, what)                                                 \
  do {                                                                                           \
    cl_int err_ = injected_fault(ctx);                                                           \
    if (err_ == CL_SUCCESS) err_ = (call_expr);                                                  \
    if (err_ != CL_SUCCESS) return enqueue_error(ctx, err_, call_name, what);                    \
  } while (0)

int hdgcl_buffer_write(hdgcl_context ctx, hdgcl_buffer *buf, size_t offset, size_t bytes,
                       const void *src) {
  HDGCL_TRY(check_range(buf, offset, bytes, "write"));
  ENQUEUE(ctx, clEnqueueWriteBuffer(ctx->queue, buf->mem, CL_TRUE, offset, bytes, src, 0, NULL, NULL),
          "clEnqueueWriteBuffer", NULL);
  return HDGCL_SUCCESS;
}

int hdgcl_buffer_read(hdgcl_context ctx, const hdgcl_buffer *buf, size_t offset, size_t bytes,
                      void *dst) {
  HDGCL_TRY(check_range(buf, offset, bytes, "read"));
  ENQUEUE(ctx, clEnqueueReadBuffer(ctx->queue, buf->mem, CL_TRUE, offset, bytes, dst, 0, NULL, NULL),
          "clEnqueueReadBuffer", NULL);
  return HDGCL_SUCCESS;
}

int hdgcl_buffer_read_named(hdgcl_context ctx, const hdgcl_buffer *buf, size_t offset,
                            size_t bytes, void *dst, const char *name) {
  HDGCL_TRY(check_range(buf, offset, bytes, "read"));
  cl_event ev = NULL;
  ENQUEUE(ctx, clEnqueueReadBuffer(ctx->queue, buf->mem, CL_TRUE, offset, bytes, dst, 0, NULL,
                                   ctx->profile ? &ev : NULL),
          "clEnqueueReadBuffer", name);
  if (ev) profile_record(ctx, name, ev);
  return HDGCL_SUCCESS;
}

#define FILL_PIECE ((size_t)1 << 30)

/* With our own kernel (cl/core/buffer.cl) rather than clEnqueueFillBuffer: on the
 * H100 NVIDIA's fill failed on buffers past 2^31 doubles. */
int hdgcl_buffer_fill(hdgcl_context ctx, hdgcl_buffer *buf, size_t offset, size_t bytes,
                      double value) {
  HDGCL_TRY(check_range(buf, offset, bytes, "fill"));
  if (bytes % sizeof(double) || offset % sizeof(double))
    return hdgcl_error(HDGCL_ERROR_INTERNAL, "fill of %zu bytes at %zu: not whole doubles", bytes,
                       offset);
  if (bytes == 0) return HDGCL_SUCCESS;
  if (!ctx->fill) {
    static const char *const files[] = {"core/common.h", "core/buffer.cl"};
    cl_program program;
    HDGCL_TRY(hdgcl_program_get(ctx, files, 2, NULL, &program));
    HDGCL_TRY(hdgcl_kernel_create(program, "fill_double", &ctx->fill));
  }
  cl_long first = (cl_long)(offset / 8), count = (cl_long)(bytes / 8);
  hdgcl_arg args[] = {HDGCL_ARG(first), HDGCL_ARG(count), HDGCL_ARG(value), HDGCL_ARG(buf->mem)};
  HDGCL_TRY(hdgcl_kernel_set_args(ctx->fill, 4, args));
  size_t global = (size_t)count < ((size_t)1 << 20) ? (size_t)count : ((size_t)1 << 20);
  /* CPU devices: one work-group size for every fill. PoCL compiles a kernel
   * again for each work-group size, and the size it picks follows the global
   * size: a cold start compiled fill_double four times. The kernel's loop
   * strides by the global size, so the rounded-up launch is safe. */
  size_t local = ctx->info.max_work_group < 64 ? ctx->info.max_work_group : 64;
  return hdgcl_kernel_launch(ctx, ctx->fill, 1, &global, ctx->info.is_cpu ? &local : NULL, NULL);
}

int hdgcl_buffer_copy(hdgcl_context ctx, const hdgcl_buffer *src, hdgcl_buffer *dst, size_t bytes) {
  HDGCL_TRY(check_range(src, 0, bytes, "copy"));
  HDGCL_TRY(check_range(dst, 0, bytes, "copy"));
  for (size_t done = 0; done < bytes; done += FILL_PIECE) { /* pieces, as for fills */
    size_t piece = bytes - done < FILL_PIECE ? bytes - done : FILL_PIECE;
    ENQUEUE(ctx, clEnqueueCopyBuffer(ctx->queue, src->mem, dst->mem, done, done, piece, 0, NULL, NULL),
            "clEnqueueCopyBuffer", NULL);
  }
  return HDGCL_SUCCESS;
}

int hdgcl_kernel_create(cl_program program, const char *name, cl_kernel *kernel) {
  cl_int err;
  *kernel = clCreateKernel(program, name, &err);
  if (err != CL_SUCCESS) return hdgcl_error_cl(err, "clCreateKernel", name);
  return HDGCL_SUCCESS;
}

static void kernel_name(cl_kernel k, char *out, size_t n) {
  if (clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, n, out, NULL) != CL_SUCCESS)
    snprintf(out, n, "?");
  out[n - 1] = '\0';
}

int hdgcl_kernel_set_args(cl_kernel kernel, int nargs, const hdgcl_arg *args) {
  for (int i = 0; i < nargs; i++) {
    cl_int err = clSetKernelArg(kernel, (cl_uint)i, args[i].size, args[i].value);
    if (err != CL_SUCCESS) {
      char name[128], what[160];
      kernel_name(kernel, name, sizeof name);
      snprintf(what, sizeof what, "%s, argument %d", name, i);
      return hdgcl_error_cl(err, "clSetKernelArg", what);
    }
  }
  return HDGCL_SUCCESS;
}

int hdgcl_kernel_launch(hdgcl_context ctx, cl_kernel kernel, cl_uint dim, const size_t *global,
                        const size_t *local, cl_event *event) {
  size_t g[3];
  for (cl_uint i = 0; i < dim; i++) {
    g[i] = global[i];
    if (local && local[i]) g[i] = (g[i] + local[i] - 1) / local[i] * local[i];
    if (g[i] == 0) return HDGCL_SUCCESS; /* nothing to do */
    /* Some runtimes (NVIDIA's) compute get_global_id in 32-bit signed
     * arithmetic: a larger launch would silently index out of bounds. */
    if (g[i] > (size_t)INT_MAX) {
      char name[128];
      kernel_name(kernel, name, sizeof name);
      return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                         "kernel %s: global size %zu exceeds 2^31-1 work-items (split the launch)",
                         name, g[i]);
    }
  }
  cl_event own = NULL;
  cl_int err = injected_fault(ctx);
  if (err == CL_SUCCESS)
    err = clEnqueueNDRangeKernel(ctx->queue, kernel, dim, NULL, g, local, 0, NULL,
                                 event ? event : ctx->profile ? &own : NULL);
  if (err != CL_SUCCESS) {
    char name[128];
    kernel_name(kernel, name, sizeof name);
    return enqueue_error(ctx, err, "clEnqueueNDRangeKernel", name);
  }
  if (own) {
    char name[128];
    kernel_name(kernel, name, sizeof name);
    profile_record(ctx, name, own);
  }
  return HDGCL_SUCCESS;
}

int hdgcl_kernel_launch_items(hdgcl_context ctx, cl_kernel kernel, size_t global) {
  if (!ctx->info.is_gpu) return hdgcl_kernel_launch(ctx, kernel, 1, &global, NULL, NULL);
  size_t local = HDGCL_GPU_WG, kmax = 0;
  if (ctx->info.max_work_group < local) local = ctx->info.max_work_group;
  if (clGetKernelWorkGroupInfo(kernel, ctx->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof kmax, &kmax, NULL) ==
          CL_SUCCESS && kmax > 0 && kmax < local)
    local = kmax;
  return hdgcl_kernel_launch(ctx, kernel, 1, &global, &local, NULL);
}

int hdgcl_faces_per_group(size_t max_wg, size_t cap, int nf) {
  size_t wg = max_wg < cap ? max_wg : cap;
  int f = (int)(wg / (size_t)nf);
  return f < 1 ? 1 : f;
}

int hdgcl_context_finish(hdgcl_context ctx) {
  if (ctx->reference) return HDGCL_SUCCESS;
  HDGCL_CL(clFinish(ctx->queue), "clFinish", NULL);
  if (ctx->profile) profile_collect(ctx);
  return HDGCL_SUCCESS;
}

double hdgcl_event_seconds(cl_event event) {
  cl_ulong t0 = 0, t1 = 0;
  if (clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL) != CL_SUCCESS ||
      clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL) != CL_SUCCESS)
    return 0.0;
  return (t1 - t0) * 1e-9;
}

double hdgcl_wtime(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int hdgcl_time_best(hdgcl_context ctx, hdgcl_timed_fn run, hdgcl_timed_fn before, void *data,
                    double *seconds, int *calls) {
  double best = 1e300;
  int reps = 1;
  hdgcl_progress(ctx, "timing kernel variants for %s (%d so far, recorded for next time)",
                 ctx->info.name, ++ctx->trials_run);
  for (int timing = -2; timing < HDGCL_TIMINGS; timing++) { /* -2, -1: warm-up, sizing */
    if (before) HDGCL_TRY(before(data));
    HDGCL_TRY(hdgcl_context_finish(ctx));
    double t0 = hdgcl_wtime();
    for (int r = 0; r < reps; r++) HDGCL_TRY(run(data));
    HDGCL_TRY(hdgcl_context_finish(ctx));
    double dt = (hdgcl_wtime() - t0) / reps;
    if (timing < 0) {
      double want = dt > 0 ? HDGCL_TIMING_SPAN / dt + 1 : 16;
      reps = want > 16 ? 16 : (int)want;
    } else if (dt < best) {
      best = dt;
    }
  }
  *seconds = best;
  if (calls) *calls = reps;
  return HDGCL_SUCCESS;
}
