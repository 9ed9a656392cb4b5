/* Reference path, Newton's method for nonlinear diffusion (docs/nonlinear.md):
 * per element, the residual (N2)-(N3) at the state and its dense Jacobian
 * (N5) with the element unknowns L = (q_1..q_d, u) and the trace, integrated
 * by quadrature with kappa(u_h) and kappa'(u_h) at the points; the condensed
 * trace system (N6) by LU on J_LL, assembled element by element; the update
 * of L recovered from the trace update (N7).  The state-independent blocks
 * (B_k, C_k, D, E, H, F of (F6)) come from reference_element_matrices;
 * viscous Burgers adds its convective terms (N15)-(N16) (reference_burgers.c). */
#include "reference/reference_newton.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/context.h"
#include "core/dense.h"
#include "core/error.h"
#include "reference/reference.h"
#include "reference/reference_burgers.h"
#include "reference/reference_local.h"
#include "problem/user_problem.h"

/* One element's Newton blocks (row-major), nl = (d + 1) np element unknowns. */
typedef struct newton_element {
  reference_element el; /* B_k, C_k, D, E, E_t, H, F */
  double *a;            /* [np][np]      A(u) = (kappa(u_h)^-1 phi_j, phi_i) (N5) */
  double *n;            /* [d][np][np]   N_k = -(kappa'(u_h) kappa(u_h)^-2 q_hk phi_j, phi_i) */
  double *m;            /* [np][np]      the mass matrix (u*'s projection) */
  double *jll;          /* [nl][nl]      J_LL, then its LU factors */
  double *jlt;          /* [nl][nt]      J_LT */
  double *jtl;          /* [nt][nl]      J_TL */
  double *jtt;          /* [nt][nt]      J_TT: H, with Burgers' d R_T / d lambda (N16) */
  burgers_jacobian bj;  /* Burgers' derivatives (N16) */
  double *rl;           /* [nl]          R_L (N2) */
  double *rt;           /* [nt]          R_T^e (N3) */
  double *lam;          /* [nt]          the element's trace */
  double *zk;           /* [nl][nt + 1]  J_LL^-1 [J_LT | R_L] */
  int *piv;             /* [nl] */
} newton_element;

static void newton_element_destroy(newton_element *w) {
  reference_element_destroy(&w->el);
  free(w->a);
  free(w->piv);
  memset(w, 0, sizeof *w);
}

static int newton_element_create(const hdg_sizes *sz, newton_element *w) {
  memset(w, 0, sizeof *w);
  size_t d = (size_t)sz->dim, np = (size_t)sz->np, nt = (size_t)sz->nt, nl = (d + 1) * np;
  size_t sizes[] = {np * np, d * np * np, np * np, nl * nl, nl * nt, nt * nl, nl, nt, nt,
                    nl * (nt + 1), nt * nt, np * np, np * nt, nt * np, nt * nt};
  double **slots[] = {&w->a,   &w->n,  &w->m,   &w->jll, &w->jlt,    &w->jtl,    &w->rl,   &w->rt,
                      &w->lam, &w->zk, &w->jtt, &w->bj.uu, &w->bj.ul, &w->bj.tu, &w->bj.tl};
  size_t total = 0;
  for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) total += sizes[i];
  double *block;
  HDGCL_TRY(hdgcl_calloc(total, sizeof(double), "Newton element blocks", &block));
  for (size_t i = 0, off = 0; i < sizeof sizes / sizeof *sizes; off += sizes[i], i++)
    *slots[i] = block + off;
  int status = hdgcl_calloc(nl, sizeof(int), "pivots", &w->piv);
  if (status == HDGCL_SUCCESS) status = reference_element_create(sz, &w->el);
  if (status) newton_element_destroy(w);
  return status;
}

/* kappa(u) and kappa'(u) (N1) at the point x of element e: the problem's
 * kappa(u) if it is nonlinear (a user's: the expression and its symbolic
 * derivative), else the element's constant kappa (a linear problem run
 * through Newton's method). */
static double element_kappa(const hdg_discretisation *disc, int32_t e, const double *x, double u,
                            double *dk) {
  if (disc->user && disc->user->kappa_u) return hdg_user_kappa_u(disc->user, x[0], x[1], x[2], u, dk);
  if (disc->problem->nonlinear) return problem_kappa_u(disc->params, u, dk);
  *dk = 0.0;
  return disc->kappa[e];
}

/* A(u), N_k and M on element e at the state (u, q), kappa(u_h) > 0 checked
 * at every quadrature point. */
static int state_matrices(const hdg_discretisation *disc, int32_t e, const double *u,
                          const double *q, newton_element *w) {
  const hdg_reference *ref = &disc->ref;
  const hdgcl_quadrature *qv = &ref->qload;
  int d = ref->sz.dim, np = ref->sz.np;
  memset(w->a, 0, sizeof(double) * np * np);
  memset(w->n, 0, sizeof(double) * d * np * np);
  memset(w->m, 0, sizeof(double) * np * np);
  for (int k = 0; k < qv->n; k++) {
    double x[3], jac[9];
    double detj = hdg_map(disc->mesh, e, qv->points + (size_t)k * d, x, jac);
    double wq = qv->weights[k] * detj;
    const double *phi = ref->phi_load + (size_t)k * np;
    double uh = 0.0, qh[3] = {0, 0, 0};
    for (int j = 0; j < np; j++) uh += u[j] * phi[j];
    for (int c = 0; c < d; c++)
      for (int j = 0; j < np; j++) qh[c] += q[c * np + j] * phi[j];
    double dk, kappa = element_kappa(disc, e, x, uh, &dk);
    if (!(kappa > 0) || !isfinite(kappa))
      return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                         "%s: kappa(u) = %g <= 0 at a quadrature point of element %d "
                         "(u_h = %g there) during Newton's iteration; kappa must stay > 0",
                         disc->problem->info.name, kappa, (int)e, uh);
    double ak = wq / kappa, nk = -wq * dk / (kappa * kappa);
    for (int i = 0; i < np; i++)
      for (int j = 0; j < np; j++) {
        double pp = phi[i] * phi[j];
        w->a[i * np + j] += ak * pp;
        w->m[i * np + j] += wq * pp;
        for (int c = 0; c < d; c++) w->n[((size_t)c * np + i) * np + j] += nk * qh[c] * pp;
      }
  }
  return HDGCL_SUCCESS;
}

/* The residual (N2)-(N3) of element e at the state in sol, and with
 * `jacobian` its blocks J_LL, J_LT, J_TL (N5) (J_TT = H is el.h). */
static int element_newton(const hdg_discretisation *disc, const hdg_solution *sol, int32_t e,
                          bool jacobian, newton_element *w) {
  const hdg_sizes *sz = &disc->ref.sz;
  int d = sz->dim, np = sz->np, nf = sz->nf, nt = sz->nt, nl = (d + 1) * np;
  const double *u = sol->u + (size_t)e * np, *q = sol->q + (size_t)e * d * np;
  for (int f = 0; f < sz->nfaces; f++) {
    int32_t face = disc->mesh->elem_faces[(size_t)e * sz->nfaces + f];
    memcpy(w->lam + f * nf, sol->trace + (size_t)face * nf, sizeof(double) * nf);
  }
  const reference_element *el = &w->el;
  HDGCL_TRY(reference_element_matrices(disc, e, &w->el));
  HDGCL_TRY(state_matrices(disc, e, u, q, w));
  /* B_k[r][c] = el->b[(k np + r) np + c], C_k[r][m] = el->c[(k np + r) nt + m]. */
  for (int k = 0; k < d; k++) /* (N2) q rows: A(u) q_k + B_k u + C_k lambda */
    for (int i = 0; i < np; i++) {
      double r = 0.0;
      for (int j = 0; j < np; j++)
        r += w->a[i * np + j] * q[k * np + j] + el->b[((size_t)k * np + i) * np + j] * u[j];
      for (int m = 0; m < nt; m++) r += el->c[((size_t)k * np + i) * nt + m] * w->lam[m];
      w->rl[k * np + i] = r;
    }
  for (int i = 0; i < np; i++) { /* (N2) u rows: -sum_k B_k^T q_k + D u - E lambda - F */
    double r = -el->f[i];
    for (int k = 0; k < d; k++)
      for (int j = 0; j < np; j++) r -= el->b[((size_t)k * np + j) * np + i] * q[k * np + j];
    for (int j = 0; j < np; j++) r += el->d[i * np + j] * u[j];
    for (int m = 0; m < nt; m++) r -= el->e[i * nt + m] * w->lam[m];
    w->rl[d * np + i] = r;
  }
  for (int m = 0; m < nt; m++) { /* (N3): -sum_k C_k^T q_k - E_t^T u + H lambda */
    double r = 0.0;
    for (int k = 0; k < d; k++)
      for (int j = 0; j < np; j++) r -= el->c[((size_t)k * np + j) * nt + m] * q[k * np + j];
    for (int j = 0; j < np; j++) r -= el->et[j * nt + m] * u[j];
    for (int n = 0; n < nt; n++) r += el->h[m * nt + n] * w->lam[n];
    w->rt[m] = r;
  }
  const bool burgers = PROBLEM_IS_BURGERS(disc->params.id);
  if (burgers) /* (N15): the convective terms in R_u and R_T^e, with their derivatives (N16) */
    HDGCL_TRY(reference_burgers_terms(disc, e, u, w->lam, w->rl + d * np, w->rt,
                                      jacobian ? &w->bj : NULL));
  if (!jacobian) return HDGCL_SUCCESS;
  memset(w->jll, 0, sizeof(double) * nl * nl);
  for (int k = 0; k < d; k++)
    for (int i = 0; i < np; i++) {
      double *row = w->jll + (size_t)(k * np + i) * nl;
      for (int j = 0; j < np; j++) {
        row[k * np + j] = w->a[i * np + j];
        row[d * np + j] =
            el->b[((size_t)k * np + i) * np + j] + w->n[((size_t)k * np + i) * np + j];
        w->jll[(size_t)(d * np + j) * nl + k * np + i] = -el->b[((size_t)k * np + i) * np + j];
      }
      for (int m = 0; m < nt; m++) {
        w->jlt[(size_t)(k * np + i) * nt + m] = el->c[((size_t)k * np + i) * nt + m];
        w->jtl[(size_t)m * nl + k * np + i] = -el->c[((size_t)k * np + i) * nt + m];
      }
    }
  for (int i = 0; i < np; i++) {
    for (int j = 0; j < np; j++) w->jll[(size_t)(d * np + i) * nl + d * np + j] = el->d[i * np + j];
    for (int m = 0; m < nt; m++) {
      w->jlt[(size_t)(d * np + i) * nt + m] = -el->e[i * nt + m];
      w->jtl[(size_t)m * nl + d * np + i] = -el->et[i * nt + m];
    }
  }
  memcpy(w->jtt, el->h, sizeof(double) * nt * nt);
  if (burgers) /* (N16): J_uu, J_ulambda, J_Tu, J_TT gain the convective derivatives */
    for (int i = 0; i < np; i++) {
      for (int j = 0; j < np; j++) w->jll[(size_t)(d * np + i) * nl + d * np + j] += w->bj.uu[i * np + j];
      for (int m = 0; m < nt; m++) {
        w->jlt[(size_t)(d * np + i) * nt + m] += w->bj.ul[i * nt + m];
        w->jtl[(size_t)m * nl + d * np + i] += w->bj.tu[m * np + i];
      }
    }
  if (burgers)
    for (int m = 0; m < nt * nt; m++) w->jtt[m] += w->bj.tl[m];
  return HDGCL_SUCCESS;
}

int reference_newton_create(const hdg_discretisation *disc, hdg_solution *sol,
                            reference_newton **out) {
  *out = NULL;
  const hdg_sizes *sz = &disc->ref.sz;
  const hdgcl_mesh *mesh = disc->mesh;
  if (sz->ncomp > 1 || disc->kappa_tensor || disc->robin || (disc->user && disc->user->point_coefficients))
    return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                       "problem %s: Newton's method handles scalar problems with Dirichlet and "
                       "Neumann faces and coefficients per element only (docs/nonlinear.md)",
                       disc->problem->info.name);
  size_t ne = (size_t)mesh->num_elements, np = (size_t)sz->np, d = (size_t)sz->dim;
  size_t nl = (d + 1) * np, nt = (size_t)sz->nt, nf = (size_t)sz->nf;
  size_t nbnd = (size_t)(mesh->num_faces - mesh->num_interior_faces);
  reference_newton *rn;
  HDGCL_TRY(hdgcl_calloc(1, sizeof *rn, "Newton state", &rn));
  rn->disc = disc;
  rn->sol = sol;
  int status;
  HDGCL_TRY_GOTO(status, hdgcl_calloc(ne * np + 1, sizeof(double), "Newton base u", &rn->u0), fail);
  HDGCL_TRY_GOTO(status, hdgcl_calloc(ne * d * np + 1, sizeof(double), "Newton base q", &rn->q0), fail);
  HDGCL_TRY_GOTO(status, hdgcl_calloc((size_t)mesh->num_faces * nf + 1, sizeof(double),
                                      "Newton base trace", &rn->trace0), fail);
  HDGCL_TRY_GOTO(status, hdgcl_calloc(ne * nl * (nt + 1) + 1, sizeof(double), "Newton Z", &rn->z), fail);
  HDGCL_TRY_GOTO(status, hdgcl_calloc((size_t)disc->num.num_unknown_faces * nf + 1, sizeof(double),
                                      "trace residual", &rn->rt), fail);
  HDGCL_TRY_GOTO(status, hdgcl_calloc(nbnd * nf + 1, sizeof(double), "boundary data", &rn->bvals), fail);
  HDGCL_TRY_GOTO(status, reference_boundary_data(disc, rn->bvals), fail);
  *out = rn;
  return HDGCL_SUCCESS;
fail:
  reference_newton_destroy(&rn);
  return status;
}

void reference_newton_destroy(reference_newton **rn) {
  if (!*rn) return;
  free((*rn)->u0);
  free((*rn)->q0);
  free((*rn)->trace0);
  free((*rn)->z);
  free((*rn)->rt);
  free((*rn)->bvals);
  free(*rn);
  *rn = NULL;
}

int reference_newton_initial_state(reference_newton *rn, bool from_solution) {
  const hdg_discretisation *disc = rn->disc;
  const hdgcl_mesh *mesh = disc->mesh;
  const hdg_sizes *sz = &disc->ref.sz;
  hdg_solution *sol = rn->sol;
  size_t ne = (size_t)mesh->num_elements, nf = (size_t)sz->nf;
  if (!from_solution) {
    memset(sol->u, 0, sizeof(double) * ne * sz->np);
    memset(sol->q, 0, sizeof(double) * ne * sz->dim * sz->np);
    memset(sol->trace, 0, sizeof(double) * mesh->num_faces * nf);
  }
  for (int32_t f = mesh->num_interior_faces; f < mesh->num_faces; f++) /* (N8) */
    if (disc->num.face_unknown[f] < 0)
      memcpy(sol->trace + (size_t)f * nf, rn->bvals + (size_t)(f - mesh->num_interior_faces) * nf,
             sizeof(double) * nf);
  return HDGCL_SUCCESS;
}

/* Adds the Neumann loads to the global trace residual (N4) and, when rhs is
 * given, to the right-hand side (N6); returns ||R_T||^2 over the unknowns. */
static double finish_trace_residual(const reference_newton *rn, double *rhs) {
  const hdg_discretisation *disc = rn->disc;
  const hdgcl_mesh *mesh = disc->mesh;
  int nf = disc->ref.sz.nf;
  for (int32_t f = mesh->num_interior_faces; f < mesh->num_faces; f++) {
    int32_t row = disc->num.face_unknown[f];
    if (row < 0) continue;
    const double *load = rn->bvals + (size_t)(f - mesh->num_interior_faces) * nf;
    for (int m = 0; m < nf; m++) {
      rn->rt[(size_t)row * nf + m] -= load[m];
      if (rhs) rhs[(size_t)row * nf + m] += load[m];
    }
  }
  double s = 0.0;
  for (size_t i = 0; i < (size_t)disc->num.num_unknown_faces * nf; i++) s += rn->rt[i] * rn->rt[i];
  return s;
}

/* Adds element e's R_T^e into the global trace residual; returns ||R_L||^2. */
static double gather_residual(const reference_newton *rn, int32_t e, const newton_element *w) {
  const hdg_sizes *sz = &rn->disc->ref.sz;
  int nf = sz->nf, nl = (sz->dim + 1) * sz->np;
  for (int a = 0; a < sz->nfaces; a++) {
    int32_t row = rn->disc->num.face_unknown[rn->disc->mesh->elem_faces[(size_t)e * sz->nfaces + a]];
    if (row < 0) continue;
    for (int m = 0; m < nf; m++) rn->rt[(size_t)row * nf + m] += w->rt[a * nf + m];
  }
  double s = 0.0;
  for (int i = 0; i < nl; i++) s += w->rl[i] * w->rl[i];
  return s;
}

int reference_newton_linearise(reference_newton *rn, double *norm) {
  const hdg_discretisation *disc = rn->disc;
  const hdgcl_mesh *mesh = disc->mesh;
  const hdg_sizes *sz = &disc->ref.sz;
  const hdg_numbering *num = &disc->num;
  hdg_solution *sol = rn->sol;
  int d = sz->dim, np = sz->np, nf = sz->nf, nt = sz->nt, nfe = sz->nfaces, nslots = sz->nslots;
  int nl = (d + 1) * np;
  size_t nrows = (size_t)num->num_unknown_faces, ne = (size_t)mesh->num_elements;
  double t0 = hdgcl_wtime();
  memcpy(rn->u0, sol->u, sizeof(double) * ne * np); /* the line search's base */
  memcpy(rn->q0, sol->q, sizeof(double) * ne * d * np);
  memcpy(rn->trace0, sol->trace, sizeof(double) * mesh->num_faces * nf);
  memset(sol->matrix, 0, sizeof(double) * nrows * nslots * nf * nf);
  memset(sol->rhs, 0, sizeof(double) * nrows * nf);
  memset(rn->rt, 0, sizeof(double) * nrows * nf);
  newton_element w;
  HDGCL_TRY(newton_element_create(sz, &w));
  double *ke = w.el.k, *ge = w.el.f; /* scratch: K_e [nt][nt], g_e [nt] (after use of F) */
  double rl2 = 0.0;
  int status = HDGCL_SUCCESS;
  for (int32_t e = 0; e < mesh->num_elements && status == HDGCL_SUCCESS; e++) {
    HDGCL_TRY_GOTO(status, element_newton(disc, sol, e, true, &w), done);
    rl2 += gather_residual(rn, e, &w);
    /* (N6): Z = J_LL^-1 [J_LT | R_L], K_e = J_TT - J_TL Z_T, g_e = -(R_T^e - J_TL Z_R). */
    int bad = dense_lu(nl, w.jll, w.piv);
    if (bad) {
      status = hdgcl_error(HDGCL_ERROR_ARGUMENT,
                           "element %d: Newton's local Jacobian J_LL singular (column %d)", (int)e,
                           bad - 1);
      goto done;
    }
    double *z = rn->z + (size_t)e * nl * (nt + 1);
    for (int i = 0; i < nl; i++) {
      memcpy(z + (size_t)i * (nt + 1), w.jlt + (size_t)i * nt, sizeof(double) * nt);
      z[(size_t)i * (nt + 1) + nt] = w.rl[i];
    }
    dense_lu_solve(nl, w.jll, w.piv, nt + 1, z);
    for (int m = 0; m < nt; m++) {
      for (int n = 0; n <= nt; n++) {
        double s = 0.0;
        for (int l = 0; l < nl; l++) s += w.jtl[(size_t)m * nl + l] * z[(size_t)l * (nt + 1) + n];
        if (n < nt) ke[m * nt + n] = w.jtt[m * nt + n] - s;
        else ge[m] = -(w.rt[m] - s);
      }
    }
    const int32_t *faces = mesh->elem_faces + (size_t)e * nfe;
    for (int a = 0; a < nfe; a++) { /* the scatter of reference_assemble.c */
      int32_t row = num->face_unknown[faces[a]];
      if (row < 0) continue;
      for (int m = 0; m < nf; m++) sol->rhs[(size_t)row * nf + m] += ge[a * nf + m];
      for (int b = 0; b < nfe; b++) {
        int32_t col = num->face_unknown[faces[b]];
        if (col < 0) continue; /* Dirichlet: the update is 0 there */
        int slot = reference_block_slot(num, nslots, row, col);
        if (slot < 0) {
          status = hdgcl_error(HDGCL_ERROR_INTERNAL, "face %d has no block column for face %d",
                               (int)faces[a], (int)faces[b]);
          goto done;
        }
        double *blk = sol->matrix + ((size_t)row * nslots + slot) * nf * nf;
        for (int m = 0; m < nf; m++)
          for (int n = 0; n < nf; n++) blk[m * nf + n] += ke[(a * nf + m) * nt + b * nf + n];
      }
    }
  }
  *norm = sqrt(rl2 + finish_trace_residual(rn, sol->rhs));
done:
  newton_element_destroy(&w);
  sol->stage_seconds[HDGCL_STAGE_ASSEMBLE] += hdgcl_wtime() - t0;
  return status;
}

/* ||R|| (N4) at the state in rn->sol, without the Jacobian (Z is kept). */
static int residual_norm(reference_newton *rn, newton_element *w, double *norm) {
  const hdg_discretisation *disc = rn->disc;
  memset(rn->rt, 0, sizeof(double) * disc->num.num_unknown_faces * disc->ref.sz.nf);
  double rl2 = 0.0;
  for (int32_t e = 0; e < disc->mesh->num_elements; e++) {
    HDGCL_TRY(element_newton(disc, rn->sol, e, false, w));
    rl2 += gather_residual(rn, e, w);
  }
  *norm = sqrt(rl2 + finish_trace_residual(rn, NULL));
  return HDGCL_SUCCESS;
}

int reference_newton_update(reference_newton *rn, const double *dtrace, double alpha,
                            double *norm) {
  const hdg_discretisation *disc = rn->disc;
  const hdgcl_mesh *mesh = disc->mesh;
  const hdg_sizes *sz = &disc->ref.sz;
  hdg_solution *sol = rn->sol;
  int d = sz->dim, np = sz->np, nf = sz->nf, nt = sz->nt, nfe = sz->nfaces, nl = (d + 1) * np;
  double t0 = hdgcl_wtime();
  for (int32_t f = 0; f < mesh->num_faces; f++) {
    int32_t row = disc->num.face_unknown[f];
    for (int m = 0; m < nf; m++)
      sol->trace[(size_t)f * nf + m] =
          rn->trace0[(size_t)f * nf + m] + (row < 0 ? 0.0 : alpha * dtrace[(size_t)row * nf + m]);
  }
  newton_element w;
  HDGCL_TRY(newton_element_create(sz, &w));
  for (int32_t e = 0; e < mesh->num_elements; e++) {
    /* (N7): dL = J_LL^-1 (-R_L - J_LT dlambda) = -Z_R - Z_T dlambda. */
    for (int a = 0; a < nfe; a++) {
      int32_t row = disc->num.face_unknown[mesh->elem_faces[(size_t)e * nfe + a]];
      for (int m = 0; m < nf; m++) w.lam[a * nf + m] = row < 0 ? 0.0 : dtrace[(size_t)row * nf + m];
    }
    const double *z = rn->z + (size_t)e * nl * (nt + 1);
    for (int i = 0; i < nl; i++) {
      double dl = -z[(size_t)i * (nt + 1) + nt];
      for (int m = 0; m < nt; m++) dl -= z[(size_t)i * (nt + 1) + m] * w.lam[m];
      size_t at = i < d * np ? (size_t)e * d * np + i : (size_t)e * np + (i - d * np);
      if (i < d * np) sol->q[at] = rn->q0[at] + alpha * dl;
      else sol->u[at] = rn->u0[at] + alpha * dl;
    }
  }
  int status = residual_norm(rn, &w, norm);
  newton_element_destroy(&w);
  sol->stage_seconds[HDGCL_STAGE_RECOVER] += hdgcl_wtime() - t0;
  return status;
}

int reference_newton_residual(reference_newton *rn, double *norm) {
  newton_element w;
  HDGCL_TRY(newton_element_create(&rn->disc->ref.sz, &w));
  int status = residual_norm(rn, &w, norm);
  newton_element_destroy(&w);
  return status;
}

/* u*'s data (N9): g = the L2 projection of kappa(u_h)^-1 q_h onto P_p, so
 * that (grad u*, grad w) = -(g, grad w). */
static int element_ustar_data(const hdg_discretisation *disc, int32_t e, const double *u,
                              const double *q, newton_element *w, double *g) {
  const hdg_reference *ref = &disc->ref;
  const hdgcl_quadrature *qv = &ref->qload;
  int d = ref->sz.dim, np = ref->sz.np;
  HDGCL_TRY(state_matrices(disc, e, u, q, w)); /* w->m: the mass matrix */
  memset(g, 0, sizeof(double) * d * np);
  for (int k = 0; k < qv->n; k++) {
    double x[3], jac[9];
    double wq = qv->weights[k] * hdg_map(disc->mesh, e, qv->points + (size_t)k * d, x, jac);
    const double *phi = ref->phi_load + (size_t)k * np;
    double uh = 0.0, dk;
    for (int j = 0; j < np; j++) uh += u[j] * phi[j];
    double kappa = element_kappa(disc, e, x, uh, &dk);
    for (int c = 0; c < d; c++) {
      double qh = 0.0;
      for (int j = 0; j < np; j++) qh += q[c * np + j] * phi[j];
      for (int i = 0; i < np; i++) g[c * np + i] += wq * qh / kappa * phi[i];
    }
  }
  if (dense_cholesky(np, w->m))
    return hdgcl_error(HDGCL_ERROR_INTERNAL, "element %d: mass matrix not positive definite", (int)e);
  for (int c = 0; c < d; c++) dense_cholesky_solve(np, w->m, 1, g + (size_t)c * np);
  return HDGCL_SUCCESS;
}

int reference_newton_recover(reference_newton *rn) {
  const hdg_discretisation *disc = rn->disc;
  const hdg_sizes *sz = &disc->ref.sz;
  const hdgcl_quadrature *qe = &disc->ref.qerr;
  hdg_solution *sol = rn->sol;
  int d = sz->dim, np = sz->np, np1 = sz->np1;
  double t0 = hdgcl_wtime();
  newton_element w;
  reference_postprocess_work pw = {0};
  double *g = NULL;
  HDGCL_TRY(newton_element_create(sz, &w));
  int status;
  HDGCL_TRY_GOTO(status, hdgcl_calloc((size_t)d * np, sizeof(double), "kappa^-1 q", &g), done);
  HDGCL_TRY_GOTO(status, reference_postprocess_work_create(sz, &pw), done);
  double err[6] = {0, 0, 0, 0, 0, 0};
  ustar_check chk = {0};
  for (int32_t e = 0; e < disc->mesh->num_elements; e++) {
    const double *u = sol->u + (size_t)e * np, *q = sol->q + (size_t)e * d * np;
    double *ustar = sol->ustar + (size_t)e * np1;
    HDGCL_TRY_GOTO(status, element_ustar_data(disc, e, u, q, &w, g), done);
    HDGCL_TRY_GOTO(status, reference_postprocess(disc, e, u, g, -1.0, ustar, &pw), done);
    double check[5] = {0, 0, 0, pw.rmax, pw.rscale};
    pw.rmax = pw.rscale = 0.0;
    for (int k = 0; k < qe->n; k++) { /* errors against u and q = -kappa(u) grad u */
      double x[3], jac[9], gex[3], dk;
      double wq = qe->weights[k] * hdg_map(disc->mesh, e, qe->points + (size_t)k * d, x, jac);
      const double *phi = disc->ref.phi_err + (size_t)k * np;
      const double *phi1 = disc->ref.phi1_err + (size_t)k * np1;
      double uex = problem_u(disc->params, x[0], x[1], x[2], gex);
      double kex = element_kappa(disc, e, x, uex, &dk);
      double uh = 0.0, us = 0.0, eq = 0.0, qq = 0.0;
      for (int i = 0; i < np; i++) uh += u[i] * phi[i];
      for (int i = 0; i < np1; i++) us += ustar[i] * phi1[i];
      for (int c = 0; c < d; c++) {
        double qh = 0.0;
        for (int i = 0; i < np; i++) qh += q[c * np + i] * phi[i];
        eq += (qh + kex * gex[c]) * (qh + kex * gex[c]);
        qq += kex * kex * gex[c] * gex[c];
      }
      err[0] += wq * (uh - uex) * (uh - uex);
      err[1] += wq * eq;
      err[2] += wq * (us - uex) * (us - uex);
      err[3] = fmax(err[3], fabs(uh - uex));
      err[4] += wq * uex * uex;
      err[5] += wq * qq;
      check[0] += wq * (us - uh);
      check[1] += wq * uh * uh;
      check[2] += wq;
    }
    ustar_check_element(&chk, e, 1, check);
  }
  reference_store_errors(err, sol);
  status = ustar_check_finish(&chk, true, &sol->ustar_check);
done:
  free(g);
  reference_postprocess_work_destroy(&pw);
  newton_element_destroy(&w);
  sol->stage_seconds[HDGCL_STAGE_RECOVER] += hdgcl_wtime() - t0;
  return status;
}
