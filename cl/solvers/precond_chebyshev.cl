/* Chebyshev polynomial preconditioner (paper 001 sections 3.4 and 4.7: a
 * polynomial in the inner-preconditioned operator, here with Chebyshev
 * coefficients on an estimated eigenvalue interval, host/solvers/precond_chebyshev.c).
 * The three-term recurrence (Saad, Iterative Methods, 2nd ed., Algorithm
 * 12.1) with its coefficients passed as arguments: no host read per apply. */

/* First step: d = c w (w = M^-1 r), z = d. */
__kernel void chebyshev_first(const int n, const double c, __global const double *w,
                              __global double *d, __global double *z) {
  const int i = get_global_id(0);
  if (i >= n) return;
  const double di = c * w[i];
  d[i] = di;
  z[i] = di;
}

/* Later steps: d = c1 d + c2 w (w = M^-1 res), z += d. */
__kernel void chebyshev_step(const int n, const double c1, const double c2,
                             __global const double *w, __global double *d, __global double *z) {
  const int i = get_global_id(0);
  if (i >= n) return;
  const double di = c1 * d[i] + c2 * w[i];
  d[i] = di;
  z[i] += di;
}
