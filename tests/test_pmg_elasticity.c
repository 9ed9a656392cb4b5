/* p-multigrid on the vector problems (host/solvers/precond_pmg.c; face blocks of
 * nfb = ncomp Nf values, component-major c Nf + m; docs/elasticity.md
 * section 12, "p-multigrid for the vector problems"):
 *  - the block maps send coarse mode k of component c to the equal fine
 *    function of component c, and no fine entry twice (segment, triangle,
 *    quadrilateral faces, 2 and 3 components, degrees 0..5);
 *  - CG + pmg matches the dense direct solve of the assembled trace system
 *    to 1e-8 on triangles and tetrahedra at p = 1..3 (elasticity, and
 *    elasticity-incompressible at lambda = 1e4), with coarsest degree 0 and
 *    1, and on curved quadrilaterals and hexahedra at p = 2; GMRES + pmg on
 *    the nonsymmetric traction problem elasticity-mixed too;
 *  - it does its job: elasticity-incompressible on square:16 p = 3 at
 *    lambda = 1 takes at most 30 CG iterations with pmg and at most a
 *    quarter of block-Jacobi's. */
#include "fem/basis.h"
#include "direct_solve.h"
#include "solvers/precond.h"

static void block_maps(void) {
  const hdgcl_shape shapes[] = {HDGCL_SHAPE_SEGMENT, HDGCL_SHAPE_TRIANGLE,
                                HDGCL_SHAPE_QUADRILATERAL};
  const double pts[] = {-0.5, -0.5, -0.8, 0.3, 0.2, -0.7, -0.3, -0.1, 0.6, 0.1};
  for (int si = 0; si < 3; si++)
    for (int ncomp = 2; ncomp <= 3; ncomp++)
      for (int pf = 1; pf <= 5; pf++)
        for (int pc = 0; pc < pf; pc++) {
          int nff = hdgcl_basis_size(shapes[si], pf), nfc = hdgcl_basis_size(shapes[si], pc);
          int32_t map[3 * 64];
          int hit[3 * 64] = {0};
          double vf[5 * 64], vc[5 * 64];
          CHECK_OK(precond_pmg_block_map(shapes[si], pf, pc, ncomp, map));
          CHECK_OK(hdgcl_basis_eval(shapes[si], pf, 5, pts, vf, NULL));
          CHECK_OK(hdgcl_basis_eval(shapes[si], pc, 5, pts, vc, NULL));
          int bad = 0;
          double d = 0.0;
          for (int c = 0; c < ncomp; c++)
            for (int k = 0; k < nfc; k++) {
              int f = map[c * nfc + k];
              if (f < c * nff || f >= (c + 1) * nff || hit[f]++) {
                bad++;
                continue;
              }
              for (int q = 0; q < 5; q++)
                d = fmax(d, fabs(vc[q * nfc + k] - vf[q * nff + f - c * nff]));
            }
          CHECK_MSG(bad == 0 && d < 1e-12,
                    "shape %d, %d components, degree %d -> %d: %d entries outside their "
                    "component or repeated, functions differ by %.2e",
                    (int)shapes[si], ncomp, pf, pc, bad, d);
        }
}

/* CG + pmg (GMRES for the traction problem), coarsest degree 0 and 1,
 * against the direct solve. */
static void against_direct(hdgcl_context ctx, const char *mesh, const char *problem,
                           const char *order) {
  const char *lambda = strcmp(problem, "elasticity-incompressible") == 0 ? "1e4" : "1";
  const char *solver = strcmp(problem, "elasticity-mixed") == 0 ? "gmres" : "cg";
  solved base = solve_with(ctx, mesh, "problem", problem, "order", order, "lambda", lambda,
                           "solver", solver, NULL);
  CHECK_MSG(base.status == 0, "%s %s p=%s", mesh, problem, order);
  if (base.status) return;
  int n;
  double *x = direct_solution(&base, &n);
  CHECK(base.solver->disc.ref.sz.ncomp > 1 &&
        n == base.solver->disc.num.num_unknown_faces * base.solver->disc.ref.sz.nfb);
  for (int coarse = 0; coarse < 2; coarse++) {
    solved s = solve_with(ctx, mesh, "problem", problem, "order", order, "lambda", lambda,
                          "solver", solver, "precond", "pmg", "pmg-coarse", coarse ? "1" : "0",
                          "rtol", "1e-12", "maxit", "5000", NULL);
    CHECK_MSG(s.status == 0, "pmg (coarse %d) on %s %s p=%s", coarse, mesh, problem, order);
    if (s.status == 0) {
      double d = trace_difference(&s, x, n);
      printf("%-5s pmg coarse %d %-30s %-25s p=%s: %3d iterations, |x - x_direct| %.2e\n", solver,
             coarse, mesh, problem, order, s.result->iterations, d);
      CHECK_MSG(s.result->residual <= 1e-12, "residual %.3e", s.result->residual);
      CHECK_MSG(d < 1e-8, "pmg on %s %s p=%s: trace differs from the direct solve by %.3e", mesh,
                problem, order, d);
    }
    solved_destroy(&s);
  }
  free(x);
  solved_destroy(&base);
}

static int iterations(hdgcl_context ctx, const char *mesh, const char *order, const char *pc) {
  solved s = solve_with(ctx, mesh, "problem", "elasticity-incompressible", "lambda", "1", "order",
                        order, "precond", pc, "rtol", "1e-10", "maxit", "5000", NULL);
  int it = s.status ? -1 : s.result->iterations;
  solved_destroy(&s);
  return it;
}

int main(void) {
  block_maps();
  hdgcl_context ctx = test_device();
  const char *tri = "square:3,perturb=0.2,seed=3", *tet = "cube:1x1x2,perturb=0.15,seed=5";
  const char *const orders[] = {"1", "2", "3"};
  for (int o = 0; o < 3; o++) {
    against_direct(ctx, tri, "elasticity", orders[o]);
    against_direct(ctx, tri, "elasticity-incompressible", orders[o]);
    against_direct(ctx, tet, "elasticity", orders[o]);
    against_direct(ctx, tet, "elasticity-incompressible", orders[o]);
  }
  against_direct(ctx, "quad:3,distort=0.1", "elasticity", "2");
  against_direct(ctx, "hex:2", "elasticity", "2");
  against_direct(ctx, tri, "elasticity-mixed", "2");
  int bj = iterations(ctx, "square:16", "3", "block-jacobi");
  int mg = iterations(ctx, "square:16", "3", "pmg");
  printf("CG elasticity-incompressible square:16 p=3 lambda=1: block-jacobi %d, pmg %d\n", bj, mg);
  CHECK_MSG(bj > 0 && mg > 0 && mg <= 30 && 4 * mg <= bj,
            "square:16 p=3: pmg %d CG iterations, block-jacobi %d", mg, bj);
  hdgcl_context_destroy(&ctx);
  CHECK_DONE();
}
