/* The distributed solve (include/hdgcl/mpi.h, docs/mpi.md), run by mpirun on
 * 1, 2 and 3 ranks: every rank also solves the whole mesh serially, and the
 * distributed solve must give the serial u, q, u* on the rank's elements and
 * the serial error norms to 1e-10 relative, on triangles, quadrilaterals,
 * tetrahedra and hexahedra with each preconditioner it has, with Neumann
 * faces (poisson-mixed) and a coefficient jump (kappa-jump), with CG and
 * GMRES (convection-diffusion, nonsymmetric); a rank with a
 * single element works; more ranks than elements is a clear error. */
#include <mpi.h>
#include <stdlib.h>

#include "core/not_our_leaks.h"
#include "hdg_test.h"
#include "hdgcl/mpi.h"

#define TOL 1e-10

static int rank, size;
/* One more option for both solves of compare_solver (NULL: none). */
static const char *extra_key, *extra_value;

/* An hdgcl call that must succeed on every rank: a failure ends all of them
 * (a rank left in a collective would hang). */
#define MUST(call)                                                                              \
  do {                                                                                          \
    int must_status_ = (call);                                                                  \
    if (must_status_ != HDGCL_SUCCESS) {                                                        \
      fprintf(stderr, "rank %d: %s:%d: %s: %s\n", rank, __FILE__, __LINE__, #call,              \
              hdgcl_last_error());                                                              \
      MPI_Abort(MPI_COMM_WORLD, 1);                                                             \
    }                                                                                           \
  } while (0)

static void compare_solver(hdgcl_context ctx, const char *problem, const char *spec,
                           const char *order, const char *precond, const char *solver) {
  char what[160];
  snprintf(what, sizeof what, "%s %s p=%s %s %s%s%s%s%s, %d ranks", problem, spec, order, solver,
           precond, extra_key ? " " : "", extra_key ? extra_key : "", extra_key ? "=" : "",
           extra_key ? extra_value : "", size);
  solved ser = solve_with(ctx, spec, "problem", problem, "order", order, "precond", precond, "rtol",
                          "1e-13", "solver", solver, extra_key, extra_value, NULL);
  if (ser.status) MPI_Abort(MPI_COMM_WORLD, 1);
  hdgcl_options opts;
  MUST(hdgcl_options_create(&opts));
  MUST(hdgcl_options_set(opts, "problem", problem));
  MUST(hdgcl_options_set(opts, "order", order));
  MUST(hdgcl_options_set(opts, "precond", precond));
  MUST(hdgcl_options_set(opts, "rtol", "1e-13"));
  MUST(hdgcl_options_set(opts, "solver", solver));
  if (extra_key) MUST(hdgcl_options_set(opts, extra_key, extra_value));
  hdgcl_solver s = NULL;
  MUST(hdgcl_solver_create_mpi(ctx, ser.mesh, opts, MPI_COMM_WORLD, &s));
  MUST(hdgcl_solver_solve(s));
  const hdgcl_result *r, *sr = ser.result;
  MUST(hdgcl_solver_result(s, &r));
  /* elasticity: nc = dim components, and a pressure error and norm */
  size_t nc = strncmp(problem, "elasticity", 10) == 0 ? (size_t)ser.mesh->dim : 1;
  double pairs[7][2] = {{r->l2_u, sr->l2_u},     {r->l2_q, sr->l2_q},   {r->l2_ustar, sr->l2_ustar},
                        {r->norm_u, sr->norm_u}, {r->linf_u, sr->linf_u}, {r->l2_p, sr->l2_p},
                        {r->norm_p, sr->norm_p}};
  for (int i = 0; i < (nc > 1 ? 7 : 5); i++) /* elasticity: l2_p, norm_p too */
    CHECK_MSG(fabs(pairs[i][0] - pairs[i][1]) <= TOL * fabs(pairs[i][1]),
              "%s: error norm %d: %.15e distributed, %.15e serial", what, i, pairs[i][0], pairs[i][1]);
  /* iteration counts close to the serial ones (equal but for Chebyshev, whose
   * Lanczos start vector differs: docs/mpi.md) */
  CHECK_MSG(abs(r->iterations - sr->iterations) <= 2 + sr->iterations / 10,
            "%s: %d iterations distributed, %d serially", what, r->iterations, sr->iterations);
  CHECK_MSG(r->num_elements == sr->num_elements && r->trace_dofs == sr->trace_dofs,
            "%s: %d elements, %ld trace DOFs; serially %d, %ld", what, (int)r->num_elements,
            (long)r->trace_dofs, (int)sr->num_elements, (long)sr->trace_dofs);
  /* u, q, u* of the rank's elements against the serial solve's */
  const int32_t *elems;
  int32_t ne;
  MUST(hdgcl_solver_part_elements(s, &elems, &ne));
  const double *u, *q, *us, *su, *sq, *sus;
  MUST(hdgcl_solver_solution(s, &u, &q, &us, NULL));
  MUST(hdgcl_solver_solution(ser.solver, &su, &sq, &sus, NULL));
  /* per element: u [nc][np], q (elasticity: H) [nc][dim][np], u* [nc][np1] */
  size_t np = (size_t)(r->element_dofs / r->num_elements /
                       (nc * (1 + ser.mesh->dim) + (nc > 1 ? 1 : 0)));
  size_t dim = (size_t)ser.mesh->dim, np1 = ustar_per_element(&ser) * nc;
  np *= nc; /* u's values per element; q's are dim times as many */
  double du = 0, dq = 0, ds = 0, mu = 0, mq = 0, ms = 0;
  for (int32_t i = 0; i < ne; i++) {
    size_t e = (size_t)elems[i];
    for (size_t k = 0; k < np; k++) {
      du = fmax(du, fabs(u[i * np + k] - su[e * np + k]));
      mu = fmax(mu, fabs(su[e * np + k]));
    }
    for (size_t k = 0; k < dim * np; k++) {
      dq = fmax(dq, fabs(q[i * dim * np + k] - sq[e * dim * np + k]));
      mq = fmax(mq, fabs(sq[e * dim * np + k]));
    }
    for (size_t k = 0; k < np1; k++) {
      ds = fmax(ds, fabs(us[i * np1 + k] - sus[e * np1 + k]));
      ms = fmax(ms, fabs(sus[e * np1 + k]));
    }
  }
  CHECK_MSG(du <= TOL * mu && dq <= TOL * mq && ds <= TOL * ms,
            "%s, rank %d: u, q, u* differ from the serial solve's by %.2e, %.2e, %.2e relative",
            what, rank, du / mu, dq / mq, ds / ms);
  if (rank == 0)
    printf("%-40s iterations %d (serial %d), L2(u) %.15e\n", what, r->iterations, sr->iterations,
           r->l2_u);
  hdgcl_solver_destroy(&s);
  hdgcl_options_destroy(&opts);
  solved_destroy(&ser);
}

/* The overlapped product (HDGCL_MPI_OVERLAP=1) against the plain (default)
 * one: the same iterations and the same u, q, u* bit for bit, in each
 * storage of the matrix (its row kernel repeats each serial kernel's sum). */
static void compare_overlap(hdgcl_context ctx, const char *problem, const char *spec,
                            const char *order, const char *precond, const char *solver,
                            const char *format) {
  char what[160];
  snprintf(what, sizeof what, "overlap: %s %s p=%s %s %s %s, %d ranks", problem, spec, order,
           solver, precond, format, size);
  hdgcl_mesh *mesh;
  MUST(hdgcl_mesh_create_from_spec(spec, &mesh));
  hdgcl_options opts;
  MUST(hdgcl_options_create(&opts));
  const char *kv[][2] = {{"problem", problem}, {"order", order},   {"precond", precond},
                         {"rtol", "1e-12"},    {"solver", solver}, {"format", format}};
  for (size_t i = 0; i < sizeof kv / sizeof *kv; i++) MUST(hdgcl_options_set(opts, kv[i][0], kv[i][1]));
  hdgcl_solver s = NULL;
  MUST(hdgcl_solver_create_mpi(ctx, mesh, opts, MPI_COMM_WORLD, &s));
  double *copy[2] = {NULL, NULL};
  size_t len[2] = {0, 0};
  int iters[2] = {0, 0}, overlap[2] = {-1, -1};
  for (int pass = 0; pass < 2; pass++) {
    setenv("HDGCL_MPI_OVERLAP", pass ? "1" : "0", 1);
    MUST(hdgcl_solver_solve(s));
    const hdgcl_result *r;
    MUST(hdgcl_solver_result(s, &r));
    iters[pass] = r->iterations;
    double hidden;
    MUST(hdgcl_solver_overlap_figures(s, &overlap[pass], &hidden));
    const double *f[3];
    MUST(hdgcl_solver_solution(s, &f[0], &f[1], &f[2], NULL));
    const int32_t *elems;
    int32_t nel;
    MUST(hdgcl_solver_part_elements(s, &elems, &nel));
    size_t np = (size_t)(r->element_dofs / r->num_elements / (1 + mesh->dim));
    size_t n[2] = {(size_t)nel * np, (size_t)nel * np * (size_t)mesh->dim}; /* u, q */
    for (int k = 0; k < 2; k++) {
      if (pass == 0) {
        copy[k] = malloc(n[k] * sizeof(double) + 1);
        memcpy(copy[k], f[k], n[k] * sizeof(double));
        len[k] = n[k];
      } else {
        CHECK_MSG(len[k] == n[k] && memcmp(copy[k], f[k], n[k] * sizeof(double)) == 0,
                  "%s, rank %d: field %d differs between the overlapped and the plain product",
                  what, rank, k);
      }
    }
  }
  unsetenv("HDGCL_MPI_OVERLAP");
  CHECK_MSG(iters[0] == iters[1], "%s: %d iterations plain, %d overlapped", what, iters[0], iters[1]);
  CHECK_MSG(overlap[0] == 0 && overlap[1] == (size > 1), "%s: overlap flags %d, %d", what,
            overlap[0], overlap[1]);
  if (rank == 0) printf("%-40s iterations %d, u and q equal bit for bit\n", what, iters[1]);
  for (int k = 0; k < 2; k++) free(copy[k]);
  hdgcl_solver_destroy(&s);
  hdgcl_options_destroy(&opts);
  hdgcl_mesh_destroy(&mesh);
}

static void compare_problem(hdgcl_context ctx, const char *problem, const char *spec,
                            const char *order, const char *precond) {
  compare_solver(ctx, problem, spec, order, precond, "cg");
}

static void compare(hdgcl_context ctx, const char *spec, const char *order, const char *precond) {
  compare_problem(ctx, "helmholtz-sin", spec, order, precond);
}

int main(int argc, char **argv) {
  NOT_OUR_LEAKS_BEGIN(); /* Open MPI's own (core/not_our_leaks.h) */
  MPI_Init(&argc, &argv);
  NOT_OUR_LEAKS_END();
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  hdgcl_context ctx = test_device();
  compare(ctx, "square:6", "2", "block-jacobi");
  compare(ctx, "square:5,diag=alt", "3", "jacobi");
  compare(ctx, "square:4", "1", "none");
  compare(ctx, "quad:4,perturb=0.2,seed=1", "2", "block-jacobi");
  compare(ctx, "cube:2", "2", "block-jacobi");
  compare(ctx, "hex:2", "1", "block-jacobi");
  /* Neumann faces on the parts' boundaries; a coefficient jump across elements */
  compare_problem(ctx, "poisson-mixed", "square:6", "2", "block-jacobi");
  compare_problem(ctx, "kappa-jump", "square:6", "2", "block-jacobi");
  /* GMRES (restarted: more than 30 iterations), so convection-diffusion, and on a symmetric problem */
  compare_solver(ctx, "convection-diffusion", "square:6", "2", "block-jacobi", "gmres");
  compare_solver(ctx, "convection-diffusion", "cube:2", "2", "jacobi", "gmres");
  compare_solver(ctx, "helmholtz-sin", "square:5", "2", "none", "gmres");
  /* Chebyshev (interval estimated globally): inner block-Jacobi and Jacobi, CG and GMRES */
  compare(ctx, "square:6", "2", "chebyshev");
  extra_key = "cheb-inner", extra_value = "jacobi";
  compare(ctx, "cube:2", "2", "chebyshev");
  extra_key = "cheb-degree", extra_value = "3";
  compare_solver(ctx, "helmholtz-sin", "square:5", "2", "chebyshev", "gmres");
  extra_key = "cheb-mixed", extra_value = "true"; /* single-precision products inside */
  compare(ctx, "square:6", "3", "chebyshev");
  extra_key = extra_value = NULL;
  /* ASM (element patches: each on one rank, the cut faces' diagonal blocks
   * summed, the shares of the cut rows summed after the apply) */
  compare(ctx, "square:6", "2", "asm");
  compare(ctx, "hex:2", "1", "asm");
  compare(ctx, "cube:2", "2", "asm");
  compare_solver(ctx, "convection-diffusion", "square:6", "2", "asm", "gmres");
  /* elasticity (vector: blocks of dim components), Dirichlet and traction faces */
  compare_problem(ctx, "elasticity", "square:5", "2", "block-jacobi");
  compare_problem(ctx, "elasticity", "cube:2", "1", "chebyshev");
  compare_solver(ctx, "elasticity-mixed", "square:5", "2", "asm", "gmres");
  compare_problem(ctx, "elasticity-bimaterial", "quad:4", "2", "block-jacobi");
  /* the overlapped product equals the plain one bit for bit, each storage */
  compare_overlap(ctx, "helmholtz-sin", "square:6", "2", "block-jacobi", "cg", "bell");
  compare_overlap(ctx, "helmholtz-sin", "square:6", "2", "jacobi", "cg", "bell-i");
  compare_overlap(ctx, "helmholtz-sin", "cube:2", "1", "block-jacobi", "cg", "ell");
  compare_overlap(ctx, "convection-diffusion", "square:6", "2", "block-jacobi", "gmres", "bell");
  /* as many ranks as elements: one element each (square:1 has 2) */
  if (size <= 2) compare(ctx, "square:1", "2", "block-jacobi");
  /* more ranks than elements: a clear error on every rank */
  if (size > 2) {
    hdgcl_mesh *mesh;
    hdgcl_solver s = NULL;
    MUST(hdgcl_mesh_create_from_spec("square:1", &mesh));
    CHECK_FAILS(hdgcl_solver_create_mpi(ctx, mesh, NULL, MPI_COMM_WORLD, &s), HDGCL_ERROR_ARGUMENT);
    CHECK_MSG(strstr(hdgcl_last_error(), "each rank needs at least one element"),
              "unexpected message: %s", hdgcl_last_error());
    CHECK(s == NULL);
    hdgcl_mesh_destroy(&mesh);
  }
  hdgcl_context_destroy(&ctx);
  int failures = 0;
  MPI_Allreduce(&check_failures, &failures, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  NOT_OUR_LEAKS_BEGIN();
  MPI_Finalize();
  NOT_OUR_LEAKS_END();
  if (rank == 0 && failures) fprintf(stderr, "%d checks failed\n", failures);
  return failures ? 1 : 0;
}
