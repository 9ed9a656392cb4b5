/* Internal view of a context: the OpenCL objects, device buffers with
 * memory accounting, kernel launches with named errors.  Every stage file
 * (local.c, assemble.c, solve.c, recover.c) talks to the device through
 * these few calls. */
#ifndef HDGCL_HOST_CONTEXT_H
#define HDGCL_HOST_CONTEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <CL/cl.h>

#include "hdgcl/device.h"

typedef struct program_entry program_entry; /* in-memory program cache (program.c) */

/* Device memory by buffer name: what is held now and what was held at the
 * high water (hdgcl_context_memory_breakdown). */
typedef struct memory_ledger_entry {
  char name[64];
  uint64_t bytes, at_high_water;
} memory_ledger_entry;

struct hdgcl_context_s {
  bool reference;          /* the serial C reference path: no OpenCL objects */
  hdgcl_device_info info;
  cl_platform_id platform;
  cl_device_id device;
  cl_context context;
  cl_command_queue queue;  /* in-order, CL_QUEUE_PROFILING_ENABLE */
  bool use_cache;          /* program-binary cache on disk */
  bool verbose;
  char cache_dir[4096];
  uint64_t mem_in_use, mem_high_water;
  memory_ledger_entry *ledger; /* one entry per buffer name met so far */
  int ledger_count, ledger_capacity;
  bool memory_limited;     /* --max-device-memory lowered info.global_mem */
  /* Test hook $HDGCL_TEST_FAIL_ENQUEUE=N: the context's Nth enqueue (kernel
   * launch, read, write, copy) fails with CL_OUT_OF_RESOURCES (0: none). */
  long fail_enqueue, enqueues;
  hdgcl_progress_fn progress; /* hdgcl_context_set_progress (NULL: none) */
  void *progress_data;
  int programs_built;         /* compiled in this context (not from a cache) */
  int trials_run;             /* candidates timed by hdgcl_time_best */
  program_entry *programs;
  int num_programs;
  /* On-disk program cache counters (tests, verbose output). */
  int cache_hits, cache_misses, cache_rejected;
  cl_kernel fill; /* fill_double of cl/core/buffer.cl, built at the first fill */
  bool profile;       /* per-kernel device times (profile.c) */
  void *profile_data;
  char blas_tuning[512]; /* what CLBlast tuning applies (host/core/blas_tuning.c) */
};

/* What bounds device memory, for messages: "--max-device-memory" where that
 * option lowered it, else "the device's memory". */
const char *hdgcl_context_memory_name(hdgcl_context ctx);

/* A one-line status for the context's progress callback, if any (printf-style). */
void hdgcl_progress(hdgcl_context ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Fills info for a device of a platform (device.c). */
int hdgcl_device_describe(cl_platform_id platform, cl_device_id device, hdgcl_device_info *info);

/* Releases the programs held by the context (program.c). */
void program_cache_release(hdgcl_context ctx);

/* A device buffer and its size, so memory can be accounted for. */
typedef struct hdgcl_buffer {
  cl_mem mem;
  size_t bytes;
  int ledger; /* its name's entry in the context's ledger */
} hdgcl_buffer;

/* Allocates `bytes` (> 0) of device memory.  Refuses up front, with a message
 * naming `name` and the sizes, a buffer over the device's max allocation or one
 * that would push the total held by hdgcl past the device's global memory. */
int hdgcl_buffer_create(hdgcl_context ctx, size_t bytes, const char *name, hdgcl_buffer *buf);
/* Releases (no-op on a zeroed buffer) and zeroes *buf. */
int hdgcl_buffer_release(hdgcl_context ctx, hdgcl_buffer *buf);
/* Blocking copies between host and device; offset and bytes in bytes. */
int hdgcl_buffer_write(hdgcl_context ctx, hdgcl_buffer *buf, size_t offset, size_t bytes,
                       const void *src);
int hdgcl_buffer_read(hdgcl_context ctx, const hdgcl_buffer *buf, size_t offset, size_t bytes,
                      void *dst);
/* hdgcl_buffer_read of a solver's host synchronisation: with --profile its
 * count and time appear in the kernel table under `name` (e.g. "host read: GMRES
 * scalars"), so a run shows how often the host waited for the device. */
int hdgcl_buffer_read_named(hdgcl_context ctx, const hdgcl_buffer *buf, size_t offset,
                            size_t bytes, void *dst, const char *name);
/* Fills `bytes` bytes from offset with a repeated double value (bytes multiple of 8). */
int hdgcl_buffer_fill(hdgcl_context ctx, hdgcl_buffer *buf, size_t offset, size_t bytes,
                      double value);

/* Device-to-device copy of the first `bytes` bytes. */
int hdgcl_buffer_copy(hdgcl_context ctx, const hdgcl_buffer *src, hdgcl_buffer *dst, size_t bytes);

/* Builds (or takes from the in-memory and on-disk caches) a program from the
 * embedded kernel files named in files[0..nfiles-1] (e.g. {"common.h",
 * "local.cl"}), concatenated in that order, with build options `options`
 * (e.g. "-DORDER=3").  "-cl-std=CL1.2" is always added.  The program belongs
 * to the context: do not release it.  A compile failure is HDGCL_ERROR_BUILD
 * and prints the compiler log and the options to stderr.  If the environment
 * variable HDGCL_KERNEL_DIR is set, files are read from that directory
 * instead of the embedded copies (for editing kernels without rebuilding). */
int hdgcl_program_get(hdgcl_context ctx, const char *const *files, int nfiles, const char *options,
                      cl_program *program);

/* The same with generated text (a user's problem, host/problem/user_problem_emit.c)
 * inserted before files[prelude_at]; the caches are keyed on it too. */
int hdgcl_program_get_prelude(hdgcl_context ctx, const char *prelude, int prelude_at,
                              const char *const *files, int nfiles, const char *options,
                              cl_program *program);

/* Starts building the program hdgcl_program_get_prelude would build (prelude NULL:
 * hdgcl_program_get's) in a host thread and returns at once; the first get of the same
 * files and options waits for it and reports its failure.  Nothing is started where the
 * program is cached (in memory or on disk: then it is loaded here).  Lets independent
 * programs compile side by side (host/core/program.c).  Does nothing on CPU devices
 * unless $HDGCL_BUILD_THREADS=on (off: nowhere); another value is an error. */
int hdgcl_program_prefetch(hdgcl_context ctx, const char *prelude, int prelude_at,
                           const char *const *files, int nfiles, const char *options);

/* Waits for every prefetch still building (e.g. before timing kernels on a CPU device);
 * a failed one is dropped, and a later get builds it again and reports the error. */
void hdgcl_program_wait(hdgcl_context ctx);

/* Builds from literal source text (tests, micro-benchmarks); same caching rules. */
int hdgcl_program_get_source(hdgcl_context ctx, const char *name, const char *source,
                             const char *options, cl_program *program);
/* Writes the binaries of the programs built since the last call to the disk
 * cache (host/core/program.c: deferred past the results, since reading a
 * binary back costs PoCL a compile of every kernel in it).  Called when a
 * solver ends and when the context ends. */
void hdgcl_program_cache_store(hdgcl_context ctx);

/* A tuning record (a short text value, e.g. the kernel a timed trial chose)
 * for this device and `label`, kept beside the program binaries (not with
 * --no-cache).  load: true and value filled when a record exists. */
bool hdgcl_tuning_load(hdgcl_context ctx, const char *label, char *value, size_t n);
void hdgcl_tuning_store(hdgcl_context ctx, const char *label, const char *value);

/* clCreateKernel with a named error; release with clReleaseKernel. */
int hdgcl_kernel_create(cl_program program, const char *name, cl_kernel *kernel);

/* Kernel arguments: a value by size and address; value NULL = __local of `size` bytes. */
typedef struct hdgcl_arg {
  size_t size;
  const void *value;
} hdgcl_arg;
#define HDGCL_ARG(x) ((hdgcl_arg){sizeof(x), &(x)})
#define HDGCL_ARG_LOCAL(bytes) ((hdgcl_arg){(bytes), NULL})
int hdgcl_kernel_set_args(cl_kernel kernel, int nargs, const hdgcl_arg *args);

/* Enqueues an NDRange; global sizes are rounded up to multiples of local
 * (when local is given) so kernels must bounds-check.  event may be NULL.
 * Errors name the kernel (from CL_KERNEL_FUNCTION_NAME). */
int hdgcl_kernel_launch(hdgcl_context ctx, cl_kernel kernel, cl_uint dim, const size_t *global,
                        const size_t *local, cl_event *event);

/* Enqueues a 1D kernel of `global` work-items that names no work-group
 * size (the kernel returns past its count or strides by the global size:
 * the launch is rounded up).  On GPUs groups of HDGCL_GPU_WG (capped by the
 * device's and the kernel's largest group): left to pick, NVIDIA's driver
 * takes a divisor of the global size, so an awkward count gets tiny groups
 * (docs/mpi.md, "Scaling": vector updates 15 times slower).  CPU devices
 * still pick (PoCL's choice feeds its vectoriser). */
#define HDGCL_GPU_WG 128
int hdgcl_kernel_launch_items(hdgcl_context ctx, cl_kernel kernel, size_t global);

/* Face blocks of nf work-items each that fit whole in a work-group of at most
 * min(max_wg, cap) work-items; at least 1 (a block larger than the group
 * still gets a group of its own).  The one rule for kernels that give each
 * face block nf work-items of a shared group: spmv_bell_tc (TC_FACES, cap
 * 128) and block-Jacobi's local-memory setup (BJ_FACES, cap 64). */
int hdgcl_faces_per_group(size_t max_wg, size_t cap, int nf);

/* clFinish on the context's queue. */
int hdgcl_context_finish(hdgcl_context ctx);

/* Seconds between an event's CL_PROFILING_COMMAND_START and _END (0 on error). */
double hdgcl_event_seconds(cl_event event);

/* Wall-clock seconds (monotonic). */
double hdgcl_wtime(void);

/* Work to time (or to redo before each timing) on data. */
typedef int (*hdgcl_timed_fn)(void *data);

/* The timing policy of the trials that choose kernels (host/pipeline/local.c's
 * methods, host/core/batched_gemm.c's tilings): run's time per call, the best of
 * HDGCL_TIMINGS timings, each of back-to-back calls enough to span
 * HDGCL_TIMING_SPAN seconds (at most 16, so that the host's wait for the
 * queue, several microseconds and varying, does not decide between kernels of
 * a few tens of microseconds), as two warm-up timings find.  before (NULL:
 * none) runs untimed before each timing; *calls (NULL: not wanted) gets the
 * calls per timing. */
#define HDGCL_TIMINGS 3
#define HDGCL_TIMING_SPAN 2e-4
int hdgcl_time_best(hdgcl_context ctx, hdgcl_timed_fn run, hdgcl_timed_fn before, void *data,
                    double *seconds, int *calls);

#endif
