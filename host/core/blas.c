/* Dense batched products through CLBlast (C API), on the context's queue. */
#include <limits.h>
#include "core/blas.h"
#include "core/profile.h"

#include <clblast_c.h>
#include <stdio.h>

#include "core/error.h"

const char *hdgcl_clblast_status_name(int status) {
#define NAME(code)                                                                               \
  case code: return #code
  switch (status) {
    NAME(CLBlastSuccess);
    NAME(CLBlastOpenCLCompilerNotAvailable);
    NAME(CLBlastTempBufferAllocFailure);
    NAME(CLBlastOpenCLOutOfResources);
    NAME(CLBlastOpenCLOutOfHostMemory);
    NAME(CLBlastOpenCLBuildProgramFailure);
    NAME(CLBlastInvalidValue);
    NAME(CLBlastInvalidCommandQueue);
    NAME(CLBlastInvalidMemObject);
    NAME(CLBlastInvalidBinary);
    NAME(CLBlastInvalidBuildOptions);
    NAME(CLBlastInvalidProgram);
    NAME(CLBlastInvalidProgramExecutable);
    NAME(CLBlastInvalidKernelName);
    NAME(CLBlastInvalidKernelDefinition);
    NAME(CLBlastInvalidKernel);
    NAME(CLBlastInvalidArgIndex);
    NAME(CLBlastInvalidArgValue);
    NAME(CLBlastInvalidArgSize);
    NAME(CLBlastInvalidKernelArgs);
    NAME(CLBlastInvalidLocalNumDimensions);
    NAME(CLBlastInvalidLocalThreadsTotal);
    NAME(CLBlastInvalidLocalThreadsDim);
    NAME(CLBlastInvalidGlobalOffset);
    NAME(CLBlastInvalidEventWaitList);
    NAME(CLBlastInvalidEvent);
    NAME(CLBlastInvalidOperation);
    NAME(CLBlastInvalidBufferSize);
    NAME(CLBlastInvalidGlobalWorkSize);
    NAME(CLBlastNotImplemented);
    NAME(CLBlastInvalidMatrixA);
    NAME(CLBlastInvalidMatrixB);
    NAME(CLBlastInvalidMatrixC);
    NAME(CLBlastInvalidVectorX);
    NAME(CLBlastInvalidVectorY);
    NAME(CLBlastInvalidDimension);
    NAME(CLBlastInvalidLeadDimA);
    NAME(CLBlastInvalidLeadDimB);
    NAME(CLBlastInvalidLeadDimC);
    NAME(CLBlastInvalidIncrementX);
    NAME(CLBlastInvalidIncrementY);
    NAME(CLBlastInsufficientMemoryA);
    NAME(CLBlastInsufficientMemoryB);
    NAME(CLBlastInsufficientMemoryC);
    NAME(CLBlastInsufficientMemoryX);
    NAME(CLBlastInsufficientMemoryY);
    NAME(CLBlastInsufficientMemoryTemp);
    NAME(CLBlastInvalidBatchCount);
    NAME(CLBlastInvalidOverrideKernel);
    NAME(CLBlastMissingOverrideParameter);
    NAME(CLBlastInvalidLocalMemUsage);
    NAME(CLBlastNoHalfPrecision);
    NAME(CLBlastNoDoublePrecision);
    NAME(CLBlastInvalidVectorScalar);
    NAME(CLBlastInsufficientMemoryScalar);
    NAME(CLBlastDatabaseError);
    NAME(CLBlastUnknownError);
    NAME(CLBlastUnexpectedError);
  default: break;
  }
#undef NAME
  static _Thread_local char buffer[48];
  snprintf(buffer, sizeof buffer, "CLBlastStatus(%d)", status);
  return buffer;
}

void hdgcl_blas_release(void) { CLBlastClearCache(); }

int hdgcl_dgemm_strided_batched(hdgcl_context ctx, bool trans_a, bool trans_b, size_t m, size_t n,
                                size_t k, double alpha, cl_mem a, size_t a_offset, size_t lda,
                                size_t a_stride, cl_mem b, size_t b_offset, size_t ldb,
                                size_t b_stride, double beta, cl_mem c, size_t c_offset,
                                size_t ldc, size_t c_stride, size_t batch, cl_event *event) {
  /* Column-major: op(A) is m x k, so A is m x k (lda >= m) or k x m (lda >= k). */
  size_t rows_a = trans_a ? k : m, rows_b = trans_b ? n : k;
  if (m == 0 || n == 0 || k == 0 || batch == 0)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                       "DgemmStridedBatched: sizes m=%zu n=%zu k=%zu batch=%zu must be positive",
                       m, n, k, batch);
  if (lda < rows_a || ldb < rows_b || ldc < m)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                       "DgemmStridedBatched: leading dimensions lda=%zu ldb=%zu ldc=%zu below the "
                       "rows %zu, %zu, %zu",
                       lda, ldb, ldc, rows_a, rows_b, m);
  /* CLBlast's batched kernels compute each matrix's offset in 32-bit int
   * (offset + batch * stride), so every element they touch must lie below
   * 2^31 doubles; past that they would silently read the wrong matrices. */
  const size_t cols_a = trans_a ? m : k, cols_b = trans_b ? k : n;
  const size_t last_a = a_offset + (batch - 1) * a_stride + lda * cols_a;
  const size_t last_b = b_offset + (batch - 1) * b_stride + ldb * cols_b;
  const size_t last_c = c_offset + (batch - 1) * c_stride + ldc * n;
  if (last_a > INT_MAX || last_b > INT_MAX || last_c > INT_MAX)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                       "DgemmStridedBatched(m=%zu, n=%zu, k=%zu, batch=%zu) spans %zu doubles, "
                       "past CLBlast's 32-bit index limit of %d (use smaller batches)",
                       m, n, k, batch, last_a > last_b ? (last_a > last_c ? last_a : last_c)
                                                       : (last_b > last_c ? last_b : last_c),
                       INT_MAX);
  cl_event own = NULL;
  CLBlastStatusCode st = CLBlastDgemmStridedBatched(
      CLBlastLayoutColMajor, trans_a ? CLBlastTransposeYes : CLBlastTransposeNo,
      trans_b ? CLBlastTransposeYes : CLBlastTransposeNo, m, n, k, alpha, a, a_offset, lda,
      a_stride, b, b_offset, ldb, b_stride, beta, c, c_offset, ldc, c_stride, batch, &ctx->queue,
      event ? event : ctx->profile ? &own : NULL);
  if (own && st == CLBlastSuccess) {
    char name[96];
    snprintf(name, sizeof name, "CLBlast DgemmStridedBatched %s%s %zux%zux%zu", trans_a ? "T" : "N",
             trans_b ? "T" : "N", m, n, k);
    profile_record(ctx, name, own);
  }
  if (st != CLBlastSuccess)
    return hdgcl_error(HDGCL_ERROR_BLAS,
                       "CLBlastDgemmStridedBatched(m=%zu, n=%zu, k=%zu, batch=%zu) failed: %s", m,
                       n, k, batch, hdgcl_clblast_status_name(st));
  return HDGCL_SUCCESS;
}
