/* Status names, per-thread error messages and OpenCL error names. */
#include "core/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static _Thread_local char last_message[1024];

const char *hdgcl_status_name(int status) {
  switch (status) {
  case HDGCL_SUCCESS: return "HDGCL_SUCCESS";
  case HDGCL_ERROR_ARGUMENT: return "HDGCL_ERROR_ARGUMENT";
  case HDGCL_ERROR_IO: return "HDGCL_ERROR_IO";
  case HDGCL_ERROR_FORMAT: return "HDGCL_ERROR_FORMAT";
  case HDGCL_ERROR_MESH: return "HDGCL_ERROR_MESH";
  case HDGCL_ERROR_NO_DEVICE: return "HDGCL_ERROR_NO_DEVICE";
  case HDGCL_ERROR_UNSUPPORTED: return "HDGCL_ERROR_UNSUPPORTED";
  case HDGCL_ERROR_OPENCL: return "HDGCL_ERROR_OPENCL";
  case HDGCL_ERROR_BUILD: return "HDGCL_ERROR_BUILD";
  case HDGCL_ERROR_BLAS: return "HDGCL_ERROR_BLAS";
  case HDGCL_ERROR_MEMORY: return "HDGCL_ERROR_MEMORY";
  case HDGCL_ERROR_CONVERGENCE: return "HDGCL_ERROR_CONVERGENCE";
  case HDGCL_ERROR_INTERNAL: return "HDGCL_ERROR_INTERNAL";
  default: return "HDGCL_ERROR_UNKNOWN";
  }
}

const char *hdgcl_last_error(void) { return last_message; }

void hdgcl_clear_error(void) { last_message[0] = '\0'; }

int hdgcl_error(int status, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(last_message, sizeof last_message, fmt, ap);
  va_end(ap);
  return status;
}

int hdgcl_error_cl(cl_int err, const char *call, const char *what) {
  int status = (err == CL_OUT_OF_HOST_MEMORY || err == CL_MEM_OBJECT_ALLOCATION_FAILURE)
                   ? HDGCL_ERROR_MEMORY
                   : HDGCL_ERROR_OPENCL;
  if (what && what[0])
    return hdgcl_error(status, "%s(%s) failed: %s", call, what, hdgcl_cl_error_name(err));
  return hdgcl_error(status, "%s failed: %s", call, hdgcl_cl_error_name(err));
}

int hdgcl_calloc(size_t count, size_t size, const char *what, void *out) {
  void *p = (count && size) ? calloc(count, size) : calloc(1, 1);
  *(void **)out = p;
  if (!p)
    return hdgcl_error(HDGCL_ERROR_MEMORY, "out of host memory allocating %s (%zu bytes)", what,
                       count * size);
  return HDGCL_SUCCESS;
}

const char *hdgcl_cl_error_name(cl_int err) {
#define NAME(code)                                                                               \
  case code: return #code
  switch (err) {
    NAME(CL_SUCCESS);
    NAME(CL_DEVICE_NOT_FOUND);
    NAME(CL_DEVICE_NOT_AVAILABLE);
    NAME(CL_COMPILER_NOT_AVAILABLE);
    NAME(CL_MEM_OBJECT_ALLOCATION_FAILURE);
    NAME(CL_OUT_OF_RESOURCES);
    NAME(CL_OUT_OF_HOST_MEMORY);
    NAME(CL_PROFILING_INFO_NOT_AVAILABLE);
    NAME(CL_MEM_COPY_OVERLAP);
    NAME(CL_IMAGE_FORMAT_MISMATCH);
    NAME(CL_IMAGE_FORMAT_NOT_SUPPORTED);
    NAME(CL_BUILD_PROGRAM_FAILURE);
    NAME(CL_MAP_FAILURE);
    NAME(CL_MISALIGNED_SUB_BUFFER_OFFSET);
    NAME(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    NAME(CL_COMPILE_PROGRAM_FAILURE);
    NAME(CL_LINKER_NOT_AVAILABLE);
    NAME(CL_LINK_PROGRAM_FAILURE);
    NAME(CL_DEVICE_PARTITION_FAILED);
    NAME(CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
    NAME(CL_INVALID_VALUE);
    NAME(CL_INVALID_DEVICE_TYPE);
    NAME(CL_INVALID_PLATFORM);
    NAME(CL_INVALID_DEVICE);
    NAME(CL_INVALID_CONTEXT);
    NAME(CL_INVALID_QUEUE_PROPERTIES);
    NAME(CL_INVALID_COMMAND_QUEUE);
    NAME(CL_INVALID_HOST_PTR);
    NAME(CL_INVALID_MEM_OBJECT);
    NAME(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    NAME(CL_INVALID_IMAGE_SIZE);
    NAME(CL_INVALID_SAMPLER);
    NAME(CL_INVALID_BINARY);
    NAME(CL_INVALID_BUILD_OPTIONS);
    NAME(CL_INVALID_PROGRAM);
    NAME(CL_INVALID_PROGRAM_EXECUTABLE);
    NAME(CL_INVALID_KERNEL_NAME);
    NAME(CL_INVALID_KERNEL_DEFINITION);
    NAME(CL_INVALID_KERNEL);
    NAME(CL_INVALID_ARG_INDEX);
    NAME(CL_INVALID_ARG_VALUE);
    NAME(CL_INVALID_ARG_SIZE);
    NAME(CL_INVALID_KERNEL_ARGS);
    NAME(CL_INVALID_WORK_DIMENSION);
    NAME(CL_INVALID_WORK_GROUP_SIZE);
    NAME(CL_INVALID_WORK_ITEM_SIZE);
    NAME(CL_INVALID_GLOBAL_OFFSET);
    NAME(CL_INVALID_EVENT_WAIT_LIST);
    NAME(CL_INVALID_EVENT);
    NAME(CL_INVALID_OPERATION);
    NAME(CL_INVALID_GL_OBJECT);
    NAME(CL_INVALID_BUFFER_SIZE);
    NAME(CL_INVALID_MIP_LEVEL);
    NAME(CL_INVALID_GLOBAL_WORK_SIZE);
    NAME(CL_INVALID_PROPERTY);
    NAME(CL_INVALID_IMAGE_DESCRIPTOR);
    NAME(CL_INVALID_COMPILER_OPTIONS);
    NAME(CL_INVALID_LINKER_OPTIONS);
    NAME(CL_INVALID_DEVICE_PARTITION_COUNT);
  /* OpenCL 2.x/3.0 codes (not in the 1.2 headers this project targets). */
  case -69: return "CL_INVALID_PIPE_SIZE";
  case -70: return "CL_INVALID_DEVICE_QUEUE";
  case -71: return "CL_INVALID_SPEC_ID";
  case -72: return "CL_MAX_SIZE_RESTRICTION_EXCEEDED";
  case -1001: return "CL_PLATFORM_NOT_FOUND_KHR";
  default: break;
  }
#undef NAME
  static _Thread_local char buffer[48];
  snprintf(buffer, sizeof buffer, "CL_UNKNOWN_ERROR(%d)", (int)err);
  return buffer;
}
