/* Orthonormal polynomial bases on the reference shapes (see basis.h). */
#include "fem/basis.h"

#include <math.h>
#include <stdlib.h>

#include "core/error.h"

/* Largest supported polynomial degree (keeps every size far from overflow). */
#define BASIS_MAX_DEGREE 100

int hdgcl_basis_size(hdgcl_shape shape, int p) {
  if (p < 0 || p > BASIS_MAX_DEGREE) return 0;
  switch (shape) {
  case HDGCL_SHAPE_SEGMENT: return p + 1;
  case HDGCL_SHAPE_TRIANGLE: return (p + 1) * (p + 2) / 2;
  case HDGCL_SHAPE_QUADRILATERAL: return (p + 1) * (p + 1);
  case HDGCL_SHAPE_TETRAHEDRON: return (p + 1) * (p + 2) * (p + 3) / 6;
  case HDGCL_SHAPE_HEXAHEDRON: return (p + 1) * (p + 1) * (p + 1);
  }
  return 0;
}

int hdgcl_basis_degree(hdgcl_shape shape, int p, int i) {
  int size = hdgcl_basis_size(shape, p);
  if (size == 0 || i < 0 || i >= size) return -1;
  int q = p + 1, d = 0;
  switch (shape) {
  case HDGCL_SHAPE_SEGMENT: return i;
  case HDGCL_SHAPE_TRIANGLE:
  case HDGCL_SHAPE_TETRAHEDRON: /* the first N(d) functions have degree <= d */
    while (hdgcl_basis_size(shape, d) <= i) d++;
    return d;
  case HDGCL_SHAPE_QUADRILATERAL: {
    int a = i % q, b = i / q;
    return a > b ? a : b;
  }
  case HDGCL_SHAPE_HEXAHEDRON: {
    int a = i % q, b = (i / q) % q, c = i / (q * q);
    d = a > b ? a : b;
    return d > c ? d : c;
  }
  }
  return -1;
}

/* Scaled Jacobi polynomials R_k(u, t) = t^k P_k^(alpha,0)(u/t), k = 0..n, and
 * their partial derivatives r_u = dR/du, r_t = dR/dt.  Multiplying the Jacobi
 * three-term recurrence by t^(k+1) gives one that never divides by t:
 *   2(k+1)(k+alpha+1)(2k+alpha) R_{k+1}
 *     = (2k+alpha+1) [(2k+alpha+2)(2k+alpha) u + alpha^2 t] R_k
 *       - 2k(k+alpha)(2k+alpha+2) t^2 R_{k-1},
 * R_0 = 1, R_1 = ((alpha+2) u + alpha t) / 2.  With t = 1 this is P_k^(alpha,0)(u).
 * On simplices u and t are polynomials in the Cartesian coordinates, so R_k is
 * a polynomial there, finite at the collapsed vertex where t = 0. */
static void scaled_jacobi(int n, double alpha, double u, double t, double *r, double *r_u,
                          double *r_t) {
  r[0] = 1.0;
  r_u[0] = 0.0;
  r_t[0] = 0.0;
  if (n == 0) return;
  r[1] = 0.5 * ((alpha + 2.0) * u + alpha * t);
  r_u[1] = 0.5 * (alpha + 2.0);
  r_t[1] = 0.5 * alpha;
  for (int k = 1; k < n; k++) {
    double s = 2.0 * k + alpha;
    double denom = 2.0 * (k + 1) * (k + alpha + 1.0) * s;
    double cu = (s + 1.0) * (s + 2.0) * s, ct = (s + 1.0) * alpha * alpha;
    double back = 2.0 * k * (k + alpha) * (s + 2.0);
    double lin = cu * u + ct * t;
    r[k + 1] = (lin * r[k] - back * t * t * r[k - 1]) / denom;
    r_u[k + 1] = (cu * r[k] + lin * r_u[k] - back * t * t * r_u[k - 1]) / denom;
    r_t[k + 1] =
        (ct * r[k] + lin * r_t[k] - back * (2.0 * t * r[k - 1] + t * t * r_t[k - 1])) / denom;
  }
}

/* Tables of scaled Jacobi values for one point: row m holds k = 0..p. */
typedef struct jacobi_table {
  double *v, *du, *dt;
} jacobi_table;

static double *row(double *a, int p, int m) { return a + (size_t)m * (size_t)(p + 1); }

static void fill_row(jacobi_table *tab, int p, int m, int n, double alpha, double u, double t) {
  scaled_jacobi(n, alpha, u, t, row(tab->v, p, m), row(tab->du, p, m), row(tab->dt, p, m));
}

/* Segment: phi_i = sqrt(i + 1/2) P_i(x). */
static void eval_segment(int p, const double *X, double *val, double *grad, jacobi_table *tab) {
  fill_row(tab, p, 0, p, 0.0, X[0], 1.0);
  for (int i = 0; i <= p; i++) {
    double c = sqrt(i + 0.5);
    if (val) val[i] = c * tab->v[i];
    if (grad) grad[i] = c * tab->du[i];
  }
}

/* Quadrilateral / hexahedron: products of normalized Legendre polynomials,
 * index i + (p+1) j (+ (p+1)^2 k); tab[d] holds coordinate d. */
static void eval_tensor(int p, int dim, const double *X, double *val, double *grad,
                        jacobi_table *tab) {
  for (int d = 0; d < dim; d++) {
    fill_row(&tab[d], p, 0, p, 0.0, X[d], 1.0);
    for (int i = 0; i <= p; i++) {
      tab[d].v[i] *= sqrt(i + 0.5);
      tab[d].du[i] *= sqrt(i + 0.5);
    }
  }
  int nk = (dim == 3) ? p + 1 : 1, idx = 0;
  for (int k = 0; k < nk; k++)
    for (int j = 0; j <= p; j++)
      for (int i = 0; i <= p; i++, idx++) {
        double lx = tab[0].v[i], ly = tab[1].v[j], lz = (dim == 3) ? tab[2].v[k] : 1.0;
        if (val) val[idx] = lx * ly * lz;
        if (grad) {
          double *g = grad + (size_t)dim * idx;
          g[0] = tab[0].du[i] * ly * lz;
          g[1] = lx * tab[1].du[j] * lz;
          if (dim == 3) g[2] = lx * ly * tab[2].du[k];
        }
      }
}

/* Triangle: with the collapsed coordinates a = 2(1+x)/(1-y) - 1, b = y,
 *   phi_ij = sqrt((2i+1)(i+j+1)/2) P_i(a) ((1-b)/2)^i P_j^(2i+1,0)(b).
 * The factor Q_i = P_i(a) t^i, t = (1-y)/2, is the scaled Legendre polynomial
 * in u = a t = x + (1+y)/2 and t. */
static void eval_triangle(int p, const double *X, double *val, double *grad, jacobi_table *q,
                          jacobi_table *jac) {
  double x = X[0], y = X[1];
  fill_row(q, p, 0, p, 0.0, x + 0.5 * (1.0 + y), 0.5 * (1.0 - y));
  for (int i = 0; i <= p; i++) fill_row(jac, p, i, p - i, 2.0 * i + 1.0, y, 1.0);
  int idx = 0;
  for (int n = 0; n <= p; n++)
    for (int j = 0; j <= n; j++, idx++) {
      int i = n - j;
      double c = sqrt((2.0 * i + 1.0) * (i + j + 1.0) / 2.0);
      double Q = q->v[i], Qx = q->du[i], Qy = 0.5 * q->du[i] - 0.5 * q->dt[i];
      double J = row(jac->v, p, i)[j], Jy = row(jac->du, p, i)[j];
      if (val) val[idx] = c * Q * J;
      if (grad) {
        grad[2 * idx] = c * Qx * J;
        grad[2 * idx + 1] = c * (Qy * J + Q * Jy);
      }
    }
}

/* Tetrahedron: with the collapsed coordinates
 *   a = -2(1+x)/(y+z) - 1, b = 2(1+y)/(1-z) - 1, c = z,
 *   phi_ijk = sqrt((2i+1)(2i+2j+2)(2i+2j+2k+3)/8) P_i(a) ((1-b)/2)^i
 *             P_j^(2i+1,0)(b) ((1-c)/2)^(i+j) P_k^(2i+2j+2,0)(c).
 * Written as Q_i R_ij S_(i+j)k with
 *   Q_i  = scaled Legendre in u = 1 + x + (y+z)/2, t = -(y+z)/2,
 *   R_ij = scaled Jacobi (2i+1, 0) in u = y + (1+z)/2, t = (1-z)/2,
 *   S_mk = Jacobi (2m+2, 0) in z. */
static void eval_tetrahedron(int p, const double *X, double *val, double *grad, jacobi_table *q,
                             jacobi_table *rj, jacobi_table *sk) {
  double x = X[0], y = X[1], z = X[2];
  fill_row(q, p, 0, p, 0.0, 1.0 + x + 0.5 * (y + z), -0.5 * (y + z));
  for (int i = 0; i <= p; i++) {
    fill_row(rj, p, i, p - i, 2.0 * i + 1.0, y + 0.5 * (1.0 + z), 0.5 * (1.0 - z));
    fill_row(sk, p, i, p - i, 2.0 * i + 2.0, z, 1.0); /* row m = i + j */
  }
  int idx = 0;
  for (int n = 0; n <= p; n++)
    for (int k = 0; k <= n; k++)
      for (int j = 0; j <= n - k; j++, idx++) {
        int i = n - j - k, m = i + j;
        double c = sqrt((2.0 * i + 1.0) * (2.0 * m + 2.0) * (2.0 * n + 3.0) / 8.0);
        double Q = q->v[i], Qx = q->du[i], Qyz = 0.5 * q->du[i] - 0.5 * q->dt[i];
        double R = row(rj->v, p, i)[j], Ry = row(rj->du, p, i)[j];
        double Rz = 0.5 * row(rj->du, p, i)[j] - 0.5 * row(rj->dt, p, i)[j];
        double S = row(sk->v, p, m)[k], Sz = row(sk->du, p, m)[k];
        if (val) val[idx] = c * Q * R * S;
        if (grad) {
          double *g = grad + 3 * (size_t)idx;
          g[0] = c * Qx * R * S;
          g[1] = c * (Qyz * R + Q * Ry) * S;
          g[2] = c * ((Qyz * R + Q * Rz) * S + Q * R * Sz);
        }
      }
}

int hdgcl_basis_eval(hdgcl_shape shape, int p, int npts, const double *pts, double *values,
                     double *grads) {
  int dim = hdgcl_shape_dim(shape);
  if (dim == 0)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "basis: invalid reference shape %d", (int)shape);
  const char *name = hdgcl_shape_name(shape);
  if (p < 0 || p > BASIS_MAX_DEGREE)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "basis on the %s: degree p = %d out of range [0, %d]",
                       name, p, BASIS_MAX_DEGREE);
  if (npts < 0)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "basis on the %s: negative point count %d", name,
                       npts);
  if (npts > 0 && !pts)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "basis on the %s: NULL point array", name);
  if (npts == 0 || (!values && !grads)) return HDGCL_SUCCESS;

  /* Three tables (value, d/du, d/dt) per factor or coordinate, (p+1) x (p+1) each. */
  size_t tsize = (size_t)(p + 1) * (size_t)(p + 1);
  double *work = NULL;
  HDGCL_TRY(hdgcl_calloc(9 * tsize, sizeof *work, "basis evaluation workspace", &work));
  jacobi_table t[3];
  for (int f = 0; f < 3; f++) {
    t[f].v = work + (3 * f) * tsize;
    t[f].du = work + (3 * f + 1) * tsize;
    t[f].dt = work + (3 * f + 2) * tsize;
  }
  size_t N = (size_t)hdgcl_basis_size(shape, p);
  for (int ip = 0; ip < npts; ip++) {
    const double *X = pts + (size_t)dim * ip;
    double *val = values ? values + N * ip : NULL;
    double *grad = grads ? grads + N * dim * ip : NULL;
    switch (shape) {
    case HDGCL_SHAPE_SEGMENT: eval_segment(p, X, val, grad, &t[0]); break;
    case HDGCL_SHAPE_QUADRILATERAL: eval_tensor(p, 2, X, val, grad, t); break;
    case HDGCL_SHAPE_HEXAHEDRON: eval_tensor(p, 3, X, val, grad, t); break;
    case HDGCL_SHAPE_TRIANGLE: eval_triangle(p, X, val, grad, &t[0], &t[1]); break;
    case HDGCL_SHAPE_TETRAHEDRON: eval_tetrahedron(p, X, val, grad, &t[0], &t[1], &t[2]); break;
    }
  }
  free(work);
  return HDGCL_SUCCESS;
}
