/* Fused BLAS-1 kernels and device reductions shared by the Krylov methods and
 * the preconditioners.  Every reduction is a fixed tree (work-group tree, then
 * one group over the `ngroups` partial sums): deterministic, no atomics.
 * First passes run ngroups <= DOT_GROUPS groups of DOT_WG (host/solvers/vectors.c:
 * no more groups than the vector needs) and stride by the global size.
 * Sizes: DOT_WG (power of two), DOT_GROUPS, MDOT_MAX.
 * -DVECTORS_NO_BASIS leaves out the Krylov basis kernels (multi-dot, norm,
 * basis updates: GMRES's and Chebyshev's Arnoldi), -DVECTORS_BASIS_ONLY keeps
 * only them, so a CG solve compiles none of them (host/solvers/vectors.c); both
 * keep only the helper functions (group_sum, ...: the preconditioners'
 * programs, host/solvers/solve.c krylov_program). */

/* Work-group tree reduction of DOT_WG values in local memory; returns the sum
 * to every work-item.  Callers put a barrier between two calls. */
double group_sum(__local double *buf, double v) {
  const int lid = get_local_id(0);
  buf[lid] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = DOT_WG / 2; s > 0; s >>= 1) {
    if (lid < s) buf[lid] += buf[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  return buf[0];
}

#ifndef VECTORS_BASIS_ONLY
/* partial[g] = sum over this group's grid-stride share of a.b. */
__kernel void dot_partial(const int n, __global const double *a, __global const double *b,
                          __global double *partial) {
  __local double buf[DOT_WG];
  double s = 0.0;
  for (int i = get_global_id(0); i < n; i += get_global_size(0)) s += a[i] * b[i];
  s = group_sum(buf, s);
  if (get_local_id(0) == 0) partial[get_group_id(0)] = s;
}
#endif

/* This group's sums of s and t (each work-item's share) into partial[2g]
 * and partial[2g+1]. */
void group_partials2(__local double *buf, double s, double t, __global double *partial) {
  s = group_sum(buf, s);
  barrier(CLK_LOCAL_MEM_FENCE);
  t = group_sum(buf, t);
  if (get_local_id(0) == 0) {
    partial[2 * get_group_id(0)] = s;
    partial[2 * get_group_id(0) + 1] = t;
  }
}

#ifndef VECTORS_BASIS_ONLY
/* Two dots sharing a: partial[2g] = a.b, partial[2g+1] = a.c. */
__kernel void dot2_partial(const int n, __global const double *a, __global const double *b,
                           __global const double *c, __global double *partial) {
  __local double buf[DOT_WG];
  double s = 0.0, t = 0.0;
  for (int i = get_global_id(0); i < n; i += get_global_size(0)) {
    s += a[i] * b[i];
    t += a[i] * c[i];
  }
  group_partials2(buf, s, t, partial);
}
#endif

/* Sum of ngroups partials (stride `stride`, offset `first`) by one group. */
double reduce_partials(__local double *buf, __global const double *partial, int stride, int first,
                       int ngroups) {
  double s = 0.0;
  for (int g = get_local_id(0); g < ngroups; g += DOT_WG) s += partial[g * stride + first];
  return group_sum(buf, s);
}

#ifndef VECTORS_NO_BASIS
/* Multi-dot, first pass: partial[g * MDOT_MAX + j] = this group's share of
 * V_j . w for j < k (V_j = v + j n).  Reads w k times, from cache. */
__kernel void mdot_partial(const int n, const int k, __global const double *v,
                           __global const double *w, __global double *partial) {
  __local double buf[DOT_WG];
  for (int j = 0; j < k; j++) {
    __global const double *vj = v + (long)j * n;
    double s = 0.0;
    for (int i = get_global_id(0); i < n; i += get_global_size(0)) s += vj[i] * w[i];
    s = group_sum(buf, s);
    if (get_local_id(0) == 0) partial[get_group_id(0) * MDOT_MAX + j] = s;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
#endif

#ifndef VECTORS_NO_BASIS
/* Multi-dot, second pass (one group): h[j] (+)= sum_g partial[g * MDOT_MAX + j]. */
__kernel void mdot_reduce(const int k, const int accumulate, __global const double *partial,
                          const int ngroups, __global double *h) {
  __local double buf[DOT_WG];
  for (int j = 0; j < k; j++) {
    const double s = reduce_partials(buf, partial, MDOT_MAX, j, ngroups);
    if (get_local_id(0) == 0) h[j] = (accumulate ? h[j] : 0.0) + s;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
#endif

#ifndef VECTORS_NO_BASIS
/* After dot_partial(w, w), one group: h[index] = ||w||. */
__kernel void norm_reduce(__global const double *partial, const int ngroups, const int index,
                          __global double *h) {
  __local double buf[DOT_WG];
  const double s = reduce_partials(buf, partial, 1, 0, ngroups);
  if (get_local_id(0) == 0) h[index] = sqrt(s);
}
#endif

#ifndef VECTORS_NO_BASIS
/* y[yoff + i] = v[i] = x[i] / h[index] (0 when h[index] = 0: an exact Krylov
 * breakdown); y is typically a basis column, v a plain vector. */
__kernel void scale_inv(const int n, __global const double *h, const int index,
                        __global const double *x, __global double *y, const long yoff,
                        __global double *v) {
  const int i = get_global_id(0);
  if (i >= n) return;
  const double d = h[index];
  const double xi = d != 0.0 ? x[i] / d : 0.0;
  y[yoff + i] = xi;
  v[i] = xi;
}
#endif

#ifndef VECTORS_BASIS_ONLY
/* y = a x + b y. */
__kernel void vec_axpby(const int n, const double a, __global const double *x, const double b,
                        __global double *y) {
  const int i = get_global_id(0);
  if (i < n) y[i] = a * x[i] + b * y[i];
}
#endif

#ifndef VECTORS_BASIS_ONLY
/* ax <- b - ax (the residual from a product A x). */
__kernel void vec_residual(const int n, __global const double *b, __global double *ax) {
  const int i = get_global_id(0);
  if (i < n) ax[i] = b[i] - ax[i];
}
#endif

#ifndef VECTORS_NO_BASIS
/* w -= sum_{j<k} V_j h[j]  (Gram-Schmidt projection; V_j = v + j n). */
__kernel void basis_subtract(const int n, const int k, __global const double *v,
                             __global const double *h, __global double *w) {
  const int i = get_global_id(0);
  if (i >= n) return;
  double s = 0.0;
  for (int j = 0; j < k; j++) s += v[(long)j * n + i] * h[j];
  w[i] -= s;
}
#endif

#ifndef VECTORS_NO_BASIS
/* out (+)= sum_{j<k} V_j y[j]. */
__kernel void basis_combine(const int n, const int k, __global const double *v,
                            __global const double *y, const int accumulate, __global double *out) {
  const int i = get_global_id(0);
  if (i >= n) return;
  double s = 0.0;
  for (int j = 0; j < k; j++) s += v[(long)j * n + i] * y[j];
  out[i] = accumulate ? out[i] + s : s;
}
#endif
