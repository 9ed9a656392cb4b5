/* Whole-buffer operations the host layer needs (host/core/context.c).  Indices are
 * 64-bit and the loop is grid-stride, so any buffer the device can allocate
 * is covered with a launch of at most 2^20 work-items. */

/* x[offset .. offset + count) = value */
__kernel void fill_double(const long offset, const long count, const double value,
                          __global double *x) {
  for (long i = get_global_id(0); i < count; i += get_global_size(0)) x[offset + i] = value;
}
