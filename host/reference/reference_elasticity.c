/* Reference path for the vector problems (linear elasticity, HDG of paper
 * 004 with displacement gradient H, pressure p, displacement u and trace
 * uhat; docs/elasticity.md): element matrices from the scalar ones of
 * reference_local.c, static condensation to the trace system with face
 * blocks of ncomp * nf values (E7)-(E9), recovery of u, p, H, the
 * postprocessed u* (E10) and the error norms (E11).  The trace numbering,
 * the block-ELL assembly (reference_assemble.c) and the Krylov solvers
 * (reference_solve.c) are the scalar ones with block size nfb = ncomp * nf. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/dense.h"
#include "core/error.h"
#include "fem/face_map.h"
#include "problem/problem_elasticity.h"
#include "reference/reference.h"

int elasticity_element_create(const hdg_sizes *sz, elasticity_element *el) {
  memset(el, 0, sizeof *el);
  int d = sz->dim, np = sz->np, nt = sz->nt, ntb = sz->ntb, nz = (d + 1) * np;
  HDGCL_TRY(reference_element_create(sz, &el->scalar));
  size_t sizes[] = {(size_t)np * np,          (size_t)np * nt,          (size_t)nt * nt,
                    (size_t)nz * nz,          (size_t)nz * (ntb + 1),   (size_t)nz * (ntb + 1),
                    (size_t)ntb * ntb,        (size_t)ntb,              (size_t)np * (np > nt ? np : nt),
                    (size_t)d * np * np,      (size_t)d * np * nt,      (size_t)nz * (ntb + 1)};
  size_t total = 0;
  for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) total += sizes[i];
  double *block;
  int status = hdgcl_calloc(total, sizeof(double), "elasticity element matrices", &block);
  if (status) {
    reference_element_destroy(&el->scalar);
    return status;
  }
  double **slots[] = {&el->s0, &el->w0, &el->k0, &el->z,  &el->wf, &el->zs,
                      &el->k,  &el->g,  &el->y,  &el->yb, &el->yc, &el->wt};
  size_t off = 0;
  for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
    *slots[i] = block + off;
    off += sizes[i];
  }
  status = hdgcl_calloc((size_t)nz, sizeof(int), "pivots", &el->piv);
  if (status) {
    free(block);
    reference_element_destroy(&el->scalar);
    return status;
  }
  el->sz = *sz;
  return HDGCL_SUCCESS;
}

void elasticity_element_destroy(elasticity_element *el) {
  free(el->s0);
  free(el->piv);
  reference_element_destroy(&el->scalar);
  memset(el, 0, sizeof *el);
}

/* F_i = (f_i, phi_a)_K by the load quadrature (E5): rows (i, a) of [W | F]'s last column. */
static int element_load(const hdg_discretisation *disc, int32_t e, elasticity_element *el) {
  const hdg_reference *ref = discretisation_ref(disc, e); /* e's type's (a mixed mesh) */
  const hdgcl_quadrature *qv = &ref->qload;
  int d = ref->sz.dim, np = ref->sz.np, ntb = ref->sz.ntb;
  for (int q = 0; q < qv->n; q++) {
    double x[3], jac[9], f[3];
    double detj = hdg_map(disc->mesh, e, qv->points + (size_t)q * d, x, jac);
    double wq = qv->weights[q] * detj;
    elasticity_load(&disc->params, x, f);
    const double *phi = ref->phi_load + (size_t)q * np;
    for (int i = 0; i < d; i++)
      for (int a = 0; a < np; a++) el->wf[(size_t)(i * np + a) * (ntb + 1) + ntb] += wq * f[i] * phi[a];
  }
  return HDGCL_SUCCESS;
}

/* M^-1 B_k and M^-1 C_k (k < d) into el->yb, el->yc, for the terms below. */
static void gradient_solves(const hdg_sizes *sz, const reference_element *sc,
                            elasticity_element *el) {
  int np = sz->np, nt = sz->nt;
  for (int k = 0; k < sz->dim; k++) {
    double *yb = el->yb + (size_t)k * np * np, *yc = el->yc + (size_t)k * np * nt;
    memcpy(yb, sc->b + (size_t)k * np * np, sizeof(double) * np * np);
    dense_cholesky_solve(np, sc->achol, np, yb); /* M^-1 B_k */
    memcpy(yc, sc->c + (size_t)k * np * nt, sizeof(double) * np * nt);
    dense_cholesky_solve(np, sc->achol, nt, yc); /* M^-1 C_k */
  }
}

/* The term mu (H^T - tr(H) I) n of the physical traction in the trace
 * equations of face f (E13), H_ij = M^-1 (B_j u_i + C_j uhat_i): its u part
 * P^T goes to left (rows (j, b), columns (f, i, m), i != j; for i = j the two
 * terms cancel), its uhat part Q is subtracted from K:
 *   P[(j, b)][(f, i, m)] = mu (C_i^T M^-1 B_j - C_j^T M^-1 B_i)[fm][b],
 *   Q[(f, i, m)][(g, j, n)] = mu (C_i^T M^-1 C_j - C_j^T M^-1 C_i)[fm][gn].
 * left = NULL adds Q only ((E17), whose P is in Wext already). */
static void traction_terms(const hdg_sizes *sz, const reference_element *sc,
                           elasticity_element *el, int f, double mu, double *left) {
  int d = sz->dim, np = sz->np, nf = sz->nf, nt = sz->nt, nfb = sz->nfb, ntb = sz->ntb;
  int nw = ntb + 1;
  for (int i = 0; i < d; i++)
    for (int j = 0; j < d; j++) {
      if (i == j) continue;
      const double *ci = sc->c + (size_t)i * np * nt, *cj = sc->c + (size_t)j * np * nt;
      const double *ybi = el->yb + (size_t)i * np * np, *ybj = el->yb + (size_t)j * np * np;
      const double *yci = el->yc + (size_t)i * np * nt, *ycj = el->yc + (size_t)j * np * nt;
      for (int m = 0; m < nf; m++) {
        int row = f * nfb + i * nf + m, fm = f * nf + m;
        for (int b = 0; b < np && left; b++) {
          double sum = 0.0;
          for (int a = 0; a < np; a++)
            sum += ci[a * nt + fm] * ybj[a * np + b] - cj[a * nt + fm] * ybi[a * np + b];
          left[(size_t)(j * np + b) * nw + row] += mu * sum;
        }
        for (int gn = 0; gn < nt; gn++) {
          double sum = 0.0;
          for (int a = 0; a < np; a++)
            sum += ci[a * nt + fm] * ycj[a * nt + gn] - cj[a * nt + fm] * yci[a * nt + gn];
          el->k[(size_t)row * ntb + (gn / nf) * nfb + j * nf + gn % nf] -= mu * sum;
        }
      }
    }
}

/* (E13): on traction faces the trace equation uses the physical stress of
 * the element's H, hhat_phys = hhat - mu0 (H^T - tr(H) I) n (with (E17), the
 * element's stress has (mu - mu0) of that term already),
 * so the left factor of those rows becomes wt = Wext + [P; 0] and K_e gets -Q.
 * Returns whether element e has a traction face (then wt is filled, else
 * untouched).  `solved`: gradient_solves has run for this element already
 * (material_terms needed it), so el->yb, el->yc hold its M^-1 B_k, M^-1 C_k. */
static bool traction_rows(const hdg_discretisation *disc, int32_t e, const reference_element *sc,
                          elasticity_element *el, bool solved) {
  const hdg_sizes *sz = &discretisation_ref(disc, e)->sz;
  int nz = (sz->dim + 1) * sz->np, nw = sz->ntb + 1;
  const int32_t *faces = disc->mesh->elem_faces + (size_t)e * disc->mesh->faces_per_element;
  bool any = false;
  for (int f = 0; f < sz->nfaces; f++) any |= disc->num.face_bc[faces[f]] == FACE_NEUMANN;
  if (!any) return false;
  memcpy(el->wt, el->wf, sizeof(double) * nz * nw);
  if (!solved) gradient_solves(sz, sc, el);
  for (int f = 0; f < sz->nfaces; f++)
    if (disc->num.face_bc[faces[f]] == FACE_NEUMANN) traction_terms(sz, sc, el, f, discretisation_mu0(disc), el->wt);
  return true;
}

/* Materials per element (docs/elasticity.md (E17)): the stress of an element
 * is (mu H - p I) + w X, X = H^T - tr(H) I, w = mu - mu0, in the momentum
 * equation and in the flux of every face.  Its volume part -(div w X, w)_K =
 * w sum_j (B_j^T H_ji - B_i^T H_jj) adds to Z's u blocks (i != j)
 *   w (B_j^T M^-1 B_i - B_i^T M^-1 B_j)
 * and to Wext's rows u_i, columns uhat_j
 *   -w (B_j^T M^-1 C_i - B_i^T M^-1 C_j),
 * which is P of (E13) (with w) transposed: the trace equations' left factor
 * stays Wext (the system stays symmetric); their Q comes with traction_terms. */
static void material_terms(const hdg_sizes *sz, const reference_element *sc,
                           elasticity_element *el, double w) {
  int d = sz->dim, np = sz->np, nf = sz->nf, nt = sz->nt, nfb = sz->nfb, nw = sz->ntb + 1;
  int nz = (d + 1) * np;
  for (int i = 0; i < d; i++)
    for (int j = 0; j < d; j++) {
      if (i == j) continue;
      const double *bi = sc->b + (size_t)i * np * np, *bj = sc->b + (size_t)j * np * np;
      const double *ybi = el->yb + (size_t)i * np * np, *ybj = el->yb + (size_t)j * np * np;
      const double *yci = el->yc + (size_t)i * np * nt, *ycj = el->yc + (size_t)j * np * nt;
      for (int a = 0; a < np; a++) {
        for (int b = 0; b < np; b++) {
          double sum = 0.0;
          for (int c = 0; c < np; c++) sum += bj[c * np + a] * ybi[c * np + b] - bi[c * np + a] * ybj[c * np + b];
          el->z[(size_t)(i * np + a) * nz + j * np + b] += w * sum;
        }
        for (int fm = 0; fm < nt; fm++) {
          double sum = 0.0;
          for (int c = 0; c < np; c++) sum += bj[c * np + a] * yci[c * nt + fm] - bi[c * np + a] * ycj[c * nt + fm];
          el->wf[(size_t)(i * np + a) * nw + (fm / nf) * nfb + j * nf + fm % nf] -= w * sum;
        }
      }
    }
}

int elasticity_element_condense(const hdg_discretisation *disc, int32_t e, elasticity_element *el) {
  /* e's type's sizes (a mixed mesh: el's matrices are the widest type's size) */
  const hdg_sizes *sz = &discretisation_ref(disc, e)->sz;
  int d = sz->dim, np = sz->np, nf = sz->nf, nt = sz->nt, nfb = sz->nfb, ntb = sz->ntb;
  int nz = (d + 1) * np, nw = ntb + 1;
  double mu = disc->mu[e], eps = 1.0 / (disc->mu[e] + disc->lambda[e]);
  reference_element *sc = &el->scalar;
  /* (E5): with kappa = 1, c = 0 the scalar a is the mass matrix M, d = tau <phi, phi>_dK,
   * e = tau <psi, phi>_dK, h = tau <psi, psi>_dK, b_k and c_k as in (F6). */
  HDGCL_TRY(reference_element_matrices(disc, e, sc));
  memcpy(sc->achol, sc->a, sizeof(double) * np * np);
  if (dense_cholesky(np, sc->achol))
    return hdgcl_error(HDGCL_ERROR_INTERNAL, "element %d: mass matrix not positive definite", (int)e);

  /* (E7): eliminating H (A_H = M / mu):  S0 = D + mu sum_j B_j^T M^-1 B_j,
   * W0 = E - mu sum_j B_j^T M^-1 C_j,  K0 = H + mu sum_j C_j^T M^-1 C_j. */
  memcpy(el->s0, sc->d, sizeof(double) * np * np);
  memcpy(el->w0, sc->e, sizeof(double) * np * nt);
  memcpy(el->k0, sc->h, sizeof(double) * nt * nt);
  for (int j = 0; j < d; j++) {
    const double *bj = sc->b + (size_t)j * np * np, *cj = sc->c + (size_t)j * np * nt;
    memcpy(el->y, bj, sizeof(double) * np * np);
    dense_cholesky_solve(np, sc->achol, np, el->y);                 /* M^-1 B_j */
    dense_gemm(np, np, np, mu, bj, 1, el->y, 0, 1.0, el->s0);       /* S0 += mu B_j^T M^-1 B_j */
    memcpy(el->y, cj, sizeof(double) * np * nt);
    dense_cholesky_solve(np, sc->achol, nt, el->y);                 /* M^-1 C_j */
    dense_gemm(np, nt, np, -mu, bj, 1, el->y, 0, 1.0, el->w0);      /* W0 -= mu B_j^T M^-1 C_j */
    dense_gemm(nt, nt, np, mu, cj, 1, el->y, 0, 1.0, el->k0);       /* K0 += mu C_j^T M^-1 C_j */
  }

  /* (E8): Z = [[S0 I_d, -B^T], [-B, -eps M]] on (u_0..u_{d-1}, p), rows/columns
   * (i, a) = i * np + a and (p, a) = d * np + a;  [Wext | Fext] with the trace
   * columns (f, c, m) = f * nfb + c * nf + m. */
  memset(el->z, 0, sizeof(double) * nz * nz);
  memset(el->wf, 0, sizeof(double) * nz * nw);
  for (int i = 0; i < d; i++) {
    const double *bi = sc->b + (size_t)i * np * np, *ci = sc->c + (size_t)i * np * nt;
    for (int a = 0; a < np; a++) {
      double *zrow = el->z + (size_t)(i * np + a) * nz, *prow = el->z + (size_t)(d * np + a) * nz;
      for (int b = 0; b < np; b++) {
        zrow[i * np + b] = el->s0[a * np + b];
        zrow[d * np + b] = -bi[b * np + a]; /* -B_i^T */
        prow[i * np + b] = -bi[a * np + b]; /* -B_i */
      }
      double *wrow = el->wf + (size_t)(i * np + a) * nw, *wprow = el->wf + (size_t)(d * np + a) * nw;
      for (int f = 0; f < sz->nfaces; f++)
        for (int m = 0; m < nf; m++) {
          wrow[f * nfb + i * nf + m] = el->w0[a * nt + f * nf + m];
          wprow[f * nfb + i * nf + m] = ci[a * nt + f * nf + m]; /* C_i */
        }
    }
  }
  for (int a = 0; a < np; a++)
    for (int b = 0; b < np; b++) el->z[(size_t)(d * np + a) * nz + d * np + b] = -eps * sc->a[a * np + b];
  HDGCL_TRY(element_load(disc, e, el));
  double w = mu - discretisation_mu0(disc); /* (E17) */
  if (w > 0) {
    gradient_solves(sz, sc, el);
    material_terms(sz, sc, el, w);
  }

  /* (E9): K_e = K0 (x) I_d - Wext^T Z^-1 Wext,  g_e = Wext^T Z^-1 Fext. */
  int bad = dense_lu(nz, el->z, el->piv);
  if (bad)
    return hdgcl_error(HDGCL_ERROR_INTERNAL, "element %d: local (u, p) matrix singular (column %d)",
                       (int)e, bad - 1);
  memcpy(el->zs, el->wf, sizeof(double) * nz * nw);
  dense_lu_solve(nz, el->z, el->piv, nw, el->zs);
  memset(el->k, 0, sizeof(double) * ntb * ntb);
  for (int f = 0; f < sz->nfaces; f++)
    for (int g = 0; g < sz->nfaces; g++)
      for (int c = 0; c < d; c++)
        for (int m = 0; m < nf; m++)
          for (int n = 0; n < nf; n++)
            el->k[(size_t)(f * nfb + c * nf + m) * ntb + g * nfb + c * nf + n] =
                el->k0[(f * nf + m) * nt + g * nf + n];
  /* (E17): K_e = K0 (x) I_d - Q(w) - Wext^T Z^-1 Wext, Q(w) on every face;
   * (E13): traction faces: K_e -= Q(mu0), left factor wt = Wext + [P(mu0); 0],
   * g_e = wt^T Z^-1 Fext. */
  if (w > 0)
    for (int f = 0; f < sz->nfaces; f++) traction_terms(sz, sc, el, f, w, NULL);
  const double *left = traction_rows(disc, e, sc, el, w > 0) ? el->wt : el->wf;
  for (int r = 0; r < ntb; r++) {
    for (int col = 0; col < nw; col++) {
      double sum = 0.0;
      for (int i = 0; i < nz; i++) sum += left[(size_t)i * nw + r] * el->zs[(size_t)i * nw + col];
      if (col < ntb)
        el->k[(size_t)r * ntb + col] -= sum;
      else
        el->g[r] = sum;
    }
  }
  return HDGCL_SUCCESS;
}

/* Boundary data of face f per component (nfb values): the projection of the
 * displacement on Dirichlet faces and on the fixed components of a
 * per-component face (docs/problems.md (P4)), the traction load elsewhere. */
int elasticity_boundary_values(const hdg_discretisation *disc, int32_t f, double *out) {
  const hdgcl_mesh *mesh = disc->mesh;
  const hdg_sizes *sz = &disc->ref.sz;
  const hdgcl_quadrature *qf = &disc->ref.qface;
  int nf = sz->nf, d = sz->dim;
  bool traction = disc->num.face_bc[f] == FACE_NEUMANN;
  int fixed = traction ? disc->num.face_fixed[f] : (1 << d) - 1; /* components given as displacement */
  int cond = disc->num.face_cond[f - mesh->num_interior_faces];
  memset(out, 0, sizeof(double) * sz->nfb);
  int32_t e = mesh->face_elems[2 * f];
  int lf = mesh->face_local[2 * f], o = mesh->face_orient[2 * f];
  for (int q = 0; q < qf->n; q++) {
    double X[3], x[3], nds[3], u[3] = {0, 0, 0}, g[3] = {0, 0, 0};
    HDGCL_TRY(hdgcl_face_map_points(discretisation_ref(disc, e)->sz.type, lf, o, 1,
                                    qf->points + (size_t)q * (d - 1), X));
    double ds = hdg_face_normal(mesh, e, lf, X, x, nds);
    const double *psi = disc->ref.psi_face + (size_t)q * nf;
    if (traction) { /* (E12): the load <g_N, psi_m>_F of each component */
      double n[3] = {nds[0] / ds, nds[1] / ds, d == 3 ? nds[2] / ds : 0.0};
      problem_elasticity_traction(disc->params, cond, x, n, g);
    }
    if (fixed) problem_elasticity_displacement(disc->params, cond, x, u);
    for (int c = 0; c < d; c++) {
      if ((fixed >> c) & 1) /* the projection of each component as in the scalar case
                               (reference_assemble.c) */
        for (int m = 0; m < nf; m++) out[c * nf + m] += qf->weights[q] * psi[m] * u[c];
      else
        for (int m = 0; m < nf; m++) out[c * nf + m] += ds * qf->weights[q] * psi[m] * g[c];
    }
  }
  return HDGCL_SUCCESS;
}

/* Squared L2 errors of u, H, p, u*, max |u - u_h| (Euclidean), squared norms
 * of the exact u, H and p on element e (E11). */
static void element_errors(const hdg_discretisation *disc, hdg_solution *sol, int32_t e,
                           double err[8], double *check) {
  /* e's type's tables; the rows of u, H, p, u* are the widest type's (rnp, rnp1) */
  const hdg_reference *ref = discretisation_ref(disc, e);
  const hdg_sizes *sz = &ref->sz;
  const hdgcl_quadrature *qe = &ref->qerr;
  int d = sz->dim, np = sz->np, np1 = sz->np1, rnp = disc->ref.sz.np, rnp1 = disc->ref.sz.np1;
  const double *u = sol->u + (size_t)e * d * rnp, *h = sol->q + (size_t)e * d * d * rnp;
  const double *p = sol->p + (size_t)e * rnp, *ustar = sol->ustar + (size_t)e * d * rnp1;
  problem_params pp = disc->params;
  if (pp.id == PROBLEM_USER) { /* a user's exact pressure with the element's own mu, lambda */
    pp.mu = disc->mu[e];
    pp.lambda = disc->lambda[e];
  }
  for (int k = 0; k < qe->n; k++) {
    double x[3], jac[9];
    double wq = qe->weights[k] * hdg_map(disc->mesh, e, qe->points + (size_t)k * d, x, jac);
    const double *phi = ref->phi_err + (size_t)k * np, *phi1 = ref->phi1_err + (size_t)k * np1;
    double uex[3], gex[9], pex;
    elasticity_exact(&pp, x, uex, gex, &pex);
    double eu = 0.0, es = 0.0, uu = 0.0, eh = 0.0, hh = 0.0;
    for (int i = 0; i < d; i++) {
      double uh = 0.0, us = 0.0;
      for (int a = 0; a < np; a++) uh += u[i * rnp + a] * phi[a];
      for (int a = 0; a < np1; a++) us += ustar[i * rnp1 + a] * phi1[a];
      eu += (uh - uex[i]) * (uh - uex[i]);
      es += (us - uex[i]) * (us - uex[i]);
      check[i] += wq * (us - uh); /* u*'s check (ustar_check_element) */
      check[d + i] += wq * uh * uh;
      uu += uex[i] * uex[i];
      for (int j = 0; j < d; j++) {
        double hv = 0.0;
        for (int a = 0; a < np; a++) hv += h[(i * d + j) * rnp + a] * phi[a];
        eh += (hv - gex[i * d + j]) * (hv - gex[i * d + j]);
        hh += gex[i * d + j] * gex[i * d + j];
      }
    }
    double ph = 0.0;
    for (int a = 0; a < np; a++) ph += p[a] * phi[a];
    err[0] += wq * eu;
    err[1] += wq * eh;
    err[2] += wq * (ph - pex) * (ph - pex);
    err[3] += wq * es;
    if (sqrt(eu) > err[4]) err[4] = sqrt(eu);
    err[5] += wq * uu;
    err[6] += wq * hh;
    err[7] += wq * pex * pex;
    check[2 * d] += wq;
  }
}

int elasticity_recover(const hdg_discretisation *disc, hdg_solution *sol) {
  const hdgcl_mesh *mesh = disc->mesh;
  /* The widest type's sizes: the workspace and the rows of u, H, p, u* (a
   * mixed mesh: each element's own sizes below, its rows' tails stay 0). */
  const hdg_sizes *wz = &disc->ref.sz;
  int d = wz->dim, rnp = wz->np, rnp1 = wz->np1, stride = mesh->faces_per_element;
  elasticity_element el;
  double *lam = NULL, *lamc = NULL, *upv = NULL, *hrow = NULL;
  reference_postprocess_work w = {0};
  int status;
  HDGCL_TRY(elasticity_element_create(wz, &el));
  HDGCL_TRY_GOTO(status, hdgcl_calloc(wz->ntb, sizeof(double), "trace", &lam), done);
  HDGCL_TRY_GOTO(status, hdgcl_calloc(wz->nt, sizeof(double), "trace", &lamc), done);
  HDGCL_TRY_GOTO(status, hdgcl_calloc((size_t)(d + 1) * rnp, sizeof(double), "u and p", &upv), done);
  HDGCL_TRY_GOTO(status, hdgcl_calloc((size_t)d * rnp, sizeof(double), "row of H", &hrow), done);
  HDGCL_TRY_GOTO(status, reference_postprocess_work_create(wz, &w), done);
  double err[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  ustar_check chk = {0};
  for (int32_t e = 0; e < mesh->num_elements; e++) {
    const hdg_sizes *sz = &discretisation_ref(disc, e)->sz;
    int np = sz->np, nt = sz->nt, nf = sz->nf, nfb = sz->nfb, ntb = sz->ntb;
    int nz = (d + 1) * np, nw = ntb + 1;
    HDGCL_TRY_GOTO(status, elasticity_element_condense(disc, e, &el), done);
    for (int f = 0; f < sz->nfaces; f++) {
      int32_t face = mesh->elem_faces[(size_t)e * stride + f];
      memcpy(lam + f * nfb, sol->trace + (size_t)face * nfb, sizeof(double) * nfb);
    }
    /* (E8): [u; p] = Z^-1 (Fext + Wext lambda). */
    for (int i = 0; i < nz; i++) {
      double sum = el.zs[(size_t)i * nw + ntb];
      for (int a = 0; a < ntb; a++) sum += el.zs[(size_t)i * nw + a] * lam[a];
      upv[i] = sum;
    }
    for (int i = 0; i < d; i++)
      memcpy(sol->u + (size_t)(e * d + i) * rnp, upv + i * np, sizeof(double) * np);
    memcpy(sol->p + (size_t)e * rnp, upv + d * np, sizeof(double) * np);
    /* (E7): H_ij = M^-1 (B_j u_i + C_j lambda_i). */
    for (int i = 0; i < d; i++) {
      const double *ui = upv + i * np;
      for (int f = 0; f < sz->nfaces; f++) memcpy(lamc + f * nf, lam + f * nfb + i * nf, sizeof(double) * nf);
      for (int j = 0; j < d; j++) {
        const double *bj = el.scalar.b + (size_t)j * np * np, *cj = el.scalar.c + (size_t)j * np * nt;
        double *hij = hrow + (size_t)j * np; /* row i of H compact, [d][np] */
        for (int a = 0; a < np; a++) {
          double sum = 0.0;
          for (int b = 0; b < np; b++) sum += bj[a * np + b] * ui[b];
          for (int b = 0; b < nt; b++) sum += cj[a * nt + b] * lamc[b];
          hij[a] = sum;
        }
        dense_cholesky_solve(np, el.scalar.achol, 1, hij);
        memcpy(sol->q + ((size_t)(e * d + i) * d + j) * rnp, hij, sizeof(double) * np);
      }
      /* (E10): u*_i from row i of H, as (F12) with H_i in place of -q / kappa. */
      HDGCL_TRY_GOTO(status,
                     reference_postprocess(disc, e, sol->u + (size_t)(e * d + i) * rnp, hrow, 1.0,
                                           sol->ustar + (size_t)(e * d + i) * rnp1, &w),
                     done);
    }
    double ee[8] = {0, 0, 0, 0, 0, 0, 0, 0}, check[9] = {0};
    element_errors(disc, sol, e, ee, check);
    check[2 * d + 1] = w.rmax;
    check[2 * d + 2] = w.rscale;
    w.rmax = w.rscale = 0.0;
    ustar_check_element(&chk, e, d, check);
    for (int c = 0; c < 8; c++)
      if (c != 4) err[c] += ee[c];
    if (ee[4] > err[4]) err[4] = ee[4];
  }
  hdg_solution *r = sol;
  r->l2_u = sqrt(err[0]);
  r->l2_q = sqrt(err[1]);
  r->l2_p = sqrt(err[2]);
  r->l2_ustar = sqrt(err[3]);
  r->linf_u = err[4];
  r->norm_u = sqrt(err[5]);
  r->norm_q = sqrt(err[6]);
  r->norm_p = sqrt(err[7]);
  HDGCL_TRY_GOTO(status, ustar_check_finish(&chk, true, &sol->ustar_check), done);
  status = elasticity_finish(disc, sol);
done:
  free(lam);
  free(lamc);
  free(upv);
  free(hrow);
  reference_postprocess_work_destroy(&w);
  elasticity_element_destroy(&el);
  return status;
}
