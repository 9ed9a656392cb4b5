/* p-multigrid preconditioner (host/solvers/precond_pmg.c, cl/solvers/precond_pmg.cl):
 *  - the face mode maps of the transfers pick the fine functions equal to
 *    the coarse ones (segment, triangle, quadrilateral faces, degrees 0..7);
 *  - CG and GMRES with pmg converge and give the dense direct solution on
 *    triangles, tetrahedra and hexahedra at orders 1..4 (helmholtz-sin) and
 *    on quadrilaterals with Neumann faces (poisson-mixed), with either
 *    coarsest degree;
 *  - block-ELL and scalar ELL give the same iterations, and a repeated solve
 *    is bitwise identical;
 *  - it does its job: on square:16 p = 4 at most half the CG iterations of
 *    block-Jacobi, and from square:8 to square:16 at most 1.5 x the
 *    iterations (with BoomerAMG on the coarsest level; the device fallback
 *    is not h-independent, so there only the first check);
 *  - nonsymmetric convection-diffusion: GMRES and FGMRES with pmg match the
 *    dense direct solve on triangles (p = 1..3) and quadrilaterals (p = 2),
 *    and the GMRES iterations stay bounded from square:8 to square:32 at
 *    p = 1..3 (at most 20, at most 5 more on square:32 than on
 *    square:8, and at most a quarter of block-Jacobi's on square:32 p = 1);
 *    without hypre the coarse GMRES makes the cycle nonlinear, so plain
 *    GMRES must have switched to the flexible form itself (same iterations
 *    and trace as --flexible true);
 *  - bad option values are rejected with a message naming them. */
#include "fem/basis.h"
#include "direct_solve.h"
#include "solvers/precond.h"

static void mode_maps(void) {
  const hdgcl_shape shapes[] = {HDGCL_SHAPE_SEGMENT, HDGCL_SHAPE_TRIANGLE,
                                HDGCL_SHAPE_QUADRILATERAL};
  const double pts[] = {-0.5, -0.5, -0.8, 0.3, 0.2, -0.7, -0.3, -0.1, 0.6, 0.1};
  const int npts = 5;
  for (int si = 0; si < 3; si++) {
    int dim = si == 0 ? 1 : 2;
    double p1[10];
    for (int i = 0; i < npts * dim; i++) p1[i] = pts[i]; /* first npts*dim coordinates */
    for (int pf = 1; pf <= 7; pf++)
      for (int pc = 0; pc < pf; pc++) {
        int nff = hdgcl_basis_size(shapes[si], pf), nfc = hdgcl_basis_size(shapes[si], pc);
        int32_t map[64];
        double vf[5 * 64], vc[5 * 64];
        CHECK_OK(precond_pmg_mode_map(shapes[si], pf, pc, map, nfc));
        CHECK_OK(hdgcl_basis_eval(shapes[si], pf, npts, p1, vf, NULL));
        CHECK_OK(hdgcl_basis_eval(shapes[si], pc, npts, p1, vc, NULL));
        double d = 0.0;
        for (int q = 0; q < npts; q++)
          for (int k = 0; k < nfc; k++) d = fmax(d, fabs(vc[q * nfc + k] - vf[q * nff + map[k]]));
        CHECK_MSG(d < 1e-12, "shape %d, degree %d -> %d: coarse and mapped fine functions differ by %.2e",
                  (int)shapes[si], pf, pc, d);
      }
  }
}

/* pmg with CG and GMRES (and coarsest degree 0 with CG) against the direct solve. */
static void against_direct(hdgcl_context ctx, const char *mesh, const char *problem,
                           const char *order) {
  solved base = solve_with(ctx, mesh, "problem", problem, "order", order, NULL);
  CHECK_MSG(base.status == 0, "%s p=%s", mesh, order);
  if (base.status) return;
  int n;
  double *x = direct_solution(&base, &n);
  const char *const runs[3][2] = {{"cg", "1"}, {"gmres", "1"}, {"cg", "0"}};
  for (int r = 0; r < 3; r++) {
    solved s = solve_with(ctx, mesh, "problem", problem, "order", order, "solver", runs[r][0],
                          "precond", "pmg",
                          "pmg-coarse", runs[r][1], "rtol", "1e-12", NULL);
    CHECK_MSG(s.status == 0, "%s + pmg (coarse %s) on %s p=%s", runs[r][0], runs[r][1], mesh,
              order);
    if (s.status == 0) {
      double d = trace_difference(&s, x, n);
      printf("%-5s pmg coarse %s %-9s p=%s: %3d iterations, residual %.2e, |x - x_direct| %.2e\n",
             runs[r][0], runs[r][1], mesh, order, s.result->iterations, s.result->residual, d);
      CHECK_MSG(s.result->residual <= 1e-12, "residual %.3e", s.result->residual);
      CHECK_MSG(d < 1e-8, "%s + pmg on %s p=%s: trace differs from the direct solve by %.3e",
                runs[r][0], mesh, order, d);
      CHECK(s.result->iterations > 0 && s.result->precond_seconds > 0);
    }
    solved_destroy(&s);
  }
  free(x);
  solved_destroy(&base);
}

/* quad:3 poisson-mixed p = 2 with CG and GMRES: bell and ell give the same
 * iterations; a repeated solve gives the same trace bit for bit. */
static void layouts_and_repeat(hdgcl_context ctx) {
  const char *const solvers[] = {"cg", "gmres"};
  for (int si = 0; si < 2; si++) {
    int it[3] = {-1, -1, -1};
    const double *t[3] = {NULL, NULL, NULL};
    solved s[3];
    const char *const formats[3] = {"bell", "bell", "ell"};
    for (int k = 0; k < 3; k++) {
      s[k] = solve_with(ctx, "quad:3", "problem", "poisson-mixed", "order", "2", "solver",
                        solvers[si], "precond", "pmg", "format", formats[k], NULL);
      if (s[k].status == 0) {
        it[k] = s[k].result->iterations;
        CHECK_OK(hdgcl_solver_solution(s[k].solver, NULL, NULL, NULL, &t[k]));
      }
    }
    size_t n = s[0].status ? 0 : (size_t)s[0].result->num_faces * 3; /* p = 2 edges: 3 modes */
    CHECK_MSG(it[0] > 0 && it[0] == it[1] && t[0] && t[1] && memcmp(t[0], t[1], n * 8) == 0,
              "%s + pmg: repeated solve differs (%d, %d iterations)", solvers[si], it[0], it[1]);
    CHECK_MSG(it[2] > 0 && abs(it[0] - it[2]) <= 1, "%s + pmg: %d iterations in bell, %d in ell",
              solvers[si], it[0], it[2]);
    for (int k = 0; k < 3; k++) solved_destroy(&s[k]);
  }
}

/* Convection-diffusion: GMRES and FGMRES(20) with pmg against the direct solve. */
static void nonsymmetric_direct(hdgcl_context ctx, const char *mesh, const char *order) {
  const char *problem = "convection-diffusion";
  solved base = solve_with(ctx, mesh, "problem", problem, "order", order, NULL);
  CHECK_MSG(base.status == 0, "%s %s p=%s", mesh, problem, order);
  if (base.status) return;
  int n;
  double *x = direct_solution(&base, &n);
  int it[2] = {-1, -1};
  for (int flex = 0; flex < 2; flex++) {
    solved s = solve_with(ctx, mesh, "problem", problem, "order", order, "solver", "gmres",
                          "precond", "pmg", "flexible", flex ? "true" : "false", "restart",
                          flex ? "20" : "30", "rtol", "1e-12", NULL);
    CHECK_MSG(s.status == 0, "%sgmres + pmg on %s %s p=%s", flex ? "f" : "", problem, mesh, order);
    if (s.status == 0) {
      double d = trace_difference(&s, x, n);
      it[flex] = s.result->iterations;
      printf("%-6s pmg %-28s p=%s convection-diffusion: %3d iterations, |x - x_direct| %.2e\n",
             flex ? "fgmres" : "gmres", mesh, order, s.result->iterations, d);
      CHECK_MSG(s.result->residual <= 1e-12, "residual %.3e", s.result->residual);
      CHECK_MSG(d < 1e-8, "%sgmres + pmg on %s p=%s: trace differs from the direct solve by %.3e",
                flex ? "f" : "", mesh, order, d);
    }
    solved_destroy(&s);
  }
#ifndef HDGCL_WITH_HYPRE
  /* restart 20 vs 30 changes nothing up to 20 iterations: FGMRES both times */
  CHECK_MSG(it[0] > 0 && it[0] <= 20, "gmres + pmg: %d iterations", it[0]);
  if (it[0] > 0 && it[0] <= 20)
    CHECK_MSG(it[0] == it[1], "gmres + pmg (%d iterations) is not FGMRES (%d) without hypre", it[0],
              it[1]);
#endif
  (void)it;
  free(x);
  solved_destroy(&base);
}

static int cd_iterations(hdgcl_context ctx, const char *mesh, const char *order, const char *pc) {
  solved s = solve_with(ctx, mesh, "problem", "convection-diffusion", "order", order, "precond",
                        pc, "rtol", "1e-10", NULL);
  int it = s.status ? -1 : s.result->iterations;
  solved_destroy(&s);
  return it;
}

/* GMRES + pmg iterations on convection-diffusion bounded in h and p. */
static void nonsymmetric_scaling(hdgcl_context ctx) {
  const char *const orders[] = {"1", "2", "3"};
  for (int o = 0; o < 3; o++) {
    int i8 = cd_iterations(ctx, "square:8", orders[o], "pmg");
    int i16 = cd_iterations(ctx, "square:16", orders[o], "pmg");
    int i32 = cd_iterations(ctx, "square:32", orders[o], "pmg");
    printf("GMRES + pmg convection-diffusion p=%s: square:8 %d, square:16 %d, square:32 %d\n",
           orders[o], i8, i16, i32);
    CHECK_MSG(i8 > 0 && i16 > 0 && i32 > 0 && i8 <= 20 && i16 <= 20 && i32 <= 20,
              "convection-diffusion p=%s: pmg took %d, %d, %d iterations (at most 20 expected)",
              orders[o], i8, i16, i32);
    CHECK_MSG(i32 <= i8 + 5, "convection-diffusion p=%s: pmg iterations grow from %d to %d",
              orders[o], i8, i32);
  }
  int bj = cd_iterations(ctx, "square:32", "1", "block-jacobi");
  int mg = cd_iterations(ctx, "square:32", "1", "pmg");
  printf("GMRES convection-diffusion square:32 p=1: block-jacobi %d, pmg %d\n", bj, mg);
  CHECK_MSG(bj > 0 && mg > 0 && 4 * mg <= bj,
            "convection-diffusion square:32 p=1: pmg %d iterations, block-jacobi %d", mg, bj);
}

static int iterations(hdgcl_context ctx, const char *mesh, const char *pc) {
  solved s = solve_with(ctx, mesh, "order", "4", "precond", pc, "rtol", "1e-10", NULL);
  int it = s.status ? -1 : s.result->iterations;
  solved_destroy(&s);
  return it;
}

int main(void) {
  mode_maps();
  hdgcl_context ctx = test_device();
  const char *const orders[] = {"1", "2", "3", "4"};
  for (int o = 0; o < 4; o++) {
    against_direct(ctx, "square:4", "helmholtz-sin", orders[o]);
    against_direct(ctx, "cube:2", "helmholtz-sin", orders[o]);
    against_direct(ctx, "hex:2", "helmholtz-sin", orders[o]);
  }
  against_direct(ctx, "quad:3", "poisson-mixed", "2");
  layouts_and_repeat(ctx);

  int bj = iterations(ctx, "square:16", "block-jacobi");
  int mg16 = iterations(ctx, "square:16", "pmg");
  int mg8 = iterations(ctx, "square:8", "pmg");
  printf("CG p=4: block-jacobi square:16 %d, pmg square:8 %d, square:16 %d\n", bj, mg8, mg16);
  CHECK_MSG(bj > 0 && mg16 > 0 && 2 * mg16 <= bj,
            "pmg: %d iterations on square:16 p=4, not at most half of block-jacobi's %d", mg16, bj);
#ifdef HDGCL_WITH_HYPRE
  CHECK_MSG(mg8 > 0 && 2 * mg16 <= 3 * mg8,
            "pmg: %d iterations on square:16 p=4, more than 1.5 x the %d on square:8", mg16, mg8);
#endif

  nonsymmetric_direct(ctx, "square:4,perturb=0.2,seed=3", "1");
  nonsymmetric_direct(ctx, "square:4,perturb=0.2,seed=3", "2");
  nonsymmetric_direct(ctx, "square:4,perturb=0.2,seed=3", "3");
  nonsymmetric_direct(ctx, "quad:3", "2");
  nonsymmetric_scaling(ctx);

  check_rejected(ctx, "--pmg-smooth 0", "precond", "pmg", "pmg-smooth", "0", NULL);
  check_rejected(ctx, "--pmg-smooth 101", "precond", "pmg", "pmg-smooth", "101", NULL);
  check_rejected(ctx, "--pmg-smooth two", "precond", "pmg", "pmg-smooth", "two", NULL);
  check_rejected(ctx, "--pmg-coarse 2", "precond", "pmg", "pmg-coarse", "2", NULL);
  check_rejected(ctx, "--pmg-coarse -1", "precond", "pmg", "pmg-coarse", "-1", NULL);
  hdgcl_context_destroy(&ctx);
  CHECK_DONE();
}
