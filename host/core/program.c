/* Kernel programs: sources from the embedded copies of cl/ (or from
 * $HDGCL_KERNEL_DIR), clBuildProgram with the compiler log on failure, an
 * in-memory cache per context, and an on-disk cache of program binaries.
 *
 * Disk entry <cache_dir>/<key>.bin: a header (magic, format version, the
 * 128-bit key, binary length, checksum of the binary) and the binary.  The key
 * hashes the platform, device, driver, options and full source text, so any
 * change makes a new entry.  A missing, truncated, corrupt or stale entry (or
 * one the driver refuses) is rebuilt from source and rewritten, never trusted.
 *
 * Binaries are written when a solver or the context ends
 * (hdgcl_program_cache_store), not when built.
 *
 * hdgcl_program_prefetch starts a program's clBuildProgram in a host thread
 * (pthreads; OpenCL's build of one program is thread-safe against calls on
 * other objects) and returns: the first hdgcl_program_get of the same source
 * and options joins it, reports its failure by name as a build of its own
 * would, and takes it.  So a solver's independent programs compile side by
 * side (NVIDIA compiles every kernel in clBuildProgram).  Only the thread
 * touches its job; the cache itself is changed by the calling thread alone.
 * A prefetch never asked for is joined and released with the context.
 * Only on GPUs unless $HDGCL_BUILD_THREADS says otherwise (threads_wanted).
 *
 * Tuning records (hdgcl_tuning_load/store) sit beside the binaries as
 * <cache_dir>/<key>.tune: one line, the key hashing the same device identity
 * and the record's label. */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/context.h"
#include "core/error.h"
#include "core/temp_file.h"
#include "core/kernel_sources.h"

#define CACHE_MAGIC "HDGCLBIN"
#define CACHE_FORMAT 1u

/* A clBuildProgram running in its own thread (hdgcl_program_prefetch). */
typedef struct build_job {
  pthread_t thread;
  cl_program program;
  cl_device_id device;
  char *what, *options, *source; /* for the messages of build_failure */
  cl_int err;                      /* the thread's result */
  double seconds;
} build_job;

struct program_entry {
  uint64_t key[2];
  cl_program program;
  bool store;     /* built here: its binary goes to the disk cache when the context ends */
  build_job *job; /* not NULL while a prefetch's build may run: join before use */
};

typedef struct cache_header {
  char magic[8];
  uint32_t format, reserved;
  uint64_t key[2];
  uint64_t length;
  uint64_t checksum;
} cache_header;

/* Two independent 64-bit hashes (FNV-1a and a multiply-xorshift mix). */
typedef struct hasher {
  uint64_t a, b;
} hasher;

static void hash_init(hasher *h) {
  h->a = 0xcbf29ce484222325ull;
  h->b = 0x9e3779b97f4a7c15ull;
}

static void hash_bytes(hasher *h, const void *data, size_t n) {
  const unsigned char *p = data;
  for (size_t i = 0; i < n; i++) {
    h->a = (h->a ^ p[i]) * 0x100000001b3ull;
    h->b = (h->b ^ p[i]) * 0xff51afd7ed558ccdull;
    h->b ^= h->b >> 29;
  }
  /* Separate consecutive fields ("ab","c" differs from "a","bc"). */
  uint64_t len = n;
  for (int i = 0; i < 8; i++) {
    h->a = (h->a ^ ((len >> (8 * i)) & 0xff)) * 0x100000001b3ull;
    h->b = (h->b ^ ((len >> (8 * i)) & 0xff)) * 0xc4ceb9fe1a85ec53ull;
  }
}

static void hash_string(hasher *h, const char *s) { hash_bytes(h, s, strlen(s)); }

static uint64_t checksum(const unsigned char *p, size_t n) {
  hasher h;
  hash_init(&h);
  hash_bytes(&h, p, n);
  return h.a ^ (h.b << 1);
}

/* Text of kernel file `name`: $HDGCL_KERNEL_DIR/name or the embedded copy (malloc'd). */
static int load_source(const char *name, char **text) {
  const char *dir = getenv("HDGCL_KERNEL_DIR");
  if (dir && dir[0]) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (!f) return hdgcl_error(HDGCL_ERROR_IO, "cannot read kernel file %s (HDGCL_KERNEL_DIR)", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    int status = n < 0 ? hdgcl_error(HDGCL_ERROR_IO, "cannot read %s", path)
                       : hdgcl_calloc((size_t)n + 1, 1, "kernel source", text);
    if (status == HDGCL_SUCCESS && fread(*text, 1, (size_t)n, f) != (size_t)n) {
      free(*text);
      *text = NULL;
      status = hdgcl_error(HDGCL_ERROR_IO, "cannot read %s", path);
    }
    fclose(f);
    return status;
  }
  for (const hdgcl_kernel_source *s = hdgcl_kernel_sources; s->name; s++)
    if (!strcmp(s->name, name)) {
      HDGCL_TRY(hdgcl_calloc(s->length + 1, 1, "kernel source", text));
      memcpy(*text, s->text, s->length);
      return HDGCL_SUCCESS;
    }
  return hdgcl_error(HDGCL_ERROR_INTERNAL, "no kernel file %s is embedded", name);
}

static void cache_path(hdgcl_context ctx, const uint64_t key[2], char *out, size_t n) {
  snprintf(out, n, "%s/%016llx%016llx.bin", ctx->cache_dir, (unsigned long long)key[0],
           (unsigned long long)key[1]);
}

static int make_dirs(const char *dir) {
  char path[4096];
  snprintf(path, sizeof path, "%s", dir);
  for (char *p = path + 1; *p; p++)
    if (*p == '/') {
      *p = '\0';
      if (mkdir(path, 0755) != 0 && errno != EEXIST) return -1;
      *p = '/';
    }
  return (mkdir(path, 0755) != 0 && errno != EEXIST) ? -1 : 0;
}

/* A program from the disk cache, or NULL (counted as rejected when an entry
 * existed but was unusable). */
static cl_program cache_load(hdgcl_context ctx, const uint64_t key[2], const char *options) {
  char path[4200];
  cache_path(ctx, key, path, sizeof path);
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  cache_header h;
  unsigned char *bin = NULL;
  cl_program program = NULL;
  if (fread(&h, sizeof h, 1, f) != 1 || memcmp(h.magic, CACHE_MAGIC, 8) != 0 ||
      h.format != CACHE_FORMAT || h.key[0] != key[0] || h.key[1] != key[1] || h.length == 0 ||
      h.length > ((uint64_t)1 << 32))
    goto reject;
  bin = malloc(h.length);
  if (!bin || fread(bin, 1, h.length, f) != h.length || fgetc(f) != EOF ||
      checksum(bin, h.length) != h.checksum)
    goto reject;
  size_t len = h.length;
  const unsigned char *bins[1] = {bin};
  cl_int err, binary_status;
  program = clCreateProgramWithBinary(ctx->context, 1, &ctx->device, &len, bins, &binary_status, &err);
  if (err != CL_SUCCESS || binary_status != CL_SUCCESS) {
    if (program) clReleaseProgram(program);
    program = NULL;
    goto reject;
  }
  if (clBuildProgram(program, 1, &ctx->device, options, NULL, NULL) != CL_SUCCESS) {
    clReleaseProgram(program);
    program = NULL;
    goto reject;
  }
  free(bin);
  fclose(f);
  ctx->cache_hits++;
  return program;
reject:
  free(bin);
  fclose(f);
  ctx->cache_rejected++;
  if (ctx->verbose) fprintf(stderr, "hdgcl: program cache entry %s unusable, rebuilding\n", path);
  return NULL;
}

static void cache_store(hdgcl_context ctx, const uint64_t key[2], cl_program program) {
  size_t len = 0;
  if (clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof len, &len, NULL) != CL_SUCCESS ||
      len == 0)
    return;
  unsigned char *bin = malloc(len);
  if (!bin) return;
  unsigned char *bins[1] = {bin};
  if (clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof bins, bins, NULL) != CL_SUCCESS) {
    free(bin);
    return;
  }
  if (make_dirs(ctx->cache_dir) != 0) {
    if (ctx->verbose) fprintf(stderr, "hdgcl: cannot create cache directory %s\n", ctx->cache_dir);
    free(bin);
    return;
  }
  cache_header h;
  memset(&h, 0, sizeof h);
  memcpy(h.magic, CACHE_MAGIC, 8);
  h.format = CACHE_FORMAT;
  h.key[0] = key[0];
  h.key[1] = key[1];
  h.length = len;
  h.checksum = checksum(bin, len);
  char path[4096];
  cache_path(ctx, key, path, sizeof path);
  /* A failure only loses the cache entry: no error. */
  hdgcl_temp_file out;
  if (hdgcl_temp_open(&out, path, "wb") == HDGCL_SUCCESS) {
    if (fwrite(&h, sizeof h, 1, out.f) == 1 && fwrite(bin, 1, len, out.f) == len)
      (void)hdgcl_temp_commit(&out);
    hdgcl_temp_discard(&out);
  }
  free(bin);
}

/* The first error of a compiler log that gives its place as ":LINE:COL:"
 * (clang's form, which PoCL and NVIDIA's compilers print): its line in the
 * source, and its message (from "error: " on, or after the place) in msg. */
static bool first_error(const char *log, long *line, char *msg, size_t n) {
  for (const char *l = log; l && *l;) {
    const char *end = strchr(l, '\n');
    size_t len = end ? (size_t)(end - l) : strlen(l);
    char text[1024];
    snprintf(text, sizeof text, "%.*s", (int)(len < sizeof text ? len : sizeof text - 1), l);
    l = end ? end + 1 : NULL;
    if (!strstr(text, "error")) continue;
    for (char *c = strchr(text, ':'); c; c = strchr(c + 1, ':')) {
      char *p = c + 1, *q;
      long ln = strtol(p, &q, 10);
      if (q == p || *q != ':' || ln <= 0) continue;
      p = q + 1;
      strtol(p, &q, 10);
      if (q == p || *q != ':') continue;
      const char *m = strstr(q, "error: ");
      m = m ? m + 7 : q + 1;
      while (*m == ' ') m++;
      *line = ln;
      snprintf(msg, n, "%s", m);
      return true;
    }
  }
  return false;
}

/* The NAME of the "HDGCL_SOURCE_ORIGIN NAME" comment on line `line` of
 * source (host/core/error.h), or false. */
static bool line_origin(const char *source, long line, char *name, size_t n) {
  const char *l = source;
  for (long k = 1; k < line && l; k++) {
    l = strchr(l, '\n');
    if (l) l++;
  }
  if (!l) return false;
  const char *end = strchr(l, '\n');
  size_t len = end ? (size_t)(end - l) : strlen(l);
  const char *o = strstr(l, HDGCL_SOURCE_ORIGIN);
  if (!o || o >= l + len) return false;
  o += strlen(HDGCL_SOURCE_ORIGIN);
  const char *close = strstr(o, " */");
  if (!close) return false;
  snprintf(name, n, "%.*s", (int)(close - o), o);
  return true;
}

/* Returns HDGCL_ERROR_BUILD.  A failure on a line generated from a user's
 * expression names the expression in one line (the log only with
 * --verbose); any other prints the compiler log first: it is ours. */
static int build_failure(hdgcl_context ctx, cl_program program, cl_int err, const char *what,
                         const char *options, const char *source) {
  size_t n = 0;
  char *log = NULL;
  if (clGetProgramBuildInfo(program, ctx->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &n) == CL_SUCCESS &&
      n && (log = malloc(n + 1))) {
    if (clGetProgramBuildInfo(program, ctx->device, CL_PROGRAM_BUILD_LOG, n, log, NULL) != CL_SUCCESS)
      log[0] = '\0';
    log[n] = '\0';
  }
  long line = 0;
  char msg[512] = "", origin[512] = "";
  bool user = first_error(log, &line, msg, sizeof msg) &&
              line_origin(source, line, origin, sizeof origin);
  if (!user || ctx->verbose)
    fprintf(stderr, "hdgcl: OpenCL compiler log for %s on %s\nhdgcl: build options: %s\n%s\n", what,
            ctx->info.name, options, log ? log : "(no log)");
  free(log);
  if (user)
    return hdgcl_error(HDGCL_ERROR_BUILD,
                       "%s: the OpenCL compiler of %s refused the code made from this expression: "
                       "%s (%s; simplify the expression)",
                       origin, ctx->info.name, msg, hdgcl_cl_error_name(err));
  return hdgcl_error(HDGCL_ERROR_BUILD, "clBuildProgram(%s) failed: %s (see the compiler log above)",
                     what, hdgcl_cl_error_name(err));
}

/* The device identity every cache key starts with: platform and its
 * version, device name and version, driver. */
static void hash_device(hasher *h, hdgcl_context ctx) {
  hash_string(h, ctx->info.platform);
  char pversion[256] = "";
  clGetPlatformInfo(ctx->platform, CL_PLATFORM_VERSION, sizeof pversion, pversion, NULL);
  pversion[sizeof pversion - 1] = '\0';
  hash_string(h, pversion);
  hash_string(h, ctx->info.name);
  hash_string(h, ctx->info.version);
  hash_string(h, ctx->info.driver);
}

static void tuning_path(hdgcl_context ctx, const char *label, char *out, size_t n) {
  hasher h;
  hash_init(&h);
  hash_string(&h, "hdgcl tuning v1");
  hash_device(&h, ctx);
  hash_string(&h, label);
  snprintf(out, n, "%s/%016llx%016llx.tune", ctx->cache_dir, (unsigned long long)h.a,
           (unsigned long long)h.b);
}

bool hdgcl_tuning_load(hdgcl_context ctx, const char *label, char *value, size_t n) {
  if (!ctx->use_cache || ctx->reference || n == 0) return false;
  char path[4200];
  tuning_path(ctx, label, path, sizeof path);
  FILE *f = fopen(path, "r");
  if (!f) return false;
  bool ok = fgets(value, (int)n, f) != NULL;
  fclose(f);
  if (ok) value[strcspn(value, "\r\n")] = '\0';
  return ok && value[0];
}

void hdgcl_tuning_store(hdgcl_context ctx, const char *label, const char *value) {
  if (!ctx->use_cache || ctx->reference || make_dirs(ctx->cache_dir) != 0) return;
  char path[4096];
  tuning_path(ctx, label, path, sizeof path);
  hdgcl_temp_file out; /* a failure only loses the record: no error */
  if (hdgcl_temp_open(&out, path, "w") != HDGCL_SUCCESS) return;
  if (fprintf(out.f, "%s\n", value) > 0) (void)hdgcl_temp_commit(&out);
  hdgcl_temp_discard(&out);
}

/* --verbose: one line per program compiled, with its kernels, the seconds
 * of clBuildProgram and its options. */
static void report_build(hdgcl_context ctx, cl_program p, const char *what, const char *options,
                         double built) {
  size_t kernels = 0;
  if (clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof kernels, &kernels, NULL) != CL_SUCCESS)
    kernels = 0;
  fprintf(stderr, "hdgcl: built %s: %zu kernels in %.2f s (clBuildProgram); options %s\n", what,
          kernels, built, options);
}

static void *build_thread(void *arg) {
  build_job *job = arg;
  double t0 = hdgcl_wtime();
  job->err = clBuildProgram(job->program, 1, &job->device, job->options, NULL, NULL);
  job->seconds = hdgcl_wtime() - t0;
  return NULL;
}

static void free_job(build_job *job) {
  free(job->what);
  free(job->options);
  free(job->source);
  free(job);
}

/* Waits for the job's thread; returns its clBuildProgram result. */
static cl_int finish_job(build_job *job) {
  pthread_join(job->thread, NULL);
  cl_int err = job->err;
  free_job(job);
  return err;
}

/* Starts p's build in a thread: *job, or NULL (nothing started, no error)
 * where no thread could be made; the caller then builds it itself. */
static int start_job(hdgcl_context ctx, cl_program p, const char *what, const char *options,
                     const char *source, build_job **job) {
  *job = NULL;
  build_job *j;
  HDGCL_TRY(hdgcl_calloc(1, sizeof *j, "kernel build job", &j));
  j->program = p;
  j->device = ctx->device;
  j->what = strdup(what);
  j->options = strdup(options);
  j->source = strdup(source);
  if (!j->what || !j->options || !j->source) {
    free_job(j);
    return hdgcl_error(HDGCL_ERROR_MEMORY, "out of host memory for the build of %s", what);
  }
  if (pthread_create(&j->thread, NULL, build_thread, j) != 0) {
    free_job(j);
    return HDGCL_SUCCESS;
  }
  *job = j;
  return HDGCL_SUCCESS;
}

/* Joins entry i's build, if any.  A failure is reported as a build's own
 * (report: the compiler log and the error naming the program; without it,
 * a line under --verbose) and the entry is removed. */
static int join_entry(hdgcl_context ctx, int i, bool report) {
  build_job *job = ctx->programs[i].job;
  if (!job) return HDGCL_SUCCESS;
  ctx->programs[i].job = NULL;
  pthread_join(job->thread, NULL);
  cl_program p = ctx->programs[i].program;
  int status = HDGCL_SUCCESS;
  if (job->err == CL_SUCCESS) {
    if (ctx->use_cache) ctx->cache_misses++;
    if (ctx->verbose) {
      char what[600];
      snprintf(what, sizeof what, "%s (in a thread)", job->what);
      report_build(ctx, p, what, job->options, job->seconds);
    }
  } else {
    if (report)
      status = build_failure(ctx, p, job->err, job->what, job->options, job->source);
    else if (ctx->verbose)
      fprintf(stderr, "hdgcl: unused prefetched build of %s failed: %s\n", job->what,
              hdgcl_cl_error_name(job->err));
    clReleaseProgram(p);
    ctx->programs[i] = ctx->programs[--ctx->num_programs];
  }
  free_job(job);
  return status;
}

/* Builds `source` (named `what` in messages) through both caches; with
 * prefetch, starts its build in a thread and returns (program unused). */
static int get_program(hdgcl_context ctx, const char *what, const char *source, const char *user_options,
                       bool prefetch, cl_program *program) {
  if (ctx->reference)
    return hdgcl_error(HDGCL_ERROR_INTERNAL, "kernel program %s asked of the reference path", what);
  char options[2048];
  snprintf(options, sizeof options, "-cl-std=CL1.2 %s", user_options ? user_options : "");
  hasher h;
  hash_init(&h);
  hash_string(&h, "hdgcl program cache v1");
  hash_device(&h, ctx);
  hash_string(&h, options);
  hash_string(&h, source);
  uint64_t key[2] = {h.a, h.b};
  for (int i = 0; i < ctx->num_programs; i++)
    if (ctx->programs[i].key[0] == key[0] && ctx->programs[i].key[1] == key[1]) {
      if (prefetch) return HDGCL_SUCCESS;
      HDGCL_TRY(join_entry(ctx, i, true));
      *program = ctx->programs[i].program;
      return HDGCL_SUCCESS;
    }
  cl_program p = ctx->use_cache ? cache_load(ctx, key, options) : NULL;
  bool loaded = p != NULL;
  if (ctx->verbose) fprintf(stderr, "hdgcl: program cache %s %s\n", p ? "hit" : "miss", what);
  build_job *job = NULL;
  if (!p) {
    cl_int err;
    size_t len = strlen(source);
    p = clCreateProgramWithSource(ctx->context, 1, &source, &len, &err);
    if (err != CL_SUCCESS) return hdgcl_error_cl(err, "clCreateProgramWithSource", what);
    hdgcl_progress(ctx, "compiling kernels for %s (%d so far%s)", ctx->info.name,
                   ++ctx->programs_built, ctx->use_cache ? ", cached for next time" : "");
    if (prefetch) {
      int status = start_job(ctx, p, what, options, source, &job);
      if (status != HDGCL_SUCCESS) {
        clReleaseProgram(p);
        return status;
      }
    }
    if (!job) { /* not a prefetch, or no thread could start: build here */
      double t0 = hdgcl_wtime();
      err = clBuildProgram(p, 1, &ctx->device, options, NULL, NULL);
      double built = hdgcl_wtime() - t0;
      if (err != CL_SUCCESS) {
        int status = build_failure(ctx, p, err, what, options, source);
        clReleaseProgram(p);
        return status;
      }
      if (ctx->use_cache) ctx->cache_misses++;
      if (ctx->verbose) report_build(ctx, p, what, options, built);
    }
  }
  program_entry *grown = realloc(ctx->programs, sizeof *grown * (ctx->num_programs + 1));
  if (!grown) {
    if (job) finish_job(job);
    clReleaseProgram(p);
    return hdgcl_error(HDGCL_ERROR_MEMORY, "out of host memory caching program %s", what);
  }
  ctx->programs = grown;
  ctx->programs[ctx->num_programs].key[0] = key[0];
  ctx->programs[ctx->num_programs].key[1] = key[1];
  ctx->programs[ctx->num_programs].program = p;
  ctx->programs[ctx->num_programs].store = ctx->use_cache && !loaded;
  ctx->programs[ctx->num_programs].job = job;
  ctx->num_programs++;
  if (!prefetch) *program = p;
  return HDGCL_SUCCESS;
}

int hdgcl_program_get(hdgcl_context ctx, const char *const *files, int nfiles, const char *options,
                      cl_program *program) {
  return hdgcl_program_get_prelude(ctx, NULL, 0, files, nfiles, options, program);
}

static int get_files(hdgcl_context ctx, const char *prelude, int prelude_at,
                     const char *const *files, int nfiles, const char *options, bool prefetch,
                     cl_program *program) {
  char what[512] = "";
  size_t total = 1 + (prelude ? strlen(prelude) + 64 : 0);
  char **texts;
  HDGCL_TRY(hdgcl_calloc(nfiles, sizeof *texts, "kernel sources", &texts));
  int status = HDGCL_SUCCESS;
  for (int i = 0; i < nfiles && status == HDGCL_SUCCESS; i++) {
    status = load_source(files[i], &texts[i]);
    if (status == HDGCL_SUCCESS) total += strlen(texts[i]) + strlen(files[i]) + 64;
    if (i) strncat(what, "+", sizeof what - strlen(what) - 1);
    strncat(what, files[i], sizeof what - strlen(what) - 1);
  }
  char *source = NULL;
  if (status == HDGCL_SUCCESS) status = hdgcl_calloc(total, 1, "kernel source", &source);
  if (status == HDGCL_SUCCESS) {
    size_t off = 0;
    for (int i = 0; i < nfiles; i++) {
      if (prelude && i == prelude_at)
        off += (size_t)snprintf(source + off, total - off, "/* ---- prelude ---- */\n%s\n", prelude);
      off += (size_t)snprintf(source + off, total - off, "/* ---- %s ---- */\n%s\n", files[i], texts[i]);
    }
    status = get_program(ctx, what, source, options, prefetch, program);
  }
  for (int i = 0; i < nfiles; i++) free(texts[i]);
  free(texts);
  free(source);
  return status;
}

int hdgcl_program_get_prelude(hdgcl_context ctx, const char *prelude, int prelude_at,
                              const char *const *files, int nfiles, const char *options,
                              cl_program *program) {
  return get_files(ctx, prelude, prelude_at, files, nfiles, options, false, program);
}

/* Builds in threads on GPUs (NVIDIA compiles every kernel in clBuildProgram), not on
 * CPU devices: PoCL's clBuildProgram only parses (the kernels compile at their first
 * launch), and side by side on 2 cores the default solve's five builds took 2.9 s against
 * 1.7 s one after another.  $HDGCL_BUILD_THREADS=on|off overrides. */
static int threads_wanted(hdgcl_context ctx, bool *on) {
  const char *env = getenv("HDGCL_BUILD_THREADS");
  *on = !ctx->info.is_cpu;
  if (!env || !env[0]) return HDGCL_SUCCESS;
  if (strcmp(env, "on") && strcmp(env, "off"))
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "HDGCL_BUILD_THREADS=%s: expected on or off", env);
  *on = !strcmp(env, "on");
  return HDGCL_SUCCESS;
}

int hdgcl_program_prefetch(hdgcl_context ctx, const char *prelude, int prelude_at,
                           const char *const *files, int nfiles, const char *options) {
  bool on;
  HDGCL_TRY(threads_wanted(ctx, &on));
  if (!on) return HDGCL_SUCCESS; /* the get builds it */
  return get_files(ctx, prelude, prelude_at, files, nfiles, options, true, NULL);
}

/* Joins every prefetch still running; those that failed and were never
 * asked for are dropped (a later get builds them again and reports). */
static void join_all(hdgcl_context ctx) {
  for (int i = ctx->num_programs - 1; i >= 0; i--)
    if (ctx->programs[i].job) (void)join_entry(ctx, i, false);
}

void hdgcl_program_wait(hdgcl_context ctx) { join_all(ctx); }

int hdgcl_program_get_source(hdgcl_context ctx, const char *name, const char *source,
                             const char *options, cl_program *program) {
  return get_program(ctx, name, source, options, false, program);
}

/* The binaries of the programs built in this context go to the disk cache
 * when a solver ends (hdgcl_solver_destroy: a second solver on the same
 * context, or another context in the same process, then finds them) and at
 * the context's end, after the results: on PoCL reading a program's binary compiles
 * every kernel in it, work
 * that a run which launches a few of them should not wait for before its
 * first result (docs/tuning.md, "Start-up"). */
void hdgcl_program_cache_store(hdgcl_context ctx) {
  join_all(ctx);
  double t = hdgcl_wtime();
  int stored = 0;
  for (int i = 0; i < ctx->num_programs; i++)
    if (ctx->programs[i].store) {
      cache_store(ctx, ctx->programs[i].key, ctx->programs[i].program);
      ctx->programs[i].store = false;
      stored++;
    }
  if (ctx->verbose && stored)
    fprintf(stderr, "hdgcl: %d program binaries written to the cache in %.2f s\n", stored,
            hdgcl_wtime() - t);
}

void program_cache_release(hdgcl_context ctx) {
  hdgcl_program_cache_store(ctx);
  for (int i = 0; i < ctx->num_programs; i++) clReleaseProgram(ctx->programs[i].program);
  free(ctx->programs);
  ctx->programs = NULL;
  ctx->num_programs = 0;
}
