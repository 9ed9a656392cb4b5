/* Krylov solvers and preconditioners on the device (host/krylov_*.c,
 * host/precond_*.c): every solver x preconditioner pair converges and gives
 * the trace solution of a dense direct solve (LU with partial pivoting on the
 * host, of the assembled matrix read back) on triangles, quadrilaterals with
 * Neumann faces and tetrahedra; FGMRES matches GMRES; block-Jacobi,
 * Chebyshev and additive Schwarz need fewer CG iterations than point-Jacobi
 * at p = 3; additive Schwarz is exact (one iteration) when one element's
 * patch is the whole system, in both matrix layouts; one Chebyshev step is a
 * scaled block-Jacobi (same CG iterations); block-ELL and scalar ELL give the
 * same iterations; solves are bitwise reproducible; GMRES and FGMRES with
 * every preconditioner that does not need symmetry solve the nonsymmetric
 * convection-diffusion system (direct solve again), and the reference path's
 * GMRES gives its CG's solution; bad option values (and CG or Chebyshev on
 * a nonsymmetric problem) are rejected with a message naming them (pmg on
 * the nonsymmetric problem: test_pmg.c). */
#include "direct_solve.h"

static const char *const solvers[] = {"cg", "gmres"};
/* pmg (which reaches MPI through hypre) has the same checks in test_pmg.c,
 * which runs with the full malloc stacks its LeakSanitizer suppressions need. */
static const char *const preconds[] = {"none", "jacobi", "block-jacobi", "chebyshev", "asm"};
#define NPRECOND 5

/* Every solver x preconditioner on one case against the direct solve. */
static void all_pairs(hdgcl_context ctx, const char *mesh, const char *problem, const char *order) {
  solved base = solve_with(ctx, mesh, "problem", problem, "order", order, NULL);
  CHECK_MSG(base.status == 0, "%s %s p=%s", mesh, problem, order);
  if (base.status) return;
  int n;
  double *x = direct_solution(&base, &n);
  for (int si = 0; si < 2; si++)
    for (int pi = 0; pi < NPRECOND; pi++) {
      solved s = solve_with(ctx, mesh, "problem", problem, "order", order, "solver", solvers[si],
                            "precond", preconds[pi], "rtol", "1e-12", NULL);
      CHECK_MSG(s.status == 0, "%s + %s on %s p=%s", solvers[si], preconds[pi], mesh, order);
      if (s.status == 0) {
        double d = trace_difference(&s, x, n);
        printf("%-6s %-13s %-10s p=%s: %4d iterations, residual %.2e, |x - x_direct| %.2e\n",
               solvers[si], preconds[pi], mesh, order, s.result->iterations, s.result->residual, d);
        CHECK_MSG(s.result->residual <= 1e-12, "%s + %s: residual %.3e", solvers[si],
                  preconds[pi], s.result->residual);
        CHECK_MSG(d < 1e-8, "%s + %s on %s p=%s: trace differs from the direct solve by %.3e",
                  solvers[si], preconds[pi], mesh, order, d);
        CHECK(s.result->iterations > 0 && s.result->precond_seconds >= 0);
      }
      solved_destroy(&s);
    }
  /* FGMRES (forced) gives the same solution as GMRES. */
  solved f = solve_with(ctx, mesh, "problem", problem, "order", order, "solver", "gmres",
                        "precond", "chebyshev", "flexible", "true", "restart", "8", NULL);
  CHECK_MSG(f.status == 0, "FGMRES(8) + chebyshev on %s", mesh);
  if (f.status == 0) {
    double d = trace_difference(&f, x, n);
    printf("fgmres(8) chebyshev  %-10s p=%s: %4d iterations, |x - x_direct| %.2e\n", mesh, order,
           f.result->iterations, d);
    CHECK_MSG(d < 1e-8, "FGMRES on %s: trace differs by %.3e", mesh, d);
  }
  solved_destroy(&f);
  free(x);
  solved_destroy(&base);
}

/* Convection-diffusion (nonsymmetric): GMRES with none, jacobi, block-jacobi
 * and asm, and FGMRES(8) with asm, against the direct solve. */
static void nonsymmetric_pairs(hdgcl_context ctx, const char *mesh, const char *order) {
  const char *problem = "convection-diffusion";
  solved base = solve_with(ctx, mesh, "problem", problem, "order", order, NULL);
  CHECK_MSG(base.status == 0, "%s %s p=%s", mesh, problem, order);
  if (base.status) return;
  CHECK_MSG(strcmp(base.result->solver, "gmres") == 0, "default solver for %s: %s", problem,
            base.result->solver);
  int n;
  double *x = direct_solution(&base, &n);
  for (int pi = 0; pi <= 4; pi++) {
    if (pi == 3) continue; /* chebyshev: SPD only */
    for (int flex = 0; flex < 2; flex++) {
      if (flex && pi != 4) continue;
      solved s = solve_with(ctx, mesh, "problem", problem, "order", order, "precond", preconds[pi],
                            "rtol", "1e-12", "flexible", flex ? "true" : "false", "restart",
                            flex ? "8" : "30", NULL);
      CHECK_MSG(s.status == 0, "%sgmres + %s on %s p=%s", flex ? "f" : "", preconds[pi], mesh, order);
      if (s.status == 0) {
        double d = trace_difference(&s, x, n);
        printf("%-6s %-13s %-10s p=%s convection-diffusion: %4d iterations, |x - x_direct| %.2e\n",
               flex ? "fgmres" : "gmres", preconds[pi], mesh, order, s.result->iterations, d);
        CHECK_MSG(s.result->residual <= 1e-12, "%s: residual %.3e", preconds[pi], s.result->residual);
        CHECK_MSG(d < 1e-8, "gmres + %s on %s p=%s: trace differs from the direct solve by %.3e",
                  preconds[pi], mesh, order, d);
      }
      solved_destroy(&s);
    }
  }
  free(x);
  solved_destroy(&base);
}

static int iterations(hdgcl_context ctx, const char *solver, const char *precond_name) {
  solved s = solve_with(ctx, "square:6", "order", "3", "solver", solver, "precond", precond_name,
                        "rtol", "1e-10", NULL);
  int it = s.status ? -1 : s.result->iterations;
  solved_destroy(&s);
  return it;
}

/* Iterations of one solve (-1 on failure); the trace of every face copied to
 * `trace` (capacity `count` values) if given. */
static int solve_iterations(hdgcl_context ctx, const char *mesh, const char *problem,
                            const char *order, const char *solver, const char *precond_name,
                            const char *format, const char *cheb_degree, double *trace,
                            size_t count) {
  solved s = solve_with(ctx, mesh, "problem", problem, "order", order, "solver", solver, "precond",
                        precond_name, "format", format, "cheb-degree", cheb_degree, NULL);
  int it = s.status ? -1 : s.result->iterations;
  if (!s.status && trace) {
    const double *t;
    CHECK_OK(hdgcl_solver_solution(s.solver, NULL, NULL, NULL, &t));
    size_t n = (size_t)s.result->num_faces * (s.result->trace_dofs / s.result->num_unknown_faces);
    CHECK(n <= count);
    memcpy(trace, t, (n < count ? n : count) * sizeof *t);
  }
  solved_destroy(&s);
  return it;
}

int main(void) {
  hdgcl_context ctx = test_device();
  all_pairs(ctx, "square:4", "helmholtz-sin", "3"); /* same kernels as the p = 3 comparison below */
  all_pairs(ctx, "quad:3", "poisson-mixed", "2");
  all_pairs(ctx, "cube:2", "helmholtz-sin", "1");
  nonsymmetric_pairs(ctx, "square:4,perturb=0.2,seed=3", "3");
  nonsymmetric_pairs(ctx, "quad:3", "2");
  nonsymmetric_pairs(ctx, "cube:2", "1");

  /* The stronger preconditioners do something: fewer iterations than Jacobi. */
  for (int si = 0; si < 2; si++) {
    int jac = iterations(ctx, solvers[si], "jacobi");
    CHECK(jac > 0);
    for (int pi = 2; pi < NPRECOND; pi++) {
      int it = iterations(ctx, solvers[si], preconds[pi]);
      printf("%s square:6 p=3: %s %d iterations, jacobi %d\n", solvers[si], preconds[pi], it, jac);
      CHECK_MSG(it > 0 && it < jac, "%s + %s: %d iterations, not fewer than jacobi's %d",
                solvers[si], preconds[pi], it, jac);
    }
  }

  /* One element whose faces carry every unknown (Neumann on x=1, y=1 [, z=1]):
   * its patch is the whole matrix, so ASM is exact and the methods converge
   * in one iteration; a wrong patch extraction could not. */
  const char *const formats[] = {"bell", "ell"};
  for (int f = 0; f < 3; f++)
    for (int si = 0; si < 2; si++) {
      /* quad:1 p=2 in both layouts (the kernels of quad:3 p=2 below), hex:1 p=1 */
      const char *mesh = f < 2 ? "quad:1" : "hex:1", *order = f < 2 ? "2" : "1";
      const char *format = formats[f < 2 ? f : 0];
      int it = solve_iterations(ctx, mesh, "poisson-mixed", order, solvers[si], "asm", format, "4",
                                NULL, 0);
      CHECK_MSG(it == 1, "%s + asm on %s (%s): %d iterations, expected 1 (exact patch)",
                solvers[si], mesh, format, it);
    }

  /* One Chebyshev step is block-Jacobi scaled by 1/theta: the same CG iterates. */
  int bj = solve_iterations(ctx, "square:4", "helmholtz-sin", "3", "cg", "block-jacobi", "bell",
                            "4", NULL, 0);
  int ch1 = solve_iterations(ctx, "square:4", "helmholtz-sin", "3", "cg", "chebyshev", "bell", "1",
                             NULL, 0);
  CHECK_MSG(bj > 0 && abs(ch1 - bj) <= 1, "chebyshev degree 1: %d iterations, block-jacobi %d",
            ch1, bj);

  /* --cheb-mixed: Chebyshev's products with a single-precision copy of the
   * matrix; the outer CG keeps the double matrix, so the solution is the
   * same to the tolerance, in (almost) the same iterations. */
  {
    solved d = solve_with(ctx, "square:6", "problem", "poisson-mixed", "order", "4", "precond",
                          "chebyshev", "rtol", "1e-12", NULL);
    solved m = solve_with(ctx, "square:6", "problem", "poisson-mixed", "order", "4", "precond",
                          "chebyshev", "rtol", "1e-12", "cheb-mixed", "true", NULL);
    CHECK(!d.status && !m.status);
    if (!d.status && !m.status) {
      CHECK_MSG(abs(d.result->iterations - m.result->iterations) <= 1,
                "cheb-mixed: %d iterations, double %d", m.result->iterations, d.result->iterations);
      const double *ud, *um;
      CHECK_OK(hdgcl_solver_solution(d.solver, &ud, NULL, NULL, NULL));
      CHECK_OK(hdgcl_solver_solution(m.solver, &um, NULL, NULL, NULL));
      double diff = relative_difference(um, ud, (size_t)d.result->num_elements * 15);
      CHECK_MSG(diff < 1e-9, "cheb-mixed solution differs by %.3e", diff);
      printf("cheb-mixed: %d iterations (double: %d), u differs by %.1e\n", m.result->iterations,
             d.result->iterations, diff);
    }
    solved_destroy(&d);
    solved_destroy(&m);
    check_rejected(ctx, "--cheb-mixed", "precond", "chebyshev", "cheb-mixed", "true", "format",
                   "bell", NULL);
  }

  /* Both layouts, the same preconditioners: the same iterations; a repeated
   * solve is bitwise identical (fixed-order reductions, no atomics). */
  for (int pi = 2; pi < NPRECOND; pi++)
    for (int si = 0; si < 2; si++) {
      size_t count = 4096; /* quad:3, p = 2: 24 faces x 3 */
      double *t1 = calloc(count, sizeof *t1), *t2 = calloc(count, sizeof *t2);
      int ib = solve_iterations(ctx, "quad:3", "poisson-mixed", "2", solvers[si], preconds[pi],
                                "bell", "4", t1, count);
      int ib2 = solve_iterations(ctx, "quad:3", "poisson-mixed", "2", solvers[si], preconds[pi],
                                 "bell", "4", t2, count);
      int ie = solve_iterations(ctx, "quad:3", "poisson-mixed", "2", solvers[si], preconds[pi],
                                "ell", "4", NULL, 0);
      int ii = solve_iterations(ctx, "quad:3", "poisson-mixed", "2", solvers[si], preconds[pi],
                                "bell-i", "4", NULL, 0);
      CHECK_MSG(abs(ib - ii) <= 1, "%s + %s: %d iterations in bell, %d in bell-i", solvers[si],
                preconds[pi], ib, ii);
      CHECK_MSG(ib > 0 && ib == ib2 && memcmp(t1, t2, count * sizeof *t1) == 0,
                "%s + %s: repeated solve differs (%d, %d iterations)", solvers[si], preconds[pi],
                ib, ib2);
      CHECK_MSG(abs(ib - ie) <= 1, "%s + %s: %d iterations in bell, %d in ell", solvers[si],
                preconds[pi], ib, ie);
      free(t1);
      free(t2);
    }

  check_rejected(ctx, "--solver bicg", "solver", "bicg", NULL);
  check_rejected(ctx, "--precond ilu", "precond", "ilu", NULL);
  check_rejected(ctx, "--restart 0", "restart", "0", NULL);
  check_rejected(ctx, "--restart 63", "restart", "63", NULL);
  check_rejected(ctx, "--cheb-degree 0", "cheb-degree", "0", NULL);
  check_rejected(ctx, "--cheb-inner asm", "cheb-inner", "asm", NULL);
  check_rejected(ctx, "--flexible maybe", "flexible", "maybe", NULL);
  check_rejected(ctx, "nonsymmetric: --solver cg", "problem", "convection-diffusion", "solver", "cg",
                 NULL);
  check_rejected(ctx, "nonsymmetric: --precond chebyshev", "problem", "convection-diffusion",
                 "precond", "chebyshev", NULL);
  /* pmg accepts the problem (test_pmg.c), CG still not */
  check_rejected(ctx, "nonsymmetric: --solver cg", "problem", "convection-diffusion",
                 "solver", "cg", "precond", "pmg", NULL);
  check_rejected(ctx, "--beta", "problem", "convection-diffusion", "beta", "1e7", NULL);
  hdgcl_context ref = NULL;
  CHECK_OK(hdgcl_context_create("ref", NULL, &ref));
  /* The reference path's GMRES and CG reach the same trace on an SPD system. */
  {
    solved c = solve_with(ref, "square:3", "order", "2", "solver", "cg", "rtol", "1e-13", NULL);
    solved g = solve_with(ref, "square:3", "order", "2", "solver", "gmres", "restart", "5", "rtol",
                          "1e-13", NULL);
    CHECK(!c.status && !g.status);
    if (!c.status && !g.status) {
      int n;
      double *x = direct_solution(&c, &n);
      double dc = trace_difference(&c, x, n), dg = trace_difference(&g, x, n);
      printf("reference path square:3 p=2: CG %d iterations (%.1e), GMRES(5) %d (%.1e)\n",
             c.result->iterations, dc, g.result->iterations, dg);
      CHECK_MSG(dc < 1e-9 && dg < 1e-9, "reference CG %.3e, GMRES %.3e from the direct solve", dc,
                dg);
      free(x);
    }
    solved_destroy(&c);
    solved_destroy(&g);
  }
  check_rejected(ref, "reference path", "precond", "asm", NULL);
  check_rejected(ref, "reference path", "precond", "pmg", NULL);
  hdgcl_context_destroy(&ref);
  hdgcl_context_destroy(&ctx);
  CHECK_DONE();
}
