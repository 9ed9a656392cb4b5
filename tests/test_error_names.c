/* Error names (host/core/error.c, host/core/blas.c): OpenCL codes by their CL_ name,
 * unknown codes by number, CLBlast status names, hdgcl status names, and
 * the one-line messages of hdgcl_error_cl. */
#include <clblast_c.h>
#include <string.h>

#include "core/blas.h"
#include "check.h"
#include "core/error.h"

#define CHECK_STR(got, want)                                                                     \
  CHECK_MSG(strcmp((got), (want)) == 0, "got '%s', expected '%s'", (got), (want))

int main(void) {
  /* Names checked against the numeric values of the OpenCL specification. */
  CHECK_STR(hdgcl_cl_error_name(0), "CL_SUCCESS");
  CHECK_STR(hdgcl_cl_error_name(-1), "CL_DEVICE_NOT_FOUND");
  CHECK_STR(hdgcl_cl_error_name(-4), "CL_MEM_OBJECT_ALLOCATION_FAILURE");
  CHECK_STR(hdgcl_cl_error_name(-5), "CL_OUT_OF_RESOURCES");
  CHECK_STR(hdgcl_cl_error_name(-6), "CL_OUT_OF_HOST_MEMORY");
  CHECK_STR(hdgcl_cl_error_name(-11), "CL_BUILD_PROGRAM_FAILURE");
  CHECK_STR(hdgcl_cl_error_name(-30), "CL_INVALID_VALUE");
  CHECK_STR(hdgcl_cl_error_name(-46), "CL_INVALID_KERNEL_NAME");
  CHECK_STR(hdgcl_cl_error_name(-51), "CL_INVALID_ARG_SIZE");
  CHECK_STR(hdgcl_cl_error_name(-52), "CL_INVALID_KERNEL_ARGS");
  CHECK_STR(hdgcl_cl_error_name(-54), "CL_INVALID_WORK_GROUP_SIZE");
  CHECK_STR(hdgcl_cl_error_name(-55), "CL_INVALID_WORK_ITEM_SIZE");
  CHECK_STR(hdgcl_cl_error_name(-61), "CL_INVALID_BUFFER_SIZE");
  CHECK_STR(hdgcl_cl_error_name(-68), "CL_INVALID_DEVICE_PARTITION_COUNT");
  CHECK_STR(hdgcl_cl_error_name(-69), "CL_INVALID_PIPE_SIZE");
  CHECK_STR(hdgcl_cl_error_name(-72), "CL_MAX_SIZE_RESTRICTION_EXCEEDED");
  CHECK_STR(hdgcl_cl_error_name(-1001), "CL_PLATFORM_NOT_FOUND_KHR");

  /* Every code OpenCL 1.2-3.0 defines (-1..-19, -30..-72) has its own name. */
  const char *seen[100] = {0};
  for (int code = -1; code >= -72; code--) {
    if (code < -19 && code > -30) continue;
    const char *name = hdgcl_cl_error_name(code);
    CHECK_MSG(strncmp(name, "CL_", 3) == 0 && !strstr(name, "UNKNOWN"), "code %d: '%s'", code, name);
    seen[-code] = name;
    for (int other = 1; other < -code; other++)
      if (seen[other]) CHECK_MSG(strcmp(seen[other], name) != 0, "codes %d and %d both '%s'", -other, code, name);
  }

  /* Unknown codes give their number. */
  CHECK_STR(hdgcl_cl_error_name(-9999), "CL_UNKNOWN_ERROR(-9999)");
  CHECK_STR(hdgcl_cl_error_name(-25), "CL_UNKNOWN_ERROR(-25)");
  CHECK_STR(hdgcl_cl_error_name(7), "CL_UNKNOWN_ERROR(7)");

  /* hdgcl_error_cl: "CALL(WHAT) failed: CL_NAME", memory codes map to HDGCL_ERROR_MEMORY. */
  CHECK(hdgcl_error_cl(CL_OUT_OF_RESOURCES, "clEnqueueNDRangeKernel", "local_build") ==
        HDGCL_ERROR_OPENCL);
  CHECK_STR(hdgcl_last_error(), "clEnqueueNDRangeKernel(local_build) failed: CL_OUT_OF_RESOURCES");
  CHECK(hdgcl_error_cl(CL_INVALID_KERNEL_ARGS, "clEnqueueNDRangeKernel", NULL) == HDGCL_ERROR_OPENCL);
  CHECK_STR(hdgcl_last_error(), "clEnqueueNDRangeKernel failed: CL_INVALID_KERNEL_ARGS");
  CHECK(hdgcl_error_cl(CL_MEM_OBJECT_ALLOCATION_FAILURE, "clCreateBuffer", "trace matrix") ==
        HDGCL_ERROR_MEMORY);
  CHECK_STR(hdgcl_last_error(), "clCreateBuffer(trace matrix) failed: CL_MEM_OBJECT_ALLOCATION_FAILURE");
  CHECK(hdgcl_error_cl(CL_OUT_OF_HOST_MEMORY, "clFinish", "") == HDGCL_ERROR_MEMORY);
  CHECK_STR(hdgcl_last_error(), "clFinish failed: CL_OUT_OF_HOST_MEMORY");
  CHECK(hdgcl_error_cl(-4242, "clFoo", "bar") == HDGCL_ERROR_OPENCL);
  CHECK_STR(hdgcl_last_error(), "clFoo(bar) failed: CL_UNKNOWN_ERROR(-4242)");
  hdgcl_clear_error();
  CHECK_STR(hdgcl_last_error(), "");

  /* CLBlast status names. */
  CHECK_STR(hdgcl_clblast_status_name(CLBlastSuccess), "CLBlastSuccess");
  CHECK_STR(hdgcl_clblast_status_name(-5), "CLBlastOpenCLOutOfResources");
  CHECK_STR(hdgcl_clblast_status_name(-1016), "CLBlastInvalidLeadDimA");
  CHECK_STR(hdgcl_clblast_status_name(-1009), "CLBlastInsufficientMemoryC");
  CHECK_STR(hdgcl_clblast_status_name(-2044), "CLBlastNoDoublePrecision");
  CHECK_STR(hdgcl_clblast_status_name(-2049), "CLBlastInvalidBatchCount");
  CHECK_STR(hdgcl_clblast_status_name(-2039), "CLBlastUnexpectedError");
  CHECK_STR(hdgcl_clblast_status_name(12345), "CLBlastStatus(12345)");
  CHECK_STR(hdgcl_clblast_status_name(-3000), "CLBlastStatus(-3000)");

  /* hdgcl status names: distinct, and unknown values say so. */
  for (int s = HDGCL_SUCCESS; s <= HDGCL_ERROR_INTERNAL; s++) {
    CHECK(strncmp(hdgcl_status_name(s), "HDGCL_", 6) == 0);
    CHECK(strcmp(hdgcl_status_name(s), "HDGCL_ERROR_UNKNOWN") != 0);
    for (int t = HDGCL_SUCCESS; t < s; t++) CHECK(strcmp(hdgcl_status_name(s), hdgcl_status_name(t)) != 0);
  }
  CHECK_STR(hdgcl_status_name(HDGCL_ERROR_BUILD), "HDGCL_ERROR_BUILD");
  CHECK_STR(hdgcl_status_name(HDGCL_ERROR_INTERNAL + 1), "HDGCL_ERROR_UNKNOWN");
  CHECK_STR(hdgcl_status_name(-1), "HDGCL_ERROR_UNKNOWN");
  CHECK_DONE();
}
