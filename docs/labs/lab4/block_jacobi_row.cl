/* ==== Lab 4: YOUR CODE. block_jacobi_row, one row of the face block-Jacobi preconditioner ====
 *
 * The preconditioner (docs/solvers.md, paper 001 section 3.2) is z = M^-1 r with M the
 * block diagonal of the trace matrix K: one NF x NF block A_uu per trace face u. The
 * setup kernel (block_jacobi_setup, above) has inverted every block once per solve:
 *   binv[(u * NF + m) * NF + n]   entry (m, n) of A_uu^-1: the blocks one after the
 *                                 other, each row-major
 *   r[u * NF + n]                 the residual, NF consecutive entries per face
 * This function returns row `row` of z = blockdiag(binv) r, where row = u * NF + m:
 *   z[row] = sum over n < NF of  binv[(u * NF + m) * NF + n] * r[u * NF + n].
 *
 * It is called by both kernels below: block_jacobi_apply (one work-item per row) and
 * block_jacobi_apply_dot2, which CG launches every iteration: it writes z and, in the
 * same pass, the partial sums of (r, z) and (r, r) (grid-stride loop over the rows).
 * NF (unknowns per face, p + 1 on triangles) is a compile-time constant (-DNF=..).
 *
 * Check it: python3 docs/labs/lab4_kernel.py check DIR --kernel block-jacobi
 */
double block_jacobi_row(__global const double *binv, __global const double *r, const int row) {
  /* YOUR CODE HERE: replace the line below */
  return 0.0;
}
