/* Lame parameters per element (docs/elasticity.md section 13).
 *
 *   - elasticity-bimaterial's exact solution (cl/fem/problems.h) against central
 *     differences (grad u, p = -(mu + lambda) div u, f = -div sigma) on both
 *     sides, 2D and 3D, and its interface conditions at x = 1/2: u and
 *     sigma e_x continuous, a tangential derivative d_y u_x that is not zero
 *     (so the pseudo-stress form alone would converge to a wrong solution);
 *   - rates on the reference path (triangles p = 1, 3, 4) and on the OpenCL
 *     device (tetrahedra p = 2), contrast 10: u, H, p within 0.2 of p+1, u*
 *     within 0.3 of p+2; the assembled trace matrix is symmetric;
 *   - the same materials given by element tag (--material on a mesh tagged
 *     1 | 2 across x = 1/2) give the same solution, bit for bit, as the
 *     problem's own; another material by tag changes it (its errors by more
 *     than 20 %: it is no longer the problem's exact solution);
 *   - one material for every element through --material is the default
 *     method bit for bit (no (E17) terms when mu is uniform);
 *   - device = reference path to 1e-10 with materials per element on
 *     triangles, quadrilaterals, tetrahedra and hexahedra, also with
 *     traction data (elasticity-mixed, nonsymmetric) on tagged meshes;
 *   - bad --material values refused with a message naming the problem;
 *   - the result, the summary and the JSON give the range of mu and lambda;
 *   - a two-layer cantilever (mesh spec split=y:0.5, --material): Euler-Bernoulli
 *     with the layered section's E I (checked by hand), the tip within 3 %. */
#include "cli_run.h"
#include "hdg_test.h"
#include "problem/problem_elasticity.h"

/* sigma = mu (H + H^T) + lambda tr(H) I of the exact solution at x. */
static void exact_stress(const problem_params *pp, const double *x, double *sigma) {
  int d = pp->dim;
  double u[3], h[9], p, mu, lambda;
  elasticity_exact(pp, x, u, h, &p);
  problem_elasticity_material(*pp, x, &mu, &lambda);
  double tr = 0.0;
  for (int i = 0; i < d; i++) tr += h[i * d + i];
  for (int i = 0; i < d; i++)
    for (int j = 0; j < d; j++)
      sigma[i * d + j] = mu * (h[i * d + j] + h[j * d + i]) + (i == j ? lambda * tr : 0.0);
}

static void check_exact(int dim, double mu, double lambda, double contrast) {
  problem_params pp = {.id = PROBLEM_ELASTICITY_BIMATERIAL, .dim = dim, .param = contrast,
                       .mu = mu, .lambda = lambda};
  const double points[4][3] = {{0.2, 0.3, 0.7}, {0.45, 0.8, 0.35}, {0.55, 0.6, 0.2}, {0.85, 0.15, 0.55}};
  const double h = 1e-5;
  for (int k = 0; k < 4; k++) {
    const double *x = points[k];
    double u[3], g[9], p, f[3], m, l;
    elasticity_exact(&pp, x, u, g, &p);
    elasticity_load(&pp, x, f);
    problem_elasticity_material(pp, x, &m, &l);
    double div = 0.0, scale = 0.0;
    for (int i = 0; i < dim; i++) div += g[i * dim + i];
    for (int i = 0; i < dim * dim; i++) scale = fmax(scale, fabs(g[i]));
    CHECK_MSG(fabs(p + (m + l) * div) <= 1e-12 * (m + l) * scale, "%dD p at point %d", dim, k);
    for (int j = 0; j < dim; j++) {
      double xp[3] = {x[0], x[1], x[2]}, xm[3] = {x[0], x[1], x[2]};
      xp[j] += h;
      xm[j] -= h;
      double up[3], um[3], gp[9], gm[9], pp_, pm_;
      elasticity_exact(&pp, xp, up, gp, &pp_);
      elasticity_exact(&pp, xm, um, gm, &pm_);
      for (int i = 0; i < dim; i++)
        CHECK_MSG(fabs((up[i] - um[i]) / (2 * h) - g[i * dim + j]) <= 1e-7 * (1 + scale),
                  "%dD d_%d u_%d at point %d", dim, j, i, k);
    }
    double divs[3] = {0, 0, 0}, smax = 0.0; /* div sigma by central differences */
    for (int j = 0; j < dim; j++) {
      double xp[3] = {x[0], x[1], x[2]}, xm[3] = {x[0], x[1], x[2]}, sp[9], sm[9];
      xp[j] += h;
      xm[j] -= h;
      exact_stress(&pp, xp, sp);
      exact_stress(&pp, xm, sm);
      for (int i = 0; i < dim; i++) {
        divs[i] += (sp[i * dim + j] - sm[i * dim + j]) / (2 * h);
        smax = fmax(smax, fabs(sp[i * dim + j]));
      }
    }
    for (int i = 0; i < dim; i++)
      CHECK_MSG(fabs(f[i] + divs[i]) <= 1e-5 * (1 + smax), "%dD f_%d at point %d: %g vs %g", dim, i,
                k, f[i], -divs[i]);
  }
  /* x = 1/2: u and the traction sigma e_x continuous; d_y u_x not zero there. */
  const double side = 1e-12;
  for (int k = 0; k < 3; k++) {
    double y = 0.2 + 0.25 * k, z = 0.7 - 0.15 * k; /* not y = 1/2, where d_y w = 0 */
    double xl[3] = {0.5 - side, y, z}, xr[3] = {0.5 + side, y, z};
    double ul[3], ur[3], gl[9], gr[9], pl, pr, sl[9], sr[9];
    elasticity_exact(&pp, xl, ul, gl, &pl);
    elasticity_exact(&pp, xr, ur, gr, &pr);
    exact_stress(&pp, xl, sl);
    exact_stress(&pp, xr, sr);
    for (int i = 0; i < dim; i++) {
      CHECK_MSG(fabs(ul[i] - ur[i]) <= 1e-9, "%dD u_%d jumps at x = 1/2", dim, i);
      CHECK_MSG(fabs(sl[i * dim] - sr[i * dim]) <= 1e-8 * (1 + fabs(sr[i * dim])),
                "%dD sigma_%d0 jumps at x = 1/2: %g vs %g", dim, i, sl[i * dim], sr[i * dim]);
    }
    CHECK_MSG(fabs(gl[1]) > 0.1, "%dD d_y u_x = %g at x = 1/2", dim, gl[1]);
    if (contrast != 1.0) /* the pseudo-traction (mu H - p I) e_x does jump */
      CHECK_MSG(fabs(mu * gl[dim] - contrast * mu * gr[dim]) > 1e-3, "%dD pseudo-traction", dim);
  }
}

typedef struct rate_case {
  const char *kind;
  int order, n0; /* meshes kind:n0, 2 n0, 4 n0 */
  bool device;   /* on the OpenCL device (else the reference path) */
} rate_case;

static void check_rates(hdgcl_context ref, hdgcl_context dev, const rate_case *rc) {
  double e[3][4], h[3];
  char order[8];
  snprintf(order, sizeof order, "%d", rc->order);
  for (int level = 0; level < 3; level++) {
    char mesh[64];
    snprintf(mesh, sizeof mesh, "%s:%d", rc->kind, rc->n0 << level);
    solved s = solve_with(rc->device ? dev : ref, mesh, "problem", "elasticity-bimaterial", "order",
                          order, "rtol", "1e-13", "maxit", "100000", NULL);
    CHECK_MSG(s.status == 0, "bimaterial %s p=%d", mesh, rc->order);
    if (s.status) {
      solved_destroy(&s);
      return;
    }
    const hdgcl_result *r = s.result;
    e[level][0] = r->l2_u;
    e[level][1] = r->l2_q;
    e[level][2] = r->l2_p;
    e[level][3] = r->l2_ustar;
    h[level] = r->h;
    if (level == 0) { /* the trace system stays symmetric (E17) */
      double asym = trace_matrix_asymmetry(s.solver);
      CHECK_MSG(asym <= 1e-12, "bimaterial %s p=%d: matrix asymmetry %.2e", mesh, rc->order, asym);
    }
    solved_destroy(&s);
  }
  const char *names[4] = {"u", "H", "p", "u*"};
  printf("elasticity-bimaterial %-6s p=%d n=%d..%d %s:", rc->kind, rc->order, rc->n0, rc->n0 << 2,
         rc->device ? "device" : "ref");
  for (int k = 0; k < 4; k++) {
    double rate = log(e[1][k] / e[2][k]) / log(h[1] / h[2]);
    double want = rc->order + (k == 3 ? 2 : 1), tol = k == 3 ? 0.3 : 0.2;
    printf(" %s %.2f (%.2e)", names[k], rate, e[2][k]);
    CHECK_MSG(fabs(rate - want) <= tol, "bimaterial %s p=%d: %s rate %.2f", rc->kind, rc->order,
              names[k], rate);
  }
  printf("\n");
  fflush(stdout);
}

/* Solves problem on `spec` with its elements tagged 1 (centroid x < 1/2) or
 * 2 (x > 1/2) and the "key", "value", ... pairs (NULL-terminated). */
static solved solve_tagged(hdgcl_context ctx, const char *spec, ...) {
  solved s = {0};
  hdgcl_options opts = NULL;
  hdgcl_options_create(&opts);
  va_list ap;
  va_start(ap, spec);
  for (const char *k = va_arg(ap, const char *); k; k = va_arg(ap, const char *))
    hdgcl_options_set(opts, k, va_arg(ap, const char *));
  va_end(ap);
  s.status = hdgcl_mesh_create_from_spec(spec, &s.mesh);
  if (!s.status) {
    hdgcl_mesh *m = s.mesh;
    int nv = m->verts_per_element;
    for (int32_t e = 0; e < m->num_elements; e++) {
      double x = 0.0;
      for (int a = 0; a < nv; a++) x += m->coords[(size_t)m->elem_verts[(size_t)e * nv + a] * m->dim] / nv;
      m->elem_tags[e] = x < 0.5 ? 1 : 2;
    }
    s.status = hdgcl_solver_create(ctx, s.mesh, opts, &s.solver);
  }
  if (!s.status) s.status = hdgcl_solver_solve(s.solver);
  if (!s.status) s.status = hdgcl_solver_result(s.solver, &s.result);
  if (s.status) fprintf(stderr, "tagged %s: %s\n", spec, hdgcl_last_error());
  hdgcl_options_destroy(&opts);
  return s;
}

static size_t u_count(const solved *s) {
  const hdgcl_result *r = s->result;
  int dim = s->mesh->dim;
  size_t np = 1;
  for (int k = 1; k <= dim; k++) np = np * (r->order + k) / k; /* simplices; enough for a prefix */
  return (size_t)r->num_elements * dim * np;
}

/* Materials by tag against the problem's own (same solution) and against another (different). */
static void check_tags(hdgcl_context ctx, const char *spec) {
  solved a = solve_tagged(ctx, spec, "problem", "elasticity-bimaterial", "order", "2", "rtol", "1e-13", NULL);
  solved b = solve_tagged(ctx, spec, "problem", "elasticity-bimaterial", "order", "2", "rtol", "1e-13",
                          "material", "1:1:1,2:10:10", NULL);
  solved c = solve_tagged(ctx, spec, "problem", "elasticity-bimaterial", "order", "2", "rtol", "1e-13",
                          "material", "2:2:2", NULL);
  CHECK_MSG(a.status == 0 && b.status == 0 && c.status == 0, "tagged %s", spec);
  if (!a.status && !b.status && !c.status) {
    const double *ua, *ub, *h, *us, *tr;
    CHECK_OK(hdgcl_solver_solution(a.solver, &ua, &h, &us, &tr));
    CHECK_OK(hdgcl_solver_solution(b.solver, &ub, &h, &us, &tr));
    CHECK_MSG(memcmp(ua, ub, u_count(&a) * sizeof(double)) == 0, "%s: --material 1:1:1,2:10:10 "
              "differs from the problem's materials", spec);
    CHECK_MSG(fabs(c.result->l2_u - a.result->l2_u) > 0.2 * a.result->l2_u,
              "%s: --material 2:2:2 gives L2(u) %.3e, the problem's materials %.3e", spec,
              c.result->l2_u, a.result->l2_u);
    printf("tags %-10s L2(u) %.3e (by tag: same), with mu = lambda = 2 on tag 2: %.3e\n", spec,
           a.result->l2_u, c.result->l2_u);
  }
  solved_destroy(&a);
  solved_destroy(&b);
  solved_destroy(&c);
}

/* Device against the reference path with materials per element: matrix,
 * right-hand side and u to 1e-10 relative. */
static void check_device(hdgcl_context dev, hdgcl_context ref, const char *spec, const char *problem,
                         const char *material) {
  const char *rtol = material ? "1e-13" : "1e-14";
  solved d = solve_tagged(dev, spec, "problem", problem, "order", "2", "rtol", rtol, "restart", "60",
                          "maxit", "100000", material ? "material" : NULL, material, NULL);
  solved r = solve_tagged(ref, spec, "problem", problem, "order", "2", "rtol", rtol, "restart", "60",
                          "maxit", "100000", material ? "material" : NULL, material, NULL);
  CHECK_MSG(d.status == 0 && r.status == 0, "%s on %s", problem, spec);
  if (!d.status && !r.status) {
    int rows, slots, nfb, rows2, slots2, nfb2;
    const double *va, *vb, *ra, *rb, *ua, *ub, *h, *us, *tr;
    const int32_t *ca, *cb;
    CHECK_OK(hdgcl_solver_matrix(d.solver, &rows, &slots, &nfb, &va, &ca, &ra));
    CHECK_OK(hdgcl_solver_matrix(r.solver, &rows2, &slots2, &nfb2, &vb, &cb, &rb));
    CHECK(rows == rows2 && slots == slots2 && nfb == nfb2);
    CHECK_OK(hdgcl_solver_solution(d.solver, &ua, &h, &us, &tr));
    CHECK_OK(hdgcl_solver_solution(r.solver, &ub, &h, &us, &tr));
    if (rows == rows2 && slots == slots2 && nfb == nfb2) {
      double dm = relative_difference(va, vb, (size_t)rows * slots * nfb * nfb);
      double drhs = relative_difference(ra, rb, (size_t)rows * nfb);
      double du = relative_difference(ua, ub, u_count(&d));
      printf("device = ref %-22s %-10s %-16s matrix %.1e rhs %.1e u %.1e\n", problem, spec,
             material ? material : "", dm, drhs, du);
      CHECK_MSG(dm < 1e-10 && drhs < 1e-10 && du < 1e-10, "%s on %s: matrix %.2e rhs %.2e u %.2e",
                problem, spec, dm, drhs, du);
    }
  }
  solved_destroy(&d);
  solved_destroy(&r);
}

int main(void) {
  for (int dim = 2; dim <= 3; dim++) {
    check_exact(dim, 1.0, 1.0, 10.0);
    check_exact(dim, 2.0, 30.0, 0.1);
    check_exact(dim, 1.0, 1.0, 1.0);
  }
  hdgcl_context ref = NULL, dev = test_device();
  CHECK_OK(hdgcl_context_create("ref", NULL, &ref));
  if (!ref) CHECK_DONE();

  const rate_case cases[] = {{"square", 1, 4, false}, {"square", 3, 2, false},
                             {"square", 4, 2, false}, {"cube", 2, 2, true}};
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) check_rates(ref, dev, &cases[c]);

  check_tags(ref, "square:4");
  check_tags(dev, "quad:2x3");

  /* One material for all elements (generated meshes are tag 0): no (E17) terms. */
  {
    solved a = solve_with(ref, "square:3", "problem", "elasticity", "order", "2", NULL);
    solved b = solve_with(ref, "square:3", "problem", "elasticity", "order", "2", "material", "0:1:1", NULL);
    CHECK(a.status == 0 && b.status == 0);
    if (!a.status && !b.status) {
      const double *ua, *ub, *h, *us, *tr;
      CHECK_OK(hdgcl_solver_solution(a.solver, &ua, &h, &us, &tr));
      CHECK_OK(hdgcl_solver_solution(b.solver, &ub, &h, &us, &tr));
      CHECK_MSG(memcmp(ua, ub, u_count(&a) * sizeof(double)) == 0, "--material 0:1:1 changes u");
    }
    solved_destroy(&a);
    solved_destroy(&b);
  }

  check_device(dev, ref, "square:2x3", "elasticity-bimaterial", NULL);
  check_device(dev, ref, "quad:2x3", "elasticity-bimaterial", NULL);
  check_device(dev, ref, "cube:2x1x1", "elasticity-bimaterial", NULL);
  check_device(dev, ref, "hex:2x1x1", "elasticity-bimaterial", NULL);
  check_device(dev, ref, "square:2x3", "elasticity-mixed", "2:3:5");
  check_device(dev, ref, "quad:2x2,distort=0.1", "elasticity-mixed", "1:0.5:2,2:3:5");
  check_device(dev, ref, "cube:2x1x1", "elasticity-mixed", "2:3:5");

  /* Bad input (square:2: every element has tag 0). */
  check_rejected(ref, "no Lame parameters", "material", "0:1:1", NULL);
  check_rejected(ref, "expected TAG:MU:LAMBDA", "problem", "elasticity", "material", "0:1", NULL);
  check_rejected(ref, "expected TAG:MU:LAMBDA", "problem", "elasticity", "material", "0:1:1x", NULL);
  check_rejected(ref, "expected TAG:MU:LAMBDA", "problem", "elasticity", "material", "-1:1:1", NULL);
  check_rejected(ref, "given twice", "problem", "elasticity", "material", "0:1:1,0:2:2", NULL);
  check_rejected(ref, "shear modulus", "problem", "elasticity", "material", "0:-1:1", NULL);
  check_rejected(ref, "bulk modulus", "problem", "elasticity", "material", "0:1:-2", NULL);
  check_rejected(ref, "no element of the mesh has tag 7", "problem", "elasticity", "material",
                 "0:1:1,7:1:1", NULL);
  check_rejected(ref, "contrast", "problem", "elasticity-bimaterial", "contrast", "0", NULL);
  /* A composite cantilever (docs/elasticity.md (E19)): square:20x2,size=10x1 with its upper
   * half (tag 2 by split=y:0.5) three times as stiff (E = 3, nu = 0.3): Euler-Bernoulli with
   * the layered section's E I, computed here by hand, and the tip within 3 % of it. */
  {
    solved c = solve_with(ref, "square:20x2,size=10x1,split=y:0.5", "problem", "cantilever", "order",
                          "2", "material", "2:1.1538461538461537:1.7307692307692308", NULL);
    CHECK(c.status == 0);
    if (!c.status) {
      /* two layers of height 1/2, E' = E / (1 - nu^2): neutral axis y_n = (1 * 0.25 + 3 * 0.75) / 4 */
      double ep = 1.0 / (1 - 0.09), yn = 0.625, h = 0.5;
      double ei = ep * (h * h * h / 12 + h * (0.25 - yn) * (0.25 - yn)) +
                  3 * ep * (h * h * h / 12 + h * (0.75 - yn) * (0.75 - yn));
      double weight = 7850.0 * 9.81 / 200e9, beam = weight * 1e4 / (8 * ei);
      const hdgcl_result *r = c.result;
      printf("composite cantilever: tip %.6e, Euler-Bernoulli %.6e (by hand %.6e), ratio %.4f\n",
             r->tip_deflection, r->beam_deflection, beam, r->tip_deflection / beam);
      CHECK_MSG(fabs(r->beam_deflection / beam - 1) < 1e-6, "E I of the layers: %.6e vs %.6e",
                r->beam_deflection, beam);
      CHECK_MSG(fabs(r->tip_deflection / beam - 1) < 0.03, "tip %.6e vs %.6e", r->tip_deflection, beam);
    }
    solved_destroy(&c);
  }

  /* The range of the Lame parameters in the result (NaN for scalar problems). */
  {
    solved b = solve_with(ref, "square:2", "problem", "elasticity-bimaterial", "order", "1",
                          "mu", "2", "lambda", "3", "contrast", "4", NULL);
    solved t = solve_with(ref, "square:2", "order", "1", NULL);
    CHECK(b.status == 0 && t.status == 0);
    if (!b.status)
      CHECK_MSG(b.result->mu_min == 2 && b.result->mu_max == 8 && b.result->lambda_min == 3 &&
                    b.result->lambda_max == 12,
                "mu %g..%g lambda %g..%g", b.result->mu_min, b.result->mu_max,
                b.result->lambda_min, b.result->lambda_max);
    if (!t.status) CHECK(isnan(t.result->mu_min) && isnan(t.result->lambda_max));
    solved_destroy(&b);
    solved_destroy(&t);
  }
  if (getenv("HDGCL_CLI")) {
    CHECK(cli_run(NULL, "solve --device ref --problem elasticity-bimaterial --mesh square:2 --order 1") == 0);
    CHECK_MSG(strstr(cli_out, "material  per element: mu 1..10, lambda 1..10"), "stdout: %s", cli_out);
    CHECK(cli_run(NULL, "solve --device ref --problem elasticity-bimaterial --mesh square:2 --order 1 "
                  "--quiet --json r.json && cat r.json") == 0);
    CHECK_MSG(strstr(cli_out, "\"mu\": [1, 10],") && strstr(cli_out, "\"lambda\": [1, 10],"), "JSON: %s",
              cli_out); /* one key a line (host/cli/report_json.c) */
    CHECK(cli_run(NULL, "solve --device ref --problem elasticity-bimaterial --mesh square:3") != 0);
    int lines = 0;
    for (const char *c = cli_err; *c; c++) lines += *c == '\n';
    CHECK_MSG(strstr(cli_err, "crosses") && lines == 1, "stderr: %s", cli_err);
    CHECK(cli_run(NULL, "solve --help") == 0);
    CHECK(strstr(cli_out, "--material T:M:L") && strstr(cli_out, "--contrast R") &&
          strstr(cli_out, "elasticity-bimaterial"));
  }
  hdgcl_context_destroy(&dev);
  hdgcl_context_destroy(&ref);
  CHECK_DONE();
}
