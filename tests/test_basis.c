/* Orthonormal bases on the reference shapes: mass matrix = identity,
 * hierarchy and degrees, gradients (finite differences and the divergence
 * theorem), closed-form values at every vertex (the collapsed vertices of the
 * simplices included), reproduction of all monomials and orthogonality to
 * lower degrees, argument errors. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fem/basis.h"
#include "check.h"
#include "fem/face_map.h"
#include "fem/quadrature.h"

typedef struct shape_case {
  hdgcl_shape shape;
  int max_p;
} shape_case;

static const shape_case cases[] = {{HDGCL_SHAPE_SEGMENT, 20},
                                   {HDGCL_SHAPE_TRIANGLE, 10},
                                   {HDGCL_SHAPE_QUADRILATERAL, 8},
                                   {HDGCL_SHAPE_TETRAHEDRON, 8},
                                   {HDGCL_SHAPE_HEXAHEDRON, 8}};
#define NUM_CASES (int)(sizeof cases / sizeof cases[0])

static int is_tensor(hdgcl_shape s) {
  return s == HDGCL_SHAPE_QUADRILATERAL || s == HDGCL_SHAPE_HEXAHEDRON;
}

/* Reference vertices (shape.h), the collapsed vertex of each simplex last. */
static int shape_vertices(hdgcl_shape shape, const double **v) {
  *v = NULL;
  static const double seg[] = {-1, 1};
  static const double tri[] = {-1, -1, 1, -1, -1, 1};
  static const double quad[] = {-1, -1, 1, -1, 1, 1, -1, 1};
  static const double tet[] = {-1, -1, -1, 1, -1, -1, -1, 1, -1, -1, -1, 1};
  static const double hex[] = {-1, -1, -1, 1, -1, -1, 1, 1, -1, -1, 1, -1,
                               -1, -1, 1,  1, -1, 1,  1, 1, 1,  -1, 1, 1};
  switch (shape) {
  case HDGCL_SHAPE_SEGMENT: *v = seg; return 2;
  case HDGCL_SHAPE_TRIANGLE: *v = tri; return 3;
  case HDGCL_SHAPE_QUADRILATERAL: *v = quad; return 4;
  case HDGCL_SHAPE_TETRAHEDRON: *v = tet; return 4;
  case HDGCL_SHAPE_HEXAHEDRON: *v = hex; return 8;
  }
  return 0;
}

/* Deterministic pseudo-random numbers in [-1, 1) (xorshift64*). */
static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static double uniform(void) {
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  uint64_t r = rng_state * 0x2545F4914F6CDD1Dull;
  return (double)(r >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}

/* n test points: the vertices first, then random points inside the shape. */
static double *test_points(hdgcl_shape shape, int n_random, int *n) {
  int dim = hdgcl_shape_dim(shape);
  const double *v;
  int nv = shape_vertices(shape, &v);
  *n = nv + n_random;
  double *pts = malloc(sizeof *pts * (size_t)*n * dim);
  memcpy(pts, v, sizeof *pts * nv * dim);
  for (int i = nv; i < *n; i++) {
    double *x = pts + i * dim, sum;
    do {
      sum = 0;
      for (int d = 0; d < dim; d++) sum += (x[d] = uniform());
    } while ((shape == HDGCL_SHAPE_TRIANGLE && sum > 0) ||
             (shape == HDGCL_SHAPE_TETRAHEDRON && sum > -1));
  }
  return pts;
}

/* ---- orthonormality --------------------------------------------------------- */

static void test_orthonormal(hdgcl_shape shape, int max_p) {
  double worst = 0;
  for (int p = 0; p <= max_p; p++) {
    int N = hdgcl_basis_size(shape, p);
    hdgcl_quadrature q;
    CHECK_OK(hdgcl_quadrature_create(shape, 2 * p, &q));
    double *V = malloc(sizeof *V * (size_t)q.n * N);
    CHECK_OK(hdgcl_basis_eval(shape, p, q.n, q.points, V, NULL));
    double err = 0;
    for (int i = 0; i < N; i++)
      for (int j = 0; j <= i; j++) {
        double m = 0;
        for (int k = 0; k < q.n; k++)
          m += q.weights[k] * V[(size_t)k * N + i] * V[(size_t)k * N + j];
        err = fmax(err, fabs(m - (i == j)));
      }
    CHECK_MSG(err <= 1e-13, "%s p = %d: mass matrix differs from I by %g", hdgcl_shape_name(shape),
              p, err);
    worst = fmax(worst, err);
    free(V);
    hdgcl_quadrature_destroy(&q);
  }
  printf("%-13s p = 0..%d: |M - I| <= %.2e\n", hdgcl_shape_name(shape), max_p, worst);
}

/* ---- hierarchy and degrees ---------------------------------------------------- */

static void test_degrees_and_hierarchy(hdgcl_shape shape, int max_p) {
  int dim = hdgcl_shape_dim(shape);
  for (int p = 0; p <= max_p; p++) {
    int N = hdgcl_basis_size(shape, p);
    int expect_N = shape == HDGCL_SHAPE_SEGMENT         ? p + 1
                   : shape == HDGCL_SHAPE_TRIANGLE      ? (p + 1) * (p + 2) / 2
                   : shape == HDGCL_SHAPE_TETRAHEDRON   ? (p + 1) * (p + 2) * (p + 3) / 6
                   : shape == HDGCL_SHAPE_QUADRILATERAL ? (p + 1) * (p + 1)
                                                        : (p + 1) * (p + 1) * (p + 1);
    CHECK(N == expect_N);
    int count[32] = {0};
    for (int i = 0; i < N; i++) {
      int d = hdgcl_basis_degree(shape, p, i);
      CHECK(d >= 0 && d <= p);
      if (d >= 0 && d <= p) count[d]++;
      if (is_tensor(shape)) {
        int a = i % (p + 1), b = (i / (p + 1)) % (p + 1);
        int c = dim == 3 ? i / ((p + 1) * (p + 1)) : 0;
        int mx = a > b ? a : b;
        CHECK(d == (mx > c ? mx : c));
      } else if (i > 0) {
        CHECK(d >= hdgcl_basis_degree(shape, p, i - 1)); /* ordered by degree */
      }
    }
    for (int d = 0; d <= p; d++) {
      /* functions of degree exactly d: N(d) - N(d-1) (total or max degree) */
      int expected = hdgcl_basis_size(shape, d) - (d ? hdgcl_basis_size(shape, d - 1) : 0);
      CHECK_MSG(count[d] == expected, "%s p = %d: %d functions of degree %d, expected %d",
                hdgcl_shape_name(shape), p, count[d], d, expected);
    }
    CHECK(hdgcl_basis_degree(shape, p, N) == -1);
    CHECK(hdgcl_basis_degree(shape, p, -1) == -1);
  }
  CHECK(hdgcl_basis_degree(shape, 0, 0) == 0);
  if (is_tensor(shape)) return;

  /* Simplices and segment: the degree p-1 basis is the start of the degree p basis. */
  int n;
  double *pts = test_points(shape, 10, &n);
  double worst = 0;
  for (int p = 1; p <= max_p; p++) {
    int N = hdgcl_basis_size(shape, p), Nm = hdgcl_basis_size(shape, p - 1);
    double *v = malloc(sizeof *v * (size_t)n * N), *g = malloc(sizeof *g * (size_t)n * N * dim);
    double *vm = malloc(sizeof *v * (size_t)n * Nm), *gm = malloc(sizeof *g * (size_t)n * Nm * dim);
    CHECK_OK(hdgcl_basis_eval(shape, p, n, pts, v, g));
    CHECK_OK(hdgcl_basis_eval(shape, p - 1, n, pts, vm, gm));
    for (int k = 0; k < n; k++)
      for (int i = 0; i < Nm; i++) {
        double a = v[(size_t)k * N + i], b = vm[(size_t)k * Nm + i];
        worst = fmax(worst, fabs(a - b) / (1 + fabs(b)));
        for (int d = 0; d < dim; d++) {
          a = g[((size_t)k * N + i) * dim + d];
          b = gm[((size_t)k * Nm + i) * dim + d];
          worst = fmax(worst, fabs(a - b) / (1 + fabs(b)));
        }
      }
    free(v);
    free(g);
    free(vm);
    free(gm);
  }
  CHECK_MSG(worst <= 1e-15, "%s: basis p-1 differs from the start of basis p by %g",
            hdgcl_shape_name(shape), worst);
  free(pts);
}

/* ---- gradients ----------------------------------------------------------- */

/* Gradients against 6th-order central differences (step h = 1e-3, truncation
 * ~h^6 f^(7)/140), at the vertices and at random interior points.  The
 * polynomials extend beyond the shape, so the stencil may leave it. */
static void test_gradients_fd(hdgcl_shape shape, int p) {
  static const double coef[3] = {45.0, -9.0, 1.0};
  const double h = 1e-3;
  int dim = hdgcl_shape_dim(shape), N = hdgcl_basis_size(shape, p), n;
  double *pts = test_points(shape, 8, &n);
  double *g = malloc(sizeof *g * (size_t)n * N * dim);
  double *fp = malloc(sizeof *fp * N), *fm = malloc(sizeof *fm * N), *fd = malloc(sizeof *fd * N);
  CHECK_OK(hdgcl_basis_eval(shape, p, n, pts, NULL, g));
  double worst = 0;
  for (int k = 0; k < n; k++)
    for (int d = 0; d < dim; d++) {
      for (int i = 0; i < N; i++) fd[i] = 0;
      for (int s = 1; s <= 3; s++) {
        double xp[3], xm[3];
        for (int e = 0; e < dim; e++) xp[e] = xm[e] = pts[k * dim + e];
        xp[d] += s * h;
        xm[d] -= s * h;
        CHECK_OK(hdgcl_basis_eval(shape, p, 1, xp, fp, NULL));
        CHECK_OK(hdgcl_basis_eval(shape, p, 1, xm, fm, NULL));
        for (int i = 0; i < N; i++) fd[i] += coef[s - 1] * (fp[i] - fm[i]) / (60.0 * h);
      }
      for (int i = 0; i < N; i++) {
        const double *gi = g + ((size_t)k * N + i) * dim;
        double scale = 1.0;
        for (int e = 0; e < dim; e++) scale = fmax(scale, fabs(gi[e]));
        CHECK(isfinite(gi[d]));
        worst = fmax(worst, fabs(gi[d] - fd[i]) / scale);
      }
    }
  CHECK_MSG(worst <= 1e-7, "%s p = %d: gradient differs from finite differences by %g",
            hdgcl_shape_name(shape), p, worst);
  printf("%-13s p = %d: gradient vs finite differences %.2e\n", hdgcl_shape_name(shape), p, worst);
  free(pts);
  free(g);
  free(fp);
  free(fm);
  free(fd);
}

/* Divergence theorem: int_K d(phi_i)/dx_d = sum_faces int_F phi_i n_d, with
 * the volume and face quadratures exact for degree p and the faces reached
 * through hdgcl_face_map_points (orientation 0). */
static void test_divergence(hdgcl_element_type type, int p) {
  static const hdgcl_shape element_shape[] = {HDGCL_SHAPE_TRIANGLE, HDGCL_SHAPE_QUADRILATERAL,
                                              HDGCL_SHAPE_TETRAHEDRON, HDGCL_SHAPE_HEXAHEDRON};
  static const int num_faces[] = {3, 4, 4, 6};
  static const double face_corners[] = {-1, -1, 1, -1, 1, 1, -1, 1}; /* reference quad */
  hdgcl_shape shape = element_shape[type], fshape = hdgcl_face_shape(type);
  int dim = hdgcl_shape_dim(shape), N = hdgcl_basis_size(shape, p);
  double *vol = calloc((size_t)N * dim, sizeof *vol), *surf = calloc((size_t)N * dim, sizeof *surf);

  hdgcl_quadrature q;
  CHECK_OK(hdgcl_quadrature_create(shape, p, &q));
  double *g = malloc(sizeof *g * (size_t)q.n * N * dim);
  CHECK_OK(hdgcl_basis_eval(shape, p, q.n, q.points, NULL, g));
  for (int k = 0; k < q.n; k++)
    for (int i = 0; i < N * dim; i++) vol[i] += q.weights[k] * g[(size_t)k * N * dim + i];
  free(g);
  hdgcl_quadrature_destroy(&q);

  hdgcl_quadrature fq;
  CHECK_OK(hdgcl_quadrature_create(fshape, p, &fq));
  double *X = malloc(sizeof *X * (size_t)fq.n * dim), *v = malloc(sizeof *v * (size_t)fq.n * N);
  for (int f = 0; f < num_faces[type]; f++) {
    /* surface Jacobian = face measure / reference face measure (affine faces) */
    double corners[4 * 3], s[8]; /* corners[j * dim + d] */
    int nc = fshape == HDGCL_SHAPE_SEGMENT ? 2 : fshape == HDGCL_SHAPE_TRIANGLE ? 3 : 4;
    if (fshape == HDGCL_SHAPE_SEGMENT) {
      s[0] = -1;
      s[1] = 1;
    } else if (fshape == HDGCL_SHAPE_TRIANGLE) {
      memcpy(s, face_corners, 6 * sizeof *s); /* (-1,-1) (1,-1) and then (-1,1): */
      s[4] = -1;
      s[5] = 1;
    } else {
      memcpy(s, face_corners, 8 * sizeof *s);
    }
    CHECK_OK(hdgcl_face_map_points(type, f, 0, nc, s, corners));
    double area;
    if (dim == 2) {
      area = hypot(corners[2] - corners[0], corners[3] - corners[1]);
    } else {
      double a[3], b[3];
      int last = nc - 1;
      for (int e = 0; e < 3; e++) {
        a[e] = corners[3 + e] - corners[e];
        b[e] = corners[3 * last + e] - corners[e];
      }
      area = sqrt(pow(a[1] * b[2] - a[2] * b[1], 2) + pow(a[2] * b[0] - a[0] * b[2], 2) +
                  pow(a[0] * b[1] - a[1] * b[0], 2));
      if (nc == 3) area *= 0.5;
    }
    double jac = area / hdgcl_shape_measure(fshape), nrm[3];
    hdgcl_reference_face_normal(type, f, nrm);
    CHECK_OK(hdgcl_face_map_points(type, f, 0, fq.n, fq.points, X));
    CHECK_OK(hdgcl_basis_eval(shape, p, fq.n, X, v, NULL));
    for (int k = 0; k < fq.n; k++)
      for (int i = 0; i < N; i++)
        for (int d = 0; d < dim; d++)
          surf[i * dim + d] += fq.weights[k] * jac * v[(size_t)k * N + i] * nrm[d];
  }
  double worst = 0;
  for (int i = 0; i < N * dim; i++) worst = fmax(worst, fabs(vol[i] - surf[i]));
  CHECK_MSG(worst <= 1e-12, "%s p = %d: int grad phi - int phi n = %g", hdgcl_shape_name(shape), p,
            worst);
  free(X);
  free(v);
  hdgcl_quadrature_destroy(&fq);
  free(vol);
  free(surf);
}

/* ---- values at the vertices ---------------------------------------------- */

/* Closed forms from the definitions (basis.h order) with P_n(1) = 1,
 * P_n(-1) = (-1)^n, P_n^(a,0)(1) = binomial(n+a, n), P_n^(a,0)(-1) = (-1)^n:
 *   triangle phi_ij = sqrt((2i+1)(i+j+1)/2) P_i(a) ((1-b)/2)^i P_j^(2i+1,0)(b)
 *     v0 (-1,-1): c (-1)^(i+j)   v1 (1,-1): c (-1)^j   v2 (-1,1): c (j+1) if i = 0, else 0
 *   tetrahedron phi_ijk, c = sqrt((2i+1)(2i+2j+2)(2i+2j+2k+3)/8)
 *     v0: c (-1)^(i+j+k)  v1: c (-1)^(j+k)  v2: c (j+1) (-1)^k if i = 0
 *     v3 (-1,-1,1): c (k+1)(k+2)/2 if i = j = 0
 *   tensor: prod_d sqrt(i_d + 1/2) (x_d)^(i_d). */
static double expected_vertex_value(hdgcl_shape shape, int p, int vertex, int index) {
  int idx = 0;
  switch (shape) {
  case HDGCL_SHAPE_TRIANGLE:
    for (int n = 0; n <= p; n++)
      for (int j = 0; j <= n; j++, idx++) {
        if (idx != index) continue;
        int i = n - j;
        double c = sqrt((2.0 * i + 1) * (i + j + 1) / 2.0);
        if (vertex == 0) return c * ((i + j) % 2 ? -1 : 1);
        if (vertex == 1) return c * (j % 2 ? -1 : 1);
        return i == 0 ? c * (j + 1) : 0.0;
      }
    break;
  case HDGCL_SHAPE_TETRAHEDRON:
    for (int n = 0; n <= p; n++)
      for (int k = 0; k <= n; k++)
        for (int j = 0; j <= n - k; j++, idx++) {
          if (idx != index) continue;
          int i = n - j - k;
          double c = sqrt((2.0 * i + 1) * (2.0 * i + 2 * j + 2) * (2.0 * n + 3) / 8.0);
          if (vertex == 0) return c * (n % 2 ? -1 : 1);
          if (vertex == 1) return c * ((j + k) % 2 ? -1 : 1);
          if (vertex == 2) return i == 0 ? c * (j + 1) * (k % 2 ? -1 : 1) : 0.0;
          return (i == 0 && j == 0) ? c * (k + 1) * (k + 2) / 2.0 : 0.0;
        }
    break;
  default: {
    const double *v;
    shape_vertices(shape, &v);
    int dim = hdgcl_shape_dim(shape);
    double val = 1.0;
    for (int d = 0; d < dim; d++) {
      int e = index % (p + 1);
      index /= (p + 1);
      val *= sqrt(e + 0.5) * pow(v[vertex * dim + d], e);
    }
    return val;
  }
  }
  return NAN;
}

static void test_vertex_values(hdgcl_shape shape, int p) {
  const double *v;
  int nv = shape_vertices(shape, &v), dim = hdgcl_shape_dim(shape), N = hdgcl_basis_size(shape, p);
  double *val = malloc(sizeof *val * N), *g = malloc(sizeof *g * N * dim);
  double *near = malloc(sizeof *near * N);
  double worst = 0, jump = 0;
  for (int k = 0; k < nv; k++) {
    CHECK_OK(hdgcl_basis_eval(shape, p, 1, v + k * dim, val, g));
    /* a point 1e-9 of the way towards the centroid: the functions are continuous there */
    double x[3];
    for (int d = 0; d < dim; d++) {
      double centroid = 0;
      for (int l = 0; l < nv; l++) centroid += v[l * dim + d] / nv;
      x[d] = v[k * dim + d] + 1e-9 * (centroid - v[k * dim + d]);
    }
    CHECK_OK(hdgcl_basis_eval(shape, p, 1, x, near, NULL));
    for (int i = 0; i < N; i++) {
      double e = expected_vertex_value(shape, p, k, i);
      CHECK(isfinite(val[i]));
      for (int d = 0; d < dim; d++) CHECK(isfinite(g[i * dim + d]));
      worst = fmax(worst, fabs(val[i] - e) / fmax(1.0, fabs(e)));
      jump = fmax(jump, fabs(near[i] - val[i]));
    }
  }
  CHECK_MSG(worst <= 1e-13, "%s p = %d: vertex values off by %g", hdgcl_shape_name(shape), p,
            worst);
  CHECK_MSG(jump <= 1e-5, "%s p = %d: values jump by %g next to a vertex", hdgcl_shape_name(shape),
            p, jump);
  free(val);
  free(g);
  free(near);
}

/* ---- monomials ------------------------------------------------------------ */

/* Every monomial of the space (total degree <= p; per-variable for tensor
 * shapes) is reproduced by its orthogonal projection, and the projection
 * coefficients on functions the monomial is orthogonal to vanish: degree(i) >
 * degree(monomial) on simplices, any per-variable index above the exponent
 * for tensor bases. */
static void test_monomials(hdgcl_shape shape, int p) {
  int dim = hdgcl_shape_dim(shape), N = hdgcl_basis_size(shape, p), nc;
  hdgcl_quadrature q;
  CHECK_OK(hdgcl_quadrature_create(shape, 2 * p, &q));
  double *V = malloc(sizeof *V * (size_t)q.n * N);
  CHECK_OK(hdgcl_basis_eval(shape, p, q.n, q.points, V, NULL));
  double *cp = test_points(shape, 10, &nc);
  double *C = malloc(sizeof *C * (size_t)nc * N), *coef = malloc(sizeof *coef * N);
  CHECK_OK(hdgcl_basis_eval(shape, p, nc, cp, C, NULL));
  double worst_rec = 0, worst_orth = 0;
  int e[3] = {0, 0, 0};
  for (e[2] = 0; e[2] <= (dim == 3 ? p : 0); e[2]++)
    for (e[1] = 0; e[1] <= (dim >= 2 ? p : 0); e[1]++)
      for (e[0] = 0; e[0] <= p; e[0]++) {
        int total = e[0] + e[1] + e[2];
        if (!is_tensor(shape) && total > p) continue;
        for (int i = 0; i < N; i++) coef[i] = 0;
        for (int k = 0; k < q.n; k++) {
          double m = q.weights[k];
          for (int d = 0; d < dim; d++) m *= pow(q.points[k * dim + d], e[d]);
          for (int i = 0; i < N; i++) coef[i] += m * V[(size_t)k * N + i];
        }
        for (int i = 0; i < N; i++) {
          int orthogonal;
          if (is_tensor(shape)) {
            int a = i % (p + 1), b = (i / (p + 1)) % (p + 1), c = i / ((p + 1) * (p + 1));
            orthogonal = a > e[0] || b > e[1] || (dim == 3 && c > e[2]);
          } else {
            orthogonal = hdgcl_basis_degree(shape, p, i) > total;
          }
          if (orthogonal) worst_orth = fmax(worst_orth, fabs(coef[i]));
        }
        for (int k = 0; k < nc; k++) {
          double r = 0, m = 1;
          for (int i = 0; i < N; i++) r += coef[i] * C[(size_t)k * N + i];
          for (int d = 0; d < dim; d++) m *= pow(cp[k * dim + d], e[d]);
          worst_rec = fmax(worst_rec, fabs(r - m));
        }
      }
  CHECK_MSG(worst_orth <= 1e-13, "%s p = %d: monomial not orthogonal to higher degrees (%g)",
            hdgcl_shape_name(shape), p, worst_orth);
  CHECK_MSG(worst_rec <= 1e-12, "%s p = %d: monomial reconstruction error %g",
            hdgcl_shape_name(shape), p, worst_rec);
  printf("%-13s p = %d: monomials reconstructed to %.2e, orthogonality %.2e\n",
         hdgcl_shape_name(shape), p, worst_rec, worst_orth);
  free(V);
  free(cp);
  free(C);
  free(coef);
  hdgcl_quadrature_destroy(&q);
}

static void test_errors(void) {
  double x[3] = {0, 0, 0}, v[4];
  CHECK_FAILS(hdgcl_basis_eval(HDGCL_SHAPE_TRIANGLE, -1, 1, x, v, NULL), HDGCL_ERROR_ARGUMENT);
  CHECK(strstr(hdgcl_last_error(), "triangle") && strstr(hdgcl_last_error(), "p = -1"));
  CHECK_FAILS(hdgcl_basis_eval(HDGCL_SHAPE_TRIANGLE, 1000, 1, x, v, NULL), HDGCL_ERROR_ARGUMENT);
  CHECK_FAILS(hdgcl_basis_eval((hdgcl_shape)7, 1, 1, x, v, NULL), HDGCL_ERROR_ARGUMENT);
  CHECK_FAILS(hdgcl_basis_eval(HDGCL_SHAPE_SEGMENT, 1, -2, x, v, NULL), HDGCL_ERROR_ARGUMENT);
  CHECK_FAILS(hdgcl_basis_eval(HDGCL_SHAPE_SEGMENT, 1, 1, NULL, v, NULL), HDGCL_ERROR_ARGUMENT);
  CHECK_OK(hdgcl_basis_eval(HDGCL_SHAPE_TETRAHEDRON, 3, 1, x, NULL, NULL));
  CHECK_OK(hdgcl_basis_eval(HDGCL_SHAPE_TETRAHEDRON, 3, 0, NULL, NULL, NULL));
  CHECK(hdgcl_basis_size(HDGCL_SHAPE_TRIANGLE, -1) == 0);
  CHECK(hdgcl_basis_size((hdgcl_shape)7, 2) == 0);
  CHECK(hdgcl_basis_degree((hdgcl_shape)7, 2, 0) == -1);
  CHECK(hdgcl_basis_degree(HDGCL_SHAPE_TRIANGLE, -1, 0) == -1);
}

int main(void) {
  for (int c = 0; c < NUM_CASES; c++) {
    hdgcl_shape s = cases[c].shape;
    int pmax = cases[c].max_p;
    test_orthonormal(s, pmax);
    test_degrees_and_hierarchy(s, pmax);
    test_gradients_fd(s, s == HDGCL_SHAPE_SEGMENT ? 12 : pmax);
    for (int p = 0; p <= pmax; p++) test_vertex_values(s, p);
    test_monomials(s, 1);
    test_monomials(s, pmax > 10 ? 10 : pmax);
  }
  for (int type = HDGCL_TRIANGLE; type <= HDGCL_HEXAHEDRON; type++)
    for (int p = 0; p <= 6; p++) test_divergence((hdgcl_element_type)type, p);
  test_errors();
  CHECK_DONE();
}
