/* The vector problems of host/problem.c (docs/elasticity.md section 6):
 *
 * elasticity (paper 004 section 4.1), a = 1/100, k = 2 pi:
 *   3D  u = a (x sin ky + y cos kz,  y sin kz + z cos kx,  z sin kx + x cos ky)
 *   2D  u = a (x sin ky + y cos kx,  y sin kx + x cos ky)
 *   (lap u_i = -k^2 u_i in both);
 * elasticity-incompressible (paper 004 section 4.2), A(t) = (t - t^2)^2,
 * B(t) = 2t^3 - 3t^2 + t = A'(t) / 2:
 *   3D  u = mu (200 A(x) B(y) B(z), -100 B(x) A(y) B(z), -100 B(x) B(y) A(z))
 *   2D  u = mu (200 A(x) B(y),      -200 B(x) A(y))
 *   (div u = 0, so p = 0 and f = -mu lap u for every lambda);
 * elasticity-mixed: the elasticity solution with traction data on x=1, y=1
 * [, z=1];
 * elasticity-linear: u = A x with the fixed A below, f = 0, a uniform stress
 * (every p >= 1 reproduces it: the VTU von Mises test);
 * cantilever: no exact solution (u = 0 here), body force f = -rho g e_y (2D)
 * or -rho g e_z (3D), traction-free (g = 0) on the Neumann sides. */
#include "problem_elasticity.h"

#include <math.h>
#include <string.h>

/* A, B and their first two derivatives at t: v[0..2] = A, A', A''; w[0..2] = B, B', B''. */
static void ab(double t, double *v, double *w) {
  double s = t - t * t;
  v[0] = s * s;
  w[0] = 2 * t * t * t - 3 * t * t + t;
  v[1] = 2 * w[0];
  w[1] = 6 * t * t - 6 * t + 1;
  v[2] = 2 * w[1];
  w[2] = 12 * t - 6;
}

/* Incompressible case: u_i = c_i prod_j F_ij(x_j), F = A on the diagonal, B
 * elsewhere; grad and the Laplacian term by term. */
static void incompressible(const problem_params *pp, const double *x, double *u, double *grad,
                           double *lap) {
  int d = pp->dim;
  double fa[3][3], fb[3][3];
  for (int j = 0; j < d; j++) ab(x[j], fa[j], fb[j]);
  const double c3[3] = {200, -100, -100}, c2[2] = {200, -200};
  for (int i = 0; i < d; i++) {
    double c = pp->mu * (d == 3 ? c3[i] : c2[i]);
    const double *f[3];
    for (int j = 0; j < d; j++) f[j] = j == i ? fa[j] : fb[j];
    double val = c;
    for (int j = 0; j < d; j++) val *= f[j][0];
    u[i] = val;
    lap[i] = 0.0;
    for (int j = 0; j < d; j++) {
      double g = c, l = c;
      for (int k = 0; k < d; k++) {
        g *= f[k][k == j ? 1 : 0];
        l *= f[k][k == j ? 2 : 0];
      }
      grad[i * d + j] = g;
      lap[i] += l;
    }
  }
}

void elasticity_exact(const problem_params *pp, const double *x, double *u, double *grad,
                      double *p) {
  const double a = 0.01, k = 2 * HDGCL_PI;
  int d = pp->dim;
  if (pp->id == PROBLEM_CANTILEVER) { /* no exact solution */
    for (int i = 0; i < d; i++) u[i] = 0.0;
    for (int i = 0; i < d * d; i++) grad[i] = 0.0;
  } else if (pp->id == PROBLEM_ELASTICITY_LINEAR) {
    static const double A[3][3] = {{0.01, 0.02, 0.005}, {0.015, -0.006, 0.003}, {0.004, 0.006, 0.002}};
    for (int i = 0; i < d; i++) {
      u[i] = 0.0;
      for (int j = 0; j < d; j++) {
        u[i] += A[i][j] * x[j];
        grad[i * d + j] = A[i][j];
      }
    }
  } else if (pp->id == PROBLEM_ELASTICITY_INCOMPRESSIBLE) {
    double lap[3];
    incompressible(pp, x, u, grad, lap);
  } else if (d == 3) {
    double sx = sin(k * x[0]), cx = cos(k * x[0]), sy = sin(k * x[1]), cy = cos(k * x[1]);
    double sz = sin(k * x[2]), cz = cos(k * x[2]);
    u[0] = a * (x[0] * sy + x[1] * cz);
    u[1] = a * (x[1] * sz + x[2] * cx);
    u[2] = a * (x[2] * sx + x[0] * cy);
    double g[9] = {sy, k * x[0] * cy + cz, -k * x[1] * sz,  /* grad u_0 */
                   -k * x[2] * sx, sz, k * x[1] * cz + cx,  /* grad u_1 */
                   k * x[2] * cx + cy, -k * x[0] * sy, sx}; /* grad u_2 */
    for (int i = 0; i < 9; i++) grad[i] = a * g[i];
  } else {
    double sx = sin(k * x[0]), cx = cos(k * x[0]), sy = sin(k * x[1]), cy = cos(k * x[1]);
    u[0] = a * (x[0] * sy + x[1] * cx);
    u[1] = a * (x[1] * sx + x[0] * cy);
    double g[4] = {sy - k * x[1] * sx, k * x[0] * cy + cx,   /* grad u_0 */
                   k * x[1] * cx + cy, sx - k * x[0] * sy};  /* grad u_1 */
    for (int i = 0; i < 4; i++) grad[i] = a * g[i];
  }
  double div = 0.0;
  for (int i = 0; i < d; i++) div += grad[i * d + i];
  *p = -(pp->mu + pp->lambda) * div;
}

void elasticity_load(const problem_params *pp, const double *x, double *f) {
  const double a = 0.01, k = 2 * HDGCL_PI;
  int d = pp->dim;
  double u[3], grad[9], lap[3], graddiv[3] = {0, 0, 0};
  if (pp->id == PROBLEM_CANTILEVER) { /* own weight: rho g (--weight) downwards */
    for (int i = 0; i < d; i++) f[i] = 0.0;
    f[d - 1] = -pp->param;
    return;
  }
  if (pp->id == PROBLEM_ELASTICITY_LINEAR) {
    for (int i = 0; i < d; i++) f[i] = 0.0;
    return;
  }
  if (pp->id == PROBLEM_ELASTICITY_INCOMPRESSIBLE) {
    incompressible(pp, x, u, grad, lap); /* div u = 0: grad div u = 0 */
  } else {
    double p;
    elasticity_exact(pp, x, u, grad, &p);
    for (int i = 0; i < d; i++) lap[i] = -k * k * u[i];
    double sx = sin(k * x[0]), cx = cos(k * x[0]), sy = sin(k * x[1]), cy = cos(k * x[1]);
    if (d == 3) { /* div u = a (sin ky + sin kz + sin kx) */
      graddiv[0] = a * k * cx;
      graddiv[1] = a * k * cy;
      graddiv[2] = a * k * cos(k * x[2]);
    } else { /* div u = a (sin ky - k y sin kx + sin kx - k x sin ky) */
      graddiv[0] = a * (-k * k * x[1] * cx + k * cx - k * sy);
      graddiv[1] = a * (k * cy - k * sx - k * k * x[0] * cy);
    }
  }
  for (int i = 0; i < d; i++) f[i] = -pp->mu * lap[i] - (pp->mu + pp->lambda) * graddiv[i];
}

void elasticity_traction(const problem_params *pp, const double *x, const double *n, double *g) {
  int d = pp->dim;
  double u[3], h[9], p;
  elasticity_exact(pp, x, u, h, &p);
  double tr = 0.0;
  for (int i = 0; i < d; i++) tr += h[i * d + i];
  for (int i = 0; i < d; i++) {
    g[i] = pp->lambda * tr * n[i];
    for (int j = 0; j < d; j++) g[i] += pp->mu * (h[i * d + j] + h[j * d + i]) * n[j];
  }
}
