/* A user's coefficients that vary inside the elements (coefficients =
 * points, docs/problems.md): kappa, c and beta evaluated at every quadrature
 * point by the per-point (mapped) kernels on every element type.
 * 1. a manufactured solution with kappa = 1 + |x|^2, c = 1 + x and a
 *    rotating (divergence-free) beta converges at p+1 (u, q) and p+2 (u*)
 *    on triangles, quadrilaterals, tetrahedra and hexahedra, and the device
 *    agrees with the reference path to 1e-10 (at the centroid the same
 *    problem loses the rates: q at 1);
 * 2. constant coefficients through the per-point kernels on simplices give
 *    the affine kernels' solution to 1e-10 (the mapped path on triangles and
 *    tetrahedra, which only point coefficients use);
 * 3. bad input: a variable beta at the centroid, points for elasticity or
 *    with a tensor kappa, kappa <= 0 at a vertex are refused naming the
 *    setting. */
#include "hdg_test.h"

/* u = sin(pi x) sin(pi y) [sin(pi z)]; -div(kappa grad u) + beta . grad u
 * + c u = f with div beta = 0; Dirichlet on left/bottom[/back], Neumann
 * (data from u) on the others. */
#define BETA2 "-w*(y - 0.5), w*(x - 0.5)"
#define F2                                                                                      \
  "(1 + x*x + y*y)*2*pi*pi*sin(pi*x)*sin(pi*y) - (2*x*pi*cos(pi*x)*sin(pi*y) + "                 \
  "2*y*pi*sin(pi*x)*cos(pi*y)) + (-w*(y - 0.5))*pi*cos(pi*x)*sin(pi*y) + "                       \
  "(w*(x - 0.5))*pi*sin(pi*x)*cos(pi*y) + (1 + x)*sin(pi*x)*sin(pi*y)"
#define F3                                                                                      \
  "(1 + x*x + y*y + z*z)*3*pi*pi*sin(pi*x)*sin(pi*y)*sin(pi*z) - 2*(x*pi*cos(pi*x)*sin(pi*y)*"   \
  "sin(pi*z) + y*pi*sin(pi*x)*cos(pi*y)*sin(pi*z) + z*pi*sin(pi*x)*sin(pi*y)*cos(pi*z)) + "      \
  "(-w*(y - 0.5))*pi*cos(pi*x)*sin(pi*y)*sin(pi*z) + (w*(x - 0.5))*pi*sin(pi*x)*cos(pi*y)*"      \
  "sin(pi*z) + (1 + x)*sin(pi*x)*sin(pi*y)*sin(pi*z)"

typedef struct point_case {
  const char *kind; /* square, quad, cube, hex */
  int dim, n0;      /* meshes kind:n0 and kind:2 n0 */
  const char *order, *tau;
} point_case;

static solved solve_case(hdgcl_context ctx, const point_case *pc, int n, const char *sampling) {
  char mesh[64];
  snprintf(mesh, sizeof mesh, "%s:%d", pc->kind, n);
  if (pc->dim == 2)
    return solve_with(ctx, mesh, "problem", "user", "order", pc->order, "tau", pc->tau, "rtol",
                      "1e-13", "coefficients", sampling, "constants", "w = 2", "kappa",
                      "1 + x*x + y*y", "c", "1 + x", "beta", BETA2, "exact", "sin(pi*x)*sin(pi*y)",
                      "f", F2, "bc", "left, bottom: dirichlet; right, top: neumann", NULL);
  return solve_with(ctx, mesh, "problem", "user", "order", pc->order, "tau", pc->tau, "rtol", "1e-13",
                    "coefficients", sampling, "constants", "w = 2", "kappa", "1 + x*x + y*y + z*z",
                    "c", "1 + x", "beta", BETA2 ", 0", "exact", "sin(pi*x)*sin(pi*y)*sin(pi*z)", "f",
                    F3, "bc", "left, bottom, back: dirichlet; right, top, front: neumann", NULL);
}

static void manufactured(hdgcl_context dev, hdgcl_context ref) {
  /* quadrilaterals and hexahedra take tau = 10: with tau = 1 quad:4..8 and
   * hex:3..6 are not yet asymptotic (q 2.69, 2.62) */
  const point_case cases[] = {{"square", 2, 4, "2", "1"},
                              {"quad", 2, 4, "2", "10"},
                              {"cube", 3, 3, "2", "1"},
                              {"hex", 3, 3, "2", "10"}};
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    const point_case *pc = &cases[c];
    solved s0 = solve_case(dev, pc, pc->n0, "points"), s1 = solve_case(dev, pc, 2 * pc->n0, "points");
    solved r0 = solve_case(ref, pc, pc->n0, "points");
    CHECK_MSG(!s0.status && !s1.status && !r0.status, "point coefficients %s", pc->kind);
    if (!s0.status && !s1.status) {
      char label[64];
      snprintf(label, sizeof label, "points %-6s", pc->kind);
      check_convergence_rates(label, &s0, &s1, atoi(pc->order), pc->n0);
    }
    if (!s0.status && !r0.status) {
      double d = solution_difference(&s0, &r0, 1);
      printf("points %-6s %s:%d device vs ref: solution %.1e (it %d/%d)\n", pc->kind, pc->kind,
             pc->n0, d, s0.result->iterations, r0.result->iterations);
      CHECK_MSG(d < 1e-10, "%s: device vs reference differ by %.2e", pc->kind, d);
    }
    solved_destroy(&s0);
    solved_destroy(&s1);
    solved_destroy(&r0);
  }
}

/* Constant coefficients: the per-point kernels on simplices (coefficients =
 * points) and the affine ones (centroid) solve the same discrete problem. */
static void same_as_affine(hdgcl_context ctx) {
  const char *meshes[] = {"square:4", "cube:2"};
  const char *exact[] = {"sin(pi*x)*cos(pi*y) + x", "sin(pi*x)*cos(pi*y)*cos(pi*z) + x"};
  for (int k = 0; k < 2; k++) {
    solved s[2];
    const char *sampling[2] = {"points", "centroid"};
    for (int i = 0; i < 2; i++)
      s[i] = solve_with(ctx, meshes[k], "problem", "user", "order", "3", "rtol", "1e-14",
                        "coefficients", sampling[i], "kappa", "2", "c", "1", "beta", k ? "1, 0.5, 0" : "1, 0.5",
                        "exact", exact[k], "f", "x", "bc-default", "dirichlet", NULL);
    CHECK_MSG(!s[0].status && !s[1].status, "%s points vs centroid", meshes[k]);
    if (!s[0].status && !s[1].status) {
      double d = solution_difference(&s[0], &s[1], 1);
      printf("constant coefficients %-8s points vs centroid: solution %.1e (it %d/%d)\n", meshes[k], d,
             s[0].result->iterations, s[1].result->iterations);
      CHECK_MSG(d < 1e-10, "%s: points and centroid differ by %.2e", meshes[k], d);
    }
    solved_destroy(&s[0]);
    solved_destroy(&s[1]);
  }
}

static void rejected(hdgcl_context ctx) {
  check_rejected(ctx, "coefficients: centroid: beta varies in space", "problem", "user",
                 "coefficients", "centroid", "beta", "y, -x", "bc-default", "dirichlet: 0", NULL);
  check_rejected(ctx, "coefficients: points: elasticity's mu and lambda", "problem", "user", "pde",
                 "elasticity", "coefficients", "points", "bc-default", "displacement: 0, 0", NULL);
  check_rejected(ctx, "coefficients: 'everywhere': expected points or centroid", "problem", "user",
                 "coefficients", "everywhere", "bc-default", "dirichlet: 0", NULL);
  /* positive at every centroid of the mesh, 0 at the vertices on x = 1 */
  check_rejected(ctx, "at its vertex (1, ", "problem", "user", "kappa", "1 - x",
                 "bc-default", "dirichlet: 0", NULL);
  /* a tensor kappa is taken at the centroid: not with coefficients varying at points */
  check_rejected(ctx, "points: a tensor kappa is taken at each element's centroid", "problem", "user",
                 "kappa", "[[2, 0.5], [0.5, 1]]", "coefficients", "points", "bc-default",
                 "dirichlet: 0", NULL);
  check_rejected(ctx, "kappa is a tensor, taken at each element's centroid, while c or beta varies",
                 "problem", "user", "kappa", "[[2, 0.5], [0.5, 1]]", "c", "1 + x", "bc-default",
                 "dirichlet: 0", NULL);
  printf("bad input: 6 cases refused\n");
}

int main(void) {
  hdgcl_context dev = test_device(), ref = NULL;
  CHECK_OK(hdgcl_context_create("ref", NULL, &ref));
  rejected(ref);
  same_as_affine(dev);
  same_as_affine(ref);
  manufactured(dev, ref);
  hdgcl_context_destroy(&dev);
  hdgcl_context_destroy(&ref);
  CHECK_DONE();
}
