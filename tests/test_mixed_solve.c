/* Solving on mixed triangle + quadrilateral meshes (docs/geometry.md, "Mixed
 * meshes"), on the reference path:
 * 1. the polynomial problem (u of total degree p, Neumann on x = 1, y = 1) is
 *    reproduced to rounding on a distorted mixed:4 at p = 1, 2, 3: every
 *    element's tables, faces across the types and block columns are right;
 * 2. helmholtz-sin converges at p + 1 (u, q) and p + 2 (u*) for p = 1, 2, 3
 *    (p = 1 on mixed:16..32, whose rates are still rising on 8..16, as on
 *    quad:N), and poisson-mixed (Neumann faces) at p = 2;
 * 3. the VTU file has each element's sub-cells of its own VTK type;
 * 4. what does not run on mixed meshes yet is refused by name: elasticity,
 *    Newton, time stepping, problem files, and the device pipeline (on
 *    $HDGCL_DEVICE or auto: PoCL in CI; nothing is compiled). */
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
  solved s = strcmp(problem, "user")
                 ? solve_with(ctx, "mixed:4", "problem", problem, "order", "1", NULL)
                 : solve_with(ctx, "mixed:4", "problem", "user", "f", "1", "bc-default",
                              "dirichlet: 0", "order", "1", NULL);
  CHECK_MSG(s.status == HDGCL_ERROR_MESH && strstr(hdgcl_last_error(), "the mesh is mixed (16 triangles, 8 quadrilaterals)") &&
                strstr(hdgcl_last_error(), what),
            "%s: %s", problem, hdgcl_last_error());
  solved_destroy(&s);
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
  refused(ref, "elasticity", "elasticity");
  refused(ref, "burgers", "Newton");
  refused(ref, "heat", "time stepping");
  refused(ref, "user", "problem file");
  hdgcl_context_destroy(&ref);
  /* the device pipeline: refused before it compiles anything */
  hdgcl_context dev = test_device();
  refused(dev, "helmholtz-sin", "the OpenCL device pipeline does not solve on mixed meshes yet");
  hdgcl_context_destroy(&dev);
  CHECK_DONE();
}
