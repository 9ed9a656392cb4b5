/* Gauss-Jacobi rules (Golub-Welsch, then Newton polish) and the product rules
 * on the reference shapes (see quadrature.h). */
#include "fem/quadrature.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"

/* Largest supported "degree" of a shape rule (51 points per direction). */
#define QUADRATURE_MAX_DEGREE 100

/* ---- symmetric tridiagonal eigenproblem --------------------------------- */

/* One implicit QR step with a Wilkinson shift on the unreduced block lo..hi of
 * the tridiagonal matrix (diagonal d, off-diagonal e[k] = T(k,k+1)).  Each
 * Givens rotation G acting on rows/columns (k,k+1) maps T to G T G^T and
 * chases the bulge T(k-1,k+1) down the band.  z is the first column of the
 * accumulated rotation product, i.e. z[k] is the first component of the
 * eigenvector that d[k] converges to. */
static void implicit_qr_step(int lo, int hi, double *d, double *e, double *z) {
  /* Wilkinson shift: eigenvalue of the trailing 2x2 block closer to d[hi]. */
  double delta = 0.5 * (d[hi - 1] - d[hi]);
  double b = e[hi - 1];
  double mu = d[hi] - b * b / (delta + copysign(hypot(delta, b), delta));

  double x = d[lo] - mu, y = e[lo]; /* (x, y) is the vector the rotation zeroes */
  for (int k = lo; k < hi; k++) {
    double r = hypot(x, y);
    double c = 1.0, s = 0.0;
    if (r > 0.0) {
      c = x / r;
      s = y / r;
    }
    if (k > lo) e[k - 1] = r; /* the bulge T(k-1,k+1) is now zero */
    double dk = d[k], ek = e[k], dk1 = d[k + 1];
    d[k] = c * c * dk + 2.0 * c * s * ek + s * s * dk1;
    d[k + 1] = s * s * dk - 2.0 * c * s * ek + c * c * dk1;
    e[k] = c * s * (dk1 - dk) + (c * c - s * s) * ek;
    if (k + 1 < hi) { /* the rotation creates the bulge T(k,k+2) */
      x = e[k];
      y = s * e[k + 1];
      e[k + 1] *= c;
    }
    double zk = z[k];
    z[k] = c * zk + s * z[k + 1];
    z[k + 1] = -s * zk + c * z[k + 1];
  }
}

static int negligible(double e, double d0, double d1) {
  return fabs(e) <= DBL_EPSILON * (fabs(d0) + fabs(d1)) || fabs(e) < DBL_MIN;
}

/* Eigenvalues (into d) of the symmetric tridiagonal matrix (d, e); e is
 * destroyed; z[k] = first component of the unit eigenvector of d[k]. */
static int tridiagonal_eigen(int n, double *d, double *e, double *z) {
  for (int k = 0; k < n; k++) z[k] = (k == 0) ? 1.0 : 0.0;
  int hi = n - 1, steps = 0;
  while (hi > 0) {
    if (negligible(e[hi - 1], d[hi - 1], d[hi])) { /* d[hi] has converged */
      e[hi - 1] = 0.0;
      hi--;
      continue;
    }
    int lo = hi - 1;
    while (lo > 0 && !negligible(e[lo - 1], d[lo - 1], d[lo])) lo--;
    if (lo > 0) e[lo - 1] = 0.0;
    if (++steps > 60 * n)
      return hdgcl_error(HDGCL_ERROR_CONVERGENCE,
                         "Gauss-Jacobi rule with %d points: tridiagonal QR did not converge", n);
    implicit_qr_step(lo, hi, d, e, z);
  }
  return HDGCL_SUCCESS;
}

/* ---- Gauss-Jacobi ------------------------------------------------------- */

/* P_n^(a,b)(x) and its derivative by the three-term recurrence
 *   2(k+1)(k+a+b+1)(2k+a+b) P_{k+1}
 *     = (2k+a+b+1) [(2k+a+b+2)(2k+a+b) x + a^2 - b^2] P_k - 2(k+a)(k+b)(2k+a+b+2) P_{k-1}. */
static void jacobi_value(int n, double a, double b, double x, double *p, double *dp) {
  double p0 = 1.0, d0 = 0.0;
  double p1 = 0.5 * ((a + b + 2.0) * x + (a - b)), d1 = 0.5 * (a + b + 2.0);
  if (n == 0) {
    *p = p0;
    *dp = d0;
    return;
  }
  for (int k = 1; k < n; k++) {
    double s = 2.0 * k + a + b;
    double denom = 2.0 * (k + 1) * (k + a + b + 1.0) * s;
    double lin = (s + 1.0) * (s + 2.0) * s, cst = (s + 1.0) * (a * a - b * b);
    double back = 2.0 * (k + a) * (k + b) * (s + 2.0);
    double p2 = ((lin * x + cst) * p1 - back * p0) / denom;
    double d2 = ((lin * x + cst) * d1 + lin * p1 - back * d0) / denom;
    p0 = p1;
    p1 = p2;
    d0 = d1;
    d1 = d2;
  }
  *p = p1;
  *dp = d1;
}

static void sort_nodes(int n, double *x, double *w) {
  for (int i = 1; i < n; i++) { /* insertion sort: n is small and nearly sorted */
    double xi = x[i], wi = w[i];
    int j = i - 1;
    for (; j >= 0 && x[j] > xi; j--) {
      x[j + 1] = x[j];
      w[j + 1] = w[j];
    }
    x[j + 1] = xi;
    w[j + 1] = wi;
  }
}

int hdgcl_gauss_jacobi(int n, double alpha, double beta, double *x, double *w) {
  if (n < 1)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "Gauss-Jacobi rule: %d points (need at least 1)", n);
  if (!(alpha > -1.0) || !(beta > -1.0) || !isfinite(alpha) || !isfinite(beta))
    return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                       "Gauss-Jacobi rule: exponents alpha = %g, beta = %g (need finite, > -1)",
                       alpha, beta);
  if (!x || !w)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "Gauss-Jacobi rule: NULL node or weight array");
  const double a = alpha, b = beta, ab = alpha + beta;

  /* Jacobi matrix of the monic recurrence p_{k+1} = (x - a_k) p_k - b_k p_{k-1}:
   * diagonal a_k, off-diagonal sqrt(b_k). */
  double *e = NULL, *z = NULL;
  int status = hdgcl_calloc((size_t)n, sizeof *e, "Gauss-Jacobi off-diagonal", &e);
  if (status == HDGCL_SUCCESS)
    status = hdgcl_calloc((size_t)n, sizeof *z, "Gauss-Jacobi eigenvectors", &z);
  if (status != HDGCL_SUCCESS) goto done;
  for (int k = 0; k < n; k++) {
    double s = 2.0 * k + ab;
    x[k] = (k == 0) ? (b - a) / (ab + 2.0) : (b * b - a * a) / (s * (s + 2.0));
  }
  for (int k = 1; k < n; k++) {
    double s = 2.0 * k + ab;
    double bk = (k == 1) /* the general formula is 0/0 at k = 1 when a + b = -1 */
                    ? 4.0 * (1.0 + a) * (1.0 + b) / ((ab + 2.0) * (ab + 2.0) * (ab + 3.0))
                    : 4.0 * k * (k + a) * (k + b) * (k + ab) / (s * s * (s + 1.0) * (s - 1.0));
    e[k - 1] = sqrt(bk);
  }
  HDGCL_TRY_GOTO(status, tridiagonal_eigen(n, x, e, z), done);

  /* Golub-Welsch weights: mu0 times the squared first eigenvector components,
   * mu0 = integral of the weight = 2^(a+b+1) G(a+1) G(b+1) / G(a+b+2). */
  double mu0 = exp2(ab + 1.0) * tgamma(a + 1.0) * tgamma(b + 1.0) / tgamma(ab + 2.0);
  for (int k = 0; k < n; k++) w[k] = mu0 * z[k] * z[k];
  sort_nodes(n, x, w);

  /* Newton polish on P_n^(a,b), then the closed-form weights
   *   w_i = C_n 2^(a+b+1) / ((1 - x_i^2) P_n'(x_i)^2),
   *   C_n = G(n+a+1) G(n+b+1) / (G(n+a+b+1) n!)  (accumulated as a product). */
  double cn = tgamma(a + 2.0) * tgamma(b + 2.0) / tgamma(ab + 2.0);
  for (int k = 1; k < n; k++) cn *= (k + 1.0 + a) * (k + 1.0 + b) / ((k + 1.0 + ab) * (k + 1.0));
  for (int i = 0; i < n; i++) {
    double p, dp;
    for (int it = 0; it < 3; it++) {
      jacobi_value(n, a, b, x[i], &p, &dp);
      double step = p / dp;
      if (!isfinite(step) || fabs(step) > 1e-6) break; /* keep the eigenvalue */
      x[i] -= step;
      if (fabs(step) <= 4.0 * DBL_EPSILON * fabs(x[i])) break;
    }
    jacobi_value(n, a, b, x[i], &p, &dp);
    double wi = cn * exp2(ab + 1.0) / ((1.0 - x[i]) * (1.0 + x[i]) * dp * dp);
    if (isfinite(wi) && wi > 0.0) w[i] = wi;
  }
  if (a == b) { /* symmetric weight: make the rule exactly symmetric */
    for (int i = 0; i < n / 2; i++) {
      int j = n - 1 - i;
      double xs = 0.5 * (x[j] - x[i]), ws = 0.5 * (w[i] + w[j]);
      x[i] = -xs;
      x[j] = xs;
      w[i] = w[j] = ws;
    }
    if (n % 2) x[n / 2] = 0.0;
  }
  for (int i = 0; i < n; i++)
    if (!isfinite(x[i]) || !isfinite(w[i]) || !(w[i] > 0.0) || !(fabs(x[i]) < 1.0)) {
      status = hdgcl_error(HDGCL_ERROR_ARGUMENT,
                           "Gauss-Jacobi rule n = %d, alpha = %g, beta = %g: node %d is not "
                           "representable (x = %g, w = %g)",
                           n, a, b, i, x[i], w[i]);
      break;
    }
done:
  free(e);
  free(z);
  return status;
}

/* ---- rules on the reference shapes -------------------------------------- */

int hdgcl_quadrature_create(hdgcl_shape shape, int degree, hdgcl_quadrature *q) {
  if (!q) return hdgcl_error(HDGCL_ERROR_ARGUMENT, "quadrature: NULL output");
  memset(q, 0, sizeof *q);
  int dim = hdgcl_shape_dim(shape);
  if (dim == 0)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "quadrature: invalid reference shape %d", (int)shape);
  if (degree < 0 || degree > QUADRATURE_MAX_DEGREE)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "quadrature on the %s: degree %d out of range [0, %d]",
                       hdgcl_shape_name(shape), degree, QUADRATURE_MAX_DEGREE);

  /* m points per direction integrate degree 2m-1 >= degree.  On simplices the
   * collapsed (Duffy) map is x = (1+a)(1-b)/2 - 1, y = b (triangle), and
   * x = (1+a)(1-b)(1-c)/4 - 1, y = (1+b)(1-c)/2 - 1, z = c (tetrahedron), with
   * Jacobian (1-b)/2 resp. (1-b)/2 ((1-c)/2)^2.  A polynomial of total degree
   * D in (x,y,z) has degree <= D in each of a, b, c, and the Jacobian factors
   * are the Gauss-Jacobi weights, so m = ceil((D+1)/2) suffices here too. */
  int m = degree / 2 + 1;
  int n = 1;
  for (int d = 0; d < dim; d++) n *= m;

  int status;
  double *xa = NULL, *wa = NULL, *xb = NULL, *wb = NULL, *xc = NULL, *wc = NULL;
  double *points = NULL, *weights = NULL;
  HDGCL_TRY_GOTO(status, hdgcl_calloc((size_t)(6 * m), sizeof *xa, "1D quadrature rules", &xa),
                 fail);
  wa = xa + m;
  xb = wa + m;
  wb = xb + m;
  xc = wb + m;
  wc = xc + m;
  HDGCL_TRY_GOTO(
      status, hdgcl_calloc((size_t)n * (size_t)dim, sizeof *points, "quadrature points", &points),
      fail);
  HDGCL_TRY_GOTO(status, hdgcl_calloc((size_t)n, sizeof *weights, "quadrature weights", &weights),
                 fail);
  HDGCL_TRY_GOTO(status, hdgcl_gauss_jacobi(m, 0.0, 0.0, xa, wa), fail);

  int idx = 0; /* points are ordered with the first coordinate fastest */
  switch (shape) {
  case HDGCL_SHAPE_SEGMENT:
    for (int i = 0; i < m; i++) {
      points[i] = xa[i];
      weights[i] = wa[i];
    }
    break;
  case HDGCL_SHAPE_QUADRILATERAL:
    for (int j = 0; j < m; j++)
      for (int i = 0; i < m; i++, idx++) {
        points[2 * idx] = xa[i];
        points[2 * idx + 1] = xa[j];
        weights[idx] = wa[i] * wa[j];
      }
    break;
  case HDGCL_SHAPE_HEXAHEDRON:
    for (int k = 0; k < m; k++)
      for (int j = 0; j < m; j++)
        for (int i = 0; i < m; i++, idx++) {
          points[3 * idx] = xa[i];
          points[3 * idx + 1] = xa[j];
          points[3 * idx + 2] = xa[k];
          weights[idx] = wa[i] * wa[j] * wa[k];
        }
    break;
  case HDGCL_SHAPE_TRIANGLE:
    HDGCL_TRY_GOTO(status, hdgcl_gauss_jacobi(m, 1.0, 0.0, xb, wb), fail);
    for (int j = 0; j < m; j++)
      for (int i = 0; i < m; i++, idx++) {
        double a = xa[i], b = xb[j];
        points[2 * idx] = 0.5 * (1.0 + a) * (1.0 - b) - 1.0;
        points[2 * idx + 1] = b;
        weights[idx] = 0.5 * wa[i] * wb[j]; /* (1-b)/2 = weight (1-b) times 1/2 */
      }
    break;
  case HDGCL_SHAPE_TETRAHEDRON:
    HDGCL_TRY_GOTO(status, hdgcl_gauss_jacobi(m, 1.0, 0.0, xb, wb), fail);
    HDGCL_TRY_GOTO(status, hdgcl_gauss_jacobi(m, 2.0, 0.0, xc, wc), fail);
    for (int k = 0; k < m; k++)
      for (int j = 0; j < m; j++)
        for (int i = 0; i < m; i++, idx++) {
          double a = xa[i], b = xb[j], c = xc[k];
          points[3 * idx] = 0.25 * (1.0 + a) * (1.0 - b) * (1.0 - c) - 1.0;
          points[3 * idx + 1] = 0.5 * (1.0 + b) * (1.0 - c) - 1.0;
          points[3 * idx + 2] = c;
          weights[idx] = 0.125 * wa[i] * wb[j] * wc[k]; /* (1-b)/2 ((1-c)/2)^2 */
        }
    break;
  }
  free(xa);
  q->shape = shape;
  q->dim = dim;
  q->degree = degree;
  q->n = n;
  q->points = points;
  q->weights = weights;
  return HDGCL_SUCCESS;

fail:
  free(xa);
  free(points);
  free(weights);
  return status;
}

void hdgcl_quadrature_destroy(hdgcl_quadrature *q) {
  if (!q) return;
  free(q->points);
  free(q->weights);
  memset(q, 0, sizeof *q);
}
