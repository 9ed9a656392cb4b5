/* Prepended to every hdgcl kernel program: double precision. */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

/* Row widths of the per-element arrays (docs/geometry.md, "Mixed meshes"):
 * on a mixed mesh elem_verts, elem_faces and elem_orient have the widest
 * type's NVERT and NFACES per element, and u, q, u* (and the element load)
 * rows the widest type's NP and NP1; a batch of a narrower type fills the
 * start of its rows.  A program of one type leaves them at its own sizes.
 * The affine and mapped kernels, assembly, recovery (mapped_recover_q and
 * the vector problems' recovery and errors too) and the additive Schwarz
 * patches index with them; the Newton kernels (local_newton*.cl) still use
 * NP (mixed meshes refuse nonlinear and vector problems). */
#if defined(NVERT) && !defined(ELEM_NVERT)
#define ELEM_NVERT NVERT
#endif
#if defined(NFACES) && !defined(ELEM_NFACES)
#define ELEM_NFACES NFACES
#endif
#if defined(NP) && !defined(ROW_NP)
#define ROW_NP NP
#endif
#if defined(NP1) && !defined(ROW_NP1)
#define ROW_NP1 NP1
#endif

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
