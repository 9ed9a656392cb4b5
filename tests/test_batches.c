/* Element batches (docs/geometry.md, "Element batches"): a curved mesh's
 * straight elements run on the vertex map (the affine path on simplices), its
 * curved ones on the mapped path, into one trace system.
 * 1. classification: annulus:4,order=2 is curved everywhere (the polar map);
 *    with ,curve=boundary only the elements with an edge on a circle are
 *    curved; the readers sort straight elements first; a node moved off its
 *    straight place makes its element curved;
 * 2. the device (PoCL) gives the same solution batched and all-mapped
 *    (HDGCL_BATCHES=off) to 1e-10, and the same as the reference path, on
 *    boundary-curved triangles (g = 2, 3) and quadrilaterals (g = 2), the
 *    report counting the straight and curved elements of each path;
 * 3. u = log r converges at p + 1 on the boundary-curved triangles, batched,
 *    on the device. */
#include "hdg_test.h"

static void classification(void) {
  const struct {
    const char *spec;
    int32_t straight, curved;
  } cases[] = {{"annulus:4,order=2", 0, 256},
               {"annulus:4,order=2,curve=boundary", 192, 64},
               {"annulus:4,order=3,curve=boundary", 192, 64},
               {"annulus-quad:4,order=2,curve=boundary", 64, 64},
               {"annulus-quad:4,order=1", 128, 0}};
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    hdgcl_mesh *m = NULL;
    CHECK_OK(hdgcl_mesh_create_from_spec(cases[i].spec, &m));
    if (!m) continue;
    int32_t s = hdgcl_mesh_count_straight(m);
    printf("%-40s %d straight, %d curved\n", cases[i].spec, (int)s, (int)(m->num_elements - s));
    CHECK_MSG(s == cases[i].straight && m->num_elements - s == cases[i].curved, "%s: %d straight",
              cases[i].spec, (int)s);
    CHECK(hdgcl_mesh_straight_prefix(m) == s); /* sorted straight first */
    CHECK_OK(hdgcl_mesh_validate(m));          /* the topology followed the renumbering */
    if (m->geometry_order > 1 && s > 0) { /* element 0's first edge node pulled inward */
      double *x = m->elem_nodes + (size_t)m->verts_per_element * 2;
      x[0] *= 0.999;
      x[1] *= 0.999;
      CHECK(!hdgcl_mesh_element_straight(m, 0) && hdgcl_mesh_element_straight(m, 1));
    }
    hdgcl_mesh_destroy(&m);
  }
  /* The boundary-curved annulus has the fully curved one's area (the same
   * circles) to rounding. */
  hdgcl_mesh *a = NULL, *b = NULL;
  CHECK_OK(hdgcl_mesh_create_from_spec("annulus:4,order=2", &a));
  CHECK_OK(hdgcl_mesh_create_from_spec("annulus:4,order=2,curve=boundary", &b));
  if (a && b) {
    double va = 0.0, vb = 0.0;
    for (int32_t e = 0; e < a->num_elements; e++) va += hdgcl_mesh_element_measure(a, e);
    for (int32_t e = 0; e < b->num_elements; e++) vb += hdgcl_mesh_element_measure(b, e);
    CHECK_MSG(fabs(va - vb) < 1e-12 * va, "areas %.15g %.15g", va, vb);
  }
  hdgcl_mesh_destroy(&a);
  hdgcl_mesh_destroy(&b);
}

static solved log_r(hdgcl_context ctx, const char *batches, const char *mesh, int p) {
  char order[8];
  snprintf(order, sizeof order, "%d", p);
  setenv("HDGCL_BATCHES", batches, 1);
  solved s = solve_with(ctx, mesh, "problem", "user", "order", order, "rtol", "1e-13", "f", "0",
                        "exact", "log(sqrt(x^2 + y^2))", "bc", "inner: dirichlet: 0; outer: neumann: 0.5",
                        NULL);
  unsetenv("HDGCL_BATCHES");
  return s;
}

static void batched_matches(hdgcl_context dev, hdgcl_context ref) {
  const struct {
    const char *mesh;
    int p;
  } cases[] = {{"annulus:4,order=2,curve=boundary", 3},
               {"annulus:2,order=3,curve=boundary", 2},
               {"annulus-quad:4,order=2,curve=boundary", 2}};
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    solved on = log_r(dev, "on", cases[i].mesh, cases[i].p);
    solved off = log_r(dev, "off", cases[i].mesh, cases[i].p);
    solved r = log_r(ref, "on", cases[i].mesh, cases[i].p);
    CHECK(!on.status && !off.status && !r.status);
    if (!on.status && !off.status && !r.status) {
      double d = solution_difference(&on, &off, 1), dr = solution_difference(&on, &r, 1);
      double de = fabs(on.result->l2_u - r.result->l2_u) / r.result->norm_u;
      printf("%-40s p=%d batched vs all-mapped %.1e, vs reference %.1e, L2(u) %.1e\n",
             cases[i].mesh, cases[i].p, d, dr, de);
      CHECK_MSG(d < 1e-10, "%s: batched vs all-mapped %.2e", cases[i].mesh, d);
      /* the report's counts: the curved elements only on the mapped path */
      int64_t curved = on.result->curved_elements, straight = on.result->straight_elements;
      CHECK_MSG(straight > 0 && curved > 0 && straight + curved == on.result->num_elements &&
                    off.result->straight_elements == 0 && off.result->curved_elements == curved + straight,
                "%s: %lld straight, %lld curved", cases[i].mesh, (long long)straight, (long long)curved);
      CHECK_MSG(dr < 1e-10 && de < 1e-10, "%s: device vs reference %.2e", cases[i].mesh, dr);
    }
    solved_destroy(&on);
    solved_destroy(&off);
    solved_destroy(&r);
  }
}

static void rates(hdgcl_context dev) {
  for (int p = 2; p <= 3; p++) {
    solved s0 = log_r(dev, "on", "annulus:4,order=2,curve=boundary", p);
    solved s1 = log_r(dev, "on", "annulus:8,order=2,curve=boundary", p);
    CHECK(!s0.status && !s1.status);
    if (!s0.status && !s1.status) {
      double ru = log(s0.result->l2_u / s1.result->l2_u) / log(2.0);
      double rq = log(s0.result->l2_q / s1.result->l2_q) / log(2.0);
      printf("annulus boundary-curved p=%d g=2: rates u %.2f q %.2f (errors %.3e %.3e)\n", p, ru, rq,
             s1.result->l2_u, s1.result->l2_q);
      CHECK_MSG(ru > p + 0.8 && rq > p + 0.8, "p=%d: rates %.2f %.2f", p, ru, rq);
    }
    solved_destroy(&s0);
    solved_destroy(&s1);
  }
}

int main(void) {
  hdgcl_context dev = test_device(), ref = NULL;
  CHECK_OK(hdgcl_context_create("ref", NULL, &ref));
  classification();
  batched_matches(dev, ref);
  rates(dev);
  hdgcl_context_destroy(&dev);
  hdgcl_context_destroy(&ref);
  CHECK_DONE();
}
