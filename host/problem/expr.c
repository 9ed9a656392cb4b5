/* Expressions (expr.h): the tree, constant folding, host evaluation and
 * the parser; expr_text.c prints and emits, expr_derivative.c differentiates. */
#include "problem/expr.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "problem/expr_impl.h"

#define EXPR_PI 3.14159265358979323846
#define EXPR_E 2.71828182845904523536
#define EXPR_MAX_DEPTH 200 /* nesting the recursive descent accepts */

const expr_function expr_functions[FN_COUNT] = {
    [FN_SIN] = {"sin", "sin", 1},       [FN_COS] = {"cos", "cos", 1},
    [FN_TAN] = {"tan", "tan", 1},       [FN_ASIN] = {"asin", "asin", 1},
    [FN_ACOS] = {"acos", "acos", 1},    [FN_ATAN] = {"atan", "atan", 1},
    [FN_SINH] = {"sinh", "sinh", 1},    [FN_COSH] = {"cosh", "cosh", 1},
    [FN_TANH] = {"tanh", "tanh", 1},    [FN_EXP] = {"exp", "exp", 1},
    [FN_LOG] = {"log", "log", 1},       [FN_LOG10] = {"log10", "log10", 1},
    [FN_SQRT] = {"sqrt", "sqrt", 1},    [FN_ABS] = {"abs", "fabs", 1},
    [FN_FLOOR] = {"floor", "floor", 1}, [FN_CEIL] = {"ceil", "ceil", 1},
    [FN_ATAN2] = {"atan2", "atan2", 2}, [FN_MIN] = {"min", "fmin", 2},
    [FN_MAX] = {"max", "fmax", 2},
};

/* ---------------------------------------------------------------- the tree */

int expr_operands(const hdg_expr *e) {
  switch (e->kind) {
  case EXPR_NUM:
  case EXPR_VAR: return 0;
  case EXPR_NEG:
  case EXPR_NOT: return 1;
  case EXPR_COND: return 3;
  case EXPR_CALL: return expr_functions[e->func].arity;
  default: return 2;
  }
}

void hdg_expr_destroy(hdg_expr **expr) {
  if (!expr || !*expr) return;
  hdg_expr *e = *expr;
  hdg_expr_destroy(&e->a);
  hdg_expr_destroy(&e->b);
  hdg_expr_destroy(&e->c);
  free(e->name);
  free(e->label);
  free(e);
  *expr = NULL;
}

int expr_number(double value, hdg_expr **out) {
  HDGCL_TRY(hdgcl_calloc(1, sizeof **out, "expression", out));
  (*out)->kind = EXPR_NUM;
  (*out)->value = value;
  (*out)->depth = 1;
  return HDGCL_SUCCESS;
}

int expr_variable(int var, const char *name, hdg_expr **out) {
  hdg_expr *e = NULL;
  HDGCL_TRY(hdgcl_calloc(1, sizeof *e, "expression", &e));
  size_t n = strlen(name) + 1;
  int st = hdgcl_calloc(n, 1, "expression variable name", &e->name);
  if (st) {
    free(e);
    return st;
  }
  memcpy(e->name, name, n);
  e->kind = EXPR_VAR;
  e->var = var;
  e->depth = 1;
  *out = e;
  return HDGCL_SUCCESS;
}

int hdg_expr_copy(const hdg_expr *e, hdg_expr **copy) {
  *copy = NULL;
  if (e->kind == EXPR_VAR) return expr_variable(e->var, e->name, copy);
  hdg_expr *c = NULL;
  HDGCL_TRY(hdgcl_calloc(1, sizeof *c, "expression", &c));
  *c = *e;
  c->a = c->b = c->c = NULL;
  c->label = NULL; /* labels name a parsed text, not its copies */
  int st = HDGCL_SUCCESS;
  if (e->a) st = hdg_expr_copy(e->a, &c->a);
  if (!st && e->b) st = hdg_expr_copy(e->b, &c->b);
  if (!st && e->c) st = hdg_expr_copy(e->c, &c->c);
  if (st) {
    hdg_expr_destroy(&c);
    return st;
  }
  *copy = c;
  return HDGCL_SUCCESS;
}

bool expr_small_power(const hdg_expr *e, int *n) {
  if (e->kind != EXPR_POW || e->b->kind != EXPR_NUM) return false;
  double b = e->b->value;
  if (!(fabs(b) <= 4.0) || b != floor(b)) return false;
  *n = (int)b;
  return true;
}

/* x^n by repeated multiplication, as hdg_expr_emit writes it. */
static double power_int(double x, int n) {
  if (n == 0) return 1.0;
  double m = x;
  for (int k = 1; k < abs(n); k++) m = m * x;
  return n < 0 ? 1.0 / m : m;
}

static double call(expr_func f, double a, double b) {
  switch (f) {
  case FN_SIN: return sin(a);
  case FN_COS: return cos(a);
  case FN_TAN: return tan(a);
  case FN_ASIN: return asin(a);
  case FN_ACOS: return acos(a);
  case FN_ATAN: return atan(a);
  case FN_SINH: return sinh(a);
  case FN_COSH: return cosh(a);
  case FN_TANH: return tanh(a);
  case FN_EXP: return exp(a);
  case FN_LOG: return log(a);
  case FN_LOG10: return log10(a);
  case FN_SQRT: return sqrt(a);
  case FN_ABS: return fabs(a);
  case FN_FLOOR: return floor(a);
  case FN_CEIL: return ceil(a);
  case FN_ATAN2: return atan2(a, b);
  case FN_MIN: return fmin(a, b);
  case FN_MAX: return fmax(a, b);
  case FN_COUNT: break;
  }
  return NAN;
}

/* The operations of hdg_expr_emit's text, one per node. */
double hdg_expr_eval(const hdg_expr *e, const double *vars) {
#define A hdg_expr_eval(e->a, vars)
#define B hdg_expr_eval(e->b, vars)
  switch (e->kind) {
  case EXPR_NUM: return e->value;
  case EXPR_VAR: return vars[e->var];
  case EXPR_NEG: return -A;
  case EXPR_NOT: return A == 0.0 ? 1.0 : 0.0;
  case EXPR_ADD: return A + B;
  case EXPR_SUB: return A - B;
  case EXPR_MUL: return A * B;
  case EXPR_DIV: return A / B;
  case EXPR_POW: {
    int n;
    return expr_small_power(e, &n) ? power_int(A, n) : pow(A, B);
  }
  case EXPR_LT: return A < B ? 1.0 : 0.0;
  case EXPR_LE: return A <= B ? 1.0 : 0.0;
  case EXPR_GT: return A > B ? 1.0 : 0.0;
  case EXPR_GE: return A >= B ? 1.0 : 0.0;
  case EXPR_EQ: return A == B ? 1.0 : 0.0;
  case EXPR_NE: return A != B ? 1.0 : 0.0;
  case EXPR_AND: return (A != 0.0 && B != 0.0) ? 1.0 : 0.0;
  case EXPR_OR: return (A != 0.0 || B != 0.0) ? 1.0 : 0.0;
  case EXPR_COND: return A != 0.0 ? B : hdg_expr_eval(e->c, vars);
  case EXPR_CALL: return call(e->func, A, e->b ? B : 0.0);
  }
  return NAN;
#undef A
#undef B
}

int expr_node(expr_kind kind, expr_func func, hdg_expr *a, hdg_expr *b, hdg_expr *c,
              hdg_expr **out) {
  *out = NULL;
  if (kind == EXPR_COND && a->kind == EXPR_NUM) { /* c ? a : b with a constant c */
    bool first = a->value != 0.0;
    *out = first ? b : c;
    hdg_expr_destroy(&a);
    hdg_expr_destroy(first ? &c : &b);
    return HDGCL_SUCCESS;
  }
  hdg_expr *e = NULL;
  int st = hdgcl_calloc(1, sizeof *e, "expression", &e);
  if (st) {
    hdg_expr_destroy(&a);
    hdg_expr_destroy(&b);
    hdg_expr_destroy(&c);
    return st;
  }
  e->kind = kind;
  e->func = func;
  e->a = a;
  e->b = b;
  e->c = c;
  e->depth = 1 + (a ? a->depth : 0);
  if (b && 1 + b->depth > e->depth) e->depth = 1 + b->depth;
  if (c && 1 + c->depth > e->depth) e->depth = 1 + c->depth;
  if ((!a || a->kind == EXPR_NUM) && (!b || b->kind == EXPR_NUM) && (!c || c->kind == EXPR_NUM)) {
    double v = hdg_expr_eval(e, NULL);
    if (isfinite(v)) {
      hdg_expr_destroy(&e->a);
      hdg_expr_destroy(&e->b);
      hdg_expr_destroy(&e->c);
      e->kind = EXPR_NUM;
      e->value = v;
      e->depth = 1;
    }
  }
  *out = e;
  return HDGCL_SUCCESS;
}

bool expr_unfolded(const hdg_expr *e) {
  if (e->kind == EXPR_NUM || e->kind == EXPR_VAR) return false;
  return e->a->kind == EXPR_NUM && (!e->b || e->b->kind == EXPR_NUM) &&
         (!e->c || e->c->kind == EXPR_NUM);
}

bool hdg_expr_uses(const hdg_expr *e, int var) {
  if (e->kind == EXPR_VAR) return e->var == var;
  return (e->a && hdg_expr_uses(e->a, var)) || (e->b && hdg_expr_uses(e->b, var)) ||
         (e->c && hdg_expr_uses(e->c, var));
}

static bool uses_any(const hdg_expr *e) {
  if (e->kind == EXPR_VAR) return true;
  return (e->a && uses_any(e->a)) || (e->b && uses_any(e->b)) || (e->c && uses_any(e->c));
}

bool hdg_expr_constant(const hdg_expr *e, double *value) {
  if (uses_any(e)) return false;
  if (value) *value = hdg_expr_eval(e, NULL);
  return true;
}

/* -------------------------------------------------------------- the parser */

typedef enum token {
  T_END, T_NUM, T_NAME, T_PLUS, T_MINUS, T_STAR, T_SLASH, T_POW, T_LP, T_RP, T_COMMA, T_QUEST,
  T_COLON, T_LT, T_LE, T_GT, T_GE, T_EQ, T_NE, T_AND, T_OR, T_NOT, T_BAD
} token;

typedef struct parser {
  const char *text, *what;
  const hdg_expr_symbols *sym;
  size_t pos;             /* where the lexer goes on */
  token tok;              /* the current token */
  size_t start, len;      /* its place in text */
  int depth;
} parser;

/* "WHAT: column N: DETAIL" with N the 1-based column of text[at]. */
static int fail(const parser *p, size_t at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(const parser *p, size_t at, const char *fmt, ...) {
  char detail[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(detail, sizeof detail, fmt, ap);
  va_end(ap);
  return hdgcl_error(HDGCL_ERROR_ARGUMENT, "%s: column %zu: %s", p->what, at + 1, detail);
}

static int unexpected(const parser *p) {
  if (p->tok == T_END) return fail(p, p->start, "unexpected end of expression");
  return fail(p, p->start, "unexpected '%.*s'", (int)p->len, p->text + p->start);
}

static bool is_alpha(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
static bool is_digit(char c) { return c >= '0' && c <= '9'; }

/* The next token into p->tok, p->start, p->len. */
static int advance(parser *p) {
  static const struct {
    const char *text;
    token tok;
  } ops[] = {{"**", T_POW}, {"<=", T_LE}, {">=", T_GE}, {"==", T_EQ}, {"!=", T_NE}, {"&&", T_AND},
             {"||", T_OR},  {"+", T_PLUS}, {"-", T_MINUS}, {"*", T_STAR}, {"/", T_SLASH},
             {"^", T_POW},  {"(", T_LP},   {")", T_RP},    {",", T_COMMA}, {"?", T_QUEST},
             {":", T_COLON}, {"<", T_LT},  {">", T_GT},    {"!", T_NOT}};
  const char *s = p->text;
  size_t i = p->pos;
  while (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') i++;
  p->start = i;
  if (!s[i]) {
    p->tok = T_END;
  } else if (is_digit(s[i]) || (s[i] == '.' && is_digit(s[i + 1]))) {
    while (is_digit(s[i])) i++;
    if (s[i] == '.') i++;
    while (is_digit(s[i])) i++;
    if (s[i] == 'e' || s[i] == 'E') {
      size_t j = i + 1;
      if (s[j] == '+' || s[j] == '-') j++;
      if (!is_digit(s[j])) {
        while (is_alpha(s[j]) || is_digit(s[j])) j++;
        return fail(p, p->start, "malformed number '%.*s'", (int)(j - p->start), s + p->start);
      }
      for (i = j; is_digit(s[i]);) i++;
    }
    p->tok = T_NUM;
  } else if (is_alpha(s[i])) {
    while (is_alpha(s[i]) || is_digit(s[i])) i++;
    p->tok = T_NAME;
  } else {
    p->tok = T_BAD;
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++)
      if (!strncmp(s + i, ops[k].text, strlen(ops[k].text))) {
        p->tok = ops[k].tok;
        i += strlen(ops[k].text);
        break;
      }
    if (p->tok == T_BAD) /* one character, whole if it is UTF-8 */
      for (i++; ((unsigned char)s[i] & 0xC0) == 0x80;) i++;
  }
  p->len = i - p->start;
  p->pos = i;
  return HDGCL_SUCCESS;
}

static int expect(parser *p, token tok, const char *text) {
  if (p->tok != tok) return fail(p, p->start, "expected '%s'", text);
  return advance(p);
}

/* expr_node, refusing a constant that is not finite (at column `at`). */
static int build(const parser *p, size_t at, expr_kind kind, expr_func func, hdg_expr *a,
                 hdg_expr *b, hdg_expr *c, hdg_expr **out) {
  HDGCL_TRY(expr_node(kind, func, a, b, c, out));
  if ((*out)->depth > EXPR_MAX_TREE_DEPTH) {
    hdg_expr_destroy(out);
    return fail(p, at, "expression too deep (more than %d operations applied one to the result "
                "of the next); simplify it", EXPR_MAX_TREE_DEPTH);
  }
  if (!expr_unfolded(*out)) return HDGCL_SUCCESS;
  double v = hdg_expr_eval(*out, NULL);
  char *text = NULL;
  int st = hdg_expr_print(*out, &text);
  if (!st)
    st = fail(p, at, "'%s' is not finite (%s)", text, isnan(v) ? "nan" : v > 0 ? "inf" : "-inf");
  free(text);
  hdg_expr_destroy(out);
  return st;
}

static int parse_expr(parser *p, hdg_expr **out);
static int parse_unary(parser *p, hdg_expr **out);

/* The known names for "unknown variable": variables, pi, e, named constants. */
static int unknown_name(const parser *p, size_t at, size_t len) {
  char *known = NULL;
  size_t size = 0;
  FILE *f = open_memstream(&known, &size);
  if (!f) return hdgcl_error(HDGCL_ERROR_MEMORY, "out of host memory (expression message)");
  const hdg_expr_symbols *s = p->sym;
  for (int i = 0; s && i < s->num_vars; i++) fprintf(f, "%s, ", s->vars[i]);
  fprintf(f, "pi, e");
  for (int i = 0; s && i < s->num_constants; i++) fprintf(f, ", %s", s->constant_names[i]);
  int st;
  if (fclose(f))
    st = hdgcl_error(HDGCL_ERROR_MEMORY, "out of host memory (expression message)");
  else
    st = fail(p, at, "unknown variable '%.*s' in '%s' (known: %s)", (int)len, p->text + at,
              p->text, known);
  free(known);
  return st;
}

static bool name_is(const parser *p, size_t at, size_t len, const char *name) {
  return strlen(name) == len && !strncmp(p->text + at, name, len);
}

static int find_function(const char *s, size_t len) {
  for (int f = 0; f < FN_COUNT; f++)
    if (strlen(expr_functions[f].name) == len && !strncmp(s, expr_functions[f].name, len)) return f;
  if (len == 3 && !strncmp(s, "pow", 3)) return FN_COUNT; /* pow(a, b) is a ^ b */
  return -1;
}

/* name '(' args ')' with the '(' current. */
static int parse_call(parser *p, size_t at, size_t len, hdg_expr **out) {
  int f = find_function(p->text + at, len);
  if (f < 0) {
    const hdg_expr_symbols *s = p->sym;
    bool known = name_is(p, at, len, "pi") || name_is(p, at, len, "e");
    for (int i = 0; s && i < s->num_constants; i++)
      known = known || name_is(p, at, len, s->constant_names[i]);
    for (int i = 0; s && i < s->num_vars; i++)
      if (name_is(p, at, len, s->vars[i]))
        return fail(p, at, "'%.*s' is a variable, not a function", (int)len, p->text + at);
    if (known) return fail(p, at, "'%.*s' is a constant, not a function", (int)len, p->text + at);
    return fail(p, at, "unknown function '%.*s'", (int)len, p->text + at);
  }
  int arity = f == FN_COUNT ? 2 : expr_functions[f].arity;
  hdg_expr *arg[2] = {NULL, NULL};
  int count = 0, st = advance(p);
  if (!st && p->tok != T_RP)
    for (;;) {
      hdg_expr *a = NULL;
      if ((st = parse_expr(p, &a))) break;
      if (count < 2)
        arg[count] = a;
      else
        hdg_expr_destroy(&a);
      count++;
      if (p->tok != T_COMMA) break;
      if ((st = advance(p))) break;
    }
  if (!st) st = expect(p, T_RP, ")");
  if (!st && count != arity)
    st = fail(p, at, "'%.*s' takes %d argument%s, got %d", (int)len, p->text + at, arity,
              arity == 1 ? "" : "s", count);
  if (st) {
    hdg_expr_destroy(&arg[0]);
    hdg_expr_destroy(&arg[1]);
    return st;
  }
  if (f == FN_COUNT) return build(p, at, EXPR_POW, 0, arg[0], arg[1], NULL, out);
  return build(p, at, EXPR_CALL, (expr_func)f, arg[0], arg[1], NULL, out);
}

static int parse_name(parser *p, hdg_expr **out) {
  size_t at = p->start, len = p->len;
  HDGCL_TRY(advance(p));
  if (p->tok == T_LP) return parse_call(p, at, len, out);
  const hdg_expr_symbols *s = p->sym;
  for (int i = 0; s && i < s->num_vars; i++)
    if (name_is(p, at, len, s->vars[i])) return expr_variable(i, s->vars[i], out);
  for (int i = 0; s && i < s->num_constants; i++)
    if (name_is(p, at, len, s->constant_names[i])) return expr_number(s->constant_values[i], out);
  if (name_is(p, at, len, "pi")) return expr_number(EXPR_PI, out);
  if (name_is(p, at, len, "e")) return expr_number(EXPR_E, out);
  if (find_function(p->text + at, len) >= 0)
    return fail(p, p->start, "expected '(' after '%.*s'", (int)len, p->text + at);
  return unknown_name(p, at, len);
}

static int parse_primary(parser *p, hdg_expr **out) {
  if (p->tok == T_NAME) return parse_name(p, out);
  if (p->tok == T_LP) {
    HDGCL_TRY(advance(p));
    HDGCL_TRY(parse_expr(p, out));
    int st = expect(p, T_RP, ")");
    if (st) hdg_expr_destroy(out);
    return st;
  }
  if (p->tok != T_NUM) return unexpected(p);
  char number[128];
  if (p->len >= sizeof number)
    return fail(p, p->start, "number '%.20s...' is too long", p->text + p->start);
  memcpy(number, p->text + p->start, p->len);
  number[p->len] = '\0';
  double v = strtod(number, NULL);
  if (!isfinite(v)) return fail(p, p->start, "number '%s' is not finite", number);
  HDGCL_TRY(advance(p));
  return expr_number(v, out);
}

/* primary [ ('^' | '**') unary ] */
static int parse_power(parser *p, hdg_expr **out) {
  hdg_expr *a = NULL, *b = NULL;
  HDGCL_TRY(parse_primary(p, &a));
  if (p->tok != T_POW) {
    *out = a;
    return HDGCL_SUCCESS;
  }
  size_t at = p->start;
  int st = advance(p);
  if (!st) st = parse_unary(p, &b);
  if (st) {
    hdg_expr_destroy(&a);
    return st;
  }
  return build(p, at, EXPR_POW, 0, a, b, NULL, out);
}

static int nest(parser *p) {
  if (++p->depth > EXPR_MAX_DEPTH)
    return fail(p, p->start, "expression nested too deeply (more than %d levels)", EXPR_MAX_DEPTH);
  return HDGCL_SUCCESS;
}

/* ('-' | '+' | '!') unary | power */
static int parse_unary(parser *p, hdg_expr **out) {
  HDGCL_TRY(nest(p));
  token op = p->tok;
  size_t at = p->start;
  int st;
  if (op != T_MINUS && op != T_PLUS && op != T_NOT) {
    st = parse_power(p, out);
  } else {
    hdg_expr *a = NULL;
    st = advance(p);
    if (!st) st = parse_unary(p, &a);
    if (!st && op == T_PLUS) *out = a;
    if (!st && op != T_PLUS) st = build(p, at, op == T_MINUS ? EXPR_NEG : EXPR_NOT, 0, a, NULL,
                                        NULL, out);
  }
  p->depth--;
  return st;
}

/* The binary operator levels, lowest first: the kind of token tok at a level, or -1. */
#define LEVELS 6
static int binary_kind(int level, token tok) {
  static const struct {
    token tok;
    expr_kind kind;
    int level;
  } table[] = {{T_OR, EXPR_OR, 0},    {T_AND, EXPR_AND, 1},   {T_EQ, EXPR_EQ, 2},
               {T_NE, EXPR_NE, 2},    {T_LT, EXPR_LT, 3},     {T_LE, EXPR_LE, 3},
               {T_GT, EXPR_GT, 3},    {T_GE, EXPR_GE, 3},     {T_PLUS, EXPR_ADD, 4},
               {T_MINUS, EXPR_SUB, 4}, {T_STAR, EXPR_MUL, 5}, {T_SLASH, EXPR_DIV, 5}};
  for (size_t k = 0; k < sizeof table / sizeof table[0]; k++)
    if (table[k].level == level && table[k].tok == tok) return (int)table[k].kind;
  return -1;
}

/* level { op level+1 }, left-associative */
static int parse_binary(parser *p, int level, hdg_expr **out) {
  if (level == LEVELS) return parse_unary(p, out);
  hdg_expr *left = NULL;
  HDGCL_TRY(parse_binary(p, level + 1, &left));
  for (int kind; (kind = binary_kind(level, p->tok)) >= 0;) {
    size_t at = p->start;
    hdg_expr *right = NULL;
    int st = advance(p);
    if (!st) st = parse_binary(p, level + 1, &right);
    if (st) {
      hdg_expr_destroy(&left);
      return st;
    }
    HDGCL_TRY(build(p, at, (expr_kind)kind, 0, left, right, NULL, &left));
  }
  *out = left;
  return HDGCL_SUCCESS;
}

/* or [ '?' expr ':' expr ] */
static int parse_expr(parser *p, hdg_expr **out) {
  HDGCL_TRY(nest(p));
  hdg_expr *c = NULL, *a = NULL, *b = NULL;
  int st = parse_binary(p, 0, &c);
  if (!st && p->tok == T_QUEST) {
    size_t at = p->start;
    st = advance(p);
    if (!st) st = parse_expr(p, &a);
    if (!st) st = expect(p, T_COLON, ":");
    if (!st) st = parse_expr(p, &b);
    if (!st) {
      st = build(p, at, EXPR_COND, 0, c, a, b, out);
      c = a = b = NULL;
    }
  } else if (!st) {
    *out = c;
    c = NULL;
  }
  hdg_expr_destroy(&c);
  hdg_expr_destroy(&a);
  hdg_expr_destroy(&b);
  p->depth--;
  return st;
}

int hdg_expr_parse(const char *text, const char *what, const hdg_expr_symbols *symbols,
                   hdg_expr **expr) {
  *expr = NULL;
  if (!what) what = "expression";
  parser p = {.text = text ? text : "", .what = what, .sym = symbols};
  HDGCL_TRY(advance(&p));
  if (p.tok == T_END) return hdgcl_error(HDGCL_ERROR_ARGUMENT, "%s: empty expression", what);
  hdg_expr *e = NULL;
  HDGCL_TRY(parse_expr(&p, &e));
  if (p.tok != T_END) {
    hdg_expr_destroy(&e);
    return unexpected(&p);
  }
  int st = hdg_expr_set_label(e, what);
  if (st) {
    hdg_expr_destroy(&e);
    return st;
  }
  *expr = e;
  return HDGCL_SUCCESS;
}

int hdg_expr_set_label(hdg_expr *e, const char *label) {
  char *copy = NULL;
  if (label) {
    HDGCL_TRY(hdgcl_calloc(strlen(label) + 1, 1, "expression label", &copy));
    strcpy(copy, label);
  }
  free(e->label);
  e->label = copy;
  return HDGCL_SUCCESS;
}

const char *hdg_expr_label(const hdg_expr *e) { return e ? e->label : NULL; }

/* ------------------------------------------------------- named constants */

bool hdg_expr_reserved(const char *name) {
  static const char *const reserved[] = {"pi", "e", "pow", "x", "y", "z", "nx", "ny", "nz", "t"};
  for (size_t k = 0; k < sizeof reserved / sizeof reserved[0]; k++)
    if (!strcmp(name, reserved[k])) return true;
  return find_function(name, strlen(name)) >= 0;
}

static bool is_identifier(const char *s) {
  if (!is_alpha(s[0])) return false;
  for (s++; *s; s++)
    if (!is_alpha(*s) && !is_digit(*s)) return false;
  return true;
}

int hdg_expr_define_constants(int count, const char *const *names, const char *const *texts,
                              const char *what, double *values) {
  if (!what) what = "constants";
  for (int k = 0; k < count; k++) {
    const char *name = names[k] ? names[k] : "";
    if (!is_identifier(name))
      return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                         "%s: '%s' is not a name (a letter or '_', then letters, digits, '_')",
                         what, name);
    if (hdg_expr_reserved(name))
      return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                         "%s: '%s' is reserved (a variable, a function, pi or e)", what, name);
    for (int j = 0; j < k; j++)
      if (!strcmp(names[j], name))
        return hdgcl_error(HDGCL_ERROR_ARGUMENT, "%s: '%s' is defined twice", what, name);
    char where[512];
    snprintf(where, sizeof where, "%s: %s", what, name);
    hdg_expr_symbols symbols = {.num_constants = k, .constant_names = names,
                                .constant_values = values};
    hdg_expr *e = NULL;
    HDGCL_TRY(hdg_expr_parse(texts[k], where, &symbols, &e));
    bool constant = hdg_expr_constant(e, &values[k]);
    hdg_expr_destroy(&e);
    if (!constant) return hdgcl_error(HDGCL_ERROR_INTERNAL, "%s: not a constant", where);
  }
  return HDGCL_SUCCESS;
}
