/* Chebyshev polynomial preconditioner on top of point or face block-Jacobi
 * (kernels: cl/solvers/precond_chebyshev.cl; paper 001 sections 3.4 and 4.7, where the
 * polynomial is built from harmonic Ritz values of a short GMRES cycle; for
 * the SPD trace system a Chebyshev polynomial on an eigenvalue interval
 * estimated by Lanczos is the symmetric counterpart).
 *
 * With M the inner preconditioner, z = p(M^-1 A) M^-1 r is the result of
 * `cheb-degree` steps of the Chebyshev iteration for A z = r from z = 0
 * (Saad, Iterative Methods, 2nd ed., Algorithm 12.1): degree-1 inner
 * applications, cheb-degree - 1 products with A.
 *
 * Eigenvalue interval of M^-1 A, estimated once per solve in setup:
 * CHEB_LANCZOS_STEPS steps of M-preconditioned CG (fewer if it converges to
 * 1e-10 first) on a fixed pseudo-random right-hand side give the Lanczos
 * tridiagonal matrix T (Saad eq. 6.103) whose extreme eigenvalues (Sturm
 * bisection) approach those of M^-1 A from inside.
 *  - lambda_max = 1.1 * the largest Ritz value: the Ritz value is below the
 *    true maximum, and above the interval the residual polynomial grows like
 *    T_k, so p(lambda) could turn negative (M^-1 indefinite: CG breaks down);
 *    a 10 % margin costs little damping.
 *  - lambda_min = max(smallest Ritz value, lambda_max / CHEB_RATIO): after
 *    ten steps the smallest Ritz value is a poor (too large) estimate, and the
 *    polynomial is only meant to compress the upper part of the spectrum, the
 *    outer Krylov method handles the few small eigenvalues; below lambda_min
 *    the polynomial stays positive (0 < 1 - lambda p(lambda) < 1), so M stays
 *    SPD.  (Chebyshev smoothers commonly use such a fixed fraction of the
 *    estimated lambda_max as the lower end, e.g. PETSc's KSPChebyshev
 *    eigenvalue-estimate transform (0, 0.1; 0, 1.1); paper 001 section 4.7
 *    likewise takes its polynomial from a short Krylov cycle on the fly.)
 * The bounds are fixed after setup, so the preconditioner is a fixed linear
 * operator (symmetric, as p(M^-1 A) M^-1 = M^-1 p(A M^-1)): CG and the plain
 * right-preconditioned GMRES apply; FGMRES is not needed.
 *
 * Nonsymmetric problems (the p-multigrid smoother of convection-diffusion;
 * docs/solvers.md "p-multigrid", "nonsymmetric problems"): CG's coefficients
 * mean nothing there, so the interval comes from CHEB_ARNOLDI_STEPS steps of
 * Arnoldi on M^-1 A (CGS2, the GMRES kernels) from the same start vector:
 * H_k = V^T M^-1 A V, and the real parts of its field of values are the
 * eigenvalues of its symmetric part (H_k + H_k^T) / 2 (cyclic Jacobi on the
 * host).  They contain the real parts of the Ritz values (paper 001 section
 * 4.7 uses the harmonic Ritz values themselves) and bound Re W(M^-1 A) from
 * inside, so lambda_max = 1.1 x the largest as in the symmetric case, and
 * lambda_min = lambda_max / CHEB_ARNOLDI_RATIO: a smoother's interval, the
 * upper part of the spectrum only, which the coarse levels leave to it
 * (measured on convection-diffusion: ratio 5 gave 10 GMRES iterations at
 * p = 1 and 9 at p = 3 on square:32 and 64, ratio 30 17 and 14-15, damped
 * block-Jacobi (omega 0.7-0.9) 12-13 and 11).  The polynomial is the same
 * real Chebyshev one: for eigenvalues near the real axis (small cell
 * Peclet numbers, upwinded) it damps the upper part of the spectrum as for
 * SPD matrices.  Still a fixed linear operator (plain GMRES applies), not
 * symmetric; solver mode (degree 0) is not offered for nonsymmetric
 * problems (precond_pmg.c solves their coarsest level with GMRES). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "solvers/precond.h"
#include "solvers/spmv.h"

#define CHEB_LANCZOS_STEPS 10
#define CHEB_RATIO 30.0
/* Solver mode (degree 0; the device coarse solver of p-multigrid): the
 * whole interval [smallest, 1.1 x largest Ritz value] from CG_COEFFS Lanczos
 * steps, and the degree k that reduces the error on it by CHEB_SOLVE_EPS,
 * 1 / T_k((lmax + lmin) / (lmax - lmin)) <= eps, at most CHEB_MAX_DEGREE.
 * Below the estimated lmin (Ritz values approach it from above) the
 * residual polynomial stays in (0, 1): less reduction there, still SPD. */
#define CHEB_SOLVE_EPS 0.05
#define CHEB_ARNOLDI_STEPS 12 /* nonsymmetric: Arnoldi steps of the interval estimate */
#define CHEB_ARNOLDI_RATIO 5.0 /* nonsymmetric: lambda_max / lambda_min (docs/solvers.md) */
#define CHEB_MAX_DEGREE 400
#define CHEB_FUSED_WG 256 /* work-items per group of chebyshev_bj_step (at most) */

typedef struct chebyshev {
  precond inner;
  cl_kernel first, step;
  hdgcl_buffer w, d, res; /* M^-1 res, search direction, residual */
  /* Inner face block-Jacobi in double precision: each step one launch of
   * chebyshev_bj_step (apply_fused), `res` then the second iterate buffer. */
  cl_kernel fused;
  size_t fused_wg; /* work-items per group: whole faces */
  double lmin, lmax;
  int degree;      /* inner applications per apply */
  bool solve_mode; /* degree and interval from the estimate (see CHEB_SOLVE_EPS) */
  /* --cheb-mixed: the products use a single-precision copy of the matrix
   * (spmv_bell_mixed: float values, double vectors and sums), half the
   * matrix bytes of each inner product; the outer Krylov method keeps A. */
  cl_kernel to_float, spmv_mixed;
  hdgcl_buffer fvalues;
  /* nonsymmetric problems: Arnoldi basis [CHEB_ARNOLDI_STEPS + 1][n] and
   * its two projections (CGS2) */
  hdgcl_buffer basis, h1, h2;
} chebyshev;

/* res = A_float z (enqueued). */
static int spmv_mixed(krylov *kr, chebyshev *c, const hdgcl_buffer *z,
                      hdgcl_buffer *res) {
  hdgcl_arg a[] = {HDGCL_ARG(kr->rows), HDGCL_ARG(kr->sys.block_cols->mem),
                   HDGCL_ARG(c->fvalues.mem), HDGCL_ARG(z->mem), HDGCL_ARG(res->mem)};
  return krylov_launch(kr, c->spmv_mixed, 5, a, (size_t)kr->n, 0);
}

/* Number of eigenvalues of the symmetric tridiagonal (a, e) below x (Sturm). */
static int sturm_count(int k, const double *a, const double *e, double x) {
  int count = 0;
  double q = 1.0;
  for (int i = 0; i < k; i++) {
    double off = i ? e[i - 1] * e[i - 1] : 0.0;
    q = a[i] - x - (i ? off / q : 0.0);
    if (q == 0.0) q = -1e-300;
    if (q < 0) count++;
  }
  return count;
}

/* The j-th smallest eigenvalue (0-based) of the tridiagonal by bisection. */
static double tridiagonal_eigenvalue(int k, const double *a, const double *e, int j) {
  double lo = a[0], hi = a[0];
  for (int i = 0; i < k; i++) { /* Gershgorin interval */
    double r = (i ? fabs(e[i - 1]) : 0.0) + (i < k - 1 ? fabs(e[i]) : 0.0);
    if (a[i] - r < lo) lo = a[i] - r;
    if (a[i] + r > hi) hi = a[i] + r;
  }
  for (int it = 0; it < 200 && hi - lo > 1e-14 * (fabs(lo) + fabs(hi)); it++) {
    double mid = 0.5 * (lo + hi);
    if (sturm_count(k, a, e, mid) > j) hi = mid;
    else lo = mid;
  }
  return 0.5 * (lo + hi);
}

/* Eigenvalues of the symmetric k x k matrix a (row-major, destroyed) into
 * ev, by cyclic Jacobi rotations (Golub and Van Loan, Algorithm 8.5.3). */
static void symmetric_eigenvalues(int k, double *a, double *ev) {
  for (int sweep = 0; sweep < 100; sweep++) {
    double off = 0.0, diag = 0.0;
    for (int i = 0; i < k; i++)
      for (int j = 0; j < k; j++) *(i == j ? &diag : &off) += a[i * k + j] * a[i * k + j];
    if (off <= 1e-30 * diag) break;
    for (int p = 0; p < k - 1; p++)
      for (int q = p + 1; q < k; q++) {
        double apq = a[p * k + q];
        if (apq == 0.0) continue;
        double tau = (a[q * k + q] - a[p * k + p]) / (2.0 * apq);
        double t = (tau >= 0 ? 1.0 : -1.0) / (fabs(tau) + sqrt(1.0 + tau * tau));
        double c = 1.0 / sqrt(1.0 + t * t), sn = t * c;
        for (int i = 0; i < k; i++) { /* columns p, q */
          double x = a[i * k + p], y = a[i * k + q];
          a[i * k + p] = c * x - sn * y;
          a[i * k + q] = sn * x + c * y;
        }
        for (int j = 0; j < k; j++) { /* rows p, q */
          double x = a[p * k + j], y = a[q * k + j];
          a[p * k + j] = c * x - sn * y;
          a[q * k + j] = sn * x + c * y;
        }
      }
  }
  for (int i = 0; i < k; i++) ev[i] = a[i * k + i];
}

/* Nonsymmetric: the interval from the real parts of the field of values of
 * the Arnoldi matrix H_k of M^-1 A (see the top of the file); the start
 * vector is in c->res. */
static int estimate_bounds_arnoldi(krylov *kr, chebyshev *c) {
  enum { M = CHEB_ARNOLDI_STEPS };
  double hess[M][M + 1] = {{0}}, col[M + 2], h2[M + 2];
  /* v_0 = res / ||res|| (also in d, the current basis vector). */
  HDGCL_TRY(vec_normalize(kr, &c->res, &c->h1, 0, &c->basis, 0, &c->d));
  int k = 0;
  for (int j = 0; j < M && j < kr->n; j++) {
    /* w = M^-1 A v_j, orthogonalised twice against v_0..v_j. */
    HDGCL_TRY(krylov_spmv(kr, &c->d, &c->res));
    HDGCL_TRY(c->inner.apply(kr, &c->inner, &c->res, &c->w));
    HDGCL_TRY(vec_mdot(kr, &c->basis, j + 1, &c->w, &c->h1, false));
    HDGCL_TRY(vec_basis_subtract(kr, &c->basis, j + 1, &c->h1, &c->w));
    HDGCL_TRY(vec_mdot(kr, &c->basis, j + 1, &c->w, &c->h2, false));
    HDGCL_TRY(vec_basis_subtract(kr, &c->basis, j + 1, &c->h2, &c->w));
    HDGCL_TRY(vec_normalize(kr, &c->w, &c->h1, j + 1, &c->basis, (int64_t)(j + 1) * kr->n,
                            &c->d));
    HDGCL_TRY(hdgcl_buffer_read(kr->ctx, &c->h2, 0, (size_t)(j + 1) * 8, h2));
    HDGCL_TRY(hdgcl_buffer_read(kr->ctx, &c->h1, 0, (size_t)(j + 2) * 8, col));
    for (int i = 0; i <= j + 1; i++) hess[j][i] = col[i] + (i <= j ? h2[i] : 0.0);
    k = j + 1;
    if (!(fabs(col[j + 1]) > 1e-12 * fabs(hess[j][j]))) break; /* invariant subspace */
  }
  if (k < 1)
    return hdgcl_error(HDGCL_ERROR_CONVERGENCE, "Chebyshev preconditioner: Arnoldi estimate failed");
  double sym[M * M], ev[M];
  for (int i = 0; i < k; i++)
    for (int j = 0; j < k; j++) sym[i * k + j] = 0.5 * (hess[j][i] + hess[i][j]);
  symmetric_eigenvalues(k, sym, ev);
  double re_max = ev[0];
  for (int i = 1; i < k; i++) re_max = ev[i] > re_max ? ev[i] : re_max;
  if (!(re_max > 0) || !isfinite(re_max))
    return hdgcl_error(HDGCL_ERROR_CONVERGENCE,
                       "Chebyshev preconditioner: estimated largest real part %g is not positive",
                       re_max);
  c->lmax = 1.1 * re_max;
  c->lmin = c->lmax / CHEB_ARNOLDI_RATIO;
  return HDGCL_SUCCESS;
}

/* Extreme eigenvalues of the Lanczos matrix T of k >= 1 CG coefficients
 * (Saad eq. 6.103): T_jj = 1/alpha_j + beta_{j-1}/alpha_{j-1},
 * T_j,j+1 = sqrt(beta_j)/alpha_j; the largest must be positive. */
static int ritz_interval(int k, const double *alpha, const double *beta, double *ritz_min,
                         double *ritz_max) {
  if (k < 1 || !(alpha[0] > 0))
    return hdgcl_error(HDGCL_ERROR_CONVERGENCE,
                       "Chebyshev preconditioner: Lanczos eigenvalue estimate failed after %d steps",
                       k);
  double a[CG_COEFFS], e[CG_COEFFS];
  for (int j = 0; j < k; j++) {
    a[j] = 1.0 / alpha[j] + (j ? beta[j - 1] / alpha[j - 1] : 0.0);
    if (j < k - 1) e[j] = sqrt(fabs(beta[j])) / alpha[j];
  }
  *ritz_min = tridiagonal_eigenvalue(k, a, e, 0);
  *ritz_max = tridiagonal_eigenvalue(k, a, e, k - 1);
  if (!(*ritz_max > 0) || !isfinite(*ritz_max))
    return hdgcl_error(HDGCL_ERROR_CONVERGENCE,
                       "Chebyshev preconditioner: estimated largest eigenvalue %g is not positive",
                       *ritz_max);
  return HDGCL_SUCCESS;
}

/* The interval of M^-1 A from the CG coefficients of a Lanczos run. */
static int estimate_bounds(krylov *kr, chebyshev *c) {
  size_t n = (size_t)kr->n;
  double *b;
  HDGCL_TRY(hdgcl_calloc(n, sizeof(double), "Lanczos start vector", &b));
  krylov_pseudo_random(b, n);
  int status = hdgcl_buffer_write(kr->ctx, &c->res, 0, n * 8, b);
  free(b);
  HDGCL_TRY(status);
  if (c->basis.mem) return estimate_bounds_arnoldi(kr, c);
  cg_outcome out;
  /* Stops early on small systems once converged: later steps of a converged
   * CG carry round-off, not spectral information. */
  int steps = c->solve_mode ? CG_COEFFS : CHEB_LANCZOS_STEPS;
  HDGCL_TRY(krylov_cg_run(kr, &c->inner, &c->res, &c->d, steps, 1e-10, false, &out));
  int k = out.iterations < CG_COEFFS ? out.iterations : CG_COEFFS;
  if (!c->solve_mode) return precond_chebyshev_interval(k, out.alpha, out.beta, &c->lmin, &c->lmax);
  double ritz_min, ritz_max;
  HDGCL_TRY(ritz_interval(k, out.alpha, out.beta, &ritz_min, &ritz_max));
  c->lmax = 1.1 * ritz_max;
  c->lmin = ritz_min > c->lmax * 1e-8 ? ritz_min : c->lmax * 1e-8;
  if (c->lmin >= c->lmax) c->lmin = 0.5 * c->lmax;
  double sigma = (c->lmax + c->lmin) / (c->lmax - c->lmin);
  double deg = ceil(acosh(1.0 / CHEB_SOLVE_EPS) / acosh(sigma));
  c->degree = deg < 1 ? 1 : deg > CHEB_MAX_DEGREE ? CHEB_MAX_DEGREE : (int)deg;
  return HDGCL_SUCCESS;
}

int precond_chebyshev_interval(int k, const double *alpha, const double *beta, double *lmin,
                               double *lmax) {
  double ritz_min, ritz_max;
  HDGCL_TRY(ritz_interval(k, alpha, beta, &ritz_min, &ritz_max));
  *lmax = 1.1 * ritz_max;
  *lmin = ritz_min > *lmax / CHEB_RATIO ? ritz_min : *lmax / CHEB_RATIO;
  if (*lmin >= *lmax) *lmin = *lmax / CHEB_RATIO;
  return HDGCL_SUCCESS;
}

static int setup(krylov *kr, precond *pc) {
  chebyshev *c = pc->data;
  if (c->to_float) {
    cl_long entries = (cl_long)kr->n * kr->sys.nslots * kr->sys.nf;
    hdgcl_arg a[] = {HDGCL_ARG(entries), HDGCL_ARG(kr->sys.values->mem), HDGCL_ARG(c->fvalues.mem)};
    size_t global = entries < (1 << 20) ? (size_t)entries : (size_t)1 << 20;
    HDGCL_TRY(krylov_launch(kr, c->to_float, 3, a, global, 0));
  }
  HDGCL_TRY(c->inner.setup(kr, &c->inner));
  HDGCL_TRY(estimate_bounds(kr, c));
  kr->stats.eig_min = c->lmin;
  kr->stats.eig_max = c->lmax;
  return HDGCL_SUCCESS;
}

/* The steps of apply, each one launch of chebyshev_bj_step
 * (cl/solvers/precond_chebyshev.c): the same arithmetic in the same order,
 * without the launches of the separate product, residual and inner apply
 * (on small levels of p-multigrid and its coarse solve the launches, not the
 * bytes, set the time).  The iterates alternate between z and c->res, the
 * first one placed so that the last lands in z. */
static int apply_fused(krylov *kr, chebyshev *c, const hdgcl_buffer *r, hdgcl_buffer *z) {
  double theta = 0.5 * (c->lmax + c->lmin), delta = 0.5 * (c->lmax - c->lmin);
  double sigma = theta / delta, rho_prev = 1.0 / sigma;
  const hdgcl_buffer *binv = precond_block_jacobi_inverses(&c->inner);
  const hdgcl_buffer *iterate[2] = {z, &c->res};
  int out = (c->degree - 1) % 2; /* iterate[out] holds the newest iterate */
  size_t groups = ((size_t)kr->n + c->fused_wg - 1) / c->fused_wg;
  for (int i = 0; i < c->degree; i++) {
    cl_int first = i == 0;
    double c1 = 0.0, c2 = 1.0 / theta;
    if (!first) {
      double rho = 1.0 / (2.0 * sigma - rho_prev);
      c1 = rho * rho_prev;
      c2 = 2.0 * rho / delta;
      rho_prev = rho;
    }
    const hdgcl_buffer *in = iterate[out], *to = first ? iterate[out] : iterate[1 - out];
    hdgcl_arg a[] = {HDGCL_ARG(kr->rows), HDGCL_ARG(first), HDGCL_ARG(c1), HDGCL_ARG(c2),
                     HDGCL_ARG(kr->sys.block_cols->mem), HDGCL_ARG(kr->sys.values->mem),
                     HDGCL_ARG(binv->mem), HDGCL_ARG(r->mem), HDGCL_ARG(in->mem),
                     HDGCL_ARG(c->d.mem), HDGCL_ARG(to->mem),
                     HDGCL_ARG_LOCAL(c->fused_wg * sizeof(double))};
    HDGCL_TRY(krylov_launch(kr, c->fused, 12, a, groups * c->fused_wg, c->fused_wg));
    if (!first) out = 1 - out;
  }
  return HDGCL_SUCCESS;
}

static int apply(krylov *kr, precond *pc, const hdgcl_buffer *r, hdgcl_buffer *z) {
  chebyshev *c = pc->data;
  if (c->fused) return apply_fused(kr, c, r, z);
  double theta = 0.5 * (c->lmax + c->lmin), delta = 0.5 * (c->lmax - c->lmin);
  double sigma = theta / delta, rho_prev = 1.0 / sigma, first = 1.0 / theta;
  HDGCL_TRY(c->inner.apply(kr, &c->inner, r, &c->w));
  hdgcl_arg a[] = {HDGCL_ARG(kr->n), HDGCL_ARG(first), HDGCL_ARG(c->w.mem), HDGCL_ARG(c->d.mem),
                   HDGCL_ARG(z->mem)};
  HDGCL_TRY(krylov_launch(kr, c->first, 5, a, (size_t)kr->n, 0));
  for (int i = 1; i < c->degree; i++) {
    /* res = r - A z, w = M^-1 res, d = rho rho_prev d + 2 rho / delta w, z += d. */
    if (c->spmv_mixed)
      HDGCL_TRY(spmv_mixed(kr, c, z, &c->res));
    else
      HDGCL_TRY(krylov_spmv(kr, z, &c->res));
    HDGCL_TRY(vec_residual(kr, r, &c->res));
    HDGCL_TRY(c->inner.apply(kr, &c->inner, &c->res, &c->w));
    double rho = 1.0 / (2.0 * sigma - rho_prev);
    double c1 = rho * rho_prev, c2 = 2.0 * rho / delta;
    hdgcl_arg b[] = {HDGCL_ARG(kr->n), HDGCL_ARG(c1), HDGCL_ARG(c2), HDGCL_ARG(c->w.mem),
                     HDGCL_ARG(c->d.mem), HDGCL_ARG(z->mem)};
    HDGCL_TRY(krylov_launch(kr, c->step, 6, b, (size_t)kr->n, 0));
    rho_prev = rho;
  }
  return HDGCL_SUCCESS;
}

static void counts(const krylov *kr, const precond *pc, double *flops, double *bytes) {
  const chebyshev *c = pc->data;
  double n = (double)kr->sys.rows * kr->sys.nf, k = c->degree;
  double fi, bi, fa, ba;
  c->inner.counts(kr, &c->inner, &fi, &bi);
  if (kr->set.cheb_mixed)
    spmv_counts(SPMV_BELL_MIXED, kr->sys.rows, kr->sys.nslots, kr->sys.nf, &fa, &ba);
  else
    krylov_spmv_counts(kr, &fa, &ba);
  /* k inner applications, the first step (n, 24 n), then per later step a
   * product, the residual (n, 24 n) and the update (4 n, 40 n). */
  *flops = k * fi + n + (k - 1) * (fa + n + 4 * n);
  *bytes = k * bi + 24 * n + (k - 1) * (ba + 24 * n + 40 * n);
  if (c->fused) { /* one pass a step (chebyshev_bj_step): the inverse blocks
                   * (8 n nf) and the product without its result written, r
                   * read, d read and written, z_in's own rows read, z_out
                   * written; the first step reads r, writes d and z_out */
    double inv = 8.0 * n * kr->sys.nf;
    *bytes = inv + 24 * n + (k - 1) * (ba - 8 * n + inv + 40 * n);
  }
}

static void destroy(krylov *kr, precond *pc) {
  chebyshev *c = pc->data;
  if (!c) return;
  precond_destroy(kr, &c->inner);
  if (c->first) clReleaseKernel(c->first);
  if (c->step) clReleaseKernel(c->step);
  if (c->fused) clReleaseKernel(c->fused);
  if (c->to_float) clReleaseKernel(c->to_float);
  if (c->spmv_mixed) clReleaseKernel(c->spmv_mixed);
  hdgcl_buffer_release(kr->ctx, &c->fvalues);
  hdgcl_buffer_release(kr->ctx, &c->w);
  hdgcl_buffer_release(kr->ctx, &c->d);
  hdgcl_buffer_release(kr->ctx, &c->res);
  hdgcl_buffer_release(kr->ctx, &c->basis);
  hdgcl_buffer_release(kr->ctx, &c->h1);
  hdgcl_buffer_release(kr->ctx, &c->h2);
  free(c);
  pc->data = NULL;
}

int precond_chebyshev_create(krylov *kr, precond *pc) {
  return precond_chebyshev_create_degree(kr, kr->set.cheb_degree, kr->set.cheb_inner, pc);
}

int precond_chebyshev_create_degree(krylov *kr, int degree, int inner,
                                    precond *pc) {
  *pc = (precond){.name = "chebyshev", .setup = setup, .apply = apply, .counts = counts,
                  .destroy = destroy, .fixed = true, .symmetric = true};
  chebyshev *c;
  HDGCL_TRY(hdgcl_calloc(1, sizeof *c, "Chebyshev preconditioner", &c));
  pc->data = c;
  c->degree = degree > 0 ? degree : 1;
  c->solve_mode = degree == 0;
  HDGCL_TRY(precond_create(kr, inner, &c->inner));
  cl_program program;
  HDGCL_TRY(krylov_program(kr, "solvers/precond_chebyshev.cl", KRYLOV_HELPERS_ONLY, &program));
  HDGCL_TRY(hdgcl_kernel_create(program, "chebyshev_first", &c->first));
  HDGCL_TRY(hdgcl_kernel_create(program, "chebyshev_step", &c->step));
  size_t vb = (size_t)(kr->n ? kr->n : 1) * 8;
  HDGCL_TRY(hdgcl_buffer_create(kr->ctx, vb, "Chebyshev w", &c->w));
  HDGCL_TRY(hdgcl_buffer_create(kr->ctx, vb, "Chebyshev d", &c->d));
  if (kr->set.nonsymmetric) {
    if (c->solve_mode)
      return hdgcl_error(HDGCL_ERROR_INTERNAL,
                         "Chebyshev solver mode needs a symmetric positive definite system");
    HDGCL_TRY(vectors_basis_create(kr, NULL));
    HDGCL_TRY(hdgcl_buffer_create(kr->ctx, vb * (CHEB_ARNOLDI_STEPS + 1), "Chebyshev Arnoldi basis",
                                  &c->basis));
    HDGCL_TRY(hdgcl_buffer_create(kr->ctx, (CHEB_ARNOLDI_STEPS + 2) * 8, "Arnoldi column", &c->h1));
    HDGCL_TRY(hdgcl_buffer_create(kr->ctx, (CHEB_ARNOLDI_STEPS + 2) * 8, "Arnoldi projection",
                                  &c->h2));
    pc->symmetric = false;
  }
  if (kr->set.cheb_mixed) {
    size_t entries = (size_t)(kr->n ? kr->n : 1) * kr->sys.nslots * kr->sys.nf;
    char only[64];
    snprintf(only, sizeof only, KRYLOV_HELPERS_ONLY " -DSPMV_ONLY=%d", (int)SPMV_BELL_MIXED);
    cl_program mixed;
    HDGCL_TRY(krylov_program(kr, "solvers/spmv.cl", only, &mixed));
    HDGCL_TRY(hdgcl_kernel_create(mixed, "values_to_float", &c->to_float));
    HDGCL_TRY(hdgcl_kernel_create(mixed, spmv_kernel_name(SPMV_BELL_MIXED), &c->spmv_mixed));
    HDGCL_TRY(hdgcl_buffer_create(kr->ctx, entries * 4, "Chebyshev single-precision matrix",
                                  &c->fvalues));
  }
  /* The fused steps where the inner preconditioner is face block-Jacobi, the
   * products double and a group of whole faces fits the device. */
  int nf = kr->sys.nf;
  size_t wg = (size_t)hdgcl_faces_per_group(kr->ctx->info.max_work_group, CHEB_FUSED_WG, nf) * nf;
  const char *unfused = getenv("HDGCL_CHEB_UNFUSED"); /* =1: the separate launches */
  if (precond_block_jacobi_inverses(&c->inner) && !c->spmv_mixed && kr->sys.block_cols &&
      wg <= kr->ctx->info.max_work_group && wg * sizeof(double) + 1024 <= kr->ctx->info.local_mem &&
      !(unfused && strcmp(unfused, "1") == 0)) {
    c->fused_wg = wg;
    HDGCL_TRY(hdgcl_kernel_create(program, "chebyshev_bj_step", &c->fused));
  }
  return hdgcl_buffer_create(kr->ctx, vb, "Chebyshev residual", &c->res);
}
