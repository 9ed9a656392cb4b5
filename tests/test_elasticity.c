/* Linear elasticity by HDG on the reference path (docs/elasticity.md).
 *
 *   test_elasticity         (label unit, --device ref only):
 *     - the exact solutions and loads of cl/fem/problems.h against
 *       central differences (grad u, p = -(mu + lambda) div u,
 *       f = -div(mu H - p I)), 2D and 3D, both problems;
 *     - rates: u, H and p within 0.2 of p+1, u* within 0.3 of p+2 between the
 *       two finest of three meshes: triangles p = 1..4 (and a perturbed mesh),
 *       tetrahedra p = 1, 2, and one case on curved quadrilaterals (p = 2);
 *     - locking: elasticity-incompressible (paper 004 section 4.2, div u = 0)
 *       at lambda = 1e6 has the errors of u, H and u* of lambda = 1 within 5 %
 *       and that of p within a factor 2.5 on the same mesh, 2D p = 1, 2 and
 *       3D p = 1, and keeps the rates in 2D p = 1;
 *     - the assembled trace matrix is symmetric with face blocks of dim * Nf;
 *     - bad material data refused (mu <= 0, lambda <= -2 mu / dim);
 *     - VTU output of a vector problem to an unwritable path is an I/O error
 *       (the output itself: test_elasticity_traction), scalar results carry l2_p = NaN;
 *     - CG with none / jacobi / block-jacobi and GMRES give the same solution;
 *     - the CLI ($HDGCL_CLI, --device ref): summary, convergence table and
 *       JSON name H and p, help lists the problems and --mu/--lambda, bad
 *       material is one error line.
 *   test_elasticity high-orders   (ctest test_elasticity_rates, labels opencl, slow):
 *     the rates of the same checks at the orders issue 5 asks for beyond
 *     those above: triangles p = 5..8 (reference path) and tetrahedra
 *     p = 3..5 (the OpenCL device, PoCL in CI): check_high_orders below.
 * The device pipeline of these problems: test_elasticity_device.c. */
#include <sys/wait.h>
#include <unistd.h>

#include "cli_run.h"
#include "hdg_test.h"
#include "problem/problem_elasticity.h"


/* The CLI with --device ref: summary, convergence table, JSON, help, errors. */
static void check_cli(void) {
  CHECK_MSG(getenv("HDGCL_CLI") != NULL, "HDGCL_CLI is not set");
  if (!getenv("HDGCL_CLI")) return;
  CHECK(cli_run(NULL, "solve --device ref --problem elasticity --mesh square:2 --order 1") == 0);
  CHECK_MSG(strstr(cli_out, "L2(H)") && strstr(cli_out, "L2(p)") && strstr(cli_out, "(u, H, p)"),
            "summary: %s", cli_out);
  CHECK(cli_run(NULL, "solve --device ref --problem elasticity --mesh square:2 --order 1 --convergence 2") == 0);
  CHECK_MSG(strstr(cli_out, "L2(H)") != NULL, "convergence table: %s", cli_out);
  CHECK(cli_run(NULL, "solve --device ref --problem elasticity --mesh cube:1 --order 1 --json r.json "
                "--quiet && cat r.json") == 0);
  CHECK_MSG(strstr(cli_out, "\"l2_p\"") && strstr(cli_out, "\"norm_p\""), "JSON: %s", cli_out);
  CHECK(cli_run(NULL, "solve --device ref --mesh square:2 --order 1 --json r.json --quiet && cat r.json") == 0);
  CHECK_MSG(strstr(cli_out, "\"l2_u\"") && !strstr(cli_out, "l2_p"), "scalar JSON: %s", cli_out);
  CHECK(cli_run(NULL, "solve --help") == 0);
  CHECK(strstr(cli_out, "elasticity-incompressible") && strstr(cli_out, "--mu M") &&
        strstr(cli_out, "--lambda L"));
  CHECK(cli_run(NULL, "solve --device ref --problem elasticity --mesh square:2 --lambda -5") != 0);
  CHECK_MSG(strstr(cli_err, "bulk modulus") != NULL, "stderr: %s", cli_err);
  CHECK(cli_run(NULL, "solve --device ref --problem elasticity --mesh square:2 --mu -1") != 0);
  CHECK_MSG(strstr(cli_err, "shear modulus") != NULL, "stderr: %s", cli_err);
}

/* Central-difference checks of elasticity_exact / elasticity_load at a few points. */
static void check_exact(int id, int dim, double mu, double lambda) {
  problem_params pp = {.id = id, .dim = dim, .mu = mu, .lambda = lambda};
  const double pts[3][3] = {{0.31, 0.77, 0.45}, {0.9, 0.12, 0.6}, {0.55, 0.5, 0.05}};
  const double h = 1e-5;
  for (int k = 0; k < 3; k++) {
    double u[3], g[9], p, f[3];
    elasticity_exact(&pp, pts[k], u, g, &p);
    elasticity_load(&pp, pts[k], f);
    double div = 0.0, scale_g = 0.0, scale_f = 0.0, fd[3] = {0, 0, 0};
    for (int i = 0; i < dim * dim; i++) scale_g = fmax(scale_g, fabs(g[i]));
    for (int i = 0; i < dim; i++) {
      div += g[i * dim + i];
      scale_f = fmax(scale_f, fabs(f[i]));
    }
    CHECK_MSG(fabs(p + (mu + lambda) * div) <= 1e-12 * (1 + fabs(p)), "problem %d %dD: p", id, dim);
    if (id == PROBLEM_ELASTICITY_INCOMPRESSIBLE)
      CHECK_MSG(fabs(div) <= 1e-12 * scale_g, "problem %d %dD: div u = %g", id, dim, div);
    for (int j = 0; j < dim; j++) {
      double xp[3] = {pts[k][0], pts[k][1], pts[k][2]}, xm[3] = {pts[k][0], pts[k][1], pts[k][2]};
      xp[j] += h;
      xm[j] -= h;
      double up[3], um[3], gp[9], gm[9], pp_, pm_;
      elasticity_exact(&pp, xp, up, gp, &pp_);
      elasticity_exact(&pp, xm, um, gm, &pm_);
      for (int i = 0; i < dim; i++) {
        double dij = (up[i] - um[i]) / (2 * h);
        CHECK_MSG(fabs(dij - g[i * dim + j]) <= 1e-7 * scale_g, "problem %d %dD: d_%d u_%d %g vs %g",
                  id, dim, j, i, dij, g[i * dim + j]);
        /* f_i = -sum_j d_j (mu H_ij - p delta_ij) */
        double sp = mu * gp[i * dim + j] - (i == j ? pp_ : 0.0);
        double sm = mu * gm[i * dim + j] - (i == j ? pm_ : 0.0);
        fd[i] -= (sp - sm) / (2 * h);
      }
    }
    for (int i = 0; i < dim; i++)
      CHECK_MSG(fabs(fd[i] - f[i]) <= 1e-6 * scale_f, "problem %d %dD: f_%d %g vs %g", id, dim, i,
                f[i], fd[i]);
  }
}

typedef struct rate_case {
  const char *problem;
  const char *kind;      /* square, quad or cube */
  const char *modifiers; /* appended to the mesh spec */
  int order, n0;         /* meshes kind:n0, 2 n0, 4 n0 */
  const char *lambda;
  const char *tau;       /* 10 on quadrilaterals (Q_p spaces: docs/formulation.md section 6) */
  double p_tol;          /* tolerance of the pressure rate; 0: 0.2 */
} rate_case;

static void check_rates(hdgcl_context ref, const rate_case *rc) {
  double e[3][4], h[3];
  char order[8];
  snprintf(order, sizeof order, "%d", rc->order);
  for (int level = 0; level < 3; level++) {
    char mesh[96];
    snprintf(mesh, sizeof mesh, "%s:%d%s", rc->kind, rc->n0 << level, rc->modifiers);
    solved s = solve_with(ref, mesh, "problem", rc->problem, "order", order, "lambda", rc->lambda,
                          "tau", rc->tau, "rtol", "1e-13", "maxit", "200000", NULL);
    if (s.status) {
      check_failures++;
      solved_destroy(&s);
      return;
    }
    e[level][0] = s.result->l2_u;
    e[level][1] = s.result->l2_q;
    e[level][2] = s.result->l2_ustar;
    e[level][3] = s.result->l2_p;
    h[level] = s.result->h;
    solved_destroy(&s);
  }
  int p = rc->order;
  double rate[4];
  for (int k = 0; k < 4; k++) rate[k] = log(e[1][k] / e[2][k]) / log(h[1] / h[2]);
  printf("%-26s %-6s p=%d n=%d..%d%-20s lambda %-4s rates u %.2f H %.2f u* %.2f p %.2f  "
         "(finest %.2e %.2e %.2e %.2e)\n",
         rc->problem, rc->kind, p, rc->n0, rc->n0 << 2, rc->modifiers, rc->lambda, rate[0], rate[1],
         rate[2], rate[3], e[2][0], e[2][1], e[2][2], e[2][3]);
  fflush(stdout);
  CHECK_MSG(fabs(rate[0] - (p + 1)) <= 0.2, "%s %s p=%d: u rate %.2f", rc->problem, rc->kind, p, rate[0]);
  CHECK_MSG(fabs(rate[1] - (p + 1)) <= 0.2, "%s %s p=%d: H rate %.2f", rc->problem, rc->kind, p, rate[1]);
  CHECK_MSG(fabs(rate[2] - (p + 2)) <= 0.3, "%s %s p=%d: u* rate %.2f", rc->problem, rc->kind, p, rate[2]);
  double p_tol = rc->p_tol > 0 ? rc->p_tol : 0.2;
  CHECK_MSG(fabs(rate[3] - (p + 1)) <= p_tol, "%s %s p=%d: p rate %.2f", rc->problem, rc->kind, p,
            rate[3]);
}

/* Paper 004 Tables 2-3: the errors of the div-free solution do not grow with lambda. */
static void check_locking(hdgcl_context ref, const char *mesh, const char *order) {
  const char *lambdas[2] = {"1", "1e6"};
  double e[2][4];
  for (int k = 0; k < 2; k++) {
    solved s = solve_with(ref, mesh, "problem", "elasticity-incompressible", "order", order, "lambda",
                          lambdas[k], "rtol", "1e-13", "maxit", "200000", NULL);
    if (s.status) {
      check_failures++;
      solved_destroy(&s);
      return;
    }
    e[k][0] = s.result->l2_u;
    e[k][1] = s.result->l2_q;
    e[k][2] = s.result->l2_ustar;
    e[k][3] = s.result->l2_p;
    printf("locking %-8s p=%s lambda %-4s  L2(u) %.4e  L2(H) %.4e  L2(u*) %.4e  L2(p) %.4e  (%d CG "
           "iterations)\n",
           mesh, order, lambdas[k], e[k][0], e[k][1], e[k][2], e[k][3], s.result->iterations);
    solved_destroy(&s);
  }
  for (int c = 0; c < 3; c++)
    CHECK_MSG(e[1][c] <= 1.05 * e[0][c] && e[1][c] >= e[0][c] / 1.05,
              "%s p=%s: error %d at lambda 1e6 %.4e, at lambda 1 %.4e", mesh, order, c, e[1][c], e[0][c]);
  /* p = 0 exactly; p_h keeps an O(h^{p+1}) error of the same size at every
   * lambda (measured: 1.3-1.8 times that of lambda = 1; docs/elasticity.md
   * section 7 on paper 004's p column, which falls like 1/lambda). */
  CHECK_MSG(e[1][3] <= 2.5 * e[0][3], "%s p=%s: pressure error %.3e at 1e6, %.3e at 1", mesh, order,
            e[1][3], e[0][3]);
}

/* The assembled trace matrix: face blocks of dim * Nf values, symmetric. */
static void check_matrix(hdgcl_context ref, const char *mesh, int dim) {
  solved s = solve_with(ref, mesh, "problem", "elasticity", "order", "2", NULL);
  if (s.status) {
    check_failures++;
    solved_destroy(&s);
    return;
  }
  int rows, slots, nf;
  const double *val, *rhs;
  const int32_t *cols;
  CHECK_OK(hdgcl_solver_matrix(s.solver, &rows, &slots, &nf, &val, &cols, &rhs));
  int nf1 = dim == 2 ? 3 : 6; /* scalar face functions of degree 2 */
  CHECK_MSG(nf == dim * nf1, "%s: face block %d, expected %d", mesh, nf, dim * nf1);
  CHECK(s.result->trace_dofs == (int64_t)rows * nf);
  double asym = trace_matrix_asymmetry(s.solver);
  printf("matrix %s: %d face rows, blocks %dx%d, max |K - K^T| / max |K| = %.2e\n", mesh, rows, nf, nf,
         asym);
  CHECK_MSG(asym <= 1e-12, "%s: trace matrix not symmetric (%.3e)", mesh, asym);
  const double *u, *q, *ustar, *trace;
  CHECK_OK(hdgcl_solver_solution(s.solver, &u, &q, &ustar, &trace));
  CHECK(u && q && ustar && trace);
  solved_destroy(&s);
}

/* hdgcl_solver_create on mesh_spec with problem elasticity and --mu / --lambda
 * must fail with HDGCL_ERROR_ARGUMENT naming `message` (NULL: must succeed). */
static void check_material(hdgcl_context ref, const char *mesh_spec, const char *mu,
                           const char *lambda, const char *message) {
  hdgcl_mesh *mesh = NULL;
  hdgcl_options opts = NULL;
  hdgcl_solver s = NULL;
  CHECK_OK(hdgcl_mesh_create_from_spec(mesh_spec, &mesh));
  CHECK_OK(hdgcl_options_create(&opts));
  CHECK_OK(hdgcl_options_set(opts, "problem", "elasticity"));
  CHECK_OK(hdgcl_options_set(opts, "order", "2"));
  CHECK_OK(hdgcl_options_set(opts, "mu", mu));
  CHECK_OK(hdgcl_options_set(opts, "lambda", lambda));
  if (message) {
    CHECK_FAILS(hdgcl_solver_create(ref, mesh, opts, &s), HDGCL_ERROR_ARGUMENT);
    CHECK_MSG(strstr(hdgcl_last_error(), message) != NULL, "mu %s lambda %s: expected '%s' in '%s'",
              mu, lambda, message, hdgcl_last_error());
    CHECK(s == NULL);
  } else {
    CHECK_OK(hdgcl_solver_create(ref, mesh, opts, &s));
    if (s) {
      CHECK_OK(hdgcl_solver_solve(s));
      const hdgcl_result *r = NULL;
      CHECK_OK(hdgcl_solver_result(s, &r));
      CHECK(r && isfinite(r->l2_u) && r->l2_u < 0.2 * r->norm_u); /* a sane solution (13 % on cube:2) */
    }
  }
  hdgcl_solver_destroy(&s);
  hdgcl_options_destroy(&opts);
  hdgcl_mesh_destroy(&mesh);
}

/* Issue 5's remaining orders, tolerances as check_rates.  Triangles on the
 * reference path: square:1..4 at p = 8 took 0.3 s there, 0.7 s on PoCL
 * warm and 62 s cold (PoCL compiles the kernels per order); tetrahedra on
 * the device: cube:1..4 at p = 5 took 36 s on the reference path, 25 s on
 * PoCL warm (2 cores).  Meshes: p = 5..7 square:2..8; p = 8 square:1..4,
 * since on square:4..8 the u* error reaches round-off (6.8e-13 -> 2.1e-15,
 * rate 8.3); p = 3, 4 cube:2..8 (on cube:1..4 the pressure rate at p = 3 is
 * 4.29, u and H at p = 4 4.80); p = 5 cube:1..4 (cube:8 at p = 5 costs
 * minutes).  The pressure converges from above on these coarse meshes:
 * square:1..4 p = 8 measured 9.27, cube:1..4 p = 5 6.29 (u, H, u* within
 * 0.15 of theirs), hence 0.35 there. */
static void check_high_orders(void) {
  hdgcl_context ref = NULL;
  CHECK_OK(hdgcl_context_create("ref", NULL, &ref));
  if (!ref) return;
  const rate_case tri[] = {
      {"elasticity", "square", "", 5, 2, "1", "1", 0},
      {"elasticity", "square", "", 6, 2, "1", "1", 0},
      {"elasticity", "square", "", 7, 2, "1", "1", 0},
      {"elasticity", "square", "", 8, 1, "1", "1", 0.35},
  };
  for (size_t c = 0; c < sizeof tri / sizeof *tri; c++) check_rates(ref, &tri[c]);
  hdgcl_context_destroy(&ref);
  hdgcl_context dev = test_device();
  const rate_case tet[] = {
      {"elasticity", "cube", "", 3, 2, "1", "1", 0},
      {"elasticity", "cube", "", 4, 2, "1", "1", 0},
      {"elasticity", "cube", "", 5, 1, "1", "1", 0.35},
  };
  for (size_t c = 0; c < sizeof tet / sizeof *tet; c++) check_rates(dev, &tet[c]);
  hdgcl_context_destroy(&dev);
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "high-orders") == 0) {
    check_high_orders();
    CHECK_DONE();
  }
  for (int dim = 2; dim <= 3; dim++) {
    check_exact(PROBLEM_ELASTICITY, dim, 1.0, 1.0);
    check_exact(PROBLEM_ELASTICITY, dim, 2.5, 40.0);
    check_exact(PROBLEM_ELASTICITY_INCOMPRESSIBLE, dim, 1.0, 1.0);
    check_exact(PROBLEM_ELASTICITY_INCOMPRESSIBLE, dim, 3.0, 1e3);
  }
  hdgcl_context ref = NULL;
  CHECK_OK(hdgcl_context_create("ref", NULL, &ref));
  if (!ref) CHECK_DONE();

  /* Bad material data; the bulk-modulus bound is -mu in 2D, -2 mu / 3 in 3D. */
  check_material(ref, "square:2", "0", "1", "shear modulus must be > 0");
  check_material(ref, "square:2", "-1", "1", "shear modulus must be > 0");
  check_material(ref, "square:2", "1", "-1", "bulk modulus");
  check_material(ref, "square:2", "2", "-3", "bulk modulus");
  check_material(ref, "cube:1", "1", "-0.7", "bulk modulus");
  check_material(ref, "square:4", "1", "-0.9", NULL);
  check_material(ref, "cube:2", "1", "-0.6", NULL);

  /* VTU output of vector problems (checked in test_elasticity_traction) reports an
   * unwritable path like the scalar one; scalar problems have no pressure. */
  {
    solved s = solve_with(ref, "square:2", "problem", "elasticity", "order", "1", NULL);
    CHECK_OK(s.status);
    if (!s.status) {
      CHECK_FAILS(hdgcl_solver_write_vtu(s.solver, "/nonexistent/never.vtu", 0), HDGCL_ERROR_IO);
      CHECK(strstr(hdgcl_last_error(), "/nonexistent/never.vtu") != NULL);
    }
    solved_destroy(&s);
    solved t = solve_with(ref, "square:2", "problem", "helmholtz-sin", "order", "1", NULL);
    CHECK_OK(t.status);
    if (!t.status) CHECK(isnan(t.result->l2_p));
    solved_destroy(&t);
  }

  check_cli();

  /* Every Krylov method and preconditioner of the reference path on the d * Nf blocks: the same solution. */
  {
    const char *methods[4][2] = {{"cg", "block-jacobi"}, {"cg", "jacobi"}, {"cg", "none"},
                                 {"gmres", "block-jacobi"}};
    double e0[3] = {0, 0, 0};
    for (int k = 0; k < 4; k++) {
      solved s = solve_with(ref, "square:4", "problem", "elasticity", "order", "2", "solver",
                            methods[k][0], "precond", methods[k][1], "rtol", "1e-13", NULL);
      CHECK_OK(s.status);
      if (!s.status) {
        double e[3] = {s.result->l2_u, s.result->l2_q, s.result->l2_p};
        for (int c = 0; c < 3; c++) {
          if (k == 0) e0[c] = e[c];
          CHECK_MSG(fabs(e[c] - e0[c]) <= 1e-8 * e0[c], "%s + %s: error %d %.15e vs %.15e",
                    methods[k][0], methods[k][1], c, e[c], e0[c]);
        }
      }
      solved_destroy(&s);
    }
  }

  check_matrix(ref, "square:3", 2);
  check_matrix(ref, "cube:1", 3);

  const rate_case cases[] = {
      {"elasticity", "square", "", 1, 8, "1", "1", 0},
      {"elasticity", "square", "", 2, 4, "1", "1", 0},
      {"elasticity", "square", "", 3, 4, "1", "1", 0},
      {"elasticity", "square", "", 4, 2, "1", "1", 0},
      {"elasticity", "square", ",perturb=0.2,seed=3", 2, 4, "1", "1", 0},
      {"elasticity-incompressible", "square", "", 1, 8, "1e6", "1", 0},
      {"elasticity", "quad", ",distort=0.1", 2, 4, "1", "10", 0},
      {"elasticity", "cube", "", 1, 2, "1", "1", 0},
      {"elasticity", "cube", "", 2, 2, "1", "1", 0},
  };
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) check_rates(ref, &cases[c]);

  check_locking(ref, "square:8", "1");
  check_locking(ref, "square:8", "2");
  check_locking(ref, "cube:2", "1");
  hdgcl_context_destroy(&ref);
  CHECK_DONE();
}
