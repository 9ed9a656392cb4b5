/* p-multigrid transfer between the trace spaces of degree p and pc < p on
 * every face (host/solvers/precond_pmg.c; paper 004 section 3.3.2).  The face basis
 * is hierarchical and orthonormal, so restriction keeps a face's coarse
 * modes and prolongation injects them (zeros elsewhere): R = P^T, binary.
 * map[k] is the fine mode of coarse mode k (a prefix on segments and
 * triangles, an index map on quadrilaterals).  Sizes are arguments: the
 * kernels serve every pair of levels.  One work-item per coarse unknown. */

/* coarse = R fine. */
__kernel void pmg_restrict(const int ncoarse, const int nfc, const int nff,
                           __global const int *map, __global const double *fine,
                           __global double *coarse) {
  const int i = get_global_id(0);
  if (i >= ncoarse) return;
  const int u = i / nfc, k = i % nfc;
  coarse[i] = fine[(long)u * nff + map[k]];
}

/* fine += P coarse: each fine entry is written by at most one work-item. */
__kernel void pmg_prolong_add(const int ncoarse, const int nfc, const int nff,
                              __global const int *map, __global const double *coarse,
                              __global double *fine) {
  const int i = get_global_id(0);
  if (i >= ncoarse) return;
  const int u = i / nfc, k = i % nfc;
  fine[(long)u * nff + map[k]] += coarse[i];
}
