/* Pinned host memory: an OpenCL buffer in host memory (CL_MEM_ALLOC_HOST_PTR),
 * mapped once (pinned.h says why). */
#include <string.h>

#include "core/error.h"
#include "core/pinned.h"

int hdgcl_pinned_create(hdgcl_context ctx, size_t bytes, const char *name, hdgcl_pinned *p) {
  *p = (hdgcl_pinned){0};
  cl_int err;
  p->mem = clCreateBuffer(ctx->context, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes, NULL,
                          &err);
  if (err != CL_SUCCESS) {
    p->mem = NULL;
    return hdgcl_error_cl(err, "clCreateBuffer", name);
  }
  p->ptr = clEnqueueMapBuffer(ctx->queue, p->mem, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes, 0,
                              NULL, NULL, &err);
  if (err != CL_SUCCESS || !p->ptr) {
    clReleaseMemObject(p->mem);
    *p = (hdgcl_pinned){0};
    return hdgcl_error_cl(err != CL_SUCCESS ? err : CL_MAP_FAILURE, "clEnqueueMapBuffer", name);
  }
  p->bytes = bytes;
  memset(p->ptr, 0, bytes);
  return HDGCL_SUCCESS;
}

void hdgcl_pinned_release(hdgcl_context ctx, hdgcl_pinned *p) {
  if (p->mem) {
    if (p->ptr && clEnqueueUnmapMemObject(ctx->queue, p->mem, p->ptr, 0, NULL, NULL) == CL_SUCCESS)
      clFinish(ctx->queue);
    clReleaseMemObject(p->mem);
  }
  *p = (hdgcl_pinned){0};
}
