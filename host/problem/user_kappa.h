/* A user's kappa (docs/problems.md "Tensor kappa"): one expression (the
 * isotropic kappa I) or a symmetric d x d matrix of expressions
 * `[[kxx, kxy], [kxy, kyy]]`, each sampled at the element's centroid.  For a
 * problem with a tensor kappa the solver keeps per element K, K^-1 and the
 * Cholesky factor R of K = R R^T (KAPPA_TENSOR_VALUES, cl/fem/problems.h). */
#ifndef HDGCL_HOST_USER_KAPPA_H
#define HDGCL_HOST_USER_KAPPA_H

#include <stdbool.h>

#include "problem/expr.h"

typedef struct hdg_user_kappa {
  hdg_expr *scalar;  /* isotropic (NULL if not given or a matrix) */
  hdg_expr *m[3][3]; /* the matrix, rows x rows entries */
  int rows;          /* 0: a scalar */
  char what[320];    /* the option or file entry it came from, for messages */
} hdg_user_kappa;

/* Parses an expression of x, y, z into *e (user_problem.c's parse_field). */
typedef int (*hdg_user_field_parser)(void *ctx, const char *text, const char *what, hdg_expr **e);

/* Reads text as one expression or as `[[a, b], [c, d]]` (2 or 3 rows of as
 * many entries).  A matrix whose mirrored entries are different constants is
 * refused here, naming the entries. */
int hdg_user_kappa_read(const char *text, const char *what, hdg_user_field_parser parse, void *ctx,
                        hdg_user_kappa *k);
void hdg_user_kappa_destroy(hdg_user_kappa *k);

static inline bool hdg_user_kappa_given(const hdg_user_kappa *k) { return k->scalar || k->rows; }

/* An error naming k unless its matrix (if any) is dim x dim. */
int hdg_user_kappa_check_size(const hdg_user_kappa *k, int dim);

/* The d x d tensor K at the point v (hdg_expr_eval's variables): kappa I for
 * a scalar. */
void hdg_user_kappa_eval(const hdg_user_kappa *k, int d, const double *v, double *K);

/* Checks K (d x d, row-major) at element e's centroid x: finite, symmetric
 * (mirrored entries equal to 1e-12 of its largest; then made exactly
 * symmetric) and positive definite; fills out = [K, K^-1, R] (3 d^2 values,
 * R lower triangular with K = R R^T).  Errors name `source`, the element,
 * its tag, the centroid and k's option. */
int hdg_user_kappa_factor(const hdg_user_kappa *k, const char *source, int d, double *K, int e,
                          int tag, const double *x, double *out);

#endif
