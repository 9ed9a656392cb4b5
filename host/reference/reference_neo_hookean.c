/* Reference path, the Neo-Hookean HDG element (reference_neo_hookean.h,
 * docs/nonlinear.md (N22)-(N23)), integrated by quadrature on the physical
 * element like reference_burgers.c: volume terms at the load points, face
 * terms at the mapped face points of every face. */
#include "reference/reference_neo_hookean.h"

#include <math.h>
#include <string.h>

#include "core/error.h"
#include "fem/face_map.h"
#include "fem/neo_hookean.h"

int reference_neo_hookean_size(const hdg_discretisation *disc) {
  const hdg_sizes *sz = &disc->ref.sz;
  int d = sz->dim;
  return d * d * sz->np + d * sz->np + d * sz->nfaces * sz->nf;
}

/* The first Piola stress P(I + H) and A (N19)-(N20) at one point of element
 * e, J <= 0 refused. */
static int stress_at(const hdg_discretisation *disc, int32_t e, double mu, double lambda,
                     const double *hq, double *p, double *a) {
  double jdet;
  if (neo_hookean_stress(disc->ref.sz.dim, mu, lambda, hq, p, a, &jdet))
    return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                       "element %d: J = det(I + grad u_h) = %g <= 0 at a quadrature point; the "
                       "Neo-Hookean stress needs J > 0 (reduce the load step, docs/nonlinear.md)",
                       (int)e, jdet);
  return HDGCL_SUCCESS;
}

/* The stress of (N22) and its derivative from P, A: the pseudo-stress
 * P~ = P(I + H) - mu (H^T - tr(H) I) of (N21), whose divergence is that of P
 * (div(grad u^T - (div u) I) = 0), and A~ = A - mu (d_il d_jk - d_ij d_kl);
 * at (pt, at) (at only where a is not NULL). */
static void pseudo_stress(int d, double mu, const double *hq, const double *p, const double *a,
                          double *pt, double *at) {
  double tr = 0.0;
  for (int i = 0; i < d; i++) tr += hq[i * d + i];
  for (int i = 0; i < d; i++)
    for (int j = 0; j < d; j++)
      pt[i * d + j] = p[i * d + j] - mu * (hq[j * d + i] - (i == j ? tr : 0.0));
  if (!a) return;
  memcpy(at, a, sizeof(double) * d * d * d * d);
  for (int i = 0; i < d; i++)
    for (int j = 0; j < d; j++) {
      at[((i * d + j) * d + j) * d + i] -= mu;
      if (i == j)
        for (int k = 0; k < d; k++) at[((i * d + j) * d + k) * d + k] += mu;
    }
}

int reference_neo_hookean_element(const hdg_discretisation *disc, int32_t e, double mu,
                                  double lambda, unsigned traction, const double *x, double *r,
                                  double *jac) {
  const hdg_reference *ref = &disc->ref;
  const hdg_sizes *sz = &ref->sz;
  const hdgcl_mesh *mesh = disc->mesh;
  const hdgcl_quadrature *qv = &ref->qload, *qf = &ref->qface;
  int d = sz->dim, np = sz->np, nf = sz->nf, dd = d * d;
  int n = reference_neo_hookean_size(disc), ou = dd * np, ot = ou + d * np;
  double tau = disc->tau;
  const double *h = x, *u = x + ou, *uhat = x + ot;
  memset(r, 0, sizeof(double) * n);
  if (jac) memset(jac, 0, sizeof(double) * n * n);
  double p[9], a[81], pt[9], at[81], hq[9], uq[3], lq[3], gphi[3 * 64];
#define IH(c, j, b) (((c) * d + (j)) * np + (b))
#define IU(c, b) (ou + (c) * np + (b))
#define IT(f, c, m) (ot + ((f) * d + (c)) * nf + (m))
#define JAC(row, col) jac[(size_t)(row) * n + (col)]
  if (np > 64) return hdgcl_error(HDGCL_ERROR_UNSUPPORTED, "Neo-Hookean element: N_p %d > 64", np);
  /* (N22) volume: R_H,cja += (H_cj, phi_a) + (u_c, d_j phi_a), R_u,ca += (P~_cj(H), d_j phi_a) */
  for (int k = 0; k < qv->n; k++) {
    double xq[3], jm[9], jinv[9];
    double detj = hdg_map(mesh, e, qv->points + (size_t)k * d, xq, jm);
    hdg_invert(d, jm, detj, jinv);
    double w = qv->weights[k] * detj;
    const double *phi = ref->phi_load + (size_t)k * np;
    for (int b = 0; b < np; b++) { /* physical gradients: d_c phi = sum_l (J^-1)_lc dref_l phi */
      const double *g = ref->dphi_load + ((size_t)k * np + b) * d;
      for (int c = 0; c < d; c++) {
        double s = 0.0;
        for (int l = 0; l < d; l++) s += jinv[l * d + c] * g[l];
        gphi[b * d + c] = s;
      }
    }
    for (int c = 0; c < d; c++) {
      uq[c] = 0.0;
      for (int b = 0; b < np; b++) uq[c] += u[c * np + b] * phi[b];
      for (int j = 0; j < d; j++) {
        hq[c * d + j] = 0.0;
        for (int b = 0; b < np; b++) hq[c * d + j] += h[IH(c, j, b)] * phi[b];
      }
    }
    HDGCL_TRY(stress_at(disc, e, mu, lambda, hq, p, jac ? a : NULL));
    pseudo_stress(d, mu, hq, p, jac ? a : NULL, pt, at);
    for (int c = 0; c < d; c++)
      for (int i = 0; i < np; i++) {
        double s = 0.0;
        for (int j = 0; j < d; j++) {
          r[IH(c, j, i)] += w * (hq[c * d + j] * phi[i] + uq[c] * gphi[i * d + j]);
          s += pt[c * d + j] * gphi[i * d + j];
        }
        r[IU(c, i)] += w * s;
        if (!jac) continue;
        for (int j = 0; j < d; j++)
          for (int b = 0; b < np; b++) {
            JAC(IH(c, j, i), IH(c, j, b)) += w * phi[b] * phi[i];
            JAC(IH(c, j, i), IU(c, b)) += w * phi[b] * gphi[i * d + j];
          }
        /* (N23) dR_u,ci / dH_klb = (sum_j A_cjkl phi_b, d_j phi_i) */
        for (int kk = 0; kk < d; kk++)
          for (int l = 0; l < d; l++) {
            double t = 0.0;
            for (int j = 0; j < d; j++) t += at[((c * d + j) * d + kk) * d + l] * gphi[i * d + j];
            for (int b = 0; b < np; b++) JAC(IU(c, i), IH(kk, l, b)) += w * t * phi[b];
          }
      }
  }
  /* (N22) faces: R_H,cja -= <uhat_c, phi_a n_j>, and with the flux
   * hhat_c = -P~_cj(H) n_j + tau (u_c - uhat_c): R_u,ca += <hhat_c, phi_a>,
   * R_T,fcm += <hhat_c, psi_m>; on a traction face (bit f of traction) the
   * trace rows take the physical flux -P_cj(I + H) n_j + tau (u_c - uhat_c)
   * instead (N26), as linear elasticity's (E13). */
  const int8_t *orient = mesh->elem_face_orient + (size_t)e * sz->nfaces;
  double X[3];
  for (int f = 0; f < sz->nfaces; f++) {
    const double *phif = ref->phi_face + ((size_t)f * sz->norient + orient[f]) * qf->n * np;
    bool tf = (traction >> f) & 1u;
    for (int k = 0; k < qf->n; k++) {
      double xq[3], nds[3], nv[3];
      HDGCL_TRY(hdgcl_face_map_points(sz->type, f, orient[f], 1, qf->points + (size_t)k * (d - 1), X));
      double ds = hdg_face_normal(mesh, e, f, X, xq, nds);
      double w = qf->weights[k] * ds;
      for (int c = 0; c < d; c++) nv[c] = nds[c] / ds;
      const double *phi = phif + (size_t)k * np;
      const double *psi = ref->psi_face + (size_t)k * nf;
      for (int c = 0; c < d; c++) {
        uq[c] = lq[c] = 0.0;
        for (int b = 0; b < np; b++) uq[c] += u[c * np + b] * phi[b];
        for (int m = 0; m < nf; m++) lq[c] += uhat[(f * d + c) * nf + m] * psi[m];
        for (int j = 0; j < d; j++) {
          hq[c * d + j] = 0.0;
          for (int b = 0; b < np; b++) hq[c * d + j] += h[IH(c, j, b)] * phi[b];
        }
      }
      HDGCL_TRY(stress_at(disc, e, mu, lambda, hq, p, jac ? a : NULL));
      pseudo_stress(d, mu, hq, p, jac ? a : NULL, pt, at);
      const double *ptr = tf ? p : pt, *atr = tf ? a : at; /* the trace rows' stress */
      for (int c = 0; c < d; c++) {
        double flux = tau * (uq[c] - lq[c]), fluxt = flux;
        for (int j = 0; j < d; j++) {
          flux -= pt[c * d + j] * nv[j];
          fluxt -= ptr[c * d + j] * nv[j];
        }
        for (int i = 0; i < np; i++) {
          for (int j = 0; j < d; j++) r[IH(c, j, i)] -= w * lq[c] * phi[i] * nv[j];
          r[IU(c, i)] += w * flux * phi[i];
        }
        for (int m = 0; m < nf; m++) r[IT(f, c, m)] += w * fluxt * psi[m];
        if (!jac) continue;
        /* (N23) dhhat_c / dH_klb = -sum_j A~_cjkl n_j phi_b (A_cjkl on the trace
         * rows of a traction face), / du_cb = tau phi_b, / duhat_cm = -tau psi_m */
        double an[9], ant[9];
        for (int kk = 0; kk < d; kk++)
          for (int l = 0; l < d; l++) {
            an[kk * d + l] = ant[kk * d + l] = 0.0;
            for (int j = 0; j < d; j++) {
              an[kk * d + l] -= at[((c * d + j) * d + kk) * d + l] * nv[j];
              ant[kk * d + l] -= atr[((c * d + j) * d + kk) * d + l] * nv[j];
            }
          }
        for (int i = 0; i < np + nf; i++) { /* the test function: phi_i (u rows), psi_m (trace rows) */
          bool urow = i < np;
          int row = urow ? IU(c, i) : IT(f, c, i - np);
          double t = urow ? phi[i] : psi[i - np];
          const double *g = urow ? an : ant;
          for (int kk = 0; kk < d; kk++)
            for (int l = 0; l < d; l++)
              for (int b = 0; b < np; b++) JAC(row, IH(kk, l, b)) += w * t * g[kk * d + l] * phi[b];
          for (int b = 0; b < np; b++) JAC(row, IU(c, b)) += w * t * tau * phi[b];
          for (int m = 0; m < nf; m++) JAC(row, IT(f, c, m)) -= w * t * tau * psi[m];
          if (urow)
            for (int j = 0; j < d; j++)
              for (int m = 0; m < nf; m++) JAC(IH(c, j, i), IT(f, c, m)) -= w * psi[m] * phi[i] * nv[j];
        }
      }
    }
  }
#undef IH
#undef IU
#undef IT
#undef JAC
  return HDGCL_SUCCESS;
}

int reference_neo_hookean_min_j(const hdg_discretisation *disc, int32_t e, const double *x,
                                double *jmin) {
  const hdg_reference *ref = &disc->ref;
  const hdg_sizes *sz = &ref->sz;
  const hdgcl_quadrature *qv = &ref->qload, *qf = &ref->qface;
  int d = sz->dim, np = sz->np;
  const int8_t *orient = disc->mesh->elem_face_orient + (size_t)e * sz->nfaces;
  double m = HUGE_VAL;
  /* the points of (N22): the load points, then each face's points */
  for (int f = -1; f < sz->nfaces; f++) {
    int nq = f < 0 ? qv->n : qf->n;
    const double *phis =
        f < 0 ? ref->phi_load : ref->phi_face + ((size_t)f * sz->norient + orient[f]) * qf->n * np;
    for (int k = 0; k < nq; k++) {
      const double *phi = phis + (size_t)k * np;
      double fm[9];
      for (int c = 0; c < d; c++)
        for (int j = 0; j < d; j++) {
          double s = c == j ? 1.0 : 0.0;
          for (int b = 0; b < np; b++) s += x[(c * d + j) * np + b] * phi[b];
          fm[c * d + j] = s;
        }
      double det = d == 2 ? fm[0] * fm[3] - fm[1] * fm[2]
                          : fm[0] * (fm[4] * fm[8] - fm[5] * fm[7]) -
                                fm[1] * (fm[3] * fm[8] - fm[5] * fm[6]) +
                                fm[2] * (fm[3] * fm[7] - fm[4] * fm[6]);
      if (!isfinite(det)) det = -HUGE_VAL;
      m = fmin(m, det);
    }
  }
  *jmin = m;
  return HDGCL_SUCCESS;
}
