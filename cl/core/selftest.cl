/* Small kernels the tests use to check that a device compiles and runs
 * double-precision code correctly (prepended: common.h). */

/* y = a x + y */
__kernel void selftest_axpy(const int n, const double a, __global const double *x,
                            __global double *y) {
  const int i = get_global_id(0);
  if (i < n) y[i] = a * x[i] + y[i];
}

/* Work-group sums of x through local memory: partial[g] = sum of its share. */
__kernel void selftest_group_sum(const int n, __global const double *x, __local double *buf,
                                 __global double *partial) {
  const int lid = get_local_id(0), wg = get_local_size(0);
  buf[lid] = get_global_id(0) < n ? x[get_global_id(0)] : 0.0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = wg / 2; s > 0; s >>= 1) {
    if (lid < s) buf[lid] += buf[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) partial[get_group_id(0)] = buf[0];
}
