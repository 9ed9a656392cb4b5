/* Device enumeration and the selection rules of include/hdgcl/device.h. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CL/cl.h>

#include "core/error.h"
#include "hdgcl/device.h"

/* Platforms with the "no ICD registered" code counted as zero. */
static int platform_ids(cl_platform_id **ids, cl_uint *count) {
  *ids = NULL;
  *count = 0;
  cl_int err = clGetPlatformIDs(0, NULL, count);
  if (err == -1001 /* CL_PLATFORM_NOT_FOUND_KHR */ || (err == CL_SUCCESS && *count == 0)) {
    *count = 0;
    return HDGCL_SUCCESS;
  }
  if (err != CL_SUCCESS) return hdgcl_error_cl(err, "clGetPlatformIDs", NULL);
  HDGCL_TRY(hdgcl_calloc(*count, sizeof **ids, "platform list", ids));
  err = clGetPlatformIDs(*count, *ids, NULL);
  if (err != CL_SUCCESS) {
    free(*ids);
    *ids = NULL;
    return hdgcl_error_cl(err, "clGetPlatformIDs", NULL);
  }
  return HDGCL_SUCCESS;
}

static void info_string(cl_device_id d, cl_device_info what, char *out, size_t n) {
  out[0] = '\0';
  if (clGetDeviceInfo(d, what, n, out, NULL) != CL_SUCCESS) out[0] = '\0';
  out[n - 1] = '\0';
}

int hdgcl_device_describe(cl_platform_id platform, cl_device_id d, hdgcl_device_info *info) {
  memset(info, 0, sizeof *info);
  if (clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof info->platform, info->platform, NULL) !=
      CL_SUCCESS)
    info->platform[0] = '\0';
  info->platform[sizeof info->platform - 1] = '\0';
  info_string(d, CL_DEVICE_VENDOR, info->vendor, sizeof info->vendor);
  info_string(d, CL_DEVICE_NAME, info->name, sizeof info->name);
  info_string(d, CL_DEVICE_VERSION, info->version, sizeof info->version);
  info_string(d, CL_DRIVER_VERSION, info->driver, sizeof info->driver);
  cl_device_type type = 0;
  cl_uint cu = 0, clock = 0;
  cl_ulong gmem = 0, lmem = 0, maxalloc = 0;
  size_t maxwg = 0;
  clGetDeviceInfo(d, CL_DEVICE_TYPE, sizeof type, &type, NULL);
  clGetDeviceInfo(d, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cu, &cu, NULL);
  clGetDeviceInfo(d, CL_DEVICE_MAX_CLOCK_FREQUENCY, sizeof clock, &clock, NULL);
  clGetDeviceInfo(d, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof gmem, &gmem, NULL);
  clGetDeviceInfo(d, CL_DEVICE_LOCAL_MEM_SIZE, sizeof lmem, &lmem, NULL);
  clGetDeviceInfo(d, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof maxalloc, &maxalloc, NULL);
  clGetDeviceInfo(d, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof maxwg, &maxwg, NULL);
  info->is_gpu = (type & CL_DEVICE_TYPE_GPU) != 0;
  info->is_cpu = (type & CL_DEVICE_TYPE_CPU) != 0;
  info->compute_units = cu;
  info->clock_mhz = clock;
  info->global_mem = gmem;
  info->local_mem = lmem;
  info->max_alloc = maxalloc;
  info->max_work_group = maxwg;
  /* FP64: the extension (OpenCL 1.x/2.x) or a non-zero double config (3.0). */
  size_t n = 0;
  char *ext = NULL;
  if (clGetDeviceInfo(d, CL_DEVICE_EXTENSIONS, 0, NULL, &n) == CL_SUCCESS && n &&
      (ext = malloc(n + 1))) {
    if (clGetDeviceInfo(d, CL_DEVICE_EXTENSIONS, n, ext, NULL) == CL_SUCCESS) {
      ext[n] = '\0';
      info->fp64 = strstr(ext, "cl_khr_fp64") != NULL;
    }
    free(ext);
  }
  cl_device_fp_config fp = 0;
  if (!info->fp64 && clGetDeviceInfo(d, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof fp, &fp, NULL) == CL_SUCCESS)
    info->fp64 = fp != 0;
  return HDGCL_SUCCESS;
}

int hdgcl_device_list(hdgcl_device_info **list, int *count) {
  *list = NULL;
  *count = 0;
  cl_platform_id *platforms;
  cl_uint np;
  HDGCL_TRY(platform_ids(&platforms, &np));
  int status = HDGCL_SUCCESS, total = 0;
  hdgcl_device_info *out = NULL;
  for (cl_uint p = 0; p < np; p++) {
    cl_uint nd = 0;
    cl_int err = clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 0, NULL, &nd);
    if (err == CL_DEVICE_NOT_FOUND || nd == 0) continue;
    if (err != CL_SUCCESS) {
      status = hdgcl_error_cl(err, "clGetDeviceIDs", NULL);
      goto done;
    }
    cl_device_id *ids;
    HDGCL_TRY_GOTO(status, hdgcl_calloc(nd, sizeof *ids, "device list", &ids), done);
    err = clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, nd, ids, NULL);
    if (err != CL_SUCCESS) {
      free(ids);
      status = hdgcl_error_cl(err, "clGetDeviceIDs", NULL);
      goto done;
    }
    hdgcl_device_info *grown = realloc(out, sizeof *out * (total + nd));
    if (!grown) {
      free(ids);
      status = hdgcl_error(HDGCL_ERROR_MEMORY, "out of host memory listing devices");
      goto done;
    }
    out = grown;
    for (cl_uint d = 0; d < nd; d++) {
      hdgcl_device_describe(platforms[p], ids[d], &out[total]);
      out[total].platform_index = (int)p;
      out[total].device_index = (int)d;
      total++;
    }
    free(ids);
  }
done:
  free(platforms);
  if (status != HDGCL_SUCCESS) {
    free(out);
    return status;
  }
  *list = out;
  *count = total;
  return HDGCL_SUCCESS;
}

static bool contains_nocase(const char *hay, const char *needle) {
  size_t n = strlen(needle);
  for (; *hay; hay++) {
    size_t i = 0;
    while (i < n && hay[i] && tolower((unsigned char)hay[i]) == tolower((unsigned char)needle[i]))
      i++;
    if (i == n) return true;
  }
  return n == 0;
}

static int refuse_fp64(const hdgcl_device_info *d) {
  return hdgcl_error(HDGCL_ERROR_UNSUPPORTED,
                     "device %d:%d '%s' (%s) has no double precision (cl_khr_fp64); hdgcl needs FP64",
                     d->platform_index, d->device_index, d->name, d->platform);
}

int hdgcl_device_match(const char *spec, const hdgcl_device_info *list, int count, int *chosen) {
  *chosen = -1;
  const char *source = "--device"; /* named in the messages: where the spec came from */
  if (!spec || !spec[0]) {
    spec = getenv("HDGCL_DEVICE"); /* the rule of include/hdgcl/device.h */
    source = "HDGCL_DEVICE";
  }
  if (!spec || !spec[0]) spec = "auto";
  if (count == 0)
    return hdgcl_error(HDGCL_ERROR_NO_DEVICE,
                       "no OpenCL device found: install an OpenCL driver (e.g. 'apt-get install "
                       "pocl-opencl-icd' for the CPU, or your GPU vendor's OpenCL runtime)");
  if (!strcmp(spec, "auto")) {
    for (int pass = 0; pass < 3; pass++)
      for (int i = 0; i < count; i++) {
        bool ok = list[i].fp64 && (pass == 0   ? list[i].is_gpu
                                   : pass == 1 ? list[i].is_cpu
                                               : true);
        if (ok) {
          *chosen = i;
          return HDGCL_SUCCESS;
        }
      }
    return hdgcl_error(HDGCL_ERROR_UNSUPPORTED,
                       "none of the %d OpenCL device(s) supports double precision (cl_khr_fp64); "
                       "install pocl-opencl-icd for a CPU device that does",
                       count);
  }
  if (!strcmp(spec, "gpu") || !strcmp(spec, "cpu")) {
    bool gpu = spec[0] == 'g';
    int first = -1;
    for (int i = 0; i < count; i++)
      if (gpu ? list[i].is_gpu : list[i].is_cpu) {
        if (list[i].fp64) {
          *chosen = i;
          return HDGCL_SUCCESS;
        }
        if (first < 0) first = i;
      }
    if (first >= 0) return refuse_fp64(&list[first]);
    return hdgcl_error(HDGCL_ERROR_NO_DEVICE, "%s %s: no %s device found", source, spec,
                       gpu ? "GPU" : "CPU");
  }
  /* P:D */
  if (isdigit((unsigned char)spec[0])) {
    char *end;
    long p = strtol(spec, &end, 10), d = -1;
    if (*end == ':' && isdigit((unsigned char)end[1])) d = strtol(end + 1, &end, 10);
    if (d < 0 || *end != '\0')
      return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                         "%s %s: expected P:D (platform and device index), auto, gpu, cpu, "
                         "ref or a vendor name",
                         source, spec);
    for (int i = 0; i < count; i++)
      if (list[i].platform_index == p && list[i].device_index == d) {
        if (!list[i].fp64) return refuse_fp64(&list[i]);
        *chosen = i;
        return HDGCL_SUCCESS;
      }
    return hdgcl_error(HDGCL_ERROR_NO_DEVICE,
                       "%s %s: no device %ld:%ld (see 'hdgcl devices')", source, spec, p, d);
  }
  int first = -1;
  for (int i = 0; i < count; i++)
    /* PoCL names itself in the version string ("OpenCL 3.0 PoCL ..."), not the platform name. */
    if (contains_nocase(list[i].platform, spec) || contains_nocase(list[i].vendor, spec) ||
        contains_nocase(list[i].name, spec) || contains_nocase(list[i].version, spec)) {
      if (list[i].fp64) {
        *chosen = i;
        return HDGCL_SUCCESS;
      }
      if (first < 0) first = i;
    }
  if (first >= 0) return refuse_fp64(&list[first]);
  return hdgcl_error(HDGCL_ERROR_NO_DEVICE,
                     "%s %s: no OpenCL device matches (see 'hdgcl devices')", source, spec);
}
