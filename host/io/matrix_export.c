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
#include <unistd.h>

#include "core/error.h"
#include "hdgcl/solver.h"

static int open_tmp(const char *path, char *tmp, size_t n, FILE **f) {
  snprintf(tmp, n, "%s.tmp.%ld", path, (long)getpid());
  *f = fopen(tmp, "w");
  if (!*f) return hdgcl_error(HDGCL_ERROR_IO, "cannot write %s", path);
  return HDGCL_SUCCESS;
}

int hdgcl_solver_export_matrix(hdgcl_solver solver, const char *prefix) {
  if (!solver || !prefix || !*prefix)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "hdgcl_solver_export_matrix: NULL solver or prefix");
  int rows, slots, nf;
  const double *values, *rhs;
  const int32_t *cols;
  HDGCL_TRY(hdgcl_solver_matrix(solver, &rows, &slots, &nf, &values, &cols, &rhs));
  size_t plen = strlen(prefix) + 16;
  char *mpath = malloc(plen), *rpath = malloc(plen), *mtmp = malloc(plen + 32),
       *rtmp = malloc(plen + 32);
  FILE *fm = NULL, *fr = NULL;
  int status = HDGCL_SUCCESS;
  if (!mpath || !rpath || !mtmp || !rtmp) {
    status = hdgcl_error(HDGCL_ERROR_MEMORY, "out of host memory for file names");
    goto done;
  }
  snprintf(mpath, plen, "%s.mtx", prefix);
  snprintf(rpath, plen, "%s.rhs.mtx", prefix);
  HDGCL_TRY_GOTO(status, open_tmp(mpath, mtmp, plen + 32, &fm), done);
  HDGCL_TRY_GOTO(status, open_tmp(rpath, rtmp, plen + 32, &fr), done);
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
  int werr = ferror(fm) | ferror(fr);
  werr |= fclose(fm);
  fm = NULL;
  werr |= fclose(fr);
  fr = NULL;
  if (werr) {
    status = hdgcl_error(HDGCL_ERROR_IO, "error writing %s (disk full?)", mpath);
    goto done;
  }
  if (rename(mtmp, mpath) != 0 || rename(rtmp, rpath) != 0) {
    remove(mpath);
    status = hdgcl_error(HDGCL_ERROR_IO, "cannot rename the temporaries to %s and %s", mpath, rpath);
  }
done:
  if (fm) fclose(fm);
  if (fr) fclose(fr);
  if (status != HDGCL_SUCCESS && mtmp && rtmp) {
    remove(mtmp);
    remove(rtmp);
  }
  free(mpath);
  free(rpath);
  free(mtmp);
  free(rtmp);
  return status;
}
