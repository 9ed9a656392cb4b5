/* The small dense part of restarted GMRES(m) on the device (host/solvers/krylov_gmres.c):
 * the Hessenberg column, its Givens rotations, the residual estimate
 * |g_{j+1}| / ||b||, the residual history and the stop flag after each
 * orthogonalisation (in the kernel that finishes ||w||), and the triangular
 * solve R y = g at a restart.  Both are the work of one work-item (at most
 * MDOT_MAX - 1 columns of as many entries: microseconds), so the host
 * enqueues iterations without reading anything back and checks the scalar
 * block once per batch.
 *
 * Once the cycle has stopped (the estimate reached the tolerance, an exact
 * breakdown ||w|| = 0, or a residual that is not a number) the Givens step
 * leaves everything as it is: the iterations the host enqueued past that
 * point in the same batch only write basis vectors beyond the k used at the
 * restart, so they do not change the iterate, the count or the history.
 *
 * Scalars (one small buffer, GMRES_SCALARS in host/solvers/krylov_gmres.c):          */
#pragma OPENCL FP_CONTRACT OFF /* the rotations as the host computed them, without fused multiply-adds */
#define GS_BETA 0   /* ||r|| at the start of the cycle (written by norm_reduce) */
#define GS_STOP 1   /* 1 once the cycle stopped */
#define GS_K 2      /* columns of this cycle */
#define GS_ITER 3   /* iterations done, all cycles */
#define GS_STATUS 4 /* gmres_solve_y: 0 solved, 1 not a number, 2 singular R */
#define GS_RELRES 5 /* the latest estimate |g_{j+1}| / ||b|| */

/* sqrt(x^2 + y^2) rounded as glibc's hypot (2.35 on, without FMA: the
 * correction of Borges, "An improved algorithm for hypot(a, b)", 2019)
 * rounds it, which the host rotations used: OpenCL's hypot may differ in the
 * last bit, and over hundreds of restarted iterations such bits moved a
 * count (square:40 p = 3, GMRES(30) + block-Jacobi: 863 against 865).
 * Matches glibc 2.36 on 10^7 random pairs; outside [2^-511, 2^511] (where
 * glibc scales) the built-in hypot. */
double hypot_host(double x, double y) {
  const double ax = fmax(fabs(x), fabs(y)), ay = fmin(fabs(x), fabs(y));
  if (!isfinite(ax) || !(ax <= 0x1p+511) || (ay > 0.0 && ay < 0x1p-511)) return hypot(x, y);
  if (ay <= ax * 0x1p-54) return ax + ay;
  double h = sqrt(ax * ax + ay * ay), t1, t2;
  if (h <= 2.0 * ay) {
    const double delta = h - ay;
    t1 = ax * (2.0 * delta - ax);
    t2 = (delta - 2.0 * (ax - ay)) * delta;
  } else {
    const double delta = h - ax;
    t1 = 2.0 * delta * (ax - 2.0 * ay);
    t2 = (4.0 * delta - ay) * ay + delta * delta;
  }
  return h - (t1 + t2) / (2.0 * h);
}

/* The Givens step of iteration j (from 0) of the cycle, after the two
 * Gram-Schmidt passes (h1[i] + h2[i], i <= j) and the norm h1[j + 1] = ||w||:
 * the rotated column into r[j (m + 1) + i], rotation j into cs_sn[2 j], g
 * rotated, history[iterations] = |g_{j+1}| / bnorm.  j = 0 starts the cycle
 * (g = beta e_1). */
void givens_step(const int j, const int m, __global const double *h1, __global const double *h2,
                 __global double *r, __global double *cs_sn, __global double *g,
                 __global double *scalars, __global double *history, const double bnorm,
                 const double rtol) {
  if (j == 0) {
    scalars[GS_STOP] = 0.0;
    scalars[GS_K] = 0.0;
    g[0] = scalars[GS_BETA];
  } else if (scalars[GS_STOP] != 0.0) {
    return;
  }
  __global double *col = r + (long)j * (m + 1);
  for (int i = 0; i <= j; i++) col[i] = h1[i] + h2[i];
  const double wnorm = h1[j + 1];
  for (int i = 0; i < j; i++) { /* the previous rotations */
    const double c = cs_sn[2 * i], s = cs_sn[2 * i + 1];
    const double t = c * col[i] + s * col[i + 1];
    col[i + 1] = -s * col[i] + c * col[i + 1];
    col[i] = t;
  }
  /* Rotation j zeroes the entry below, wnorm. */
  const double a = col[j], rr = hypot_host(a, wnorm);
  const double c = rr > 0 ? a / rr : 1.0, s = rr > 0 ? wnorm / rr : 0.0;
  cs_sn[2 * j] = c;
  cs_sn[2 * j + 1] = s;
  col[j] = rr;
  const double gj = g[j];
  g[j + 1] = -s * gj;
  g[j] = c * gj;
  const double relres = fabs(g[j + 1]) / bnorm;
  const int it = (int)scalars[GS_ITER] + 1;
  scalars[GS_ITER] = (double)it;
  scalars[GS_K] = (double)(j + 1);
  history[it] = relres;
  scalars[GS_RELRES] = relres;
  scalars[GS_STOP] = relres <= rtol || !(wnorm > 0) || !isfinite(relres) ? 1.0 : 0.0;
}

/* After dot_partial(w, w), one group: h1[j + 1] = ||w|| (as norm_reduce, the
 * same sum in the same order), then the Givens step by work-item 0: one
 * launch for both, so an iteration costs no more launches than with the
 * rotations on the host.  scale_inv then reads ||w|| from h1. */
__kernel void gmres_norm_givens(__global const double *partial, const int ngroups, const int j,
                                const int m, __global double *h1, __global const double *h2,
                                __global double *r, __global double *cs_sn, __global double *g,
                                __global double *scalars, __global double *history,
                                const double bnorm, const double rtol) {
  __local double buf[DOT_WG];
  const double ww = reduce_partials(buf, partial, 1, 0, ngroups);
  if (get_local_id(0) != 0) return;
  h1[j + 1] = sqrt(ww);
  givens_step(j, m, h1, h2, r, cs_sn, g, scalars, history, bnorm, rtol);
}

/* y = R^-1 g by back substitution over the cycle's k = scalars[GS_K]
 * columns, y[i] = 0 for k <= i < kmax (the iterations the host enqueued
 * past the stop: the combination over kmax basis vectors adds exact zeros);
 * scalars[GS_STATUS] says whether it could (the host reads it with the
 * restart's residual norm). */
__kernel void gmres_solve_y(const int m, const int kmax, __global const double *r,
                            __global const double *g, __global double *scalars,
                            __global double *y) {
  const int k = (int)scalars[GS_K];
  for (int i = k; i < kmax; i++) y[i] = 0.0;
  double status = 0.0;
  for (int i = k - 1; i >= 0; i--) {
    double t = g[i];
    for (int l = i + 1; l < k; l++) t -= r[(long)l * (m + 1) + i] * y[l];
    const double d = r[(long)i * (m + 1) + i];
    if (!isfinite(t) || !isfinite(d)) {
      status = 1.0;
      break;
    }
    if (!(d != 0.0)) {
      status = 2.0;
      break;
    }
    y[i] = t / d;
  }
  scalars[GS_STATUS] = status;
}

#pragma OPENCL FP_CONTRACT ON /* the default again for the files after this one in the program */
