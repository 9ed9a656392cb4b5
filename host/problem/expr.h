/* Expressions of user-defined problems (issue 26): coefficients, sources,
 * boundary data and exact solutions written as text in x, y, z (and other
 * caller-named variables) and named constants.  Each expression is parsed
 * once on the host into a tree that (a) evaluates it on the host and (b)
 * emits OpenCL C that is compiled into the kernels; the host evaluation does
 * the same operations as the emitted code (same order of the binary
 * operations, the same libm function per node), so host and device agree to
 * a few ulps.
 *
 * Written by hand because no Debian library fits: libmatheval lacks
 * comparisons, ?:, atan2, min and max and exposes no tree; muparser is C++
 * and exposes no tree; so neither can emit OpenCL C.
 *
 * Grammar (C-like; lowest precedence first):
 *
 *   expr    := or [ '?' expr ':' expr ]         conditional, right-associative
 *   or      := and { '||' and }                 value 1 or 0
 *   and     := eq { '&&' eq }                   value 1 or 0
 *   eq      := rel { ('==' | '!=') rel }        value 1 or 0
 *   rel     := add { ('<' | '<=' | '>' | '>=') add }
 *   add     := mul { ('+' | '-') mul }          left-associative
 *   mul     := unary { ('*' | '/') unary }
 *   unary   := ('-' | '+' | '!') unary | power
 *   power   := primary [ ('^' | '**') unary ]   right-associative, binds tighter
 *                                               than unary minus: -x^2 = -(x^2),
 *                                               2^3^2 = 2^9, 2^-1 = 0.5
 *   primary := number | name | function '(' expr { ',' expr } ')' | '(' expr ')'
 *   number  := digits [ '.' [digits] ] [ exponent ] | '.' digits [ exponent ]
 *              e.g. 123, 1.5, 2e-3, .5
 *   name    := a variable (hdg_expr_symbols.vars), a named constant
 *              (hdg_expr_symbols.constant_names, substituted by value), or the
 *              built-in constants pi and e; [A-Za-z_][A-Za-z0-9_]*
 *
 * Functions of one argument: sin cos tan asin acos atan sinh cosh tanh exp
 * log log10 sqrt abs floor ceil; of two: pow atan2 min max (pow(a, b) is
 * a ^ b).  A condition is true when it is not 0 (c ? a : b is
 * (c != 0 ? a : b)); ! c is 1 when c == 0.  Constant subtrees are folded on
 * the host at parse time; a constant that is not finite (1e999, 1/0,
 * log(-1)) is refused.
 *
 * Errors follow host/core/error.h: HDGCL_ERROR_ARGUMENT with a one-line message
 * "WHAT: column N: ..." (N 1-based); every function returns an int status
 * except the pure queries. */
#ifndef HDGCL_HOST_PROBLEM_EXPR_H
#define HDGCL_HOST_PROBLEM_EXPR_H

#include <stdbool.h>

typedef struct hdg_expr hdg_expr; /* opaque AST */

typedef struct hdg_expr_symbols {
  int num_vars;             /* variables: index i is vars[i] in hdg_expr_eval */
  const char *const *vars;  /* e.g. {"x","y","z","nx","ny","nz"} */
  int num_constants;        /* named constants, substituted by value at parse time */
  const char *const *constant_names;
  const double *constant_values;
} hdg_expr_symbols;

/* Parses text.  `what` names the expression in errors, e.g. "problem.json: f"
 * or "--f".  symbols may be NULL (no variables, no named constants).
 * Errors (HDGCL_ERROR_ARGUMENT), one line each, pointing at the place with a
 * 1-based column:
 *   "WHAT: column 5: unknown variable 'q' in 'sin(q)' (known: x, y, z, pi, e, k0)"
 *   "WHAT: column 1: unknown function 'sine'"
 *   "WHAT: column 1: 'sin' takes 1 argument, got 2"
 *   "WHAT: column 7: expected ')'"   (also "expected ':'", "expected '('")
 *   "WHAT: column 4: unexpected end of expression"
 *   "WHAT: column 3: unexpected 'xyz'"
 *   "WHAT: column 1: 'x' is a variable, not a function"
 *   "WHAT: column 1: number '1e999' is not finite"
 *   "WHAT: column 2: '1 / 0' is not finite (inf)"
 *   "WHAT: empty expression"
 * On failure *expr is NULL. */
int hdg_expr_parse(const char *text, const char *what, const hdg_expr_symbols *symbols,
                   hdg_expr **expr);

/* NULL-safe; sets *expr = NULL. */
void hdg_expr_destroy(hdg_expr **expr);

/* A deep copy. */
int hdg_expr_copy(const hdg_expr *e, hdg_expr **copy);

/* The value with variable i = vars[i] (vars may be NULL if no variable is used). */
double hdg_expr_eval(const hdg_expr *e, const double *vars);

/* True if e depends on variable index var. */
bool hdg_expr_uses(const hdg_expr *e, int var);

/* True (and *value, if value is not NULL) if no variable is used. */
bool hdg_expr_constant(const hdg_expr *e, double *value);

/* d e / d vars[var], symbolically, simplified (0*a, 1*a, a+0, a^1, constant
 * folding).  Comparisons, !, &&, ||, floor and ceil have derivative 0;
 * abs -> (a < 0 ? -1 : 1) * a'; min(a, b) -> (a < b ? a' : b'), max likewise;
 * c ? a : b -> c ? a' : b'; pow(a, b) with b independent of var ->
 * b * pow(a, b - 1) * a', with a independent of var -> pow(a, b) * log(a) * b',
 * else pow(a, b) * (b' * log(a) + b * a' / a); atan2(a, b) ->
 * (b * a' - a * b') / (a * a + b * b); tanh -> (1 - tanh(a)^2) * a'.
 * A constant of the derivative that is not finite is refused
 * (HDGCL_ERROR_ARGUMENT). */
int hdg_expr_derivative(const hdg_expr *e, int var, hdg_expr **derivative);

/* OpenCL C text (malloc'd, caller frees) of the expression in double
 * precision, with variable i written as var_c[i] (e.g. "x[0]"): fully
 * parenthesised (but the left operand of a left-associative chain, which C
 * groups the same way: a + b + c for (a + b) + c, so that long sums do not
 * nest parentheses past a compiler's limit); every literal a double literal printed with %.17g (with
 * '.' or 'e' so that it is not an int; negative ones in parentheses); a ^ n
 * for an integer n with |n| <= 4 as repeated multiplication ((a * a) * a),
 * 1.0 / (...) for n < 0, 1.0 for n = 0 (the host evaluation does the same
 * multiplications), other powers as pow(a, b); comparisons as
 * ((a) < (b) ? 1.0 : 0.0); c ? a : b as ((c) != 0.0 ? (a) : (b)); abs as
 * fabs; min/max as fmin/fmax.  E.g. "(sin((6.2831853071795862 * x[0])) * x[1])".
 * The emitted code assumes no floating-point contraction
 * (#pragma OPENCL FP_CONTRACT OFF) for exact agreement with the host. */
int hdg_expr_emit(const hdg_expr *e, const char *const *var_c, char **text);

/* The name a parsed expression goes by in messages: hdg_expr_parse's `what`
 * (e.g. "--f"), or what hdg_expr_set_label gave; NULL for copies and
 * derivatives unless set.  The emitted code carries it in a comment, so that
 * an OpenCL compiler's complaint names the expression (host/core/program.c). */
const char *hdg_expr_label(const hdg_expr *e);
int hdg_expr_set_label(hdg_expr *e, const char *label);

/* The expression printed back in the grammar above, with the parentheses it
 * needs and the shortest literals that round-trip (malloc'd, caller frees),
 * for messages and JSON output.  Variables print as their names given at
 * parse time. */
int hdg_expr_print(const hdg_expr *e, char **text);

/* Parses "name = expression" definitions in order into values[0..count-1];
 * constant k may use constants 0..k-1 (and pi, e).  Refuses names that are
 * not identifiers, duplicates, and names of variables (hdg_expr_reserved),
 * functions, pi and e.  Errors name "WHAT: NAME". */
int hdg_expr_define_constants(int count, const char *const *names, const char *const *texts,
                              const char *what, double *values);

/* True if name may not be a named constant: a function, pi, e, or one of
 * the variables of problems (x, y, z, nx, ny, nz, t). */
bool hdg_expr_reserved(const char *name);

#endif
