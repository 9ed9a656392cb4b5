/* The trace operator in every storage of host/solvers/spmv.h (cl/solvers/spmv.cl) against
 * the host product, on the assembled matrices of triangles, quadrilaterals,
 * tetrahedra and hexahedra at several orders.  The host product is itself
 * checked: applied to the solved trace it reproduces the right-hand side.
 * Also the device ceilings of hdgcl bench (host/drivers/bench.c) on a small size:
 * finite and positive.  Usage: test_spmv [small] (small: one mesh, for
 * oclgrind). */
#include <stdint.h>

#include "drivers/bench.h"
#include "hdg_test.h"
#include "drivers/solver_impl.h"
#include "solvers/spmv.h"

static void check_storages(hdgcl_context ctx, const char *problem, const char *mesh,
                           const char *order) {
  solved s = solve_with(ctx, mesh, "problem", problem, "order", order, "rtol", "1e-13", NULL);
  CHECK_MSG(s.status == HDGCL_SUCCESS, "solve %s p=%s", mesh, order);
  if (s.status) {
    solved_destroy(&s);
    return;
  }
  int rows, slots, nf;
  const double *values, *rhs;
  const int32_t *cols;
  CHECK_OK(hdgcl_solver_matrix(s.solver, &rows, &slots, &nf, &values, &cols, &rhs));
  size_t n = (size_t)rows * nf;
  double *x = calloc(n, sizeof *x), *y = calloc(n, sizeof *y), *yref = calloc(n, sizeof *yref);
  /* Oracle check: A lambda = b for the solved trace lambda of the unknown faces. */
  const double *trace;
  CHECK_OK(hdgcl_solver_solution(s.solver, NULL, NULL, NULL, &trace));
  const int32_t *unknown_face = s.solver->disc.num.unknown_face;
  for (int u = 0; u < rows; u++)
    memcpy(x + (size_t)u * nf, trace + (size_t)unknown_face[u] * nf, nf * sizeof *x);
  spmv_host(rows, slots, nf, values, cols, x, yref);
  double res = relative_difference(yref, rhs, n);
  CHECK_MSG(res < 1e-9, "%s p=%s: host product of the solution misses the rhs by %.3e", mesh,
            order, res);
  /* A general vector for the storages. */
  for (size_t i = 0; i < n; i++) x[i] = cos(0.71 * (double)i) + 0.25;
  spmv_host(rows, slots, nf, values, cols, x, yref);
  cl_program program;
  hdgcl_buffer xd = {0}, yd = {0};
  CHECK_OK(spmv_program(ctx, nf, slots, &program));
  CHECK_OK(hdgcl_buffer_create(ctx, n * 8, "x", &xd));
  CHECK_OK(hdgcl_buffer_create(ctx, n * 8, "y", &yd));
  CHECK_OK(hdgcl_buffer_write(ctx, &xd, 0, n * 8, x));
  for (int st = 0; st < SPMV_STORAGES; st++) {
    spmv_operator op;
    CHECK_OK(spmv_operator_create(ctx, program, (spmv_storage)st, rows, slots, nf, values, cols, &op));
    CHECK_OK(hdgcl_buffer_fill(ctx, &yd, 0, n * 8, NAN));
    CHECK_OK(spmv_operator_apply(ctx, &op, &xd, &yd));
    CHECK_OK(hdgcl_buffer_read(ctx, &yd, 0, n * 8, y));
    double d = relative_difference(y, yref, n);
    double limit = st == SPMV_BELL_MIXED ? 1e-6 : 1e-13;
    CHECK_MSG(d < limit, "%s p=%s storage %s: relative difference %.3e (limit %.0e)", mesh, order,
              spmv_storage_names[st], d, limit);
    CHECK_MSG(op.flops > 0 && op.bytes > 16.0 * (double)n, "%s: counts flops %g bytes %g",
              spmv_storage_names[st], op.flops, op.bytes);
    spmv_operator_destroy(ctx, &op);
  }
  hdgcl_buffer_release(ctx, &xd);
  hdgcl_buffer_release(ctx, &yd);
  free(x);
  free(y);
  free(yref);
  solved_destroy(&s);
}

int main(int argc, char **argv) {
  bool small = argc > 1 && !strcmp(argv[1], "small");
  hdgcl_context ctx = test_device();
  if (small) {
    check_storages(ctx, "helmholtz-sin", "square:2", "1");
  } else {
    static const char *const cases[][2] = {{"square:3", "0"}, {"square:3", "1"}, {"square:4", "3"},
                                           {"square:2", "9"}, {"quad:2", "2"},   {"cube:1", "2"},
                                           {"hex:2", "1"},    {"cube:2", "1"}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) check_storages(ctx, "helmholtz-sin", cases[i][0], cases[i][1]);
    /* A problem with Neumann faces (rows without padding on the boundary). */
    check_storages(ctx, "poisson-mixed", "square:3", "2");
  }
  bench_peaks pk;
  CHECK_OK(bench_measure_peaks(ctx, 1e-4, small ? 4096 : 1 << 20, small ? 1 : 8, &pk));
  CHECK_MSG(pk.copy_gbs > 0 && isfinite(pk.copy_gbs), "copy bandwidth %g", pk.copy_gbs);
  CHECK_MSG(pk.dgemm_gflops > 0 && isfinite(pk.dgemm_gflops), "DGEMM rate %g", pk.dgemm_gflops);
  CHECK_MSG(pk.launch_us > 0 && isfinite(pk.launch_us), "launch overhead %g", pk.launch_us);
  CHECK(pk.copy_bytes == (small ? 4096u : 1u << 20) && pk.dgemm_shape[3] == (small ? 1 : 8));
  hdgcl_context_destroy(&ctx);
  return check_failures;
}
