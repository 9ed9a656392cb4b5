/* hdgcl bench's measurements (kernels: cl/core/bench.cl; the SpMV storages of
 * spmv.c; CLBlast through blas.c).  Times are wall-clock around a batch of
 * back-to-back launches ended by one clFinish, so each figure includes what a
 * real loop pays per launch; the best of 3 trials is kept. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/bench.h"
#include "core/blas.h"
#include "core/error.h"
#include "drivers/solver_impl.h"
#include "solvers/spmv.h"

#define TRIALS 3
#define MAX_REPS 100000

typedef int (*bench_op)(hdgcl_context ctx, void *arg);

/* buf[:] = value, written from the host in 1 MiB pieces, not with
 * hdgcl_buffer_fill: under oclgrind --uninitialized (21.10, unchanged in
 * 26.03) the fill kernel's stores are lost past the size of an earlier,
 * smaller buffer whose slot buf reuses, and bench_copy then reports reading
 * uninitialised values there (tests/oclgrind_kernels.sh, case spmv).  The fill
 * itself is complete (every value reads back right).  oclgrind keeps a global
 * buffer's shadow (defined-bits) memory by slot, does not drop it at
 * clReleaseMemObject, and at a kernel launch makes a new one only for a slot
 * without one: a reused slot keeps the stale, shorter shadow, stores past its
 * end are dropped and loads there read as undefined.  A host write replaces
 * the shadow with one of the write's size, so one-piece writes (buffers up to
 * 1 MiB, as under oclgrind) are tracked exactly; clEnqueueFillBuffer is never
 * tracked (always undefined).  On real devices this costs nothing measured. */
static int host_fill(hdgcl_context ctx, hdgcl_buffer *buf, double value) {
  enum { PIECE = 1 << 17 }; /* doubles */
  double *piece;
  size_t count = buf->bytes / 8, n = count < PIECE ? count : PIECE;
  HDGCL_TRY(hdgcl_calloc(n ? n : 1, sizeof *piece, "bench fill", &piece));
  for (size_t i = 0; i < n; i++) piece[i] = value;
  int status = HDGCL_SUCCESS;
  for (size_t done = 0; done < count && status == HDGCL_SUCCESS; done += n) {
    size_t m = count - done < n ? count - done : n;
    status = hdgcl_buffer_write(ctx, buf, done * 8, m * 8, piece);
  }
  free(piece);
  return status;
}

/* Best seconds per call of op: one untimed call (compilation, first touch),
 * one timed call to choose the repetitions, then TRIALS batches. */
static int best_time(hdgcl_context ctx, bench_op op, void *arg, double min_seconds,
                     double *seconds) {
  HDGCL_TRY(op(ctx, arg));
  HDGCL_TRY(hdgcl_context_finish(ctx));
  double t0 = hdgcl_wtime();
  HDGCL_TRY(op(ctx, arg));
  HDGCL_TRY(hdgcl_context_finish(ctx));
  double once = hdgcl_wtime() - t0;
  int reps = once > 0 ? (int)fmin(MAX_REPS, ceil(min_seconds / once)) : MAX_REPS;
  if (reps < 1) reps = 1;
  double best = INFINITY;
  for (int t = 0; t < TRIALS; t++) {
    t0 = hdgcl_wtime();
    for (int r = 0; r < reps; r++) HDGCL_TRY(op(ctx, arg));
    HDGCL_TRY(hdgcl_context_finish(ctx));
    double dt = (hdgcl_wtime() - t0) / reps;
    if (dt < best) best = dt;
  }
  *seconds = best;
  return HDGCL_SUCCESS;
}

/* ---- device ceilings ---- */

typedef struct launch_arg {
  cl_kernel kernel;
  size_t global, local;
} launch_arg;

static int launch_op(hdgcl_context ctx, void *p) {
  launch_arg *a = p;
  return hdgcl_kernel_launch(ctx, a->kernel, 1, &a->global, a->local ? &a->local : NULL, NULL);
}

typedef struct gemm_arg {
  bool trans_a;
  size_t m, n, k, batch;
  hdgcl_buffer a, b, c;
} gemm_arg;

/* C_b = op(A_b) B_b with A_b m x k (or k x m when transposed), column-major, packed. */
static int gemm_op(hdgcl_context ctx, void *p) {
  gemm_arg *g = p;
  size_t lda = g->trans_a ? g->k : g->m;
  return hdgcl_dgemm_strided_batched(ctx, g->trans_a, false, g->m, g->n, g->k, 1.0, g->a.mem, 0,
                                     lda, g->m * g->k, g->b.mem, 0, g->k, g->k * g->n, 0.0,
                                     g->c.mem, 0, g->m, g->m * g->n, g->batch, NULL);
}

static void gemm_release(hdgcl_context ctx, gemm_arg *g) {
  hdgcl_buffer_release(ctx, &g->a);
  hdgcl_buffer_release(ctx, &g->b);
  hdgcl_buffer_release(ctx, &g->c);
}

/* Seconds per batched GEMM of the given shape (buffers filled with 1/k so
 * values stay finite). */
static int time_gemm(hdgcl_context ctx, bool trans_a, size_t m, size_t n, size_t k, size_t batch,
                     double min_seconds, double *seconds) {
  gemm_arg g = {.trans_a = trans_a, .m = m, .n = n, .k = k, .batch = batch};
  int status;
  HDGCL_TRY_GOTO(status, hdgcl_buffer_create(ctx, batch * m * k * 8, "bench GEMM A", &g.a), done);
  HDGCL_TRY_GOTO(status, hdgcl_buffer_create(ctx, batch * k * n * 8, "bench GEMM B", &g.b), done);
  HDGCL_TRY_GOTO(status, hdgcl_buffer_create(ctx, batch * m * n * 8, "bench GEMM C", &g.c), done);
  HDGCL_TRY_GOTO(status, host_fill(ctx, &g.a, 1.0 / (double)k), done);
  HDGCL_TRY_GOTO(status, host_fill(ctx, &g.b, 1.0), done);
  HDGCL_TRY_GOTO(status, host_fill(ctx, &g.c, 0.0), done);
  status = best_time(ctx, gemm_op, &g, min_seconds, seconds);
done:
  gemm_release(ctx, &g);
  return status;
}

int bench_measure_peaks(hdgcl_context ctx, double min_seconds, uint64_t copy_bytes,
                        int dgemm_batch, bench_peaks *pk) {
  static const char *const files[] = {"core/common.h", "core/bench.cl"};
  const hdgcl_device_info *info = &ctx->info;
  *pk = (bench_peaks){0};
  cl_program program;
  HDGCL_TRY(hdgcl_program_get(ctx, files, 2, "", &program));
  cl_kernel copy = NULL, empty = NULL;
  hdgcl_buffer a = {0}, b = {0};
  int status;
  HDGCL_TRY_GOTO(status, hdgcl_kernel_create(program, "bench_copy", &copy), done);
  HDGCL_TRY_GOTO(status, hdgcl_kernel_create(program, "bench_empty", &empty), done);

  /* Copy: two buffers of 256 MiB (well past any cache), fewer on small devices. */
  uint64_t bytes = copy_bytes ? copy_bytes : (uint64_t)256 << 20;
  if (bytes > info->max_alloc) bytes = info->max_alloc;
  if (bytes > info->global_mem / 8) bytes = info->global_mem / 8;
  bytes -= bytes % 8;
  if (bytes < 8 || bytes / 8 > INT32_MAX)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "copy benchmark of %llu bytes: out of range",
                       (unsigned long long)bytes);
  HDGCL_TRY_GOTO(status, hdgcl_buffer_create(ctx, bytes, "bench copy source", &a), done);
  HDGCL_TRY_GOTO(status, hdgcl_buffer_create(ctx, bytes, "bench copy target", &b), done);
  HDGCL_TRY_GOTO(status, host_fill(ctx, &a, 1.0), done);
  cl_int n = (cl_int)(bytes / 8);
  hdgcl_arg cargs[] = {HDGCL_ARG(n), HDGCL_ARG(a.mem), HDGCL_ARG(b.mem)};
  HDGCL_TRY_GOTO(status, hdgcl_kernel_set_args(copy, 3, cargs), done);
  launch_arg cl = {copy, (size_t)n, 0};
  double t;
  HDGCL_TRY_GOTO(status, best_time(ctx, launch_op, &cl, min_seconds, &t), done);
  pk->copy_bytes = bytes;
  pk->copy_gbs = 2.0 * (double)bytes / t / 1e9;

  /* Launch overhead: an empty kernel of one work-item. */
  hdgcl_arg eargs[] = {HDGCL_ARG(a.mem)};
  HDGCL_TRY_GOTO(status, hdgcl_kernel_set_args(empty, 1, eargs), done);
  launch_arg el = {empty, 1, 0};
  HDGCL_TRY_GOTO(status, best_time(ctx, launch_op, &el, min_seconds / 4, &t), done);
  pk->launch_us = t * 1e6;
  hdgcl_buffer_release(ctx, &a);
  hdgcl_buffer_release(ctx, &b);

  /* FP64 rate: CLBlast DgemmStridedBatched 64 x 64 x 64 (the reference shape
   * of DEVELOPERS.md), batch 20000 on GPUs, 2000 elsewhere. */
  size_t batch = dgemm_batch > 0 ? (size_t)dgemm_batch : info->is_gpu ? 20000 : 2000;
  while (batch > 1 && batch * 3 * 64 * 64 * 8 > info->global_mem / 4) batch /= 2;
  HDGCL_TRY_GOTO(status, time_gemm(ctx, false, 64, 64, 64, batch, min_seconds, &t), done);
  pk->dgemm_gflops = 2.0 * 64 * 64 * 64 * (double)batch / t / 1e9;
  pk->dgemm_shape[0] = pk->dgemm_shape[1] = pk->dgemm_shape[2] = 64;
  pk->dgemm_shape[3] = (int)batch;
  status = HDGCL_SUCCESS;
done:
  hdgcl_buffer_release(ctx, &a);
  hdgcl_buffer_release(ctx, &b);
  if (copy) clReleaseKernel(copy);
  if (empty) clReleaseKernel(empty);
  return status;
}

/* ---- kernels of a solved problem ---- */

typedef struct spmv_arg {
  spmv_operator *op;
  hdgcl_buffer *x, *y;
} spmv_arg;

static int spmv_op(hdgcl_context ctx, void *p) {
  spmv_arg *a = p;
  return spmv_operator_apply(ctx, a->op, a->x, a->y);
}

int bench_spmv_storages(hdgcl_solver s, double min_seconds, bench_kernel *out) {
  int rows, slots, nf;
  const double *values, *rhs;
  const int32_t *cols;
  HDGCL_TRY(hdgcl_solver_matrix(s, &rows, &slots, &nf, &values, &cols, &rhs));
  if (rows == 0)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                       "the trace system is empty (every face is Dirichlet): nothing to benchmark");
  hdgcl_context ctx = s->ctx;
  size_t n = (size_t)rows * nf;
  double *x = NULL, *y = NULL, *yref = NULL;
  hdgcl_buffer xd = {0}, yd = {0};
  spmv_operator op = {0};
  int status;
  HDGCL_TRY_GOTO(status, hdgcl_calloc(n, sizeof *x, "bench x", &x), done);
  HDGCL_TRY_GOTO(status, hdgcl_calloc(n, sizeof *y, "bench y", &y), done);
  HDGCL_TRY_GOTO(status, hdgcl_calloc(n, sizeof *yref, "bench reference y", &yref), done);
  for (size_t i = 0; i < n; i++) x[i] = sin(0.37 * (double)i + 0.1);
  spmv_host(rows, slots, nf, values, cols, x, yref);
  double ymax = 0.0;
  for (size_t i = 0; i < n; i++) ymax = fmax(ymax, fabs(yref[i]));
  if (ymax == 0.0) ymax = 1.0;
  cl_program program;
  HDGCL_TRY_GOTO(status, spmv_program(ctx, nf, slots, &program), done);
  HDGCL_TRY_GOTO(status, hdgcl_buffer_create(ctx, n * 8, "bench x", &xd), done);
  HDGCL_TRY_GOTO(status, hdgcl_buffer_create(ctx, n * 8, "bench y", &yd), done);
  HDGCL_TRY_GOTO(status, hdgcl_buffer_write(ctx, &xd, 0, n * 8, x), done);
  for (int st = 0; st < SPMV_STORAGES; st++) {
    bench_kernel *k = &out[st];
    *k = (bench_kernel){.rel_error = -1};
    snprintf(k->name, sizeof k->name, "spmv_%s", spmv_storage_names[st]);
    for (char *c = k->name; *c; c++)
      if (*c == '-') *c = '_';
    HDGCL_TRY_GOTO(status, spmv_operator_create(ctx, program, (spmv_storage)st, rows, slots, nf,
                                                values, cols, &op), done);
    HDGCL_TRY_GOTO(status, hdgcl_buffer_fill(ctx, &yd, 0, n * 8, NAN), done);
    HDGCL_TRY_GOTO(status, spmv_operator_apply(ctx, &op, &xd, &yd), done);
    HDGCL_TRY_GOTO(status, hdgcl_buffer_read(ctx, &yd, 0, n * 8, y), done);
    double err = 0.0;
    for (size_t i = 0; i < n; i++) {
      double d = fabs(y[i] - yref[i]);
      err = d > err || isnan(d) ? d : err; /* NaN (an unwritten row) propagates */
    }
    k->rel_error = err / ymax;
    double limit = st == SPMV_BELL_MIXED ? 1e-5 : 1e-12;
    if (!(k->rel_error <= limit)) {
      status = hdgcl_error(HDGCL_ERROR_INTERNAL,
                           "SpMV storage %s disagrees with the host product: relative error %.3e "
                           "(limit %.0e)", spmv_storage_names[st], k->rel_error, limit);
      goto done;
    }
    spmv_arg arg = {&op, &xd, &yd};
    HDGCL_TRY_GOTO(status, best_time(ctx, spmv_op, &arg, min_seconds, &k->seconds), done);
    k->flops = op.flops;
    k->bytes = op.bytes;
    spmv_operator_destroy(ctx, &op);
  }
  status = HDGCL_SUCCESS;
done:
  spmv_operator_destroy(ctx, &op);
  hdgcl_buffer_release(ctx, &xd);
  hdgcl_buffer_release(ctx, &yd);
  free(x);
  free(y);
  free(yref);
  return status;
}

int bench_local_gemm(hdgcl_solver s, double min_seconds, bench_kernel *out) {
  /* The local stage's shapes: S is N_p x N_p (vector problems: Z, (d+1) N_p), [W|F] has N_t + 1
   * (N_tb + 1) columns. */
  const local_stage *ls = &s->dev->local;
  size_t np = (size_t)ls->rows, nt1 = (size_t)ls->cols;
  int64_t batch = s->result.chunk_elements > 0 ? s->result.chunk_elements : s->disc.mesh->num_elements;
  if (batch > 20000) batch = 20000;
  if (batch < 1) batch = 1;
  double t1, t2;
  HDGCL_TRY(time_gemm(s->ctx, false, np, nt1, np, (size_t)batch, min_seconds, &t1));
  HDGCL_TRY(time_gemm(s->ctx, true, nt1, nt1, np, (size_t)batch, min_seconds, &t2));
  *out = (bench_kernel){.rel_error = -1};
  snprintf(out->name, sizeof out->name, "clblast_local_gemms");
  out->seconds = t1 + t2;
  out->flops = 2.0 * (double)batch * (double)(np * nt1 * np + nt1 * nt1 * np);
  out->bytes = 8.0 * (double)batch * (double)(np * np + 2 * np * nt1 + 2 * np * nt1 + nt1 * nt1);
  return HDGCL_SUCCESS;
}

/* The whole local stage (every chunk: build, Z, K), run again back to back as
 * the GEMMs above are, so the two compare alike where launches dominate
 * (small meshes); the solve's own stage time, one pass ended by a clFinish,
 * stays in the stages.  Rewrites K and Z with the same values. */
static int local_stage_op(hdgcl_context ctx, void *arg) {
  (void)ctx;
  hdgcl_solver s = arg;
  return pipeline_local_run_all(s->dev); /* every element batch */
}

int bench_local_stage(hdgcl_solver s, double min_seconds, bench_kernel *out) {
  hdgcl_stage_stats saved = s->result.stages[HDGCL_STAGE_LOCAL];
  s->result.stages[HDGCL_STAGE_LOCAL].flops = s->result.stages[HDGCL_STAGE_LOCAL].bytes = 0;
  HDGCL_TRY(local_stage_op(s->ctx, s)); /* one pass counts the flops and bytes */
  *out = (bench_kernel){.rel_error = -1};
  snprintf(out->name, sizeof out->name, "local_stage");
  out->flops = s->result.stages[HDGCL_STAGE_LOCAL].flops;
  out->bytes = s->result.stages[HDGCL_STAGE_LOCAL].bytes;
  int status = best_time(s->ctx, local_stage_op, s, min_seconds, &out->seconds);
  s->result.stages[HDGCL_STAGE_LOCAL] = saved;
  return status;
}
