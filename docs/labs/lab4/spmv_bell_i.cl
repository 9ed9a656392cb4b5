/* ==== Lab 4: YOUR KERNEL. spmv_bell_i, y = K x, the trace operator of every CG iteration ====
 *
 * K is the trace matrix (docs/formulation.md section 4): one row of NF x NF blocks per
 * trace face u ("face row"), nunknown face rows, nrows = nunknown * NF scalar rows.
 * Scalar row `row` belongs to face row u = row / NF (its m = row % NF-th unknown).
 *
 * Block-ELL storage with interleaved values (--format bell-i, the default):
 *   block_cols[u * NSLOTS + slot]   the block column c of block `slot` of face row u,
 *                                   slot = 0 .. NSLOTS-1; -1 marks an empty slot (fewer
 *                                   neighbours next to the boundary); slot 0 is the
 *                                   diagonal block (c == u)
 *   values[(slot * NF + n) * nrows + row]
 *                                   entry (m, n) of that block, m = row % NF: for a fixed
 *                                   (slot, n) consecutive rows sit next to each other
 *                                   (coalesced on a GPU); an empty slot's values are
 *                                   padding and must not be used
 *   x[c * NF + n], y[row]           the vectors, NF consecutive entries per face
 * So  y[row] = sum over non-empty slots, sum over n < NF of
 *              values[(slot * NF + n) * nrows + row] * x[block_cols[u * NSLOTS + slot] * NF + n].
 *
 * NF (unknowns per face, p + 1 on triangles) and NSLOTS (blocks per face row: 5 on
 * triangles) are compile-time constants (-DNF=.. -DNSLOTS=..). The launch: one work-item
 * per scalar row, global size nrows, work-group size left to the runtime; guard with
 * `if (row >= nrows) return;` all the same (a launch may be rounded up to whole groups).
 * Index products can pass 2^31 on large meshes: compute them in long.
 *
 * Check it: python3 docs/labs/lab4_kernel.py check DIR --kernel spmv
 */
__kernel void spmv_bell_i(const int nunknown, __global const int *block_cols,
                          __global const double *values, __global const double *x,
                          __global double *y) {
  /* YOUR CODE HERE */
}
