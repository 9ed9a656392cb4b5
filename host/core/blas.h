/* Dense batched products through CLBlast, on the context's queue. */
#ifndef HDGCL_HOST_BLAS_H
#define HDGCL_HOST_BLAS_H

#include <stdbool.h>
#include <stddef.h>

#include "core/context.h"

/* For b = 0..batch-1, column-major:
 *   C_b = alpha * op(A_b) * op(B_b) + beta * C_b,   op(X) = X or X^T,
 *   A_b = A + a_offset + b * a_stride (offsets and strides in doubles), same for B, C.
 * C_b is m x n, op(A_b) m x k, op(B_b) k x n.  Errors carry CLBlast's status name. */
int hdgcl_dgemm_strided_batched(hdgcl_context ctx, bool trans_a, bool trans_b, size_t m, size_t n,
                                size_t k, double alpha, cl_mem a, size_t a_offset, size_t lda,
                                size_t a_stride, cl_mem b, size_t b_offset, size_t ldb,
                                size_t b_stride, double beta, cl_mem c, size_t c_offset,
                                size_t ldc, size_t c_stride, size_t batch, cl_event *event);

/* Drops CLBlast's cached programs and kernels (its cache is process-wide).
 * Called before a context's OpenCL context is released, so that CLBlast does
 * not release programs of a dead context from its static destructors at exit
 * (which corrupts the heap under oclgrind). */
void hdgcl_blas_release(void);

/* Tuned CLBlast parameters (host/core/blas_tuning.c, docs/clblast-tuning.md).
 * The tuning of a device is the file named by $HDGCL_CLBLAST_TUNING if set
 * ("none": no tuning), else the embedded perf/clblast/<device name>.txt if
 * there is one (the name with each character outside [A-Za-z0-9._-] as '_').
 * `what` receives one line saying what applies, e.g. "XgemmDirect from
 * perf/clblast/NVIDIA_H100_80GB_HBM3.txt (embedded)" or "none (...)".
 * A malformed file is HDGCL_ERROR_FORMAT naming the file and line.
 *
 * describe: only finds and checks it.  apply: also hands it to CLBlast
 * (CLBlastOverrideParameters; a refusal is HDGCL_ERROR_BLAS with CLBlast's
 * status name).  CLBlast keeps overrides per device for the whole process:
 * a later context on the same device with HDGCL_CLBLAST_TUNING=none does not
 * undo them. */
int hdgcl_blas_tuning_describe(const char *device_name, char *what, size_t n);
int hdgcl_blas_tuning_apply(cl_device_id device, const char *device_name, char *what, size_t n);

/* Checks the text of a tuning file (NUL-terminated; `file` names it in
 * errors) as describe does, without applying it: tests/fuzz/fuzz_blas_tuning.c. */
int hdgcl_blas_tuning_check(const char *text, const char *file);

/* Name of a CLBlast status code ("CLBlastInvalidLeadDimA", ...). */
const char *hdgcl_clblast_status_name(int status);

#endif
