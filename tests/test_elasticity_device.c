/* The device pipeline of the vector problems (docs/elasticity.md, "Device
 * pipeline") against the serial reference path (--device ref):
 *   - elasticity, elasticity-incompressible (lambda = 1e4), elasticity-mixed
 *     (traction data, nonsymmetric: GMRES) and elasticity-linear (u = A x,
 *     reproduced exactly) on triangles, tetrahedra and curved quadrilaterals
 *     at p = 1, 2, 3 and on hexahedra at p = 1, 2: the
 *     trace matrix and right-hand side (1e-10 relative to their largest
 *     entry), the trace, u, H, p and u* (1e-10 relative; p relative to
 *     max(|p|, (mu + lambda) |H|), see compare()) and the errors of u,
 *     H, p, u* (1e-8 relative, as test_hdg_agreement; elasticity-linear's are
 *     round-off on both paths); the matrix is symmetric without traction data
 *     and is not with it;
 *   - storages bell / ell / bell-i give the same matrix and solution, chunked
 *     recomputed local solvers the bitwise same solution, CG with none /
 *     jacobi / block-jacobi / chebyshev / asm and GMRES the same solution;
 *     with traction data GMRES + asm that of GMRES + block-jacobi, and the
 *     cantilever's tip deflection (GMRES(60) + asm) the reference's; on
 *     tetrahedra with traction data chunks and the global scratch are bitwise
 *     the single local-memory batch;
 *   - HDGCL_LOCAL_INVERT=cholesky is refused (Z is indefinite);
 *   - the CLI ($HDGCL_CLI) on the default device prints L2(H) and L2(p), also
 *     with --precond pmg (test_pmg checks p-multigrid on the vector problems). */
#include "cli_run.h"
#include "hdg_test.h"

typedef struct fields {
  const double *u, *h, *ustar, *trace, *p, *values, *rhs;
  const int32_t *cols;
  int rows, slots, nfb;
} fields;

static int get_fields(solved *s, fields *f) {
  int st = hdgcl_solver_solution(s->solver, &f->u, &f->h, &f->ustar, &f->trace);
  if (!st) st = hdgcl_solver_pressure(s->solver, &f->p);
  if (!st)
    st = hdgcl_solver_matrix(s->solver, &f->rows, &f->slots, &f->nfb, &f->values, &f->cols, &f->rhs);
  return st;
}

static size_t simplex_size(int dim, int p) {
  return dim == 1   ? (size_t)(p + 1)
         : dim == 2 ? (size_t)(p + 1) * (p + 2) / 2
                    : (size_t)(p + 1) * (p + 2) * (p + 3) / 6;
}

/* Basis functions of degree p on the mesh's elements (tensor: (p+1)^dim) or faces. */
static size_t basis_size(const hdgcl_mesh *m, int dim, int p) {
  bool tensor = m->type == HDGCL_QUADRILATERAL || m->type == HDGCL_HEXAHEDRON;
  size_t n = 1;
  if (!tensor) return simplex_size(dim, p);
  for (int k = 0; k < dim; k++) n *= (size_t)(p + 1);
  return n;
}

static double max_abs(const double *a, size_t n) {
  double m = 0.0;
  for (size_t i = 0; i < n; i++) m = fmax(m, fabs(a[i]));
  return m;
}

static bool close_errors(double d, double r, double norm) {
  return fabs(d - r) <= 1e-8 * r + 1e-12 * norm;
}

static void compare(hdgcl_context dev, hdgcl_context ref, const char *mesh, const char *problem,
                    int order, const char *lambda) {
  char ord[8];
  snprintf(ord, sizeof ord, "%d", order);
  bool traction = !strcmp(problem, "elasticity-mixed") || !strcmp(problem, "elasticity-linear");
  const char *rtol = traction ? "1e-13" : "1e-14";
  solved d = solve_with(dev, mesh, "problem", problem, "order", ord, "lambda", lambda, "rtol",
                        rtol, "restart", "60", "maxit", "100000", NULL);
  solved r = solve_with(ref, mesh, "problem", problem, "order", ord, "lambda", lambda, "rtol",
                        rtol, "restart", "60", "maxit", "100000", NULL);
  CHECK_MSG(d.status == 0 && r.status == 0, "%s p=%d on %s", problem, order, mesh);
  fields a, b;
  if (d.status || r.status || get_fields(&d, &a) || get_fields(&r, &b)) {
    CHECK_MSG(0, "%s p=%d on %s: no fields", problem, order, mesh);
    goto done;
  }
  int dim = d.mesh->dim;
  CHECK(a.rows == b.rows && a.slots == b.slots && a.nfb == b.nfb);
  CHECK(a.nfb == dim * (int)basis_size(d.mesh, dim - 1, order));
  size_t ne = d.result->num_elements, np = basis_size(d.mesh, dim, order);
  size_t np1 = basis_size(d.mesh, dim, order + 1);
  size_t nval = (size_t)a.rows * a.slots * a.nfb * a.nfb;
  double dm = relative_difference(a.values, b.values, nval);
  double drhs = relative_difference(a.rhs, b.rhs, (size_t)a.rows * a.nfb);
  double eu = relative_difference(a.u, b.u, ne * dim * np);
  double eh = relative_difference(a.h, b.h, ne * dim * dim * np);
  /* p = -(mu + lambda) div u is recovered from terms of size (mu + lambda) |H|:
   * its differences are measured against that scale too (nearly incompressible
   * cases: max |p_h| ~ 0.1, (mu + lambda) max |H_h| ~ 6e4 at lambda = 1e4; the
   * reference path with jacobi instead of block-jacobi moves p by as much as
   * the device does relative to max |p_h|: 1.2e-9 at lambda 1e4, 8e-8 at 1e6). */
  double pscale = fmax(max_abs(b.p, ne * np), (1 + atof(lambda)) * max_abs(b.h, ne * dim * dim * np));
  double ep = relative_difference(a.p, b.p, ne * np) * max_abs(b.p, ne * np) / pscale;
  double es = relative_difference(a.ustar, b.ustar, ne * dim * np1);
  double et = relative_difference(a.trace, b.trace, (size_t)d.result->num_faces * a.nfb);
  CHECK_MSG(dm < 1e-10 && drhs < 1e-10, "%s p=%d on %s: matrix %.2e rhs %.2e", problem, order,
            mesh, dm, drhs);
  CHECK_MSG(eu < 1e-10 && eh < 1e-10 && ep < 1e-10 && es < 1e-10 && et < 1e-10,
            "%s p=%d on %s: device vs reference u %.2e H %.2e p %.2e u* %.2e trace %.2e", problem,
            order, mesh, eu, eh, ep, es, et);
  const hdgcl_result *x = d.result, *y = r.result;
  CHECK_MSG(close_errors(x->l2_u, y->l2_u, y->norm_u) && close_errors(x->l2_q, y->l2_q, y->norm_q) &&
                close_errors(x->l2_p, y->l2_p, y->norm_p + 1) &&
                close_errors(x->l2_ustar, y->l2_ustar, y->norm_u) &&
                close_errors(x->linf_u, y->linf_u, y->norm_u),
            "%s p=%d on %s: errors u %.6e/%.6e H %.6e/%.6e p %.6e/%.6e u* %.6e/%.6e", problem, order,
            mesh, x->l2_u, y->l2_u, x->l2_q, y->l2_q, x->l2_p, y->l2_p, x->l2_ustar, y->l2_ustar);
  CHECK_MSG(fabs(x->norm_u - y->norm_u) <= 1e-12 * y->norm_u &&
                fabs(x->norm_q - y->norm_q) <= 1e-12 * y->norm_q,
            "%s: exact norms differ", problem);
  if (!strcmp(problem, "elasticity-linear"))
    CHECK_MSG(x->l2_u < 1e-9 * x->norm_u && x->l2_q < 1e-9 * x->norm_q &&
                  x->l2_ustar < 1e-9 * x->norm_u,
              "elasticity-linear p=%d on %s not reproduced: %.2e %.2e %.2e", order, mesh, x->l2_u,
              x->l2_q, x->l2_ustar);
  double asym = trace_matrix_asymmetry(d.solver);
  if (traction)
    CHECK_MSG(asym > 1e-6, "%s p=%d: matrix asymmetry only %.2e", problem, order, asym);
  else
    CHECK_MSG(asym < 1e-12, "%s p=%d: matrix asymmetry %.2e", problem, order, asym);
  printf("%-26s p=%d %-28s lambda %-4s matrix %.1e rhs %.1e u %.1e H %.1e p %.1e u* %.1e trace "
         "%.1e  L2(u) %.3e (it %d/%d)\n",
         problem, order, mesh, lambda, dm, drhs, eu, eh, ep, es, et, x->l2_u, x->iterations,
         y->iterations);
done:
  solved_destroy(&d);
  solved_destroy(&r);
}

/* Storages, chunking and solvers must not change the answer. */
static void variants(hdgcl_context dev) {
  const char *mesh = "square:3,perturb=0.2,seed=4";
#define ELAS "problem", "elasticity", "order", "2", "rtol", "1e-14"
  solved base = solve_with(dev, mesh, ELAS, NULL);
  solved v[] = {solve_with(dev, mesh, ELAS, "format", "ell", NULL),
                solve_with(dev, mesh, ELAS, "format", "bell", NULL),
                solve_with(dev, mesh, ELAS, "chunk", "5", "keep-local", "false", NULL),
                solve_with(dev, mesh, ELAS, "precond", "none", NULL),
                solve_with(dev, mesh, ELAS, "precond", "jacobi", NULL),
                solve_with(dev, mesh, ELAS, "precond", "chebyshev", NULL),
                solve_with(dev, mesh, ELAS, "precond", "asm", NULL),
                solve_with(dev, mesh, ELAS, "solver", "gmres", "restart", "40", NULL),
                solve_with(dev, mesh, ELAS, "solver", "gmres", "precond", "asm", NULL)};
  const char *names[] = {"ell", "bell", "chunked", "none", "jacobi", "chebyshev", "asm",
                         "gmres", "gmres+asm"};
#undef ELAS
  enum { NV = sizeof v / sizeof *v };
  CHECK(base.status == 0);
  fields f0;
  if (base.status || get_fields(&base, &f0)) goto done;
  size_t nval = (size_t)f0.rows * f0.slots * f0.nfb * f0.nfb;
  size_t nu = (size_t)base.result->num_elements * 2 * 6;
  for (int i = 0; i < NV; i++) {
    fields f;
    CHECK_MSG(v[i].status == 0, "variant %s failed", names[i]);
    if (v[i].status || get_fields(&v[i], &f)) continue;
    if (i <= 2) {
      CHECK_MSG(memcmp(f.values, f0.values, nval * 8) == 0, "%s: matrix differs", names[i]);
      CHECK_MSG(memcmp(f.rhs, f0.rhs, (size_t)f0.rows * f0.nfb * 8) == 0, "%s: rhs differs", names[i]);
    }
    if (i == 2) {
      CHECK(v[i].result->num_chunks > 1);
      CHECK_MSG(memcmp(f.u, f0.u, nu * 8) == 0, "recomputed local solvers change u");
    }
    double du = relative_difference(f.u, f0.u, nu);
    CHECK_MSG(du < 1e-11, "%s: u differs by %.2e", names[i], du);
    printf("variant %-10s u %.1e, %d iterations\n", names[i], du, v[i].result->iterations);
  }
  CHECK_MSG(base.result->iterations < v[4].result->iterations,
            "block-Jacobi %d iterations, Jacobi %d", base.result->iterations, v[4].result->iterations);
done:
  solved_destroy(&base);
  for (int i = 0; i < NV; i++) solved_destroy(&v[i]);
}

/* Traction data with GMRES + asm (nonsymmetric patches) and the cantilever
 * with each path's defaults (GMRES(62) + pmg on the device, GMRES(1000) +
 * block-jacobi on the reference path): the same solution and tip deflection. */
static void traction_solvers(hdgcl_context dev, hdgcl_context ref) {
  const char *mesh = "square:3,perturb=0.2,seed=4";
  solved a = solve_with(dev, mesh, "problem", "elasticity-mixed", "order", "2", "rtol", "1e-13",
                        "restart", "60", NULL);
  solved b = solve_with(dev, mesh, "problem", "elasticity-mixed", "order", "2", "rtol", "1e-13",
                        "restart", "60", "precond", "asm", NULL);
  CHECK(a.status == 0 && b.status == 0);
  if (!a.status && !b.status) {
    const double *ua, *ub;
    CHECK_OK(hdgcl_solver_solution(a.solver, &ua, NULL, NULL, NULL));
    CHECK_OK(hdgcl_solver_solution(b.solver, &ub, NULL, NULL, NULL));
    double du = relative_difference(ub, ua, (size_t)a.result->num_elements * 2 * 6);
    CHECK_MSG(du < 1e-10, "elasticity-mixed: asm and block-jacobi differ by %.2e", du);
    printf("elasticity-mixed GMRES(60): block-jacobi %d, asm %d iterations, u %.1e\n",
           a.result->iterations, b.result->iterations, du);
  }
  solved_destroy(&a);
  solved_destroy(&b);
  const char *beam = "square:10x1,size=10x1";
  solved d = solve_with(dev, beam, "problem", "cantilever", "order", "2", NULL);
  solved r = solve_with(ref, beam, "problem", "cantilever", "order", "2", NULL);
  CHECK(d.status == 0 && r.status == 0);
  if (!d.status && !r.status) {
    double td = d.result->tip_deflection, tr = r.result->tip_deflection;
    CHECK_MSG(fabs(td - tr) < 1e-6 * fabs(tr) && td > 5e-3 && isnan(d.result->l2_u),
              "cantilever tip deflection %.9e (device) vs %.9e (reference)", td, tr);
    CHECK(d.result->beam_deflection == r.result->beam_deflection);
    CHECK_MSG(!strcmp(d.result->precond, "pmg") && d.result->restart == 62 &&
                  !strcmp(r.result->precond, "block-jacobi") && r.result->restart == 1000,
              "cantilever defaults: %s, restart %d (device); %s, restart %d (reference)",
              d.result->precond, d.result->restart, r.result->precond, r.result->restart);
    printf("cantilever %s p=2: tip deflection %.9e device (%d iterations), %.9e reference\n", beam,
           td, d.result->iterations, tr);
  }
  solved_destroy(&d);
  solved_destroy(&r);
}

/* Tetrahedra with traction data (NONSYMMETRIC local stage): chunked
 * recomputation and the global scratch of Z^-1 and u* give the bitwise same
 * matrix and solution (Z^-1 by Gauss-Jordan in all three: a timed trial could
 * pick the tiled kernel, whose rounding differs, for some of them). */
static void chunks_scratch(hdgcl_context dev) {
  const char *mesh = "cube:1x1x2,perturb=0.15,seed=5";
#define MIXED "problem", "elasticity-mixed", "order", "2", "rtol", "1e-13", "restart", "60"
  setenv("HDGCL_LOCAL_INVERT", "gauss-jordan", 1);
  solved base = solve_with(dev, mesh, MIXED, NULL);
  solved ch = solve_with(dev, mesh, MIXED, "chunk", "5", "keep-local", "false", NULL);
  solved gl = solve_with(dev, mesh, MIXED, "scratch", "global", NULL);
  unsetenv("HDGCL_LOCAL_INVERT");
#undef MIXED
  CHECK(!base.status && !ch.status && !gl.status);
  fields a, b, c;
  if (!base.status && !ch.status && !gl.status && !get_fields(&base, &a) && !get_fields(&ch, &b) &&
      !get_fields(&gl, &c)) {
    size_t nval = (size_t)a.rows * a.slots * a.nfb * a.nfb, ne = base.result->num_elements;
    CHECK(ch.result->num_chunks > 1);
    CHECK_MSG(memcmp(a.values, b.values, nval * 8) == 0 && memcmp(a.values, c.values, nval * 8) == 0,
              "chunked or global-scratch matrix differs");
    CHECK_MSG(memcmp(a.u, b.u, ne * 3 * 10 * 8) == 0 && memcmp(a.u, c.u, ne * 3 * 10 * 8) == 0 &&
                  memcmp(a.ustar, c.ustar, ne * 3 * 20 * 8) == 0 && memcmp(a.p, b.p, ne * 10 * 8) == 0,
              "chunked or global-scratch solution differs");
    printf("elasticity-mixed cube p=2: %d chunks and the global scratch bitwise as one chunk\n",
           ch.result->num_chunks);
  }
  solved_destroy(&base);
  solved_destroy(&ch);
  solved_destroy(&gl);
}

static void refusals(hdgcl_context dev) {
  setenv("HDGCL_LOCAL_INVERT", "cholesky", 1);
  solved c = solve_with(dev, "square:2", "problem", "elasticity", "order", "1", NULL);
  CHECK_MSG(c.status == HDGCL_ERROR_ARGUMENT && strstr(hdgcl_last_error(), "indefinite"),
            "HDGCL_LOCAL_INVERT=cholesky: %s", hdgcl_last_error());
  solved_destroy(&c);
  unsetenv("HDGCL_LOCAL_INVERT");
  const double *p;
  solved sc = solve_with(dev, "square:2", "order", "1", NULL);
  CHECK(sc.status == 0);
  if (!sc.status) CHECK_FAILS(hdgcl_solver_pressure(sc.solver, &p), HDGCL_ERROR_ARGUMENT);
  solved_destroy(&sc);
}

static void cli(void) {
  if (!getenv("HDGCL_CLI")) return;
  CHECK(cli_run(NULL, "solve --problem elasticity --mesh square:2 --order 2") == 0);
  CHECK_MSG(strstr(cli_out, "L2(H)") && strstr(cli_out, "L2(p)") && !strstr(cli_out, "reference"),
            "stdout: %s", cli_out);
  /* p-multigrid on a vector problem (tests/test_pmg.c checks it) */
  CHECK(cli_run(NULL, "solve --problem elasticity --mesh quad:2 --order 2 --precond pmg") == 0);
  CHECK_MSG(strstr(cli_out, "CG + pmg") && strstr(cli_out, "L2(p)"), "stdout: %s", cli_out);
}

int main(void) {
  hdgcl_context dev = test_device(), ref = NULL;
  CHECK_OK(hdgcl_context_create("ref", NULL, &ref));
  const char *tri = "square:2x3,perturb=0.2,seed=3", *tet = "cube:1x1x2,perturb=0.15,seed=5";
  for (int order = 1; order <= 3; order++) {
    compare(dev, ref, tri, "elasticity", order, "1");
    compare(dev, ref, tri, "elasticity-incompressible", order, "1e4");
    compare(dev, ref, tri, "elasticity-mixed", order, "1");
    compare(dev, ref, tri, "elasticity-linear", order, "1");
    compare(dev, ref, tet, "elasticity", order, "1");
    compare(dev, ref, tet, "elasticity-incompressible", order, "1e4");
    compare(dev, ref, tet, "elasticity-mixed", order, "1");
    compare(dev, ref, tet, "elasticity-linear", order, "1");
  }
  /* Mapped elements (bilinear / trilinear, curved by distort). */
  const char *quad = "quad:2x3,distort=0.1", *hex = "hex:2,perturb=0.2,seed=6";
  for (int order = 1; order <= 3; order++) {
    compare(dev, ref, quad, "elasticity", order, "1");
    compare(dev, ref, quad, "elasticity-incompressible", order, "1e4");
    compare(dev, ref, quad, "elasticity-mixed", order, "1");
    compare(dev, ref, quad, "elasticity-linear", order, "1");
  }
  for (int order = 1; order <= 2; order++) {
    compare(dev, ref, hex, "elasticity", order, "1");
    compare(dev, ref, hex, "elasticity-incompressible", order, "1e4");
    compare(dev, ref, hex, "elasticity-mixed", order, "1");
    compare(dev, ref, hex, "elasticity-linear", order, "1");
  }
  compare(dev, ref, "square:3", "elasticity-incompressible", 2, "1e6");
  compare(dev, ref, "square:2", "elasticity-mixed", 2, "100");
  variants(dev);
  traction_solvers(dev, ref);
  chunks_scratch(dev);
  refusals(dev);
  cli();
  hdgcl_context_destroy(&dev);
  hdgcl_context_destroy(&ref);
  CHECK_DONE();
}
