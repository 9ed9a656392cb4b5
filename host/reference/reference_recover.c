/* Reference path, recovery: u and q on each element from the trace (F8),
 * (F9), the postprocessed u* (F12), and L2 errors against the exact
 * solution, all by quadrature with the geometry evaluated at every point. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/dense.h"
#include "core/error.h"
#include "reference/reference.h"
#include "problem/user_problem.h"

int reference_postprocess_work_create(const hdg_sizes *sz, reference_postprocess_work *w) {
  *w = (reference_postprocess_work){0};
  int np1 = sz->np1, d = sz->dim, status;
  HDGCL_TRY_GOTO(status, hdgcl_calloc((size_t)np1 * d, sizeof(double), "gradients", &w->gx), fail);
  HDGCL_TRY_GOTO(status, hdgcl_calloc((size_t)np1 * np1, sizeof(double), "stiffness", &w->kst), fail);
  HDGCL_TRY_GOTO(status, hdgcl_calloc(np1, sizeof(double), "rhs", &w->rhs), fail);
  HDGCL_TRY_GOTO(status, hdgcl_calloc(np1, sizeof(double), "means", &w->mphi), fail);
  HDGCL_TRY_GOTO(status, hdgcl_calloc((size_t)np1 * np1, sizeof(double), "stiffness", &w->kst0), fail);
  HDGCL_TRY_GOTO(status, hdgcl_calloc(np1, sizeof(double), "rhs", &w->rhs0), fail);
  return HDGCL_SUCCESS;
fail:
  reference_postprocess_work_destroy(w);
  return status;
}

void reference_postprocess_work_destroy(reference_postprocess_work *w) {
  free(w->gx);
  free(w->kst);
  free(w->rhs);
  free(w->mphi);
  free(w->kst0);
  free(w->rhs0);
  *w = (reference_postprocess_work){0};
}

/* Geometry of element e at the point xi: x, J^-1; returns det J. */
static double point_geometry(const hdg_discretisation *disc, int32_t e, const double *xi,
                             double *x, double *jinv) {
  int d = disc->ref.sz.dim;
  double jac[9];
  double detj = hdg_map(disc->mesh, e, xi, x, jac);
  hdg_invert(d, jac, detj, jinv);
  return detj;
}

/* u* on element e (F12), given u (np values) and g ([dim][np]) with
 * (grad u*, grad w) = (g, grad w) / divisor: g = q and divisor = -kappa for the
 * scalar problems, g = row i of H and divisor 1 for component i of the vector
 * ones (docs/elasticity.md (E10)).  Reduced stiffness on the non-constant modes
 * 1..np1-1 (phi+_0 is the constant), then the constant mode from the mean of u.
 * Integrated with the load quadrature, as the device does: on mapped elements
 * the stiffness integrand is rational, so the rule is part of the method. */
int reference_postprocess(const hdg_discretisation *disc, int32_t e, const double *u,
                          const double *g, double divisor, double *ustar,
                          reference_postprocess_work *w) {
  const hdg_reference *ref = discretisation_ref(disc, e); /* e's type's (a mixed mesh) */
  const hdg_sizes *sz = &ref->sz;
  const hdgcl_quadrature *qe = &ref->qload;
  int d = sz->dim, np = sz->np, np1 = sz->np1, n = np1 - 1;
  memset(w->kst, 0, sizeof(double) * n * n);
  memset(w->rhs, 0, sizeof(double) * np1);
  memset(w->mphi, 0, sizeof(double) * np1);
  double mean_u = 0.0;
  for (int k = 0; k < qe->n; k++) {
    double x[3], jinv[9];
    double wq = qe->weights[k] * point_geometry(disc, e, qe->points + (size_t)k * d, x, jinv);
    const double *phi = ref->phi_load + (size_t)k * np, *phi1 = ref->phi1_load + (size_t)k * np1;
    const double *gr = ref->dphi1_load + (size_t)k * np1 * d;
    double gh[3] = {0, 0, 0}, uh = 0.0;
    for (int c = 0; c < d; c++)
      for (int i = 0; i < np; i++) gh[c] += g[c * np + i] * phi[i];
    for (int i = 0; i < np; i++) uh += u[i] * phi[i];
    for (int i = 0; i < np1; i++)
      for (int c = 0; c < d; c++) {
        double sum = 0.0;
        for (int l = 0; l < d; l++) sum += jinv[l * d + c] * gr[i * d + l];
        w->gx[i * d + c] = sum;
      }
    double div = divisor;
    if (disc->user && disc->user->point_coefficients && sz->ncomp == 1) { /* -kappa(x) */
      double kappa, c, beta[3];
      discretisation_coefficients_at(disc, e, x, &kappa, &c, beta);
      div = -kappa;
    }
    for (int i = 1; i < np1; i++) {
      double r = 0.0;
      for (int c = 0; c < d; c++) r += gh[c] * w->gx[i * d + c];
      w->rhs[i - 1] += wq * r / div;
      for (int j = 1; j < np1; j++) {
        double a = 0.0;
        for (int c = 0; c < d; c++) a += w->gx[i * d + c] * w->gx[j * d + c];
        w->kst[(i - 1) * n + (j - 1)] += wq * a;
      }
    }
    mean_u += wq * uh;
    for (int j = 0; j < np1; j++) w->mphi[j] += wq * phi1[j];
  }
  memcpy(w->kst0, w->kst, sizeof(double) * n * n);
  memcpy(w->rhs0, w->rhs, sizeof(double) * n);
  if (n > 0) {
    if (dense_cholesky(n, w->kst))
      return hdgcl_error(HDGCL_ERROR_INTERNAL, "element %d: postprocessing stiffness singular", (int)e);
    dense_cholesky_solve(n, w->kst, 1, w->rhs);
  }
  double rest = 0.0;
  for (int j = 1; j < np1; j++) {
    ustar[j] = w->rhs[j - 1];
    rest += ustar[j] * w->mphi[j];
  }
  ustar[0] = (mean_u - rest) / w->mphi[0];
  for (int i = 0; i < n; i++) { /* u*'s check: r = K u* - rhs */
    double au = 0.0, sa = 0.0;
    for (int j = 0; j < n; j++) {
      au += w->kst0[i * n + j] * ustar[j + 1];
      sa += fabs(w->kst0[i * n + j] * ustar[j + 1]);
    }
    w->rmax = fmax(w->rmax, fabs(au - w->rhs0[i]));
    w->rscale = fmax(w->rscale, sa + fabs(w->rhs0[i]));
  }
  return HDGCL_SUCCESS;
}

/* Squared L2 errors of u, q, u*, max |u - u_h|, squared norms of the exact u
 * and q on element e. */
static void element_errors(const hdg_discretisation *disc, hdg_solution *sol, int32_t e,
                           double err[6], double check[5]) {
  const hdg_reference *ref = discretisation_ref(disc, e); /* e's type's (a mixed mesh) */
  const hdg_sizes *sz = &ref->sz;
  const hdgcl_quadrature *qe = &ref->qerr;
  int d = sz->dim, np = sz->np, np1 = sz->np1;
  /* rows of the widest type's np and np1 (disc->ref; the same on one type) */
  int snp = disc->ref.sz.np, snp1 = disc->ref.sz.np1;
  const double *u = sol->u + (size_t)e * snp, *q = sol->q + (size_t)e * d * snp;
  const double *ustar = sol->ustar + (size_t)e * snp1;
  for (int k = 0; k < qe->n; k++) {
    double x[3], jinv[9];
    double wq = qe->weights[k] * point_geometry(disc, e, qe->points + (size_t)k * d, x, jinv);
    const double *phi = ref->phi_err + (size_t)k * np, *phi1 = ref->phi1_err + (size_t)k * np1;
    double g[3];
    double uex = problem_u(disc->params, x[0], x[1], x[2], g);
    double kap, cc, beta[3]; /* the element's, or kappa(x) with coefficients = points */
    discretisation_coefficients_at(disc, e, x, &kap, &cc, beta);
    if (disc->kappa_tensor) { /* exact q = -K grad u: g <- K g (kap = 1) */
      const double *K = disc->kappa_tensor + (size_t)e * KAPPA_TENSOR_VALUES(d) + KAPPA_K(d);
      double kg[3] = {0, 0, 0};
      for (int c = 0; c < d; c++)
        for (int l = 0; l < d; l++) kg[c] += K[c * d + l] * g[l];
      for (int c = 0; c < d; c++) g[c] = kg[c];
    }
    double uh = 0.0, us = 0.0, eq = 0.0, qq = 0.0;
    for (int i = 0; i < np; i++) uh += u[i] * phi[i];
    for (int i = 0; i < np1; i++) us += ustar[i] * phi1[i];
    for (int c = 0; c < d; c++) {
      double qh = 0.0;
      for (int i = 0; i < np; i++) qh += q[c * snp + i] * phi[i];
      double dq = qh + kap * g[c]; /* exact q = -kappa grad u */
      eq += dq * dq;
      qq += kap * kap * g[c] * g[c];
    }
    err[0] += wq * (uh - uex) * (uh - uex);
    err[1] += wq * eq;
    err[2] += wq * (us - uex) * (us - uex);
    if (fabs(uh - uex) > err[3]) err[3] = fabs(uh - uex);
    err[4] += wq * uex * uex;
    err[5] += wq * qq;
    check[0] += wq * (us - uh);
    check[1] += wq * uh * uh;
    check[2] += wq;
  }
}

void reference_store_errors(const double err[6], hdg_solution *sol) {
  sol->l2_u = sqrt(err[0]);
  sol->l2_q = sqrt(err[1]);
  sol->l2_ustar = sqrt(err[2]);
  sol->linf_u = err[3];
  sol->norm_u = sqrt(err[4]);
  sol->norm_q = sqrt(err[5]);
}

int reference_recover(const hdg_discretisation *disc, hdg_solution *sol) {
  const hdgcl_mesh *mesh = disc->mesh;
  const hdg_sizes *sz = &disc->ref.sz;
  /* Rows of u, q and u* are the widest type's np and np1 (a mixed mesh: each
   * element fills the first np, np1 of its rows with its own type's). */
  int d = sz->dim, snp = sz->np, snp1 = sz->np1, nf = sz->nf, nt = sz->nt;
  int stride = mesh->faces_per_element;
  if (sz->ncomp > 1) return elasticity_recover(disc, sol);
  reference_element el;
  reference_postprocess_work w = {0};
  double *lam = NULL, *qkinv = NULL;
  int status;
  HDGCL_TRY(reference_element_create(sz, &el));
  HDGCL_TRY_GOTO(status, hdgcl_calloc(nt, sizeof(double), "trace", &lam), done);
  HDGCL_TRY_GOTO(status, hdgcl_calloc((size_t)d * snp, sizeof(double), "K^-1 q", &qkinv), done);
  HDGCL_TRY_GOTO(status, reference_postprocess_work_create(sz, &w), done);
  double err[6] = {0, 0, 0, 0, 0, 0};
  ustar_check chk = {0};
  for (int32_t e = 0; e < mesh->num_elements; e++) {
    HDGCL_TRY_GOTO(status, reference_element_condense(disc, e, &el), done);
    int np = el.sz.np, nfe = el.sz.nfaces; /* e's type's */
    nt = el.sz.nt;
    for (int f = 0; f < nfe; f++) {
      int32_t face = mesh->elem_faces[(size_t)e * stride + f];
      memcpy(lam + f * nf, sol->trace + (size_t)face * nf, sizeof(double) * nf);
    }
    /* u = S^-1 (F + W lambda) = z_F + Z_W lambda  (F9). */
    double *u = sol->u + (size_t)e * snp;
    for (int i = 0; i < np; i++) {
      double sum = el.z[i * (nt + 1) + nt];
      for (int a = 0; a < nt; a++) sum += el.z[i * (nt + 1) + a] * lam[a];
      u[i] = sum;
    }
    /* q_k = -A^-1 (B_k u + C_k lambda)  (F8); a tensor kappa: A^-1 = K (x) M^-1,
     * M^-1 here (A = M) and K below. */
    for (int k = 0; k < d; k++) {
      double *qk = sol->q + ((size_t)e * d + k) * snp;
      for (int j = 0; j < np; j++) {
        double sum = 0.0;
        for (int i = 0; i < np; i++) sum += el.b[((size_t)k * np + j) * np + i] * u[i];
        for (int a = 0; a < nt; a++) sum += el.c[((size_t)k * np + j) * nt + a] * lam[a];
        qk[j] = -sum;
      }
      dense_cholesky_solve(np, el.achol, 1, qk);
    }
    const double *gq = sol->q + (size_t)e * d * snp; /* (F12): q / kappa */
    double divisor = -disc->kappa[e];
    if (np < snp) { /* a mixed mesh's narrower element: q compact, [d][np] */
      for (int k = 0; k < d; k++)
        memcpy(qkinv + (size_t)k * np, gq + (size_t)k * snp, sizeof(double) * np);
      gq = qkinv;
    }
    if (disc->kappa_tensor) { /* q_k = sum_l K_kl q1_l, and (F12t) takes K^-1 q = q1 */
      const double *kt = disc->kappa_tensor + (size_t)e * KAPPA_TENSOR_VALUES(d);
      double *q = sol->q + (size_t)e * d * snp; /* rows of snp, qkinv compact */
      for (int j = 0; j < np; j++) {
        double q1[3], kq[3] = {0, 0, 0}, kiq[3] = {0, 0, 0};
        for (int l = 0; l < d; l++) q1[l] = q[l * snp + j];
        for (int k = 0; k < d; k++)
          for (int l = 0; l < d; l++) kq[k] += kt[KAPPA_K(d) + k * d + l] * q1[l];
        for (int k = 0; k < d; k++)
          for (int l = 0; l < d; l++) kiq[k] += kt[KAPPA_KINV(d) + k * d + l] * kq[l];
        for (int k = 0; k < d; k++) {
          q[k * snp + j] = kq[k];
          qkinv[k * np + j] = kiq[k];
        }
      }
      gq = qkinv;
      divisor = -1.0;
    }
    HDGCL_TRY_GOTO(status,
                   reference_postprocess(disc, e, u, gq, divisor, sol->ustar + (size_t)e * snp1, &w),
                   done);
    double ee[6] = {0, 0, 0, 0, 0, 0}, check[5] = {0, 0, 0, 0, 0};
    element_errors(disc, sol, e, ee, check);
    check[3] = w.rmax;
    check[4] = w.rscale;
    w.rmax = w.rscale = 0.0;
    ustar_check_element(&chk, e, 1, check);
    for (int c = 0; c < 6; c++)
      if (c != 3) err[c] += ee[c];
    if (ee[3] > err[3]) err[3] = ee[3];
  }
  reference_store_errors(err, sol);
  status = ustar_check_finish(&chk, true, &sol->ustar_check);
done:
  free(lam);
  free(qkinv);
  reference_postprocess_work_destroy(&w);
  reference_element_destroy(&el);
  return status;
}
