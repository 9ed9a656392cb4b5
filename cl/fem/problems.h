/* Built-in problems: exact solution, its gradient, source term and
 * coefficients of -div(kappa grad u) + beta . grad u + c u = f
 * (docs/formulation.md (F1), (F21)), in 2D (z ignored) and 3D.
 *
 * This one file is compiled twice: by the host C compiler (the reference
 * path, boundary data checks) and by the OpenCL compiler (prepended to the
 * kernels), so both paths evaluate exactly the same functions.  It therefore
 * uses only the common subset of C17 and OpenCL C 1.2: no pointers to global
 * memory, no library calls beyond sin/cos/exp/sqrt.
 *
 * The table of names, boundary conditions and parameters is host/problem/problem.c. */
#ifndef HDGCL_CL_PROBLEMS_H
#define HDGCL_CL_PROBLEMS_H

#ifdef __OPENCL_C_VERSION__
#define HDGCL_FN
#else
#include <math.h>
#define HDGCL_FN static inline
#endif

#define HDGCL_PI 3.14159265358979323846

/* Problem identifiers (host/problem/problem.c maps names to these). */
/* In 3D the solutions gain the factor in z shown in brackets. */
#define PROBLEM_HELMHOLTZ_SIN 0 /* paper 000 section 5: lap u - u = f,
                                   u = sin(2 pi x) sin(2 pi y) [sin(2 pi z)] */
#define PROBLEM_POISSON_MIXED 1 /* -lap u = f, u = exp(x) sin(pi y) [sin(pi z)],
                                   Neumann on x=1, y=1 [, z=1] */
#define PROBLEM_KAPPA_JUMP 2    /* kappa = 1 | K2 across x = 1/2, u = sin(2 pi x) sin(pi y)/kappa + y */
#define PROBLEM_POLYNOMIAL 3    /* u a polynomial of total degree P, -lap u + u = f, mixed BCs */
#define PROBLEM_CONVECTION_DIFFUSION 4 /* -lap u + beta . grad u = f, beta = B (1, 1/2 [, 1/4]),
                                          u = sin(pi x) sin(pi y) [sin(pi z)], Dirichlet */
/* Vector problems (linear elasticity, docs/elasticity.md): their functions
 * are the problem_elasticity_* below (the scalar ones return 0 for them). */
#define PROBLEM_ELASTICITY 5              /* paper 004 section 4.1 manufactured solution */
#define PROBLEM_ELASTICITY_INCOMPRESSIBLE 6 /* paper 004 section 4.2 (div u = 0, Tables 2-3) */
#define PROBLEM_ELASTICITY_MIXED 7        /* the section 4.1 solution with traction on x=1, y=1 [, z=1] */
#define PROBLEM_CANTILEVER 8               /* beam clamped at x = 0 under its own weight (no exact u) */
#define PROBLEM_ELASTICITY_LINEAR 9        /* u = A x (uniform stress), traction on x=1, y=1 [, z=1] */
#define PROBLEM_ELASTICITY_BIMATERIAL 10   /* (mu, lambda) | R (mu, lambda) across x = 1/2 */
/* A user's own problem (docs/problems.md, host/problem/user_problem.c): its
 * functions are user_* of the OpenCL C that host/problem/user_problem_emit.c
 * writes from the user's expressions and prepends to this file (defining
 * HDGCL_USER_PROBLEM), and hdg_user_* on the host, which evaluate the same
 * expressions.  Boundary data take the face's condition index `cond` (the
 * user's list of boundary conditions; 0 for the built-in problems). */
#define PROBLEM_USER 11
/* Transient (docs/time.md): u_t - lap u = f with u at the time t = pp.param
 * (the time stepper sets it before each stage; 0 when a problem instance is
 * made), u = cos(t) sin(pi x) sin(pi y) [sin(pi z)] (u = 0 on the boundary),
 * and with Dirichlet data that change in time, the same plus
 * sin(t) (x + y [+ z]) / 2. */
#define PROBLEM_HEAT 12
#define PROBLEM_HEAT_BOUNDARY 13
#define PROBLEM_IS_HEAT(id) ((id) == PROBLEM_HEAT || (id) == PROBLEM_HEAT_BOUNDARY)
/* Nonlinear diffusion (docs/nonlinear.md): -div(kappa(u) grad u) = f with
 * kappa(u) = 1 + a u^2 (problem_kappa_u; a = pp.param, default 1), u = sin(pi x) sin(pi y) [sin(pi z)]
 * + (x + y [+ z]) / 2, Dirichlet; solved by Newton's method. */
#define PROBLEM_NONLINEAR_DIFFUSION 14
/* Transient nonlinear diffusion: u_t - div(kappa(u) grad u) = f, kappa(u) =
 * 1 + u^2, u = cos(t) sin(pi x) sin(pi y) [sin(pi z)] + (x + y [+ z]) / 2
 * (t = pp.param), Dirichlet; each time step's stage a Newton solve. */
#define PROBLEM_NONLINEAR_HEAT 15
/* Viscous Burgers (docs/nonlinear.md (N14)): u_t + div F(u) - nu lap u = f,
 * F(u) = u^2/2 (1, 1 [, 1]), nu = pp.nu (--nu, default 0.1); u = sin(pi x)
 * sin(pi y) [sin(pi z)] + (x + y [+ z]) / 2 (steady) or cos(t) sin(pi x) ...
 * + (x + y [+ z]) / 2 (transient, t = pp.param), Dirichlet; Newton's method. */
#define PROBLEM_BURGERS 16
#define PROBLEM_BURGERS_TRANSIENT 17
/* Compressible Neo-Hookean hyperelasticity, u = alpha u_E with the
 * `elasticity` problem's u_E (docs/nonlinear.md section 11; reference path
 * only: host/reference/reference_neo_hookean_solve.c). */
#define PROBLEM_NEO_HOOKEAN 18
/* Paper 001 (001_4519ef7210e3df62.txt section 5.1, eq. (27), after Moro
 * 2012): u_y + (u^2/2)_x - nu lap u = 0 on the unit square, nu = 1/200
 * (--nu), so F(u) = (u^2/2, u); u = 1 - 2x on x = 0, x = 1 and y = 0, an
 * outflow on y = 1 (zero viscous flux, docs/nonlinear.md (N25)).  No exact
 * solution: problem_u is the boundary data 1 - 2x, f = 0.  2D only. */
#define PROBLEM_BURGERS_PAPER001 19
/* Neo-Hookean hyperelasticity with traction data (docs/nonlinear.md section
 * 11, (N26); reference path only): the manufactured u = alpha u_E of
 * PROBLEM_NEO_HOOKEAN with the exact traction P n on x=1, y=1 [, z=1] (tags
 * 2, 4, 6), and paper 001's cube under load (section 5.4): clamped at x = 0
 * (tag 1), the traction -alpha e_y [-alpha e_z] on x = 1 (tag 2), traction-free
 * elsewhere, f = 0, no exact solution.  Their functions here are unused. */
#define PROBLEM_NEO_HOOKEAN_MIXED 20
#define PROBLEM_NEO_HOOKEAN_CUBE 21
#define PROBLEM_IS_NEO_HOOKEAN(id)                                     \
  ((id) == PROBLEM_NEO_HOOKEAN || (id) == PROBLEM_NEO_HOOKEAN_MIXED || \
   (id) == PROBLEM_NEO_HOOKEAN_CUBE)
#define PROBLEM_IS_BURGERS(id) \
  ((id) == PROBLEM_BURGERS || (id) == PROBLEM_BURGERS_TRANSIENT || (id) == PROBLEM_BURGERS_PAPER001)

/* A user's tensor kappa (docs/problems.md "Tensor kappa"): per element, d x d
 * row-major each, K, K^-1 and the lower triangular R with K = R R^T
 * (host/problem/user_kappa.c).  The kernels are compiled with -DKAPPA_TENSOR
 * and read these from their kappa buffer; without it kappa is one value per
 * element. */
#define KAPPA_TENSOR_VALUES(d) (3 * (d) * (d))
#define KAPPA_K(d) 0
#define KAPPA_KINV(d) ((d) * (d))
#define KAPPA_R(d) (2 * (d) * (d))
#if defined(__OPENCL_C_VERSION__) && defined(KAPPA_TENSOR)
/* Block `which` (KAPPA_K, KAPPA_KINV, KAPPA_R) of element e's tensor into t. */
void kappa_tensor(__global const double *kappa_e, const long e, const int which, double *t) {
  for (int i = 0; i < DIM * DIM; i++) t[i] = kappa_e[e * KAPPA_TENSOR_VALUES(DIM) + which + i];
}
/* jk = J^-1 K^-1 (jinv row-major): u*'s right-hand side takes K^-1 q (F12t). */
void kappa_jinv(const double *jinv, __global const double *kappa_e, const long e, double *jk) {
  double kinv[DIM * DIM];
  kappa_tensor(kappa_e, e, KAPPA_KINV(DIM), kinv);
  for (int l = 0; l < DIM; l++)
    for (int k = 0; k < DIM; k++) {
      double s = 0.0;
      for (int m = 0; m < DIM; m++) s += jinv[l * DIM + m] * kinv[m * DIM + k];
      jk[l * DIM + k] = s;
    }
}
#endif

/* Parameters of a problem instance (meaning per problem; see host/problem/problem.c). */
typedef struct problem_params {
  int id;
  int dim;       /* 2 or 3 */
  int degree;    /* PROBLEM_POLYNOMIAL: total degree P of u */
  double param;  /* PROBLEM_KAPPA_JUMP: kappa on x > 1/2 (K2);
                    PROBLEM_HEAT(_BOUNDARY): the time t;
                    PROBLEM_CONVECTION_DIFFUSION: the scale B of beta;
                    PROBLEM_CANTILEVER: the weight density rho g;
                    PROBLEM_ELASTICITY_BIMATERIAL: the contrast R of x > 1/2 */
  double mu, lambda; /* elasticity: Lame parameters (0 for the scalar problems) */
  double nu;         /* PROBLEM_BURGERS(_TRANSIENT): the viscosity nu > 0 (N14) */
#ifndef __OPENCL_C_VERSION__
  const struct hdg_user_problem *user; /* PROBLEM_USER: the parsed expressions (host only) */
#endif
} problem_params;

/* USER_ON(pp): pp is the user's problem; USER_FN(fn)(USER_ARG(pp) args): its
 * function fn (OpenCL C 1.2 has no variadic macros): user_fn(args) in the
 * kernels, hdg_user_fn(pp.user, args) on the host.  USER_ARGT(pp) adds the
 * time t = pp.param for the functions a transient problem's t reaches (u, f,
 * dirichlet, flux; docs/time.md).  Kernels built without a user's problem get
 * stubs, never called. */
#ifdef __OPENCL_C_VERSION__
#define USER_FN(fn) user_##fn
#define USER_ARG(pp)
#define USER_ARGT(pp) (pp).param,
#ifdef HDGCL_USER_PROBLEM
#define USER_ON(pp) ((pp).id == PROBLEM_USER)
#else
#define USER_ON(pp) 0
double user_u(double t, double x, double y, double z, double *g) { return 0.0; }
double user_f(double t, double x, double y, double z) { return 0.0; }
void user_beta(double *b) {}
void user_coefficients(int set, double x, double y, double z, double *kappa, double *c, double *b) {}
double user_kappa_u(double x, double y, double z, double u, double *dk) {
  *dk = 0.0;
  return 1.0;
}
double user_dirichlet(double t, int cond, double x, double y, double z) { return 0.0; }
double user_flux(double t, int cond, double x, double y, double z, double nx, double ny, double nz) {
  return 0.0;
}
void user_elasticity_u(double mu, double lambda, const double *x, double *u, double *grad,
                       double *p) {}
void user_elasticity_f(const double *x, double *f) {}
void user_displacement(int cond, const double *x, double *v) {}
void user_traction(int cond, const double *x, const double *n, double *g) {}
#endif
#else
struct hdg_user_problem;
double hdg_user_u(const struct hdg_user_problem *up, double t, double x, double y, double z,
                  double *g);
double hdg_user_f(const struct hdg_user_problem *up, double t, double x, double y, double z);
void hdg_user_beta(const struct hdg_user_problem *up, double *b);
void hdg_user_coefficients(const struct hdg_user_problem *up, int set, double x, double y, double z,
                           double *kappa, double *c, double *b);
double hdg_user_dirichlet(const struct hdg_user_problem *up, double t, int cond, double x,
                          double y, double z);
double hdg_user_flux(const struct hdg_user_problem *up, double t, int cond, double x, double y,
                     double z, double nx, double ny, double nz);
void hdg_user_elasticity_u(const struct hdg_user_problem *up, double mu, double lambda,
                           const double *x, double *u, double *grad, double *p);
void hdg_user_elasticity_f(const struct hdg_user_problem *up, const double *x, double *f);
void hdg_user_displacement(const struct hdg_user_problem *up, int cond, const double *x, double *v);
void hdg_user_traction(const struct hdg_user_problem *up, int cond, const double *x,
                       const double *n, double *g);
#define USER_ON(pp) ((pp).id == PROBLEM_USER)
#define USER_FN(fn) hdg_user_##fn
#define USER_ARG(pp) (pp).user,
#define USER_ARGT(pp) (pp).user, (pp).param,
#endif

/* Coefficient of x^i y^j z^k in the polynomial solution (all non-zero). */
HDGCL_FN double polynomial_coefficient(int i, int j, int k) {
  return 1.0 / (1.0 + i + 2.0 * j + 3.0 * k);
}

/* x^n for n >= 0 (exact for small n; pow(0, 0) = 1). */
HDGCL_FN double power(double x, int n) {
  double r = 1.0;
  for (int i = 0; i < n; i++) r *= x;
  return r;
}

HDGCL_FN double problem_kappa(problem_params pp, double x, double y, double z) {
  if (pp.id == PROBLEM_KAPPA_JUMP) return x < 0.5 ? 1.0 : pp.param;
  if (PROBLEM_IS_BURGERS(pp.id)) return pp.nu; /* q = -nu grad u (N14) */
  return 1.0;
}

/* kappa(u) of a nonlinear problem and its derivative *dkappa = kappa'(u)
 * (docs/nonlinear.md (N1)); 1 and 0 for the linear ones. */
HDGCL_FN double problem_kappa_u(problem_params pp, double u, double *dkappa) {
  if (pp.id == PROBLEM_NONLINEAR_DIFFUSION) {
    *dkappa = 2.0 * pp.param * u; /* pp.param = a of kappa = 1 + a u^2 (--kappa-u2) */
    return 1.0 + pp.param * u * u;
  }
  if (pp.id == PROBLEM_NONLINEAR_HEAT) {
    *dkappa = 2.0 * u;
    return 1.0 + u * u;
  }
  *dkappa = 0.0;
  if (PROBLEM_IS_BURGERS(pp.id)) return pp.nu; /* the viscosity; the nonlinearity is F(u) (N15) */
  return 1.0;
}

/* Burgers' flux F(u) = u^2/2 a + u b (docs/nonlinear.md (N15)): a = (1, 1
 * [, 1]), b = 0 for burgers(-transient); a = (1, 0), b = (0, 1) for paper
 * 001's (27). */
HDGCL_FN void burgers_flux_vectors(problem_params pp, double *a, double *b) {
  const int paper = pp.id == PROBLEM_BURGERS_PAPER001;
  a[0] = 1.0;
  a[1] = paper ? 0.0 : 1.0;
  a[2] = pp.dim == 3 ? 1.0 : 0.0;
  b[0] = 0.0;
  b[1] = paper ? 1.0 : 0.0;
  b[2] = 0.0;
}

HDGCL_FN double problem_c(problem_params pp, double x, double y, double z) {
  if (pp.id == PROBLEM_HELMHOLTZ_SIN || pp.id == PROBLEM_POLYNOMIAL) return 1.0;
  return 0.0;
}

/* Convection field beta (b[0..2]); zero but for convection-diffusion, where
 * it is constant, so divergence-free (F21). */
HDGCL_FN void problem_beta(problem_params pp, double *b) {
  if (USER_ON(pp)) {
    USER_FN(beta)(USER_ARG(pp) b);
    return;
  }
  const double s = pp.id == PROBLEM_CONVECTION_DIFFUSION ? pp.param : 0.0;
  b[0] = s;
  b[1] = 0.5 * s;
  b[2] = pp.dim == 3 ? 0.25 * s : 0.0;
}

/* kappa, c and beta (b[0..2]) at the point (x, y, z) of an element of region
 * `set` (-1: none): a user's problem with coefficients = points, whose
 * prelude defines POINT_COEFFICIENTS (the kernels call this only then). */
HDGCL_FN void problem_coefficients_at(problem_params pp, int set, double x, double y, double z,
                                      double *kappa, double *c, double *b) {
  USER_FN(coefficients)(USER_ARG(pp) set, x, y, z, kappa, c, b);
}

/* Exact solution u and its gradient g[0..2]. */
HDGCL_FN double problem_u(problem_params pp, double x, double y, double z, double *g) {
  const double pi = HDGCL_PI;
  double u = 0.0;
  g[0] = g[1] = g[2] = 0.0;
  if (USER_ON(pp)) return USER_FN(u)(USER_ARGT(pp) x, y, z, g);
  if (pp.id == PROBLEM_HELMHOLTZ_SIN) {
    double sx = sin(2 * pi * x), cx = cos(2 * pi * x), sy = sin(2 * pi * y), cy = cos(2 * pi * y);
    double sz = pp.dim == 3 ? sin(2 * pi * z) : 1.0, cz = pp.dim == 3 ? cos(2 * pi * z) : 0.0;
    u = sx * sy * sz;
    g[0] = 2 * pi * cx * sy * sz;
    g[1] = 2 * pi * sx * cy * sz;
    g[2] = 2 * pi * sx * sy * cz;
  } else if (pp.id == PROBLEM_POISSON_MIXED) {
    double ex = exp(x), sy = sin(pi * y), cy = cos(pi * y);
    double sz = pp.dim == 3 ? sin(pi * z) : 1.0, cz = pp.dim == 3 ? cos(pi * z) : 0.0;
    u = ex * sy * sz;
    g[0] = ex * sy * sz;
    g[1] = pi * ex * cy * sz;
    g[2] = pi * ex * sy * cz;
  } else if (pp.id == PROBLEM_KAPPA_JUMP) {
    double k = problem_kappa(pp, x, y, z);
    double sx = sin(2 * pi * x), cx = cos(2 * pi * x), sy = sin(pi * y), cy = cos(pi * y);
    u = sx * sy / k + y;
    g[0] = 2 * pi * cx * sy / k;
    g[1] = pi * sx * cy / k + 1.0;
  } else if (pp.id == PROBLEM_CONVECTION_DIFFUSION) {
    double sx = sin(pi * x), cx = cos(pi * x), sy = sin(pi * y), cy = cos(pi * y);
    double sz = pp.dim == 3 ? sin(pi * z) : 1.0, cz = pp.dim == 3 ? cos(pi * z) : 0.0;
    u = sx * sy * sz;
    g[0] = pi * cx * sy * sz;
    g[1] = pi * sx * cy * sz;
    g[2] = pi * sx * sy * cz;
  } else if (pp.id == PROBLEM_BURGERS_PAPER001) { /* no exact solution: the boundary data */
    u = 1.0 - 2.0 * x;
    g[0] = -2.0;
  } else if (pp.id == PROBLEM_NONLINEAR_DIFFUSION || pp.id == PROBLEM_NONLINEAR_HEAT ||
             PROBLEM_IS_BURGERS(pp.id)) {
    const double ct =
        pp.id == PROBLEM_NONLINEAR_HEAT || pp.id == PROBLEM_BURGERS_TRANSIENT ? cos(pp.param) : 1.0;
    double sx = sin(pi * x), cx = cos(pi * x), sy = sin(pi * y), cy = cos(pi * y);
    double sz = pp.dim == 3 ? sin(pi * z) : 1.0, cz = pp.dim == 3 ? cos(pi * z) : 0.0;
    u = ct * sx * sy * sz + 0.5 * (x + y + (pp.dim == 3 ? z : 0.0));
    g[0] = ct * pi * cx * sy * sz + 0.5;
    g[1] = ct * pi * sx * cy * sz + 0.5;
    g[2] = pp.dim == 3 ? ct * pi * sx * sy * cz + 0.5 : 0.0;
  } else if (PROBLEM_IS_HEAT(pp.id)) {
    const double ct = cos(pp.param), st = pp.id == PROBLEM_HEAT_BOUNDARY ? sin(pp.param) : 0.0;
    double sx = sin(pi * x), cx = cos(pi * x), sy = sin(pi * y), cy = cos(pi * y);
    double sz = pp.dim == 3 ? sin(pi * z) : 1.0, cz = pp.dim == 3 ? cos(pi * z) : 0.0;
    u = ct * sx * sy * sz + 0.5 * st * (x + y + (pp.dim == 3 ? z : 0.0));
    g[0] = ct * pi * cx * sy * sz + 0.5 * st;
    g[1] = ct * pi * sx * cy * sz + 0.5 * st;
    g[2] = pp.dim == 3 ? ct * pi * sx * sy * cz + 0.5 * st : 0.0;
  } else if (pp.id == PROBLEM_POLYNOMIAL) {
    /* u = sum_{i+j+k<=P} a_ijk x^i y^j z^k (k = 0 only in 2D), term by term. */
    const int kmax = pp.dim == 3 ? pp.degree : 0;
    for (int k = 0; k <= kmax; k++)
      for (int j = 0; j + k <= pp.degree; j++)
        for (int i = 0; i + j + k <= pp.degree; i++) {
          double a = polynomial_coefficient(i, j, k);
          double px = power(x, i), py = power(y, j), pz = power(z, k);
          u += a * px * py * pz;
          if (i > 0) g[0] += a * i * power(x, i - 1) * py * pz;
          if (j > 0) g[1] += a * j * px * power(y, j - 1) * pz;
          if (k > 0) g[2] += a * k * px * py * power(z, k - 1);
        }
  }
  return u;
}

/* Source term f of (F1) for the exact solution above. */
HDGCL_FN double problem_f(problem_params pp, double x, double y, double z) {
  const double pi = HDGCL_PI;
  double g[3];
  if (USER_ON(pp)) return USER_FN(f)(USER_ARGT(pp) x, y, z);
  /* The sine problems without problem_u's cosines (f needs no gradient):
   * the same products, so the same values, at half the transcendentals. */
  if (pp.id == PROBLEM_HELMHOLTZ_SIN) {
    double u = sin(2 * pi * x) * sin(2 * pi * y);
    if (pp.dim == 3) u *= sin(2 * pi * z);
    return (4 * pp.dim * pi * pi + 1) * u;
  }
  if (pp.id == PROBLEM_POISSON_MIXED) {
    double u = exp(x) * sin(pi * y);
    if (pp.dim == 3) u *= sin(pi * z);
    return ((pp.dim - 1) * pi * pi - 1) * u;
  }
  if (pp.id == PROBLEM_KAPPA_JUMP) return 5 * pi * pi * sin(2 * pi * x) * sin(pi * y);
  if (PROBLEM_IS_HEAT(pp.id)) { /* f = u_t - lap u */
    double s = sin(pi * x) * sin(pi * y);
    if (pp.dim == 3) s *= sin(pi * z);
    const double ct = cos(pp.param), st = sin(pp.param);
    const double b = pp.id == PROBLEM_HEAT_BOUNDARY ? 0.5 * ct * (x + y + (pp.dim == 3 ? z : 0.0)) : 0.0;
    return (pp.dim * pi * pi * ct - st) * s + b;
  }
  if (pp.id == PROBLEM_NONLINEAR_DIFFUSION || pp.id == PROBLEM_NONLINEAR_HEAT) {
    /* f = u_t - kappa(u) lap u - kappa'(u) |grad u|^2 (u_t = 0 when steady) */
    double s = sin(pi * x) * sin(pi * y);
    if (pp.dim == 3) s *= sin(pi * z);
    const int heat = pp.id == PROBLEM_NONLINEAR_HEAT;
    const double ct = heat ? cos(pp.param) : 1.0, ut = heat ? -sin(pp.param) * s : 0.0;
    double dk, u = problem_u(pp, x, y, z, g);
    double k = problem_kappa_u(pp, u, &dk);
    return ut + k * pp.dim * pi * pi * ct * s - dk * (g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
  }
  if (pp.id == PROBLEM_BURGERS_PAPER001) return 0.0; /* paper 001 (27) */
  if (PROBLEM_IS_BURGERS(pp.id)) {
    /* f = u_t + u (1, 1 [, 1]) . grad u - nu lap u (N14), u_t = 0 when steady */
    double s = sin(pi * x) * sin(pi * y);
    if (pp.dim == 3) s *= sin(pi * z);
    const int tr = pp.id == PROBLEM_BURGERS_TRANSIENT;
    const double ct = tr ? cos(pp.param) : 1.0, ut = tr ? -sin(pp.param) * s : 0.0;
    double u = problem_u(pp, x, y, z, g);
    return ut + u * (g[0] + g[1] + g[2]) + pp.nu * pp.dim * pi * pi * ct * s;
  }
  if (pp.id == PROBLEM_CONVECTION_DIFFUSION) { /* f = -lap u + beta . grad u */
    double b[3];
    problem_beta(pp, b);
    double u = problem_u(pp, x, y, z, g);
    return pp.dim * pi * pi * u + b[0] * g[0] + b[1] * g[1] + b[2] * g[2];
  }
  if (pp.id == PROBLEM_POLYNOMIAL) {
    /* f = -lap u + u */
    const int kmax = pp.dim == 3 ? pp.degree : 0;
    double lap = 0.0;
    for (int k = 0; k <= kmax; k++)
      for (int j = 0; j + k <= pp.degree; j++)
        for (int i = 0; i + j + k <= pp.degree; i++) {
          double a = polynomial_coefficient(i, j, k);
          double px = power(x, i), py = power(y, j), pz = power(z, k);
          if (i > 1) lap += a * i * (i - 1) * power(x, i - 2) * py * pz;
          if (j > 1) lap += a * j * (j - 1) * px * power(y, j - 2) * pz;
          if (k > 1) lap += a * k * (k - 1) * px * py * power(z, k - 2);
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

/* Dirichlet datum g_D of (F1) on a face of boundary condition `cond`. */
HDGCL_FN double problem_dirichlet(problem_params pp, int cond, double x, double y, double z) {
  double g[3];
  if (USER_ON(pp)) return USER_FN(dirichlet)(USER_ARGT(pp) cond, x, y, z);
  return problem_u(pp, x, y, z, g);
}

/* Flux datum g of a Neumann face (kappa grad u . n = g, (F1)) or of a Robin
 * face (alpha u + kappa grad u . n = g, docs/problems.md (P2)). */
HDGCL_FN double problem_flux(problem_params pp, int cond, double x, double y, double z, double nx,
                             double ny, double nz) {
  if (USER_ON(pp)) return USER_FN(flux)(USER_ARGT(pp) cond, x, y, z, nx, ny, nz);
  return problem_neumann(pp, x, y, z, nx, ny, nz);
}

#if defined(__OPENCL_C_VERSION__) && defined(ELEMENT_LOAD)
/* The element load s of a time step's stage (docs/time.md (T3)), given in the
 * basis of each element ([num_elements][NP]): its value at load point q,
 * sum_j phi_j(xi_q) s_j.  The local kernels add it to f there, so F_i gains
 * (s, phi_i)_K by the same quadrature as (f, phi_i)_K. */
double element_load_at(__global const double *element_load, const long e,
                       __global const double *phi_load, const int q) {
  double s = 0.0;
  for (int j = 0; j < NP; j++) s += phi_load[q * NP + j] * element_load[e * ROW_NP + j];
  return s;
}
#endif

/* The vector problems (docs/elasticity.md section 6), x[0..dim-1]:
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
 * (every p >= 1 reproduces it);
 * cantilever: no exact solution (u = 0 here), body force f = -rho g e_y (2D)
 * or -rho g e_z (3D), traction-free (g = 0) on the Neumann sides;
 * elasticity-bimaterial (docs/elasticity.md section 13): (mu, lambda) on
 * x < 1/2 and R (mu, lambda) on x > 1/2, u continuous with continuous
 * traction sigma n across x = 1/2 and nonzero tangential derivatives there. */

/* The Lame parameters at x: the problem's own (mu, lambda), or for
 * elasticity-bimaterial R times them on x > 1/2 (R = pp.param). */
HDGCL_FN void problem_elasticity_material(problem_params pp, const double *x, double *mu,
                                          double *lambda) {
  double r = pp.id == PROBLEM_ELASTICITY_BIMATERIAL && x[0] > 0.5 ? pp.param : 1.0;
  *mu = r * pp.mu;
  *lambda = r * pp.lambda;
}

/* elasticity-bimaterial, xi = x - 1/2, w = prod_{t > 0} sin(pi x_t) (t over
 * y [, z]), on each side (docs/elasticity.md (E18)):
 *   u_x = phi(xi) w,   u_t = psi(xi) (d_t w) / pi,
 *   phi = 1 + a xi + xi^2,  psi = 1 + b xi - xi^2,
 * with (a, b) = (1, 1) on x > 1/2 and on x < 1/2 the values that make
 * sigma n continuous at xi = 0 (sigma_xx = ((2 mu + lambda) a - (d-1) pi lambda) w,
 * sigma_tx = mu (1 + b / pi) d_t w there).  Then div u = D w, D = phi' - (d-1) pi psi,
 * and f = -mu lap u - (mu + lambda) grad div u:
 *   f_x = -(mu (phi'' - (d-1) pi^2 phi) + (mu + lambda) D') w,
 *   f_t = -(mu (psi'' - (d-1) pi^2 psi) / pi + (mu + lambda) D) d_t w.
 * Fills u[d], grad[d*d], f[d] and p = -(mu + lambda) div u at x. */
HDGCL_FN void elasticity_bimaterial(problem_params pp, const double *x, double *u, double *grad,
                                    double *f, double *p) {
  const double pi = HDGCL_PI;
  int d = pp.dim;
  double mu, lambda, mu2, lambda2;
  double right[3] = {1.0, 0.5, 0.5};
  problem_elasticity_material(pp, x, &mu, &lambda);
  problem_elasticity_material(pp, right, &mu2, &lambda2);
  double a = 1.0, b = 1.0;
  if (x[0] <= 0.5) { /* the interface conditions with the right side's a = b = 1 */
    b = pi * (mu2 / mu * (1.0 + 1.0 / pi) - 1.0);
    a = ((2 * mu2 + lambda2) - (d - 1) * pi * (lambda2 - lambda)) / (2 * mu + lambda);
  }
  double xi = x[0] - 0.5;
  double phi = 1 + a * xi + xi * xi, dphi = a + 2 * xi, d2phi = 2.0;
  double psi = 1 + b * xi - xi * xi, dpsi = b - 2 * xi, d2psi = -2.0;
  /* w, its first derivatives wt[t] and second derivatives wtt[s][t] (t, s over y [, z]) */
  double sn[3], cs[3];
  for (int t = 1; t < d; t++) {
    sn[t] = sin(pi * x[t]);
    cs[t] = cos(pi * x[t]);
  }
  double w = 1.0, wt[3] = {0, 0, 0}, wtt[3][3] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
  for (int t = 1; t < d; t++) w *= sn[t];
  for (int t = 1; t < d; t++) {
    wt[t] = pi * cs[t];
    for (int s = 1; s < d; s++)
      if (s != t) wt[t] *= sn[s];
    for (int s = 1; s < d; s++) {
      double v = s == t ? -pi * pi * sn[t] : pi * pi * cs[t] * cs[s];
      for (int r = 1; r < d; r++)
        if (r != s && r != t) v *= sn[r];
      wtt[t][s] = v;
    }
  }
  u[0] = phi * w;
  grad[0] = dphi * w;
  for (int t = 1; t < d; t++) {
    grad[t] = phi * wt[t];
    u[t] = psi * wt[t] / pi;
    grad[t * d] = dpsi * wt[t] / pi;
    for (int s = 1; s < d; s++) grad[t * d + s] = psi * wtt[t][s] / pi;
  }
  double dd = dphi - (d - 1) * pi * psi, ddd = d2phi - (d - 1) * pi * dpsi;
  *p = -(mu + lambda) * dd * w;
  f[0] = -(mu * (d2phi - (d - 1) * pi * pi * phi) + (mu + lambda) * ddd) * w;
  for (int t = 1; t < d; t++)
    f[t] = -(mu * (d2psi - (d - 1) * pi * pi * psi) / pi + (mu + lambda) * dd) * wt[t];
}

/* A, B and their first two derivatives at t: v[0..2] = A, A', A''; w[0..2] = B, B', B''. */
HDGCL_FN void elasticity_ab(double t, double *v, double *w) {
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
HDGCL_FN void elasticity_incompressible(problem_params pp, const double *x, double *u,
                                        double *grad, double *lap) {
  int d = pp.dim;
  double fa[3][3], fb[3][3];
  for (int j = 0; j < d; j++) elasticity_ab(x[j], fa[j], fb[j]);
  const double c3[3] = {200, -100, -100}, c2[2] = {200, -200};
  for (int i = 0; i < d; i++) {
    double c = pp.mu * (d == 3 ? c3[i] : c2[i]);
    double val = c;
    for (int j = 0; j < d; j++) val *= j == i ? fa[j][0] : fb[j][0];
    u[i] = val;
    lap[i] = 0.0;
    for (int j = 0; j < d; j++) {
      double g = c, l = c;
      for (int k = 0; k < d; k++) {
        g *= k == i ? fa[k][k == j ? 1 : 0] : fb[k][k == j ? 1 : 0];
        l *= k == i ? fa[k][k == j ? 2 : 0] : fb[k][k == j ? 2 : 0];
      }
      grad[i * d + j] = g;
      lap[i] += l;
    }
  }
}

/* Exact displacement u[d], its gradient grad[d*d] (grad[i*d+j] = d_j u_i)
 * and pressure p = -(mu + lambda) div u at x (d = pp.dim). */
HDGCL_FN void problem_elasticity_u(problem_params pp, const double *x, double *u, double *grad,
                                   double *p) {
  const double a = 0.01, k = 2 * HDGCL_PI;
  int d = pp.dim;
  if (USER_ON(pp)) {
    USER_FN(elasticity_u)(USER_ARG(pp) pp.mu, pp.lambda, x, u, grad, p);
    return;
  }
  if (pp.id == PROBLEM_ELASTICITY_BIMATERIAL) {
    double f[3];
    elasticity_bimaterial(pp, x, u, grad, f, p);
    return;
  }
  if (pp.id == PROBLEM_CANTILEVER) { /* no exact solution */
    for (int i = 0; i < d; i++) u[i] = 0.0;
    for (int i = 0; i < d * d; i++) grad[i] = 0.0;
  } else if (pp.id == PROBLEM_ELASTICITY_LINEAR) {
    const double A[9] = {0.01, 0.02, 0.005, 0.015, -0.006, 0.003, 0.004, 0.006, 0.002};
    for (int i = 0; i < d; i++) {
      u[i] = 0.0;
      for (int j = 0; j < d; j++) {
        u[i] += A[i * 3 + j] * x[j];
        grad[i * d + j] = A[i * 3 + j];
      }
    }
  } else if (pp.id == PROBLEM_ELASTICITY_INCOMPRESSIBLE) {
    double lap[3];
    elasticity_incompressible(pp, x, u, grad, lap);
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
  *p = -(pp.mu + pp.lambda) * div;
}

/* Body force f[d] = -div(mu grad u + (mu + lambda) div u I) = -mu lap u - (mu + lambda) grad div u. */
HDGCL_FN void problem_elasticity_f(problem_params pp, const double *x, double *f) {
  const double a = 0.01, k = 2 * HDGCL_PI;
  int d = pp.dim;
  double u[3], grad[9], lap[3], graddiv[3] = {0, 0, 0};
  if (USER_ON(pp)) {
    USER_FN(elasticity_f)(USER_ARG(pp) x, f);
    return;
  }
  if (pp.id == PROBLEM_CANTILEVER) { /* own weight: rho g (--weight) downwards */
    for (int i = 0; i < d; i++) f[i] = 0.0;
    f[d - 1] = -pp.param;
    return;
  }
  if (pp.id == PROBLEM_ELASTICITY_LINEAR) {
    for (int i = 0; i < d; i++) f[i] = 0.0;
    return;
  }
  if (pp.id == PROBLEM_ELASTICITY_BIMATERIAL) {
    double p;
    elasticity_bimaterial(pp, x, u, grad, f, &p);
    return;
  }
  if (pp.id == PROBLEM_ELASTICITY_INCOMPRESSIBLE) {
    elasticity_incompressible(pp, x, u, grad, lap); /* div u = 0: grad div u = 0 */
  } else {
    double p;
    problem_elasticity_u(pp, x, u, grad, &p);
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
  for (int i = 0; i < d; i++) f[i] = -pp.mu * lap[i] - (pp.mu + pp.lambda) * graddiv[i];
}

/* Traction g[d] = sigma n of the exact solution on a face with unit outer
 * normal n, sigma = mu (H + H^T) + lambda tr(H) I the physical (Cauchy)
 * stress (docs/elasticity.md (E12)); zero for the cantilever (traction-free). */
HDGCL_FN void problem_elasticity_traction(problem_params pp, int cond, const double *x,
                                          const double *n, double *g) {
  int d = pp.dim;
  double u[3], h[9], p;
  if (USER_ON(pp)) {
    USER_FN(traction)(USER_ARG(pp) cond, x, n, g);
    return;
  }
  problem_elasticity_u(pp, x, u, h, &p);
  double tr = 0.0;
  for (int i = 0; i < d; i++) tr += h[i * d + i];
  for (int i = 0; i < d; i++) {
    g[i] = pp.lambda * tr * n[i];
    for (int j = 0; j < d; j++) g[i] += pp.mu * (h[i * d + j] + h[j * d + i]) * n[j];
  }
}

/* Displacement datum of a Dirichlet face of boundary condition `cond`. */
HDGCL_FN void problem_elasticity_displacement(problem_params pp, int cond, const double *x,
                                              double *v) {
  double grad[9], p;
  if (USER_ON(pp)) {
    USER_FN(displacement)(USER_ARG(pp) cond, x, v);
    return;
  }
  problem_elasticity_u(pp, x, v, grad, &p);
}

#endif
