/* hdgcl_solver_export_matrix: the MatrixMarket files hold exactly the
 * assembled block-ELL system (every stored block entry at its row and
 * column, bit for bit through %.17g), for a triangle and a tetrahedron
 * mesh on the device; an unwritable prefix fails and leaves no file. */
#include <stdint.h>
#include <unistd.h>

#include "hdg_test.h"

static int check_export(hdgcl_context ctx, const char *mesh, const char *prefix) {
  solved s = solve_with(ctx, mesh, "order", "2", NULL);
  CHECK(s.status == HDGCL_SUCCESS);
  if (s.status) return 1;
  CHECK_OK(hdgcl_solver_export_matrix(s.solver, prefix));
  int rows, slots, nf;
  const double *values, *rhs;
  const int32_t *cols;
  CHECK_OK(hdgcl_solver_matrix(s.solver, &rows, &slots, &nf, &values, &cols, &rhs));
  long long n = (long long)rows * nf;
  char path[512], line[512];
  snprintf(path, sizeof path, "%s.mtx", prefix);
  FILE *f = fopen(path, "r");
  CHECK_MSG(f != NULL, "%s not written", path);
  if (f) {
    CHECK(fgets(line, sizeof line, f) && !strcmp(line, "%%MatrixMarket matrix coordinate real general\n"));
    while (fgets(line, sizeof line, f) && line[0] == '%') {
    }
    long long nr, nc, nnz, count = 0, wrong = 0;
    CHECK(sscanf(line, "%lld %lld %lld", &nr, &nc, &nnz) == 3 && nr == n && nc == n);
    /* Dense copy of the block-ELL matrix to compare against. */
    double *dense = calloc((size_t)(n * n), sizeof(double));
    for (long long u = 0; u < rows; u++)
      for (int sl = 0; sl < slots; sl++) {
        if (cols[u * slots + sl] < 0) continue;
        for (int m = 0; m < nf; m++)
          for (int k = 0; k < nf; k++)
            dense[(u * nf + m) * n + (long long)cols[u * slots + sl] * nf + k] +=
                values[((u * slots + sl) * nf + m) * nf + k];
      }
    long long i, j;
    double v;
    while (fscanf(f, "%lld %lld %lf", &i, &j, &v) == 3) {
      count++;
      if (i < 1 || i > n || j < 1 || j > n || dense[(i - 1) * n + j - 1] != v) wrong++;
    }
    CHECK_MSG(count == nnz && wrong == 0, "%lld entries of %lld, %lld wrong", count, nnz, wrong);
    CHECK(nnz > 0 && nnz % ((long long)nf * nf) == 0);
    free(dense);
    fclose(f);
  }
  snprintf(path, sizeof path, "%s.rhs.mtx", prefix);
  f = fopen(path, "r");
  CHECK_MSG(f != NULL, "%s not written", path);
  if (f) {
    CHECK(fgets(line, sizeof line, f) && !strcmp(line, "%%MatrixMarket matrix array real general\n"));
    long long nr, one, count = 0, wrong = 0;
    CHECK(fscanf(f, "%lld %lld", &nr, &one) == 2 && nr == n && one == 1);
    double v;
    while (fscanf(f, "%lf", &v) == 1) {
      if (count >= n || v != rhs[count]) wrong++;
      count++;
    }
    CHECK_MSG(count == n && wrong == 0, "%lld values of %lld, %lld wrong", count, n, wrong);
    fclose(f);
  }
  solved_destroy(&s);
  return 0;
}

int main(void) {
  hdgcl_context ctx = test_device();
  char dir[] = "/tmp/hdgcl-export-XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  char prefix[256];
  snprintf(prefix, sizeof prefix, "%s/tri", dir);
  check_export(ctx, "square:3", prefix);
  snprintf(prefix, sizeof prefix, "%s/tet", dir);
  check_export(ctx, "cube:1", prefix);

  /* An unwritable prefix: an error, and no file left behind. */
  solved s = solve_with(ctx, "square:2", "order", "1", NULL);
  snprintf(prefix, sizeof prefix, "%s/missing/m", dir);
  CHECK(hdgcl_solver_export_matrix(s.solver, prefix) == HDGCL_ERROR_IO);
  CHECK(strstr(hdgcl_last_error(), "missing/m.mtx") != NULL);
  solved_destroy(&s);

  char cmd[600];
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  CHECK(system(cmd) == 0);
  hdgcl_context_destroy(&ctx);
  return check_failures;
}
