/* A user's kappa, scalar or a symmetric tensor (user_kappa.h): reading the
 * matrix syntax, sampling it, and checking and factoring it per element. */
#include "problem/user_kappa.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/error.h"

#define SYMMETRY_TOL 1e-12 /* mirrored entries may differ by this much of max |K| */

static const char *skip(const char *p) {
  while (isspace((unsigned char)*p)) p++;
  return p;
}

static int syntax(const char *what, const char *text) {
  return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                     "%s: '%s': expected one expression or a matrix [[kxx, kxy], [kxy, kyy]] "
                     "(rows in brackets)",
                     what, text);
}

/* One row "[a, b, ...]" at *p (entries may hold parentheses, not brackets):
 * its entries copied into cells (NUL-terminated), *p moved past ']'. */
static int read_row(const char **p, const char *what, const char *text, char cells[3][1024],
                    int *count) {
  const char *s = skip(*p);
  if (*s != '[') return syntax(what, text);
  s++;
  int n = 0, depth = 0;
  size_t len = 0;
  char cell[1024];
  for (;; s++) {
    if (*s == '\0' || *s == '[') return syntax(what, text);
    if (*s == '(') depth++;
    if (*s == ')') depth--;
    if ((*s == ',' || *s == ']') && depth == 0) {
      cell[len] = '\0';
      if (n == 3)
        return hdgcl_error(HDGCL_ERROR_ARGUMENT, "%s: '%s': more than 3 entries in a row", what, text);
      const char *b = skip(cell);
      char *e = cell + len;
      while (e > b && isspace((unsigned char)e[-1])) *--e = '\0';
      if (!*b) return syntax(what, text);
      snprintf(cells[n++], sizeof cells[0], "%s", b);
      len = 0;
      if (*s == ']') break;
      continue;
    }
    if (len + 1 >= sizeof cell)
      return hdgcl_error(HDGCL_ERROR_ARGUMENT, "%s: an entry longer than %zu characters", what,
                         sizeof cell - 1);
    cell[len++] = *s;
  }
  *p = s + 1;
  *count = n;
  return HDGCL_SUCCESS;
}

int hdg_user_kappa_read(const char *text, const char *what, hdg_user_field_parser parse, void *ctx,
                        hdg_user_kappa *k) {
  snprintf(k->what, sizeof k->what, "%s", what);
  const char *p = skip(text);
  if (*p != '[') return parse(ctx, text, what, &k->scalar);
  p++;
  char cells[3][3][1024];
  int rows = 0, len[3] = {0, 0, 0};
  for (;;) {
    if (rows == 3)
      return hdgcl_error(HDGCL_ERROR_ARGUMENT, "%s: '%s': more than 3 rows", what, text);
    HDGCL_TRY(read_row(&p, what, text, cells[rows], &len[rows]));
    rows++;
    p = skip(p);
    if (*p == ',') {
      p++;
      continue;
    }
    if (*p != ']' || *skip(p + 1)) return syntax(what, text);
    break;
  }
  for (int i = 0; i < rows; i++)
    if (len[i] != rows)
      return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                         "%s: '%s': row %d has %d entries, the matrix has %d rows (it must be square)",
                         what, text, i + 1, len[i], rows);
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < rows; j++) {
      char w[400];
      snprintf(w, sizeof w, "%s (entry %d,%d)", what, i + 1, j + 1);
      HDGCL_TRY(parse(ctx, cells[i][j], w, &k->m[i][j]));
    }
  k->rows = rows;
  /* Constant mirrored entries must agree now; the others are checked where sampled. */
  for (int i = 0; i < rows; i++)
    for (int j = i + 1; j < rows; j++) {
      double a, b;
      if (hdg_expr_constant(k->m[i][j], &a) && hdg_expr_constant(k->m[j][i], &b) &&
          !(fabs(a - b) <= SYMMETRY_TOL * fmax(fabs(a), fabs(b))))
        return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                           "%s: '%s' is not symmetric: entry (%d,%d) = %s but entry (%d,%d) = %s",
                           what, text, i + 1, j + 1, cells[i][j], j + 1, i + 1, cells[j][i]);
    }
  return HDGCL_SUCCESS;
}

void hdg_user_kappa_destroy(hdg_user_kappa *k) {
  hdg_expr_destroy(&k->scalar);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) hdg_expr_destroy(&k->m[i][j]);
  k->rows = 0;
}

int hdg_user_kappa_check_size(const hdg_user_kappa *k, int dim) {
  if (k->rows == 0 || k->rows == dim) return HDGCL_SUCCESS;
  return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                     "%s: a %dx%d matrix on a %dD mesh (give %d rows of %d entries, or one expression)",
                     k->what, k->rows, k->rows, dim, dim, dim);
}

void hdg_user_kappa_eval(const hdg_user_kappa *k, int d, const double *v, double *K) {
  for (int i = 0; i < d; i++)
    for (int j = 0; j < d; j++)
      K[i * d + j] = k->rows ? hdg_expr_eval(k->m[i][j], v)
                             : (i == j ? hdg_expr_eval(k->scalar, v) : 0.0);
}

/* "[[a, b], [c, d]]" of K for messages. */
static void format(int d, const double *K, char *buf, size_t n) {
  size_t len = 0;
  buf[0] = '\0';
  for (int i = 0; i < d; i++)
    for (int j = 0; j < d && len < n; j++)
      len += (size_t)snprintf(buf + len, n - len, "%s%g%s", j ? ", " : i ? ", [" : "[[", K[i * d + j],
                              j == d - 1 ? (i == d - 1 ? "]]" : "]") : "");
}

int hdg_user_kappa_factor(const hdg_user_kappa *k, const char *source, int d, double *K, int e,
                          int tag, const double *x, double *out) {
  double kmax = 0.0;
  bool finite = true;
  for (int i = 0; i < d * d; i++) {
    finite = finite && isfinite(K[i]);
    kmax = fmax(kmax, fabs(K[i]));
  }
  char text[256];
  format(d, K, text, sizeof text);
  if (!finite)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "%s: element %d (tag %d) at (%g, %g, %g): %s = %s is not finite",
                       source, e, tag, x[0], x[1], x[2], k->what, text);
  for (int i = 0; i < d; i++)
    for (int j = i + 1; j < d; j++) {
      double a = K[i * d + j], b = K[j * d + i];
      if (!(fabs(a - b) <= SYMMETRY_TOL * kmax))
        return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                           "%s: element %d (tag %d) at (%g, %g, %g): %s = %s is not symmetric "
                           "(entries (%d,%d) = %g and (%d,%d) = %g)",
                           source, e, tag, x[0], x[1], x[2], k->what, text, i + 1, j + 1, a, j + 1,
                           i + 1, b);
      K[i * d + j] = K[j * d + i] = a == b ? a : 0.5 * (a + b);
    }
  /* R: K = R R^T (Cholesky, lower); a pivot <= 0 means K is not positive definite. */
  double *kk = out, *kinv = out + d * d, *r = out + 2 * d * d;
  for (int i = 0; i < d * d; i++) {
    kk[i] = K[i];
    r[i] = 0.0;
  }
  for (int j = 0; j < d; j++) {
    double s = K[j * d + j];
    for (int l = 0; l < j; l++) s -= r[j * d + l] * r[j * d + l];
    if (!(s > 0.0))
      return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                         "%s: element %d (tag %d) at (%g, %g, %g): %s = %s is not positive definite "
                         "(need a symmetric positive definite tensor)",
                         source, e, tag, x[0], x[1], x[2], k->what, text);
    r[j * d + j] = sqrt(s);
    for (int i = j + 1; i < d; i++) {
      double t = K[i * d + j];
      for (int l = 0; l < j; l++) t -= r[i * d + l] * r[j * d + l];
      r[i * d + j] = t / r[j * d + j];
    }
  }
  /* K^-1 column by column from R: R y = e_c, R^T x = y. */
  for (int c = 0; c < d; c++) {
    double y[3];
    for (int i = 0; i < d; i++) {
      double t = i == c ? 1.0 : 0.0;
      for (int l = 0; l < i; l++) t -= r[i * d + l] * y[l];
      y[i] = t / r[i * d + i];
    }
    for (int i = d - 1; i >= 0; i--) {
      double t = y[i];
      for (int l = i + 1; l < d; l++) t -= r[l * d + i] * kinv[l * d + c];
      kinv[i * d + c] = t / r[i * d + i];
    }
  }
  for (int i = 0; i < d; i++) /* exactly symmetric */
    for (int j = i + 1; j < d; j++) kinv[j * d + i] = kinv[i * d + j];
  return HDGCL_SUCCESS;
}
