/* Symbolic derivatives of expressions (hdg_expr_derivative, expr.h).
 *
 * The rules read as formulas: the helpers below take a status that sticks
 * at the first failure (*st != HDGCL_SUCCESS), take over their operands
 * (NULL after a failure) and return the new node, or NULL once *st is set,
 * freeing what they were given.  They simplify as they build (0 * a, 1 * a,
 * a + 0, a - 0, a / 1, a ^ 1, a ^ 0, - -a) and expr_node folds constants. */
#include <math.h>
#include <stdlib.h>

#include "core/error.h"
#include "problem/expr.h"
#include "problem/expr_impl.h"

static bool is_number(const hdg_expr *e, double v) { return e->kind == EXPR_NUM && e->value == v; }

/* expr_node under the sticky status. */
static hdg_expr *node(int *st, expr_kind kind, expr_func func, hdg_expr *a, hdg_expr *b,
                      hdg_expr *c) {
  int operands = kind == EXPR_NEG || kind == EXPR_NOT ? 1
                 : kind == EXPR_COND                  ? 3
                 : kind == EXPR_CALL                  ? expr_functions[func].arity
                                                      : 2;
  hdg_expr *out = NULL;
  if (*st || !a || (operands >= 2 && !b) || (operands == 3 && !c)) {
    if (!*st) *st = HDGCL_ERROR_INTERNAL; /* an operand failed without a status: cannot happen */
    hdg_expr_destroy(&a);
    hdg_expr_destroy(&b);
    hdg_expr_destroy(&c);
    return NULL;
  }
  *st = expr_node(kind, func, a, b, c, &out);
  return out;
}

static hdg_expr *num(int *st, double v) {
  hdg_expr *out = NULL;
  if (!*st) *st = expr_number(v, &out);
  return out;
}

static hdg_expr *copy(int *st, const hdg_expr *e) {
  hdg_expr *out = NULL;
  if (!*st) *st = hdg_expr_copy(e, &out);
  return out;
}

/* Returns keep after freeing drop (the simplifications). */
static hdg_expr *keep(hdg_expr *kept, hdg_expr *drop) {
  hdg_expr_destroy(&drop);
  return kept;
}

static hdg_expr *neg(int *st, hdg_expr *a) {
  if (!*st && a && a->kind == EXPR_NEG) {
    hdg_expr *inner = a->a;
    a->a = NULL;
    hdg_expr_destroy(&a);
    return inner;
  }
  return node(st, EXPR_NEG, 0, a, NULL, NULL);
}

static hdg_expr *add(int *st, hdg_expr *a, hdg_expr *b) {
  if (!*st && a && b) {
    if (is_number(a, 0.0)) return keep(b, a);
    if (is_number(b, 0.0)) return keep(a, b);
  }
  return node(st, EXPR_ADD, 0, a, b, NULL);
}

static hdg_expr *sub(int *st, hdg_expr *a, hdg_expr *b) {
  if (!*st && a && b) {
    if (is_number(b, 0.0)) return keep(a, b);
    if (is_number(a, 0.0)) return neg(st, keep(b, a));
  }
  return node(st, EXPR_SUB, 0, a, b, NULL);
}

static hdg_expr *mul(int *st, hdg_expr *a, hdg_expr *b) {
  if (!*st && a && b) {
    if (is_number(a, 0.0)) return keep(a, b);
    if (is_number(b, 0.0)) return keep(b, a);
    if (is_number(a, 1.0)) return keep(b, a);
    if (is_number(b, 1.0)) return keep(a, b);
    if (is_number(a, -1.0)) return neg(st, keep(b, a));
    if (is_number(b, -1.0)) return neg(st, keep(a, b));
  }
  return node(st, EXPR_MUL, 0, a, b, NULL);
}

static hdg_expr *divide(int *st, hdg_expr *a, hdg_expr *b) {
  if (!*st && a && b) {
    if (is_number(a, 0.0)) return keep(a, b);
    if (is_number(b, 1.0)) return keep(a, b);
  }
  return node(st, EXPR_DIV, 0, a, b, NULL);
}

static hdg_expr *power(int *st, hdg_expr *a, hdg_expr *b) {
  if (!*st && a && b) {
    if (is_number(b, 1.0)) return keep(a, b);
    if (is_number(b, 0.0)) {
      hdg_expr_destroy(&a);
      hdg_expr_destroy(&b);
      return num(st, 1.0);
    }
  }
  return node(st, EXPR_POW, 0, a, b, NULL);
}

static hdg_expr *fn(int *st, expr_func f, hdg_expr *a) {
  return node(st, EXPR_CALL, f, a, NULL, NULL);
}

/* a^2 and 1 - a^2 of a copy of a. */
static hdg_expr *square(int *st, const hdg_expr *a) { return power(st, copy(st, a), num(st, 2)); }
static hdg_expr *one_minus_square(int *st, const hdg_expr *a) {
  return sub(st, num(st, 1.0), square(st, a));
}

static hdg_expr *cond(int *st, hdg_expr *c, hdg_expr *a, hdg_expr *b) {
  return node(st, EXPR_COND, 0, c, a, b);
}

static hdg_expr *d(int *st, const hdg_expr *e, int v);

/* d f(a) / d a, times a' by the caller. */
static hdg_expr *d_function(int *st, const hdg_expr *e) {
  const hdg_expr *a = e->a;
  switch (e->func) {
  case FN_SIN: return fn(st, FN_COS, copy(st, a));
  case FN_COS: return neg(st, fn(st, FN_SIN, copy(st, a)));
  case FN_TAN: /* 1 / cos(a)^2 */
    return divide(st, num(st, 1.0), power(st, fn(st, FN_COS, copy(st, a)), num(st, 2)));
  case FN_ASIN:
  case FN_ACOS: {
    hdg_expr *r = divide(st, num(st, 1.0), fn(st, FN_SQRT, one_minus_square(st, a)));
    return e->func == FN_ASIN ? r : neg(st, r);
  }
  case FN_ATAN: return divide(st, num(st, 1.0), add(st, num(st, 1.0), square(st, a)));
  case FN_SINH: return fn(st, FN_COSH, copy(st, a));
  case FN_COSH: return fn(st, FN_SINH, copy(st, a));
  case FN_TANH: return one_minus_square(st, e);
  case FN_EXP: return copy(st, e);
  case FN_LOG: return divide(st, num(st, 1.0), copy(st, a));
  case FN_LOG10: return divide(st, num(st, 1.0), mul(st, copy(st, a), num(st, log(10.0))));
  case FN_SQRT: return divide(st, num(st, 1.0), mul(st, num(st, 2.0), copy(st, e)));
  case FN_ABS: return cond(st, node(st, EXPR_LT, 0, copy(st, a), num(st, 0.0), NULL), num(st, -1.0),
                           num(st, 1.0));
  default: return num(st, 0.0); /* floor, ceil */
  }
}

static hdg_expr *d_call(int *st, const hdg_expr *e, int v) {
  const hdg_expr *a = e->a, *b = e->b;
  if (e->func == FN_ATAN2) /* (b a' - a b') / (a a + b b) */
    return divide(st, sub(st, mul(st, copy(st, b), d(st, a, v)), mul(st, copy(st, a), d(st, b, v))),
                  add(st, mul(st, copy(st, a), copy(st, a)), mul(st, copy(st, b), copy(st, b))));
  if (e->func == FN_MIN || e->func == FN_MAX) /* a < b ? a' : b', a > b ? a' : b' */
    return cond(st,
                node(st, e->func == FN_MIN ? EXPR_LT : EXPR_GT, 0, copy(st, a), copy(st, b), NULL),
                d(st, a, v), d(st, b, v));
  hdg_expr *g = d_function(st, e); /* f'(a) times a', or a' / den for f'(a) = 1 / den */
  if (!*st && g->kind == EXPR_DIV && is_number(g->a, 1.0)) {
    hdg_expr *den = g->b;
    g->b = NULL;
    hdg_expr_destroy(&g);
    return divide(st, d(st, a, v), den);
  }
  return mul(st, g, d(st, a, v));
}

static hdg_expr *d(int *st, const hdg_expr *e, int v) {
  if (*st) return NULL;
  if (!hdg_expr_uses(e, v)) return num(st, 0.0);
  const hdg_expr *a = e->a, *b = e->b;
  switch (e->kind) {
  case EXPR_VAR: return num(st, 1.0);
  case EXPR_NEG: return neg(st, d(st, a, v));
  case EXPR_ADD: return add(st, d(st, a, v), d(st, b, v));
  case EXPR_SUB: return sub(st, d(st, a, v), d(st, b, v));
  case EXPR_MUL:
    return add(st, mul(st, d(st, a, v), copy(st, b)), mul(st, copy(st, a), d(st, b, v)));
  case EXPR_DIV:
    if (!hdg_expr_uses(b, v)) return divide(st, d(st, a, v), copy(st, b));
    return divide(st, sub(st, mul(st, d(st, a, v), copy(st, b)), mul(st, copy(st, a), d(st, b, v))),
                  square(st, b));
  case EXPR_POW:
    if (!hdg_expr_uses(b, v)) /* b a^(b-1) a' */
      return mul(st,
                 mul(st, copy(st, b), power(st, copy(st, a), sub(st, copy(st, b), num(st, 1.0)))),
                 d(st, a, v));
    if (!hdg_expr_uses(a, v)) /* a^b log(a) b' */
      return mul(st, mul(st, copy(st, e), fn(st, FN_LOG, copy(st, a))), d(st, b, v));
    /* a^b (b' log(a) + b a' / a) */
    return mul(st, copy(st, e),
               add(st, mul(st, d(st, b, v), fn(st, FN_LOG, copy(st, a))),
                   divide(st, mul(st, copy(st, b), d(st, a, v)), copy(st, a))));
  case EXPR_COND: return cond(st, copy(st, a), d(st, b, v), d(st, e->c, v));
  case EXPR_CALL: return d_call(st, e, v);
  default: return num(st, 0.0); /* comparisons, !, &&, || */
  }
}

/* The name of variable var in e ("?" if e does not use it). */
static const char *var_name(const hdg_expr *e, int var) {
  if (e->kind == EXPR_VAR) return e->var == var ? e->name : NULL;
  const char *name = NULL;
  if (e->a) name = var_name(e->a, var);
  if (!name && e->b) name = var_name(e->b, var);
  if (!name && e->c) name = var_name(e->c, var);
  return name;
}

/* A constant subtree that expr_node could not fold (not finite), or NULL. */
static const hdg_expr *find_unfolded(const hdg_expr *e) {
  if (expr_unfolded(e)) return e;
  const hdg_expr *found = NULL;
  if (e->a) found = find_unfolded(e->a);
  if (!found && e->b) found = find_unfolded(e->b);
  if (!found && e->c) found = find_unfolded(e->c);
  return found;
}

int hdg_expr_derivative(const hdg_expr *e, int var, hdg_expr **derivative) {
  *derivative = NULL;
  int st = HDGCL_SUCCESS;
  hdg_expr *r = d(&st, e, var);
  if (st) return st;
  const hdg_expr *bad = find_unfolded(r);
  if (bad) {
    char *text = NULL, *sub_text = NULL;
    st = hdg_expr_print(e, &text);
    if (!st) st = hdg_expr_print(bad, &sub_text);
    if (!st)
      st = hdgcl_error(HDGCL_ERROR_ARGUMENT,
                       "derivative of '%s' with respect to %s: '%s' is not finite", text,
                       var_name(e, var) ? var_name(e, var) : "?", sub_text);
    free(text);
    free(sub_text);
    hdg_expr_destroy(&r);
    return st;
  }
  *derivative = r;
  return HDGCL_SUCCESS;
}
