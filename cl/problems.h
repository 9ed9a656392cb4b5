/* Built-in problems: exact solution, its gradient, source term and
 * coefficients of -div(kappa grad u) + c u = f (docs/formulation.md (F1)).
 *
 * This one file is compiled twice: by the host C compiler (the reference
 * path, boundary data checks) and by the OpenCL compiler (prepended to the
 * kernels), so both paths evaluate exactly the same functions.  It therefore
 * uses only the common subset of C17 and OpenCL C 1.2: no pointers to global
 * memory, no library calls beyond sin/cos/exp/sqrt/pow.
 *
 * The table of names, boundary conditions and parameters is host/problem.c. */
#ifndef HDGCL_CL_PROBLEMS_H
#define HDGCL_CL_PROBLEMS_H

#ifdef __OPENCL_C_VERSION__
#define HDGCL_FN
#else
#include <math.h>
#define HDGCL_FN static inline
#endif

#define HDGCL_PI 3.14159265358979323846

/* Problem identifiers (host/problem.c maps names to these). */
#define PROBLEM_HELMHOLTZ_SIN 0 /* paper 000 section 5: lap u - u = f, u = sin(2 pi x) sin(2 pi y) */
#define PROBLEM_POISSON_MIXED 1 /* -lap u = f, u = exp(x) sin(pi y), Neumann on x=1 and y=1 */
#define PROBLEM_KAPPA_JUMP 2    /* kappa = 1 | K2 across x = 1/2, u = sin(2 pi x) sin(pi y)/kappa + y */
#define PROBLEM_POLYNOMIAL 3    /* u a polynomial of total degree P, -lap u + u = f, mixed BCs */

/* Parameters of a problem instance (meaning per problem; see host/problem.c). */
typedef struct problem_params {
  int id;
  int degree;    /* PROBLEM_POLYNOMIAL: total degree P of u */
  double kappa2; /* PROBLEM_KAPPA_JUMP: kappa on x > 1/2 */
} problem_params;

/* Coefficient of x^i y^j in the polynomial solution (all non-zero). */
HDGCL_FN double polynomial_coefficient(int i, int j) { return 1.0 / (1.0 + i + 2.0 * j); }

HDGCL_FN double problem_kappa(problem_params pp, double x, double y, double z) {
  if (pp.id == PROBLEM_KAPPA_JUMP) return x < 0.5 ? 1.0 : pp.kappa2;
  return 1.0;
}

HDGCL_FN double problem_c(problem_params pp, double x, double y, double z) {
  if (pp.id == PROBLEM_HELMHOLTZ_SIN || pp.id == PROBLEM_POLYNOMIAL) return 1.0;
  return 0.0;
}

/* Exact solution u and its gradient g[0..2]. */
HDGCL_FN double problem_u(problem_params pp, double x, double y, double z, double *g) {
  const double pi = HDGCL_PI;
  double u = 0.0;
  g[0] = g[1] = g[2] = 0.0;
  if (pp.id == PROBLEM_HELMHOLTZ_SIN) {
    double sx = sin(2 * pi * x), cx = cos(2 * pi * x), sy = sin(2 * pi * y), cy = cos(2 * pi * y);
    u = sx * sy;
    g[0] = 2 * pi * cx * sy;
    g[1] = 2 * pi * sx * cy;
  } else if (pp.id == PROBLEM_POISSON_MIXED) {
    double ex = exp(x), sy = sin(pi * y), cy = cos(pi * y);
    u = ex * sy;
    g[0] = ex * sy;
    g[1] = pi * ex * cy;
  } else if (pp.id == PROBLEM_KAPPA_JUMP) {
    double k = problem_kappa(pp, x, y, z);
    double sx = sin(2 * pi * x), cx = cos(2 * pi * x), sy = sin(pi * y), cy = cos(pi * y);
    u = sx * sy / k + y;
    g[0] = 2 * pi * cx * sy / k;
    g[1] = pi * sx * cy / k + 1.0;
  } else if (pp.id == PROBLEM_POLYNOMIAL) {
    /* u = sum_{i+j<=P} a_ij x^i y^j, evaluated term by term. */
    double xi = 1.0;
    for (int i = 0; i <= pp.degree; i++) {
      double yj = 1.0;
      for (int j = 0; i + j <= pp.degree; j++) {
        double a = polynomial_coefficient(i, j);
        u += a * xi * yj;
        if (i > 0) g[0] += a * i * pow(x, i - 1) * yj;
        if (j > 0) g[1] += a * j * xi * pow(y, j - 1);
        yj *= y;
      }
      xi *= x;
    }
  }
  return u;
}

/* Source term f of (F1) for the exact solution above. */
HDGCL_FN double problem_f(problem_params pp, double x, double y, double z) {
  const double pi = HDGCL_PI;
  double g[3];
  if (pp.id == PROBLEM_HELMHOLTZ_SIN) return (8 * pi * pi + 1) * problem_u(pp, x, y, z, g);
  if (pp.id == PROBLEM_POISSON_MIXED) return (pi * pi - 1) * exp(x) * sin(pi * y);
  if (pp.id == PROBLEM_KAPPA_JUMP) return 5 * pi * pi * sin(2 * pi * x) * sin(pi * y);
  if (pp.id == PROBLEM_POLYNOMIAL) {
    /* f = -lap u + u */
    double lap = 0.0;
    for (int i = 0; i <= pp.degree; i++)
      for (int j = 0; i + j <= pp.degree; j++) {
        double a = polynomial_coefficient(i, j);
        if (i > 1) lap += a * i * (i - 1) * pow(x, i - 2) * pow(y, j);
        if (j > 1) lap += a * j * (j - 1) * pow(x, i) * pow(y, j - 2);
      }
    return -lap + problem_u(pp, x, y, z, g);
  }
  return 0.0;
}

/* Neumann datum kappa grad u . n on a boundary point with outward normal n. */
HDGCL_FN double problem_neumann(problem_params pp, double x, double y, double z, double nx,
                                double ny, double nz) {
  double g[3];
  problem_u(pp, x, y, z, g);
  return problem_kappa(pp, x, y, z) * (g[0] * nx + g[1] * ny + g[2] * nz);
}

#endif
