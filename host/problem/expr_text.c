/* Expressions as text (expr.h): hdg_expr_print writes the grammar back with
 * the parentheses it needs; hdg_expr_emit writes OpenCL C that does the
 * operations of hdg_expr_eval (expr.c), node for node. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "problem/expr.h"
#include "problem/expr_impl.h"

/* Both write into an open_memstream; a failed write shows at fclose. */
static int text_open(FILE **f, char **text, size_t *size) {
  *text = NULL;
  *f = open_memstream(text, size);
  if (!*f) return hdgcl_error(HDGCL_ERROR_MEMORY, "out of host memory (expression text)");
  return HDGCL_SUCCESS;
}

static int text_close(FILE *f, char **text, int st) {
  if (fclose(f) && !st)
    st = hdgcl_error(HDGCL_ERROR_MEMORY, "out of host memory (expression text)");
  if (st) {
    free(*text);
    *text = NULL;
  }
  return st;
}

/* ------------------------------------------------------------------ print */

static const char *operator_text(expr_kind kind) {
  switch (kind) {
  case EXPR_ADD: return "+";
  case EXPR_SUB: return "-";
  case EXPR_MUL: return "*";
  case EXPR_DIV: return "/";
  case EXPR_POW: return "^";
  case EXPR_LT: return "<";
  case EXPR_LE: return "<=";
  case EXPR_GT: return ">";
  case EXPR_GE: return ">=";
  case EXPR_EQ: return "==";
  case EXPR_NE: return "!=";
  case EXPR_AND: return "&&";
  case EXPR_OR: return "||";
  default: return "?";
  }
}

/* Precedence in the grammar: 1 (?:) to 10 (primary). */
static int precedence(const hdg_expr *e) {
  switch (e->kind) {
  case EXPR_NUM: return signbit(e->value) ? 8 : 10; /* a negative number reads as -n */
  case EXPR_VAR:
  case EXPR_CALL: return 10;
  case EXPR_POW: return 9;
  case EXPR_NEG:
  case EXPR_NOT: return 8;
  case EXPR_MUL:
  case EXPR_DIV: return 7;
  case EXPR_ADD:
  case EXPR_SUB: return 6;
  case EXPR_LT:
  case EXPR_LE:
  case EXPR_GT:
  case EXPR_GE: return 5;
  case EXPR_EQ:
  case EXPR_NE: return 4;
  case EXPR_AND: return 3;
  case EXPR_OR: return 2;
  case EXPR_COND: return 1;
  }
  return 10;
}

/* An integer below 1e15 in full, else the shortest %.Ng that reads back as v. */
static void print_number(FILE *f, double v) {
  char s[40];
  if (fabs(v) < 1e15 && v == floor(v)) {
    fprintf(f, "%.0f", v);
    return;
  }
  for (int digits = 1; digits <= 17; digits++) {
    snprintf(s, sizeof s, "%.*g", digits, v);
    if (strtod(s, NULL) == v) break;
  }
  fputs(s, f);
}

/* e, in parentheses if its precedence is below min. */
static void print_node(FILE *f, const hdg_expr *e, int min) {
  int prec = precedence(e);
  if (prec < min) fputc('(', f);
  switch (e->kind) {
  case EXPR_NUM: print_number(f, e->value); break;
  case EXPR_VAR: fputs(e->name, f); break;
  case EXPR_NEG:
  case EXPR_NOT:
    /* A unary operand needs no parentheses (-!x, !-x, - -x): "-(-(-x))"
     * doubled the nesting of a chain of signs, and a long chain printed so
     * no longer parsed back (EXPR_MAX_DEPTH; found by tests/fuzz/fuzz_expr).
     * A space keeps "- -x" and "- -2" from reading as "--". */
    fputc(e->kind == EXPR_NEG ? '-' : '!', f);
    if (e->kind == EXPR_NEG && precedence(e->a) == 8 && e->a->kind != EXPR_NOT) fputc(' ', f);
    print_node(f, e->a, 8);
    break;
  case EXPR_POW: /* right-associative; the exponent may be a unary minus */
    print_node(f, e->a, 10);
    fputc('^', f);
    print_node(f, e->b, 8);
    break;
  case EXPR_COND:
    print_node(f, e->a, 2);
    fputs(" ? ", f);
    print_node(f, e->b, 1);
    fputs(" : ", f);
    print_node(f, e->c, 1);
    break;
  case EXPR_CALL:
    fprintf(f, "%s(", expr_functions[e->func].name);
    print_node(f, e->a, 1);
    if (e->b) {
      fputs(", ", f);
      print_node(f, e->b, 1);
    }
    fputc(')', f);
    break;
  default: /* left-associative binary operators */
    print_node(f, e->a, prec);
    fprintf(f, " %s ", operator_text(e->kind));
    print_node(f, e->b, prec + 1);
    break;
  }
  if (prec < min) fputc(')', f);
}

int hdg_expr_print(const hdg_expr *e, char **text) {
  FILE *f;
  size_t size;
  HDGCL_TRY(text_open(&f, text, &size));
  print_node(f, e, 1);
  return text_close(f, text, HDGCL_SUCCESS);
}

/* ------------------------------------------------------------------- emit */

/* A double literal that round-trips: %.17g, with ".0" if it would read as
 * an int, in parentheses if negative. */
static int emit_number(FILE *f, double v) {
  if (!isfinite(v))
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "expression: cannot emit the non-finite constant %g",
                       v);
  char s[40];
  snprintf(s, sizeof s, "%.17g", v);
  bool real = strchr(s, '.') || strchr(s, 'e');
  fprintf(f, signbit(v) ? "(%s%s)" : "%s%s", s, real ? "" : ".0");
  return HDGCL_SUCCESS;
}

static int emit_node(FILE *f, const hdg_expr *e, const char *const *var_c);

/* True if a is a + - (or * /) node under a node b of the same level. */
static bool same_level(const hdg_expr *a, const hdg_expr *b) {
  bool add_a = a->kind == EXPR_ADD || a->kind == EXPR_SUB;
  bool add_b = b->kind == EXPR_ADD || b->kind == EXPR_SUB;
  bool mul_a = a->kind == EXPR_MUL || a->kind == EXPR_DIV;
  bool mul_b = b->kind == EXPR_MUL || b->kind == EXPR_DIV;
  return (add_a && add_b) || (mul_a && mul_b);
}

/* e, without its own parentheses when bare (the left operand of a chain of
 * its level); iterative down the chain's left spine, so that a sum of many
 * terms nests neither parentheses nor calls. */
static int emit_chain(FILE *f, const hdg_expr *e, bool bare, const char *const *var_c) {
  if (!bare) return emit_node(f, e, var_c);
  /* A long spine goes on the heap: chains nest inside chains' operands, and
   * a spine of EXPR_MAX_TREE_DEPTH pointers in every frame overflowed the
   * stack (fuzz_expr, tests/fuzz/corpus/expr/crash-emit-nested-chains). */
  int n = 1;
  for (const hdg_expr *s = e; n <= EXPR_MAX_TREE_DEPTH && same_level(s->a, s); s = s->a) n++;
  const hdg_expr *few[32], **spine = few; /* short chains, the common case: no allocation */
  if (n > 32) HDGCL_TRY(hdgcl_calloc((size_t)n, sizeof *spine, "an expression's chain", &spine));
  const hdg_expr *s = e;
  for (int k = 0; k < n; k++, s = s->a) spine[k] = s;
  int status = emit_node(f, spine[n - 1]->a, var_c);
  for (int k = n - 1; k >= 0 && status == HDGCL_SUCCESS; k--) {
    fprintf(f, " %s ", operator_text(spine[k]->kind));
    status = emit_node(f, spine[k]->b, var_c);
  }
  if (spine != few) free(spine);
  return status;
}

static int emit_node(FILE *f, const hdg_expr *e, const char *const *var_c) {
#define EMIT(x) HDGCL_TRY(emit_node(f, (x), var_c))
  int n;
  switch (e->kind) {
  case EXPR_NUM: return emit_number(f, e->value);
  case EXPR_VAR: fputs(var_c[e->var], f); return HDGCL_SUCCESS;
  case EXPR_NEG:
    fputs("(-", f);
    EMIT(e->a);
    fputc(')', f);
    return HDGCL_SUCCESS;
  case EXPR_NOT:
    fputs("((", f);
    EMIT(e->a);
    fputs(") == 0.0 ? 1.0 : 0.0)", f);
    return HDGCL_SUCCESS;
  case EXPR_LT:
  case EXPR_LE:
  case EXPR_GT:
  case EXPR_GE:
  case EXPR_EQ:
  case EXPR_NE:
    fputs("((", f);
    EMIT(e->a);
    fprintf(f, ") %s (", operator_text(e->kind));
    EMIT(e->b);
    fputs(") ? 1.0 : 0.0)", f);
    return HDGCL_SUCCESS;
  case EXPR_AND:
  case EXPR_OR:
    fputs("(((", f);
    EMIT(e->a);
    fprintf(f, ") != 0.0 %s (", operator_text(e->kind));
    EMIT(e->b);
    fputs(") != 0.0) ? 1.0 : 0.0)", f);
    return HDGCL_SUCCESS;
  case EXPR_COND:
    fputs("((", f);
    EMIT(e->a);
    fputs(") != 0.0 ? (", f);
    EMIT(e->b);
    fputs(") : (", f);
    EMIT(e->c);
    fputs("))", f);
    return HDGCL_SUCCESS;
  case EXPR_POW:
    if (!expr_small_power(e, &n)) {
      fputs("pow(", f);
      EMIT(e->a);
      fputs(", ", f);
      EMIT(e->b);
      fputc(')', f);
    } else if (n == 0) {
      fputs("1.0", f);
    } else { /* ((a * a) * a), as hdg_expr_eval's power_int */
      if (n < 0) fputs("(1.0 / ", f);
      for (int k = 1; k < abs(n); k++) fputc('(', f);
      EMIT(e->a);
      for (int k = 1; k < abs(n); k++) {
        fputs(" * ", f);
        EMIT(e->a);
        fputc(')', f);
      }
      if (n < 0) fputc(')', f);
    }
    return HDGCL_SUCCESS;
  case EXPR_CALL:
    fprintf(f, "%s(", expr_functions[e->func].opencl);
    EMIT(e->a);
    if (e->b) {
      fputs(", ", f);
      EMIT(e->b);
    }
    fputc(')', f);
    return HDGCL_SUCCESS;
  default: /* + - * /: a left operand of the same level needs no parentheses */
    fputc('(', f);
    HDGCL_TRY(emit_chain(f, e->a, same_level(e->a, e), var_c));
    fprintf(f, " %s ", operator_text(e->kind));
    EMIT(e->b);
    fputc(')', f);
    return HDGCL_SUCCESS;
  }
#undef EMIT
}

int hdg_expr_emit(const hdg_expr *e, const char *const *var_c, char **text) {
  FILE *f;
  size_t size;
  HDGCL_TRY(text_open(&f, text, &size));
  return text_close(f, text, emit_node(f, e, var_c));
}
