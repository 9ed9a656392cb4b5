/* Status codes and error messages.
 *
 * Every hdgcl call returns an int: HDGCL_SUCCESS (0) or one of the codes
 * below.  On failure a one-line message naming the input and the problem is
 * kept per thread and returned by hdgcl_last_error(). */
#ifndef HDGCL_STATUS_H
#define HDGCL_STATUS_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum hdgcl_status {
  HDGCL_SUCCESS = 0,
  HDGCL_ERROR_ARGUMENT,    /* invalid argument or option value */
  HDGCL_ERROR_IO,          /* a file could not be opened, read or written */
  HDGCL_ERROR_FORMAT,      /* malformed input file */
  HDGCL_ERROR_MESH,        /* invalid mesh (degenerate element, non-manifold face...) */
  HDGCL_ERROR_NO_DEVICE,   /* no OpenCL platform/device, or none matching the spec */
  HDGCL_ERROR_UNSUPPORTED, /* device lacks a needed feature (e.g. cl_khr_fp64) */
  HDGCL_ERROR_OPENCL,      /* an OpenCL call failed */
  HDGCL_ERROR_BUILD,       /* an OpenCL program failed to compile */
  HDGCL_ERROR_BLAS,        /* a CLBlast routine failed */
  HDGCL_ERROR_MEMORY,      /* host or device allocation failed or would not fit */
  HDGCL_ERROR_CONVERGENCE, /* an iterative solver did not converge */
  HDGCL_ERROR_INTERNAL     /* a bug: an invariant did not hold */
} hdgcl_status;

/* Symbolic name of a status code, e.g. "HDGCL_ERROR_MESH". */
const char *hdgcl_status_name(int status);

/* Message of the latest failure in the calling thread ("" if none). */
const char *hdgcl_last_error(void);

/* Clears the calling thread's message. */
void hdgcl_clear_error(void);

#ifdef __cplusplus
}
#endif
#endif
