/* The trace operator's two implementations swapped
 * (host/discretisation/trace_operator.h): on one discretisation, the device
 * pipeline and the reference path run the same steps and must agree to 1e-10
 * relative: the assembled A and b, y = A x for a random x, the solved trace
 * of every face, u, q (H), u*, p and the error norms.  A step out of order is
 * an internal error on both. */
#include "hdg_test.h"
#include "drivers/solver_impl.h"
#include "pipeline/pipeline_operator.h"
#include "reference/reference_operator.h"

#define TOL 1e-10

static void check_close(const char *what, const char *name, const double *device,
                        const double *reference, size_t n) {
  double d = relative_difference(device, reference, n);
  CHECK_MSG(d <= TOL, "%s: %s differs from the reference path's by %.2e relative", what, name, d);
}

static void check_figure(const char *what, const char *name, double device, double reference,
                         double scale) {
  double d = fabs(device - reference);
  CHECK_MSG(d <= TOL * scale || (isnan(device) && isnan(reference)),
            "%s: %s %.15e (device) against %.15e (reference)", what, name, device, reference);
}

/* Both operators on the discretisation of a solver created on the
 * reference context with the options ("key", "value", ..., NULL). */
static void swap(hdgcl_context dev, hdgcl_context ref, const char *mesh_spec, int64_t chunk, ...) {
  hdgcl_options opts = NULL;
  CHECK_OK(hdgcl_options_create(&opts));
  char what[256];
  int len = snprintf(what, sizeof what, "%s", mesh_spec);
  va_list ap;
  va_start(ap, chunk);
  for (const char *k = va_arg(ap, const char *); k; k = va_arg(ap, const char *)) {
    const char *v = va_arg(ap, const char *);
    CHECK_OK(hdgcl_options_set(opts, k, v));
    len += snprintf(what + len, sizeof what - (size_t)len, " --%s %s", k, v);
  }
  va_end(ap);
  hdgcl_mesh *mesh = NULL;
  hdgcl_solver s = NULL;
  CHECK_OK(hdgcl_mesh_create_from_spec(mesh_spec, &mesh));
  CHECK_OK(hdgcl_solver_create(ref, mesh, opts, &s));
  hdgcl_options_destroy(&opts);
  if (!s) {
    hdgcl_mesh_destroy(&mesh);
    return;
  }
  const hdg_discretisation *disc = &s->disc;
  const hdg_sizes *sz = &disc->ref.sz;
  size_t rows = (size_t)disc->num.num_unknown_faces, n = rows * sz->nfb;
  size_t ne = (size_t)mesh->num_elements, nc = (size_t)sz->ncomp;
  solver_settings set = solver_krylov_settings(s);
  pipeline_options popts = {.chunk = chunk, .keep_local = -1, .scratch = SCRATCH_AUTO,
                            .format = s->format};
  hdg_solution sol[2] = {{0}, {0}}; /* 0: reference, 1: device */
  hdgcl_result report = {0};
  trace_operator op[2] = {{0}, {0}};
  CHECK_OK(hdg_solution_create(disc, &sol[0]));
  CHECK_OK(hdg_solution_create(disc, &sol[1]));
  CHECK_OK(reference_operator_create(disc, &set, &sol[0], &op[0]));
  CHECK_OK(pipeline_operator_create(dev, disc, &popts, &set, &sol[1], &report, &op[1]));
  CHECK(!strcmp(op[0].ops->name, "reference") && !strcmp(op[1].ops->name, "device"));
  CHECK(pipeline_operator_pipeline(&op[1]) && !pipeline_operator_pipeline(&op[0]));
  double *x = calloc(n + 1, sizeof *x), *y[2] = {calloc(n + 1, sizeof(double)),
                                                 calloc(n + 1, sizeof(double))};
  for (int i = 0; i < 2; i++) { /* out of order */
    CHECK(trace_operator_apply(&op[i], x, y[i]) == HDGCL_ERROR_INTERNAL);
    CHECK(trace_operator_solve(&op[i]) == HDGCL_ERROR_INTERNAL);
    CHECK(trace_operator_recover(&op[i]) == HDGCL_ERROR_INTERNAL);
  }
  for (int i = 0; i < 2; i++) {
    CHECK_OK(trace_operator_assemble(&op[i]));
    CHECK_OK(trace_operator_matrix(&op[i]));
    CHECK(trace_operator_recover(&op[i]) == HDGCL_ERROR_INTERNAL); /* not solved yet */
  }
  check_close(what, "A", sol[1].matrix, sol[0].matrix, rows * sz->nslots * sz->nfb * sz->nfb);
  check_close(what, "b", sol[1].rhs, sol[0].rhs, n);
  srand(7);
  for (size_t i = 0; i < n; i++) x[i] = (double)rand() / RAND_MAX - 0.5;
  for (int i = 0; i < 2; i++) CHECK_OK(trace_operator_apply(&op[i], x, y[i]));
  check_close(what, "A x", y[1], y[0], n);
  for (int i = 0; i < 2; i++) {
    CHECK_OK(trace_operator_solve(&op[i]));
    CHECK_OK(trace_operator_recover(&op[i]));
  }
  check_close(what, "the trace", sol[1].trace, sol[0].trace, (size_t)mesh->num_faces * sz->nfb);
  check_close(what, "u", sol[1].u, sol[0].u, ne * nc * sz->np);
  check_close(what, "q", sol[1].q, sol[0].q, ne * nc * sz->dim * sz->np);
  check_close(what, "u*", sol[1].ustar, sol[0].ustar, ne * nc * sz->np1);
  if (sol[0].p) check_close(what, "p", sol[1].p, sol[0].p, ne * sz->np);
  double nu = sol[0].norm_u, nq = sol[0].norm_q;
  check_figure(what, "L2(u)", sol[1].l2_u, sol[0].l2_u, nu);
  check_figure(what, "L2(q)", sol[1].l2_q, sol[0].l2_q, nq);
  check_figure(what, "L2(u*)", sol[1].l2_ustar, sol[0].l2_ustar, nu);
  check_figure(what, "norm(u)", sol[1].norm_u, sol[0].norm_u, nu);
  CHECK_MSG(sol[0].iterations > 0 && sol[1].iterations > 0 && sol[0].history_length > 1 &&
                sol[1].history_length > 1,
            "%s: iterations %d / %d", what, sol[1].iterations, sol[0].iterations);
  CHECK_MSG(sol[1].ustar_check <= USTAR_CHECK_TOL && sol[0].ustar_check <= USTAR_CHECK_TOL,
            "%s: u* check %.2e / %.2e", what, sol[1].ustar_check, sol[0].ustar_check);
  /* A second round on the same operators: Newton's method and time stepping
   * assemble and solve again; the results must not change. */
  double l2 = sol[1].l2_u;
  CHECK_OK(trace_operator_assemble(&op[1]));
  CHECK_OK(trace_operator_solve(&op[1]));
  CHECK_OK(trace_operator_recover(&op[1]));
  check_figure(what, "L2(u), assembled and solved again", sol[1].l2_u, l2, nu);
  printf("ok: %s: device and reference operators agree (trace %.1e, u* %.1e)\n", what,
         relative_difference(sol[1].trace, sol[0].trace, (size_t)mesh->num_faces * sz->nfb),
         relative_difference(sol[1].ustar, sol[0].ustar, ne * nc * sz->np1));
  free(x);
  free(y[0]);
  free(y[1]);
  for (int i = 0; i < 2; i++) {
    trace_operator_destroy(&op[i]);
    CHECK(!op[i].ops && !op[i].impl);
    hdg_solution_destroy(&sol[i]);
  }
  hdgcl_solver_destroy(&s);
  hdgcl_mesh_destroy(&mesh);
}

int main(void) {
  hdgcl_context dev = test_device(), ref = NULL;
  CHECK_OK(hdgcl_context_create("ref", NULL, &ref));
  const char *bj = "block-jacobi";
  swap(dev, ref, "square:3", 0, "order", "3", "precond", bj, "rtol", "1e-13", NULL);
  swap(dev, ref, "square:3", 5, "order", "2", "precond", bj, "rtol", "1e-13", "keep-local", "false",
       NULL);
  swap(dev, ref, "quad:2,perturb=0.2,seed=1", 0, "order", "2", "precond", bj, "rtol", "1e-13", NULL);
  swap(dev, ref, "cube:1", 0, "order", "2", "precond", bj, "rtol", "1e-13", NULL);
  swap(dev, ref, "square:2", 0, "problem", "elasticity", "order", "2", "precond", bj, "rtol", "1e-13",
       NULL);
  swap(dev, ref, "square:3", 0, "problem", "convection-diffusion", "order", "2", "solver", "gmres",
       "precond", bj, "rtol", "1e-13", NULL);
  swap(dev, ref, "square:3", 0, "problem", "poisson-mixed", "order", "3", "format", "ell", "precond",
       "jacobi", "rtol", "1e-13", NULL);
  hdgcl_context_destroy(&ref);
  hdgcl_context_destroy(&dev);
  CHECK_DONE();
}
