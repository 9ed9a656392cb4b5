/* The expression engine of user-defined problems (host/problem/expr*.c):
 * precedence and associativity, every function, conditionals and
 * comparisons, constants and folding, every error message, derivatives
 * against central differences, the emitted OpenCL C text and the printed
 * grammar.  test_expr_device runs the emitted text on the OpenCL device. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "problem/expr.h"

static const char *const vars[] = {"x", "y", "z"};
static const char *const cnames[] = {"k0", "k1"};
static const double cvalues[] = {2.5, -0.75};
static const hdg_expr_symbols symbols = {3, vars, 2, cnames, cvalues};
static const double point[3] = {0.3, -0.7, 1.1};
static const char *const var_c[] = {"x[0]", "x[1]", "x[2]"};

/* The value of text at p (NAN and a failed check if it does not parse). */
static double value_at(const char *text, const double *p) {
  hdg_expr *e = NULL;
  int st = hdg_expr_parse(text, "test", &symbols, &e);
  CHECK_MSG(st == HDGCL_SUCCESS, "'%s': %s", text, hdgcl_last_error());
  if (st) return NAN;
  double v = hdg_expr_eval(e, p);
  hdg_expr_destroy(&e);
  CHECK(e == NULL);
  return v;
}

#define CHECK_VALUE(text, expected)                                                              \
  do {                                                                                           \
    double v_ = value_at(text, point), w_ = (expected);                                          \
    CHECK_MSG(fabs(v_ - w_) <= 1e-15 * fmax(1.0, fabs(w_)), "'%s' = %.17g, expected %.17g",      \
              text, v_, w_);                                                                     \
  } while (0)

static void check_precedence(void) {
  CHECK_VALUE("2^3^2", 512);
  CHECK_VALUE("2**3**2", 512);
  CHECK_VALUE("(2^3)^2", 64);
  CHECK_VALUE("-2^2", -4);
  CHECK_VALUE("-x^2", -0.09);
  CHECK_VALUE("(-2)^2", 4);
  CHECK_VALUE("2^-1", 0.5);
  CHECK_VALUE("2^-1^2", 0.5); /* 2^(-(1^2)) */
  CHECK_VALUE("1-2-3", -4);
  CHECK_VALUE("8/4/2", 1);
  CHECK_VALUE("1+2*3", 7);
  CHECK_VALUE("(1+2)*3", 9);
  CHECK_VALUE("2*3^2", 18);
  CHECK_VALUE("--3", 3);
  CHECK_VALUE("+-+3", -3);
  CHECK_VALUE("1.5 + .5 + 2e-3 + 1E2 + 3.", 105.002);
  CHECK_VALUE("1 + 2 < 4", 1);    /* (1 + 2) < 4 */
  CHECK_VALUE("1 < 2 == 1", 1);   /* (1 < 2) == 1 */
  CHECK_VALUE("1 || 0 && 0", 1);  /* && binds tighter */
  CHECK_VALUE("(1 || 0) && 0", 0);
  CHECK_VALUE("!0 + 1", 2);
  CHECK_VALUE("!x", 0);
  CHECK_VALUE("!(x - 0.3)", 1);
  CHECK_VALUE("0 ? 1 : 0 ? 2 : 3", 3); /* right-associative */
  CHECK_VALUE("1 ? 0 ? 5 : 6 : 7", 6);
  CHECK_VALUE("x > 0 ? 1 + 1 : -1", 2);
  CHECK_VALUE("y > 0 ? 1 : y < -0.5 ? 2 : 3", 2);
  CHECK_VALUE("1 + 1 ? 4 : 5", 4); /* ?: is lowest */
}

static void check_operators(void) {
  CHECK_VALUE("x < y", 0);
  CHECK_VALUE("y < x", 1);
  CHECK_VALUE("x <= 0.3", 1);
  CHECK_VALUE("x > y", 1);
  CHECK_VALUE("x >= 0.30000000000000004", 0);
  CHECK_VALUE("x == 0.3", 1);
  CHECK_VALUE("x != 0.3", 0);
  CHECK_VALUE("x && y", 1);
  CHECK_VALUE("x && 0", 0);
  CHECK_VALUE("0 || y", 1);
  CHECK_VALUE("0 || 0*y", 0);
  CHECK_VALUE("x*y/z - x + y", 0.3 * -0.7 / 1.1 - 0.3 + -0.7);
  CHECK_VALUE("y^3", -0.7 * -0.7 * -0.7);
  CHECK_VALUE("y^4", -0.7 * -0.7 * -0.7 * -0.7);
  CHECK_VALUE("y^-3", 1.0 / (-0.7 * -0.7 * -0.7));
  CHECK_VALUE("y^0", 1);
  CHECK_VALUE("z^5", pow(1.1, 5));
  CHECK_VALUE("z^0.5", sqrt(1.1));
}

static void check_functions(void) {
  const double x = 0.3, y = -0.7, z = 1.1;
  CHECK_VALUE("sin(x)", sin(x));
  CHECK_VALUE("cos(x)", cos(x));
  CHECK_VALUE("tan(x)", tan(x));
  CHECK_VALUE("asin(y)", asin(y));
  CHECK_VALUE("acos(y)", acos(y));
  CHECK_VALUE("atan(y)", atan(y));
  CHECK_VALUE("sinh(z)", sinh(z));
  CHECK_VALUE("cosh(z)", cosh(z));
  CHECK_VALUE("tanh(y)", tanh(y));
  CHECK_VALUE("exp(y)", exp(y));
  CHECK_VALUE("log(z)", log(z));
  CHECK_VALUE("log10(z)", log10(z));
  CHECK_VALUE("sqrt(z)", sqrt(z));
  CHECK_VALUE("abs(y)", 0.7);
  CHECK_VALUE("floor(y)", -1);
  CHECK_VALUE("ceil(y)", 0);
  CHECK_VALUE("pow(z, x)", pow(z, x));
  CHECK_VALUE("pow(y, 2)", y * y);
  CHECK_VALUE("atan2(y, x)", atan2(y, x));
  CHECK_VALUE("min(x, y)", y);
  CHECK_VALUE("max(x, y)", x);
  CHECK_VALUE("max(min(x, z), y) * 2", 0.6);
  CHECK_VALUE("sin(x)^2 + cos(x)^2", sin(x) * sin(x) + cos(x) * cos(x));
}

static void check_constants(void) {
  CHECK_VALUE("pi", 3.14159265358979323846);
  CHECK_VALUE("e", 2.71828182845904523536);
  CHECK_VALUE("k0 * k1", 2.5 * -0.75);
  CHECK_VALUE("2 * pi * x", 2 * 3.14159265358979323846 * 0.3);

  /* Folding: constant subtrees become literals. */
  hdg_expr *e = NULL;
  double v = 0;
  CHECK_OK(hdg_expr_parse("sin(pi / 6) * 2 + k0", "test", &symbols, &e));
  CHECK(hdg_expr_constant(e, &v));
  CHECK_NEAR(v, 3.5, 1e-15);
  char *text = NULL;
  CHECK_OK(hdg_expr_print(e, &text));
  CHECK_MSG(text && strchr(text, 's') == NULL, "folded '%s'", text);
  free(text);
  hdg_expr_destroy(&e);
  CHECK_OK(hdg_expr_parse("0 ? x : 2^3", "test", &symbols, &e)); /* a constant condition */
  CHECK(hdg_expr_constant(e, &v) && v == 8);
  hdg_expr_destroy(&e);
  CHECK_OK(hdg_expr_parse("x * (2 * 3) + y", "test", &symbols, &e));
  CHECK(!hdg_expr_constant(e, &v));
  CHECK(hdg_expr_uses(e, 0) && hdg_expr_uses(e, 1) && !hdg_expr_uses(e, 2));
  CHECK_OK(hdg_expr_print(e, &text));
  CHECK_MSG(text && !strcmp(text, "x * 6 + y"), "'%s'", text);
  free(text);
  hdg_expr *copy = NULL;
  CHECK_OK(hdg_expr_copy(e, &copy));
  hdg_expr_destroy(&e);
  CHECK_NEAR(hdg_expr_eval(copy, point), 0.3 * 6 - 0.7, 1e-15);
  hdg_expr_destroy(&copy);
  hdg_expr_destroy(&copy); /* NULL-safe */
  hdg_expr_destroy(NULL);

  /* No symbols at all. */
  CHECK_OK(hdg_expr_parse("  2 * e ", "test", NULL, &e));
  CHECK(hdg_expr_constant(e, &v) && v == 2 * 2.71828182845904523536);
  hdg_expr_destroy(&e);
}

/* Parsing text must fail, with every one of the NULL-terminated strings
 * in the message. */
static void check_error(const char *text, ...) {
  hdg_expr *e = (hdg_expr *)&e; /* must become NULL */
  CHECK_FAILS(hdg_expr_parse(text, "problem.json: f", &symbols, &e), HDGCL_ERROR_ARGUMENT);
  CHECK(e == NULL);
  const char *msg = hdgcl_last_error();
  CHECK_MSG(strncmp(msg, "problem.json: f: ", 17) == 0, "'%s': '%s'", text, msg);
  CHECK_MSG(strchr(msg, '\n') == NULL, "'%s': '%s' is not one line", text, msg);
  va_list ap;
  va_start(ap, text);
  for (const char *s = va_arg(ap, const char *); s; s = va_arg(ap, const char *))
    CHECK_MSG(strstr(msg, s) != NULL, "'%s': expected '%s' in '%s'", text, s, msg);
  va_end(ap);
}

static void check_errors(void) {
  check_error("sin(q)",
              "column 5: unknown variable 'q' in 'sin(q)' (known: x, y, z, pi, e, k0, k1)", NULL);
  check_error("1 + sine(x)", "column 5: unknown function 'sine'", NULL);
  check_error("sin(x, y)", "column 1: 'sin' takes 1 argument, got 2", NULL);
  check_error("atan2(x)", "column 1: 'atan2' takes 2 arguments, got 1", NULL);
  check_error("x + min()", "column 5: 'min' takes 2 arguments, got 0", NULL);
  check_error("pow(x, y, z, 1)", "'pow' takes 2 arguments, got 4", NULL);
  check_error("(x + 1", "column 7: expected ')'", NULL);
  check_error("sin(x", "column 6: expected ')'", NULL);
  check_error("sin(x y)", "column 7: expected ')'", NULL);
  check_error("x ? 1", "column 6: expected ':'", NULL);
  check_error("x +", "column 4: unexpected end of expression", NULL);
  check_error("x + ", "column 5: unexpected end of expression", NULL);
  check_error("x + xyz", "column 5: unknown variable 'xyz'", NULL);
  check_error("x xyz", "column 3: unexpected 'xyz'", NULL);
  check_error("2x", "column 2: unexpected 'x'", NULL);
  check_error("x * * y", "column 5: unexpected '*'", NULL);
  check_error("x = 1", "column 3: unexpected '='", NULL);
  check_error("x & y", "column 3: unexpected '&'", NULL);
  check_error("x + @", "column 5: unexpected '@'", NULL);
  check_error("x + µ", "column 5: unexpected 'µ'", NULL);
  check_error("x)", "column 2: unexpected ')'", NULL);
  check_error("()", "column 2: unexpected ')'", NULL);
  check_error("", "empty expression", NULL);
  check_error("   ", "empty expression", NULL);
  check_error(NULL, "empty expression", NULL);
  check_error("x(1)", "column 1: 'x' is a variable, not a function", NULL);
  check_error("k0(1)", "column 1: 'k0' is a constant, not a function", NULL);
  check_error("sin + 1", "column 5: expected '(' after 'sin'", NULL);
  check_error("1e999 * x", "column 1: number '1e999' is not finite", NULL);
  check_error("2e+ * x", "column 1: malformed number '2e+'", NULL);
  check_error("x + 1 / 0", "column 7: '1 / 0' is not finite (inf)", NULL);
  check_error("x + log(-1)", "column 5: 'log(-1)' is not finite (nan)", NULL);
  check_error("x * exp(1000)", "column 5: 'exp(1000)' is not finite (inf)", NULL);
  check_error("-(1e300 * 1e300)", "column 9: '1e+300 * 1e+300' is not finite (inf)", NULL);
  /* Deep nesting is refused, not a stack overflow. */
  char deep[2100];
  memset(deep, '(', 1000);
  deep[1000] = 'x';
  memset(deep + 1001, ')', 1000);
  deep[2001] = '\0';
  check_error(deep, "nested too deeply", NULL);
  memset(deep, '-', 1000);
  deep[1000] = 'x';
  deep[1001] = '\0';
  check_error(deep, "nested too deeply", NULL);
  /* A long chain is a deep tree with no parentheses: refused past
   * EXPR_MAX_TREE_DEPTH operations (the host's recursions), accepted below. */
  static char chain[20000];
  chain[0] = 'x';
  for (int k = 1; k <= 2000; k++) memcpy(chain + 2 * k - 1, "+y", 3);
  check_error(chain, "column 4000: expression too deep (more than 2000 operations", NULL);
}

/* Deepest nesting of parentheses in s. */
static int paren_depth(const char *s) {
  int d = 0, dmax = 0;
  for (; *s; s++) {
    if (*s == '(') dmax = d + 1 > dmax ? d + 1 : dmax, d++;
    if (*s == ')') d--;
  }
  return dmax;
}

/* A sum of 1500 terms emits without nesting parentheses (compilers refuse
 * more than 256 levels) and evaluates the host's way. */
static void check_long_chain(void) {
  static char chain[20000];
  size_t n = 0;
  for (int k = 0; k < 1500; k++) n += (size_t)snprintf(chain + n, sizeof chain - n, "%sx*y/%d", k ? " - " : "", k + 1);
  hdg_expr_symbols sym = {3, vars, 0, NULL, NULL};
  hdg_expr *e = NULL;
  CHECK_OK(hdg_expr_parse(chain, "chain", &sym, &e));
  char *emitted = NULL;
  if (e) CHECK_OK(hdg_expr_emit(e, var_c, &emitted));
  CHECK_MSG(emitted && paren_depth(emitted) <= 3, "a 1500-term sum emits %d levels of parentheses",
            emitted ? paren_depth(emitted) : -1);
  if (e) {
    double p[3] = {0.3, 0.7, 0.1}, want = 0.0;
    for (int k = 0; k < 1500; k++) want = k ? want - p[0] * p[1] / (k + 1) : p[0] * p[1] / (k + 1);
    CHECK_MSG(hdg_expr_eval(e, p) == want, "chain evaluates to %.17g, want %.17g", hdg_expr_eval(e, p), want);
    CHECK_MSG(hdg_expr_label(e) && !strcmp(hdg_expr_label(e), "chain"), "the parsed expression's label");
  }
  free(emitted);
  hdg_expr_destroy(&e);
}

/* Central differences of e in variable var at p. */
static double central_difference(const hdg_expr *e, int var, const double *p) {
  double q[3] = {p[0], p[1], p[2]};
  double h = 1e-5 * fmax(1.0, fabs(p[var]));
  q[var] = p[var] + h;
  double fp = hdg_expr_eval(e, q);
  q[var] = p[var] - h;
  double fm = hdg_expr_eval(e, q);
  return (fp - fm) / (2 * h);
}

static void check_derivatives(void) {
  static const char *const texts[] = {
      "x^3 * y - z",
      "pow(x, 2.5) + x^-2",
      "x^y",
      "2^(x * y)",
      "atan2(y, x) + atan2(x * x, y - 3)",
      "tanh(x * y) / z",
      "x > 0.5 ? x^2 * y : sin(x * y)",
      "abs(x - y) * z",
      "min(x, y^2) + max(x * y, z)",
      "sqrt(x^2 + y^2 + z^2)",
      "exp(-x) * cos(y) + sin(z) * tan(x)",
      "log(x) / y + log10(x * z * z)",
      "asin(x / 2) + acos(y / 3) + atan(x * z)",
      "sinh(x) * cosh(y) + floor(x) + ceil(y) * x",
      "x / y - (y + 1) / (x * z)",
      "-(x - y)^4 + k0 * x * (x < y) + !(x > 3)",
      "(x > 0 && y > 0) || z > 2 ? x * y * z : x + y + z",
  };
  static const double points[][3] = {{0.3, 0.7, 1.1}, {0.8, 0.45, -0.2}, {1.3, 1.7, 0.5},
                                     {0.61, 0.2, 2.4}};
  for (size_t t = 0; t < sizeof texts / sizeof texts[0]; t++) {
    hdg_expr *e = NULL;
    CHECK_OK(hdg_expr_parse(texts[t], "test", &symbols, &e));
    if (!e) continue;
    for (int var = 0; var < 3; var++) {
      hdg_expr *de = NULL;
      CHECK_OK(hdg_expr_derivative(e, var, &de));
      if (!de) continue;
      CHECK(hdg_expr_uses(e, var) || hdg_expr_constant(de, NULL));
      for (size_t k = 0; k < sizeof points / sizeof points[0]; k++) {
        double exact = hdg_expr_eval(de, points[k]);
        double fd = central_difference(e, var, points[k]);
        CHECK_MSG(fabs(exact - fd) <= 1e-7 * fmax(1.0, fabs(fd)),
                  "d/d%s '%s' at (%g, %g, %g): %.12g, differences %.12g", vars[var], texts[t],
                  points[k][0], points[k][1], points[k][2], exact, fd);
      }
      hdg_expr_destroy(&de);
    }
    hdg_expr_destroy(&e);
  }
}

/* The derivative of text in var prints as expected. */
static void check_derivative_text(const char *text, int var, const char *expected) {
  hdg_expr *e = NULL, *de = NULL;
  char *printed = NULL;
  CHECK_OK(hdg_expr_parse(text, "test", &symbols, &e));
  if (e) CHECK_OK(hdg_expr_derivative(e, var, &de));
  if (de) CHECK_OK(hdg_expr_print(de, &printed));
  CHECK_MSG(printed && !strcmp(printed, expected), "d/d%s '%s' = '%s', expected '%s'", vars[var],
            text, printed ? printed : "(null)", expected);
  free(printed);
  hdg_expr_destroy(&de);
  hdg_expr_destroy(&e);
}

static void check_simplification(void) {
  check_derivative_text("x^2", 0, "2 * x");
  check_derivative_text("x^3 + 1", 0, "3 * x^2");
  check_derivative_text("sin(x)", 0, "cos(x)");
  check_derivative_text("cos(x)", 0, "-sin(x)");
  check_derivative_text("x * y + 1", 0, "y");
  check_derivative_text("x * y + 1", 2, "0");
  check_derivative_text("2 * x - y", 0, "2");
  check_derivative_text("-x", 0, "-1");
  check_derivative_text("exp(2 * x)", 0, "exp(2 * x) * 2");
  check_derivative_text("log(x)", 0, "1 / x");
  check_derivative_text("sqrt(y)", 1, "1 / (2 * sqrt(y))");
  check_derivative_text("abs(x)", 0, "x < 0 ? -1 : 1");
  check_derivative_text("min(x, y)", 0, "x < y ? 1 : 0");
  check_derivative_text("x / 2", 0, "0.5");
  check_derivative_text("floor(x) + (x > 1)", 0, "0");
  check_derivative_text("2^x", 0, "2^x * 0.6931471805599453");

  /* A derivative with a constant that is not finite is refused. */
  hdg_expr *e = NULL, *de = (hdg_expr *)&de;
  CHECK_OK(hdg_expr_parse("x * 1e308 * 1e308", "test", &symbols, &e));
  if (e) CHECK_FAILS(hdg_expr_derivative(e, 0, &de), HDGCL_ERROR_ARGUMENT);
  CHECK(de == NULL);
  const char *msg = hdgcl_last_error();
  CHECK_MSG(strstr(msg, "derivative of 'x * 1e+308 * 1e+308' with respect to x: "
                        "'1e+308 * 1e+308' is not finite"),
            "'%s'", msg);
  hdg_expr_destroy(&e);
}

static void check_emit_text(const char *text, const char *expected) {
  hdg_expr *e = NULL;
  char *emitted = NULL;
  CHECK_OK(hdg_expr_parse(text, "test", &symbols, &e));
  if (e) CHECK_OK(hdg_expr_emit(e, var_c, &emitted));
  CHECK_MSG(emitted && !strcmp(emitted, expected), "'%s' emits '%s', expected '%s'", text,
            emitted ? emitted : "(null)", expected);
  free(emitted);
  hdg_expr_destroy(&e);
}

static void check_emit(void) {
  check_emit_text("sin(2*pi*x)*y", "(sin((6.2831853071795862 * x[0])) * x[1])");
  check_emit_text("3", "3.0");
  check_emit_text("-1 + x", "((-1.0) + x[0])");
  check_emit_text("0.1 * z", "(0.10000000000000001 * x[2])");
  check_emit_text("1e300 * x", "(1.0000000000000001e+300 * x[0])");
  check_emit_text("x^2", "(x[0] * x[0])");
  check_emit_text("(x + y)^3", "(((x[0] + x[1]) * (x[0] + x[1])) * (x[0] + x[1]))");
  check_emit_text("x^-2", "(1.0 / (x[0] * x[0]))");
  check_emit_text("x^1", "x[0]");
  check_emit_text("x^0", "1.0");
  check_emit_text("x^0.5 + pow(x, 5)", "(pow(x[0], 0.5) + pow(x[0], 5.0))");
  check_emit_text("-x", "(-x[0])");
  check_emit_text("x < 1", "((x[0]) < (1.0) ? 1.0 : 0.0)");
  check_emit_text("x != y", "((x[0]) != (x[1]) ? 1.0 : 0.0)");
  check_emit_text("x ? y : z", "((x[0]) != 0.0 ? (x[1]) : (x[2]))");
  check_emit_text("!x", "((x[0]) == 0.0 ? 1.0 : 0.0)");
  check_emit_text("x && y || z",
                  "((((((x[0]) != 0.0 && (x[1]) != 0.0) ? 1.0 : 0.0)) != 0.0 || (x[2]) != 0.0) ? "
                  "1.0 : 0.0)");
  check_emit_text("abs(x) + min(x, y) - max(y, z)",
                  "(fabs(x[0]) + fmin(x[0], x[1]) - fmax(x[1], x[2]))");
  /* chains of one level group left in C as in the tree; other operands keep theirs */
  check_emit_text("x - y - z", "(x[0] - x[1] - x[2])");
  check_emit_text("x - (y - z)", "(x[0] - (x[1] - x[2]))");
  check_emit_text("x / y * z", "(x[0] / x[1] * x[2])");
  check_emit_text("x * (y / z)", "(x[0] * (x[1] / x[2]))");
  check_emit_text("x + y * z - z", "(x[0] + (x[1] * x[2]) - x[2])");
  check_emit_text("x * y + z", "((x[0] * x[1]) + x[2])");
  check_emit_text("atan2(y, x) / log10(z)", "(atan2(x[1], x[0]) / log10(x[2]))");
}

/* text prints as expected, and the printed text parses to the same values. */
static void check_print_text(const char *text, const char *expected) {
  hdg_expr *e = NULL, *again = NULL;
  char *printed = NULL;
  CHECK_OK(hdg_expr_parse(text, "test", &symbols, &e));
  if (e) CHECK_OK(hdg_expr_print(e, &printed));
  CHECK_MSG(printed && !strcmp(printed, expected), "'%s' prints '%s', expected '%s'", text,
            printed ? printed : "(null)", expected);
  if (printed) CHECK_OK(hdg_expr_parse(printed, "printed", &symbols, &again));
  if (e && again) {
    double v = hdg_expr_eval(e, point), w = hdg_expr_eval(again, point);
    CHECK_MSG(v == w || (isnan(v) && isnan(w)), "'%s' = %.17g, printed '%s' = %.17g", text, v,
              printed, w);
  }
  free(printed);
  hdg_expr_destroy(&e);
  hdg_expr_destroy(&again);
}

static void check_print(void) {
  check_print_text("-x^2", "-x^2");
  check_print_text("(-x)^2", "(-x)^2");
  check_print_text("2^3^x", "2^3^x");
  check_print_text("(2^x)^3", "(2^x)^3");
  check_print_text("x^-y", "x^-y");
  check_print_text("x ** 2", "x^2");
  check_print_text("(x - y) - (z - 1)", "x - y - (z - 1)");
  check_print_text("x / (y * z)", "x / (y * z)");
  check_print_text("x - -1.5", "x - -1.5");
  check_print_text("x * -1.5", "x * -1.5");
  /* signs on signs without parentheses, which doubled the nesting of a chain
   * so that a long one no longer parsed back (tests/fuzz/fuzz_expr) */
  check_print_text("--x", "- -x");
  check_print_text("-(-x)^2", "-(-x)^2");
  check_print_text("!!x", "!!x");
  check_print_text("-!x", "-!x");
  check_print_text("!-x", "!-x");
  check_print_text("x^--y", "x^- -y");
  {
    char chain[160], printed[320];
    size_t n = 0;
    for (int k = 0; k < 150; k++) {
      chain[k] = '-';
      n += (size_t)snprintf(printed + n, sizeof printed - n, k < 149 ? "- " : "-");
    }
    snprintf(chain + 150, sizeof chain - 150, "x");
    snprintf(printed + n, sizeof printed - n, "x");
    check_print_text(chain, printed);
  }
  check_print_text("(-1.5)^x", "(-1.5)^x");
  check_print_text("(x < y) < z", "x < y < z");
  check_print_text("x < (y < z)", "x < (y < z)");
  check_print_text("x || y && z", "x || y && z");
  check_print_text("(x || y) && z", "(x || y) && z");
  check_print_text("!(x > 1)", "!(x > 1)");
  check_print_text("x ? y ? 1 : 2 : z ? 3 : 4", "x ? y ? 1 : 2 : z ? 3 : 4");
  check_print_text("(x ? y : z) ? 1 : 2", "(x ? y : z) ? 1 : 2");
  check_print_text("x + (y ? 1 : 2)", "x + (y ? 1 : 2)");
  check_print_text("pow(x, 0.1) + atan2(y, max(x, z))", "x^0.1 + atan2(y, max(x, z))");
  check_print_text("pi * x", "3.141592653589793 * x");
  check_print_text("k1 + 1e-20 * x", "-0.75 + 1e-20 * x");
}

static void check_define_constants(void) {
  const char *names[] = {"a", "b_2", "c"};
  const char *texts[] = {"2", "a * 3", "b_2 + pi"};
  double values[3] = {0};
  CHECK_OK(hdg_expr_define_constants(3, names, texts, "problem.json: constants", values));
  CHECK(values[0] == 2 && values[1] == 6 && values[2] == 6 + 3.14159265358979323846);

  static const struct {
    const char *name, *text, *message;
  } bad[] = {
      {"1a", "1", "problem.json: constants: '1a' is not a name"},
      {"", "1", "'' is not a name"},
      {"a-b", "1", "'a-b' is not a name"},
      {"x", "1", "'x' is reserved"},
      {"nz", "1", "'nz' is reserved"},
      {"sin", "1", "'sin' is reserved"},
      {"pow", "1", "'pow' is reserved"},
      {"pi", "1", "'pi' is reserved"},
      {"e", "1", "'e' is reserved"},
      {"a", "1", "'a' is defined twice"},
      {"d", "a + d2", "problem.json: constants: d: column 5: unknown variable 'd2' in 'a + d2' "
                      "(known: pi, e, a)"},
      {"d", "x", "d: column 1: unknown variable 'x'"},
      {"d", "a / 0", "d: column 3: '1 / 0' is not finite (inf)"},
      {"d", "", "d: empty expression"},
  };
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    const char *n[2] = {"a", bad[k].name}, *t[2] = {"1", bad[k].text};
    CHECK_FAILS(hdg_expr_define_constants(2, n, t, "problem.json: constants", values),
                HDGCL_ERROR_ARGUMENT);
    CHECK_MSG(strstr(hdgcl_last_error(), bad[k].message) != NULL, "expected '%s' in '%s'",
              bad[k].message, hdgcl_last_error());
  }
  CHECK(hdg_expr_reserved("y") && hdg_expr_reserved("log10") && !hdg_expr_reserved("k"));
}

int main(void) {
  check_precedence();
  check_operators();
  check_functions();
  check_constants();
  check_errors();
  check_derivatives();
  check_simplification();
  check_emit();
  check_long_chain();
  check_print();
  check_define_constants();
  CHECK_DONE();
}
