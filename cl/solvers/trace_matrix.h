/* Entries of the assembled trace matrix in either layout (assemble.cl):
 * block-ELL values [rows][NSLOTS][NF][NF], or interleaved (INTERLEAVED: the
 * scalar ELL of --format ell and the block-ELL of --format bell-i), column-major: entry k = slot*NF + n of row u*NF + m at k*nrows + row.
 * Block slots of face row u: paper 000 Algorithm 1, host/fem/hdg.h (block_cols). */

/* Entry (m, n) of block `slot` of face row u; nunknown = number of face rows. */
double trace_block_entry(__global const double *values, const int nunknown, const int u,
                         const int slot, const int m, const int n) {
#ifdef INTERLEAVED
  return values[(long)(slot * NF + n) * nunknown * NF + (long)u * NF + m];
#else
  return values[(((long)u * NSLOTS + slot) * NF + m) * NF + n];
#endif
}

/* In-place Gauss-Jordan inversion of a (size x size, row-major, global
 * memory) whose symmetric part is positive definite (SPD, or the trace
 * matrix's blocks with convection, docs/formulation.md (F26)): the pivots stay
 * positive, so no pivoting is needed, and no private arrays (which a CPU
 * runtime would multiply by its work-group size). */
void posdef_invert_in_place(__global double *a, const int size) {
  for (int k = 0; k < size; k++) {
    const double pivot = a[k * size + k];
    a[k * size + k] = 1.0;
    for (int j = 0; j < size; j++) a[k * size + j] /= pivot;
    for (int i = 0; i < size; i++) {
      if (i == k) continue;
      const double f = a[i * size + k];
      a[i * size + k] = 0.0;
      for (int j = 0; j < size; j++) a[i * size + j] -= f * a[k * size + j];
    }
  }
}
