/* Polynomial reproduction: with u a polynomial of total degree p, HDG of
 * order p reproduces u, q and u* exactly, so every error is round-off
 * (< 1e-11 relative to the L2 norm of u or q): triangles p = 0..10,
 * quadrilaterals p = 0..8, tetrahedra p = 0..6, hexahedra p = 0..4 (0..6 with
 * HDGCL_TEST_HEAVY=1), on structured, perturbed and distorted meshes and on
 * real Gmsh files of each type, with
 * Dirichlet and Neumann sides.  A degree p+1 solution must NOT be reproduced
 * (so the test can tell an exact method from a lenient check). */
#include "hdg_test.h"

int main(void) {
  hdgcl_context ctx = test_device();
  const char *meshes[] = {"square:3", "square:2x3,diag=alt,perturb=0.3,seed=4"};
  for (int p = 0; p <= 10; p++)
    for (int m = 0; m < 2; m++) {
      char order[16];
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
  /* The other element types, and the real Gmsh files of each type (with their
   * physical groups as boundary tags). */
  typedef struct reproduction_case {
    const char *mesh;
    int pmax;
  } reproduction_case;
  const char *heavy = getenv("HDGCL_TEST_HEAVY");
  int hex_pmax = heavy && !strcmp(heavy, "1") ? 6 : 4;
  char files[4][1024];
  const char *data = getenv("HDGCL_TEST_DATA");
  const char *names[4] = {"gmsh_tri41.msh", "gmsh_quad41.msh", "gmsh_tet41.msh", "gmsh_hex41.msh"};
  for (int i = 0; i < 4; i++) snprintf(files[i], sizeof files[i], "%s/%s", data ? data : ".", names[i]);
  const reproduction_case cases[] = {
      {"cube:2,perturb=0.2,seed=6", 3}, {"cube:1", 6},         {"quad:2x3,distort=0.1", 8},
      {"quad:3,perturb=0.3,seed=2", 4}, {"hex:2,distort=0.1", hex_pmax},
      {files[0], 3},                    {files[1], 3},         {files[2], 2},
      {files[3], 2}};
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++)
    for (int p = 0; p <= cases[c].pmax; p++) {
      char order[16];
      snprintf(order, sizeof order, "%d", p);
      solved s = solve_with(ctx, cases[c].mesh, "problem", "polynomial", "order", order, "rtol",
                            "1e-15", "maxit", "100000", NULL);
      CHECK(s.status == 0);
      if (s.status) continue;
      const hdgcl_result *r = s.result;
      double eu = r->l2_u / r->norm_u, eq = r->norm_q > 0 ? r->l2_q / r->norm_q : r->l2_q;
      double es = r->l2_ustar / r->norm_u;
      printf("p=%2d %-40s relative L2 errors u %.2e  q %.2e  u* %.2e  iters %d\n", p,
             strrchr(cases[c].mesh, '/') ? strrchr(cases[c].mesh, '/') + 1 : cases[c].mesh, eu, eq,
             es, r->iterations);
      CHECK_MSG(eu < 1e-11 && eq < 1e-11 && es < 1e-11,
                "%s p=%d: polynomial not reproduced (relative u %.2e q %.2e u* %.2e)", cases[c].mesh,
                p, eu, eq, es);
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
