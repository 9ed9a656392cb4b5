/* Reference path, local stage: the element matrices (F6), with convection
 * (F22), integrated by quadrature on the physical element, and the static
 * condensation (F8)-(F10), (F23) by general dense algebra (LU).  Deliberately written without the
 * reference-matrix shortcuts (F13)-(F17) of the device kernels, so that the
 * two paths check each other. */
#include "reference/reference_local.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/dense.h"
#include "core/error.h"
#include "fem/face_map.h"
#include "problem/user_problem.h"

int reference_element_create(const hdg_sizes *sz, reference_element *el) {
  memset(el, 0, sizeof *el);
  int d = sz->dim, np = sz->np, nt = sz->nt;
  /* One block holds every matrix of the element. */
  size_t sizes[] = {(size_t)np * np,     (size_t)d * np * np, (size_t)d * np * nt,
                    (size_t)np * np,     (size_t)np * nt,     (size_t)np * nt,
                    (size_t)nt * nt,     (size_t)np,          (size_t)np * np,
                    (size_t)np * np,     (size_t)np * (nt + 1), (size_t)np * nt,
                    (size_t)nt * nt,     (size_t)np * (nt + 1), (size_t)np * (np > nt ? np : nt),
                    (size_t)d * np * (np + nt)};
  size_t total = 0;
  for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) total += sizes[i];
  double *block;
  HDGCL_TRY(hdgcl_calloc(total, sizeof(double), "element matrices", &block));
  double **slots[] = {&el->a, &el->b,     &el->c, &el->d,  &el->e, &el->et,    &el->h,
                      &el->f, &el->achol, &el->s, &el->wf, &el->wl, &el->k, &el->z,
                      &el->scratch, &el->my};
  size_t off = 0;
  for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
    *slots[i] = block + off;
    off += sizes[i];
  }
  int status = hdgcl_calloc((size_t)np, sizeof(int), "pivots", &el->piv);
  if (status) {
    free(block);
    return status;
  }
  el->sz = *sz;
  return HDGCL_SUCCESS;
}

void reference_element_destroy(reference_element *el) {
  free(el->a);
  free(el->piv);
  memset(el, 0, sizeof *el);
}

/* Integrates (F6) on element e with the geometry evaluated at every
 * quadrature point (affine or not). */
int reference_element_matrices(const hdg_discretisation *disc, int32_t e, reference_element *el) {
  const hdg_reference *ref = discretisation_ref(disc, e); /* e's type's (a mixed mesh) */
  const hdg_sizes *sz = &ref->sz;
  el->sz = *sz; /* el was created for the widest type; its matrices are e's size */
  const hdgcl_mesh *mesh = disc->mesh;
  int d = sz->dim, np = sz->np, nf = sz->nf, nt = sz->nt;
  const hdgcl_quadrature *qv = &ref->qload, *qf = &ref->qface;
  double kappa = disc->kappa[e], c = disc->c[e], tau = disc->tau;
  double beta[3];
  problem_beta(disc->params, beta);
  /* coefficients = points: kappa, c, beta at each quadrature point */
  const bool points = disc->user && disc->user->point_coefficients;
  const bool convection = points || beta[0] != 0 || beta[1] != 0 || beta[2] != 0;
  memset(el->a, 0, sizeof(double) * np * np);
  memset(el->b, 0, sizeof(double) * d * np * np);
  memset(el->c, 0, sizeof(double) * d * np * nt);
  memset(el->d, 0, sizeof(double) * np * np);
  memset(el->e, 0, sizeof(double) * np * nt);
  memset(el->et, 0, sizeof(double) * np * nt);
  memset(el->h, 0, sizeof(double) * nt * nt);
  memset(el->f, 0, sizeof(double) * np);

  /* Volume integrals: dx = |J| dxi, d_{x_k} phi = sum_l (J^-1)_{lk} d_l phi. */
  for (int q = 0; q < qv->n; q++) {
    double x[3], jac[9], jinv[9];
    double detj = hdg_map(mesh, e, qv->points + (size_t)q * d, x, jac);
    if (!(detj > 0))
      return hdgcl_error(HDGCL_ERROR_MESH, "element %d: Jacobian %g <= 0 at a quadrature point",
                         (int)e, detj);
    hdg_invert(d, jac, detj, jinv);
    double wq = qv->weights[q] * detj;
    const double *phi = ref->phi_load + (size_t)q * np;
    double fq = problem_f(disc->params, x[0], x[1], x[2]);
    if (disc->element_load) /* a time step's element load s (docs/time.md (T3)) at x_q */
      for (int j = 0; j < np; j++) fq += phi[j] * disc->element_load[(size_t)e * disc->ref.sz.np + j];
    if (points) discretisation_coefficients_at(disc, e, x, &kappa, &c, beta);
    for (int i = 0; i < np; i++) {
      el->f[i] += wq * fq * phi[i];
      for (int j = 0; j < np; j++) el->a[i * np + j] += wq * phi[i] * phi[j] / kappa;
      for (int j = 0; j < np; j++) el->d[i * np + j] += wq * c * phi[i] * phi[j];
    }
    /* B_k[j][i] = -(phi_i, d_k phi_j);  (F22) D[j][i] -= (beta phi_i, grad phi_j). */
    for (int j = 0; j < np; j++) {
      const double *g = ref->dphi_load + ((size_t)q * np + j) * d;
      double bgrad = 0.0;
      for (int k = 0; k < d; k++) {
        double dk = 0.0;
        for (int l = 0; l < d; l++) dk += jinv[l * d + k] * g[l];
        bgrad += beta[k] * dk;
        for (int i = 0; i < np; i++) el->b[((size_t)k * np + j) * np + i] -= wq * phi[i] * dk;
      }
      if (convection)
        for (int i = 0; i < np; i++) el->d[j * np + i] -= wq * bgrad * phi[i];
    }
  }

  /* Face integrals at the mapped face points: dS and n from the element map. */
  const int8_t *orient = mesh->elem_face_orient + (size_t)e * mesh->faces_per_element;
  double X[3];
  for (int f = 0; f < sz->nfaces; f++) {
    const double *phif = ref->phi_face + ((size_t)f * sz->norient + orient[f]) * qf->n * np;
    for (int q = 0; q < qf->n; q++) {
      double x[3], nds[3];
      HDGCL_TRY(hdgcl_face_map_points(sz->type, f, orient[f], 1, qf->points + (size_t)q * (d - 1), X));
      double ds = hdg_face_normal(mesh, e, f, X, x, nds);
      double wq = qf->weights[q] * ds;
      const double *phi = phif + (size_t)q * np;
      const double *psi = ref->psi_face + (size_t)q * nf;
      if (points) discretisation_coefficients_at(disc, e, x, &kappa, &c, beta);
      /* (F22) upwinded stabilisation tau_f = tau + max(beta . n, 0); the
       * u-equation's E and H carry tau_f - beta . n. */
      double bn = (beta[0] * nds[0] + beta[1] * nds[1] + beta[2] * (d == 3 ? nds[2] : 0.0)) / ds;
      double tauf = tau + fmax(bn, 0.0), taun = tauf - bn;
      for (int i = 0; i < np; i++) {
        for (int j = 0; j < np; j++) el->d[i * np + j] += tauf * wq * phi[i] * phi[j];
        for (int m = 0; m < nf; m++) {
          el->e[i * nt + f * nf + m] += taun * wq * phi[i] * psi[m];
          el->et[i * nt + f * nf + m] += tauf * wq * phi[i] * psi[m];
          for (int k = 0; k < d; k++)
            el->c[((size_t)k * np + i) * nt + f * nf + m] += qf->weights[q] * psi[m] * phi[i] * nds[k];
        }
      }
      for (int m = 0; m < nf; m++)
        for (int m2 = 0; m2 < nf; m2++)
          el->h[(f * nf + m) * nt + f * nf + m2] += taun * wq * psi[m] * psi[m2];
    }
  }
  return HDGCL_SUCCESS;
}

/* A tensor kappa (docs/formulation.md section 7c): A = (K^-1 (x) M) over the
 * d components (A from reference_element_matrices with kappa = 1 is M), so
 * A^-1 = K (x) M^-1 and, with X_k = sum_l K_kl M^-1 [B_l | C_l],
 *   S += sum_k B_k^T X_k^B,  W, W_t -= sum_k B_k^T X_k^C,  K += sum_k C_k^T X_k^C. */
static void tensor_couplings(const hdg_discretisation *disc, int32_t e, reference_element *el) {
  const hdg_sizes *sz = &el->sz;
  int d = sz->dim, np = sz->np, nt = sz->nt, nc = np + nt;
  const double *K = disc->kappa_tensor + (size_t)e * KAPPA_TENSOR_VALUES(d) + KAPPA_K(d);
  for (int l = 0; l < d; l++) { /* my_l = M^-1 [B_l | C_l] */
    double *y = el->my + (size_t)l * np * nc;
    for (int i = 0; i < np; i++) {
      memcpy(y + (size_t)i * nc, el->b + ((size_t)l * np + i) * np, sizeof(double) * np);
      memcpy(y + (size_t)i * nc + np, el->c + ((size_t)l * np + i) * nt, sizeof(double) * nt);
    }
    dense_cholesky_solve(np, el->achol, nc, y);
  }
  for (int k = 0; k < d; k++) {
    const double *bk = el->b + (size_t)k * np * np, *ck = el->c + (size_t)k * np * nt;
    double *x = el->scratch; /* one row of X_k at a time */
    for (int r = 0; r < np; r++) {
      for (int j = 0; j < nc; j++) {
        double v = 0.0;
        for (int l = 0; l < d; l++) v += K[k * d + l] * el->my[((size_t)l * np + r) * nc + j];
        x[j] = v;
      }
      /* row r of X_k meets row r of B_k and C_k (B_k^T X_k = sum_r B_k[r]^T X_k[r]) */
      for (int i = 0; i < np; i++) {
        for (int j = 0; j < np; j++) el->s[i * np + j] += bk[r * np + i] * x[j];
        for (int j = 0; j < nt; j++) {
          el->wf[i * (nt + 1) + j] -= bk[r * np + i] * x[np + j];
          el->wl[i * nt + j] -= bk[r * np + i] * x[np + j];
        }
      }
      for (int a = 0; a < nt; a++)
        for (int j = 0; j < nt; j++) el->k[a * nt + j] += ck[r * nt + a] * x[np + j];
    }
  }
}

int reference_element_condense(const hdg_discretisation *disc, int32_t e, reference_element *el) {
  HDGCL_TRY(reference_element_matrices(disc, e, el));
  const hdg_sizes *sz = &el->sz; /* e's type's */
  int d = sz->dim, np = sz->np, nt = sz->nt;

  /* A = L_A L_A^T; S = D + sum_k B_k^T A^-1 B_k; W = E - sum_k B_k^T A^-1 C_k,
   * W_t = E_t - sum_k B_k^T A^-1 C_k;  K = H + sum_k C_k^T A^-1 C_k - W_t^T S^-1 W
   * (F9), (F10), (F23); without convection W_t = W and S is SPD. */
  memcpy(el->achol, el->a, sizeof(double) * np * np);
  if (dense_cholesky(np, el->achol))
    return hdgcl_error(HDGCL_ERROR_INTERNAL, "element %d: mass matrix not positive definite", (int)e);
  memcpy(el->s, el->d, sizeof(double) * np * np);
  for (int i = 0; i < np; i++)
    for (int j = 0; j < nt; j++) el->wf[i * (nt + 1) + j] = el->e[i * nt + j];
  for (int i = 0; i < np; i++) el->wf[i * (nt + 1) + nt] = el->f[i];
  memcpy(el->wl, el->et, sizeof(double) * np * nt);
  memcpy(el->k, el->h, sizeof(double) * nt * nt);
  if (disc->kappa_tensor) tensor_couplings(disc, e, el);
  for (int k = 0; k < d && !disc->kappa_tensor; k++) {
    const double *bk = el->b + (size_t)k * np * np, *ck = el->c + (size_t)k * np * nt;
    double *y = el->scratch; /* A^-1 B_k, then A^-1 C_k */
    memcpy(y, bk, sizeof(double) * np * np); /* y = A^-1 B_k (np x np) */
    dense_cholesky_solve(np, el->achol, np, y);
    dense_gemm(np, np, np, 1.0, bk, 1, y, 0, 1.0, el->s); /* S += B_k^T A^-1 B_k */
    memcpy(y, ck, sizeof(double) * np * nt);              /* y = A^-1 C_k (np x nt) */
    dense_cholesky_solve(np, el->achol, nt, y);
    /* W, W_t -= B_k^T A^-1 C_k (W: the first nt columns of wf, row stride nt+1). */
    for (int i = 0; i < np; i++)
      for (int j = 0; j < nt; j++) {
        double sum = 0.0;
        for (int r = 0; r < np; r++) sum += bk[r * np + i] * y[r * nt + j];
        el->wf[i * (nt + 1) + j] -= sum;
        el->wl[i * nt + j] -= sum;
      }
    dense_gemm(nt, nt, np, 1.0, ck, 1, y, 0, 1.0, el->k); /* K += C_k^T A^-1 C_k */
  }
  int bad = dense_lu(np, el->s, el->piv); /* el->s now holds the LU factors of S */
  if (bad)
    return hdgcl_error(HDGCL_ERROR_INTERNAL, "element %d: local matrix S singular (column %d)",
                       (int)e, bad - 1);
  memcpy(el->z, el->wf, sizeof(double) * np * (nt + 1));
  dense_lu_solve(np, el->s, el->piv, nt + 1, el->z); /* z = S^-1 [W | F] */
  for (int a = 0; a < nt; a++) {
    for (int b = 0; b < nt; b++) {
      double sum = 0.0;
      for (int i = 0; i < np; i++) sum += el->wl[i * nt + a] * el->z[i * (nt + 1) + b];
      el->k[a * nt + b] -= sum;
    }
  }
  return HDGCL_SUCCESS;
}

void reference_element_rhs(const reference_element *el, double *g) {
  int np = el->sz.np, nt = el->sz.nt;
  for (int a = 0; a < nt; a++) { /* g_e = W_t^T S^-1 F */
    double sum = 0.0;
    for (int i = 0; i < np; i++) sum += el->wl[i * nt + a] * el->z[i * (nt + 1) + nt];
    g[a] = sum;
  }
}
