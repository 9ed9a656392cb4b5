/* Compressible Neo-Hookean hyperelasticity, reference path (docs/nonlinear.md
 * section 11, (N19)-(N23)):
 *   - the tangent A = dP/dF (N20) against central differences of P (N19), 2D
 *     and 3D, at deformation gradients far from I (a test may take finite
 *     differences; the code does not);
 *   - the small-strain limit: P(I + H) = mu (H + H^T) + lambda tr(H) I, the
 *     linear Cauchy stress (docs/elasticity.md (E1)), to O(|H|);
 *   - the element residual's Jacobian (N23) against central differences of
 *     the residual (N22) on square:2, p = 2 and cube:1, p = 1;
 *   - at a displacement of size 1e-6 the element residual is its
 *     linearisation at 0 (linear elasticity's element) to O(1e-6);
 *   - J <= 0: neo_hookean_stress says so, and the element refuses with a
 *     one-line error naming the element;
 *   - traction faces (N26): the Jacobian with them (triangles, tetrahedra, a
 *     hexahedron), only their trace rows change, rates with traction data;
 *   - the line search (N27): full steps that fail (GMRES, J <= 0) where it
 *     converges;
 *   - paper 001's cube (neo-hookean-cube): Newton's observed order per
 *     increment, the small-load limit against the linear elasticity solve
 *     with the same traction, one increment against five, 3D hex:2, a mesh
 *     without the loaded side. */
#include <math.h>
#include <string.h>

#include "core/error.h"
#include "drivers/solver_impl.h"
#include "fem/neo_hookean.h"
#include "hdg_test.h"
#include "reference/reference_neo_hookean.h"
#include "reference/reference_neo_hookean_solve.h"

static double frand(unsigned *seed) {
  *seed = *seed * 1103515245u + 12345u;
  return ((*seed >> 8) & 0xffff) / 65535.0 - 0.5; /* in [-1/2, 1/2] */
}

static void check_tangent(int d) {
  unsigned seed = 7u + (unsigned)d;
  double mu = 1.3, lambda = 2.1, h[9], p[9], a[81], pp[9], pm[9], jdet;
  for (int trial = 0; trial < 5; trial++) {
    for (int i = 0; i < d * d; i++) h[i] = 0.8 * frand(&seed);
    if (neo_hookean_stress(d, mu, lambda, h, p, a, &jdet)) continue;
    double err = 0.0, amax = 0.0, eps = 1e-6;
    for (int kl = 0; kl < d * d; kl++) {
      double hp[9], hm[9];
      memcpy(hp, h, sizeof hp);
      memcpy(hm, h, sizeof hm);
      hp[kl] += eps;
      hm[kl] -= eps;
      CHECK(neo_hookean_stress(d, mu, lambda, hp, pp, NULL, &jdet) == 0);
      CHECK(neo_hookean_stress(d, mu, lambda, hm, pm, NULL, &jdet) == 0);
      for (int ij = 0; ij < d * d; ij++) {
        double fd = (pp[ij] - pm[ij]) / (2 * eps), an = a[ij * d * d + kl];
        err = fmax(err, fabs(fd - an));
        amax = fmax(amax, fabs(an));
      }
    }
    printf("%dD: J = %.3f, |A - FD(P)| / |A| = %.2e\n", d, jdet, err / amax);
    CHECK_MSG(err / amax < 1e-8, "%dD tangent vs differences %g", d, err / amax);
  }
  /* small strain: P(I + H) - (mu (H + H^T) + lambda tr H I) = O(|H|^2) */
  double tr = 0.0, dif = 0.0, lin = 0.0, s = 1e-6;
  for (int i = 0; i < d * d; i++) h[i] = s * frand(&seed);
  for (int i = 0; i < d; i++) tr += h[i * d + i];
  CHECK(neo_hookean_stress(d, mu, lambda, h, p, NULL, &jdet) == 0);
  for (int i = 0; i < d; i++)
    for (int j = 0; j < d; j++) {
      double sigma = mu * (h[i * d + j] + h[j * d + i]) + (i == j ? lambda * tr : 0.0);
      dif = fmax(dif, fabs(p[i * d + j] - sigma));
      lin = fmax(lin, fabs(sigma));
    }
  printf("%dD: |H| ~ 1e-6: |P - sigma_linear| / |sigma_linear| = %.2e\n", d, dif / lin);
  CHECK_MSG(dif / lin < 1e-5, "%dD small strain %g", d, dif / lin);
  /* J <= 0 */
  memset(h, 0, sizeof h);
  h[0] = -2.0; /* F_00 = -1 */
  CHECK(neo_hookean_stress(d, mu, lambda, h, p, a, &jdet) == -1 && jdet < 0);
}

static void check_element(hdgcl_context ref, const char *mesh, const char *order, unsigned traction) {
  hdgcl_mesh *m = NULL;
  hdgcl_options opts = NULL;
  hdgcl_solver s = NULL;
  CHECK_OK(hdgcl_mesh_create_from_spec(mesh, &m));
  CHECK_OK(hdgcl_options_create(&opts));
  CHECK_OK(hdgcl_options_set(opts, "problem", "elasticity"));
  CHECK_OK(hdgcl_options_set(opts, "order", order));
  CHECK_OK(hdgcl_solver_create(ref, m, opts, &s));
  if (!s) return;
  const hdg_discretisation *disc = &s->disc;
  int n = reference_neo_hookean_size(disc);
  double *x, *r, *rp, *rm, *jac, *j0;
  CHECK_OK(hdgcl_calloc((size_t)n, sizeof(double), "x", &x));
  CHECK_OK(hdgcl_calloc((size_t)n * 3, sizeof(double), "r", &r));
  CHECK_OK(hdgcl_calloc((size_t)n * n * 2, sizeof(double), "jac", &jac));
  rp = r + n;
  rm = r + 2 * n;
  j0 = jac + (size_t)n * n;
  unsigned seed = 11u;
  double mu = 1.0, lambda = 1.0, eps = 1e-6;
  int e = m->num_elements - 1;
  for (int i = 0; i < n; i++) x[i] = 0.1 * frand(&seed);
  CHECK_OK(reference_neo_hookean_element(disc, e, mu, lambda, traction, x, r, jac));
  double err = 0.0, amax = 0.0;
  for (int k = 0; k < n; k++) { /* column k by central differences */
    double x0 = x[k];
    x[k] = x0 + eps;
    CHECK_OK(reference_neo_hookean_element(disc, e, mu, lambda, traction, x, rp, NULL));
    x[k] = x0 - eps;
    CHECK_OK(reference_neo_hookean_element(disc, e, mu, lambda, traction, x, rm, NULL));
    x[k] = x0;
    for (int i = 0; i < n; i++) {
      double fd = (rp[i] - rm[i]) / (2 * eps), an = jac[(size_t)i * n + k];
      err = fmax(err, fabs(fd - an));
      amax = fmax(amax, fabs(an));
    }
  }
  printf("%s p=%s element %d (traction faces %#x): %d unknowns, |J - FD(R)| / |J| = %.2e\n", mesh,
         order, e, traction, n, err / amax);
  CHECK_MSG(err / amax < 1e-7, "%s: element Jacobian vs differences %g", mesh, err / amax);
  if (traction) { /* (N26) changes the traction faces' trace rows (only) */
    CHECK_OK(reference_neo_hookean_element(disc, e, mu, lambda, 0u, x, rp, NULL));
    double dt = 0.0, dother = 0.0, rmax = 0.0;
    const hdg_sizes *sz = &disc->ref.sz;
    int ot = n - sz->nfaces * sz->nfb;
    for (int i = 0; i < n; i++) {
      int f = i < ot ? -1 : (i - ot) / sz->nfb;
      double dif = fabs(r[i] - rp[i]);
      if (f >= 0 && ((traction >> f) & 1u)) dt = fmax(dt, dif);
      else dother = fmax(dother, dif);
      rmax = fmax(rmax, fabs(r[i]));
    }
    printf("  traction faces: their trace rows change by %.2e, the other rows by %.1e (|R| %.2e)\n",
           dt, dother, rmax);
    CHECK(dt > 1e-4 * rmax && dother == 0.0);
  }
  /* the linear limit: R(x) = J(0) x + O(|x|^2) at |x| ~ 1e-6 (R(0) = 0) */
  double *zero = rm;
  memset(zero, 0, sizeof(double) * n);
  CHECK_OK(reference_neo_hookean_element(disc, e, mu, lambda, traction, zero, rp, j0));
  double r0 = 0.0;
  for (int i = 0; i < n; i++) r0 = fmax(r0, fabs(rp[i]));
  for (int i = 0; i < n; i++) x[i] *= 1e-5; /* |x| ~ 1e-6 */
  CHECK_OK(reference_neo_hookean_element(disc, e, mu, lambda, traction, x, r, NULL));
  double dif = 0.0, lin = 0.0;
  for (int i = 0; i < n; i++) {
    double l = 0.0;
    for (int k = 0; k < n; k++) l += j0[(size_t)i * n + k] * x[k];
    dif = fmax(dif, fabs(r[i] - l));
    lin = fmax(lin, fabs(l));
  }
  printf("%s p=%s: R(0) = %.1e, |x| ~ 1e-6: |R(x) - J(0) x| / |J(0) x| = %.2e\n", mesh, order, r0,
         dif / lin);
  CHECK(r0 < 1e-14);
  CHECK_MSG(dif / lin < 1e-5, "%s: linear limit %g", mesh, dif / lin);
  /* J <= 0: H_00 = -10 everywhere (the constant basis function) */
  memset(x, 0, sizeof(double) * n);
  x[0] = -10.0 / disc->ref.phi_load[0];
  CHECK_FAILS(reference_neo_hookean_element(disc, e, mu, lambda, traction, x, r, jac), HDGCL_ERROR_ARGUMENT);
  char expect[64];
  snprintf(expect, sizeof expect, "element %d: J = det(I + grad u_h) = ", e);
  CHECK_MSG(strstr(hdgcl_last_error(), expect) != NULL && !strchr(hdgcl_last_error(), '\n'),
            "J <= 0: '%s'", hdgcl_last_error());
  printf("J <= 0: %s\n", hdgcl_last_error());
  free(x);
  free(r);
  free(jac);
  hdgcl_solver_destroy(&s);
  hdgcl_options_destroy(&opts);
  hdgcl_mesh_destroy(&m);
}

/* A Newton solve of the manufactured problem u = alpha u_E on mesh at order p. */
typedef struct nh_run {
  hdgcl_mesh *mesh;
  hdgcl_solver s;
  neo_hookean_report rep;
  int status;
} nh_run;

static nh_run nh_solve_on(hdgcl_context ref, const char *problem, const char *mesh,
                          const char *order, double alpha, int load_steps, int load,
                          bool line_search, double rtol) {
  nh_run r = {0};
  hdgcl_options opts = NULL;
  CHECK_OK(hdgcl_mesh_create_from_spec(mesh, &r.mesh));
  CHECK_OK(hdgcl_options_create(&opts));
  CHECK_OK(hdgcl_options_set(opts, "problem", problem));
  CHECK_OK(hdgcl_options_set(opts, "order", order));
  CHECK_OK(hdgcl_solver_create(ref, r.mesh, opts, &r.s));
  hdgcl_options_destroy(&opts);
  if (!r.s) {
    r.status = HDGCL_ERROR_ARGUMENT;
    return r;
  }
  solver_settings set = solver_krylov_settings(r.s);
  set.rtol = rtol;
  neo_hookean_settings ns = {.mu = 1.0, .lambda = 1.0, .alpha = alpha, .load_steps = load_steps,
                             .load = load, .line_search = line_search,
                             .newton_max = 20, .newton_rtol = 1e-11};
  r.status = reference_neo_hookean_solve(&r.s->disc, &set, &r.s->sol, &ns, &r.rep);
  if (r.status) printf("%s %s p=%s alpha %g: %s\n", problem, mesh, order, alpha, hdgcl_last_error());
  return r;
}

static nh_run nh_solve(hdgcl_context ref, const char *mesh, const char *order, double alpha,
                       int load_steps) {
  return nh_solve_on(ref, "elasticity", mesh, order, alpha, load_steps, NEO_HOOKEAN_MANUFACTURED,
                     false, 1e-13);
}

static void nh_destroy(nh_run *r) {
  hdgcl_solver_destroy(&r->s);
  hdgcl_mesh_destroy(&r->mesh);
}

/* The body force (N24) uses the exact u's second derivatives in closed form:
 * against central differences of its gradient (problem_elasticity_u). */
static void check_exact(void) {
  for (int d = 2; d <= 3; d++) {
    double x[3] = {0.31, 0.47, 0.73}, u[3], g[9], f[3], err = 0.0;
    /* with lambda = mu = 1 and alpha -> 0, f -> -div(grad u + grad u^T + div u I) */
    double alpha = 1e-7, eps = 1e-5, gp[9], gm[9], up[3], fdum[3];
    neo_hookean_exact(d, 1.0, 1.0, alpha, x, u, g, f);
    double flin[3] = {0, 0, 0};
    for (int l = 0; l < d; l++) { /* d_l of grad u by differences */
      double xp[3] = {x[0], x[1], x[2]}, xm[3] = {x[0], x[1], x[2]};
      xp[l] += eps;
      xm[l] -= eps;
      neo_hookean_exact(d, 1.0, 1.0, alpha, xp, up, gp, fdum);
      neo_hookean_exact(d, 1.0, 1.0, alpha, xm, up, gm, fdum);
      for (int i = 0; i < d; i++) {
        double dl_gil = (gp[i * d + l] - gm[i * d + l]) / (2 * eps); /* d_l d_l u_i */
        double dl_gli = (gp[l * d + i] - gm[l * d + i]) / (2 * eps); /* d_i d_l u_l */
        flin[i] -= dl_gil + 2.0 * dl_gli; /* mu lap u + (mu + lambda) grad div u */
      }
    }
    for (int i = 0; i < d; i++) err = fmax(err, fabs(f[i] - flin[i]) / (alpha * 10.0));
    printf("%dD: f (N24) at small alpha vs -div sigma by differences: %.2e (relative)\n", d, err);
    CHECK_MSG(err < 1e-4, "%dD body force %g", d, err);
  }
}

static void check_solve(hdgcl_context ref) {
  /* quadratic convergence and rates, 2D plane strain, alpha = 1 (|grad u| up to 0.08) */
  static const struct {
    const char *coarse, *fine, *order;
    int p;
  } cases[] = {{"square:4", "square:8", "1", 1}, {"square:4", "square:8", "2", 2}, {"cube:2", "cube:4", "1", 1}};
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    nh_run a = nh_solve(ref, cases[c].coarse, cases[c].order, 1.0, 1);
    nh_run b = nh_solve(ref, cases[c].fine, cases[c].order, 1.0, 1);
    CHECK_OK(a.status);
    CHECK_OK(b.status);
    if (!a.status && !b.status) {
      const neo_hookean_report *r = &b.rep;
      printf("%s p=%s: %d Newton steps, %d GMRES iterations, ||R||:", cases[c].fine, cases[c].order,
             r->newton_steps, r->iterations);
      for (int i = 0; i < r->history_length; i++) printf(" %.3e", r->history[i]);
      double ru = log2(a.rep.l2_u / b.rep.l2_u), rh = log2(a.rep.l2_h / b.rep.l2_h);
      printf("\n  L2(u) %.3e -> %.3e (rate %.2f), L2(H) %.3e -> %.3e (rate %.2f)\n", a.rep.l2_u,
             b.rep.l2_u, ru, a.rep.l2_h, b.rep.l2_h, rh);
      int n = r->history_length - 1;
      if (n >= 3) {
        double order = log(r->history[n - 1] / r->history[n - 2]) / log(r->history[n - 2] / r->history[n - 3]);
        printf("  observed order at the step before the last: %.2f\n", order);
        CHECK_MSG(order > 1.6, "Newton order %.2f", order);
      }
      bool coarse3d = cases[c].coarse[0] == 'c';
      CHECK_MSG(ru > cases[c].p + 1 - (coarse3d ? 0.6 : 0.2), "rate u %.2f", ru);
      CHECK_MSG(rh > cases[c].p + 1 - (coarse3d ? 0.8 : 0.3), "rate H %.2f", rh);
    }
    nh_destroy(&a);
    nh_destroy(&b);
  }
}

/* At small load the Neo-Hookean solve is today's linear `elasticity` solve
 * (the pseudo-stress (N21) linearised is (E2)'s mu H - p I): u_h / alpha, H_h /
 * alpha and the trace / alpha against it, the difference O(alpha). */
static void check_linear_limit(hdgcl_context ref) {
  solved lin = solve_with(ref, "square:4", "problem", "elasticity", "order", "2", "rtol", "1e-13", NULL);
  CHECK_OK(lin.status);
  if (lin.status) return;
  const double *lu, *lq, *ls, *lt;
  CHECK_OK(hdgcl_solver_solution(lin.solver, &lu, &lq, &ls, &lt));
  double dprev = 0.0;
  static const double alphas[] = {1e-2, 1e-4};
  for (int i = 0; i < 2; i++) {
    nh_run r = nh_solve(ref, "square:4", "2", alphas[i], 1);
    CHECK_OK(r.status);
    if (!r.status) {
      const hdg_sizes *sz = &r.s->disc.ref.sz;
      size_t ne = (size_t)r.mesh->num_elements, nu = ne * 2 * sz->np, nh = 2 * nu;
      size_t nt = (size_t)r.mesh->num_faces * sz->nfb;
      double *v = NULL;
      CHECK_OK(hdgcl_calloc(nh, sizeof(double), "scaled", &v));
      double d = 0.0;
      for (size_t k = 0; k < nu; k++) v[k] = r.s->sol.u[k] / alphas[i];
      d = fmax(d, relative_difference(v, lu, nu));
      for (size_t k = 0; k < nh; k++) v[k] = r.s->sol.q[k] / alphas[i];
      d = fmax(d, relative_difference(v, lq, nh));
      double *w = NULL;
      CHECK_OK(hdgcl_calloc(nt, sizeof(double), "scaled trace", &w));
      for (size_t k = 0; k < nt; k++) w[k] = r.s->sol.trace[k] / alphas[i];
      d = fmax(d, relative_difference(w, lt, nt));
      printf("square:4 p=2, u = %g u_E: %d Newton steps; u, H, trace / alpha vs the linear "
             "elasticity solve: %.2e\n", alphas[i], r.rep.newton_steps, d);
      CHECK_MSG(d < 1e-2 * alphas[i], "alpha %g: %g from the linear solve", alphas[i], d);
      if (i == 1) CHECK_MSG(dprev / d > 30, "difference not O(alpha): %g, %g", dprev, d);
      dprev = d;
      free(v);
      free(w);
    }
    nh_destroy(&r);
  }
  solved_destroy(&lin);
}

/* The problem through the API (hdgcl solve --problem neo-hookean): the
 * internal solve's errors; load steps; refusals. */
static void check_problem(hdgcl_context ref) {
  solved a = solve_with(ref, "square:8", "problem", "neo-hookean", "order", "2", NULL);
  CHECK_OK(a.status);
  if (!a.status) {
    printf("neo-hookean square:8 p=2: %d Newton steps, L2(u) %.4e, L2(H) %.4e\n",
           a.result->newton_steps, a.result->l2_u, a.result->l2_q);
    CHECK_MSG(fabs(a.result->l2_u - 8.099e-5) < 1e-8 && fabs(a.result->l2_q - 1.210e-4) < 1e-7,
              "L2(u) %g, L2(H) %g", a.result->l2_u, a.result->l2_q);
  }
  solved_destroy(&a);
  /* alpha = 10 (|grad u| up to about 0.8): one load step of full Newton steps
   * fails (GMRES on a later Jacobian), four converge, and so does one with the
   * line search (N11), (N27) */
  solved b = solve_with(ref, "square:4", "problem", "neo-hookean", "order", "2", "load-scale", "10",
                        "line-search", "false", NULL);
  printf("load-scale 10 in one step, full steps: %s\n", hdgcl_status_name(b.status));
  CHECK(b.status == HDGCL_ERROR_CONVERGENCE);
  solved_destroy(&b);
  solved c = solve_with(ref, "square:4", "problem", "neo-hookean", "order", "2", "load-scale", "10",
                        "load-steps", "4", NULL);
  CHECK_OK(c.status);
  if (!c.status) {
    printf("load-scale 10 in 4 load steps: %d Newton steps (last step %d), L2(u) %.3e\n",
           c.result->newton_steps_all, c.result->newton_steps, c.result->l2_u);
    CHECK(c.result->newton_steps_all > c.result->newton_steps && c.result->load_steps == 4);
    CHECK(c.result->newton_history[c.result->newton_steps] <= 1e-8 * c.result->newton_history[0]);
  }
  solved_destroy(&c);
  /* alpha = 12 in one load step: a full step has J <= 0 (the element's error);
   * the line search halves it and converges */
  solved j0 = solve_with(ref, "square:4", "problem", "neo-hookean", "order", "2", "load-scale", "12",
                         "line-search", "false", NULL);
  CHECK(j0.status == HDGCL_ERROR_ARGUMENT && strstr(hdgcl_last_error(), "<= 0 at a quadrature point"));
  printf("load-scale 12, full steps: %s\n", hdgcl_last_error());
  solved_destroy(&j0);
  solved j1 = solve_with(ref, "square:4", "problem", "neo-hookean", "order", "2", "load-scale", "12", NULL);
  CHECK_OK(j1.status);
  if (!j1.status) {
    printf("load-scale 12 with the line search: %d Newton steps, %d halvings (%d for J <= 0), "
           "||R|| %.2e -> %.2e\n", j1.result->newton_steps, j1.result->line_search_halvings,
           j1.result->line_search_halvings_j, j1.result->newton_history[0],
           j1.result->newton_history[j1.result->newton_steps]);
    CHECK(j1.result->line_search_halvings_j > 0);
  }
  solved_destroy(&j1);
  check_rejected(ref, "--load-steps: an option of --problem neo-hookean", "problem", "elasticity",
                 "load-steps", "2", NULL);
  check_rejected(ref, "--load-scale nan", "problem", "neo-hookean", "load-scale", "nan", NULL);
  check_rejected(ref, "--line-search: an option of --problem neo-hookean", "problem",
                 "nonlinear-diffusion", "line-search", "false", NULL);
  check_rejected(ref, "load-steps", "problem", "neo-hookean", "load-steps", "0", NULL);
  check_rejected(ref, "not implemented", "problem", "neo-hookean", "ptc", "true", NULL);
  solved j = solve_with(ref, "square:4", "problem", "neo-hookean", "order", "2", "load-scale", "20", NULL);
  CHECK(j.status == HDGCL_ERROR_ARGUMENT);
  CHECK_MSG(strstr(hdgcl_last_error(), "has J <= 0 at") && !strchr(hdgcl_last_error(), '\n'),
            "%s", hdgcl_last_error());
  solved_destroy(&j);
}

/* The cube (paper 001 section 5.4, 2D plane strain here: square clamped at
 * x = 0, traction -alpha e_y on x = 1): at a small load u_h / alpha, H_h /
 * alpha and the trace / alpha against today's linear elasticity solve with the
 * same traction (a user's problem: displacement 0 on the left side, traction
 * (0, -1) on the right, 0 on top and bottom), the difference O(alpha). */
static void check_cube_linear(hdgcl_context ref) {
  solved lin = solve_with(ref, "square:4", "problem", "user", "pde", "elasticity", "order", "2", "tau", "10",
                          "rtol", "1e-10",
                          "bc", "left: displacement: 0; right: traction: 0, -1; top, bottom: traction: 0",
                          NULL);
  CHECK_OK(lin.status);
  if (lin.status) return;
  const double *lu, *lq, *ls, *lt;
  CHECK_OK(hdgcl_solver_solution(lin.solver, &lu, &lq, &ls, &lt));
  double dprev = 0.0;
  static const double alphas[] = {1e-4, 1e-6};
  for (int i = 0; i < 2; i++) {
    nh_run r = nh_solve_on(ref, "neo-hookean-cube", "square:4", "2", alphas[i], 1, NEO_HOOKEAN_CUBE,
                           true, 1e-10);
    CHECK_OK(r.status);
    if (!r.status) {
      const hdg_sizes *sz = &r.s->disc.ref.sz;
      size_t ne = (size_t)r.mesh->num_elements, nu = ne * 2 * sz->np, nh = 2 * nu;
      size_t nt = (size_t)r.mesh->num_faces * sz->nfb;
      double *v = NULL;
      CHECK_OK(hdgcl_calloc(nh + nt, sizeof(double), "scaled", &v));
      double d = 0.0;
      for (size_t k = 0; k < nu; k++) v[k] = r.s->sol.u[k] / alphas[i];
      d = fmax(d, relative_difference(v, lu, nu));
      for (size_t k = 0; k < nh; k++) v[k] = r.s->sol.q[k] / alphas[i];
      d = fmax(d, relative_difference(v, lq, nh));
      for (size_t k = 0; k < nt; k++) v[k] = r.s->sol.trace[k] / alphas[i];
      d = fmax(d, relative_difference(v, lt, nt));
      printf("cube square:4 p=2, traction %g: %d Newton steps, loaded face u_y / t = %.5f; u, H, "
             "trace / t vs the linear elasticity solve: %.2e\n",
             alphas[i], r.rep.newton_steps, r.rep.face_u[1] / alphas[i], d);
      CHECK_MSG(d < 30 * alphas[i], "traction %g: %g from the linear solve", alphas[i], d);
      if (i == 1) CHECK_MSG(dprev / d > 30, "difference not O(load): %g, %g", dprev, d);
      dprev = d;
      free(v);
    }
    nh_destroy(&r);
  }
  solved_destroy(&lin);
}

/* The least-squares slope of log r_{k+1} against log r_k over the last three
 * steps of h[0..n] above the round-off floor 1e-14: the observed order of
 * Newton's method.  (Successive pairs alternate between about 1.2-1.5 and
 * 2.5-3.3 on the cube, so a single pair is a poor estimate.) */
static double observed_order(const double *h, int n) {
  while (n > 0 && h[n] <= 1e-14) n--;
  int first = n - 3 < 0 ? 0 : n - 3, m = n - first;
  if (m < 2) return NAN;
  double mx = 0, my = 0, sxy = 0, sxx = 0;
  for (int i = first; i < n; i++) {
    mx += log(h[i]) / m;
    my += log(h[i + 1]) / m;
  }
  for (int i = first; i < n; i++) {
    sxy += (log(h[i]) - mx) * (log(h[i + 1]) - my);
    sxx += (log(h[i]) - mx) * (log(h[i]) - mx);
  }
  return sxy / sxx;
}

/* Paper 001's cube (2D plane strain, square:4, p = 2, the defaults: traction
 * 0.1 in 5 increments, tau = 10): every increment converges, quadratically
 * at its end; one increment with full steps fails (J <= 0), with the line
 * search it converges to the same solution. */
static void check_cube(hdgcl_context ref) {
  solved a = solve_with(ref, "square:4", "problem", "neo-hookean-cube", "order", "2", NULL);
  CHECK_OK(a.status);
  double uy = NAN;
  if (!a.status) {
    const hdgcl_result *r = a.result;
    CHECK(r->load_steps == 5 && r->load_newton_steps && r->load_history);
    double mean = 0.0, least = HUGE_VAL;
    for (int l = 0, at = 0; l < r->load_steps; l++) {
      const double *h = r->load_history + at;
      int n = r->load_newton_steps[l];
      double o = observed_order(h, n);
      printf("cube increment %d: %d Newton steps, ||R||:", l + 1, n);
      for (int i = 0; i <= n; i++) printf(" %.2e", h[i]);
      printf(" (observed order %.2f)\n", o);
      CHECK(h[n] <= 1e-8 * h[0] || h[n] <= 1e-13);
      mean += o / r->load_steps;
      least = fmin(least, o);
      at += n + 1;
    }
    uy = r->loaded_face_u[1];
    printf("cube: %d Newton steps in all, %d halvings, loaded face u = (%.6f, %.6f), mean observed "
           "order %.2f (least %.2f)\n", r->newton_steps_all, r->line_search_halvings,
           r->loaded_face_u[0], uy, mean, least);
    CHECK_MSG(mean > 1.7 && least > 1.5, "Newton's observed order: mean %.2f, least %.2f", mean, least);
    CHECK_MSG(fabs(uy + 0.276079) < 1e-5, "loaded face u_y %.6f", uy);
    CHECK(isnan(r->l2_u));
  }
  solved_destroy(&a);
  /* 3D, hex:2, p = 1: the traction 0.1 in one increment */
  solved h = solve_with(ref, "hex:2", "problem", "neo-hookean-cube", "order", "1", "load-steps", "1",
                        NULL);
  CHECK_OK(h.status);
  if (!h.status) {
    const hdgcl_result *r = h.result;
    double o = observed_order(r->newton_history, r->newton_steps);
    printf("cube hex:2 p=1, traction 0.1 in one increment: %d Newton steps, %d halvings, ||R|| %.2e "
           "-> %.2e, observed order %.2f, loaded face u_z %.6f\n", r->newton_steps,
           r->line_search_halvings, r->newton_history[0], r->newton_history[r->newton_steps], o,
           r->loaded_face_u[2]);
    CHECK_MSG(o > 1.7, "3D Newton order %.2f", o);
    CHECK(r->loaded_face_u[2] < -0.2 && fabs(r->loaded_face_u[1]) < 1e-10);
  }
  solved_destroy(&h);
  solved b = solve_with(ref, "square:4", "problem", "neo-hookean-cube", "order", "2", "load-scale",
                        "0.2", "load-steps", "1", "line-search", "false", NULL);
  CHECK(b.status == HDGCL_ERROR_ARGUMENT && strstr(hdgcl_last_error(), "<= 0 at a quadrature point"));
  printf("cube, traction 0.2 in one increment, full steps: %s\n", hdgcl_last_error());
  solved_destroy(&b);
  solved c = solve_with(ref, "square:4", "problem", "neo-hookean-cube", "order", "2", "load-scale",
                        "0.2", "load-steps", "1", NULL);
  solved d = solve_with(ref, "square:4", "problem", "neo-hookean-cube", "order", "2", "load-scale",
                        "0.2", NULL);
  CHECK_OK(c.status);
  CHECK_OK(d.status);
  if (!c.status && !d.status) {
    double dif = fabs(c.result->loaded_face_u[1] - d.result->loaded_face_u[1]);
    printf("cube, traction 0.2 in one increment with the line search: %d Newton steps, %d halvings; "
           "u_y %.6f, in 5 increments %.6f\n", c.result->newton_steps, c.result->line_search_halvings,
           c.result->loaded_face_u[1], d.result->loaded_face_u[1]);
    CHECK(c.result->line_search_halvings > 0 && dif < 1e-8);
  }
  solved_destroy(&c);
  solved_destroy(&d);
}

/* A mesh without the loaded side (tag 2) is refused, one line. */
static void check_cube_no_load(hdgcl_context ref) {
  hdgcl_mesh *m = NULL;
  hdgcl_options opts = NULL;
  hdgcl_solver s = NULL;
  CHECK_OK(hdgcl_mesh_create_from_spec("square:2", &m));
  for (int32_t f = m->num_interior_faces; f < m->num_faces; f++)
    if (m->face_tags[f] == 2) m->face_tags[f] = 4;
  CHECK_OK(hdgcl_options_create(&opts));
  CHECK_OK(hdgcl_options_set(opts, "problem", "neo-hookean-cube"));
  CHECK_OK(hdgcl_options_set(opts, "order", "1"));
  CHECK_OK(hdgcl_solver_create(ref, m, opts, &s));
  if (s) {
    CHECK(hdgcl_solver_solve(s) == HDGCL_ERROR_MESH);
    CHECK_MSG(strstr(hdgcl_last_error(), "no traction face of tag 2") && !strchr(hdgcl_last_error(), '\n'),
              "%s", hdgcl_last_error());
    printf("no loaded side: %s\n", hdgcl_last_error());
  }
  hdgcl_solver_destroy(&s);
  hdgcl_options_destroy(&opts);
  hdgcl_mesh_destroy(&m);
}

/* Traction data (N26) with the manufactured u = u_E: the exact traction
 * P(I + grad u) n on x = 1, y = 1 (the discretisation of elasticity-mixed),
 * u and H converge at p + 1 as with Dirichlet data. */
static void check_mixed(hdgcl_context ref) {
  nh_run a = nh_solve_on(ref, "elasticity-mixed", "square:4", "2", 1.0, 1, NEO_HOOKEAN_MANUFACTURED,
                         true, 1e-13);
  nh_run b = nh_solve_on(ref, "elasticity-mixed", "square:8", "2", 1.0, 1, NEO_HOOKEAN_MANUFACTURED,
                         true, 1e-13);
  CHECK_OK(a.status);
  CHECK_OK(b.status);
  if (!a.status && !b.status) {
    double ru = log2(a.rep.l2_u / b.rep.l2_u), rh = log2(a.rep.l2_h / b.rep.l2_h);
    printf("traction on x = 1, y = 1, square:4 -> 8 p=2: %d Newton steps, L2(u) %.3e -> %.3e (rate "
           "%.2f), L2(H) %.3e -> %.3e (rate %.2f)\n", b.rep.newton_steps, a.rep.l2_u, b.rep.l2_u, ru,
           a.rep.l2_h, b.rep.l2_h, rh);
    CHECK_MSG(ru > 2.7 && rh > 2.6, "rates with traction data: u %.2f, H %.2f", ru, rh);
  }
  nh_destroy(&a);
  nh_destroy(&b);
}

int main(void) {
  check_tangent(2);
  check_tangent(3);
  hdgcl_context ref = NULL;
  CHECK_OK(hdgcl_context_create("ref", NULL, &ref));
  check_element(ref, "square:2", "2", 0u);
  check_element(ref, "cube:1", "1", 0u);
  check_element(ref, "square:2", "2", 0x5u); /* (N26) on faces 0 and 2 */
  check_element(ref, "cube:1", "1", 0x3u);
  check_element(ref, "hex:1", "1", 0x2u);
  check_exact();
  check_solve(ref);
  check_linear_limit(ref);
  check_problem(ref);
  check_cube_linear(ref);
  check_cube(ref);
  check_cube_no_load(ref);
  check_mixed(ref);
  hdgcl_context_destroy(&ref);
  CHECK_DONE();
}
