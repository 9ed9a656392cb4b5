/* Devices and contexts.
 *
 * A context is one compute device with its command queue, kernel program
 * cache and CLBlast binding, chosen by one string (libCEED style):
 *   "auto"      first GPU with FP64, else a CPU device (the default)
 *   "gpu"/"cpu" first device of that type with FP64
 *   "nvidia", "amd", "intel", "pocl", ...  case-insensitive substring of the
 *               platform name, vendor, device name or device version
 *   "P:D"       platform index P, device index D (as listed by hdgcl devices)
 *   "ref"       the serial C reference path (no OpenCL)
 * A NULL or empty spec means $HDGCL_DEVICE, or "auto" if that is unset. */
#ifndef HDGCL_DEVICE_H
#define HDGCL_DEVICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hdgcl/options.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hdgcl_device_info {
  int platform_index, device_index; /* the "P:D" of this device */
  char platform[128];               /* platform name */
  char vendor[128];
  char name[128];
  char version[128];                /* device OpenCL version string */
  char driver[128];                 /* driver version */
  bool is_gpu, is_cpu;
  unsigned compute_units;
  unsigned clock_mhz;
  uint64_t global_mem;              /* bytes */
  uint64_t local_mem;               /* bytes per work-group */
  uint64_t max_alloc;               /* largest single buffer, bytes */
  size_t max_work_group;
  bool fp64;                        /* cl_khr_fp64 (or OpenCL C 3.0 __opencl_c_fp64) */
} hdgcl_device_info;

/* Every OpenCL device of every platform.  *list is malloc'd: free() it.
 * No platform at all yields *count = 0 and HDGCL_SUCCESS. */
int hdgcl_device_list(hdgcl_device_info **list, int *count);

/* Applies the selection rules above to a device list; *chosen = index into
 * list.  Clear errors: nothing matches, the match lacks FP64, bad "P:D". */
int hdgcl_device_match(const char *spec, const hdgcl_device_info *list, int count, int *chosen);

/* The host CPU as hwloc sees it (for reports and benchmarks). */
typedef struct hdgcl_host_info {
  char cpu_model[128];
  int packages, cores, pus, numa_nodes;
  uint64_t l1d_bytes, l2_bytes, l3_bytes; /* size of one cache of each level (0 if absent) */
  uint64_t memory_bytes;                  /* total machine memory */
} hdgcl_host_info;

int hdgcl_host_info_get(hdgcl_host_info *info);

typedef struct hdgcl_context_s *hdgcl_context;

/* Names of the options hdgcl_context_create reads (NULL-terminated). */
extern const char *const hdgcl_context_options[];

/* Options read: "no-cache" (bool), "cache-dir" (string; default
 * $XDG_CACHE_HOME/hdgcl or ~/.cache/hdgcl), "verbose" (bool), "profile"
 * (bool), "max-device-memory" (a size such as "512M" or "2G": hdgcl uses at
 * most that much device memory, batching the local stage to fit, and
 * refuses a problem that cannot fit before allocating). */
int hdgcl_context_create(const char *spec, hdgcl_options opts, hdgcl_context *ctx);
int hdgcl_context_destroy(hdgcl_context *ctx);

/* Progress of the long steps (kernel compilation on a cold cache, the
 * timed trials, the Krylov iterations): fn(data, line) with a one-line
 * status, e.g. "compiling kernels for NVIDIA H100 (3 so far, cached for
 * next time)".  For a terminal; the hdgcl tool shows it on stderr when
 * that is one and --quiet is not given.  fn NULL: none (the default). */
typedef void (*hdgcl_progress_fn)(void *data, const char *line);
int hdgcl_context_set_progress(hdgcl_context ctx, hdgcl_progress_fn fn, void *data);

/* Info of the context's device; for the reference path the name is "reference (serial C)". */
int hdgcl_context_info(hdgcl_context ctx, hdgcl_device_info *info);
bool hdgcl_context_is_reference(hdgcl_context ctx);

/* Bytes of device memory currently held by hdgcl buffers and the peak so far. */
int hdgcl_context_memory(hdgcl_context ctx, uint64_t *in_use, uint64_t *high_water);

/* What the peak was made of: the bytes each buffer name held at the high
 * water (buffers of one name summed; names as in hdgcl's out-of-memory
 * messages, e.g. "trace matrix values"), largest first.  Fills at most max
 * entries of uses (their names stay valid while ctx lives); *count = the
 * number of names that held memory then.  None on the reference path. */
typedef struct hdgcl_memory_use {
  const char *name;
  uint64_t bytes;
} hdgcl_memory_use;
int hdgcl_context_memory_breakdown(hdgcl_context ctx, int max, hdgcl_memory_use *uses, int *count);

#ifdef __cplusplus
}
#endif
#endif
