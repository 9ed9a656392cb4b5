/* Gauss-Jacobi rules and the reference-shape quadratures: known nodes and
 * weights, exactness for weighted polynomials (non-integer exponents too),
 * exactness for all monomials up to the rule's degree on every shape,
 * positive weights, interior points, argument errors. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fem/quadrature.h"

#define PI 3.14159265358979323846

static double rel_err(double got, double exact) {
  return fabs(got - exact) / fmax(fabs(exact), 1e-300);
}

/* Known rules: Gauss-Legendre n = 1, 2, 3 and Gauss-Jacobi(1,0) n = 1. */
static void test_known_rules(void) {
  double x[3], w[3];
  CHECK_OK(hdgcl_gauss_jacobi(1, 0.0, 0.0, x, w));
  CHECK_NEAR(x[0], 0.0, 1e-16);
  CHECK_NEAR(w[0], 2.0, 1e-15);
  CHECK_OK(hdgcl_gauss_jacobi(2, 0.0, 0.0, x, w));
  CHECK_NEAR(x[0], -1.0 / sqrt(3.0), 2e-16);
  CHECK_NEAR(x[1], 1.0 / sqrt(3.0), 2e-16);
  CHECK_NEAR(w[0], 1.0, 1e-15);
  CHECK_NEAR(w[1], 1.0, 1e-15);
  CHECK_OK(hdgcl_gauss_jacobi(3, 0.0, 0.0, x, w));
  CHECK_NEAR(x[0], -sqrt(0.6), 1e-16);
  CHECK(x[1] == 0.0);
  CHECK_NEAR(x[2], sqrt(0.6), 1e-16);
  CHECK_NEAR(w[0], 5.0 / 9.0, 1e-15);
  CHECK_NEAR(w[1], 8.0 / 9.0, 1e-15);
  CHECK_NEAR(w[2], 5.0 / 9.0, 1e-15);
  /* weight (1-x): the single node is the mean -1/3, the weight the mass 2 */
  CHECK_OK(hdgcl_gauss_jacobi(1, 1.0, 0.0, x, w));
  CHECK_NEAR(x[0], -1.0 / 3.0, 1e-16);
  CHECK_NEAR(w[0], 2.0, 1e-15);
  /* Gauss-Jacobi(1,0), n = 2: nodes are the roots of 5x^2 + 2x - 1 (P_2^(1,0)) */
  CHECK_OK(hdgcl_gauss_jacobi(2, 1.0, 0.0, x, w));
  CHECK_NEAR(x[0], (-1.0 - sqrt(6.0)) / 5.0, 1e-15);
  CHECK_NEAR(x[1], (-1.0 + sqrt(6.0)) / 5.0, 1e-15);
}

/* Chebyshev weights have closed-form rules for every n:
 *   first kind  (alpha = beta = -1/2): x_k = cos((2k-1) pi / 2n), w_k = pi / n
 *   second kind (alpha = beta = +1/2): x_k = cos(k pi / (n+1)),
 *                                      w_k = pi / (n+1) sin^2(k pi / (n+1)). */
static void test_chebyshev(void) {
  double x[40], w[40];
  double worst_x = 0, worst_w = 0;
  for (int n = 1; n <= 40; n++) {
    CHECK_OK(hdgcl_gauss_jacobi(n, -0.5, -0.5, x, w));
    for (int i = 0; i < n; i++) { /* ascending: i-th node is the (n-i)-th cosine */
      int k = n - i;
      worst_x = fmax(worst_x, fabs(x[i] - cos((2 * k - 1) * PI / (2 * n))));
      worst_w = fmax(worst_w, rel_err(w[i], PI / n));
    }
    CHECK_OK(hdgcl_gauss_jacobi(n, 0.5, 0.5, x, w));
    for (int i = 0; i < n; i++) {
      int k = n - i;
      double th = k * PI / (n + 1);
      worst_x = fmax(worst_x, fabs(x[i] - cos(th)));
      worst_w = fmax(worst_w, rel_err(w[i], PI / (n + 1) * sin(th) * sin(th)));
    }
  }
  CHECK_MSG(worst_x <= 1e-15, "Chebyshev nodes off by %g", worst_x);
  CHECK_MSG(worst_w <= 1e-13, "Chebyshev weights off by %g (relative)", worst_w);
}

/* Gauss-Legendre, n = 1..40: sum w x^m = 2/(m+1) (m even), 0 (m odd) for
 * m <= 2n-1, and NOT for m = 2n (which shows the check can fail). */
static void test_legendre_exactness(void) {
  double x[40], w[40];
  double worst = 0;
  for (int n = 1; n <= 40; n++) {
    CHECK_OK(hdgcl_gauss_jacobi(n, 0.0, 0.0, x, w));
    for (int i = 0; i < n; i++) {
      CHECK(w[i] > 0.0);
      CHECK(x[i] > -1.0 && x[i] < 1.0);
      if (i > 0) CHECK(x[i] > x[i - 1]);
    }
    for (int m = 0; m <= 2 * n; m++) {
      double sum = 0;
      for (int i = 0; i < n; i++) sum += w[i] * pow(x[i], m);
      double exact = (m % 2) ? 0.0 : 2.0 / (m + 1);
      if (m < 2 * n)
        worst = fmax(worst, fabs(sum - exact));
      else if (n <= 10)
        CHECK_MSG(fabs(sum - exact) > 1e-8, "n = %d is exact for x^%d?", n, m);
    }
  }
  CHECK_MSG(worst <= 2e-15, "Gauss-Legendre monomial error %g", worst);
}

/* Weighted exactness for non-integer exponents: with the Beta function,
 *   I_m = int (1-x)^a (1+x)^(b+m) dx = 2^(a+b+m+1) B(a+1, b+m+1),
 *   I_0 = 2^(a+b+1) G(a+1) G(b+1) / G(a+b+2),  I_{m+1} = I_m 2 (b+m+1) / (a+b+m+2).
 * (1+x)^m, m <= 2n-1, span the polynomials the rule must integrate exactly.
 * Tolerance: a node is only known to half an ulp, and the closed-form weight
 * changes by (2a+1) dx / (1-x) when the node moves by dx near x = 1 (likewise
 * (2b+1) dx / (1+x) near -1); with a strongly singular weight, a, b -> -1,
 * the last node sits within 1e-5 of the end and its weight, which dominates
 * high moments, carries a relative error ~1e-11.  Mild exponents: 1e-13. */
static void test_jacobi_exactness(void) {
  static const double ab[][2] = {{0.3, -0.6}, {-0.5, 1.7}, {2.5, 0.25}, {-0.9, -0.9},
                                 {1.0, 0.0},  {2.0, 0.0},  {0.0, 3.0},  {-0.99, 4.5}};
  double x[40], w[40];
  for (size_t c = 0; c < sizeof ab / sizeof ab[0]; c++) {
    double a = ab[c][0], b = ab[c][1];
    double worst = 0;
    for (int n = 1; n <= 40; n++) {
      CHECK_OK(hdgcl_gauss_jacobi(n, a, b, x, w));
      double I = exp2(a + b + 1.0) * tgamma(a + 1.0) * tgamma(b + 1.0) / tgamma(a + b + 2.0);
      for (int m = 0; m < 2 * n; m++) {
        double sum = 0;
        for (int i = 0; i < n; i++) sum += w[i] * pow(1.0 + x[i], m);
        worst = fmax(worst, rel_err(sum, I));
        I *= 2.0 * (b + m + 1.0) / (a + b + m + 2.0);
      }
      for (int i = 0; i < n; i++) {
        CHECK(w[i] > 0.0);
        CHECK(x[i] > -1.0 && x[i] < 1.0);
        if (i > 0) CHECK(x[i] > x[i - 1]);
      }
    }
    double tol = (a <= -0.9 || b <= -0.9) ? 2e-11 : 1e-13;
    CHECK_MSG(worst <= tol, "Gauss-Jacobi(%g,%g) weighted moments off by %g (relative)", a, b,
              worst);
  }
}

/* ---- shapes --------------------------------------------------------------- */

static double factorial(int n) {
  double f = 1;
  for (int i = 2; i <= n; i++) f *= i;
  return f;
}

/* Exact integral over the reference shape of prod_d (1 + x_d)^e[d].  The
 * shifted monomials with total (simplex) or per-variable (tensor) degree <= D
 * are a basis of the same polynomial space as the plain monomials x^e, so
 * exactness on them is exactness on all monomials (and their integrals have
 * no cancellation).  Simplices: with x = 2X - 1 the Dirichlet integral over the
 * unit simplex gives  int (1+x)^i (1+y)^j = 2^(i+j+2) i! j! / (i+j+2)!,  and
 * 2^(i+j+k+3) i! j! k! / (i+j+k+3)! on the tetrahedron. */
static double exact_integral(hdgcl_shape shape, const int *e) {
  int dim = hdgcl_shape_dim(shape), total = 0;
  double num = 1.0;
  for (int d = 0; d < dim; d++) {
    total += e[d];
    num *= factorial(e[d]);
  }
  switch (shape) {
  case HDGCL_SHAPE_TRIANGLE:
  case HDGCL_SHAPE_TETRAHEDRON: return exp2(total + dim) * num / factorial(total + dim);
  default: {
    double v = 1.0;
    for (int d = 0; d < dim; d++) v *= exp2(e[d] + 1) / (e[d] + 1);
    return v;
  }
  }
}

static int inside(hdgcl_shape shape, const double *x) {
  switch (shape) {
  case HDGCL_SHAPE_SEGMENT: return x[0] > -1 && x[0] < 1;
  case HDGCL_SHAPE_TRIANGLE: return x[0] > -1 && x[1] > -1 && x[0] + x[1] < 0;
  case HDGCL_SHAPE_QUADRILATERAL: return fabs(x[0]) < 1 && fabs(x[1]) < 1;
  case HDGCL_SHAPE_TETRAHEDRON:
    return x[0] > -1 && x[1] > -1 && x[2] > -1 && x[0] + x[1] + x[2] < -1;
  case HDGCL_SHAPE_HEXAHEDRON: return fabs(x[0]) < 1 && fabs(x[1]) < 1 && fabs(x[2]) < 1;
  }
  return 0;
}

/* Largest relative error over the shifted monomials of degree exactly D
 * (only_top) or of degree <= D, with the rule q. */
static double monomial_error(const hdgcl_quadrature *q, int D, int only_top) {
  hdgcl_shape shape = q->shape;
  int dim = q->dim;
  int tensor = (shape == HDGCL_SHAPE_QUADRILATERAL || shape == HDGCL_SHAPE_HEXAHEDRON);
  /* powers[ip][d][k] = (1 + x_d)^k */
  double *pw = malloc(sizeof *pw * (size_t)q->n * dim * (D + 1));
  for (int ip = 0; ip < q->n; ip++)
    for (int d = 0; d < dim; d++) {
      double *r = pw + ((size_t)ip * dim + d) * (D + 1);
      r[0] = 1.0;
      for (int k = 1; k <= D; k++) r[k] = r[k - 1] * (1.0 + q->points[ip * dim + d]);
    }
  double worst = 0;
  int e[3] = {0, 0, 0};
  int ez_max = dim == 3 ? D : 0, ey_max = dim >= 2 ? D : 0;
  for (e[2] = 0; e[2] <= ez_max; e[2]++)
    for (e[1] = 0; e[1] <= ey_max; e[1]++)
      for (e[0] = 0; e[0] <= D; e[0]++) {
        int total = e[0] + e[1] + e[2];
        int top = e[0] > e[1] ? e[0] : e[1];
        top = top > e[2] ? top : e[2];
        int deg = tensor ? top : total;
        if (deg > D || (only_top && deg != D)) continue;
        double sum = 0;
        for (int ip = 0; ip < q->n; ip++) {
          double f = q->weights[ip];
          for (int d = 0; d < dim; d++) f *= pw[((size_t)ip * dim + d) * (D + 1) + e[d]];
          sum += f;
        }
        worst = fmax(worst, rel_err(sum, exact_integral(shape, e)));
      }
  free(pw);
  return worst;
}

static void test_shape(hdgcl_shape shape, int max_degree) {
  double worst = 0;
  for (int D = 0; D <= max_degree; D++) {
    hdgcl_quadrature q;
    CHECK_OK(hdgcl_quadrature_create(shape, D, &q));
    int m = (D + 2) / 2, expect_n = 1;
    for (int d = 0; d < hdgcl_shape_dim(shape); d++) expect_n *= m;
    CHECK(q.shape == shape && q.dim == hdgcl_shape_dim(shape) && q.degree == D);
    CHECK_MSG(q.n == expect_n, "%s degree %d: %d points, expected %d", hdgcl_shape_name(shape), D,
              q.n, expect_n);
    double sum = 0;
    int bad_w = 0, outside = 0;
    for (int i = 0; i < q.n; i++) {
      sum += q.weights[i];
      bad_w += !(q.weights[i] > 0.0);
      outside += !inside(shape, q.points + i * q.dim);
    }
    CHECK_MSG(bad_w == 0, "%s degree %d: %d non-positive weights", hdgcl_shape_name(shape), D,
              bad_w);
    CHECK_MSG(outside == 0, "%s degree %d: %d points not strictly inside", hdgcl_shape_name(shape),
              D, outside);
    CHECK_NEAR(sum, hdgcl_shape_measure(shape), 1e-14 * hdgcl_shape_measure(shape));
    double err = monomial_error(&q, D, 0);
    CHECK_MSG(err <= 1e-13, "%s degree %d: monomial integrals off by %g (relative)",
              hdgcl_shape_name(shape), D, err);
    worst = fmax(worst, err);
    /* For even D the degree D-1 rule has one point fewer per direction and
     * must miss some monomial of degree D: shows the check above can fail. */
    if (D >= 2 && D % 2 == 0 && D <= 16) {
      hdgcl_quadrature low;
      CHECK_OK(hdgcl_quadrature_create(shape, D - 1, &low));
      CHECK_MSG(monomial_error(&low, D, 1) > 1e-10, "%s: degree %d rule is exact at degree %d",
                hdgcl_shape_name(shape), D - 1, D);
      hdgcl_quadrature_destroy(&low);
    }
    hdgcl_quadrature_destroy(&q);
  }
  printf("%-13s degrees 0..%d: worst relative monomial error %.2e\n", hdgcl_shape_name(shape),
         max_degree, worst);
}

static void test_errors(void) {
  double x[4], w[4];
  CHECK_FAILS(hdgcl_gauss_jacobi(0, 0.0, 0.0, x, w), HDGCL_ERROR_ARGUMENT);
  CHECK_FAILS(hdgcl_gauss_jacobi(3, -1.0, 0.0, x, w), HDGCL_ERROR_ARGUMENT);
  CHECK(strstr(hdgcl_last_error(), "alpha = -1") != NULL);
  CHECK_FAILS(hdgcl_gauss_jacobi(3, 0.0, NAN, x, w), HDGCL_ERROR_ARGUMENT);
  CHECK_FAILS(hdgcl_gauss_jacobi(3, 0.0, 0.0, NULL, w), HDGCL_ERROR_ARGUMENT);

  hdgcl_quadrature q;
  CHECK_FAILS(hdgcl_quadrature_create(HDGCL_SHAPE_TRIANGLE, -1, &q), HDGCL_ERROR_ARGUMENT);
  CHECK(strstr(hdgcl_last_error(), "triangle") && strstr(hdgcl_last_error(), "degree -1"));
  CHECK(q.points == NULL && q.weights == NULL && q.n == 0);
  CHECK_FAILS(hdgcl_quadrature_create(HDGCL_SHAPE_HEXAHEDRON, 1000, &q), HDGCL_ERROR_ARGUMENT);
  CHECK_FAILS(hdgcl_quadrature_create((hdgcl_shape)9, 2, &q), HDGCL_ERROR_ARGUMENT);
  CHECK_FAILS(hdgcl_quadrature_create(HDGCL_SHAPE_SEGMENT, 2, NULL), HDGCL_ERROR_ARGUMENT);
  hdgcl_quadrature_destroy(&q); /* harmless on a zeroed rule */
  hdgcl_quadrature_destroy(NULL);
}

int main(void) {
  test_known_rules();
  test_chebyshev();
  test_legendre_exactness();
  test_jacobi_exactness();
  test_shape(HDGCL_SHAPE_SEGMENT, 30);
  test_shape(HDGCL_SHAPE_TRIANGLE, 30);
  test_shape(HDGCL_SHAPE_QUADRILATERAL, 20);
  test_shape(HDGCL_SHAPE_TETRAHEDRON, 20);
  test_shape(HDGCL_SHAPE_HEXAHEDRON, 20);
  test_errors();
  CHECK_DONE();
}
