/* Reference path, viscous Burgers' convective terms (reference_burgers.h,
 * docs/nonlinear.md (N15)-(N16)), integrated by quadrature on the physical
 * element like reference_element_matrices: the volume term at the load
 * points, the face terms at the mapped face points of every face. */
#include "reference/reference_burgers.h"

#include <math.h>
#include <string.h>

#include "core/error.h"
#include "fem/face_map.h"

int reference_burgers_terms(const hdg_discretisation *disc, int32_t e, const double *u,
                            const double *lam, double *ru, double *rt, burgers_jacobian *jb) {
  const hdg_reference *ref = &disc->ref;
  const hdg_sizes *sz = &ref->sz;
  const hdgcl_mesh *mesh = disc->mesh;
  int d = sz->dim, np = sz->np, nf = sz->nf, nt = sz->nt;
  const hdgcl_quadrature *qv = &ref->qload, *qf = &ref->qface;
  if (jb) {
    memset(jb->uu, 0, sizeof(double) * np * np);
    memset(jb->ul, 0, sizeof(double) * np * nt);
    memset(jb->tu, 0, sizeof(double) * nt * np);
    memset(jb->tl, 0, sizeof(double) * nt * nt);
  }
  /* (N15) volume: R_u,i -= (F(u_h), grad phi_i)_K, F(u) = u^2/2 a + u b
   * (burgers_flux_vectors); (N16) J_uu,ij -= (phi_j F'(u_h), grad phi_i)_K,
   * F'(u) = u a + b. */
  double av[3], bv[3];
  burgers_flux_vectors(disc->params, av, bv);
  for (int k = 0; k < qv->n; k++) {
    double x[3], jac[9], jinv[9];
    double detj = hdg_map(mesh, e, qv->points + (size_t)k * d, x, jac);
    hdg_invert(d, jac, detj, jinv);
    double wq = qv->weights[k] * detj;
    const double *phi = ref->phi_load + (size_t)k * np;
    double uh = 0.0;
    for (int j = 0; j < np; j++) uh += u[j] * phi[j];
    for (int i = 0; i < np; i++) {
      const double *g = ref->dphi_load + ((size_t)k * np + i) * d;
      double agrad = 0.0, bgrad = 0.0; /* a . grad phi_i, grad phi_i = J^-T grad_xi phi_i */
      for (int c = 0; c < d; c++)
        for (int l = 0; l < d; l++) {
          agrad += av[c] * jinv[l * d + c] * g[l];
          bgrad += bv[c] * jinv[l * d + c] * g[l];
        }
      ru[i] -= wq * (0.5 * uh * uh * agrad + uh * bgrad);
      if (jb)
        for (int j = 0; j < np; j++) jb->uu[i * np + j] -= wq * phi[j] * (uh * agrad + bgrad);
    }
  }
  /* (N15) faces: with an = a . n, bn = b . n, s = F'(lambda) . n = lambda an + bn and the
   * flux h = F(lambda) . n + |s| (u_h - lambda), R_u,i += <h, phi_i>_dK and R_T,m -=
   * <h, psi_m>_dK; (N16) dh/du_h = |s|, dh/dlambda = s + sign(s) an (u_h - lambda) - |s|.
   * On a Neumann face (paper 001's outflow, (N25)) the datum is the viscous flux alone:
   * R_T takes no h there (R_u does). */
  const int8_t *orient = mesh->elem_face_orient + (size_t)e * sz->nfaces;
  double X[3];
  for (int f = 0; f < sz->nfaces; f++) {
    const double ht = disc->num.face_bc[mesh->elem_faces[(size_t)e * sz->nfaces + f]] == FACE_NEUMANN ? 0.0 : 1.0;
    const double *phif = ref->phi_face + ((size_t)f * sz->norient + orient[f]) * qf->n * np;
    for (int k = 0; k < qf->n; k++) {
      double x[3], nds[3];
      HDGCL_TRY(hdgcl_face_map_points(sz->type, f, orient[f], 1, qf->points + (size_t)k * (d - 1), X));
      double ds = hdg_face_normal(mesh, e, f, X, x, nds);
      double wq = qf->weights[k] * ds;
      const double *phi = phif + (size_t)k * np;
      const double *psi = ref->psi_face + (size_t)k * nf;
      const double *lf = lam + f * nf;
      double uh = 0.0, lh = 0.0, an = 0.0, bn = 0.0;
      for (int j = 0; j < np; j++) uh += u[j] * phi[j];
      for (int m = 0; m < nf; m++) lh += lf[m] * psi[m];
      for (int c = 0; c < d; c++) {
        an += av[c] * nds[c] / ds;
        bn += bv[c] * nds[c] / ds;
      }
      double a = lh * an + bn, tauc = fabs(a), s = a > 0 ? 1.0 : (a < 0 ? -1.0 : 0.0);
      double h = 0.5 * lh * lh * an + lh * bn + tauc * (uh - lh);
      double dhu = tauc, dhl = a + s * an * (uh - lh) - tauc;
      for (int i = 0; i < np; i++) ru[i] += wq * h * phi[i];
      for (int m = 0; m < nf; m++) rt[f * nf + m] -= ht * wq * h * psi[m];
      if (!jb) continue;
      for (int i = 0; i < np; i++) {
        for (int j = 0; j < np; j++) jb->uu[i * np + j] += wq * dhu * phi[i] * phi[j];
        for (int m = 0; m < nf; m++) {
          jb->ul[i * nt + f * nf + m] += wq * dhl * phi[i] * psi[m];
          jb->tu[(f * nf + m) * np + i] -= ht * wq * dhu * psi[m] * phi[i];
        }
      }
      for (int m = 0; m < nf; m++)
        for (int n = 0; n < nf; n++)
          jb->tl[(f * nf + m) * nt + f * nf + n] -= ht * wq * dhl * psi[m] * psi[n];
    }
  }
  return HDGCL_SUCCESS;
}
