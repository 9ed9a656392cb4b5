/* Prepended to every hdgcl kernel program: double precision. */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

/* In-place Cholesky factorisation A = L L^T of the N x N row-major SPD matrix
 * a (lower triangle overwritten by L; right-looking, one column per step),
 * shared by the work-items of one work-group (lid of wg); FENCE is the
 * barrier flag of a's address space.  A macro because OpenCL C 1.2 functions
 * cannot take a pointer generic over __local and __global. */
#define CHOLESKY_IN_PLACE(a, N, lid, wg, FENCE)                                 \
  for (int k_ = 0; k_ < (N); k_++) {                                            \
    if ((lid) == 0) (a)[k_ * (N) + k_] = sqrt((a)[k_ * (N) + k_]);              \
    barrier(FENCE);                                                             \
    const double dkk_ = (a)[k_ * (N) + k_];                                     \
    for (int i_ = k_ + 1 + (lid); i_ < (N); i_ += (wg)) (a)[i_ * (N) + k_] /= dkk_; \
    barrier(FENCE);                                                             \
    const int m_ = (N) - k_ - 1;                                                \
    for (int t_ = (lid); t_ < m_ * m_; t_ += (wg)) {                            \
      const int i_ = k_ + 1 + t_ / m_, j_ = k_ + 1 + t_ % m_;                   \
      if (j_ <= i_) (a)[i_ * (N) + j_] -= (a)[i_ * (N) + k_] * (a)[j_ * (N) + k_]; \
    }                                                                           \
    barrier(FENCE);                                                             \
  }
