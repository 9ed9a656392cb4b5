/* The kernel program caches (host/core/program.c) on PoCL (or $HDGCL_DEVICE), in a temporary
 * cache directory: a first build is a miss that writes one entry, a second
 * context hits it, corrupted entries (a flipped byte, truncation, trailing
 * bytes, a wrong header) are rejected and rebuilt, other options or source
 * give another entry, "no-cache" writes nothing, and a kernel with a syntax
 * error is HDGCL_ERROR_BUILD with the compiler log and options on stderr.  A prefetch
 * (hdgcl_program_prefetch) builds in a thread that the first get of the same program
 * joins: one miss, the same program, a failure reported by that get with the program's
 * name; a prefetch never asked for is released with the context. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/context.h"
#include "hdg_test.h"

static const char *source_a =
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "__kernel void scale(__global double *x) { x[get_global_id(0)] *= SCALE; }\n";
static const char *source_b =
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "__kernel void scale(__global double *x) { x[get_global_id(0)] *= SCALE + 1.0; }\n";

static char cache_dir[256];
static char spec[128] = "pocl"; /* $HDGCL_DEVICE if set */

/* Number of *.bin entries in dir (0 if it does not exist); the name of the last one. */
static int count_entries(const char *dir, char *last, size_t n) {
  DIR *d = opendir(dir);
  if (!d) return 0;
  int count = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    size_t len = strlen(e->d_name);
    if (e->d_name[0] == '.') continue;
    CHECK_MSG(len > 4 && !strcmp(e->d_name + len - 4, ".bin"), "stray file %s in cache", e->d_name);
    if (len > 4 && !strcmp(e->d_name + len - 4, ".bin")) {
      count++;
      if (last) snprintf(last, n, "%s/%s", dir, e->d_name);
    }
  }
  closedir(d);
  return count;
}

static hdgcl_context open_context(const char *dir, bool no_cache) {
  return test_context_cached_on(spec, dir, no_cache);
}

/* Builds source with -DSCALE=scale and checks the program computes x *= factor. */
static void build_and_run(hdgcl_context ctx, const char *source, const char *options, double factor) {
  cl_program program = NULL;
  CHECK_OK(hdgcl_program_get_source(ctx, "scale", source, options, &program));
  if (!program) return;
  cl_kernel k = NULL;
  CHECK_OK(hdgcl_kernel_create(program, "scale", &k));
  if (!k) return;
  double x[4] = {1, 2, 3, 4}, y[4];
  hdgcl_buffer b;
  CHECK_OK(hdgcl_buffer_create(ctx, sizeof x, "x", &b));
  CHECK_OK(hdgcl_buffer_write(ctx, &b, 0, sizeof x, x));
  hdgcl_arg args[] = {HDGCL_ARG(b.mem)};
  CHECK_OK(hdgcl_kernel_set_args(k, 1, args));
  size_t global = 4;
  CHECK_OK(hdgcl_kernel_launch(ctx, k, 1, &global, NULL, NULL));
  CHECK_OK(hdgcl_buffer_read(ctx, &b, 0, sizeof y, y));
  for (int i = 0; i < 4; i++) CHECK_NEAR(y[i], x[i] * factor, 0.0);
  CHECK_OK(hdgcl_buffer_release(ctx, &b));
  clReleaseKernel(k);
}

/* One fresh context building (source, options): expected hits/misses/rejections. */
static void expect_counts(const char *source, const char *options, double factor, int hits,
                          int misses, int rejected, int line) {
  hdgcl_context ctx = open_context(cache_dir, false);
  if (!ctx) return;
  build_and_run(ctx, source, options, factor);
  if (ctx->cache_hits != hits || ctx->cache_misses != misses || ctx->cache_rejected != rejected) {
    fprintf(stderr, "%s:%d: cache hits %d misses %d rejected %d, expected %d %d %d\n", __FILE__,
            line, ctx->cache_hits, ctx->cache_misses, ctx->cache_rejected, hits, misses, rejected);
    check_failures++;
  }
  hdgcl_context_destroy(&ctx);
}

static long file_size(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

static void flip_byte(const char *path, long offset) {
  FILE *f = fopen(path, "r+b");
  CHECK(f != NULL);
  if (!f) return;
  fseek(f, offset, SEEK_SET);
  int c = fgetc(f);
  fseek(f, offset, SEEK_SET);
  fputc(c ^ 0x5a, f);
  fclose(f);
}

/* Runs one build of a source with a syntax error, stderr captured in a file. */
static void check_build_error(hdgcl_context ctx) {
  char log_path[300];
  snprintf(log_path, sizeof log_path, "%s/stderr.txt", cache_dir);
  fflush(stderr);
  int saved = dup(2);
  FILE *capture = fopen(log_path, "w");
  CHECK(capture != NULL && saved >= 0);
  if (!capture || saved < 0) return;
  dup2(fileno(capture), 2);
  cl_program program = NULL;
  int status = hdgcl_program_get_source(
      ctx, "broken_kernel", "__kernel void broken(__global double *x) { x[0] = 1.0 +; }\n",
      "-DMARKER_OPTION=42", &program);
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  fclose(capture);
  CHECK(status == HDGCL_ERROR_BUILD);
  CHECK_MSG(strstr(hdgcl_last_error(), "clBuildProgram(broken_kernel)") &&
                strstr(hdgcl_last_error(), "CL_BUILD_PROGRAM_FAILURE"),
            "message '%s'", hdgcl_last_error());
  char text[8192] = "";
  FILE *f = fopen(log_path, "r");
  if (f) {
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
  }
  remove(log_path);
  CHECK_MSG(strstr(text, "compiler log for broken_kernel"), "stderr: %s", text);
  CHECK_MSG(strstr(text, "-DMARKER_OPTION=42") && strstr(text, "-cl-std=CL1.2"),
            "options not on stderr: %s", text);
  CHECK_MSG(strstr(text, "error"), "no compiler error in the log: %s", text);
}

int main(void) {
  const char *env = getenv("HDGCL_DEVICE");
  if (env && env[0] && strcmp(env, "ref") != 0) snprintf(spec, sizeof spec, "%s", env);
  test_cache_dir_create(cache_dir, sizeof cache_dir, "hdgcl-cache-test");
  /* A cache directory that does not exist yet: created on the first store. */
  char dir_store[300];
  snprintf(dir_store, sizeof dir_store, "%s", cache_dir);
  strncat(cache_dir, "/sub/dir", sizeof cache_dir - strlen(cache_dir) - 1);
  char entry[600];

  /* First build: a miss that writes one entry. */
  expect_counts(source_a, "-DSCALE=2.0", 2.0, 0, 1, 0, __LINE__);
  CHECK(count_entries(cache_dir, entry, sizeof entry) == 1);
  long size = file_size(entry);
  CHECK(size > 64);
  /* Second context: a hit, nothing new written. */
  expect_counts(source_a, "-DSCALE=2.0", 2.0, 1, 0, 0, __LINE__);
  CHECK(count_entries(cache_dir, NULL, 0) == 1);

  /* In-memory cache: the same program twice in one context is built once. */
  {
    hdgcl_context ctx = open_context(cache_dir, false);
    cl_program p1 = NULL, p2 = NULL;
    CHECK_OK(hdgcl_program_get_source(ctx, "scale", source_a, "-DSCALE=2.0", &p1));
    CHECK_OK(hdgcl_program_get_source(ctx, "scale", source_a, "-DSCALE=2.0", &p2));
    CHECK(p1 && p1 == p2 && ctx->num_programs == 1);
    CHECK(ctx->cache_hits == 1 && ctx->cache_misses == 0);
    hdgcl_context_destroy(&ctx);
  }

  /* Corrupt entries are rejected, rebuilt and rewritten (the next context hits again). */
  flip_byte(entry, size / 2); /* in the binary: checksum mismatch */
  expect_counts(source_a, "-DSCALE=2.0", 2.0, 0, 1, 1, __LINE__);
  expect_counts(source_a, "-DSCALE=2.0", 2.0, 1, 0, 0, __LINE__);
  /* (A driver's binary of a rebuilt program need not have the same size.) */
  size = file_size(entry);
  CHECK(size > 64);
  CHECK(truncate(entry, size / 3) == 0); /* truncated binary */
  expect_counts(source_a, "-DSCALE=2.0", 2.0, 0, 1, 1, __LINE__);
  CHECK(file_size(entry) > size / 3);
  CHECK(truncate(entry, 10) == 0); /* truncated header */
  expect_counts(source_a, "-DSCALE=2.0", 2.0, 0, 1, 1, __LINE__);
  flip_byte(entry, 0); /* magic */
  expect_counts(source_a, "-DSCALE=2.0", 2.0, 0, 1, 1, __LINE__);
  flip_byte(entry, 20); /* key in the header */
  expect_counts(source_a, "-DSCALE=2.0", 2.0, 0, 1, 1, __LINE__);
  {
    FILE *f = fopen(entry, "ab"); /* trailing garbage */
    CHECK(f != NULL);
    if (f) fputs("garbage", f), fclose(f);
  }
  expect_counts(source_a, "-DSCALE=2.0", 2.0, 0, 1, 1, __LINE__);
  CHECK(truncate(entry, 0) == 0); /* empty file */
  expect_counts(source_a, "-DSCALE=2.0", 2.0, 0, 1, 1, __LINE__);
  expect_counts(source_a, "-DSCALE=2.0", 2.0, 1, 0, 0, __LINE__);
  CHECK(count_entries(cache_dir, NULL, 0) == 1);

  /* Other options or other source: another key, another entry. */
  expect_counts(source_a, "-DSCALE=3.0", 3.0, 0, 1, 0, __LINE__);
  CHECK(count_entries(cache_dir, NULL, 0) == 2);
  expect_counts(source_b, "-DSCALE=2.0", 3.0, 0, 1, 0, __LINE__);
  CHECK(count_entries(cache_dir, NULL, 0) == 3);
  expect_counts(source_a, "-DSCALE=2.0 ", 2.0, 0, 1, 0, __LINE__); /* even one space */
  CHECK(count_entries(cache_dir, NULL, 0) == 4);
  expect_counts(source_b, "-DSCALE=2.0", 3.0, 1, 0, 0, __LINE__);
  expect_counts(source_a, "-DSCALE=3.0", 3.0, 1, 0, 0, __LINE__);

  /* A kernel file through hdgcl_program_get is cached too. */
  {
    hdgcl_context ctx = open_context(cache_dir, false);
    const char *files[] = {"core/common.h", "core/selftest.cl"};
    cl_program p = NULL;
    CHECK_OK(hdgcl_program_get(ctx, files, 2, "", &p));
    CHECK(ctx->cache_misses == 1);
    hdgcl_context_destroy(&ctx);
    ctx = open_context(cache_dir, false);
    CHECK_OK(hdgcl_program_get(ctx, files, 2, "", &p));
    CHECK(ctx->cache_hits == 1 && ctx->cache_misses == 0);
    CHECK(count_entries(cache_dir, NULL, 0) == 5);
    /* A file that is not embedded. */
    const char *missing[] = {"core/common.h", "nosuch.cl"};
    CHECK_FAILS(hdgcl_program_get(ctx, missing, 2, "", &p), HDGCL_ERROR_INTERNAL);
    CHECK(strstr(hdgcl_last_error(), "nosuch.cl") != NULL);
    hdgcl_context_destroy(&ctx);
  }

  /* no-cache: builds and runs, writes nothing, counts nothing. */
  {
    char empty_dir[400];
    snprintf(empty_dir, sizeof empty_dir, "%s/nocache", dir_store);
    hdgcl_context ctx = open_context(empty_dir, true);
    if (ctx) {
      CHECK(!ctx->use_cache);
      build_and_run(ctx, source_a, "-DSCALE=2.0", 2.0);
      CHECK(ctx->cache_hits == 0 && ctx->cache_misses == 0 && ctx->cache_rejected == 0);
      hdgcl_context_destroy(&ctx);
    }
    struct stat st;
    CHECK_MSG(stat(empty_dir, &st) != 0, "no-cache created %s", empty_dir);
  }

  /* A syntax error: HDGCL_ERROR_BUILD, compiler log and options on stderr, nothing cached. */
  {
    hdgcl_context ctx = open_context(cache_dir, false);
    if (ctx) {
      check_build_error(ctx);
      CHECK(ctx->num_programs == 0 && ctx->cache_misses == 0);
      hdgcl_context_destroy(&ctx);
    }
    CHECK(count_entries(cache_dir, NULL, 0) == 5);
  }

  /* Prefetch: the build in a thread, taken by the first get of the same program. */
  {
    hdgcl_context ctx = open_context(cache_dir, false);
    if (ctx) {
      const char *files[] = {"core/common.h", "core/selftest.cl"};
      setenv("HDGCL_BUILD_THREADS", "off", 1); /* off: nothing starts, the get builds */
      CHECK_OK(hdgcl_program_prefetch(ctx, NULL, 0, files, 2, "-DPREFETCH_TEST=1"));
      CHECK(ctx->num_programs == 0);
      setenv("HDGCL_BUILD_THREADS", "maybe", 1);
      CHECK_FAILS(hdgcl_program_prefetch(ctx, NULL, 0, files, 2, "-DPREFETCH_TEST=1"),
                  HDGCL_ERROR_ARGUMENT);
      CHECK(strstr(hdgcl_last_error(), "HDGCL_BUILD_THREADS=maybe") != NULL);
      setenv("HDGCL_BUILD_THREADS", "on", 1); /* on CPU devices too */
      CHECK_OK(hdgcl_program_prefetch(ctx, NULL, 0, files, 2, "-DPREFETCH_TEST=1"));
      CHECK(ctx->num_programs == 1 && ctx->cache_misses == 0); /* counted when joined */
      CHECK_OK(hdgcl_program_prefetch(ctx, NULL, 0, files, 2, "-DPREFETCH_TEST=1"));
      CHECK(ctx->num_programs == 1);
      cl_program p = NULL;
      CHECK_OK(hdgcl_program_get(ctx, files, 2, "-DPREFETCH_TEST=1", &p));
      CHECK(p != NULL && ctx->num_programs == 1 && ctx->cache_misses == 1);
      cl_kernel k = NULL;
      if (p) CHECK_OK(hdgcl_kernel_create(p, "selftest_axpy", &k));
      if (k) clReleaseKernel(k);
      /* A file that does not compile, through $HDGCL_KERNEL_DIR. */
      char kdir[400], path[500];
      snprintf(kdir, sizeof kdir, "%s-kernels", dir_store); /* not in the cache directory */
      CHECK(mkdir(kdir, 0755) == 0);
      snprintf(path, sizeof path, "%s/bad.cl", kdir);
      FILE *f = fopen(path, "w");
      CHECK(f != NULL);
      if (f) {
        fputs("__kernel void bad(__global double *x) { x[0] = 1.0 +; }\n", f);
        fclose(f);
      }
      setenv("HDGCL_KERNEL_DIR", kdir, 1);
      const char *bad[] = {"bad.cl"};
      CHECK_OK(hdgcl_program_prefetch(ctx, NULL, 0, bad, 1, "-DASKED=1"));
      CHECK_OK(hdgcl_program_prefetch(ctx, NULL, 0, bad, 1, "-DNEVER_ASKED=1"));
      CHECK(ctx->num_programs == 3);
      int status = hdgcl_program_get(ctx, bad, 1, "-DASKED=1", &p);
      CHECK(status == HDGCL_ERROR_BUILD);
      CHECK_MSG(strstr(hdgcl_last_error(), "clBuildProgram(bad.cl)") &&
                    strstr(hdgcl_last_error(), "CL_BUILD_PROGRAM_FAILURE"),
                "message '%s'", hdgcl_last_error());
      CHECK(ctx->num_programs == 2); /* the failed one is gone, the unused one pending */
      unsetenv("HDGCL_KERNEL_DIR");
      unsetenv("HDGCL_BUILD_THREADS");
      remove(path);
      rmdir(kdir);
      hdgcl_context_destroy(&ctx); /* joins and releases the unused one (ASan: no leak) */
    }
    CHECK(count_entries(cache_dir, NULL, 0) == 6); /* the prefetched selftest program */
  }

  char command[600];
  snprintf(command, sizeof command, "rm -rf '%s'", dir_store);
  CHECK(system(command) == 0);
  CHECK_DONE();
}
