/* Preconditioned conjugate gradients with every reduction and scalar update on
 * the device (vectors.cl does the dot products).  The host enqueues iterations
 * in batches and only reads the scalar block between batches; once converged,
 * the `done` flag turns the remaining enqueued iterations into no-ops.
 * The first CG_COEFFS (alpha, beta) pairs are kept: they define the Lanczos
 * tridiagonal matrix of the preconditioned operator (Saad, Iterative Methods,
 * 2nd ed., eq. 6.103), used to estimate its extreme eigenvalues.
 *
 * One iteration is five launches (host/solvers/krylov_cg.c): A p, the partial sums
 * of (p, Ap), cg_update_xr, z = M r with the partial sums of (r, z) and
 * (r, r), cg_update_p.  The two update kernels finish the reductions
 * themselves: every work-group sums the same partials in the same order (so
 * all get the same alpha or beta, bit for bit) and the first one records
 * the scalars, which saves the two single-group launches that computed
 * alpha and beta.  A value that one kernel both reads and writes would race
 * between its work-groups, so (r, z) and the done flag have two slots,
 * alternating with the parity of the iteration `it` (a kernel argument):
 * iteration it reads slot it & 1 and writes slot (it + 1) & 1.
 *
 * Scalars (one small buffer, CG_SCALARS in host/solvers/krylov_cg.c):              */
#define S_RZ 0    /* (r, z), slots S_RZ and S_RZ + 1 */
#define S_PAP 2   /* (p, A p) */
#define S_ALPHA 3
#define S_BETA 4
#define S_RR 5    /* (r, r) */
#define S_RR0 6   /* (b, b) */
#define S_TOL2 7  /* (rtol ||b||)^2 */
#define S_DONE 8  /* 1 once converged, slots S_DONE and S_DONE + 1 */
#define S_ITER 10 /* iterations done */

/* The entries of the update kernels' work-items: a grid-stride loop on GPUs
 * (adjacent work-items, adjacent entries), a contiguous range each with
 * CG_CONTIGUOUS (CPU devices, which run a group's work-items one after the
 * other: a stride would bring each cache line in once per work-item). */
#ifdef CG_CONTIGUOUS
#define UPDATE_CHUNK(n) (((n) + (int)get_global_size(0) - 1) / (int)get_global_size(0))
#define UPDATE_FIRST(n) ((int)get_global_id(0) * UPDATE_CHUNK(n))
#define UPDATE_END(n) min((n), UPDATE_FIRST(n) + UPDATE_CHUNK(n))
#define UPDATE_STEP 1
#else
#define UPDATE_FIRST(n) ((int)get_global_id(0))
#define UPDATE_END(n) (n)
#define UPDATE_STEP ((int)get_global_size(0))
#endif

/* After r = b, z = M r and dot2(r; z, r): initial scalars (slot 0; both done
 * slots). One group. */
__kernel void cg_init(__global const double *partial, const int ngroups, __global double *scalars,
                      const double rtol, __global double *history) {
  __local double buf[DOT_WG];
  const double rz = reduce_partials(buf, partial, 2, 0, ngroups);
  barrier(CLK_LOCAL_MEM_FENCE);
  const double rr = reduce_partials(buf, partial, 2, 1, ngroups);
  if (get_local_id(0) == 0) {
    scalars[S_RZ] = rz;
    scalars[S_RZ + 1] = 0.0;
    scalars[S_RR] = rr;
    scalars[S_RR0] = rr;
    scalars[S_TOL2] = rtol * rtol * rr;
    scalars[S_DONE] = scalars[S_DONE + 1] = rr > 0.0 ? 0.0 : 1.0;
    scalars[S_ITER] = 0.0;
    scalars[S_PAP] = 0.0;
    scalars[S_ALPHA] = 0.0;
    scalars[S_BETA] = 0.0;
    history[0] = 1.0;
  }
}

/* alpha = (r,z) / (p,Ap) from the partial sums of (p, Ap), in every group;
 * x += alpha p, r -= alpha A p (grid-stride); group 0 records alpha and
 * coeffs[2 it] = alpha. */
__kernel void cg_update_xr(const int n, const int it, __global const double *partial,
                           const int ngroups, __global double *scalars, __global double *coeffs,
                           __global const double *p, __global const double *ap,
                           __global double *x, __global double *r) {
  __local double buf[DOT_WG];
  const double pap = reduce_partials(buf, partial, 1, 0, ngroups);
  if (scalars[S_DONE + (it & 1)] != 0.0) return;
  const double alpha = scalars[S_RZ + (it & 1)] / pap;
  if (get_global_id(0) == 0) {
    scalars[S_PAP] = pap;
    scalars[S_ALPHA] = alpha;
    const int k = (int)scalars[S_ITER];
    if (k < CG_COEFFS) coeffs[2 * k] = alpha;
  }
  for (int i = UPDATE_FIRST(n); i < UPDATE_END(n); i += UPDATE_STEP) {
    x[i] += alpha * p[i];
    r[i] -= alpha * ap[i];
  }
}

/* beta = (r,z)_new / (r,z) from the partial sums of (r, z) and (r, r), in
 * every group; p = z + beta p (grid-stride).  Group 0 records (r, z)_new in
 * the next slot, ||r||/||b|| in history, coeffs[2 it + 1] = beta, and the
 * next done flag (set at the tolerance, or kept). */
__kernel void cg_update_p(const int n, const int it, __global const double *partial,
                          const int ngroups, __global double *scalars, __global double *history,
                          __global double *coeffs, __global const double *z, __global double *p) {
  __local double buf[DOT_WG];
  const double rz = reduce_partials(buf, partial, 2, 0, ngroups);
  barrier(CLK_LOCAL_MEM_FENCE);
  const double rr = reduce_partials(buf, partial, 2, 1, ngroups);
  const int now = it & 1, next = (it + 1) & 1;
  const bool done = scalars[S_DONE + now] != 0.0;
  if (get_global_id(0) == 0) {
    if (done) {
      scalars[S_DONE + next] = 1.0;
    } else {
      const double beta = rz / scalars[S_RZ + now];
      scalars[S_BETA] = beta;
      scalars[S_RZ + next] = rz;
      scalars[S_RR] = rr;
      const double k = scalars[S_ITER];
      if ((int)k < CG_COEFFS) coeffs[2 * (int)k + 1] = beta;
      scalars[S_ITER] = k + 1.0;
      history[(int)k + 1] = sqrt(rr / scalars[S_RR0]);
      scalars[S_DONE + next] = rr <= scalars[S_TOL2] || !(rr == rr) ? 1.0 : 0.0;
    }
  }
  if (done) return;
  const double beta = rz / scalars[S_RZ + now];
  for (int i = UPDATE_FIRST(n); i < UPDATE_END(n); i += UPDATE_STEP) p[i] = z[i] + beta * p[i];
}
