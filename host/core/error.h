/* Internal error discipline (PETSc style): every function returns an int
 * status; failures record a one-line message with hdgcl_error*() and the
 * status travels up unchanged through HDGCL_TRY / HDGCL_TRY_GOTO. */
#ifndef HDGCL_HOST_ERROR_H
#define HDGCL_HOST_ERROR_H

#include <stddef.h>

#include <CL/cl.h>

#include "hdgcl/status.h"

/* Records the message (printf format) and returns status. */
int hdgcl_error(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Records "CALL(WHAT) failed: CL_NAME" and returns HDGCL_ERROR_OPENCL
 * (HDGCL_ERROR_MEMORY for the out-of-memory codes).  what may be NULL. */
int hdgcl_error_cl(cl_int err, const char *call, const char *what);

/* "CL_OUT_OF_RESOURCES" etc.; "CL_UNKNOWN_ERROR(-1234)" style for others
 * (returned in a thread-local buffer). */
const char *hdgcl_cl_error_name(cl_int err);

/* A line of generated OpenCL C may end with the comment
 * "/" "* " HDGCL_SOURCE_ORIGIN "NAME *" "/" naming what it was generated from (a
 * user's expression, host/problem/user_problem_emit.c): a compiler error on
 * that line is then reported as NAME's, in one line, instead of the
 * compiler's log (host/core/program.c). */
#define HDGCL_SOURCE_ORIGIN "hdgcl-origin: "

/* Zeroed allocation of count*size bytes into *(void **)out; on failure
 * records "out of host memory allocating WHAT (N bytes)". */
int hdgcl_calloc(size_t count, size_t size, const char *what, void *out);

#define HDGCL_TRY(expr)                                                                          \
  do {                                                                                           \
    int hdgcl_try_status_ = (expr);                                                              \
    if (hdgcl_try_status_ != HDGCL_SUCCESS) return hdgcl_try_status_;                            \
  } while (0)

#define HDGCL_TRY_GOTO(status, expr, label)                                                      \
  do {                                                                                           \
    (status) = (expr);                                                                           \
    if ((status) != HDGCL_SUCCESS) goto label;                                                   \
  } while (0)

/* An OpenCL call whose cl_int result must be CL_SUCCESS. */
#define HDGCL_CL(call_expr, call_name, what)                                                     \
  do {                                                                                           \
    cl_int hdgcl_cl_err_ = (call_expr);                                                          \
    if (hdgcl_cl_err_ != CL_SUCCESS) return hdgcl_error_cl(hdgcl_cl_err_, call_name, what);      \
  } while (0)

#define HDGCL_CL_GOTO(status, call_expr, call_name, what, label)                                 \
  do {                                                                                           \
    cl_int hdgcl_cl_err_ = (call_expr);                                                          \
    if (hdgcl_cl_err_ != CL_SUCCESS) {                                                           \
      (status) = hdgcl_error_cl(hdgcl_cl_err_, call_name, what);                                 \
      goto label;                                                                                \
    }                                                                                            \
  } while (0)

#endif
