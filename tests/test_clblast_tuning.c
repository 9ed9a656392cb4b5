/* Tuned CLBlast parameters (host/core/blas_tuning.c): every embedded database
 * file parses and is found by its device's name; malformed files give one
 * line naming the file, the line and the problem; on the device,
 * HDGCL_CLBLAST_TUNING=none applies nothing, an impossible tuning (work-groups
 * of 128 x 128) really reaches CLBlast (the next GEMM fails with CLBlast's
 * status name), and a valid non-default tuning gives products that match a
 * host loop.  (tests/test_clblast runs every GEMM case under a tuning too.)
 *
 * Usage: test_clblast_tuning [SPEC]   (default $HDGCL_DEVICE, else "pocl") */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gemm_check.h"
#include "hdgcl/options.h"
#include "core/kernel_sources.h"

#define FAMILY_OK "KWID=2 VWMD=1 VWND=2 PADA=1 PADB=1"
/* A configuration CLBlast's own tuner verified on PoCL; not CLBlast's default. */
static const char valid[] = "# test tuning\n\n"
                            "  XgemmDirect 64 WGD=16 MDIMCD=16 NDIMCD=8 MDIMAD=16 NDIMBD=8 " FAMILY_OK
                            "\n";
/* Work-groups of 128 x 128 = 16384 work-items: more than a device allows. */
static const char impossible[] =
    "XgemmDirect 64 WGD=128 MDIMCD=128 NDIMCD=128 MDIMAD=128 NDIMBD=128 KWID=2 VWMD=1 VWND=1 "
    "PADA=1 PADB=1\n";

static char path[64];

static void write_file(const char *text) {
  FILE *f = fopen(path, "w");
  CHECK(f != NULL);
  if (!f) return;
  fputs(text, f);
  fclose(f);
}

/* Every file of perf/clblast/ parses and is found under its device's name. */
static void check_embedded(void) {
  unsetenv("HDGCL_CLBLAST_TUNING");
  for (const hdgcl_kernel_source *e = hdgcl_clblast_tunings; e->name; e++) {
    char device[256], what[512];
    snprintf(device, sizeof device, "%.*s", (int)(strlen(e->name) - 4), e->name); /* less .txt */
    CHECK_OK(hdgcl_blas_tuning_describe(device, what, sizeof what));
    CHECK_MSG(strstr(what, "XgemmDirect from perf/clblast/") && strstr(what, e->name) &&
                  strstr(what, "(embedded)"),
              "%s: '%s'", e->name, what);
  }
  char what[512];
  CHECK_OK(hdgcl_blas_tuning_describe("No Such Device (tm)", what, sizeof what));
  CHECK_MSG(strstr(what, "none (CLBlast's defaults: no perf/clblast/No_Such_Device__tm_.txt)"),
            "'%s'", what);
}

/* Malformed files: HDGCL_ERROR_FORMAT, one line with the file, line and problem. */
static void check_malformed(void) {
  static const struct {
    const char *text, *message;
  } bad[] = {
      {"XgemmDirect 64 WGD=16 MDIMCD=16 NDIMCD=8 MDIMAD=16 NDIMBD=8 FOO=3 " FAMILY_OK "\n",
       ":1: unknown parameter 'FOO' for XgemmDirect"},
      {"# c\nXgemmDirect 64 WGD= MDIMCD=16 NDIMCD=8 MDIMAD=16 NDIMBD=8 " FAMILY_OK "\n",
       ":2: XgemmDirect: parameter WGD has no value"},
      {"XgemmDirect 64 WGD MDIMCD=16 NDIMCD=8 MDIMAD=16 NDIMBD=8 " FAMILY_OK "\n",
       ":1: XgemmDirect: parameter WGD has no value"},
      {"XgemmDirect 64 WGD=1x6 MDIMCD=16 NDIMCD=8 MDIMAD=16 NDIMBD=8 " FAMILY_OK "\n",
       ":1: XgemmDirect: bad number '1x6' for WGD"},
      {"XgemmDirect 64 WGD=-16 MDIMCD=16 NDIMCD=8 MDIMAD=16 NDIMBD=8 " FAMILY_OK "\n",
       ":1: XgemmDirect: bad number '-16' for WGD"},
      {"\n\nXgemm 64 WGD=16\n", ":3: unknown kernel family 'Xgemm' (known: XgemmDirect)"},
      {"XgemmDirect 32 WGD=16 MDIMCD=16 NDIMCD=8 MDIMAD=16 NDIMBD=8 " FAMILY_OK "\n",
       ":1: XgemmDirect: precision '32', expected 64"},
      {"XgemmDirect\n", ":1: XgemmDirect: precision '(missing)', expected 64"},
      {"XgemmDirect 64 WGD=16 MDIMCD=16 NDIMCD=8 MDIMAD=16 " FAMILY_OK "\n",
       ":1: XgemmDirect: parameter NDIMBD missing"},
      {"XgemmDirect 64 WGD=16 WGD=16 MDIMCD=16 NDIMCD=8 MDIMAD=16 NDIMBD=8 " FAMILY_OK "\n",
       ":1: XgemmDirect: parameter WGD given twice"},
      {"XgemmDirect 64 WGD=16 MDIMCD=16 NDIMCD=8 MDIMAD=16 NDIMBD=8 " FAMILY_OK "\n"
       "XgemmDirect 64 WGD=16 MDIMCD=16 NDIMCD=8 MDIMAD=16 NDIMBD=8 " FAMILY_OK "\n",
       ":2: XgemmDirect given twice (first on line 1)"},
  };
  setenv("HDGCL_CLBLAST_TUNING", path, 1);
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    write_file(bad[i].text);
    char what[512];
    CHECK_FAILS(hdgcl_blas_tuning_describe("any", what, sizeof what), HDGCL_ERROR_FORMAT);
    const char *msg = hdgcl_last_error();
    CHECK_MSG(strstr(msg, path) == msg && strstr(msg, bad[i].message) && !strchr(msg, '\n'),
              "case %zu: message '%s', expected '%s%s'", i, msg, path, bad[i].message);
  }
  setenv("HDGCL_CLBLAST_TUNING", "/nonexistent/tuning.txt", 1);
  char what[512];
  CHECK_FAILS(hdgcl_blas_tuning_describe("any", what, sizeof what), HDGCL_ERROR_IO);
  CHECK_MSG(strstr(hdgcl_last_error(), "HDGCL_CLBLAST_TUNING /nonexistent/tuning.txt: cannot open"),
            "'%s'", hdgcl_last_error());
  /* A comment-only file applies nothing, and says so. */
  setenv("HDGCL_CLBLAST_TUNING", path, 1);
  write_file("# nothing\n");
  CHECK_OK(hdgcl_blas_tuning_describe("any", what, sizeof what));
  CHECK_MSG(strstr(what, "none (") && strstr(what, "has no parameter line"), "'%s'", what);
}

/* C_q = A_q^T B_q (m x n, k deep; the local stage's shape), q < batch,
 * checked against the host loop when it runs; returns its status. */
static int product(hdgcl_context ctx, size_t m, size_t n, size_t k, size_t batch) {
  gemm_case c = {true, false, m, n, k, batch, 0, 0, 0, 1.0, 0.0};
  return gemm_check(ctx, &c);
}

static hdgcl_context open_context(const char *spec) {
  hdgcl_options opts;
  hdgcl_context ctx = NULL;
  CHECK_OK(hdgcl_options_create(&opts));
  CHECK_OK(hdgcl_options_set(opts, "no-cache", NULL));
  CHECK_OK(hdgcl_context_create(spec, opts, &ctx));
  CHECK_OK(hdgcl_options_destroy(&opts));
  return ctx;
}

/* In this order: CLBlast keeps overrides per device for the whole process. */
static void check_device(const char *spec) {
  /* none: nothing applied (the impossible file is not read), products run. */
  write_file(impossible);
  setenv("HDGCL_CLBLAST_TUNING", "none", 1);
  hdgcl_context ctx = open_context(spec);
  if (!ctx) return;
  CHECK_MSG(!strcmp(ctx->blas_tuning, "none (HDGCL_CLBLAST_TUNING=none)"), "'%s'",
            ctx->blas_tuning);
  CHECK_OK(product(ctx, 20, 12, 16, 5));
  CHECK_OK(hdgcl_context_destroy(&ctx));

  /* The impossible tuning reaches CLBlast: its GEMM is refused, by name. */
  setenv("HDGCL_CLBLAST_TUNING", path, 1);
  ctx = open_context(spec);
  if (!ctx) return;
  CHECK_MSG(strstr(ctx->blas_tuning, "XgemmDirect from ") && strstr(ctx->blas_tuning, path),
            "'%s'", ctx->blas_tuning);
  CHECK_FAILS(product(ctx, 20, 12, 16, 5), HDGCL_ERROR_BLAS);
  /* Refused under a CLBlast status name: PoCL says CLBlastInvalidLocal...; a
   * device whose compiler accepts the kernel (NVIDIA's does, with warnings)
   * refuses it later, under another status, so any CLBlast status is taken. */
  CHECK_MSG(strstr(hdgcl_last_error(), "failed: CLBlast"), "'%s'", hdgcl_last_error());
  CHECK_OK(hdgcl_context_destroy(&ctx));

  /* A valid non-default tuning replaces it: products match the host loop. */
  write_file(valid);
  ctx = open_context(spec);
  if (!ctx) return;
  CHECK_MSG(strstr(ctx->blas_tuning, "XgemmDirect from ") && strstr(ctx->blas_tuning, path),
            "'%s'", ctx->blas_tuning);
  CHECK_OK(product(ctx, 20, 12, 16, 5));
  CHECK_OK(product(ctx, 64, 64, 64, 3));
  CHECK_OK(product(ctx, 35, 35, 56, 4));
  CHECK_OK(hdgcl_context_destroy(&ctx));
}

int main(int argc, char **argv) {
  char spec[128];
  const char *env = getenv("HDGCL_DEVICE");
  if (!env || !env[0] || !strcmp(env, "ref")) env = "pocl"; /* these tests need OpenCL */
  snprintf(spec, sizeof spec, "%s", argc > 1 ? argv[1] : env);
  snprintf(path, sizeof path, "/tmp/hdgcl-tuning-XXXXXX");
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  if (fd < 0) CHECK_DONE();
  close(fd);
  check_embedded();
  check_malformed();
  check_device(spec);
  unlink(path);
  CHECK_DONE();
}
