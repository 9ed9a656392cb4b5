/* Tuned CLBlast parameters per device (docs/clblast-tuning.md): a small
 * database of text files perf/clblast/<device name>.txt embedded at build
 * time, or the file named by HDGCL_CLBLAST_TUNING, applied to CLBlast with
 * CLBlastOverrideParameters when a context opens its device.  A line reads
 *   XgemmDirect 64 WGD=32 MDIMCD=8 NDIMCD=8 MDIMAD=8 NDIMBD=8 KWID=2 VWMD=4 VWND=4 PADA=1 PADB=1
 * (kernel family, precision, every parameter of the family); '#' starts a
 * comment line. */
#include <clblast_c.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/blas.h"
#include "core/error.h"
#include "core/kernel_sources.h"

/* The kernel families hdgcl applies and their parameters, in CLBlast's
 * order.  XgemmDirect: the direct kernels that CLBlastDgemmStridedBatched
 * runs at hdgcl's sizes (below CLBlast's XGEMM_MIN_INDIRECT_SIZE). */
#define MAX_PARAMS 16
typedef struct family {
  const char *name;
  int nparams;
  const char *params[MAX_PARAMS];
} family;
static const family families[] = {
    {"XgemmDirect", 10,
     {"WGD", "MDIMCD", "NDIMCD", "MDIMAD", "NDIMBD", "KWID", "VWMD", "VWND", "PADA", "PADB"}},
};
#define NFAMILIES ((int)(sizeof families / sizeof *families))

/* A parsed file: at most one line per family. */
typedef struct tuning {
  bool has[NFAMILIES];
  size_t values[NFAMILIES][MAX_PARAMS];
} tuning;

#define MAX_LINE 1024

/* Parses one non-comment line (tokens of `line`, modified) into t. */
static int parse_line(char *line, const char *file, int lineno, int first_line[NFAMILIES],
                      tuning *t) {
  const char *sep = " \t\r";
  char *save, *tok = strtok_r(line, sep, &save);
  int f = 0;
  while (f < NFAMILIES && strcmp(tok, families[f].name)) f++;
  if (f == NFAMILIES) {
    char known[256] = "";
    for (int i = 0; i < NFAMILIES; i++)
      snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s", i ? ", " : "",
               families[i].name);
    return hdgcl_error(HDGCL_ERROR_FORMAT, "%s:%d: unknown kernel family '%s' (known: %s)", file,
                       lineno, tok, known);
  }
  const family *fam = &families[f];
  if (t->has[f])
    return hdgcl_error(HDGCL_ERROR_FORMAT, "%s:%d: %s given twice (first on line %d)", file,
                       lineno, fam->name, first_line[f]);
  tok = strtok_r(NULL, sep, &save);
  if (!tok || strcmp(tok, "64"))
    return hdgcl_error(HDGCL_ERROR_FORMAT,
                       "%s:%d: %s: precision '%s', expected 64 (hdgcl runs double precision)",
                       file, lineno, fam->name, tok ? tok : "(missing)");
  bool seen[MAX_PARAMS] = {false};
  while ((tok = strtok_r(NULL, sep, &save))) {
    char *eq = strchr(tok, '=');
    if (eq) *eq = '\0';
    int p = 0;
    while (p < fam->nparams && strcmp(tok, fam->params[p])) p++;
    if (p == fam->nparams)
      return hdgcl_error(HDGCL_ERROR_FORMAT, "%s:%d: unknown parameter '%s' for %s", file, lineno,
                         tok, fam->name);
    if (!eq || !eq[1])
      return hdgcl_error(HDGCL_ERROR_FORMAT, "%s:%d: %s: parameter %s has no value (NAME=VALUE)",
                         file, lineno, fam->name, tok);
    if (seen[p])
      return hdgcl_error(HDGCL_ERROR_FORMAT, "%s:%d: %s: parameter %s given twice", file, lineno,
                         fam->name, tok);
    const char *v = eq + 1;
    char *end;
    errno = 0;
    unsigned long long value = strtoull(v, &end, 10);
    if (*v < '0' || *v > '9' || *end || errno || value > 1000000)
      return hdgcl_error(HDGCL_ERROR_FORMAT,
                         "%s:%d: %s: bad number '%s' for %s (expected an integer 0..1000000)",
                         file, lineno, fam->name, v, tok);
    seen[p] = true;
    t->values[f][p] = (size_t)value;
  }
  for (int p = 0; p < fam->nparams; p++)
    if (!seen[p])
      return hdgcl_error(HDGCL_ERROR_FORMAT, "%s:%d: %s: parameter %s missing", file, lineno,
                         fam->name, fam->params[p]);
  t->has[f] = true;
  first_line[f] = lineno;
  return HDGCL_SUCCESS;
}

static int parse(const char *text, const char *file, tuning *t) {
  memset(t, 0, sizeof *t);
  int first_line[NFAMILIES] = {0};
  int lineno = 0;
  for (const char *p = text; *p;) {
    const char *nl = strchr(p, '\n');
    size_t len = nl ? (size_t)(nl - p) : strlen(p);
    lineno++;
    if (len >= MAX_LINE)
      return hdgcl_error(HDGCL_ERROR_FORMAT, "%s:%d: line longer than %d characters", file, lineno,
                         MAX_LINE - 1);
    char line[MAX_LINE];
    memcpy(line, p, len);
    line[len] = '\0';
    p += len + (nl != NULL);
    size_t skip = strspn(line, " \t\r");
    if (line[skip] == '\0' || line[skip] == '#') continue;
    HDGCL_TRY(parse_line(line + skip, file, lineno, first_line, t));
  }
  return HDGCL_SUCCESS;
}

/* The file name the database gives a device: its name with every character
 * outside [A-Za-z0-9._-] turned into '_', + ".txt" (perf/clblast_tuning.py). */
static void database_name(const char *device, char *out, size_t n) {
  size_t i = 0;
  for (; device[i] && i + 5 < n; i++) {
    char c = device[i];
    bool keep = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                c == '.' || c == '_' || c == '-';
    out[i] = keep ? c : '_';
  }
  snprintf(out + i, n - i, ".txt");
}

#define MAX_FILE (1 << 20)

static int read_file(const char *path, char **text) {
  *text = NULL;
  FILE *f = fopen(path, "rb");
  if (!f)
    return hdgcl_error(HDGCL_ERROR_IO, "HDGCL_CLBLAST_TUNING %s: cannot open (%s)", path,
                       strerror(errno));
  char *buf = malloc(MAX_FILE + 1);
  size_t n = buf ? fread(buf, 1, MAX_FILE + 1, f) : 0;
  bool err = ferror(f);
  fclose(f);
  if (!buf) return hdgcl_error(HDGCL_ERROR_MEMORY, "HDGCL_CLBLAST_TUNING %s: no memory", path);
  if (err || n > MAX_FILE) {
    free(buf);
    return hdgcl_error(err ? HDGCL_ERROR_IO : HDGCL_ERROR_FORMAT,
                       "HDGCL_CLBLAST_TUNING %s: %s", path,
                       err ? "read error" : "larger than 1 MiB (not a tuning file)");
  }
  buf[n] = '\0';
  *text = buf;
  return HDGCL_SUCCESS;
}

/* Finds and parses the tuning that applies to the device; `source` says
 * where it comes from ("" when none applies, with the reason in `what`). */
static int find(const char *device, tuning *t, char *source, size_t nsource, char *what,
                size_t nwhat) {
  memset(t, 0, sizeof *t);
  source[0] = '\0';
  const char *env = getenv("HDGCL_CLBLAST_TUNING");
  if (env && !strcmp(env, "none")) {
    snprintf(what, nwhat, "none (HDGCL_CLBLAST_TUNING=none)");
    return HDGCL_SUCCESS;
  }
  if (env && env[0]) {
    char *text;
    HDGCL_TRY(read_file(env, &text));
    int status = parse(text, env, t);
    free(text);
    HDGCL_TRY(status);
    snprintf(source, nsource, "%s (HDGCL_CLBLAST_TUNING)", env);
  } else {
    char name[300];
    database_name(device, name, sizeof name);
    const hdgcl_kernel_source *e = hdgcl_clblast_tunings;
    while (e->name && strcmp(e->name, name)) e++;
    if (!e->name) {
      snprintf(what, nwhat, "none (CLBlast's defaults: no perf/clblast/%s)", name);
      return HDGCL_SUCCESS;
    }
    char file[320];
    snprintf(file, sizeof file, "perf/clblast/%s", e->name);
    HDGCL_TRY(parse(e->text, file, t));
    snprintf(source, nsource, "%s (embedded)", file);
  }
  /* what: the families and the source, e.g. "XgemmDirect from perf/clblast/X.txt (embedded)". */
  size_t len = 0;
  what[0] = '\0';
  for (int f = 0; f < NFAMILIES; f++)
    if (t->has[f] && len < nwhat)
      len += snprintf(what + len, nwhat - len, "%s%s", len ? ", " : "", families[f].name);
  if (len == 0)
    snprintf(what, nwhat, "none (%s has no parameter line)", source);
  else if (len < nwhat)
    snprintf(what + len, nwhat - len, " from %s", source);
  return HDGCL_SUCCESS;
}

int hdgcl_blas_tuning_check(const char *text, const char *file) {
  tuning t;
  return parse(text, file, &t);
}

int hdgcl_blas_tuning_describe(const char *device_name, char *what, size_t n) {
  tuning t;
  char source[4200];
  return find(device_name, &t, source, sizeof source, what, n);
}

int hdgcl_blas_tuning_apply(cl_device_id device, const char *device_name, char *what, size_t n) {
  tuning t;
  char source[4200];
  HDGCL_TRY(find(device_name, &t, source, sizeof source, what, n));
  for (int f = 0; f < NFAMILIES; f++) {
    if (!t.has[f]) continue;
    const family *fam = &families[f];
    CLBlastStatusCode st = CLBlastOverrideParameters(
        device, fam->name, CLBlastPrecisionDouble, (size_t)fam->nparams,
        (const char **)fam->params, t.values[f]);
    if (st != CLBlastSuccess)
      return hdgcl_error(HDGCL_ERROR_BLAS, "CLBlastOverrideParameters(%s) from %s for %s failed: %s",
                         fam->name, source, device_name, hdgcl_clblast_status_name(st));
  }
  return HDGCL_SUCCESS;
}
