/* The OpenCL C of hdg_expr_emit (host/problem/expr_text.c) compiles and
 * gives hdg_expr_eval's values on the device: every function and operator,
 * small and general powers, and derivatives, at 97 points, each expression
 * to 1e-14 relative (max |device - host| / max |host|). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/context.h"
#include "problem/expr.h"
#include "hdg_test.h"

static const char *const vars[] = {"x", "y", "z"};
static const char *const var_c[] = {"x[0]", "x[1]", "x[2]"};
static const char *const cnames[] = {"k0"};
static const double cvalues[] = {1.75};
static const hdg_expr_symbols symbols = {3, vars, 1, cnames, cvalues};

/* x in (0.05, 0.95), y in (-0.9, 0.9), z in (0.2, 3). */
static const char *const texts[] = {
    "sin(2 * pi * x) * y",
    "cos(3 * y) + tan(x)",
    "asin(x) - acos(y) + atan(y / z)",
    "sinh(y) * cosh(z) - tanh(3 * y)",
    "exp(-z * x) + log(z) + log10(z * 3)",
    "sqrt(z) * abs(y) + floor(4 * y) - ceil(2 * z)",
    "atan2(y, x) + atan2(-x, y - 2)",
    "min(x, y) * max(y, z) + min(z, 1.5)",
    "x^2 + y^3 - z^4 + z^-1 - y^-2 + x^-3 + (x + y)^4",
    "z^0.5 + pow(z, y) + x^y + 2^(y * z) + z^5 + (-z)^-4",
    "x < y ? x * y : x > 0.5 ? y : z",
    "(x <= 0.5) + (y >= 0) * 2 + (z == 1) + (x != y) * k0",
    "(x > 0.3 && y < 0.2) || !(z < 1) ? sin(z) : -cos(z)",
    "1 / (1 + 25 * (x^2 + y^2)) - k0 * e^(-z)",
    "-x^2 - -y + 1e-3 * z / 7",
};

/* Expressions whose derivatives (in x, y, z) join the list. */
static const char *const derived[] = {
    "sin(2 * pi * x) * sin(pi * y) * exp(z)",
    "x^y + atan2(y, x) * tanh(z)",
    "abs(y) * min(x, z) + max(x * y, 0.1) + (y > 0 ? y^3 : sqrt(z))",
    "log(z) / (x + 1) + sqrt(x^2 + y^2 + z^2)",
};

#define N 97
#define MAX_EXPR 64

int main(void) {
  hdg_expr *exprs[MAX_EXPR] = {NULL};
  char *labels[MAX_EXPR] = {NULL};
  int count = 0;
  for (size_t t = 0; t < sizeof texts / sizeof texts[0]; t++) {
    CHECK_OK(hdg_expr_parse(texts[t], texts[t], &symbols, &exprs[count]));
    labels[count++] = strdup(texts[t]);
  }
  for (size_t t = 0; t < sizeof derived / sizeof derived[0]; t++) {
    hdg_expr *e = NULL;
    CHECK_OK(hdg_expr_parse(derived[t], derived[t], &symbols, &e));
    for (int v = 0; e && v < 3; v++) {
      CHECK_OK(hdg_expr_derivative(e, v, &exprs[count]));
      char label[256];
      snprintf(label, sizeof label, "d/d%s %s", vars[v], derived[t]);
      labels[count++] = strdup(label);
    }
    hdg_expr_destroy(&e);
  }

  /* One kernel writes expression k at point i to out[k * n + i]. */
  char *source = NULL;
  size_t size = 0;
  FILE *f = open_memstream(&source, &size);
  fputs("#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
        "#pragma OPENCL FP_CONTRACT OFF\n"
        "kernel void expr_values(int n, global const double *points, global double *out) {\n"
        "  int i = get_global_id(0);\n"
        "  if (i >= n) return;\n"
        "  global const double *x = points + 3 * i;\n",
        f);
  for (int k = 0; k < count; k++) {
    char *text = NULL;
    if (exprs[k]) CHECK_OK(hdg_expr_emit(exprs[k], var_c, &text));
    fprintf(f, "  out[%d * n + i] = %s;\n", k, text ? text : "0.0");
    free(text);
  }
  fputs("}\n", f);
  fclose(f);

  double points[3 * N], host[MAX_EXPR * N], device[MAX_EXPR * N];
  unsigned long seed = 12345;
  for (int i = 0; i < 3 * N; i++) {
    seed = seed * 6364136223846793005UL + 1442695040888963407UL;
    double r = (double)(seed >> 11) / 9007199254740992.0; /* [0, 1) */
    points[i] = i % 3 == 0 ? 0.05 + 0.9 * r : i % 3 == 1 ? -0.9 + 1.8 * r : 0.2 + 2.8 * r;
  }
  for (int k = 0; k < count; k++)
    for (int i = 0; i < N; i++)
      host[k * N + i] = exprs[k] ? hdg_expr_eval(exprs[k], points + 3 * i) : 0.0;

  hdgcl_context ctx = test_device();
  cl_program program = NULL;
  cl_kernel kernel = NULL;
  hdgcl_buffer bp = {0}, bo = {0};
  CHECK_OK(hdgcl_program_get_source(ctx, "test_expr_device", source, "", &program));
  if (program) CHECK_OK(hdgcl_kernel_create(program, "expr_values", &kernel));
  if (kernel) {
    CHECK_OK(hdgcl_buffer_create(ctx, sizeof points, "points", &bp));
    CHECK_OK(hdgcl_buffer_create(ctx, (size_t)count * N * sizeof(double), "values", &bo));
    CHECK_OK(hdgcl_buffer_write(ctx, &bp, 0, sizeof points, points));
    cl_int n = N;
    hdgcl_arg args[] = {HDGCL_ARG(n), HDGCL_ARG(bp.mem), HDGCL_ARG(bo.mem)};
    CHECK_OK(hdgcl_kernel_set_args(kernel, 3, args));
    size_t global = N;
    CHECK_OK(hdgcl_kernel_launch(ctx, kernel, 1, &global, NULL, NULL));
    CHECK_OK(hdgcl_buffer_read(ctx, &bo, 0, (size_t)count * N * sizeof(double), device));
    double worst = 0.0;
    for (int k = 0; k < count; k++) {
      double rel = relative_difference(device + k * N, host + k * N, N);
      CHECK_MSG(rel <= 1e-14, "'%s': device and host differ by %.3g (relative)", labels[k], rel);
      if (rel > worst) worst = rel;
    }
    printf("%d expressions at %d points: device and host agree to %.3g (relative)\n", count, N,
           worst);
    clReleaseKernel(kernel);
  }
  CHECK_OK(hdgcl_buffer_release(ctx, &bp));
  CHECK_OK(hdgcl_buffer_release(ctx, &bo));
  CHECK_OK(hdgcl_context_destroy(&ctx));
  free(source);
  for (int k = 0; k < count; k++) {
    hdg_expr_destroy(&exprs[k]);
    free(labels[k]);
  }
  CHECK_DONE();
}
