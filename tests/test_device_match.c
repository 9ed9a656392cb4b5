/* hdgcl_device_match on fake device lists (no OpenCL needed): every rule of
 * include/hdgcl/device.h -- auto, gpu, cpu, vendor substrings, "P:D", bad
 * "P:D", no match, a match without FP64, an empty list, and a NULL/empty
 * spec falling back to $HDGCL_DEVICE. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "hdgcl/device.h"

static hdgcl_device_info device(int p, int d, const char *platform, const char *vendor,
                                const char *name, const char *version, bool gpu, bool fp64) {
  hdgcl_device_info info;
  memset(&info, 0, sizeof info);
  info.platform_index = p;
  info.device_index = d;
  snprintf(info.platform, sizeof info.platform, "%s", platform);
  snprintf(info.vendor, sizeof info.vendor, "%s", vendor);
  snprintf(info.name, sizeof info.name, "%s", name);
  snprintf(info.version, sizeof info.version, "%s", version);
  info.is_gpu = gpu;
  info.is_cpu = !gpu;
  info.fp64 = fp64;
  info.compute_units = 4;
  info.global_mem = info.max_alloc = 1u << 30;
  return info;
}

static hdgcl_device_info nvidia(int p, int d) {
  return device(p, d, "NVIDIA CUDA", "NVIDIA Corporation", "NVIDIA H100 80GB HBM3",
                "OpenCL 3.0 CUDA", true, true);
}
static hdgcl_device_info intel_gpu(int p, int d) {
  return device(p, d, "Intel(R) OpenCL Graphics", "Intel(R) Corporation",
                "Intel(R) UHD Graphics 770", "OpenCL 3.0 NEO", true, false);
}
static hdgcl_device_info pocl_cpu(int p, int d) {
  return device(p, d, "Portable Computing Language", "AuthenticAMD",
                "pthread-znver3-AMD EPYC 7763",
                "OpenCL 3.0 PoCL HSTR: pthread-x86_64-pc-linux-gnu-znver3", false, true);
}
static hdgcl_device_info amd_gpu(int p, int d) {
  return device(p, d, "AMD Accelerated Parallel Processing", "Advanced Micro Devices, Inc.",
                "gfx90a:sramecc+:xnack-", "OpenCL 2.0 AMD-APP (3590.0)", true, true);
}

/* spec must select index `want`. */
static void expect_choice(const char *spec, const hdgcl_device_info *list, int count, int want,
                          int line) {
  int chosen = -2;
  int status = hdgcl_device_match(spec, list, count, &chosen);
  if (status != HDGCL_SUCCESS || chosen != want) {
    fprintf(stderr, "%s:%d: spec '%s': status %s, chosen %d, expected index %d (%s)\n", __FILE__,
            line, spec ? spec : "(null)", hdgcl_status_name(status), chosen, want,
            hdgcl_last_error());
    check_failures++;
  }
}

/* spec must fail with `want_status`, chosen = -1, and a one-line message containing `text`. */
static void expect_error(const char *spec, const hdgcl_device_info *list, int count,
                         int want_status, const char *text, int line) {
  int chosen = -2;
  hdgcl_clear_error();
  int status = hdgcl_device_match(spec, list, count, &chosen);
  const char *msg = hdgcl_last_error();
  if (status != want_status || chosen != -1 || !strstr(msg, text) || strchr(msg, '\n')) {
    fprintf(stderr,
            "%s:%d: spec '%s': status %s (expected %s), chosen %d, message '%s' (expected to "
            "contain '%s', one line)\n",
            __FILE__, line, spec ? spec : "(null)", hdgcl_status_name(status),
            hdgcl_status_name(want_status), chosen, msg, text);
    check_failures++;
  }
}

#define CHOICE(spec, list, want) expect_choice(spec, list, (int)(sizeof list / sizeof *list), want, __LINE__)
#define ERROR(spec, list, status, text)                                                          \
  expect_error(spec, list, (int)(sizeof list / sizeof *list), status, text, __LINE__)

int main(void) {
  unsetenv("HDGCL_DEVICE");
  /* 0:0 NVIDIA GPU (FP64), 1:0 Intel GPU (no FP64), 2:0 PoCL CPU (FP64), 2:1 second PoCL CPU. */
  hdgcl_device_info mixed[] = {nvidia(0, 0), intel_gpu(1, 0), pocl_cpu(2, 0), pocl_cpu(2, 1)};
  /* The GPU without FP64 comes first: auto must skip it. */
  hdgcl_device_info intel_first[] = {intel_gpu(0, 0), pocl_cpu(1, 0), nvidia(2, 0)};
  hdgcl_device_info intel_cpu[] = {intel_gpu(0, 0), pocl_cpu(1, 0)};
  hdgcl_device_info only_intel[] = {intel_gpu(0, 0)};
  hdgcl_device_info only_nvidia[] = {nvidia(0, 0), nvidia(0, 1)};
  hdgcl_device_info only_pocl[] = {pocl_cpu(0, 0)};
  hdgcl_device_info amd_pocl[] = {pocl_cpu(0, 0), amd_gpu(1, 0)};

  /* auto: first GPU with FP64, else a CPU (with FP64). */
  CHOICE("auto", mixed, 0);
  CHOICE("auto", intel_first, 2);
  CHOICE("auto", intel_cpu, 1);
  CHOICE("auto", only_pocl, 0);
  CHOICE("auto", amd_pocl, 1);
  ERROR("auto", only_intel, HDGCL_ERROR_UNSUPPORTED, "double precision");

  /* NULL and empty spec: auto when $HDGCL_DEVICE is unset. */
  CHOICE(NULL, mixed, 0);
  CHOICE("", mixed, 0);
  CHOICE(NULL, intel_first, 2);

  /* gpu / cpu: first device of that type with FP64; one without is refused. */
  CHOICE("gpu", mixed, 0);
  CHOICE("gpu", intel_first, 2);
  CHOICE("cpu", mixed, 2);
  CHOICE("cpu", amd_pocl, 0);
  ERROR("gpu", intel_cpu, HDGCL_ERROR_UNSUPPORTED, "cl_khr_fp64");
  ERROR("gpu", intel_cpu, HDGCL_ERROR_UNSUPPORTED, "Intel(R) UHD Graphics 770");
  ERROR("gpu", only_pocl, HDGCL_ERROR_NO_DEVICE, "no GPU device");
  ERROR("cpu", only_nvidia, HDGCL_ERROR_NO_DEVICE, "no CPU device");

  /* Case-insensitive substrings of platform, vendor, name or version. */
  CHOICE("nvidia", mixed, 0);
  CHOICE("NVIDIA", mixed, 0);
  CHOICE("Nvidia", intel_first, 2);
  CHOICE("cuda", mixed, 0);         /* platform name */
  CHOICE("h100", mixed, 0);         /* device name */
  CHOICE("pocl", mixed, 2);         /* only in the version string */
  CHOICE("PoCL", intel_first, 1);
  CHOICE("portable", mixed, 2);     /* platform name */
  CHOICE("authenticamd", mixed, 2); /* vendor */
  CHOICE("epyc", mixed, 2);
  CHOICE("amd", amd_pocl, 0);       /* "AuthenticAMD" of the PoCL CPU comes first */
  CHOICE("gfx90a", amd_pocl, 1);
  CHOICE("advanced micro", amd_pocl, 1);
  /* The only match lacks FP64: refused with a message naming the device. */
  ERROR("intel", mixed, HDGCL_ERROR_UNSUPPORTED, "has no double precision");
  ERROR("INTEL", mixed, HDGCL_ERROR_UNSUPPORTED, "1:0");
  ERROR("uhd", intel_first, HDGCL_ERROR_UNSUPPORTED, "cl_khr_fp64");
  /* No match at all. */
  ERROR("nosuchvendor", mixed, HDGCL_ERROR_NO_DEVICE, "nosuchvendor");
  ERROR("nosuchvendor", mixed, HDGCL_ERROR_NO_DEVICE, "hdgcl devices");
  ERROR("amd", only_nvidia, HDGCL_ERROR_NO_DEVICE, "no OpenCL device matches");

  /* P:D */
  CHOICE("0:0", mixed, 0);
  CHOICE("2:0", mixed, 2);
  CHOICE("2:1", mixed, 3);
  CHOICE("0:1", only_nvidia, 1);
  CHOICE("2:0", intel_first, 2);
  ERROR("1:0", mixed, HDGCL_ERROR_UNSUPPORTED, "cl_khr_fp64");
  ERROR("9:9", mixed, HDGCL_ERROR_NO_DEVICE, "no device 9:9");
  ERROR("0:1", mixed, HDGCL_ERROR_NO_DEVICE, "no device 0:1");
  ERROR("2:2", mixed, HDGCL_ERROR_NO_DEVICE, "2:2");
  ERROR("99999999999999999999:0", mixed, HDGCL_ERROR_NO_DEVICE, "99999999999999999999:0");
  /* Malformed P:D */
  ERROR("1:x", mixed, HDGCL_ERROR_ARGUMENT, "expected P:D");
  ERROR("1", mixed, HDGCL_ERROR_ARGUMENT, "expected P:D");
  ERROR("1:", mixed, HDGCL_ERROR_ARGUMENT, "1:");
  ERROR("0:0x", mixed, HDGCL_ERROR_ARGUMENT, "0:0x");
  ERROR("0:0:0", mixed, HDGCL_ERROR_ARGUMENT, "0:0:0");
  ERROR("0:-1", mixed, HDGCL_ERROR_ARGUMENT, "0:-1");
  ERROR("1x", mixed, HDGCL_ERROR_ARGUMENT, "1x");

  /* Empty list: says what to install, whatever the spec. */
  const char *specs[] = {"auto", "gpu", "cpu", "pocl", "0:0", NULL};
  for (int i = 0; specs[i]; i++) {
    int chosen = -2;
    hdgcl_clear_error();
    CHECK(hdgcl_device_match(specs[i], NULL, 0, &chosen) == HDGCL_ERROR_NO_DEVICE);
    CHECK(chosen == -1);
    CHECK_MSG(strstr(hdgcl_last_error(), "pocl-opencl-icd") && strstr(hdgcl_last_error(), "install"),
              "empty list, spec %s: '%s'", specs[i], hdgcl_last_error());
  }
  {
    int chosen = -2;
    CHECK(hdgcl_device_match(NULL, NULL, 0, &chosen) == HDGCL_ERROR_NO_DEVICE);
  }

  /* NULL / empty spec with $HDGCL_DEVICE set: the variable decides; an explicit spec wins. */
  setenv("HDGCL_DEVICE", "cpu", 1);
  CHOICE(NULL, mixed, 2);
  CHOICE("", mixed, 2);
  CHOICE("gpu", mixed, 0);
  CHOICE("auto", mixed, 0);
  setenv("HDGCL_DEVICE", "2:1", 1);
  CHOICE(NULL, mixed, 3);
  setenv("HDGCL_DEVICE", "intel", 1);
  ERROR(NULL, mixed, HDGCL_ERROR_UNSUPPORTED, "Intel(R) UHD Graphics 770");
  setenv("HDGCL_DEVICE", "", 1); /* empty: auto */
  CHOICE(NULL, intel_first, 2);
  unsetenv("HDGCL_DEVICE");
  CHOICE(NULL, mixed, 0);

  CHECK_DONE();
}
