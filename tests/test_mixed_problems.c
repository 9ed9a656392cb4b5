/* Mixed triangle + quadrilateral meshes beyond the steady built-in problems
 * (docs/geometry.md, "Mixed meshes"), each on the reference path and on the
 * device pipeline ($HDGCL_DEVICE or auto: PoCL in CI), device = reference to
 * 1e-10 relative (u, q, u*, trace; rows of the widest type's sizes):
 * 1. time stepping (docs/time.md): heat (DIRK(2,2)) and heat-boundary (BDF2,
 *    Dirichlet data changing in time) at p = 2, and heat's spatial rates at
 *    p = 2 on the reference path (DIRK(3,3), dt small enough that the space
 *    error shows);
 * 2. problem files (docs/problems.md): examples/variable-coefficients.json
 *    (coefficients at every point: the triangles' batch takes the mapped
 *    path, whose q (mapped_recover_q) writes rows of ROW_NP) at p = 1 and
 *    its rates at p = 2 (reference path), examples/heat-transient.json (a
 *    user's transient problem) with its outputs equal on both paths, and
 *    examples/manufactured-robin.json's outputs (Robin sides; reference path:
 *    integral and point value near the exact ones), and a tensor kappa (p = 1
 *    device = reference, rates at p = 2 on the reference path);
 * 3. elasticity (docs/elasticity.md): device = reference with traction faces
 *    at p = 2, its rates at p = 2 (reference path), the VTU file's cells;
 * 4. the additive Schwarz preconditioner on the device (patches of 3 and 4
 *    faces): device = reference at p = 1, 2, and fewer CG iterations than
 *    block-Jacobi on mixed:8. */
#include <stdlib.h>
#include <string.h>

#include "hdg_test.h"

static const char *examples = ".";
static const double pi = 3.14159265358979323846;

/* max relative difference of u, q, u* and the trace of two solves on a
 * mixed mesh: rows of the widest type's (the quadrilateral's) sizes. */
static double mixed_difference(const solved *a, const solved *b, int p, size_t nc) {
  const double *au, *aq, *as, *at, *bu, *bq, *bs, *bt;
  CHECK_OK(hdgcl_solver_solution(a->solver, &au, &aq, &as, &at));
  CHECK_OK(hdgcl_solver_solution(b->solver, &bu, &bq, &bs, &bt));
  size_t ne = (size_t)a->result->num_elements * nc; /* nc components (elasticity: 2) */
  size_t np = (size_t)(p + 1) * (p + 1), np1 = (size_t)(p + 2) * (p + 2), nf = (size_t)(p + 1) * nc;
  double d = relative_difference(au, bu, ne * np);
  d = fmax(d, relative_difference(aq, bq, ne * 2 * np));
  d = fmax(d, relative_difference(as, bs, ne * np1));
  return fmax(d, relative_difference(at, bt, (size_t)a->result->num_faces * nf));
}

/* Both solves succeeded and agree to 1e-10; prints the difference. */
static void check_agree_nc(const char *label, solved *r, solved *d, int p, size_t nc) {
  CHECK_MSG(r->status == HDGCL_SUCCESS, "%s p=%d on ref failed", label, p);
  CHECK_MSG(d->status == HDGCL_SUCCESS, "%s p=%d on the device: %s", label, p, hdgcl_last_error());
  if (r->status || d->status) return;
  double diff = mixed_difference(d, r, p, nc);
  printf("%-40s p=%d: device - reference %.2e relative (L2(u) %.4e, %.4e; iterations %d, %d)\n",
         label, p, diff, d->result->l2_u, r->result->l2_u, d->result->iterations,
         r->result->iterations);
  CHECK_MSG(diff < 1e-10, "%s p=%d: device and reference differ by %.2e", label, p, diff);
  CHECK_MSG(r->result->num_outputs == d->result->num_outputs, "%s: outputs", label);
  for (int i = 0; i < r->result->num_outputs && i < d->result->num_outputs; i++) {
    const hdgcl_output *a = &d->result->outputs[i], *b = &r->result->outputs[i];
    for (int k = 0; k < a->num_values && k < b->num_values; k++)
      CHECK_MSG(fabs(a->values[k] - b->values[k]) <= 1e-10 * fmax(1.0, fabs(b->values[k])),
                "%s: output %s value %d: %.12g on the device, %.12g on ref", label, a->label, k,
                a->values[k], b->values[k]);
  }
}

static void check_agree(const char *label, solved *r, solved *d, int p) {
  check_agree_nc(label, r, d, p, 1);
}

static void transient(hdgcl_context ref, hdgcl_context dev, const char *problem, const char *scheme,
                      int p) {
  char order[8], label[64];
  snprintf(order, sizeof order, "%d", p);
  snprintf(label, sizeof label, "%s (%s) on mixed:4,distort=0.1", problem, scheme);
  const char *mesh = "mixed:4,distort=0.1";
  solved r = solve_with(ref, mesh, "problem", problem, "order", order, "scheme", scheme,
                        "time-step", "0.05", "final-time", "0.2", NULL);
  solved d = solve_with(dev, mesh, "problem", problem, "order", order, "scheme", scheme,
                        "time-step", "0.05", "final-time", "0.2", NULL);
  check_agree(label, &r, &d, p);
  if (!r.status)
    CHECK_MSG(r.result->time_steps == 4 && r.result->stage_solves == (strcmp(scheme, "bdf2") ? 8 : 5),
              "%s: %d steps, %d stage solves", label, r.result->time_steps, r.result->stage_solves);
  solved_destroy(&r);
  solved_destroy(&d);
}

static void transient_rates(hdgcl_context ctx) {
  solved s[2];
  for (int i = 0; i < 2; i++)
    s[i] = solve_with(ctx, i ? "mixed:8" : "mixed:4", "problem", "heat", "order", "2", "scheme",
                      "dirk3", "time-step", "0.01", "final-time", "0.1", NULL);
  CHECK_OK(s[0].status);
  CHECK_OK(s[1].status);
  if (!s[0].status && !s[1].status) check_convergence_rates("heat (dirk3, T = 0.1) on mixed", &s[0], &s[1], 2, 4);
  solved_destroy(&s[0]);
  solved_destroy(&s[1]);
}

static solved solve_file(hdgcl_context ctx, const char *mesh, const char *file, int p) {
  char path[1024], order[8];
  snprintf(path, sizeof path, "%s/%s", examples, file);
  snprintf(order, sizeof order, "%d", p);
  return solve_with(ctx, mesh, "problem-file", path, "order", order, NULL);
}

static void problem_file(hdgcl_context ref, hdgcl_context dev, const char *file, int p) {
  const char *mesh = "mixed:4,distort=0.1";
  solved r = solve_file(ref, mesh, file, p), d = solve_file(dev, mesh, file, p);
  check_agree(file, &r, &d, p);
  solved_destroy(&r);
  solved_destroy(&d);
}

/* A tensor kappa K = [[2, 0.7], [0.7, 1]] (docs/problems.md; as
 * test_user_problem's) for u = sin(pi x) cos(pi y) + x, Dirichlet: the
 * reference path's q of a triangle is K q1 in place, at the widest row stride. */
#define UT "sin(pi*x)*cos(pi*y) + x"
static solved solve_tensor(hdgcl_context ctx, const char *mesh, const char *order) {
  return solve_with(ctx, mesh, "problem", "user", "order", order, "constants",
                    "k11 = 2, k12 = 0.7, k22 = 1", "kappa", "[[k11, k12], [k12, k22]]", "c", "1",
                    "exact", UT, "f",
                    "pi^2*((k11 + k22)*sin(pi*x)*cos(pi*y) + 2*k12*cos(pi*x)*sin(pi*y)) + (" UT ")",
                    "bc-default", "dirichlet", NULL);
}

static void tensor_kappa(hdgcl_context ref, hdgcl_context dev) {
  solved r = solve_tensor(ref, "mixed:4,distort=0.1", "1"), d = solve_tensor(dev, "mixed:4,distort=0.1", "1");
  check_agree("tensor kappa (user)", &r, &d, 1);
  solved_destroy(&r);
  solved_destroy(&d);
  solved s0 = solve_tensor(ref, "mixed:8", "2"), s1 = solve_tensor(ref, "mixed:16", "2");
  CHECK_OK(s0.status);
  CHECK_OK(s1.status);
  if (!s0.status && !s1.status) check_convergence_rates("tensor kappa on mixed", &s0, &s1, 2, 8);
  solved_destroy(&s0);
  solved_destroy(&s1);
}

/* Rates on mixed:8..16: u within 0.25 of p + 1, u* within 0.35 of p + 2, q
 * above p + 1 - 0.4 (p = 2: 2.68 here, 2.68 on quad:8..16 too, 3.00 on
 * square:8..16: the quadrilaterals approach p + 1 from below). */
static void file_rates(hdgcl_context ctx, const char *file, int p) {
  solved s0 = solve_file(ctx, "mixed:8", file, p), s1 = solve_file(ctx, "mixed:16", file, p);
  CHECK_OK(s0.status);
  CHECK_OK(s1.status);
  if (!s0.status && !s1.status) {
    double r[3], e0[3] = {s0.result->l2_u, s0.result->l2_q, s0.result->l2_ustar};
    double e1[3] = {s1.result->l2_u, s1.result->l2_q, s1.result->l2_ustar};
    for (int k = 0; k < 3; k++) r[k] = log(e0[k] / e1[k]) / log(2.0);
    printf("%s p=%d mixed:8..16 rates u %.2f q %.2f u* %.2f\n", file, p, r[0], r[1], r[2]);
    CHECK_MSG(fabs(r[0] - (p + 1)) <= 0.25 && r[1] >= p + 1 - 0.4 && fabs(r[2] - (p + 2)) <= 0.35,
              "%s: rates %.2f %.2f %.2f", file, r[0], r[1], r[2]);
  }
  solved_destroy(&s0);
  solved_destroy(&s1);
}

/* manufactured-robin's outputs on mixed:8 at p = 2: u = sin(pi x) cos(pi y) + x
 * integrates to 1/2, and its value at (0.3, 0.4) (in a triangle) is the exact
 * one to within the discretisation error. */
static void robin_outputs(hdgcl_context ctx) {
  solved s = solve_file(ctx, "mixed:8", "manufactured-robin.json", 2);
  CHECK_OK(s.status);
  if (!s.status) {
    const hdgcl_result *r = s.result;
    CHECK(r->num_outputs == 3);
    double integral = r->outputs[1].values[0], u = r->outputs[2].values[0];
    double exact = sin(pi * 0.3) * cos(pi * 0.4) + 0.3;
    printf("manufactured-robin on mixed:8 p=2: integral %.10f (1/2), u(0.3, 0.4) %.8f (%.8f), "
           "flux %.8f\n", integral, u, exact, r->outputs[0].values[0]);
    CHECK_MSG(fabs(integral - 0.5) < 1e-5, "integral of u: %.10f", integral);
    CHECK_MSG(fabs(u - exact) < 1e-3, "u(0.3, 0.4): %.8f, exact %.8f", u, exact);
  }
  solved_destroy(&s);
}

static void asm_agrees(hdgcl_context ref, hdgcl_context dev, int p) {
  char order[8];
  snprintf(order, sizeof order, "%d", p);
  const char *mesh = "mixed:4,distort=0.1";
  solved r = solve_with(ref, mesh, "order", order, NULL);
  solved d = solve_with(dev, mesh, "order", order, "precond", "asm", NULL);
  check_agree("helmholtz-sin, --precond asm (device)", &r, &d, p);
  solved_destroy(&r);
  solved_destroy(&d);
}

/* Elasticity (docs/elasticity.md): device = reference with traction faces
 * (elasticity-mixed) at p = 2, rates of elasticity at p = 2 on mixed:8..16
 * (reference path; u within 0.25 of p + 1, H and u* above p + 0.5 and p + 1.5:
 * 2.82, 2.65, 3.72 here, 2.84, 2.67, 3.73 on quad:8..16), and the VTU file's
 * cells of each type. */
static void elasticity(hdgcl_context ref, hdgcl_context dev) {
  const char *mesh = "mixed:4,distort=0.1";
  solved r = solve_with(ref, mesh, "problem", "elasticity-mixed", "order", "2", NULL);
  solved d = solve_with(dev, mesh, "problem", "elasticity-mixed", "order", "2", NULL);
  check_agree_nc("elasticity-mixed (traction faces)", &r, &d, 2, 2);
  if (!d.status) {
    char path[512];
    const char *tmp = getenv("TMPDIR");
    snprintf(path, sizeof path, "%s/hdgcl_mixed_elas_%d.vtu", tmp && tmp[0] ? tmp : "/tmp", (int)getpid());
    CHECK_OK(hdgcl_solver_write_vtu(d.solver, path, 2));
    FILE *f = fopen(path, "r");
    int tri = 0, quad = 0, in = 0;
    char line[256];
    while (f && fgets(line, sizeof line, f)) {
      if (strstr(line, "Name=\"types\"")) in = 1;
      else if (in && strstr(line, "</DataArray>")) in = 0;
      else if (in) {
        tri += atoi(line) == 5;
        quad += atoi(line) == 9;
      }
    }
    if (f) fclose(f);
    remove(path);
    CHECK_MSG(tri == 16 * 4 && quad == 8 * 4, "elasticity VTU: %d triangle, %d quadrilateral cells", tri, quad);
  }
  solved_destroy(&r);
  solved_destroy(&d);
  solved s0 = solve_with(ref, "mixed:8", "problem", "elasticity", "order", "2", NULL);
  solved s1 = solve_with(ref, "mixed:16", "problem", "elasticity", "order", "2", NULL);
  CHECK_OK(s0.status);
  CHECK_OK(s1.status);
  if (!s0.status && !s1.status) {
    double e0[3] = {s0.result->l2_u, s0.result->l2_q, s0.result->l2_ustar}, rt[3];
    double e1[3] = {s1.result->l2_u, s1.result->l2_q, s1.result->l2_ustar};
    for (int k = 0; k < 3; k++) rt[k] = log(e0[k] / e1[k]) / log(2.0);
    printf("elasticity p=2 mixed:8..16 rates u %.2f H %.2f u* %.2f\n", rt[0], rt[1], rt[2]);
    CHECK_MSG(fabs(rt[0] - 3) <= 0.25 && rt[1] >= 2.5 && rt[2] >= 3.5, "elasticity rates %.2f %.2f %.2f",
              rt[0], rt[1], rt[2]);
  }
  solved_destroy(&s0);
  solved_destroy(&s1);
}

/* The patches' slots: a triangle's neighbours walked modulo its own 3 faces
 * (patch_slot modulo NFACES = 4 leaves CG without convergence). */
static void asm_iterations(hdgcl_context dev) {
  solved a = solve_with(dev, "mixed:8", "order", "2", "precond", "asm", NULL);
  solved b = solve_with(dev, "mixed:8", "order", "2", "precond", "block-jacobi", NULL);
  CHECK_OK(a.status);
  CHECK_OK(b.status);
  if (!a.status && !b.status) {
    printf("mixed:8 p=2 CG iterations: asm %d, block-jacobi %d (L2(u) %.4e, %.4e)\n",
           a.result->iterations, b.result->iterations, a.result->l2_u, b.result->l2_u);
    CHECK_MSG(a.result->iterations < 0.8 * b.result->iterations, "asm %d iterations, block-jacobi %d",
              a.result->iterations, b.result->iterations);
    CHECK_MSG(fabs(a.result->l2_u - b.result->l2_u) < 1e-9 * b.result->l2_u, "L2(u) differ");
  }
  solved_destroy(&a);
  solved_destroy(&b);
}

int main(int argc, char **argv) {
  if (argc > 1) examples = argv[1];
  hdgcl_context ref = NULL;
  CHECK_OK(hdgcl_context_create("ref", NULL, &ref));
  if (!ref) CHECK_DONE();
  hdgcl_context dev = test_device();
  /* (few degrees and programs: PoCL compiles are most of the time) */
  transient(ref, dev, "heat", "dirk2", 2);
  transient(ref, dev, "heat-boundary", "bdf2", 2);
  transient_rates(ref);
  problem_file(ref, dev, "variable-coefficients.json", 1);
  problem_file(ref, dev, "heat-transient.json", 1);
  file_rates(ref, "variable-coefficients.json", 2);
  tensor_kappa(ref, dev);
  robin_outputs(ref);
  elasticity(ref, dev);
  for (int p = 1; p <= 2; p++) asm_agrees(ref, dev, p);
  asm_iterations(dev);
  hdgcl_context_destroy(&dev);
  hdgcl_context_destroy(&ref);
  CHECK_DONE();
}
