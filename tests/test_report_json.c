/* The JSON output of the hdgcl tool (host/cli/report_json.c, built with
 * cJSON): numbers read back as exactly the doubles written (where cJSON's
 * own printing can lose the last bit), non-finite numbers as null, the keys
 * and escapes of one run, the layout, atomic files; and every cJSON
 * allocation failing in turn gives a one-line HDGCL_ERROR_MEMORY error,
 * leaves no file and (under AddressSanitizer) leaks nothing. */
#include <dirent.h>
#include <float.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "core/error.h"
#include "cli/report_json.h"

/* --- cJSON allocations that fail on the fail_at-th call (0: never) --- */
static long allocations, fail_at;

static void *counting_malloc(size_t n) {
  if (fail_at && ++allocations == fail_at) return NULL;
  return malloc(n);
}

static void hooks_on(long n) {
  allocations = 0;
  fail_at = n;
  cJSON_Hooks hooks = {counting_malloc, free};
  cJSON_InitHooks(&hooks);
}

static void hooks_off(void) { cJSON_InitHooks(NULL); }

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rng(void) { /* splitmix64 */
  uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static double random_double(void) {
  for (;;) {
    uint64_t bits = rng();
    double x;
    memcpy(&x, &bits, sizeof x);
    if (isfinite(x)) return x;
  }
}

static bool same_double(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

/* A double that cJSON's own printing does not give back exactly (0 if none found). */
static double lost_by_cjson = 0;

static void check_numbers(void) {
  char text[32];
  const double special[] = {0.0, -0.0, 1.0, 3.0, 0.5, 0.1, 1.0 / 3, 1e-12, 78309.92237586058,
                            DBL_MIN, DBL_MAX, 4.9406564584124654e-324, -2.5e-310, 9007199254740993.0};
  for (size_t i = 0; i < sizeof special / sizeof special[0]; i++) {
    json_real_text(special[i], text, sizeof text);
    CHECK_MSG(same_double(strtod(text, NULL), special[i]), "%.17g written as %s", special[i], text);
  }
  json_real_text(3.0, text, sizeof text);
  CHECK_MSG(!strcmp(text, "3"), "3.0 written as %s", text);
  json_real_text(0.1, text, sizeof text);
  CHECK_MSG(!strcmp(text, "0.1"), "0.1 written as %s", text); /* the shortest that reads back */
  json_real_text(NAN, text, sizeof text);
  CHECK(!strcmp(text, "null"));
  json_real_text(-INFINITY, text, sizeof text);
  CHECK(!strcmp(text, "null"));

  /* Random doubles of every magnitude, and cJSON's own number printing on the same. */
  long n = 200000, inexact = 0, cjson_inexact = 0;
  for (long i = 0; i < n; i++) {
    double x = i % 2 ? random_double() : (double)(rng() >> 11) / 9007199254740992.0;
    json_real_text(x, text, sizeof text);
    if (!same_double(strtod(text, NULL), x)) {
      if (!inexact) fprintf(stderr, "%.17g written as %s\n", x, text);
      inexact++;
    }
    cJSON *item = cJSON_CreateNumber(x);
    char *printed = item ? cJSON_PrintUnformatted(item) : NULL;
    if (printed && !same_double(strtod(printed, NULL), x)) {
      cjson_inexact++;
      if (lost_by_cjson == 0 && fabs(x) > 1e-300 && fabs(x) < 1) lost_by_cjson = x;
    }
    cJSON_free(printed);
    cJSON_Delete(item);
  }
  CHECK_MSG(inexact == 0, "%ld of %ld doubles do not read back exactly", inexact, n);
  printf("numbers: %ld random doubles read back exactly (cJSON's own printing: %ld would not)\n", n,
         cjson_inexact);
}

/* --- one run --- */

static const double history[] = {1, 0.25, 1.0 / 3, 1e-13};
static const hdgcl_output outputs[] = {
    {"flux: \"cone\"\n", "u qx qy", 3, {0.1, NAN, -7.25e300}}};

static hdgcl_result example_result(void) {
  hdgcl_result r;
  memset(&r, 0, sizeof r);
  r.problem = "a \"quoted\" \\ name\twith\x01 controls";
  r.solver = "gmres";
  r.precond = "block-jacobi";
  r.format = "bell-i";
  r.restart = 30;
  r.order = 3;
  r.tau = 1;
  r.num_elements = 3000000000LL; /* past 32 bits */
  r.num_faces = 7;
  r.h = 0.3535533905932738;
  r.iterations = 3;
  r.rtol = 1e-12;
  r.residual = 1e-13;
  r.history_length = 4;
  r.history = history;
  r.l2_u = lost_by_cjson != 0 ? lost_by_cjson : 0.06773095324238561;
  r.l2_q = NAN; /* no exact solution: null */
  r.l2_ustar = INFINITY;
  r.linf_u = 1.0 / 3;
  r.norm_u = r.norm_q = NAN;
  r.l2_p = r.norm_p = NAN;
  r.tip_deflection = r.beam_deflection = NAN;
  r.mu_min = 1, r.mu_max = 10, r.lambda_min = 2, r.lambda_max = 20;
  r.ustar_check = 1.2e-16;
  r.local_invert = "cholesky";
  r.local_invert_source = NULL; /* written as "" */
  static const char *const names[HDGCL_NUM_STAGES] = {"upload", "local", "assemble",
                                                      "solve", "recover", "download"};
  for (int i = 0; i < HDGCL_NUM_STAGES; i++)
    r.stages[i] = (hdgcl_stage_stats){names[i], 0.001 * (i + 1), 1e6, i ? 2e6 : 0};
  r.total_seconds = 0.021;
  r.device_memory_high_water = 12345678901234567ull; /* past 2^53 */
  r.num_outputs = 1;
  r.outputs = outputs;
  return r;
}

static hdgcl_mesh example_mesh(void) {
  hdgcl_mesh m;
  memset(&m, 0, sizeof m);
  m.type = HDGCL_QUADRILATERAL;
  return m;
}

static hdgcl_device_info example_device(void) {
  hdgcl_device_info d;
  memset(&d, 0, sizeof d);
  snprintf(d.name, sizeof d.name, "test device");
  snprintf(d.platform, sizeof d.platform, "test platform");
  d.is_gpu = true;
  d.compute_units = 132;
  return d;
}

static const cJSON *get(const cJSON *o, const char *key) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  CHECK_MSG(v != NULL, "no key \"%s\"", key);
  return v;
}

static double number(const cJSON *o, const char *key) {
  const cJSON *v = get(o, key);
  CHECK_MSG(cJSON_IsNumber(v), "\"%s\" is not a number", key);
  return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

/* The text of one run, as json_print writes it (malloc'd). */
static int run_text(const hdgcl_result *r, char **text) {
  hdgcl_mesh mesh = example_mesh();
  hdgcl_device_info dev = example_device();
  cJSON *run;
  *text = NULL;
  HDGCL_TRY(report_json_run("quad:4x2,perturb=0.1", &mesh, &dev, r, 5, &run));
  size_t len;
  FILE *f = open_memstream(text, &len);
  if (!f) abort();
  int status = json_print(f, run);
  fclose(f);
  cJSON_Delete(run);
  if (status) {
    free(*text);
    *text = NULL;
  }
  return status;
}

static void check_run(void) {
  hdgcl_result r = example_result();
  char *text;
  CHECK_OK(run_text(&r, &text));
  if (!text) return;
  /* The layout: two-space indents, "key": value, no tab. */
  CHECK(!strchr(text, '\t'));
  CHECK(!strncmp(text, "{\n  \"hdgcl_version\": \"", 22));
  CHECK(strstr(text, "\n  \"order\": 3,\n"));
  CHECK(strstr(text, "\n    \"l2_q\": null,\n"));
  CHECK(strstr(text, "\"memory_high_water_bytes\": 12345678901234567,"));
  CHECK(strstr(text, "\"elements\": 3000000000,"));
  CHECK(text[strlen(text) - 1] == '\n');

  cJSON *run = cJSON_Parse(text);
  CHECK_MSG(run != NULL, "not JSON:\n%s", text);
  if (run) {
    const char *keys[] = {"hdgcl_version", "problem", "mesh", "element_type", "order", "tau", "mu",
                          "lambda", "device", "elements", "faces", "trace_unknown_faces",
                          "element_dofs", "trace_dofs", "h", "solver", "precond", "restart",
                          "format", "local_invert", "local_invert_wg", "local_invert_source",
                          "local_schur", "local_schur_source", "local_schur_stage",
                          "local_schur_wg", "local_element_wg", "local_element_grid",
                          "local_element_source", "local_gemm_z", "local_gemm_z_source",
                          "local_gemm_k", "local_gemm_k_source", "iterations", "rtol", "residual",
                          "residual_history", "errors", "outputs", "stages", "repeat",
                          "total_seconds", "setup_seconds", "precond_seconds",
                          "seconds_per_iteration", "memory_high_water_bytes", "chunk_elements",
                          "chunks"};
    int nkeys = (int)(sizeof keys / sizeof keys[0]), i = 0;
    for (const cJSON *k = run->child; k; k = k->next, i++)
      CHECK_MSG(i < nkeys && !strcmp(k->string, keys[i]), "key %d is \"%s\"", i, k->string);
    CHECK_MSG(i == nkeys, "%d keys, expected %d", i, nkeys);
    CHECK(!strcmp(cJSON_GetStringValue(get(run, "problem")), r.problem)); /* escapes read back */
    CHECK(!strcmp(cJSON_GetStringValue(get(run, "element_type")), "quadrilateral"));
    CHECK(!strcmp(cJSON_GetStringValue(get(run, "local_invert_source")), ""));
    CHECK(!cJSON_GetObjectItemCaseSensitive(run, "postprocess")); /* NULL: left out */
    CHECK(number(run, "order") == 3 && number(run, "repeat") == 5);
    CHECK(same_double(number(run, "h"), r.h));
    const cJSON *dev = get(run, "device");
    CHECK(!strcmp(cJSON_GetStringValue(get(dev, "type")), "gpu"));
    CHECK(number(dev, "compute_units") == 132);
    const cJSON *mu = get(run, "mu");
    CHECK(cJSON_GetArraySize(mu) == 2 && cJSON_GetArrayItem(mu, 1)->valuedouble == 10);
    const cJSON *errors = get(run, "errors");
    CHECK_MSG(same_double(number(errors, "l2_u"), r.l2_u), "l2_u %.17g read back as %.17g",
              r.l2_u, number(errors, "l2_u"));
    CHECK(cJSON_IsNull(get(errors, "l2_q")));
    CHECK(cJSON_IsNull(get(errors, "l2_ustar"))); /* infinite */
    CHECK(same_double(number(errors, "linf_u"), 1.0 / 3));
    CHECK(!cJSON_GetObjectItemCaseSensitive(errors, "l2_p")); /* a scalar problem */
    const cJSON *h = get(run, "residual_history");
    CHECK(cJSON_GetArraySize(h) == 4 && same_double(cJSON_GetArrayItem(h, 2)->valuedouble, 1.0 / 3));
    const cJSON *stages = get(run, "stages");
    CHECK(cJSON_GetArraySize(stages) == HDGCL_NUM_STAGES);
    const cJSON *local = cJSON_GetArrayItem(stages, 1);
    CHECK(local && !strcmp(cJSON_GetStringValue(get(local, "name")), "local"));
    CHECK(local && same_double(number(local, "gflops"), 1e6 / 0.002 * 1e-9));
    const cJSON *out = cJSON_GetArrayItem(get(run, "outputs"), 0);
    CHECK(out && !strcmp(cJSON_GetStringValue(get(out, "label")), outputs[0].label));
    const cJSON *values = out ? get(out, "values") : NULL;
    CHECK(cJSON_GetArraySize(values) == 3 && cJSON_IsNull(cJSON_GetArrayItem(values, 1)) &&
          cJSON_GetArrayItem(values, 2)->valuedouble == -7.25e300);
    cJSON_Delete(run);
  }
  free(text);
}

/* --- files --- */

static int count_files(const char *dir) {
  DIR *d = opendir(dir);
  int n = 0;
  for (struct dirent *e; d && (e = readdir(d));)
    if (e->d_name[0] != '.') n++;
  if (d) closedir(d);
  return n;
}

/* A run written to dir/run.json as hdgcl solve does; its status. */
static int write_run_file(const char *dir) {
  char path[512];
  snprintf(path, sizeof path, "%s/run.json", dir);
  hdgcl_result r = example_result();
  hdgcl_mesh mesh = example_mesh();
  hdgcl_device_info dev = example_device();
  json_file j = {0};
  cJSON *root = NULL, *runs, *run;
  int status;
  HDGCL_TRY_GOTO(status, json_open(&j, path), done);
  HDGCL_TRY_GOTO(status, json_new_object(&root), done);
  HDGCL_TRY_GOTO(status, json_add_array(root, "runs", &runs), done);
  HDGCL_TRY_GOTO(status, report_json_run("square:2", &mesh, &dev, &r, 1, &run), done);
  HDGCL_TRY_GOTO(status, json_add_item(runs, NULL, run), done);
  HDGCL_TRY_GOTO(status, json_commit(&j, root), done);
done:
  if (j.f) json_abort(&j);
  cJSON_Delete(root);
  return status;
}

/* One bench-style JSON line per call, to dir/lines.jsonl. */
static int write_lines_file(const char *dir) {
  char path[512];
  snprintf(path, sizeof path, "%s/lines.jsonl", dir);
  json_file j = {0};
  int status = json_open(&j, path);
  for (int i = 0; i < 2 && !status; i++) {
    cJSON *line;
    status = json_new_object(&line);
    if (!status) status = json_add_string(line, "kind", "line\nwith a newline");
    if (!status) status = json_add_real(line, "value", i ? NAN : 0.1);
    if (!status) status = json_write_line(&j, line);
    cJSON_Delete(line);
  }
  if (!status) status = json_commit(&j, NULL);
  if (j.f) json_abort(&j);
  return status;
}

static char *read_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  static char buf[1 << 16];
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = '\0';
  return buf;
}

static void check_files(const char *dir) {
  char path[512];
  CHECK_OK(write_run_file(dir));
  snprintf(path, sizeof path, "%s/run.json", dir);
  char *text = read_file(path);
  cJSON *root = text ? cJSON_Parse(text) : NULL;
  CHECK_MSG(root && cJSON_GetArraySize(cJSON_GetObjectItem(root, "runs")) == 1, "%s", path);
  cJSON_Delete(root);
  CHECK(count_files(dir) == 1); /* no temporary file left */
  remove(path);

  CHECK_OK(write_lines_file(dir));
  snprintf(path, sizeof path, "%s/lines.jsonl", dir);
  text = read_file(path);
  CHECK_MSG(text && !strcmp(text, "{\"kind\":\"line\\nwith a newline\",\"value\":0.1}\n"
                                  "{\"kind\":\"line\\nwith a newline\",\"value\":null}\n"),
            "%s", text ? text : "(none)");
  remove(path);

  json_file j = {0};
  snprintf(path, sizeof path, "%s/no/such/dir/x.json", dir);
  CHECK_FAILS(json_open(&j, path), HDGCL_ERROR_IO);
  CHECK(strstr(hdgcl_last_error(), "cannot write"));
  CHECK(count_files(dir) == 0);
}

/* --- every allocation failing in turn --- */

static bool one_line_memory_error(int status) {
  const char *msg = hdgcl_last_error();
  return status == HDGCL_ERROR_MEMORY && !strncmp(msg, "out of host memory", 18) &&
         !strchr(msg, '\n');
}

static void check_allocation_failures(const char *dir) {
  hdgcl_result r = example_result();
  long n, total[3] = {0, 0, 0};
  for (int what = 0; what < 3; what++) {
    for (n = 1; n < 100000; n++) {
      hooks_on(n);
      char *text = NULL;
      int status = what == 0 ? run_text(&r, &text) : what == 1 ? write_run_file(dir) : write_lines_file(dir);
      hooks_off();
      free(text);
      if (status == HDGCL_SUCCESS) break;
      CHECK_MSG(one_line_memory_error(status), "case %d, allocation %ld failing: %s: %s", what, n,
                hdgcl_status_name(status), hdgcl_last_error());
      CHECK_MSG(count_files(dir) == 0, "case %d, allocation %ld failing: a file is left", what, n);
    }
    total[what] = n - 1;
    CHECK(total[what] > 10);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -f %s/*", dir);
    if (system(cmd) != 0) abort();
  }
  printf("allocation failures: each of %ld, %ld and %ld cJSON allocations failing in turn gives "
         "a one-line out-of-memory error\n", total[0], total[1], total[2]);
}

int main(void) {
  char dir[] = "/tmp/hdgcl_test_report_json.XXXXXX";
  if (!mkdtemp(dir)) return 1;
  check_numbers();
  check_run();
  check_files(dir);
  check_allocation_failures(dir);
  rmdir(dir);
  if (check_failures == 0) printf("all checks passed\n");
  return check_failures;
}
