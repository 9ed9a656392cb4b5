/* Solving on mixed triangle + quadrilateral meshes (docs/geometry.md, "Mixed
 * meshes"), on the reference path:
 * 1. the polynomial problem (u of total degree p, Neumann on x = 1, y = 1) is
 *    reproduced to rounding on a distorted mixed:4 at p = 1, 2, 3: every
 *    element's tables, faces across the types and block columns are right;
 * 2. helmholtz-sin converges at p + 1 (u, q) and p + 2 (u*) for p = 1, 2, 3
 *    (p = 1 on mixed:16..32, whose rates are still rising on 8..16, as on
 *    quad:N), and poisson-mixed (Neumann faces) at p = 2;
 * 3. the VTU file has each element's sub-cells of its own VTK type;
 * 4. what does not run on mixed meshes yet is refused by name: Newton's
 *    method (Neo-Hookean, Burgers); time stepping, problem files,
 *    elasticity and the additive Schwarz preconditioner: test_mixed_problems;
 * 5. the device pipeline ($HDGCL_DEVICE or auto: PoCL in CI; one element
 *    batch per type) gives the reference path's u, q, u* and trace to 1e-10
 *    relative on mixed:4,distort=0.1 at p = 1, 2, 3 (helmholtz-sin, and
 *    poisson-mixed's Neumann faces at p = 2, bell format and ell with
 *    jacobi), and its rates at p = 2. */
#include <stdlib.h>
#include <string.h>

#include "hdg_test.h"

static void exact_polynomials(hdgcl_context ref) {
  for (int p = 1; p <= 3; p++) {
    char order[8];
    snprintf(order, sizeof order, "%d", p);
    solved s = solve_with(ref, "mixed:4,distort=0.1", "problem", "polynomial", "order", order, NULL);
    CHECK_OK(s.status);
    if (!s.status) {
      printf("polynomial p=%d on mixed:4,distort=0.1: L2(u) %.2e L2(q) %.2e L2(u*) %.2e\n", p,
             s.result->l2_u, s.result->l2_q, s.result->l2_ustar);
      CHECK_MSG(s.result->l2_u < 1e-10 && s.result->l2_q < 1e-10 && s.result->l2_ustar < 1e-10,
                "p=%d: the polynomial is not reproduced", p);
    }
    solved_destroy(&s);
  }
}

static void rates(hdgcl_context ref, const char *problem, int p, int n0) {
  char order[8], m0[32], m1[32], label[64];
  snprintf(order, sizeof order, "%d", p);
  snprintf(m0, sizeof m0, "mixed:%d", n0);
  snprintf(m1, sizeof m1, "mixed:%d", 2 * n0);
  snprintf(label, sizeof label, "%s on mixed", problem);
  solved s0 = solve_with(ref, m0, "problem", problem, "order", order, NULL);
  solved s1 = solve_with(ref, m1, "problem", problem, "order", order, NULL);
  CHECK_OK(s0.status);
  CHECK_OK(s1.status);
  if (!s0.status && !s1.status) check_convergence_rates(label, &s0, &s1, p, n0);
  solved_destroy(&s0);
  solved_destroy(&s1);
}

/* Counts of VTK types 5 (triangle) and 9 (quadrilateral) in the file's "types" array. */
static void vtu_types(const char *path, int *tri, int *quad) {
  *tri = *quad = 0;
  FILE *f = fopen(path, "r");
  CHECK(f != NULL);
  if (!f) return;
  char line[256];
  bool in_types = false;
  while (fgets(line, sizeof line, f)) {
    if (strstr(line, "Name=\"types\"")) {
      in_types = true;
      continue;
    }
    if (in_types && strstr(line, "</DataArray>")) break;
    if (in_types) {
      int t = atoi(line);
      *tri += t == 5;
      *quad += t == 9;
    }
  }
  fclose(f);
}

static void vtu(hdgcl_context ref) {
  solved s = solve_with(ref, "mixed:4", "order", "2", NULL);
  CHECK_OK(s.status);
  if (!s.status) {
    char path[512];
    const char *tmp = getenv("TMPDIR");
    snprintf(path, sizeof path, "%s/hdgcl_mixed_%d.vtu", tmp && tmp[0] ? tmp : "/tmp", (int)getpid());
    CHECK_OK(hdgcl_solver_write_vtu(s.solver, path, 3));
    int tri = 0, quad = 0;
    vtu_types(path, &tri, &quad);
    /* 16 triangles and 8 quadrilaterals, 3 x 3 sub-cells each */
    CHECK_MSG(tri == 16 * 9 && quad == 8 * 9, "VTU: %d triangle and %d quadrilateral cells", tri, quad);
    remove(path);
  }
  solved_destroy(&s);
}

static void refused(hdgcl_context ctx, const char *problem, const char *what) {
  solved s = solve_with(ctx, "mixed:4", "problem", problem, "order", "1", NULL);
  CHECK_MSG(s.status == HDGCL_ERROR_MESH && strstr(hdgcl_last_error(), "the mesh is mixed (16 triangles, 8 quadrilaterals)") &&
                strstr(hdgcl_last_error(), what),
            "%s: %s", problem, hdgcl_last_error());
  solved_destroy(&s);
}

/* max relative difference of u, q, u* and the trace of two solves on a
 * mixed mesh: rows of the widest type's (the quadrilateral's) sizes. */
static double mixed_difference(const solved *a, const solved *b, int p) {
  const double *au, *aq, *as, *at, *bu, *bq, *bs, *bt;
  CHECK_OK(hdgcl_solver_solution(a->solver, &au, &aq, &as, &at));
  CHECK_OK(hdgcl_solver_solution(b->solver, &bu, &bq, &bs, &bt));
  size_t ne = (size_t)a->result->num_elements, np = (size_t)(p + 1) * (p + 1);
  size_t np1 = (size_t)(p + 2) * (p + 2), nf = (size_t)(p + 1);
  double d = relative_difference(au, bu, ne * np);
  d = fmax(d, relative_difference(aq, bq, ne * 2 * np));
  d = fmax(d, relative_difference(as, bs, ne * np1));
  return fmax(d, relative_difference(at, bt, (size_t)a->result->num_faces * nf));
}

static void device_agrees(hdgcl_context ref, hdgcl_context dev, const char *problem, int p,
                          const char *format, const char *precond) {
  char order[8];
  snprintf(order, sizeof order, "%d", p);
  const char *mesh = "mixed:4,distort=0.1";
  solved r = solve_with(ref, mesh, "problem", problem, "order", order, NULL);
  solved d = solve_with(dev, mesh, "problem", problem, "order", order, "format", format, "precond",
                        precond, NULL);
  CHECK_OK(r.status);
  CHECK_MSG(d.status == HDGCL_SUCCESS, "%s p=%d on the device: %s", problem, p, hdgcl_last_error());
  if (!r.status && !d.status) {
    double diff = mixed_difference(&d, &r, p);
    printf("%s p=%d (%s, %s) on %s: device - reference %.2e relative (L2(u) %.4e, %.4e)\n", problem,
           p, format, precond, mesh, diff, d.result->l2_u, r.result->l2_u);
    CHECK_MSG(diff < 1e-10, "%s p=%d: device and reference differ by %.2e", problem, p, diff);
  }
  solved_destroy(&r);
  solved_destroy(&d);
}

int main(void) {
  hdgcl_context ref = NULL;
  CHECK_OK(hdgcl_context_create("ref", NULL, &ref));
  if (!ref) CHECK_DONE();
  exact_polynomials(ref);
  rates(ref, "helmholtz-sin", 1, 16);
  rates(ref, "helmholtz-sin", 2, 8);
  rates(ref, "helmholtz-sin", 3, 8);
  rates(ref, "poisson-mixed", 2, 8);
  vtu(ref);
  refused(ref, "neo-hookean", "Newton");
  refused(ref, "burgers", "Newton");
  /* the device pipeline: one batch per element type */
  hdgcl_context dev = test_device();
  for (int p = 1; p <= 3; p++) device_agrees(ref, dev, "helmholtz-sin", p, "bell-i", "block-jacobi");
  device_agrees(ref, dev, "poisson-mixed", 2, "bell", "block-jacobi");
  device_agrees(ref, dev, "helmholtz-sin", 2, "ell", "jacobi");
  rates(dev, "helmholtz-sin", 2, 8);
  hdgcl_context_destroy(&dev);
  hdgcl_context_destroy(&ref);
  CHECK_DONE();
}
