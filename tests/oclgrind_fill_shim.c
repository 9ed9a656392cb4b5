/* LD_PRELOAD shim for the oclgrind test: clEnqueueFillBuffer done as a
 * blocking clEnqueueWriteBuffer of the repeated pattern.  Oclgrind 21.10's
 * --uninitialized plugin does not see a fill as initialising memory, so every
 * kernel reading a buffer zeroed by hdgcl_buffer_fill would be reported
 * (a false positive); a write is tracked correctly.  Test tool only. */
#include <stdlib.h>
#include <string.h>

#include <CL/cl.h>

CL_API_ENTRY cl_int CL_API_CALL clEnqueueFillBuffer(cl_command_queue queue, cl_mem buffer,
                                                    const void *pattern, size_t pattern_size,
                                                    size_t offset, size_t size,
                                                    cl_uint num_events, const cl_event *events,
                                                    cl_event *event) {
  if (!pattern || pattern_size == 0 || size % pattern_size || offset % pattern_size)
    return CL_INVALID_VALUE;
  if (size == 0) return CL_SUCCESS;
  unsigned char *host = malloc(size);
  if (!host) return CL_OUT_OF_HOST_MEMORY;
  for (size_t i = 0; i < size; i += pattern_size) memcpy(host + i, pattern, pattern_size);
  cl_int err = clEnqueueWriteBuffer(queue, buffer, CL_TRUE, offset, size, host, num_events, events, event);
  free(host);
  return err;
}
