/* The expression tree shared by the parser and evaluator (expr.c), the
 * printers (expr_text.c) and the derivative (expr_derivative.c). */
#ifndef HDGCL_HOST_PROBLEM_EXPR_IMPL_H
#define HDGCL_HOST_PROBLEM_EXPR_IMPL_H

#include <stdbool.h>

#include "problem/expr.h"

typedef enum expr_kind {
  EXPR_NUM,  /* value */
  EXPR_VAR,  /* var, name */
  EXPR_NEG,  /* -a */
  EXPR_NOT,  /* !a */
  EXPR_ADD,  /* a + b */
  EXPR_SUB,
  EXPR_MUL,
  EXPR_DIV,
  EXPR_POW,  /* a ^ b, pow(a, b) */
  EXPR_LT,   /* a < b */
  EXPR_LE,
  EXPR_GT,
  EXPR_GE,
  EXPR_EQ,
  EXPR_NE,
  EXPR_AND,  /* a && b */
  EXPR_OR,
  EXPR_COND, /* a ? b : c */
  EXPR_CALL  /* func(a[, b]) */
} expr_kind;

/* The functions, in the order of expr_functions[]. */
typedef enum expr_func {
  FN_SIN, FN_COS, FN_TAN, FN_ASIN, FN_ACOS, FN_ATAN, FN_SINH, FN_COSH, FN_TANH, FN_EXP, FN_LOG,
  FN_LOG10, FN_SQRT, FN_ABS, FN_FLOOR, FN_CEIL, FN_ATAN2, FN_MIN, FN_MAX, FN_COUNT
} expr_func;

typedef struct expr_function {
  const char *name;   /* in the grammar */
  const char *opencl; /* in OpenCL C (and the libm function the host calls) */
  int arity;
} expr_function;
extern const expr_function expr_functions[FN_COUNT];

struct hdg_expr {
  expr_kind kind;
  expr_func func; /* EXPR_CALL */
  int var;        /* EXPR_VAR */
  char *name;     /* EXPR_VAR: its name, for hdg_expr_print */
  double value;   /* EXPR_NUM */
  int depth;      /* 1 for a leaf, 1 + the deepest operand's otherwise */
  char *label;    /* the root's name in messages (hdg_expr_parse's what), or NULL */
  hdg_expr *a, *b, *c;
};

/* The deepest tree hdg_expr_parse accepts: the host's recursion (eval,
 * derivative, emit) and the OpenCL compilers' (whose parsers recurse too)
 * stay far from their stack limits; a sum of 1000 terms is within it. */
#define EXPR_MAX_TREE_DEPTH 2000

/* Number of operands of a node (0 to 3). */
int expr_operands(const hdg_expr *e);

/* A number node. */
int expr_number(double value, hdg_expr **out);
/* A variable node (name copied). */
int expr_variable(int var, const char *name, hdg_expr **out);
/* A node of kind (and func for EXPR_CALL) over the operands a, b, c (NULL
 * where unused), which it takes over (and frees on failure).  Folds the node
 * to a number when its operands are numbers and the value is finite, and
 * c ? a : b with a constant c to a or b; a node whose operands are numbers
 * but whose value is not finite stays unfolded (expr_unfolded tells). */
int expr_node(expr_kind kind, expr_func func, hdg_expr *a, hdg_expr *b, hdg_expr *c,
              hdg_expr **out);
/* True if e is a node over numbers that expr_node did not fold (a value
 * that is not finite). */
bool expr_unfolded(const hdg_expr *e);

/* If e is a ^ n with n an integer, |n| <= 4 (evaluated and emitted as
 * repeated multiplication): true and *n. */
bool expr_small_power(const hdg_expr *e, int *n);

#endif
