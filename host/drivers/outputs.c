/* The outputs a user's problem asks for (docs/problems.md "Outputs"),
 * computed on the host from the solution both paths leave there (u, q or H,
 * the trace): boundary fluxes by the face quadrature, integrals by the error
 * quadrature, point values by locating the point's element (Newton on the
 * element map), the largest von Mises stress at the error quadrature points;
 * reaction forces in output_reaction.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fem/basis.h"
#include "core/error.h"
#include "fem/face_map.h"
#include "drivers/outputs.h"

bool output_has_tag(const int32_t *ids, int n, int32_t tag) {
  for (int i = 0; i < n; i++)
    if (ids[i] == tag) return true;
  return false;
}

int output_evaluate(hdgcl_solver s, int32_t e, const double *X, double *phi, double *val,
                    double *flux) {
  /* element e's own basis; rows of the widest type's np (a mixed mesh) */
  const hdg_sizes *sz = &discretisation_ref(&s->disc, e)->sz;
  size_t row = (size_t)s->disc.ref.sz.np;
  int np = sz->np, d = sz->dim, nc = sz->ncomp;
  HDGCL_TRY(hdgcl_basis_eval(sz->shape, sz->order, 1, X, phi, NULL));
  for (int c = 0; c < nc; c++) {
    val[c] = 0.0;
    for (int i = 0; i < np; i++) val[c] += s->sol.u[((size_t)e * nc + c) * row + i] * phi[i];
    for (int k = 0; k < d; k++) {
      double v = 0.0;
      for (int i = 0; i < np; i++) v += s->sol.q[(((size_t)e * nc + c) * d + k) * row + i] * phi[i];
      flux[c * d + k] = v;
    }
  }
  return HDGCL_SUCCESS;
}

void output_stress(hdgcl_solver s, int32_t e, const double *h, double *sig) {
  int d = s->disc.ref.sz.dim;
  double tr = 0.0;
  for (int i = 0; i < d; i++) tr += h[i * d + i];
  for (int i = 0; i < d; i++)
    for (int j = 0; j < d; j++)
      sig[i * d + j] = s->disc.mu[e] * (h[i * d + j] + h[j * d + i]) + (i == j ? s->disc.lambda[e] * tr : 0.0);
}

static double von_mises(int d, const double *t) {
  if (d == 2) /* plane strain's in-plane part */
    return sqrt(t[0] * t[0] - t[0] * t[3] + t[3] * t[3] + 3 * t[1] * t[1]);
  double a = t[0] - t[4], b = t[4] - t[8], c = t[8] - t[0];
  return sqrt(0.5 * (a * a + b * b + c * c) + 3 * (t[1] * t[1] + t[2] * t[2] + t[5] * t[5]));
}

/* Flux int kappa grad u . n ds = -int qhat . n ds (F4) over the boundary faces
 * of the output's tags. */
static int flux_output(hdgcl_solver s, hdg_user_output *o, double *phi) {
  const hdgcl_mesh *mesh = s->disc.mesh;
  const hdg_sizes *sz = &s->disc.ref.sz;
  const hdgcl_quadrature *qf = &s->disc.ref.qface;
  int nf = sz->nf, d = sz->dim;
  double sum = 0.0;
  for (int32_t f = mesh->num_interior_faces; f < mesh->num_faces; f++) {
    if (!output_has_tag(o->tag_ids, o->num_tags, mesh->face_tags[f])) continue;
    int32_t e = mesh->face_elems[2 * f];
    int lf = mesh->face_local[2 * f], or = mesh->face_orient[2 * f];
    for (int q = 0; q < qf->n; q++) {
      double X[3], x[3], nds[3], val[3], fl[9];
      HDGCL_TRY(hdgcl_face_map_points(discretisation_ref(&s->disc, e)->sz.type, lf, or, 1,
                                      qf->points + (size_t)q * (d - 1), X));
      double ds = hdg_face_normal(mesh, e, lf, X, x, nds);
      HDGCL_TRY(output_evaluate(s, e, X, phi, val, fl));
      double w = ds * qf->weights[q], n[3] = {nds[0] / ds, nds[1] / ds, d == 3 ? nds[2] / ds : 0};
      double lam = 0.0;
      for (int m = 0; m < nf; m++) lam += s->sol.trace[(size_t)f * nf + m] * s->disc.ref.psi_face[q * nf + m];
      double qn = s->disc.tau * (val[0] - lam);
      for (int k = 0; k < d; k++) qn += fl[k] * n[k];
      sum -= w * qn;
    }
  }
  o->num_values = 1;
  o->names = "flux";
  o->values[0] = sum;
  return HDGCL_SUCCESS;
}

static bool in_region(hdgcl_solver s, const hdg_user_output *o, int32_t e) {
  if (o->num_tags == 0) return true;
  return output_has_tag(o->tag_ids, o->num_tags, s->disc.mesh->elem_tags ? s->disc.mesh->elem_tags[e] : 0);
}

/* Integral of the expression of x, u, grad u, q over the region; or the
 * largest von Mises stress (and where) at the error quadrature points. */
static int volume_output(hdgcl_solver s, hdg_user_output *o, double *phi) {
  const hdgcl_mesh *mesh = s->disc.mesh;
  int d = s->disc.ref.sz.dim;
  double sum = 0.0, best = -1.0, where[3] = {0, 0, 0};
  for (int32_t e = 0; e < mesh->num_elements; e++) {
    if (!in_region(s, o, e)) continue;
    const hdgcl_quadrature *qe = &discretisation_ref(&s->disc, e)->qerr; /* e's type's */
    for (int k = 0; k < qe->n; k++) {
      double x[3] = {0, 0, 0}, jac[9], val[3], fl[9];
      double detj = hdg_map(mesh, e, qe->points + (size_t)k * d, x, jac);
      HDGCL_TRY(output_evaluate(s, e, qe->points + (size_t)k * d, phi, val, fl));
      if (o->kind == USER_OUT_VON_MISES) {
        double sig[9];
        output_stress(s, e, fl, sig);
        double vm = von_mises(d, sig);
        if (vm > best) {
          best = vm;
          memcpy(where, x, sizeof where);
        }
        continue;
      }
      double v[USER_NUM_INTEGRAND_VARS] = {x[0], x[1], x[2], val[0], 0, 0, 0, 0, 0, 0};
      double kappa, c0, beta[3];
      discretisation_coefficients_at(&s->disc, e, x, &kappa, &c0, beta);
      for (int c = 0; c < d; c++) {
        v[USER_QX + c] = fl[c];
        v[USER_UX + c] = -fl[c] / kappa; /* q = -kappa grad u (F2) */
      }
      if (s->disc.kappa_tensor) { /* q = -K grad u: grad u = -K^-1 q */
        const double *kinv = s->disc.kappa_tensor + (size_t)e * KAPPA_TENSOR_VALUES(d) + KAPPA_KINV(d);
        for (int c = 0; c < d; c++) {
          double g = 0.0;
          for (int l = 0; l < d; l++) g -= kinv[c * d + l] * fl[l];
          v[USER_UX + c] = g;
        }
      }
      sum += qe->weights[k] * fabs(detj) * hdg_expr_eval(o->integrand, v);
    }
  }
  if (o->kind == USER_OUT_VON_MISES) {
    o->num_values = 4;
    o->names = "max x y z";
    o->values[0] = best;
    for (int k = 0; k < 3; k++) o->values[1 + k] = where[k];
  } else {
    o->num_values = 1;
    o->names = "integral";
    o->values[0] = sum;
  }
  return HDGCL_SUCCESS;
}

/* Reference coordinates of x in element e by Newton's method on the map; true if inside. */
static bool locate(const hdgcl_mesh *mesh, int32_t e, const double *x, double *X) {
  int d = mesh->dim;
  hdgcl_element_type type = hdgcl_mesh_element_type(mesh, e);
  bool simplex = type == HDGCL_TRIANGLE || type == HDGCL_TETRAHEDRON;
  for (int k = 0; k < d; k++) X[k] = simplex ? -1.0 + 2.0 / (d + 1) : 0.0;
  for (int it = 0; it < 30; it++) {
    double y[3], jac[9], inv[9], r[3];
    double det = hdg_map(mesh, e, X, y, jac);
    if (!(fabs(det) > 0)) return false;
    hdg_invert(d, jac, det, inv);
    double step = 0.0;
    for (int k = 0; k < d; k++) r[k] = x[k] - y[k];
    for (int k = 0; k < d; k++) {
      double dx = 0.0;
      for (int l = 0; l < d; l++) dx += inv[k * d + l] * r[l];
      X[k] += dx;
      step += fabs(dx);
    }
    if (step < 1e-14) break;
    if (fabs(X[0]) > 10) return false;
  }
  const double tol = 1e-10;
  double sum = 0.0;
  for (int k = 0; k < d; k++) {
    if (X[k] < -1 - tol || (!simplex && X[k] > 1 + tol)) return false;
    sum += 0.5 * (X[k] + 1.0);
  }
  return !simplex || sum <= 1 + tol;
}

static int point_output(hdgcl_solver s, hdg_user_output *o, double *phi) {
  const hdgcl_mesh *mesh = s->disc.mesh;
  int d = mesh->dim, nc = s->disc.ref.sz.ncomp, stride = mesh->verts_per_element;
  static const char *const names[2][2] = {
      {"u qx qy", "u qx qy qz"},
      {"ux Hxx Hxy uy Hyx Hyy", "ux Hxx Hxy Hxz uy Hyx Hyy Hyz uz Hzx Hzy Hzz"}};
  o->num_values = nc * (1 + d);
  o->names = names[nc > 1][d == 3];
  for (int i = 0; i < o->num_values; i++) o->values[i] = NAN;
  o->element = -1;
  for (int32_t e = 0; e < mesh->num_elements; e++) {
    /* bounding box first */
    bool out = false;
    int nv = hdgcl_mesh_element_verts(mesh, e); /* a mixed mesh: e's own */
    for (int k = 0; k < d && !out; k++) {
      double lo = INFINITY, hi = -INFINITY;
      for (int a = 0; a < nv; a++) {
        double c = mesh->coords[(size_t)mesh->elem_verts[(size_t)e * stride + a] * d + k];
        lo = fmin(lo, c);
        hi = fmax(hi, c);
      }
      double pad = 1e-9 * (hi - lo);
      out = o->point[k] < lo - pad || o->point[k] > hi + pad;
    }
    double X[3];
    if (out || !locate(mesh, e, o->point, X)) continue;
    double val[3], fl[9];
    HDGCL_TRY(output_evaluate(s, e, X, phi, val, fl));
    for (int c = 0; c < nc; c++) {
      o->values[c * (1 + d)] = val[c];
      for (int k = 0; k < d; k++) o->values[c * (1 + d) + 1 + k] = fl[c * d + k];
    }
    o->element = e;
    return HDGCL_SUCCESS;
  }
  /* a rank's part (host/parallel): the point may lie in another rank's */
  if (s->disc.partial) return HDGCL_SUCCESS;
  return hdgcl_error(HDGCL_ERROR_ARGUMENT, "output '%s': the point (%g, %g, %g) is not in the mesh",
                     o->label, o->point[0], o->point[1], d == 3 ? o->point[2] : 0.0);
}

int solver_outputs(hdgcl_solver s) {
  hdg_user_problem *up = s->disc.user;
  if (!up || up->num_outputs == 0) return HDGCL_SUCCESS;
  double *phi;
  HDGCL_TRY(hdgcl_calloc((size_t)s->disc.ref.sz.np, sizeof(double), "output basis", &phi));
  int status = HDGCL_SUCCESS;
  for (int i = 0; i < up->num_outputs && status == HDGCL_SUCCESS; i++) {
    hdg_user_output *o = &up->outputs[i];
    if (o->kind == USER_OUT_REACTION)
      status = output_reaction(s, o, phi);
    else if (o->kind == USER_OUT_FLUX)
      status = flux_output(s, o, phi);
    else if (o->kind == USER_OUT_POINT)
      status = point_output(s, o, phi);
    else
      status = volume_output(s, o, phi);
  }
  free(phi);
  return status;
}
