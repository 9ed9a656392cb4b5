/* The trace operator y = A x (kernels: cl/solvers/spmv.cl).  The solver applies the
 * assembled matrix in its own storage (krylov_spmv); spmv_operator_* build a
 * stand-alone copy in any storage of spmv.h from the host block-ELL arrays, so
 * the storages can be compared on one matrix (hdgcl bench, tests/test_spmv.c).
 *
 * Bytes are counted honestly: every stored value (padding of empty slots
 * included, except in CSR, which stores none), every index, x read once and y
 * written once. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "solvers/krylov.h"
#include "solvers/spmv.h"

const char *const spmv_storage_names[SPMV_STORAGES] = {"bell",       "ell", "bell-i", "bell-tc",
                                                       "bell-mixed", "csr", "bell-sym"};

const char *spmv_kernel_name(spmv_storage st) {
  static const char *const kernels[SPMV_STORAGES] = {
      "spmv_bell", "spmv_ell", "spmv_bell_i", "spmv_bell_tc", "spmv_bell_mixed", "spmv_csr",
      "spmv_bell_sym"};
  return (int)st >= 0 && st < SPMV_STORAGES ? kernels[st] : "?";
}

spmv_storage spmv_format_storage(int format) {
  return format == FORMAT_ELL ? SPMV_ELL : format == FORMAT_BELL_I ? SPMV_BELL_I : SPMV_BELL;
}

void spmv_counts(spmv_storage st, double rows, int nslots, int nf, double *flops, double *bytes) {
  double n = rows * nf, entries = n * nslots * nf; /* stored entries, padding included */
  double index = st == SPMV_ELL ? 4.0 * entries : 4.0 * rows * nslots;
  *flops = 2.0 * entries;
  *bytes = (st == SPMV_BELL_MIXED ? 4.0 : 8.0) * entries + index + 16.0 * n;
}

#define SPMV_WG 128 /* work-items per group of spmv_bell_tc and spmv_csr (at most) */

/* Smallest power of two >= a quarter of the row length, in [2, 32]. */
static int csr_lanes(int nf, int nslots, size_t max_wg) {
  int lanes = 2;
  while (lanes < 32 && lanes * 4 < nf * nslots) lanes *= 2;
  while ((size_t)lanes > max_wg && lanes > 1) lanes /= 2;
  return lanes;
}

void spmv_options(int nf, int nslots, size_t max_wg, char *out, size_t n) {
  snprintf(out, n, "-DTC_FACES=%d -DCSR_LANES=%d", hdgcl_faces_per_group(max_wg, SPMV_WG, nf),
           csr_lanes(nf, nslots, max_wg));
}

int spmv_program(hdgcl_context ctx, int nf, int nslots, cl_program *program) {
  static const char *const files[] = {"core/common.h", "solvers/spmv.cl"};
  char extra[128], options[256];
  spmv_options(nf, nslots, ctx->info.max_work_group, extra, sizeof extra);
  snprintf(options, sizeof options, "-DNF=%d -DNSLOTS=%d %s", nf, nslots, extra);
  return hdgcl_program_get(ctx, files, 2, options, program);
}

void spmv_host(int rows, int nslots, int nf, const double *values, const int32_t *block_cols,
               const double *x, double *y) {
  for (int u = 0; u < rows; u++)
    for (int m = 0; m < nf; m++) {
      double s = 0.0;
      for (int slot = 0; slot < nslots; slot++) {
        int c = block_cols[(size_t)u * nslots + slot];
        if (c < 0) continue;
        const double *blk = values + (((size_t)u * nslots + slot) * nf + m) * nf;
        for (int n = 0; n < nf; n++) s += blk[n] * x[(size_t)c * nf + n];
      }
      y[(size_t)u * nf + m] = s;
    }
}

/* Value (m, n) of block slot of face row u in the host block-ELL arrays. */
static double entry(const double *values, int nslots, int nf, int u, int slot, int m, int n) {
  return values[(((size_t)u * nslots + slot) * nf + m) * nf + n];
}

/* Fills op->values / index / rowptr with the storage's layout. */
static int upload(hdgcl_context ctx, spmv_operator *op, const double *values,
                  const int32_t *block_cols) {
  const int rows = op->rows, ns = op->nslots, nf = op->nf;
  const size_t n = (size_t)op->n, entries = n * ns * nf, blocks = (size_t)rows * ns;
  int status = HDGCL_SUCCESS;
  void *host = NULL;
  int32_t *idx = NULL, *ptr = NULL;
  switch (op->storage) {
  case SPMV_BELL:
    HDGCL_TRY(hdgcl_buffer_create(ctx, entries * 8, "spmv values", &op->values));
    HDGCL_TRY(hdgcl_buffer_write(ctx, &op->values, 0, entries * 8, values));
    HDGCL_TRY(hdgcl_buffer_create(ctx, blocks * 4, "spmv block columns", &op->index));
    return hdgcl_buffer_write(ctx, &op->index, 0, blocks * 4, block_cols);
  case SPMV_ELL:
  case SPMV_BELL_I:
  case SPMV_BELL_TC:
  case SPMV_BELL_MIXED: {
    bool mixed = op->storage == SPMV_BELL_MIXED;
    size_t vb = entries * (mixed ? 4 : 8);
    HDGCL_TRY_GOTO(status, hdgcl_calloc(entries, mixed ? 4 : 8, "spmv values", &host), done);
    if (op->storage == SPMV_ELL)
      HDGCL_TRY_GOTO(status, hdgcl_calloc(entries, 4, "spmv columns", &idx), done);
    for (int u = 0; u < rows; u++)
      for (int slot = 0; slot < ns; slot++) {
        int c = block_cols[(size_t)u * ns + slot];
        for (int m = 0; m < nf; m++)
          for (int k = 0; k < nf; k++) {
            size_t row = (size_t)u * nf + m, at = (size_t)(slot * nf + k) * n + row;
            double v = c < 0 ? 0.0 : entry(values, ns, nf, u, slot, m, k);
            if (mixed)
              ((float *)host)[at] = (float)v;
            else
              ((double *)host)[at] = v;
            if (idx) idx[at] = c < 0 ? (int32_t)row : c * nf + k; /* padding: own row, value 0 */
          }
      }
    HDGCL_TRY_GOTO(status, hdgcl_buffer_create(ctx, vb, "spmv values", &op->values), done);
    HDGCL_TRY_GOTO(status, hdgcl_buffer_write(ctx, &op->values, 0, vb, host), done);
    if (idx) {
      HDGCL_TRY_GOTO(status, hdgcl_buffer_create(ctx, entries * 4, "spmv columns", &op->index), done);
      HDGCL_TRY_GOTO(status, hdgcl_buffer_write(ctx, &op->index, 0, entries * 4, idx), done);
    } else {
      HDGCL_TRY_GOTO(status, hdgcl_buffer_create(ctx, blocks * 4, "spmv block columns", &op->index), done);
      HDGCL_TRY_GOTO(status, hdgcl_buffer_write(ctx, &op->index, 0, blocks * 4, block_cols), done);
    }
    break;
  }
  case SPMV_CSR: {
    size_t nnz = 0;
    for (size_t b = 0; b < blocks; b++) nnz += block_cols[b] >= 0 ? (size_t)nf * nf : 0;
    if (nnz > INT32_MAX)
      return hdgcl_error(HDGCL_ERROR_UNSUPPORTED, "CSR with %zu entries exceeds 32-bit indices", nnz);
    HDGCL_TRY_GOTO(status, hdgcl_calloc(nnz ? nnz : 1, 8, "csr values", &host), done);
    HDGCL_TRY_GOTO(status, hdgcl_calloc(nnz ? nnz : 1, 4, "csr columns", &idx), done);
    HDGCL_TRY_GOTO(status, hdgcl_calloc(n + 1, 4, "csr row pointers", &ptr), done);
    size_t k = 0;
    for (int u = 0; u < rows; u++)
      for (int m = 0; m < nf; m++) {
        ptr[(size_t)u * nf + m] = (int32_t)k;
        for (int slot = 0; slot < ns; slot++) {
          int c = block_cols[(size_t)u * ns + slot];
          if (c < 0) continue;
          for (int j = 0; j < nf; j++) {
            ((double *)host)[k] = entry(values, ns, nf, u, slot, m, j);
            idx[k++] = c * nf + j;
          }
        }
      }
    ptr[n] = (int32_t)k;
    size_t vb = (nnz ? nnz : 1) * 8, ib = (nnz ? nnz : 1) * 4;
    HDGCL_TRY_GOTO(status, hdgcl_buffer_create(ctx, vb, "csr values", &op->values), done);
    HDGCL_TRY_GOTO(status, hdgcl_buffer_write(ctx, &op->values, 0, vb, host), done);
    HDGCL_TRY_GOTO(status, hdgcl_buffer_create(ctx, ib, "csr columns", &op->index), done);
    HDGCL_TRY_GOTO(status, hdgcl_buffer_write(ctx, &op->index, 0, ib, idx), done);
    HDGCL_TRY_GOTO(status, hdgcl_buffer_create(ctx, (n + 1) * 4, "csr row pointers", &op->rowptr), done);
    HDGCL_TRY_GOTO(status, hdgcl_buffer_write(ctx, &op->rowptr, 0, (n + 1) * 4, ptr), done);
    op->flops = 2.0 * (double)nnz;
    op->bytes = 12.0 * (double)nnz + 4.0 * (double)(n + 1) + 16.0 * (double)n;
    break;
  }
  case SPMV_BELL_SYM: {
    /* Keep the blocks with column >= row; a block below refers to its mirror
     * (the slot of row c whose column is u), whose transpose it is. */
    HDGCL_TRY_GOTO(status, hdgcl_calloc(blocks, 4, "bell-sym references", &ptr), done);
    size_t kept = 0;
    for (size_t b = 0; b < blocks; b++)
      if (block_cols[b] >= (int32_t)(b / ns)) ptr[b] = (int32_t)kept++;
    HDGCL_TRY_GOTO(status, hdgcl_calloc(kept ? kept * nf * nf : 1, 8, "bell-sym values", &host), done);
    double asym = 0.0, amax = 0.0;
    for (size_t b = 0; b < blocks; b++) {
      int u = (int)(b / ns), c = block_cols[b];
      if (c < 0) continue;
      if (c >= u) {
        memcpy((double *)host + (size_t)ptr[b] * nf * nf, values + b * nf * nf, (size_t)nf * nf * 8);
        continue;
      }
      int mirror = -1;
      for (int sl = 0; sl < ns; sl++)
        if (block_cols[(size_t)c * ns + sl] == u) mirror = sl;
      if (mirror < 0) {
        status = hdgcl_error(HDGCL_ERROR_ARGUMENT,
                             "bell-sym: block (%d, %d) has no mirror (%d, %d): the sparsity is not "
                             "symmetric", u, c, c, u);
        goto done;
      }
      const double *mb = values + ((size_t)c * ns + mirror) * nf * nf, *ub = values + b * nf * nf;
      for (int i = 0; i < nf; i++)
        for (int j = 0; j < nf; j++) {
          asym = fmax(asym, fabs(ub[i * nf + j] - mb[j * nf + i]));
          amax = fmax(amax, fabs(ub[i * nf + j]));
        }
      ptr[b] = -(ptr[(size_t)c * ns + mirror]) - 1;
    }
    if (asym > 1e-10 * amax) {
      status = hdgcl_error(HDGCL_ERROR_ARGUMENT,
                           "bell-sym: the matrix is not symmetric (max |A_uc - A_cu^T| = %.3e, "
                           "max |A| = %.3e)", asym, amax);
      goto done;
    }
    size_t vb = (kept ? kept : 1) * nf * nf * 8;
    HDGCL_TRY_GOTO(status, hdgcl_buffer_create(ctx, vb, "bell-sym values", &op->values), done);
    HDGCL_TRY_GOTO(status, hdgcl_buffer_write(ctx, &op->values, 0, vb, host), done);
    HDGCL_TRY_GOTO(status, hdgcl_buffer_create(ctx, blocks * 4, "spmv block columns", &op->index), done);
    HDGCL_TRY_GOTO(status, hdgcl_buffer_write(ctx, &op->index, 0, blocks * 4, block_cols), done);
    HDGCL_TRY_GOTO(status, hdgcl_buffer_create(ctx, blocks * 4, "bell-sym references", &op->rowptr), done);
    HDGCL_TRY_GOTO(status, hdgcl_buffer_write(ctx, &op->rowptr, 0, blocks * 4, ptr), done);
    /* Every stored block is read twice (as itself and as a mirror) but moved
     * from memory once; the two index arrays. */
    op->bytes = 8.0 * (double)kept * nf * nf + 8.0 * (double)blocks + 16.0 * (double)n;
    break;
  }
  default:
    return hdgcl_error(HDGCL_ERROR_INTERNAL, "unknown SpMV storage %d", (int)op->storage);
  }
done:
  free(host);
  free(idx);
  free(ptr);
  return status;
}

int spmv_operator_create(hdgcl_context ctx, cl_program program, spmv_storage st, int rows,
                         int nslots, int nf, const double *values, const int32_t *block_cols,
                         spmv_operator *op) {
  *op = (spmv_operator){.storage = st, .rows = rows, .nslots = nslots, .nf = nf,
                        .n = (int64_t)rows * nf};
  if ((int)st < 0 || st >= SPMV_STORAGES)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "unknown SpMV storage %d", (int)st);
  if (rows < 1 || nslots < 1 || nf < 1 || op->n * nslots * nf > INT32_MAX)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                       "SpMV operator of %d face rows x %d blocks of %d x %d: empty or beyond "
                       "32-bit indices", rows, nslots, nf, nf);
  /* Counts of the padded layout; CSR and bell-sym set their own in upload. */
  spmv_counts(st, rows, nslots, nf, &op->flops, &op->bytes);
  HDGCL_TRY(hdgcl_kernel_create(program, spmv_kernel_name(st), &op->kernel));
  HDGCL_TRY(upload(ctx, op, values, block_cols));
  size_t max_wg = ctx->info.max_work_group;
  op->global = (size_t)op->n;
  op->local = 0;
  if (st == SPMV_BELL_TC) {
    int f = hdgcl_faces_per_group(max_wg, SPMV_WG, nf);
    op->local = (size_t)f * nf;
    op->global = (size_t)((rows + f - 1) / f) * op->local;
  } else if (st == SPMV_CSR) {
    size_t lanes = (size_t)csr_lanes(nf, nslots, max_wg);
    op->local = max_wg < SPMV_WG ? max_wg : SPMV_WG;
    op->local -= op->local % lanes;
    op->global = (size_t)op->n * lanes;
  }
  return HDGCL_SUCCESS;
}

int spmv_operator_apply(hdgcl_context ctx, spmv_operator *op, const hdgcl_buffer *x,
                        hdgcl_buffer *y) {
  cl_int n = (cl_int)op->n, rows = op->rows;
  if (op->storage == SPMV_ELL) {
    hdgcl_arg a[] = {HDGCL_ARG(n), HDGCL_ARG(op->index.mem), HDGCL_ARG(op->values.mem),
                     HDGCL_ARG(x->mem), HDGCL_ARG(y->mem)};
    HDGCL_TRY(hdgcl_kernel_set_args(op->kernel, 5, a));
  } else if (op->storage == SPMV_CSR) {
    hdgcl_arg a[] = {HDGCL_ARG(n),         HDGCL_ARG(op->rowptr.mem), HDGCL_ARG(op->index.mem),
                     HDGCL_ARG(op->values.mem), HDGCL_ARG(x->mem),   HDGCL_ARG(y->mem),
                     HDGCL_ARG_LOCAL(op->local * sizeof(double))};
    HDGCL_TRY(hdgcl_kernel_set_args(op->kernel, 7, a));
  } else if (op->storage == SPMV_BELL_SYM) {
    hdgcl_arg a[] = {HDGCL_ARG(rows),       HDGCL_ARG(op->index.mem), HDGCL_ARG(op->rowptr.mem),
                     HDGCL_ARG(op->values.mem), HDGCL_ARG(x->mem),   HDGCL_ARG(y->mem)};
    HDGCL_TRY(hdgcl_kernel_set_args(op->kernel, 6, a));
  } else if (op->storage == SPMV_BELL_TC) {
    size_t xs = op->local / (size_t)op->nf * (size_t)op->nslots * (size_t)op->nf * sizeof(double);
    hdgcl_arg a[] = {HDGCL_ARG(rows), HDGCL_ARG(op->index.mem), HDGCL_ARG(op->values.mem),
                     HDGCL_ARG(x->mem), HDGCL_ARG(y->mem), HDGCL_ARG_LOCAL(xs)};
    HDGCL_TRY(hdgcl_kernel_set_args(op->kernel, 6, a));
  } else {
    hdgcl_arg a[] = {HDGCL_ARG(rows), HDGCL_ARG(op->index.mem), HDGCL_ARG(op->values.mem),
                     HDGCL_ARG(x->mem), HDGCL_ARG(y->mem)};
    HDGCL_TRY(hdgcl_kernel_set_args(op->kernel, 5, a));
  }
  return hdgcl_kernel_launch(ctx, op->kernel, 1, &op->global, op->local ? &op->local : NULL, NULL);
}

void spmv_operator_destroy(hdgcl_context ctx, spmv_operator *op) {
  if (op->kernel) clReleaseKernel(op->kernel);
  hdgcl_buffer_release(ctx, &op->values);
  hdgcl_buffer_release(ctx, &op->index);
  hdgcl_buffer_release(ctx, &op->rowptr);
  *op = (spmv_operator){0};
}

/* The solver's operator: the assembled matrix in its own storage (--format). */
int krylov_spmv(krylov *kr, const hdgcl_buffer *x, hdgcl_buffer *y) {
  const linear_system *sys = &kr->sys;
  if (sys->format == FORMAT_ELL) {
    hdgcl_arg a[] = {HDGCL_ARG(kr->n), HDGCL_ARG(sys->cols->mem), HDGCL_ARG(sys->values->mem),
                     HDGCL_ARG(x->mem), HDGCL_ARG(y->mem)};
    return krylov_launch(kr, kr->spmv, 5, a, (size_t)kr->n, 0);
  }
  hdgcl_arg a[] = {HDGCL_ARG(kr->rows), HDGCL_ARG(sys->block_cols->mem),
                   HDGCL_ARG(sys->values->mem), HDGCL_ARG(x->mem), HDGCL_ARG(y->mem)};
  return krylov_launch(kr, kr->spmv, 5, a, (size_t)kr->n, 0);
}

void krylov_spmv_counts(const krylov *kr, double *flops, double *bytes) {
  spmv_counts(spmv_format_storage(kr->sys.format), kr->sys.rows, kr->sys.nslots,
              kr->sys.nf, flops, bytes);
}
