/* Preconditioned conjugate gradients with every reduction and scalar update on
 * the device (vectors.cl does the dot products).  The host enqueues iterations
 * in batches and only reads the scalar block between batches; once converged,
 * the `done` flag turns the remaining enqueued iterations into no-ops.
 * The first CG_COEFFS (alpha, beta) pairs are kept: they define the Lanczos
 * tridiagonal matrix of the preconditioned operator (Saad, Iterative Methods,
 * 2nd ed., eq. 6.103), used to estimate its extreme eigenvalues.
 *
 * Scalars (one small buffer, CG_SCALARS in host/krylov_cg.c):              */
#define S_RZ 0    /* (r, z) */
#define S_PAP 1   /* (p, A p) */
#define S_ALPHA 2
#define S_BETA 3
#define S_RR 4    /* (r, r) */
#define S_RR0 5   /* (b, b) */
#define S_TOL2 6  /* (rtol ||b||)^2 */
#define S_DONE 7  /* 1 once converged */
#define S_ITER 8  /* iterations done */

/* After r = b, z = M r and dot2(r; z, r): initial scalars. One group. */
__kernel void cg_init(__global const double *partial, const int ngroups, __global double *scalars,
                      const double rtol, __global double *history) {
  __local double buf[DOT_WG];
  const double rz = reduce_partials(buf, partial, 2, 0, ngroups);
  barrier(CLK_LOCAL_MEM_FENCE);
  const double rr = reduce_partials(buf, partial, 2, 1, ngroups);
  if (get_local_id(0) == 0) {
    scalars[S_RZ] = rz;
    scalars[S_RR] = rr;
    scalars[S_RR0] = rr;
    scalars[S_TOL2] = rtol * rtol * rr;
    scalars[S_DONE] = rr > 0.0 ? 0.0 : 1.0;
    scalars[S_ITER] = 0.0;
    scalars[S_ALPHA] = 0.0;
    scalars[S_BETA] = 0.0;
    history[0] = 1.0;
  }
}

/* alpha = (r,z) / (p,Ap); coeffs[2 it] = alpha. */
__kernel void cg_alpha(__global const double *partial, const int ngroups, __global double *scalars,
                       __global double *coeffs) {
  __local double buf[DOT_WG];
  const double pap = reduce_partials(buf, partial, 1, 0, ngroups);
  if (get_local_id(0) == 0) {
    scalars[S_PAP] = pap;
    scalars[S_ALPHA] = scalars[S_DONE] != 0.0 ? 0.0 : scalars[S_RZ] / pap;
    const int it = (int)scalars[S_ITER];
    if (scalars[S_DONE] == 0.0 && it < CG_COEFFS) coeffs[2 * it] = scalars[S_ALPHA];
  }
}

/* x += alpha p, r -= alpha A p. */
__kernel void cg_update_xr(const int n, __global const double *scalars, __global const double *p,
                           __global const double *ap, __global double *x, __global double *r) {
  const int i = get_global_id(0);
  if (i >= n || scalars[S_DONE] != 0.0) return;
  const double alpha = scalars[S_ALPHA];
  x[i] += alpha * p[i];
  r[i] -= alpha * ap[i];
}

/* beta = (r,z)_new / (r,z); records ||r||/||b|| and coeffs[2 it + 1] = beta;
 * sets done at the tolerance. */
__kernel void cg_beta(__global const double *partial, const int ngroups, __global double *scalars,
                      __global double *history, __global double *coeffs) {
  __local double buf[DOT_WG];
  const double rz = reduce_partials(buf, partial, 2, 0, ngroups);
  barrier(CLK_LOCAL_MEM_FENCE);
  const double rr = reduce_partials(buf, partial, 2, 1, ngroups);
  if (get_local_id(0) == 0 && scalars[S_DONE] == 0.0) {
    scalars[S_BETA] = rz / scalars[S_RZ];
    scalars[S_RZ] = rz;
    scalars[S_RR] = rr;
    const double it = scalars[S_ITER];
    if ((int)it < CG_COEFFS) coeffs[2 * (int)it + 1] = scalars[S_BETA];
    scalars[S_ITER] = it + 1.0;
    history[(int)it + 1] = sqrt(rr / scalars[S_RR0]);
    if (rr <= scalars[S_TOL2] || !(rr == rr)) scalars[S_DONE] = 1.0;
  }
}

/* p = z + beta p. */
__kernel void cg_update_p(const int n, __global const double *scalars, __global const double *z,
                          __global double *p) {
  const int i = get_global_id(0);
  if (i >= n || scalars[S_DONE] != 0.0) return;
  p[i] = z[i] + scalars[S_BETA] * p[i];
}
