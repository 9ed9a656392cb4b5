/* Polynomial reproduction: with u a polynomial of total degree p, HDG of
 * order p reproduces u, q and u* exactly, so every error is round-off
 * (< 1e-11 relative to the L2 norm of u or q), for p = 0..10, on structured
 * and perturbed meshes, with
 * Dirichlet and Neumann sides.  A degree p+1 solution must NOT be reproduced
 * (so the test can tell an exact method from a lenient check). */
#include "hdg_test.h"

int main(void) {
  hdgcl_context ctx = test_device();
  const char *meshes[] = {"square:3", "square:2x3,diag=alt,perturb=0.3,seed=4"};
  for (int p = 0; p <= 10; p++)
    for (int m = 0; m < 2; m++) {
      char order[8];
      snprintf(order, sizeof order, "%d", p);
      solved s = solve_with(ctx, meshes[m], "problem", "polynomial", "order", order, "rtol",
                            "1e-15", "maxit", "100000", NULL);
      CHECK(s.status == 0);
      if (s.status) continue;
      const hdgcl_result *r = s.result;
      double eu = r->l2_u / r->norm_u, es = r->l2_ustar / r->norm_u;
      double eq = r->norm_q > 0 ? r->l2_q / r->norm_q : r->l2_q;
      printf("p=%2d %-40s relative L2 errors u %.2e  q %.2e  u* %.2e  iters %d\n", p, meshes[m], eu,
             eq, es, r->iterations);
      CHECK_MSG(eu < 1e-11 && eq < 1e-11 && es < 1e-11,
                "p=%d %s: polynomial not reproduced (relative u %.2e q %.2e u* %.2e)", p, meshes[m],
                eu, eq, es);
      solved_destroy(&s);
    }
  /* Tetrahedra, p = 0..6. */
  for (int p = 0; p <= 6; p++) {
    char order[8];
    snprintf(order, sizeof order, "%d", p);
    const char *mesh = p < 4 ? "cube:2,perturb=0.2,seed=6" : "cube:1";
    solved s = solve_with(ctx, mesh, "problem", "polynomial", "order", order, "rtol", "1e-15",
                          "maxit", "100000", NULL);
    CHECK(s.status == 0);
    if (s.status) continue;
    const hdgcl_result *r = s.result;
    double eu = r->l2_u / r->norm_u, eq = r->norm_q > 0 ? r->l2_q / r->norm_q : r->l2_q;
    double es = r->l2_ustar / r->norm_u;
    printf("p=%2d %-40s relative L2 errors u %.2e  q %.2e  u* %.2e  iters %d\n", p, mesh, eu, eq,
           es, r->iterations);
    CHECK_MSG(eu < 1e-11 && eq < 1e-11 && es < 1e-11,
              "tets p=%d: polynomial not reproduced (relative u %.2e q %.2e u* %.2e)", p, eu, eq, es);
    solved_destroy(&s);
  }
  /* Degree p+1 at order p: a real discretisation error. */
  solved s = solve_with(ctx, "square:3", "problem", "polynomial", "order", "3", "poly-degree", "4",
                        NULL);
  CHECK(s.status == 0);
  if (!s.status)
    CHECK_MSG(s.result->l2_u > 1e-6 * s.result->norm_u, "degree 4 reproduced at order 3: %.2e",
              s.result->l2_u);
  solved_destroy(&s);
  hdgcl_context_destroy(&ctx);
  CHECK_DONE();
}
