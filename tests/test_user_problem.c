/* A user's own problem (docs/problems.md) through the C API options:
 *
 * 1. a manufactured solution written as user expressions (kappa = 2, c = 1,
 *    f by hand; Dirichlet, Neumann and Robin sides, g of the Robin side
 *    written out from the exact solution) converges at p+1 (u, q) and p+2
 *    (u*) on triangles, quadrilaterals, tetrahedra and hexahedra (p = 2,
 *    square/quad:4..8, cube/hex:2..4; measured u q u*: triangles 2.95 2.98
 *    3.99, quads 2.96 2.92 3.92, tets 2.79 2.85 3.89, hexes 2.91 2.85 3.83:
 *    the tiny 3D meshes are slightly preasymptotic, hence tolerances 0.25 and
 *    0.35 rather than test_hdg_convergence's 0.2 and 0.3);
 * 2. the device agrees with the reference path (--device ref) to 1e-10 on
 *    the solution arrays for one such problem per element type;
 * 3. the built-in problems poisson-mixed, kappa-jump, polynomial,
 *    convection-diffusion, elasticity, elasticity-incompressible,
 *    elasticity-mixed, elasticity-linear (2D and 3D; its errors are round-off:
 *    both must be below 1e-10 of the norms) and elasticity-bimaterial (regions),
 *    written as user options, give the built-in's errors to 1e-12 relative
 *    (on ref; on the device too with HDGCL_TEST_HEAVY=1), and so do
 *    examples/poisson-mixed.json and examples/cantilever.json (no exact
 *    solution: the same solution, the tip deflection, the reaction).  Written in
 *    the built-in's operation order the solutions are bitwise equal and the
 *    errors differ by at most a few ulps on ref (4e-15 relative in q: the
 *    exact gradient is the symbolic derivative); on PoCL the solutions differ
 *    by up to 3e-15 and the errors by up to 4.2e-14 (convection-diffusion's
 *    u*; the emitted OpenCL C is compiled differently); the polynomial's f written
 *    naturally differed by 6e-15 in the solution, 2e-11 in the errors
 *    (errors ~1e-4 of the solution amplify the ulps).  The vector built-ins
 *    give bitwise equal solutions on ref; on PoCL the solutions differ by up
 *    to 2e-14 and the errors by up to 2.4e-13 (elasticity-mixed's u*);
 * 4. bad input is refused by hdgcl_solver_create with a message naming it;
 * 5. a full symmetric tensor kappa (docs/problems.md "Tensor kappa"):
 *    a. a manufactured solution with an anisotropic K with off-diagonal
 *       entries, Dirichlet and Neumann sides (one written out as n . K grad u
 *       with the normal), converges at p+1 (u, q) and p+2 (u*) on the
 *       reference path (p = 2, square/quad:4..8, cube/hex:3..6; measured u q
 *       u*: triangles 2.96 2.98 3.97, quads 3.00 2.90 3.88, tets 2.90 2.93
 *       3.94, hexes 2.97 2.87 3.80);
 *    b. the device agrees with the reference path to 1e-10 on the solution
 *       arrays for each element type, the mapped ones with A^-1 inverted and
 *       with M factored (HDGCL_MAPPED_INVERSE=off) (PoCL: at most 4.1e-14);
 *    c. kappa I written as a tensor gives the scalar kappa's errors and
 *       solution to 1e-12 (reference path, measured 3.3e-13 and 2.7e-14 at
 *       most; the device with HDGCL_TEST_HEAVY=1);
 *    d. a tensor that is not symmetric, not positive definite or of the
 *       wrong size is refused with a message naming it. */
#include "hdg_test.h"

/* ---------- 1 and 2: manufactured solution on every element type ---------- */

typedef struct mms_case {
  const char *kind; /* square, quad, cube, hex */
  int dim;
  const char *order;
  int n0;           /* meshes kind:n0 and kind:2n0 */
  const char *tau;
} mms_case;

/* u = sin(pi x) cos(pi y) [cos(pi z)] + x, -div(k0 grad u) + u = f, k0 = 2;
 * the Robin side is y = 1 (n = (0, 1, 0)): g = a u + k0 du/dy. */
#define U2 "sin(pi*x)*cos(pi*y) + x"
#define U3 "sin(pi*x)*cos(pi*y)*cos(pi*z) + x"

/* kappa: "k0", or k0 I written as a tensor (5c). */
static solved solve_mms_kappa(hdgcl_context ctx, const mms_case *mc, int n, const char *kappa) {
  char mesh[64];
  snprintf(mesh, sizeof mesh, "%s:%d", mc->kind, n);
  if (mc->dim == 2)
    /* the Neumann side's value written with the normal (nx, ny) */
    return solve_with(ctx, mesh, "problem", "user", "order", mc->order, "tau", mc->tau, "rtol",
                      "1e-14", "constants", "k0 = 2, a = 3", "kappa", kappa, "c", "1", "exact", U2,
                      "f", "(2*k0*pi^2 + 1)*sin(pi*x)*cos(pi*y) + x", "bc",
                      "left, bottom: dirichlet; "
                      "right: neumann: k0*((pi*cos(pi*x)*cos(pi*y) + 1)*nx - pi*sin(pi*x)*sin(pi*y)*ny); "
                      "top: robin: a, a*(" U2 ") - k0*pi*sin(pi*x)*sin(pi*y)",
                      NULL);
  return solve_with(ctx, mesh, "problem", "user", "order", mc->order, "tau", mc->tau, "rtol", "1e-14",
                    "constants", "k0 = 2, a = 3", "kappa", kappa, "c", "1", "exact", U3, "f",
                    "(3*k0*pi^2 + 1)*sin(pi*x)*cos(pi*y)*cos(pi*z) + x", "bc",
                    "left, bottom, back: dirichlet; right, front: neumann; "
                    "top: robin: a, a*(" U3 ") - k0*pi*sin(pi*x)*sin(pi*y)*cos(pi*z)",
                    NULL);
}

static solved solve_mms(hdgcl_context ctx, const mms_case *mc, int n) {
  return solve_mms_kappa(ctx, mc, n, "k0");
}

static void manufactured(hdgcl_context dev, hdgcl_context ref) {
  const mms_case cases[] = {{"square", 2, "2", 4, "1"},
                            {"quad", 2, "2", 4, "10"},
                            {"cube", 3, "2", 2, "1"},
                            {"hex", 3, "2", 2, "10"}};
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    const mms_case *mc = &cases[c];
    solved s0 = solve_mms(dev, mc, mc->n0), s1 = solve_mms(dev, mc, 2 * mc->n0);
    solved r0 = solve_mms(ref, mc, mc->n0);
    CHECK_MSG(!s0.status && !s1.status && !r0.status, "manufactured %s", mc->kind);
    if (!s0.status && !s1.status) {
      char label[64];
      snprintf(label, sizeof label, "manufactured %-6s", mc->kind);
      check_convergence_rates(label, &s0, &s1, atoi(mc->order), mc->n0);
    }
    if (!s0.status && !r0.status) {
      double d = solution_difference(&s0, &r0, 1);
      printf("manufactured %-6s %s:%d device vs ref: solution %.1e, errors u %.1e (it %d/%d)\n",
             mc->kind, mc->kind, mc->n0, d,
             fabs(s0.result->l2_u - r0.result->l2_u) / r0.result->l2_u, s0.result->iterations,
             r0.result->iterations);
      CHECK_MSG(d < 1e-10, "%s: device vs reference differ by %.2e", mc->kind, d);
    }
    solved_destroy(&s0);
    solved_destroy(&s1);
    solved_destroy(&r0);
  }
}

/* ---------- 3: built-in problems as user options ---------- */

#define MAX_PAIRS 16

/* Solves the built-in (NULL-terminated pairs in b) and the user problem (u) on
 * ctx; the errors must agree to tol relative. */
static void same_errors(hdgcl_context ctx, const char *what, const char *mesh, const char **b,
                        const char **u, bool vector, double tol) {
  solved sb = {0}, su = {0};
  hdgcl_options ob = NULL, ou = NULL;
  CHECK_OK(hdgcl_options_create(&ob));
  CHECK_OK(hdgcl_options_create(&ou));
  for (int i = 0; b[i]; i += 2) CHECK_OK(hdgcl_options_set(ob, b[i], b[i + 1]));
  for (int i = 0; u[i]; i += 2) CHECK_OK(hdgcl_options_set(ou, u[i], u[i + 1]));
  solved *ss[2] = {&sb, &su};
  hdgcl_options oo[2] = {ob, ou};
  for (int k = 0; k < 2; k++) {
    solved *s = ss[k];
    s->status = hdgcl_mesh_create_from_spec(mesh, &s->mesh);
    if (!s->status) s->status = hdgcl_solver_create(ctx, s->mesh, oo[k], &s->solver);
    if (!s->status) s->status = hdgcl_solver_solve(s->solver);
    if (!s->status) s->status = hdgcl_solver_result(s->solver, &s->result);
    if (s->status)
      fprintf(stderr, "%s (%s): %s: %s\n", what, k ? "user" : "built-in",
              hdgcl_status_name(s->status), hdgcl_last_error());
  }
  CHECK_MSG(!sb.status && !su.status, "%s", what);
  if (!sb.status && !su.status) {
    const hdgcl_result *rb = sb.result, *ru = su.result;
    double eb[4] = {rb->l2_u, rb->l2_q, rb->l2_ustar, rb->l2_p};
    double eu[4] = {ru->l2_u, ru->l2_q, ru->l2_ustar, ru->l2_p};
    /* relative to the built-in's error; errors at round-off (a reproduced solution:
     * elasticity-linear's 1e-13, below 1e-10 of the exact field's norm) must both be */
    double norm[4] = {rb->norm_u, rb->norm_q, rb->norm_u, rb->norm_p};
    double d[4] = {0, 0, 0, 0}, dmax = 0.0;
    for (int k = 0; k < (vector ? 4 : 3); k++) {
      double floor = 1e-10 * norm[k];
      if (eb[k] <= floor)
        d[k] = eu[k] <= floor ? 0.0 : INFINITY;
      else
        d[k] = fabs(eu[k] - eb[k]) / eb[k];
      dmax = fmax(dmax, d[k]);
    }
    double ds = solution_difference(&su, &sb, vector ? sb.mesh->dim : 1);
    printf("%-42s %-8s built-in vs user: errors u %.1e q %.1e u* %.1e p %.1e solution %.1e "
           "(it %d/%d, %s/%s) l2_u %.6e\n",
           what, rb->device[0] == 'r' ? "ref" : "device", d[0], d[1], d[2], d[3], ds,
           rb->iterations, ru->iterations, rb->solver, ru->solver, rb->l2_u);
    CHECK_MSG(dmax <= tol, "%s: errors differ by %.2e relative", what, dmax);
    CHECK_MSG(strcmp(rb->solver, ru->solver) == 0, "%s: solver %s vs %s", what, rb->solver,
              ru->solver);
  }
  hdgcl_options_destroy(&ob);
  hdgcl_options_destroy(&ou);
  solved_destroy(&sb);
  solved_destroy(&su);
}

/* The cantilever has no exact solution: the built-in and examples/cantilever.json
 * (nondimensional steel, clamped left, traction-free elsewhere, body force -rho g
 * e_y) must give the same solution; the file's point value at the centre of the
 * free end is near the built-in's tip deflection (the mean of -u_y over x = L),
 * and its reaction on the clamped end is near the beam's weight (within 5 %).  GMRES needs a
 * long restart on the slender beam (docs/elasticity.md section 9): 1000 on ref,
 * p-multigrid on the device (whose restart is at most 62). */
static void cantilever(hdgcl_context ctx, const char *examples) {
  const char *mesh = "square:20x2,size=10x1";
  char path[1024];
  snprintf(path, sizeof path, "%s/cantilever.json", examples);
  bool ref = hdgcl_context_is_reference(ctx);
  const char *restart = ref ? "1000" : "60", *precond = ref ? "block-jacobi" : "pmg";
  solved sb = solve_with(ctx, mesh, "problem", "cantilever", "order", "2", "rtol", "1e-9", "restart",
                         restart, "precond", precond, NULL);
  solved su = solve_with(ctx, mesh, "problem-file", path, "order", "2", "rtol", "1e-9", "restart",
                         restart, "precond", precond, NULL);
  CHECK_MSG(!sb.status && !su.status, "cantilever");
  if (!sb.status && !su.status) {
    double d = solution_difference(&su, &sb, 2);
    const double *pt = su.result->outputs[0].values, *r = su.result->outputs[1].values;
    double weight = 7850.0 * 9.81 / 200e9 * 10;
    printf("%-42s %-8s built-in vs user: solution %.1e (it %d/%d); tip deflection %.6e, "
           "-uy(10, 0.5) %.6e; reaction %.3e %.6e (weight %.6e)\n",
           "examples/cantilever.json square:20x2 p=2", ref ? "ref" : "device", d,
           sb.result->iterations, su.result->iterations, sb.result->tip_deflection, -pt[3], r[0],
           r[1], weight);
    CHECK_MSG(d <= 1e-12, "cantilever: solutions differ by %.2e", d);
    CHECK_MSG(fabs(-pt[3] / sb.result->tip_deflection - 1) < 1e-3, "cantilever: tip %.6e vs %.6e",
              -pt[3], sb.result->tip_deflection);
    /* the root's bending stress is ~30 times the weight per height, and the clamped
     * corners are singular: measured Fy 3.4 % low, Fx 1.2 % of the weight */
    CHECK_MSG(fabs(r[1] / weight - 1) < 0.05 && fabs(r[0]) < 0.05 * weight,
              "cantilever: reaction %.6e %.6e, weight %.6e", r[0], r[1], weight);
  }
  solved_destroy(&sb);
  solved_destroy(&su);
}

/* The other vector built-ins (cl/fem/problems.h), written in their operation order. */
static void elasticity_builtins(hdgcl_context ctx, const char *examples, double tol) {
  {
    /* paper 004 section 4.2: u = mu (200 A(x) B(y), -200 B(x) A(y)), A = (t - t^2)^2,
     * B = 2t^3 - 3t^2 + t, A' = 2 B, A'' = 2 B', B' = 6t^2 - 6t + 1, B'' = 12t - 6,
     * f = -mu lap u (div u = 0); here mu = 2, lambda = 100 */
#define AX "((x - x*x)*(x - x*x))"
#define AY "((y - y*y)*(y - y*y))"
#define BX "(2*x*x*x - 3*x*x + x)"
#define BY "(2*y*y*y - 3*y*y + y)"
#define B1X "(6*x*x - 6*x + 1)"
#define B1Y "(6*y*y - 6*y + 1)"
    const char *b[] = {"problem", "elasticity-incompressible", "mu", "2", "lambda", "100", "order",
                       "2", "rtol", "1e-14", NULL};
    const char *u[] = {
        "problem", "user", "pde", "elasticity", "order", "2", "rtol", "1e-14", "constants",
        "m = 2, c0 = m*200, c1 = m*-200", "mu", "m", "lambda", "100", "exact",
        "c0*" AX "*" BY ", c1*" BX "*" AY, "exact-grad",
        "c0*(2*" BX ")*" BY ", c0*" AX "*" B1Y "; c1*" B1X "*" AY ", c1*" BX "*(2*" BY ")",
        "body-force",
        "-m*(c0*(2*" B1X ")*" BY " + c0*" AX "*(12*y - 6)), "
        "-m*(c1*(12*x - 6)*" AY " + c1*" BX "*(2*" B1Y "))",
        "bc-default", "displacement", NULL};
    same_errors(ctx, "elasticity-incompressible square:4 p=2", "square:4", b, u, true, tol);
  }
  {
    /* elasticity's solution with traction (from the exact solution) on x = 1, y = 1 */
#define K_A "k = 2*pi, a = 0.01"
#define EL_U "a*(x*sin(k*y) + y*cos(k*x)), a*(y*sin(k*x) + x*cos(k*y))"
#define EL_GRAD                                                                                    \
  "a*(sin(k*y) - k*y*sin(k*x)), a*(k*x*cos(k*y) + cos(k*x)); "                                     \
  "a*(k*y*cos(k*x) + cos(k*y)), a*(sin(k*x) - k*x*sin(k*y))"
#define EL_F                                                                                       \
  "k*k*(a*(x*sin(k*y) + y*cos(k*x))) - 2*(a*(-k*k*y*cos(k*x) + k*cos(k*x) - k*sin(k*y))), "        \
  "k*k*(a*(y*sin(k*x) + x*cos(k*y))) - 2*(a*(k*cos(k*y) - k*sin(k*x) - k*k*x*cos(k*y)))"
    const char *b[] = {"problem", "elasticity-mixed", "order", "2", "rtol", "1e-13", NULL};
    const char *u[] = {"problem", "user", "pde", "elasticity", "order", "2", "rtol", "1e-13",
                       "constants", K_A, "exact", EL_U, "exact-grad", EL_GRAD, "body-force", EL_F,
                       "bc", "right, top: traction; left, bottom: displacement", NULL};
    same_errors(ctx, "elasticity-mixed square:4 p=2", "square:4", b, u, true, tol);
  }
  {
    /* u = A x, f = 0, traction on x = 1, y = 1 [, z = 1]; mu = 3, lambda = 100 */
    const char *b[] = {"problem", "elasticity-linear", "mu", "3", "lambda", "100", "order", "1",
                       "rtol", "1e-13", NULL};
    const char *u[] = {"problem", "user", "pde", "elasticity", "mu", "3", "lambda", "100", "order",
                       "1", "rtol", "1e-13", "exact", "0.01*x + 0.02*y, 0.015*x + -0.006*y", "bc",
                       "right, top: traction; left, bottom: displacement", NULL};
    same_errors(ctx, "elasticity-linear square:3 p=1", "square:3", b, u, true, tol);
    const char *b3[] = {"problem", "elasticity-linear", "order", "1", "rtol", "1e-13", NULL};
    const char *u3[] = {"problem", "user", "pde", "elasticity", "order", "1", "rtol", "1e-13",
                        "exact",
                        "0.01*x + 0.02*y + 0.005*z, 0.015*x + -0.006*y + 0.003*z, "
                        "0.004*x + 0.006*y + 0.002*z",
                        "bc", "right, top, front: traction; left, bottom, back: displacement", NULL};
    same_errors(ctx, "elasticity-linear cube:1 p=1", "cube:1", b3, u3, true, tol);
  }
  {
    /* docs/elasticity.md (E18), contrast 10: (mu, lambda) = (1, 1) | (10, 10) across x = 1/2;
     * on x <= 1/2 the interface values aL, bL; xi = x - 1/2, w = sin(pi y) */
#define SIDE(l, r) "(x <= 0.5 ? " l " : " r ")"
#define BI_A SIDE("aL", "1")
#define BI_B SIDE("bL", "1")
#define BI_MU SIDE("1", "10")
#define BI_LAM SIDE("1", "10")
#define XI "(x - 0.5)"
#define PHI "(1 + " BI_A "*" XI " + " XI "*" XI ")"
#define DPHI "(" BI_A " + 2*" XI ")"
#define PSI "(1 + " BI_B "*" XI " - " XI "*" XI ")"
#define DPSI "(" BI_B " - 2*" XI ")"
#define W "sin(pi*y)"
#define WT "(pi*cos(pi*y))"
#define WTT "(-pi*pi*sin(pi*y))"
    const char *b[] = {"problem", "elasticity-bimaterial", "order", "2", "rtol", "1e-14", NULL};
    const char *u[] = {
        "problem", "user", "pde", "elasticity", "order", "2", "rtol", "1e-14", "constants",
        "aL = ((2*10 + 10) - pi*(10 - 1))/(2*1 + 1), bL = pi*(10/1*(1 + 1/pi) - 1)", "region",
        "1: mu = 1, lambda = 1; 2: mu = 10, lambda = 10", "exact",
        PHI "*" W ", " PSI "*" WT "/pi", "exact-grad",
        DPHI "*" W ", " PHI "*" WT "; " DPSI "*" WT "/pi, " PSI "*" WTT "/pi", "body-force",
        "-(" BI_MU "*(2 - pi*pi*" PHI ") + (" BI_MU " + " BI_LAM ")*(2 - pi*" DPSI "))*" W ", "
        "-(" BI_MU "*(-2 - pi*pi*" PSI ")/pi + (" BI_MU " + " BI_LAM ")*(" DPHI " - pi*" PSI "))*" WT,
        "bc-default", "displacement", NULL};
    same_errors(ctx, "elasticity-bimaterial square:4,split=x:0.5 p=2", "square:4,split=x:0.5", b, u,
                true, tol);
  }
  cantilever(ctx, examples);
}

static void builtins(hdgcl_context ctx, const char *examples, double tol) {
  {
    const char *b[] = {"problem", "poisson-mixed", "order", "2", "rtol", "1e-14", NULL};
    const char *u[] = {"problem", "user", "order", "2", "rtol", "1e-14", "exact",
                       "exp(x)*sin(pi*y)", "f", "(pi*pi - 1)*(exp(x)*sin(pi*y))", "bc",
                       "right, top: neumann; left, bottom: dirichlet", NULL};
    same_errors(ctx, "poisson-mixed square:4 p=2", "square:4", b, u, false, tol);
    const char *b3[] = {"problem", "poisson-mixed", "order", "2", "rtol", "1e-14", NULL};
    const char *u3[] = {"problem", "user", "order", "2", "rtol", "1e-14", "exact",
                        "exp(x)*sin(pi*y)*sin(pi*z)", "f",
                        "(2*pi*pi - 1)*(exp(x)*sin(pi*y)*sin(pi*z))", "bc",
                        "right, top, front: neumann; left, bottom, back: dirichlet", NULL};
    same_errors(ctx, "poisson-mixed cube:2 p=2", "cube:2", b3, u3, false, tol);
  }
  {
    const char *b[] = {"problem", "kappa-jump", "order", "2", "rtol", "1e-14", NULL};
    const char *u[] = {"problem", "user", "order", "2", "rtol", "1e-14", "region",
                       "1: kappa = 1; 2: kappa = 10", "exact",
                       "x < 0.5 ? sin(2*pi*x)*sin(pi*y)/1 + y : sin(2*pi*x)*sin(pi*y)/10 + y", "f",
                       "5*pi*pi*sin(2*pi*x)*sin(pi*y)", "bc-default", "dirichlet", NULL};
    same_errors(ctx, "kappa-jump square:8,split=x:0.5 p=2", "square:8,split=x:0.5", b, u, false, tol);
  }
  {
    /* degree 3 at order 2 (not reproduced: errors above round-off);
     * a_ij = 1 / (1 + i + 2 j) */
    const char *b[] = {"problem", "polynomial", "poly-degree", "3", "order", "2", "rtol", "1e-14", NULL};
/* written in cl/fem/problems.h's operation order (power() multiplies out, the
     * sums run over j then i, a_ij * x^i * y^j); the gradient is the
     * symbolic derivative */
#define POLY                                                                                       \
  "1 + 1/2*x + 1/3*(x*x) + 1/4*(x*x*x) + 1/3*y + 1/4*x*y + 1/5*(x*x)*y + 1/5*(y*y) + "            \
  "1/6*x*(y*y) + 1/7*(y*y*y)"
#define POLY_LAP "1/3*2 + 1/4*3*2*x + 1/5*2*y + 1/5*2 + 1/6*2*x + 1/7*3*2*y"
    const char *u[] = {"problem", "user", "order", "2", "rtol", "1e-14", "c", "1", "exact", POLY,
                       "f", "-(" POLY_LAP ") + (" POLY ")", "bc",
                       "right, top: neumann; left, bottom: dirichlet", NULL};
    same_errors(ctx, "polynomial (degree 3) square:3 p=2", "square:3", b, u, false, tol);
  }
  {
    const char *b[] = {"problem", "convection-diffusion", "order", "2", "rtol", "1e-12", NULL};
    const char *u[] = {"problem", "user", "order", "2", "rtol", "1e-12", "beta", "10, 5", "exact",
                       "sin(pi*x)*sin(pi*y)", "f",
                       "2*pi*pi*(sin(pi*x)*sin(pi*y)) + 10*(pi*cos(pi*x)*sin(pi*y)) + "
                       "5*(pi*sin(pi*x)*cos(pi*y))",
                       "bc-default", "dirichlet", NULL};
    same_errors(ctx, "convection-diffusion square:4 p=2", "square:4", b, u, false, tol);
  }
  {
    /* paper 004 section 4.1 (cl/fem/problems.h problem_elasticity_u, _f), mu = lambda = 1 */
    const char *b[] = {"problem", "elasticity", "order", "2", "rtol", "1e-14", NULL};
    const char *u[] = {
        "problem", "user", "pde", "elasticity", "order", "2", "rtol", "1e-14", "constants",
        "k = 2*pi, a = 0.01", "mu", "1", "lambda", "1", "exact",
        "a*(x*sin(k*y) + y*cos(k*x)), a*(y*sin(k*x) + x*cos(k*y))", "body-force",
        "k*k*(a*(x*sin(k*y) + y*cos(k*x))) - 2*(a*(-k*k*y*cos(k*x) + k*cos(k*x) - k*sin(k*y))), "
        "k*k*(a*(y*sin(k*x) + x*cos(k*y))) - 2*(a*(k*cos(k*y) - k*sin(k*x) - k*k*x*cos(k*y)))",
        "bc-default", "displacement", NULL};
    same_errors(ctx, "elasticity square:4 p=2", "square:4", b, u, true, tol);
  }
  elasticity_builtins(ctx, examples, tol);
}

/* The shipped examples/poisson-mixed.json gives the built-in's errors. */
static void problem_file(hdgcl_context ctx, const char *examples, double tol) {
  char path[1024];
  snprintf(path, sizeof path, "%s/poisson-mixed.json", examples);
  const char *b[] = {"problem", "poisson-mixed", "order", "3", "rtol", "1e-14", NULL};
  const char *u[] = {"problem-file", path, "order", "3", "rtol", "1e-14", NULL};
  same_errors(ctx, "examples/poisson-mixed.json square:4 p=3", "square:4", b, u, false, tol);
}

/* ---------- 4: bad input ---------- */

static void rejected(hdgcl_context ctx) {
  check_rejected(ctx, "--f: column 8: unexpected end of expression", "problem", "user", "f", "sin(x +", "bc-default",
                 "dirichlet: 0", NULL);
  check_rejected(ctx, "column 5: unknown variable 'q'", "problem", "user", "f", "sin(q)",
                 "bc-default", "dirichlet: 0", NULL);
  check_rejected(ctx, "'cone'", "problem", "user", "bc", "cone: dirichlet: 1", "bc-default",
                 "dirichlet: 0", NULL);
  check_rejected(ctx, "boundary tag 3 ('bottom') has no boundary condition", "problem", "user", "bc",
                 "left, right, top: dirichlet: 0", NULL);
  check_rejected(ctx, "kappa = -1", "problem", "user", "kappa", "-1", "bc-default", "dirichlet: 0",
                 NULL);
  check_rejected(ctx, "kappa = 0", "problem", "user", "kappa", "x - x", "bc-default",
                 "dirichlet: 0", NULL);
  check_rejected(ctx, "must be >= 0", "problem", "user", "bc", "top: robin: -1, 0", "bc-default",
                 "dirichlet: 0", NULL);
  check_rejected(ctx, "region 'steel'", "problem", "user", "region", "steel: kappa = 2",
                 "bc-default", "dirichlet: 0", NULL);
  check_rejected(ctx, "not a coefficient of elasticity", "problem", "user", "pde", "elasticity", "f",
                 "1", "bc-default", "displacement: 0, 0", NULL);
  check_rejected(ctx, "a coefficient of elasticity (give pde = elasticity)", "problem", "user", "mu",
                 "2", "bc-default", "dirichlet: 0", NULL);
  check_rejected(ctx, "unknown output 'average'", "problem", "user", "output", "average: u",
                 "bc-default", "dirichlet: 0", NULL);
  /* 5d: tensor kappa */
  check_rejected(ctx, "--kappa: '[[2, 0.5], [0.7, 1]]' is not symmetric: entry (1,2) = 0.5 but entry (2,1) = 0.7",
                 "problem", "user", "kappa", "[[2, 0.5], [0.7, 1]]", "bc-default", "dirichlet: 0", NULL);
  check_rejected(ctx, "--kappa = [[1, 0.333333], [0, 1]] is not symmetric (entries (1,2) = 0.333333 and (2,1) = 0)",
                 "problem", "user", "kappa", "[[1, x], [0, 1]]", "bc-default", "dirichlet: 0", NULL);
  check_rejected(ctx, "element 0 (tag 0) at (0.333333, 0.166667, 0): --kappa = [[1, 2], [2, 1]] is not positive definite",
                 "problem", "user", "kappa", "[[1, 2], [2, 1]]", "bc-default", "dirichlet: 0", NULL);
  check_rejected(ctx, "--region (region 0, kappa) = [[1, 0], [0, -1]] is not positive definite",
                 "problem", "user", "region", "0: kappa = [[1, 0], [0, -1]]", "bc-default",
                 "dirichlet: 0", NULL);
  check_rejected(ctx, "--kappa: a 3x3 matrix on a 2D mesh", "problem", "user", "kappa",
                 "[[1, 0, 0], [0, 1, 0], [0, 0, 1]]", "bc-default", "dirichlet: 0", NULL);
  check_rejected(ctx, "row 2 has 1 entries, the matrix has 2 rows", "problem", "user", "kappa",
                 "[[1, 0], [0]]", "bc-default", "dirichlet: 0", NULL);
  printf("bad input: 17 cases refused\n");
}

/* ---------- 5: a tensor kappa ---------- */

/* -div(K grad u) + u = f for the constant K below and u = U2 (U3):
 * f = -sum_ij K_ij d_i d_j u + u.  2D: K = [[2, 0.7], [0.7, 1]] through
 * constants, the top side's n . K grad u written with the normal; 3D: K3,
 * the Neumann data from the exact solution. */
#define UX2 "(pi*cos(pi*x)*cos(pi*y) + 1)"
#define UY2 "(-pi*sin(pi*x)*sin(pi*y))"
#define K3 "[[2, 0.7, 0.3], [0.7, 1, 0.2], [0.3, 0.2, 1.5]]"

static solved solve_tensor(hdgcl_context ctx, const mms_case *mc, int n) {
  char mesh[64];
  snprintf(mesh, sizeof mesh, "%s:%d", mc->kind, n);
  if (mc->dim == 2)
    return solve_with(ctx, mesh, "problem", "user", "order", mc->order, "tau", mc->tau, "rtol",
                      "1e-14", "constants", "k11 = 2, k12 = 0.7, k22 = 1", "kappa",
                      "[[k11, k12], [k12, k22]]", "c", "1", "exact", U2, "f",
                      "pi^2*((k11 + k22)*sin(pi*x)*cos(pi*y) + 2*k12*cos(pi*x)*sin(pi*y)) + (" U2 ")",
                      "bc",
                      "left, bottom: dirichlet; right: neumann; "
                      "top: neumann: (k11*" UX2 " + k12*" UY2 ")*nx + (k12*" UX2 " + k22*" UY2 ")*ny",
                      NULL);
  return solve_with(ctx, mesh, "problem", "user", "order", mc->order, "tau", mc->tau, "rtol", "1e-14",
                    "kappa", K3, "c", "1", "exact", U3, "f",
                    "pi^2*(4.5*sin(pi*x)*cos(pi*y)*cos(pi*z) + 1.4*cos(pi*x)*sin(pi*y)*cos(pi*z) + "
                    "0.6*cos(pi*x)*cos(pi*y)*sin(pi*z) - 0.4*sin(pi*x)*sin(pi*y)*sin(pi*z)) + (" U3 ")",
                    "bc", "left, bottom, back: dirichlet; right, top, front: neumann", NULL);
}

/* 5a, 5b. */
static void tensor_manufactured(hdgcl_context dev, hdgcl_context ref) {
  const mms_case cases[] = {{"square", 2, "2", 4, "1"},
                            {"quad", 2, "2", 4, "10"},
                            {"cube", 3, "2", 3, "1"},
                            {"hex", 3, "2", 3, "10"}};
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    const mms_case *mc = &cases[c];
    solved r0 = solve_tensor(ref, mc, mc->n0), r1 = solve_tensor(ref, mc, 2 * mc->n0);
    CHECK_MSG(!r0.status && !r1.status, "tensor kappa %s on ref", mc->kind);
    if (!r0.status && !r1.status) {
      char label[64];
      snprintf(label, sizeof label, "tensor kappa %-6s", mc->kind);
      check_convergence_rates(label, &r0, &r1, atoi(mc->order), mc->n0);
    }
    bool mapped = mc->kind[0] == 'q' || mc->kind[0] == 'h';
    for (int factored = 0; factored < (mapped ? 2 : 1); factored++) {
      if (factored) setenv("HDGCL_MAPPED_INVERSE", "off", 1);
      solved d0 = solve_tensor(dev, mc, mc->n0);
      if (factored) unsetenv("HDGCL_MAPPED_INVERSE");
      CHECK_MSG(!d0.status, "tensor kappa %s on the device", mc->kind);
      if (!d0.status && !r0.status) {
        double d = solution_difference(&d0, &r0, 1);
        printf("tensor kappa %-6s %s:%d%s device vs ref: solution %.1e, errors u %.1e q %.1e u* %.1e\n",
               mc->kind, mc->kind, mc->n0, factored ? " (M factored)" : "", d,
               fabs(d0.result->l2_u - r0.result->l2_u) / r0.result->l2_u,
               fabs(d0.result->l2_q - r0.result->l2_q) / r0.result->l2_q,
               fabs(d0.result->l2_ustar - r0.result->l2_ustar) / r0.result->l2_ustar);
        CHECK_MSG(d < 1e-10, "tensor %s: device vs reference differ by %.2e", mc->kind, d);
      }
      solved_destroy(&d0);
    }
    solved_destroy(&r0);
    solved_destroy(&r1);
  }
}

/* 5c: k0 I as a tensor against the scalar k0 (the Dirichlet, Neumann and
 * Robin problem of 1). */
static void tensor_isotropic(hdgcl_context ctx) {
  const mms_case cases[] = {{"square", 2, "2", 4, "1"},
                            {"quad", 2, "2", 4, "10"},
                            {"cube", 3, "2", 2, "1"},
                            {"hex", 3, "2", 2, "10"}};
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    const mms_case *mc = &cases[c];
    const char *kt = mc->dim == 2 ? "[[k0, 0], [0, k0]]" : "[[k0, 0, 0], [0, k0, 0], [0, 0, k0]]";
    solved a = solve_mms_kappa(ctx, mc, mc->n0, "k0"), b = solve_mms_kappa(ctx, mc, mc->n0, kt);
    CHECK_MSG(!a.status && !b.status, "tensor k0 I %s", mc->kind);
    if (!a.status && !b.status) {
      double eu = fabs(b.result->l2_u - a.result->l2_u) / a.result->l2_u;
      double eq = fabs(b.result->l2_q - a.result->l2_q) / a.result->l2_q;
      double es = fabs(b.result->l2_ustar - a.result->l2_ustar) / a.result->l2_ustar;
      double d = solution_difference(&b, &a, 1);
      printf("tensor k0 I %-6s %s:%d %-6s vs scalar k0: errors u %.1e q %.1e u* %.1e, solution %.1e\n",
             mc->kind, mc->kind, mc->n0, a.result->device[0] == 'r' ? "ref" : "device", eu, eq,
             es, d);
      CHECK_MSG(fmax(eu, fmax(eq, es)) <= 1e-12 && d <= 1e-12,
                "tensor k0 I %s: errors differ by %.1e %.1e %.1e, solution %.1e", mc->kind, eu, eq,
                es, d);
    }
    solved_destroy(&a);
    solved_destroy(&b);
  }
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: test_user_problem EXAMPLES_DIR\n");
    return 2;
  }
  hdgcl_context dev = test_device(), ref = NULL;
  CHECK_OK(hdgcl_context_create("ref", NULL, &ref));
  rejected(ref);
  manufactured(dev, ref);
  builtins(ref, argv[1], 1e-12);
  problem_file(ref, argv[1], 1e-12);
  tensor_manufactured(dev, ref);
  tensor_isotropic(ref);
  /* On the device each user problem compiles its own kernels (about 15 s each
   * on a cold PoCL cache with 2 cores): the built-ins there with HDGCL_TEST_HEAVY=1. */
  const char *heavy = getenv("HDGCL_TEST_HEAVY");
  if (heavy && !strcmp(heavy, "1")) {
    builtins(dev, argv[1], 1e-12);
    problem_file(dev, argv[1], 1e-12);
    tensor_isotropic(dev);
  }
  hdgcl_context_destroy(&dev);
  hdgcl_context_destroy(&ref);
  CHECK_DONE();
}
