/* Compressible Neo-Hookean hyperelasticity, reference path (docs/nonlinear.md
 * section 11, (N19)-(N22)):
 *   - the tangent A = dP/dF (N20) against central differences of P (N19), 2D
 *     and 3D, at deformation gradients far from I (a test may take finite
 *     differences; the code does not);
 *   - the small-strain limit: P(I + H) = mu (H + H^T) + lambda tr(H) I, the
 *     linear Cauchy stress (docs/elasticity.md (E1)), to O(|H|);
 *   - the element residual's Jacobian (N22) against central differences of
 *     the residual (N21) on square:2, p = 2 and cube:1, p = 1;
 *   - at a displacement of size 1e-6 the element residual is its
 *     linearisation at 0 (linear elasticity's element) to O(1e-6);
 *   - J <= 0: neo_hookean_stress says so, and the element refuses with a
 *     one-line error naming the element. */
#include <math.h>
#include <string.h>

#include "core/error.h"
#include "drivers/solver_impl.h"
#include "fem/neo_hookean.h"
#include "hdg_test.h"
#include "reference/reference_neo_hookean.h"

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

static void check_element(hdgcl_context ref, const char *mesh, const char *order) {
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
  CHECK_OK(reference_neo_hookean_element(disc, e, mu, lambda, x, r, jac));
  double err = 0.0, amax = 0.0;
  for (int k = 0; k < n; k++) { /* column k by central differences */
    double x0 = x[k];
    x[k] = x0 + eps;
    CHECK_OK(reference_neo_hookean_element(disc, e, mu, lambda, x, rp, NULL));
    x[k] = x0 - eps;
    CHECK_OK(reference_neo_hookean_element(disc, e, mu, lambda, x, rm, NULL));
    x[k] = x0;
    for (int i = 0; i < n; i++) {
      double fd = (rp[i] - rm[i]) / (2 * eps), an = jac[(size_t)i * n + k];
      err = fmax(err, fabs(fd - an));
      amax = fmax(amax, fabs(an));
    }
  }
  printf("%s p=%s element %d: %d unknowns, |J - FD(R)| / |J| = %.2e\n", mesh, order, e, n,
         err / amax);
  CHECK_MSG(err / amax < 1e-7, "%s: element Jacobian vs differences %g", mesh, err / amax);
  /* the linear limit: R(x) = J(0) x + O(|x|^2) at |x| ~ 1e-6 (R(0) = 0) */
  double *zero = rm;
  memset(zero, 0, sizeof(double) * n);
  CHECK_OK(reference_neo_hookean_element(disc, e, mu, lambda, zero, rp, j0));
  double r0 = 0.0;
  for (int i = 0; i < n; i++) r0 = fmax(r0, fabs(rp[i]));
  for (int i = 0; i < n; i++) x[i] *= 1e-5; /* |x| ~ 1e-6 */
  CHECK_OK(reference_neo_hookean_element(disc, e, mu, lambda, x, r, NULL));
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
  CHECK_FAILS(reference_neo_hookean_element(disc, e, mu, lambda, x, r, jac), HDGCL_ERROR_ARGUMENT);
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

int main(void) {
  check_tangent(2);
  check_tangent(3);
  hdgcl_context ref = NULL;
  CHECK_OK(hdgcl_context_create("ref", NULL, &ref));
  check_element(ref, "square:2", "2");
  check_element(ref, "cube:1", "1");
  hdgcl_context_destroy(&ref);
  CHECK_DONE();
}
