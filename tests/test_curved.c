/* Curved (isoparametric) elements of geometry order 2 and 3 (docs/geometry.md):
 * 1. the annulus generators: area against 3 pi by geometry order; spec
 *    refusals; an inverted curved element is refused naming it;
 * 2. u = log r with Neumann data on the outer circle (examples/annulus-log.json):
 *    straight sides stall at rate 2, curved ones give p+1 for u and q;
 * 3. the device (PoCL) agrees with the reference path to 1e-10 on curved
 *    triangles and quadrilaterals (the mapped path, element_map of order 2, 3);
 * 4. the capacitance of the annulus, flux: inner = 2 pi / ln 2 for u = 1 on
 *    r = 1, 0 on r = 2: its error falls with p on curved meshes only;
 * 5. curved tetrahedra (Gmsh's tetrahedra 10 of a spherical shell): the
 *    device agrees with the reference path;
 * 6. the generated shell (shell:N, hexahedra 27 and 64 of a cubed sphere): volume,
 *    the concentric spheres' capacitance 8 pi converging with p (straight
 *    sides stall near 23.5), the device against the reference path. */
#include "hdg_test.h"

static const double pi = 3.14159265358979323846;

static void generators(void) {
  double err[3];
  for (int g = 1; g <= 3; g++) {
    char spec[64];
    snprintf(spec, sizeof spec, "annulus-quad:4,order=%d", g);
    hdgcl_mesh *m = NULL;
    CHECK_OK(hdgcl_mesh_create_from_spec(spec, &m));
    if (!m) continue;
    CHECK(m->geometry_order == g);
    CHECK(m->nodes_per_element == (g == 1 ? 4 : g == 2 ? 9 : 16));
    double area = 0.0;
    for (int32_t e = 0; e < m->num_elements; e++) area += hdgcl_mesh_element_measure(m, e);
    err[g - 1] = fabs(area - 3 * pi);
    printf("annulus-quad:4 order %d: area error %.2e\n", g, err[g - 1]);
    CHECK_OK(hdgcl_mesh_validate(m));
    if (g == 2) { /* the centre node of element 0 pulled across its corner: tangled */
      double *x = m->elem_nodes + (size_t)8 * 2, *corner = m->elem_nodes;
      for (int k = 0; k < 2; k++) x[k] = corner[k] + 3.0 * (corner[k] - x[k]);
      CHECK_FAILS(hdgcl_mesh_validate(m), HDGCL_ERROR_MESH);
      CHECK_MSG(strstr(hdgcl_last_error(), "curved element 0 is inverted or tangled"),
                "message: %s", hdgcl_last_error());
    }
    hdgcl_mesh_destroy(&m);
  }
  CHECK(err[1] < 1e-2 * err[0] && err[2] < 0.5 * err[1]);
  const char *bad[][2] = {{"annulus:4,order=4", "order (of the geometry) must be 1, 2 or 3"},
                          {"annulus:4x2", "one cell count"},
                          {"annulus:4,size=2", "does not apply to an annulus"},
                          {"square:4,order=2", "order applies to annulus and shell meshes only"}};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    hdgcl_mesh *m = NULL;
    CHECK_FAILS(hdgcl_mesh_create_from_spec(bad[i][0], &m), HDGCL_ERROR_ARGUMENT);
    CHECK_MSG(strstr(hdgcl_last_error(), bad[i][1]), "%s: %s", bad[i][0], hdgcl_last_error());
    CHECK(m == NULL);
  }
}

static solved log_r(hdgcl_context ctx, const char *kind, int n, int g, int p) {
  char mesh[64], order[8];
  snprintf(mesh, sizeof mesh, "%s:%d,order=%d", kind, n, g);
  snprintf(order, sizeof order, "%d", p);
  return solve_with(ctx, mesh, "problem", "user", "order", order, "rtol", "1e-13", "f", "0",
                    "exact", "log(sqrt(x^2 + y^2))", "bc", "inner: dirichlet: 0; outer: neumann: 0.5",
                    NULL);
}

static double rate(double e0, double e1) { return log(e0 / e1) / log(2.0); }

static void rates(hdgcl_context ref) {
  const char *kinds[] = {"annulus-quad", "annulus"};
  /* (p, g): straight sides (g = 1) stall at 2; g >= p gives p + 1 for u and q */
  const int cases[][2] = {{2, 1}, {2, 2}, {3, 1}, {3, 2}, {3, 3}};
  for (int k = 0; k < 2; k++)
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
      int p = cases[c][0], g = cases[c][1];
      solved s0 = log_r(ref, kinds[k], 4, g, p), s1 = log_r(ref, kinds[k], 8, g, p);
      CHECK(!s0.status && !s1.status);
      if (!s0.status && !s1.status) {
        double ru = rate(s0.result->l2_u, s1.result->l2_u), rq = rate(s0.result->l2_q, s1.result->l2_q);
        double rs = rate(s0.result->l2_ustar, s1.result->l2_ustar);
        printf("%-12s p=%d g=%d rates u %.2f q %.2f u* %.2f\n", kinds[k], p, g, ru, rq, rs);
        if (g == 1) {
          CHECK_MSG(ru < 2.3 && rq < 2.3, "%s straight p=%d: rates %.2f %.2f", kinds[k], p, ru, rq);
        } else {
          CHECK_MSG(ru > p + 0.8 && rq > p + 0.8, "%s p=%d g=%d: rates %.2f %.2f", kinds[k], p, g,
                    ru, rq);
          CHECK_MSG(rs > 2.8 + (p > 2), "%s p=%d g=%d: u* rate %.2f", kinds[k], p, g, rs);
        }
      }
      solved_destroy(&s0);
      solved_destroy(&s1);
    }
}

static void device_matches(hdgcl_context dev, hdgcl_context ref) {
  const char *kinds[] = {"annulus-quad", "annulus"};
  for (int k = 0; k < 2; k++)
    for (int g = 2; g <= 3; g++) {
      solved a = log_r(dev, kinds[k], 2, g, 3), b = log_r(ref, kinds[k], 2, g, 3);
      CHECK(!a.status && !b.status);
      if (!a.status && !b.status) {
        double d = solution_difference(&a, &b, 1);
        double de = fabs(a.result->l2_u - b.result->l2_u) / b.result->norm_u; /* relative to |u| */
        printf("%-12s:2 order=%d p=3 device vs ref: solution %.1e, L2(u) %.1e\n", kinds[k], g, d, de);
        CHECK_MSG(d < 1e-10 && de < 1e-10, "%s g=%d: device vs reference %.2e", kinds[k], g, d);
      }
      solved_destroy(&a);
      solved_destroy(&b);
    }
}

/* Curved tetrahedra (tests/data/curved/shell-tet10.msh, Gmsh's tetrahedra 10
 * of the shell 1 < r < 2): the concentric spheres' capacitor, device against
 * reference. */
static void shell(hdgcl_context dev, hdgcl_context ref) {
  const char *data = getenv("HDGCL_TEST_DATA");
  CHECK(data != NULL);
  if (!data) return;
  char mesh[1024];
  snprintf(mesh, sizeof mesh, "%s/curved/shell-tet10.msh", data);
  solved s[2];
  hdgcl_context ctx[2] = {dev, ref};
  for (int i = 0; i < 2; i++)
    s[i] = solve_with(ctx[i], mesh, "problem", "user", "order", "2", "rtol", "1e-13", "f", "0",
                      "bc", "inner: dirichlet: 1; outer: dirichlet: 0", "output", "flux: inner", NULL);
  CHECK(!s[0].status && !s[1].status);
  if (!s[0].status && !s[1].status) {
    double d = solution_difference(&s[0], &s[1], 1);
    double c0 = s[0].result->outputs[0].values[0], c1 = s[1].result->outputs[0].values[0];
    printf("shell-tet10 p=2 device vs ref: solution %.1e, capacitance %.12f / %.12f (8 pi = %.6f)\n",
           d, c0, c1, 8 * pi);
    CHECK_MSG(d < 1e-10 && fabs(c0 - c1) < 1e-10 * c1, "shell: %.2e", d);
    CHECK(fabs(c1 - 8 * pi) < 0.05 * 8 * pi);
  }
  solved_destroy(&s[0]);
  solved_destroy(&s[1]);
}

static void capacitance(hdgcl_context ctx) {
  const double exact = 2 * pi / log(2.0);
  for (int g = 1; g <= 3; g += 2) {
    double prev = INFINITY;
    for (int p = 1; p <= 4; p++) {
      char mesh[64], order[8];
      snprintf(mesh, sizeof mesh, "annulus-quad:2,order=%d", g);
      snprintf(order, sizeof order, "%d", p);
      solved s = solve_with(ctx, mesh, "problem", "user", "order", order, "rtol", "1e-13", "f", "0",
                            "bc", "inner: dirichlet: 1; outer: dirichlet: 0", "output", "flux: inner",
                            NULL);
      CHECK(!s.status);
      if (!s.status && s.result->num_outputs == 1) {
        double err = fabs(s.result->outputs[0].values[0] - exact);
        printf("capacitance order=%d p=%d: %.12f error %.2e\n", g, p, s.result->outputs[0].values[0], err);
        if (g == 3) CHECK_MSG(err < 0.1 * prev, "capacitance p=%d: error %.2e after %.2e", p, err, prev);
        if (g == 1) CHECK(err > 2e-3); /* the polygon's capacitance, not the annulus's */
        prev = err;
      }
      solved_destroy(&s);
    }
  }
}

static double shell_capacitance(hdgcl_context ctx, const char *mesh, const char *order, solved *keep) {
  solved s = solve_with(ctx, mesh, "problem", "user", "order", order, "rtol", "1e-13", "f", "0", "bc",
                        "inner: dirichlet: 1; outer: dirichlet: 0", "output", "flux: inner", NULL);
  CHECK(!s.status);
  double c = !s.status && s.result->num_outputs == 1 ? s.result->outputs[0].values[0] : NAN;
  if (keep)
    *keep = s;
  else
    solved_destroy(&s);
  return c;
}

static void generated_shell(hdgcl_context dev, hdgcl_context ref) {
  double err[3];
  for (int g = 1; g <= 3; g++) {
    char spec[32];
    snprintf(spec, sizeof spec, "shell:2,order=%d", g);
    hdgcl_mesh *m = NULL;
    CHECK_OK(hdgcl_mesh_create_from_spec(spec, &m));
    if (!m) return;
    double v = 0.0;
    for (int32_t e = 0; e < m->num_elements; e++) v += hdgcl_mesh_element_measure(m, e);
    err[g - 1] = fabs(v - 28 * pi / 3);
    CHECK_OK(hdgcl_mesh_validate(m));
    printf("shell:2 order %d: %d hexahedra, volume error %.2e\n", g, (int)m->num_elements, err[g - 1]);
    hdgcl_mesh_destroy(&m);
  }
  CHECK(err[1] < 0.05 * err[0] && err[2] < 0.5 * err[1]);
  double prev = INFINITY;
  for (int p = 1; p <= 3; p++) {
    char order[8];
    snprintf(order, sizeof order, "%d", p);
    double straight = shell_capacitance(ref, "shell:2,order=1", order, NULL);
    double curved = shell_capacitance(ref, "shell:2,order=2", order, NULL);
    double e = fabs(curved - 8 * pi);
    printf("shell:2 p=%d capacitance: straight %.6f, order 2 %.6f (8 pi = %.6f, error %.2e)\n", p,
           straight, curved, 8 * pi, e);
    CHECK(fabs(straight - 8 * pi) > 1.0);
    CHECK_MSG(e < (p == 1 ? 0.5 : 0.6 * prev), "shell p=%d: error %.2e after %.2e", p, e, prev);
    prev = e;
  }
  solved a, b;
  shell_capacitance(dev, "shell:2,order=2", "2", &a);
  shell_capacitance(ref, "shell:2,order=2", "2", &b);
  if (!a.status && !b.status) {
    double d = solution_difference(&a, &b, 1);
    printf("shell:2,order=2 p=2 device vs ref: solution %.1e\n", d);
    CHECK_MSG(d < 1e-10, "shell:2 device vs reference %.2e", d);
  }
  solved_destroy(&a);
  solved_destroy(&b);
  /* hexahedra 64 (geometry order 3) on the device */
  double c3 = shell_capacitance(dev, "shell:1,order=3", "2", &a);
  shell_capacitance(ref, "shell:1,order=3", "2", &b);
  if (!a.status && !b.status) {
    double d = solution_difference(&a, &b, 1);
    printf("shell:1,order=3 p=2 device vs ref: solution %.1e, capacitance %.6f\n", d, c3);
    CHECK_MSG(d < 1e-10, "shell:1,order=3 device vs reference %.2e", d);
  }
  solved_destroy(&a);
  solved_destroy(&b);
}

int main(void) {
  hdgcl_context dev = test_device(), ref = NULL;
  CHECK_OK(hdgcl_context_create("ref", NULL, &ref));
  generators();
  rates(ref);
  capacitance(ref);
  device_matches(dev, ref);
  shell(dev, ref);
  generated_shell(dev, ref);
  hdgcl_context_destroy(&dev);
  hdgcl_context_destroy(&ref);
  CHECK_DONE();
}
