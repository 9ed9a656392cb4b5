/* Reference path, recovery: u and q on each element from the trace (F8),
 * (F9), the postprocessed u* (F12), and L2 errors against the exact
 * solution, all by quadrature on the physical element. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "basis.h"
#include "dense.h"
#include "error.h"
#include "reference.h"

typedef struct recover_work {
  double *lam, *v, *dphi1, *kst, *rhs, *qh;
} recover_work;

/* u* on element e from q (F12): reduced stiffness on the non-constant modes,
 * then the constant mode from the mean of u. */
static int postprocess(hdgcl_solver s, int32_t e, const hdg_geometry *geo, recover_work *w) {
  const hdg_sizes *sz = &s->ref.sz;
  const hdgcl_quadrature *qe = &s->ref.qerr;
  int d = sz->dim, np = sz->np, np1 = sz->np1, n = np1 - 1;
  const double *u = s->u + (size_t)e * np, *q = s->q + (size_t)e * d * np;
  double *ustar = s->ustar + (size_t)e * np1;
  double kappa = s->kappa[e];
  memset(w->kst, 0, sizeof(double) * n * n);
  memset(w->rhs, 0, sizeof(double) * n);
  double mean_u = 0.0;
  double *mphi = w->v; /* (phi+_j, 1)_K, np1 values */
  memset(mphi, 0, sizeof(double) * np1);
  for (int k = 0; k < qe->n; k++) {
    double wq = qe->weights[k] * geo->detj;
    const double *phi = s->ref.phi_err + (size_t)k * np1;
    const double *g = w->dphi1 + (size_t)k * np1 * d;
    /* q_h at the point; physical gradients of phi+ into the w->qh scratch. */
    double qh[3] = {0, 0, 0};
    for (int c = 0; c < d; c++)
      for (int i = 0; i < np; i++) qh[c] += q[c * np + i] * phi[i];
    double *gx = w->qh;
    for (int i = 0; i < np1; i++)
      for (int c = 0; c < d; c++) {
        double sum = 0.0;
        for (int l = 0; l < d; l++) sum += geo->jinv[l * d + c] * g[i * d + l];
        gx[i * d + c] = sum;
      }
    for (int i = 1; i < np1; i++) {
      double r = 0.0;
      for (int c = 0; c < d; c++) r += qh[c] * gx[i * d + c];
      w->rhs[i - 1] -= wq * r / kappa;
      for (int j = 1; j < np1; j++) {
        double a = 0.0;
        for (int c = 0; c < d; c++) a += gx[i * d + c] * gx[j * d + c];
        w->kst[(i - 1) * n + (j - 1)] += wq * a;
      }
    }
    double uh = 0.0;
    for (int i = 0; i < np; i++) uh += u[i] * phi[i];
    mean_u += wq * uh;
    for (int j = 0; j < np1; j++) mphi[j] += wq * phi[j];
  }
  if (n > 0) {
    if (dense_cholesky(n, w->kst))
      return hdgcl_error(HDGCL_ERROR_INTERNAL, "element %d: postprocessing stiffness singular", (int)e);
    dense_cholesky_solve(n, w->kst, 1, w->rhs);
  }
  double rest = 0.0;
  for (int j = 1; j < np1; j++) {
    ustar[j] = w->rhs[j - 1];
    rest += ustar[j] * mphi[j];
  }
  ustar[0] = (mean_u - rest) / mphi[0];
  return HDGCL_SUCCESS;
}

/* Squared L2 errors of u, q, u*, max |u - u_h|, squared norms of the exact u
 * and q on element e. */
static void element_errors(hdgcl_solver s, int32_t e, const hdg_geometry *geo, double err[6]) {
  const hdg_sizes *sz = &s->ref.sz;
  const hdgcl_quadrature *qe = &s->ref.qerr;
  int d = sz->dim, np = sz->np, np1 = sz->np1;
  const double *u = s->u + (size_t)e * np, *q = s->q + (size_t)e * d * np;
  const double *ustar = s->ustar + (size_t)e * np1;
  for (int k = 0; k < qe->n; k++) {
    double wq = qe->weights[k] * geo->detj;
    const double *xi = qe->points + (size_t)k * d;
    double x[3] = {geo->x0[0], geo->x0[1], geo->x0[2]};
    for (int c = 0; c < d; c++)
      for (int l = 0; l < d; l++) x[c] += geo->jac[c * d + l] * (xi[l] + 1.0);
    const double *phi = s->ref.phi_err + (size_t)k * np1;
    double g[3];
    double uex = problem_u(s->params, x[0], x[1], x[2], g);
    double kap = problem_kappa(s->params, x[0], x[1], x[2]);
    double uh = 0.0, us = 0.0, eq = 0.0, qq = 0.0;
    for (int i = 0; i < np; i++) uh += u[i] * phi[i];
    for (int i = 0; i < np1; i++) us += ustar[i] * phi[i];
    for (int c = 0; c < d; c++) {
      double qh = 0.0;
      for (int i = 0; i < np; i++) qh += q[c * np + i] * phi[i];
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
  }
}

int reference_recover(hdgcl_solver s, const reference_tables *t) {
  const hdgcl_mesh *mesh = s->mesh;
  const hdg_sizes *sz = &s->ref.sz;
  int d = sz->dim, np = sz->np, np1 = sz->np1, nf = sz->nf, nt = sz->nt, nfe = sz->nfaces;
  reference_element el;
  recover_work w = {0};
  int status;
  HDGCL_TRY(reference_element_create(sz, &el));
  size_t big = (size_t)(np1 > nt ? np1 : nt) + np1;
  HDGCL_TRY_GOTO(status, hdgcl_calloc(nt, sizeof(double), "trace", &w.lam), done);
  HDGCL_TRY_GOTO(status, hdgcl_calloc(big, sizeof(double), "scratch", &w.v), done);
  HDGCL_TRY_GOTO(status,
                 hdgcl_calloc((size_t)s->ref.qerr.n * np1 * d, sizeof(double), "gradients", &w.dphi1),
                 done);
  HDGCL_TRY_GOTO(status, hdgcl_calloc((size_t)np1 * np1, sizeof(double), "stiffness", &w.kst), done);
  HDGCL_TRY_GOTO(status, hdgcl_calloc(np1, sizeof(double), "rhs", &w.rhs), done);
  HDGCL_TRY_GOTO(status, hdgcl_calloc((size_t)np1 * 3, sizeof(double), "scratch", &w.qh), done);
  HDGCL_TRY_GOTO(status, hdgcl_basis_eval(sz->shape, sz->order + 1, s->ref.qerr.n,
                                          s->ref.qerr.points, NULL, w.dphi1),
                 done);
  double err[6] = {0, 0, 0, 0, 0, 0};
  for (int32_t e = 0; e < mesh->num_elements; e++) {
    HDGCL_TRY_GOTO(status, reference_element_condense(s, t, e, &el), done);
    for (int f = 0; f < nfe; f++) {
      int32_t face = mesh->elem_faces[(size_t)e * nfe + f];
      memcpy(w.lam + f * nf, s->trace + (size_t)face * nf, sizeof(double) * nf);
    }
    /* u = S^-1 (F + W lambda) = z_F + Z_W lambda  (F9). */
    double *u = s->u + (size_t)e * np;
    for (int i = 0; i < np; i++) {
      double sum = el.z[i * (nt + 1) + nt];
      for (int a = 0; a < nt; a++) sum += el.z[i * (nt + 1) + a] * w.lam[a];
      u[i] = sum;
    }
    /* q_k = -A^-1 (B_k u + C_k lambda)  (F8). */
    for (int k = 0; k < d; k++) {
      double *qk = s->q + ((size_t)e * d + k) * np;
      for (int j = 0; j < np; j++) {
        double sum = 0.0;
        for (int i = 0; i < np; i++) sum += el.b[((size_t)k * np + j) * np + i] * u[i];
        for (int a = 0; a < nt; a++) sum += el.c[((size_t)k * np + j) * nt + a] * w.lam[a];
        qk[j] = -sum;
      }
      dense_cholesky_solve(np, el.achol, 1, qk);
    }
    hdg_geometry geo;
    HDGCL_TRY_GOTO(status, hdg_geometry_simplex(mesh, e, &geo), done);
    HDGCL_TRY_GOTO(status, postprocess(s, e, &geo, &w), done);
    double ee[6] = {0, 0, 0, 0, 0, 0};
    element_errors(s, e, &geo, ee);
    for (int c = 0; c < 6; c++)
      if (c != 3) err[c] += ee[c];
    if (ee[3] > err[3]) err[3] = ee[3];
  }
  s->result.l2_u = sqrt(err[0]);
  s->result.l2_q = sqrt(err[1]);
  s->result.l2_ustar = sqrt(err[2]);
  s->result.linf_u = err[3];
  s->result.norm_u = sqrt(err[4]);
  s->result.norm_q = sqrt(err[5]);
  status = HDGCL_SUCCESS;
done:
  free(w.lam);
  free(w.v);
  free(w.dphi1);
  free(w.kst);
  free(w.rhs);
  free(w.qh);
  reference_element_destroy(&el);
  return status;
}
