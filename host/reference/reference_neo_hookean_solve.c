/* Reference path, Newton's method for Neo-Hookean hyperelasticity
 * (reference_neo_hookean_solve.h, docs/nonlinear.md section 11). */
#include "reference/reference_neo_hookean_solve.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/context.h"
#include "core/dense.h"
#include "core/error.h"
#include "fem/face_map.h"
#include "fem/neo_hookean.h"
#include "reference/reference.h"
#include "reference/reference_neo_hookean.h"
#include "solvers/newton_rules.h"

/* Second derivatives hess[k][j][l] = d_j d_l u_E,k of the `elasticity`
 * problem's u_E (cl/fem/problems.h problem_elasticity_u: a = 1/100, k = 2 pi). */
static void elasticity_hessian(int d, const double *x, double *hess) {
  const double a = 0.01, k = 2 * HDGCL_PI, k2 = k * k;
  double sx = sin(k * x[0]), cx = cos(k * x[0]), sy = sin(k * x[1]), cy = cos(k * x[1]);
  if (d == 2) {
    double h[8] = {-k2 * x[1] * cx, k * cy - k * sx, k * cy - k * sx, -k2 * x[0] * sy,  /* u_0 */
                   -k2 * x[1] * sx, k * cx - k * sy, k * cx - k * sy, -k2 * x[0] * cy}; /* u_1 */
    for (int i = 0; i < 8; i++) hess[i] = a * h[i];
    return;
  }
  double sz = sin(k * x[2]), cz = cos(k * x[2]);
  double h[27] = {0, k * cy, 0, k * cy, -k2 * x[0] * sy, -k * sz, 0, -k * sz, -k2 * x[1] * cz,
                  -k2 * x[2] * cx, 0, -k * sx, 0, 0, k * cz, -k * sx, k * cz, -k2 * x[1] * sz,
                  -k2 * x[2] * sx, -k * sy, k * cx, -k * sy, -k2 * x[0] * cy, 0, k * cx, 0, 0};
  for (int i = 0; i < 27; i++) hess[i] = a * h[i];
}

int neo_hookean_exact(int dim, double mu, double lambda, double alpha, const double *x, double *u,
                      double *grad, double *f) {
  problem_params pp;
  memset(&pp, 0, sizeof pp);
  pp.id = PROBLEM_ELASTICITY;
  pp.dim = dim;
  double p, hess[27], pk[9], a[81], jdet, xx[3] = {x[0], x[1], dim == 3 ? x[2] : 0.0};
  problem_elasticity_u(pp, xx, u, grad, &p);
  elasticity_hessian(dim, xx, hess);
  for (int i = 0; i < dim; i++) u[i] *= alpha;
  for (int i = 0; i < dim * dim; i++) grad[i] *= alpha;
  for (int i = 0; i < dim * dim * dim; i++) hess[i] *= alpha;
  /* (N24) f_i = -d_j P_ij(I + grad u) = -A_ijkl d_j d_l u_k */
  if (neo_hookean_stress(dim, mu, lambda, grad, pk, a, &jdet)) {
    for (int i = 0; i < dim; i++) f[i] = NAN;
    return -1;
  }
  for (int i = 0; i < dim; i++) {
    double s = 0.0;
    for (int j = 0; j < dim; j++)
      for (int k = 0; k < dim; k++)
        for (int l = 0; l < dim; l++)
          s += a[((i * dim + j) * dim + k) * dim + l] * hess[(k * dim + j) * dim + l];
    f[i] = -s;
  }
  return 0;
}

typedef struct nh_work {
  const hdg_discretisation *disc;
  hdg_solution *sol;
  const neo_hookean_settings *ns;
  int n, nl, ntb, nfb;
  double *x, *r, *jac, *jll, *z, *ke, *ge, *rt, *dx, *dl;
  double *tload;          /* [boundary face][nfb]: <t, psi_m>_F on traction faces (N26) */
  double *q0, *u0, *t0;   /* the line search's base state */
  double *dq, *du;        /* the update of H and u (N7) */
  int *piv;
} nh_work;

/* The traction t at x on a boundary face of tag `tag` with unit outer normal
 * nv at load factor alpha: the exact P(I + grad u) n (manufactured), alpha
 * t0 on tag 2 and 0 elsewhere (cube); -1 where the exact J <= 0. */
static int traction_at(const nh_work *w, double alpha, int32_t tag, const double *x,
                       const double *nv, double *t) {
  int d = w->disc->ref.sz.dim;
  for (int c = 0; c < d; c++) t[c] = 0.0;
  if (w->ns->load == NEO_HOOKEAN_CUBE) {
    if (tag == 2) t[d - 1] = -alpha;
    return 0;
  }
  double u[3], g[9], f[3], p[9], jdet;
  if (neo_hookean_exact(d, w->ns->mu, w->ns->lambda, alpha, x, u, g, f) ||
      neo_hookean_stress(d, w->ns->mu, w->ns->lambda, g, p, NULL, &jdet))
    return -1;
  for (int c = 0; c < d; c++)
    for (int j = 0; j < d; j++) t[c] += p[c * d + j] * nv[j];
  return 0;
}

/* (N26): the load <t, psi_m>_F of every traction face at load factor alpha into w->tload. */
static int traction_load(nh_work *w, double alpha) {
  const hdg_discretisation *disc = w->disc;
  const hdgcl_mesh *mesh = disc->mesh;
  const hdg_sizes *sz = &disc->ref.sz;
  const hdgcl_quadrature *qf = &disc->ref.qface;
  int d = sz->dim, nf = sz->nf, nfb = w->nfb;
  for (int32_t f = mesh->num_interior_faces; f < mesh->num_faces; f++) {
    double *out = w->tload + (size_t)(f - mesh->num_interior_faces) * nfb;
    memset(out, 0, sizeof(double) * nfb);
    if (disc->num.face_bc[f] != FACE_NEUMANN) continue;
    int32_t e = mesh->face_elems[2 * f];
    int lf = mesh->face_local[2 * f], o = mesh->face_orient[2 * f];
    for (int q = 0; q < qf->n; q++) {
      double X[3], x[3], nds[3], nv[3], t[3];
      HDGCL_TRY(hdgcl_face_map_points(sz->type, lf, o, 1, qf->points + (size_t)q * (d - 1), X));
      double ds = hdg_face_normal(mesh, e, lf, X, x, nds);
      for (int c = 0; c < d; c++) nv[c] = nds[c] / ds;
      if (traction_at(w, alpha, mesh->face_tags[f], x, nv, t))
        return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                           "neo-hookean: the exact solution at load scale %g has J <= 0 at (%.3g, "
                           "%.3g) on face %d; use a smaller --load-scale",
                           alpha, x[0], x[1], (int)f);
      const double *psi = disc->ref.psi_face + (size_t)q * nf;
      for (int c = 0; c < d; c++)
        for (int m = 0; m < nf; m++) out[c * nf + m] += ds * qf->weights[q] * psi[m] * t[c];
    }
  }
  return HDGCL_SUCCESS;
}

/* Bit a of the result: local face a of element e is a traction face. */
static unsigned traction_faces(const hdg_discretisation *disc, int32_t e) {
  unsigned bits = 0;
  int nfe = disc->ref.sz.nfaces;
  for (int a = 0; a < nfe; a++)
    if (disc->num.face_bc[disc->mesh->elem_faces[(size_t)e * nfe + a]] == FACE_NEUMANN)
      bits |= 1u << a;
  return bits;
}

/* At the state in sol and load factor alpha: every element's residual (N22)
 * with the load, the condensed trace system (N6) into sol->matrix and
 * sol->rhs, Z per element, and *norm = ||R|| (N4). */
static int linearise(nh_work *w, double alpha, double *norm) {
  const hdg_discretisation *disc = w->disc;
  const hdgcl_mesh *mesh = disc->mesh;
  const hdg_sizes *sz = &disc->ref.sz;
  const hdg_numbering *num = &disc->num;
  hdg_solution *sol = w->sol;
  int d = sz->dim, np = sz->np, nfe = sz->nfaces, nslots = sz->nslots;
  int n = w->n, nl = w->nl, ntb = w->ntb, nfb = w->nfb, ou = d * d * np;
  size_t nrows = (size_t)num->num_unknown_faces;
  memset(sol->matrix, 0, sizeof(double) * nrows * nslots * nfb * nfb);
  memset(sol->rhs, 0, sizeof(double) * nrows * nfb);
  memset(w->rt, 0, sizeof(double) * nrows * nfb);
  double rl2 = 0.0;
  for (int32_t e = 0; e < mesh->num_elements; e++) {
    const int32_t *faces = mesh->elem_faces + (size_t)e * nfe;
    memcpy(w->x, sol->q + (size_t)e * ou, sizeof(double) * ou);
    memcpy(w->x + ou, sol->u + (size_t)e * d * np, sizeof(double) * d * np);
    for (int a = 0; a < nfe; a++)
      memcpy(w->x + nl + a * nfb, sol->trace + (size_t)faces[a] * nfb, sizeof(double) * nfb);
    unsigned tbits = traction_faces(disc, e);
    HDGCL_TRY(
        reference_neo_hookean_element(disc, e, w->ns->mu, w->ns->lambda, tbits, w->x, w->r, w->jac));
    for (int a = 0; a < nfe; a++) /* (N26): + <t, m>_F on traction faces */
      if ((tbits >> a) & 1u) {
        const double *tl = w->tload + (size_t)(faces[a] - mesh->num_interior_faces) * nfb;
        for (int m = 0; m < nfb; m++) w->r[nl + a * nfb + m] += tl[m];
      }
    const hdgcl_quadrature *qv = &disc->ref.qload; /* the load -(f, w)_K of (N22) */
    for (int k = 0; k < qv->n && w->ns->load == NEO_HOOKEAN_MANUFACTURED; k++) {
      double xq[3], jm[9], u[3], g[9], f[3];
      double wq = qv->weights[k] * hdg_map(mesh, e, qv->points + (size_t)k * d, xq, jm);
      if (neo_hookean_exact(d, w->ns->mu, w->ns->lambda, alpha, xq, u, g, f))
        return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                           "neo-hookean: the exact solution at load scale %g has J <= 0 at (%.3g, "
                           "%.3g) in element %d; use a smaller --load-scale",
                           alpha, xq[0], xq[1], (int)e);
      const double *phi = disc->ref.phi_load + (size_t)k * np;
      for (int c = 0; c < d; c++)
        for (int i = 0; i < np; i++) w->r[ou + c * np + i] -= wq * f[c] * phi[i];
    }
    for (int i = 0; i < nl; i++) rl2 += w->r[i] * w->r[i];
    for (int a = 0; a < nfe; a++) {
      int32_t row = num->face_unknown[faces[a]];
      if (row >= 0)
        for (int m = 0; m < nfb; m++) w->rt[(size_t)row * nfb + m] += w->r[nl + a * nfb + m];
    }
    /* (N6): Z = J_LL^-1 [J_LT | R_L], K_e = J_TT - J_TL Z_T, g_e = -(R_T^e - J_TL Z_R) */
    for (int i = 0; i < nl; i++) memcpy(w->jll + (size_t)i * nl, w->jac + (size_t)i * n, sizeof(double) * nl);
    int bad = dense_lu(nl, w->jll, w->piv);
    if (bad)
      return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                         "element %d: the Neo-Hookean local Jacobian J_LL is singular (column %d)",
                         (int)e, bad - 1);
    double *z = w->z + (size_t)e * nl * (ntb + 1);
    for (int i = 0; i < nl; i++) {
      memcpy(z + (size_t)i * (ntb + 1), w->jac + (size_t)i * n + nl, sizeof(double) * ntb);
      z[(size_t)i * (ntb + 1) + ntb] = w->r[i];
    }
    dense_lu_solve(nl, w->jll, w->piv, ntb + 1, z);
    for (int m = 0; m < ntb; m++) {
      const double *jtl = w->jac + (size_t)(nl + m) * n;
      for (int c = 0; c <= ntb; c++) {
        double s = 0.0;
        for (int l = 0; l < nl; l++) s += jtl[l] * z[(size_t)l * (ntb + 1) + c];
        if (c < ntb) w->ke[m * ntb + c] = jtl[nl + c] - s;
        else w->ge[m] = -(w->r[nl + m] - s);
      }
    }
    for (int a = 0; a < nfe; a++) { /* the scatter of reference_assemble.c, blocks of nfb */
      int32_t row = num->face_unknown[faces[a]];
      if (row < 0) continue;
      for (int m = 0; m < nfb; m++) sol->rhs[(size_t)row * nfb + m] += w->ge[a * nfb + m];
      for (int b = 0; b < nfe; b++) {
        int32_t col = num->face_unknown[faces[b]];
        if (col < 0) continue; /* Dirichlet: the update is 0 there */
        int slot = reference_block_slot(num, nslots, row, col);
        if (slot < 0)
          return hdgcl_error(HDGCL_ERROR_INTERNAL, "face %d has no block column for face %d",
                             (int)faces[a], (int)faces[b]);
        double *blk = sol->matrix + ((size_t)row * nslots + slot) * nfb * nfb;
        for (int m = 0; m < nfb; m++)
          for (int c = 0; c < nfb; c++) blk[m * nfb + c] += w->ke[(a * nfb + m) * ntb + b * nfb + c];
      }
    }
  }
  double rt2 = 0.0;
  for (size_t i = 0; i < nrows * nfb; i++) rt2 += w->rt[i] * w->rt[i];
  *norm = sqrt(rl2 + rt2);
  return HDGCL_SUCCESS;
}

/* (N7): the update of (H, u), -Z_R - Z_T dlambda per element, into w->dq,
 * w->du, and the state into the line search's base w->q0, w->u0, w->t0. */
static void direction(nh_work *w) {
  const hdg_discretisation *disc = w->disc;
  const hdgcl_mesh *mesh = disc->mesh;
  const hdg_sizes *sz = &disc->ref.sz;
  hdg_solution *sol = w->sol;
  int d = sz->dim, np = sz->np, nfe = sz->nfaces, nl = w->nl, ntb = w->ntb, nfb = w->nfb;
  int ou = d * d * np;
  size_t ne = (size_t)mesh->num_elements;
  memcpy(w->q0, sol->q, sizeof(double) * ne * ou);
  memcpy(w->u0, sol->u, sizeof(double) * ne * d * np);
  memcpy(w->t0, sol->trace, sizeof(double) * mesh->num_faces * nfb);
  for (int32_t e = 0; e < mesh->num_elements; e++) {
    for (int a = 0; a < nfe; a++) {
      int32_t row = disc->num.face_unknown[mesh->elem_faces[(size_t)e * nfe + a]];
      for (int m = 0; m < nfb; m++) w->dl[a * nfb + m] = row < 0 ? 0.0 : w->dx[(size_t)row * nfb + m];
    }
    const double *z = w->z + (size_t)e * nl * (ntb + 1);
    for (int i = 0; i < nl; i++) {
      double v = -z[(size_t)i * (ntb + 1) + ntb];
      for (int m = 0; m < ntb; m++) v -= z[(size_t)i * (ntb + 1) + m] * w->dl[m];
      if (i < ou) w->dq[(size_t)e * ou + i] = v;
      else w->du[(size_t)e * d * np + i - ou] = v;
    }
  }
}

/* The trial state base + step (dx, dq, du) into sol; *jmin its least J
 * (reference_neo_hookean_min_j) where jmin is not NULL. */
static int trial(nh_work *w, double step, double *jmin) {
  const hdg_discretisation *disc = w->disc;
  const hdgcl_mesh *mesh = disc->mesh;
  const hdg_sizes *sz = &disc->ref.sz;
  hdg_solution *sol = w->sol;
  int d = sz->dim, np = sz->np, nfb = w->nfb, ou = d * d * np;
  size_t ne = (size_t)mesh->num_elements;
  for (size_t i = 0; i < ne * ou; i++) sol->q[i] = w->q0[i] + step * w->dq[i];
  for (size_t i = 0; i < ne * d * np; i++) sol->u[i] = w->u0[i] + step * w->du[i];
  for (int32_t f = 0; f < mesh->num_faces; f++) {
    int32_t row = disc->num.face_unknown[f];
    if (row >= 0)
      for (int m = 0; m < nfb; m++)
        sol->trace[(size_t)f * nfb + m] = w->t0[(size_t)f * nfb + m] + step * w->dx[(size_t)row * nfb + m];
  }
  if (!jmin) return HDGCL_SUCCESS;
  *jmin = HUGE_VAL;
  for (int32_t e = 0; e < mesh->num_elements; e++) {
    double j;
    HDGCL_TRY(reference_neo_hookean_min_j(disc, e, sol->q + (size_t)e * ou, &j));
    *jmin = fmin(*jmin, j);
  }
  return HDGCL_SUCCESS;
}

/* The cube: the mean displacement of the trace over the faces of tag 2. */
static int loaded_face(const nh_work *w, neo_hookean_report *rep) {
  const hdg_discretisation *disc = w->disc;
  const hdgcl_mesh *mesh = disc->mesh;
  const hdg_sizes *sz = &disc->ref.sz;
  const hdgcl_quadrature *qf = &disc->ref.qface;
  int d = sz->dim, nf = sz->nf;
  double area = 0.0, sum[3] = {0, 0, 0};
  for (int32_t f = mesh->num_interior_faces; f < mesh->num_faces; f++) {
    if (mesh->face_tags[f] != 2) continue;
    int32_t e = mesh->face_elems[2 * f];
    int lf = mesh->face_local[2 * f], o = mesh->face_orient[2 * f];
    for (int q = 0; q < qf->n; q++) {
      double X[3], x[3], nds[3];
      HDGCL_TRY(hdgcl_face_map_points(sz->type, lf, o, 1, qf->points + (size_t)q * (d - 1), X));
      double wq = qf->weights[q] * hdg_face_normal(mesh, e, lf, X, x, nds);
      const double *psi = disc->ref.psi_face + (size_t)q * nf;
      for (int c = 0; c < d; c++)
        for (int m = 0; m < nf; m++) sum[c] += wq * psi[m] * w->sol->trace[(size_t)f * w->nfb + c * nf + m];
      area += wq;
    }
  }
  for (int c = 0; c < 3; c++) rep->face_u[c] = area > 0 && c < d ? sum[c] / area : (c < d ? NAN : 0.0);
  return HDGCL_SUCCESS;
}

/* ||u - u_h||, ||H - H_h|| and the exact norms at the error quadrature. */
static void errors(const nh_work *w, neo_hookean_report *rep) {
  const hdg_discretisation *disc = w->disc;
  const hdg_sizes *sz = &disc->ref.sz;
  const hdgcl_quadrature *qe = &disc->ref.qerr;
  int d = sz->dim, np = sz->np;
  double s[4] = {0, 0, 0, 0};
  for (int32_t e = 0; e < disc->mesh->num_elements; e++) {
    const double *u = w->sol->u + (size_t)e * d * np, *h = w->sol->q + (size_t)e * d * d * np;
    for (int k = 0; k < qe->n; k++) {
      double xq[3], jm[9], ue[3], ge[9], f[3];
      double wq = qe->weights[k] * hdg_map(disc->mesh, e, qe->points + (size_t)k * d, xq, jm);
      const double *phi = disc->ref.phi_err + (size_t)k * np;
      neo_hookean_exact(d, w->ns->mu, w->ns->lambda, w->ns->alpha, xq, ue, ge, f);
      for (int c = 0; c < d; c++) {
        double uh = 0.0;
        for (int b = 0; b < np; b++) uh += u[c * np + b] * phi[b];
        s[0] += wq * (uh - ue[c]) * (uh - ue[c]);
        s[2] += wq * ue[c] * ue[c];
        for (int j = 0; j < d; j++) {
          double hh = 0.0;
          for (int b = 0; b < np; b++) hh += h[(c * d + j) * np + b] * phi[b];
          s[1] += wq * (hh - ge[c * d + j]) * (hh - ge[c * d + j]);
          s[3] += wq * ge[c * d + j] * ge[c * d + j];
        }
      }
    }
  }
  rep->l2_u = sqrt(s[0]);
  rep->l2_h = sqrt(s[1]);
  rep->norm_u = sqrt(s[2]);
  rep->norm_h = sqrt(s[3]);
}

int reference_neo_hookean_solve(const hdg_discretisation *disc, const solver_settings *set,
                                hdg_solution *sol, const neo_hookean_settings *ns,
                                neo_hookean_report *rep) {
  const hdg_sizes *sz = &disc->ref.sz;
  const hdgcl_mesh *mesh = disc->mesh;
  memset(rep, 0, sizeof *rep);
  if (sz->ncomp != sz->dim || ns->load_steps < 1 || ns->newton_max < 1 || !(ns->mu > 0))
    return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                       "Neo-Hookean: needs a vector discretisation, load steps >= 1, Newton steps "
                       ">= 1 and mu > 0");
  for (int32_t f = mesh->num_interior_faces; f < mesh->num_faces; f++)
    if (disc->num.face_bc[f] == FACE_NEUMANN && disc->num.face_fixed[f])
      return hdgcl_error(HDGCL_ERROR_UNSUPPORTED,
                         "Neo-Hookean: face %d fixes some displacement components; only whole "
                         "Dirichlet or traction faces are implemented",
                         (int)f);
  if (ns->load == NEO_HOOKEAN_CUBE) { /* the loaded side must be there */
    bool loaded = false;
    for (int32_t f = mesh->num_interior_faces; f < mesh->num_faces && !loaded; f++)
      loaded = mesh->face_tags[f] == 2 && disc->num.face_bc[f] == FACE_NEUMANN;
    if (!loaded)
      return hdgcl_error(HDGCL_ERROR_MESH,
                         "neo-hookean-cube: the mesh has no traction face of tag 2 (x = 1) to load");
  }
  nh_work w = {.disc = disc, .sol = sol, .ns = ns};
  w.n = reference_neo_hookean_size(disc);
  w.nfb = sz->nfb;
  w.ntb = sz->nfaces * w.nfb;
  w.nl = w.n - w.ntb;
  size_t ne = (size_t)mesh->num_elements, nu = (size_t)disc->num.num_unknown_faces * w.nfb;
  size_t nbnd = (size_t)(mesh->num_faces - mesh->num_interior_faces);
  size_t nq = ne * sz->dim * sz->dim * sz->np, nuu = ne * sz->dim * sz->np;
  size_t ntr = (size_t)mesh->num_faces * w.nfb;
  double *bvals = NULL;
  int status;
  struct {
    double **p;
    size_t n;
  } arrays[] = {{&w.x, (size_t)w.n},
                {&w.r, (size_t)w.n},
                {&w.jac, (size_t)w.n * w.n},
                {&w.jll, (size_t)w.nl * w.nl},
                {&w.z, ne * w.nl * (w.ntb + 1)},
                {&w.ke, (size_t)w.ntb * w.ntb},
                {&w.ge, (size_t)w.ntb},
                {&w.rt, nu},
                {&w.dx, nu},
                {&w.dl, (size_t)w.ntb},
                {&w.tload, nbnd * w.nfb},
                {&w.q0, nq},
                {&w.u0, nuu},
                {&w.t0, ntr},
                {&w.dq, nq},
                {&w.du, nuu},
                {&bvals, nbnd * w.nfb}};
  for (size_t i = 0; i < sizeof arrays / sizeof *arrays; i++)
    HDGCL_TRY_GOTO(status, hdgcl_calloc(arrays[i].n + 1, sizeof(double), "Neo-Hookean", arrays[i].p), done);
  HDGCL_TRY_GOTO(status, hdgcl_calloc((size_t)w.nl, sizeof(int), "pivots", &w.piv), done);
  if (ns->load == NEO_HOOKEAN_MANUFACTURED) /* P_F u_E on the Dirichlet faces (the cube's are 0) */
    HDGCL_TRY_GOTO(status, reference_boundary_data(disc, bvals), done);
  memset(sol->u, 0, sizeof(double) * nuu);
  memset(sol->q, 0, sizeof(double) * nq);
  memset(sol->trace, 0, sizeof(double) * ntr);
  solver_settings gs = *set;
  gs.solver = SOLVER_GMRES; /* the Jacobian is not symmetric */
  for (int l = 1; l <= ns->load_steps; l++) {
    double alpha = ns->alpha * l / ns->load_steps, r, r0;
    for (int32_t f = mesh->num_interior_faces; f < mesh->num_faces; f++)
      if (disc->num.face_unknown[f] < 0)
        for (int m = 0; m < w.nfb; m++)
          sol->trace[(size_t)f * w.nfb + m] = alpha * bvals[(size_t)(f - mesh->num_interior_faces) * w.nfb + m];
    HDGCL_TRY_GOTO(status, traction_load(&w, alpha), done);
    HDGCL_TRY_GOTO(status, linearise(&w, alpha, &r), done);
    r0 = r;
    int slot = l - 1 < NEO_HOOKEAN_HISTORY ? l - 1 : NEO_HOOKEAN_HISTORY - 1;
    rep->step_start[slot] = rep->history_length;
    if (rep->history_length < NEO_HOOKEAN_HISTORY) rep->history[rep->history_length++] = r;
    for (int k = 0;; k++) {
      if (!isfinite(r)) {
        status = hdgcl_error(HDGCL_ERROR_CONVERGENCE, "Neo-Hookean: residual %g at load step %d", r, l);
        goto done;
      }
      if (r <= fmax(ns->newton_rtol * r0, NEWTON_ATOL)) break;
      if (k == ns->newton_max) {
        status = hdgcl_error(HDGCL_ERROR_CONVERGENCE,
                             "Neo-Hookean: load step %d of %d did not converge in %d Newton steps: "
                             "residual %.3e, %.3e of the first",
                             l, ns->load_steps, k, r, r / r0);
        goto done;
      }
      memset(w.dx, 0, sizeof(double) * nu);
      HDGCL_TRY_GOTO(status, reference_gmres(disc, &gs, sol, w.dx), done);
      rep->iterations += sol->iterations;
      direction(&w);
      /* (N11), (N27): halve the step while the trial has J <= 0 somewhere or
       * does not decrease ||R|| enough; without the line search, full steps. */
      double step = 1.0, rn = NAN;
      int tries = 0;
      for (; tries <= NEWTON_LS_HALVINGS; tries++, step *= 0.5) {
        double jmin = 1.0;
        HDGCL_TRY_GOTO(status, trial(&w, step, ns->line_search ? &jmin : NULL), done);
        if (!(jmin > 0)) {
          rep->halvings_j++;
          continue;
        }
        HDGCL_TRY_GOTO(status, linearise(&w, alpha, &rn), done);
        if (!ns->line_search || (isfinite(rn) && rn <= (1.0 - NEWTON_LS_DECREASE * step) * r)) break;
      }
      if (tries > NEWTON_LS_HALVINGS) {
        status = hdgcl_error(HDGCL_ERROR_CONVERGENCE,
                             "Neo-Hookean: the line search found no decrease of the residual %.3e "
                             "at Newton step %d of load step %d (%d halvings)",
                             r, k + 1, l, NEWTON_LS_HALVINGS);
        goto done;
      }
      rep->halvings += tries;
      r = rn;
      rep->newton_steps++;
      rep->newton_per_step[slot]++;
      if (rep->history_length < NEO_HOOKEAN_HISTORY) {
        rep->iterations_per_step[rep->history_length] = sol->iterations;
        rep->history[rep->history_length++] = r;
      }
    }
  }
  if (ns->load == NEO_HOOKEAN_MANUFACTURED) {
    errors(&w, rep);
    rep->face_u[0] = rep->face_u[1] = rep->face_u[2] = NAN;
  } else {
    rep->l2_u = rep->l2_h = rep->norm_u = rep->norm_h = NAN;
    HDGCL_TRY_GOTO(status, loaded_face(&w, rep), done);
  }
  status = HDGCL_SUCCESS;
done:
  for (size_t i = 0; i < sizeof arrays / sizeof *arrays; i++) free(*arrays[i].p);
  free(w.piv);
  return status;
}
