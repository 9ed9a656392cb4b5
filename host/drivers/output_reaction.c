/* The reaction force of a user's elasticity problem on the faces of some
 * boundary tags (docs/problems.md (P5)), component by component:
 *
 * - where the tagged faces give component i as data (traction faces, the
 *   free components of per-component faces), the integral of the numerical
 *   traction sigma_h n - tau (u_h - uhat), whose moments the trace equations
 *   (E13) set to the data's: the applied load, to round-off;
 * - where they fix component i (displacement faces, the fixed components of
 *   per-component faces), the reaction by virtual work,
 *
 *     R_i = sum_K (sigma_h, grad(phi_i) e_i^T)_K - (f_i, phi_i) - sum_F <g_i, phi_i>_F,
 *
 *   F over the boundary faces that load component i, phi_i the sum of the
 *   vertex functions (P1, or Q1 on quadrilaterals and hexahedra) of the
 *   vertices of tagged faces that fix i, less those on untagged faces that
 *   fix i too.  For the exact solution this is int (sigma n)_i over the
 *   tagged faces that fix i (integrate by parts; phi_i = 1 on them, 0 on the
 *   other supports, which do the same); it avoids the stress on the boundary
 *   itself, which near a clamped corner is singular: a bar clamped at one end
 *   and pulled at the other gives -0.99967 for -1 at p = 2, where the
 *   boundary integral gives -1.0137. */
#include <math.h>
#include <stdlib.h>

#include "core/error.h"
#include "fem/face_map.h"
#include "drivers/outputs.h"
#include "problem/problem_elasticity.h"

/* The components boundary face f fixes (bit i: u_i is given there). */
static int fixed_components(hdgcl_solver s, int32_t f) {
  if (s->disc.num.face_bc[f] == FACE_DIRICHLET) return (1 << s->disc.ref.sz.dim) - 1;
  return s->disc.num.face_fixed[f];
}

/* Per vertex: bit i of weight[v] set where phi_i(v) = 1. */
static int vertex_weights(hdgcl_solver s, const hdg_user_output *o, int8_t *weight) {
  const hdgcl_mesh *mesh = s->disc.mesh;
  int nvf = mesh->verts_per_face;
  int8_t *held;
  HDGCL_TRY(hdgcl_calloc((size_t)mesh->num_vertices, 1, "reaction weights", &held));
  for (int32_t f = mesh->num_interior_faces; f < mesh->num_faces; f++) {
    bool tagged = output_has_tag(o->tag_ids, o->num_tags, mesh->face_tags[f]);
    int8_t mask = (int8_t)fixed_components(s, f);
    for (int a = 0; a < nvf; a++) {
      int32_t v = mesh->face_verts[(size_t)f * nvf + a];
      if (tagged)
        weight[v] |= mask;
      else
        held[v] |= mask;
    }
  }
  for (int32_t v = 0; v < mesh->num_vertices; v++) weight[v] &= (int8_t)~held[v];
  free(held);
  return HDGCL_SUCCESS;
}

/* phi_i and grad phi_i (physical) at a point with vertex functions n, their
 * reference derivatives dn and the inverse Jacobian inv, for every component. */
static void weight_functions(const hdgcl_mesh *mesh, int32_t e, const int8_t *weight,
                             const double *n, const double *dn, const double *inv, double *phi,
                             double *grad) {
  /* e's own vertices (a mixed mesh: the rows are verts_per_element wide) */
  int d = mesh->dim, nv = hdgcl_mesh_element_verts(mesh, e);
  const int32_t *ev = mesh->elem_verts + (size_t)e * mesh->verts_per_element;
  for (int i = 0; i < d; i++) {
    phi[i] = 0.0;
    for (int j = 0; j < d; j++) grad[i * d + j] = 0.0;
    for (int a = 0; a < nv; a++) {
      if (!((weight[ev[a]] >> i) & 1)) continue;
      phi[i] += n[a];
      for (int j = 0; j < d; j++)
        for (int l = 0; l < d; l++) grad[i * d + j] += dn[a * d + l] * inv[l * d + j];
    }
  }
}

/* sum_K (sigma_h, grad(phi_i) e_i^T)_K - (f_i, phi_i) over the elements that touch a weighted vertex. */
static int volume_part(hdgcl_solver s, const int8_t *weight, double *phi, double *sum) {
  const hdgcl_mesh *mesh = s->disc.mesh;
  int d = mesh->dim, stride = mesh->verts_per_element;
  for (int32_t e = 0; e < mesh->num_elements; e++) {
    const hdgcl_quadrature *qe = &discretisation_ref(&s->disc, e)->qerr; /* e's type's */
    int nv = hdgcl_mesh_element_verts(mesh, e);
    bool any = false;
    for (int a = 0; a < nv; a++) any |= weight[mesh->elem_verts[(size_t)e * stride + a]] != 0;
    if (!any) continue;
    for (int k = 0; k < qe->n; k++) {
      const double *X = qe->points + (size_t)k * d;
      double x[3] = {0, 0, 0}, jac[9], inv[9], val[3], h[9], sig[9], f[3], n[8], dn[24];
      double ph[3], grad[9];
      double detj = hdg_map(mesh, e, X, x, jac);
      hdg_invert(d, jac, detj, inv);
      HDGCL_TRY(output_evaluate(s, e, X, phi, val, h));
      output_stress(s, e, h, sig);
      elasticity_load(&s->disc.params, x, f);
      hdg_vertex_functions(hdgcl_mesh_element_type(mesh, e), X, n, dn);
      weight_functions(mesh, e, weight, n, dn, inv, ph, grad);
      double w = qe->weights[k] * fabs(detj);
      for (int i = 0; i < d; i++) {
        double t = -f[i] * ph[i];
        for (int j = 0; j < d; j++) t += sig[i * d + j] * grad[i * d + j];
        sum[i] += w * t;
      }
    }
  }
  return HDGCL_SUCCESS;
}

/* Over the boundary faces: -<g_i, phi_i>_F where F loads component i, and
 * the numerical traction's integral where a tagged face loads it. */
static int boundary_part(hdgcl_solver s, const hdg_user_output *o, const int8_t *weight,
                         double *phi, double *sum) {
  const hdgcl_mesh *mesh = s->disc.mesh;
  const hdg_sizes *sz = &s->disc.ref.sz;
  const hdgcl_quadrature *qf = &s->disc.ref.qface;
  int d = sz->dim, nf = sz->nf;
  for (int32_t f = mesh->num_interior_faces; f < mesh->num_faces; f++) {
    int fixed = fixed_components(s, f);
    if (fixed == (1 << d) - 1) continue; /* loads no component */
    bool tagged = output_has_tag(o->tag_ids, o->num_tags, mesh->face_tags[f]);
    int32_t e = mesh->face_elems[2 * f];
    int nv = hdgcl_mesh_element_verts(mesh, e); /* e's own (a mixed mesh) */
    hdgcl_element_type type = hdgcl_mesh_element_type(mesh, e);
    const int32_t *ev = mesh->elem_verts + (size_t)e * mesh->verts_per_element;
    bool weighted = false;
    for (int a = 0; a < nv; a++) weighted |= weight[ev[a]] != 0;
    if (!tagged && !weighted) continue;
    int lf = mesh->face_local[2 * f], or = mesh->face_orient[2 * f];
    int cond = s->disc.num.face_cond[f - mesh->num_interior_faces];
    for (int q = 0; q < qf->n; q++) {
      double X[3], x[3], nds[3], g[3], n[8], dn[24], val[3], h[9], sig[9], inv[9] = {0};
      double ph[3], grad[9];
      HDGCL_TRY(hdgcl_face_map_points(type, lf, or, 1, qf->points + (size_t)q * (d - 1), X));
      double ds = hdg_face_normal(mesh, e, lf, X, x, nds), w = ds * qf->weights[q];
      double nn[3] = {nds[0] / ds, nds[1] / ds, d == 3 ? nds[2] / ds : 0.0};
      problem_elasticity_traction(s->disc.params, cond, x, nn, g);
      hdg_vertex_functions(type, X, n, dn);
      weight_functions(mesh, e, weight, n, dn, inv, ph, grad);
      if (tagged) {
        HDGCL_TRY(output_evaluate(s, e, X, phi, val, h));
        output_stress(s, e, h, sig);
      }
      for (int i = 0; i < d; i++) {
        if ((fixed >> i) & 1) continue;
        sum[i] -= w * g[i] * ph[i];
        if (!tagged) continue;
        /* the numerical traction sigma n - tau (u - uhat) of (E13) */
        double lam = 0.0;
        for (int m = 0; m < nf; m++)
          lam += s->sol.trace[(size_t)f * sz->nfb + i * nf + m] * s->disc.ref.psi_face[q * nf + m];
        double t = -s->disc.tau * (val[i] - lam);
        for (int j = 0; j < d; j++) t += sig[i * d + j] * nn[j];
        sum[i] += w * t;
      }
    }
  }
  return HDGCL_SUCCESS;
}

int output_reaction(hdgcl_solver s, hdg_user_output *o, double *phi) {
  const hdgcl_mesh *mesh = s->disc.mesh;
  int d = mesh->dim;
  int8_t *weight;
  HDGCL_TRY(hdgcl_calloc((size_t)mesh->num_vertices, 1, "reaction weights", &weight));
  double sum[3] = {0, 0, 0};
  int status = vertex_weights(s, o, weight);
  if (status == HDGCL_SUCCESS) status = volume_part(s, weight, phi, sum);
  if (status == HDGCL_SUCCESS) status = boundary_part(s, o, weight, phi, sum);
  free(weight);
  HDGCL_TRY(status);
  o->num_values = d;
  o->names = d == 3 ? "Fx Fy Fz" : "Fx Fy";
  for (int i = 0; i < d; i++) o->values[i] = sum[i];
  return HDGCL_SUCCESS;
}
