/* libFuzzer harness: the expression parser of user-defined problems
 * (host/problem/expr*.c, docs/problems.md).  The input's last line is an
 * expression in x, y, z, nx, ny, nz; any lines before it are constant
 * definitions "name = expression" (hdg_expr_define_constants), which the
 * expression may use.  A parsed expression is evaluated, differentiated
 * (d/dx, d/dy), emitted as OpenCL C, copied and printed; the printed text
 * must parse again to the same value (the round trip the JSON output and
 * messages rely on).  Corpus: corpus/expr (one expression per file).
 *   build-fuzz/tests/fuzz/fuzz_expr tests/fuzz/corpus/expr -dict=tests/fuzz/expr.dict */
#include <math.h>

#include "fuzz_common.h"
#include "problem/expr.h"

#define MAX_CONSTANTS 16

static const char *const vars[] = {"x", "y", "z", "nx", "ny", "nz"};
static const char *const var_c[] = {"x[0]", "x[1]", "x[2]", "n[0]", "n[1]", "n[2]"};
static const double point[] = {0.25, -0.5, 0.75, 0.6, 0.8, 0.0};

static bool same(double a, double b) { return a == b || (isnan(a) && isnan(b)); }

static void exercise(const hdg_expr *e, const hdg_expr_symbols *symbols) {
  double value = hdg_expr_eval(e, point), constant;
  if (hdg_expr_constant(e, &constant) && !same(constant, value)) abort();
  for (int v = 0; v < 6; v++) hdg_expr_uses(e, v);
  for (int v = 0; v < 2; v++) {
    hdg_expr *d = NULL;
    hdgcl_clear_error();
    int status = hdg_expr_derivative(e, v, &d);
    fuzz_check_status(status, "hdg_expr_derivative");
    if (status == HDGCL_SUCCESS) {
      hdg_expr_eval(d, point);
      char *text = NULL;
      if (hdg_expr_emit(d, var_c, &text) == HDGCL_SUCCESS) free(text);
      hdg_expr_destroy(&d);
    }
  }
  char *text = NULL;
  hdgcl_clear_error();
  int status = hdg_expr_emit(e, var_c, &text);
  fuzz_check_status(status, "hdg_expr_emit");
  free(text);
  hdg_expr *copy = NULL;
  if (hdg_expr_copy(e, &copy) == HDGCL_SUCCESS) {
    if (!same(hdg_expr_eval(copy, point), value)) abort();
    hdg_expr_set_label(copy, "copy");
    hdg_expr_destroy(&copy);
  }
  char *printed = NULL;
  hdgcl_clear_error();
  status = hdg_expr_print(e, &printed);
  fuzz_check_status(status, "hdg_expr_print");
  if (status == HDGCL_SUCCESS) {
    hdg_expr *again = NULL;
    hdgcl_clear_error();
    if (hdg_expr_parse(printed, "printed", symbols, &again) != HDGCL_SUCCESS) {
      fprintf(stderr, "printed '%s' does not parse: %s\n", printed, hdgcl_last_error());
      abort();
    }
    double back = hdg_expr_eval(again, point);
    if (!same(back, value)) {
      fprintf(stderr, "printed '%s' evaluates to %.17g, not %.17g\n", printed, back, value);
      abort();
    }
    hdg_expr_destroy(&again);
    free(printed);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = fuzz_string(data, size);
  if (!text) return 0;
  /* "name = expression" lines, then the expression */
  const char *names[MAX_CONSTANTS], *texts[MAX_CONSTANTS];
  double values[MAX_CONSTANTS];
  int count = 0;
  char *last = text;
  for (char *nl; (nl = strchr(last, '\n')) && count < MAX_CONSTANTS; last = nl + 1) {
    *nl = '\0';
    char *eq = strchr(last, '=');
    if (!eq) break;
    *eq = '\0';
    char *name = last, *end = eq;
    while (*name == ' ') name++;
    while (end > name && end[-1] == ' ') *--end = '\0';
    names[count] = name;
    texts[count++] = eq + 1;
  }
  hdgcl_clear_error();
  int status = hdg_expr_define_constants(count, names, texts, "constants", values);
  fuzz_check_status(status, "hdg_expr_define_constants");
  if (status != HDGCL_SUCCESS) count = 0;
  hdg_expr_symbols symbols = {6, vars, count, names, values};
  hdg_expr *e = NULL;
  hdgcl_clear_error();
  status = hdg_expr_parse(last, "fuzz", &symbols, &e);
  fuzz_check_status(status, "hdg_expr_parse");
  if (status == HDGCL_SUCCESS) {
    if (!e) abort();
    exercise(e, &symbols);
    hdg_expr_destroy(&e);
  } else if (e) {
    abort();
  }
  free(text);
  return 0;
}
