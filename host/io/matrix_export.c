/* Export of the assembled trace system in MatrixMarket format, for other
 * tools (SciPy, CuPy/cuSPARSE in perf/cupy_compare.py, MATLAB):
 *   PREFIX.mtx      the matrix, "coordinate real general", 1-based, every
 *                   entry of every stored face block (explicit zeros inside
 *                   a block included, so nnz matches what a block format
 *                   stores; empty ELL slots are not written);
 *   PREFIX.rhs.mtx  the right-hand side, "array real general" (n x 1).
 * Rows and columns are numbered (face row u, trace mode m) -> u * Nf + m.
 * Both files are written to temporaries and renamed, so a failure leaves
 * neither a partial file nor a matrix without its right-hand side. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/temp_file.h"
#include "hdgcl/solver.h"

int hdgcl_solver_export_matrix(hdgcl_solver solver, const char *prefix) {
  if (!solver || !prefix || !*prefix)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "hdgcl_solver_export_matrix: NULL solver or prefix");
  int rows, slots, nf;
  const double *values, *rhs;
  const int32_t *cols;
  HDGCL_TRY(hdgcl_solver_matrix(solver, &rows, &slots, &nf, &values, &cols, &rhs));
  size_t plen = strlen(prefix) + 16;
  char *mpath = malloc(plen), *rpath = malloc(plen);
  hdgcl_temp_file tm = {0}, tr = {0};
  int status = HDGCL_SUCCESS;
  if (!mpath || !rpath) {
    status = hdgcl_error(HDGCL_ERROR_MEMORY, "out of host memory for file names");
    goto done;
  }
  snprintf(mpath, plen, "%s.mtx", prefix);
  snprintf(rpath, plen, "%s.rhs.mtx", prefix);
  HDGCL_TRY_GOTO(status, hdgcl_temp_open(&tm, mpath, "w"), done);
  HDGCL_TRY_GOTO(status, hdgcl_temp_open(&tr, rpath, "w"), done);
  FILE *fm = tm.f, *fr = tr.f;
  long long n = (long long)rows * nf, nnz = 0;
  for (long long u = 0; u < rows; u++)
    for (int sl = 0; sl < slots; sl++)
      if (cols[u * slots + sl] >= 0) nnz += (long long)nf * nf;
  fprintf(fm, "%%%%MatrixMarket matrix coordinate real general\n"
              "%% hdgcl trace system: %d face rows x %d modes, %d block slots per row\n"
              "%lld %lld %lld\n", rows, nf, slots, n, n, nnz);
  for (long long u = 0; u < rows; u++)
    for (int m = 0; m < nf; m++)
      for (int sl = 0; sl < slots; sl++) {
        int c = cols[u * slots + sl];
        if (c < 0) continue;
        const double *blk = values + ((u * slots + sl) * nf + m) * (size_t)nf;
        for (int k = 0; k < nf; k++)
          fprintf(fm, "%lld %lld %.17g\n", u * nf + m + 1, (long long)c * nf + k + 1, blk[k]);
      }
  fprintf(fr, "%%%%MatrixMarket matrix array real general\n%lld 1\n", n);
  for (long long i = 0; i < n; i++) fprintf(fr, "%.17g\n", rhs[i]);
  HDGCL_TRY_GOTO(status, hdgcl_temp_commit(&tr), done);
  status = hdgcl_temp_commit(&tm);
  if (status != HDGCL_SUCCESS) remove(rpath); /* no right-hand side without its matrix */
done:
  hdgcl_temp_discard(&tm);
  hdgcl_temp_discard(&tr);
  free(mpath);
  free(rpath);
  return status;
}
