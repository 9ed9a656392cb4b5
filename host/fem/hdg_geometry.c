/* Affine geometry of a simplex: Jacobian of the map from the reference
 * element, its inverse and determinant, face measures and outward normals. */
#include <math.h>

#include "core/error.h"
#include "fem/face_map.h"
#include "fem/hdg.h"

static double det3(const double *a) {
  return a[0] * (a[4] * a[8] - a[5] * a[7]) - a[1] * (a[3] * a[8] - a[5] * a[6]) +
         a[2] * (a[3] * a[7] - a[4] * a[6]);
}

int hdg_geometry_simplex(const hdgcl_mesh *mesh, int32_t e, hdg_geometry *geo) {
  /* the row width, and element e's own type and vertex count (a mixed mesh's
   * triangle row ends in -1) */
  int d = mesh->dim, nv = mesh->verts_per_element, own = hdgcl_mesh_element_verts(mesh, e);
  hdgcl_element_type type = hdgcl_mesh_element_type(mesh, e);
  if (type != HDGCL_TRIANGLE && type != HDGCL_TETRAHEDRON)
    return hdgcl_error(HDGCL_ERROR_INTERNAL, "affine geometry asked for a non-simplex element");
  const int32_t *v = mesh->elem_verts + (size_t)e * nv;
  double x[4][3] = {{0}};
  for (int a = 0; a < own; a++)
    for (int k = 0; k < d; k++) x[a][k] = mesh->coords[(size_t)v[a] * d + k];
  /* Reference vertex a (a >= 1) is -1 + 2 e_{a-1}: column a-1 of J is (x_a - x_0)/2. */
  for (int k = 0; k < d; k++) {
    geo->x0[k] = x[0][k];
    for (int a = 1; a <= d; a++) geo->jac[k * d + (a - 1)] = 0.5 * (x[a][k] - x[0][k]);
  }
  const double *J = geo->jac;
  geo->detj = d == 2 ? J[0] * J[3] - J[1] * J[2] : det3(J);
  if (!(geo->detj > 0))
    return hdgcl_error(HDGCL_ERROR_MESH, "element %d has non-positive Jacobian %g", (int)e,
                       geo->detj);
  hdg_invert(d, J, geo->detj, geo->jinv);
  for (int f = 0; f < mesh->faces_per_element; f++) {
    const int8_t *fv = hdgcl_element_face_vertices(mesh->type, f);
    if (d == 2) {
      /* Faces run counter-clockwise: the outward normal is the edge turned clockwise. */
      double dx = x[fv[1]][0] - x[fv[0]][0], dy = x[fv[1]][1] - x[fv[0]][1];
      double len = sqrt(dx * dx + dy * dy);
      geo->face_measure[f] = len;
      geo->normal[f][0] = dy / len;
      geo->normal[f][1] = -dx / len;
      geo->normal[f][2] = 0.0;
    } else {
      /* Local face lists are ordered so that (v1-v0) x (v2-v0) points outward. */
      double a[3], b[3], n[3];
      for (int k = 0; k < 3; k++) {
        a[k] = x[fv[1]][k] - x[fv[0]][k];
        b[k] = x[fv[2]][k] - x[fv[0]][k];
      }
      n[0] = a[1] * b[2] - a[2] * b[1];
      n[1] = a[2] * b[0] - a[0] * b[2];
      n[2] = a[0] * b[1] - a[1] * b[0];
      double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
      geo->face_measure[f] = 0.5 * len;
      for (int k = 0; k < 3; k++) geo->normal[f][k] = n[k] / len;
    }
  }
  return HDGCL_SUCCESS;
}

void hdg_vertex_functions(hdgcl_element_type type, const double *xi, double *n, double *dn) {
  if (type == HDGCL_TRIANGLE || type == HDGCL_TETRAHEDRON) {
    /* Reference vertex 0 at (-1,...), vertex a at -1 + 2 e_{a-1}. */
    int d = type == HDGCL_TRIANGLE ? 2 : 3;
    n[0] = 1.0;
    for (int k = 0; k < d; k++) n[0] -= 0.5 * (xi[k] + 1.0);
    for (int k = 0; k < d; k++) dn[k] = -0.5;
    for (int a = 1; a <= d; a++) {
      n[a] = 0.5 * (xi[a - 1] + 1.0);
      for (int k = 0; k < d; k++) dn[a * d + k] = k == a - 1 ? 0.5 : 0.0;
    }
    return;
  }
  /* Tensor vertices: sign of each coordinate at vertex a (Gmsh order). */
  static const double sq[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
  int d = type == HDGCL_QUADRILATERAL ? 2 : 3, nv = d == 2 ? 4 : 8;
  for (int a = 0; a < nv; a++) {
    double s[3] = {sq[a % 4][0], sq[a % 4][1], a < 4 ? -1.0 : 1.0};
    double f[3];
    for (int k = 0; k < d; k++) f[k] = 0.5 * (1.0 + s[k] * xi[k]);
    n[a] = 1.0;
    for (int k = 0; k < d; k++) n[a] *= f[k];
    for (int k = 0; k < d; k++) {
      double g = 0.5 * s[k];
      for (int l = 0; l < d; l++)
        if (l != k) g *= f[l];
      dn[a * d + k] = g;
    }
  }
}

double hdg_map(const hdgcl_mesh *mesh, int32_t e, const double *xi, double *x, double *jac) {
  if (mesh->geometry_order > 1) { /* curved: the Lagrange map of its nodes */
    for (int k = 0; k < 3; k++) x[k] = 0.0;
    return hdgcl_mesh_map(mesh, e, xi, x, jac);
  }
  /* A mixed mesh: element e's own type and vertices (rows of the widest type). */
  int d = mesh->dim, nv = hdgcl_mesh_element_verts(mesh, e);
  double n[8], dn[24];
  hdg_vertex_functions(hdgcl_mesh_element_type(mesh, e), xi, n, dn);
  for (int k = 0; k < 3; k++) x[k] = 0.0;
  for (int k = 0; k < d * d; k++) jac[k] = 0.0;
  const int32_t *v = mesh->elem_verts + (size_t)e * mesh->verts_per_element;
  for (int a = 0; a < nv; a++) {
    const double *xa = mesh->coords + (size_t)v[a] * d;
    for (int k = 0; k < d; k++) {
      x[k] += n[a] * xa[k];
      for (int l = 0; l < d; l++) jac[k * d + l] += xa[k] * dn[a * d + l];
    }
  }
  if (d == 2) return jac[0] * jac[3] - jac[1] * jac[2];
  return det3(jac);
}

void hdg_invert(int dim, const double *J, double det, double *inv) {
  if (dim == 2) {
    inv[0] = J[3] / det;
    inv[1] = -J[1] / det;
    inv[2] = -J[2] / det;
    inv[3] = J[0] / det;
    return;
  }
  inv[0] = (J[4] * J[8] - J[5] * J[7]) / det;
  inv[1] = (J[2] * J[7] - J[1] * J[8]) / det;
  inv[2] = (J[1] * J[5] - J[2] * J[4]) / det;
  inv[3] = (J[5] * J[6] - J[3] * J[8]) / det;
  inv[4] = (J[0] * J[8] - J[2] * J[6]) / det;
  inv[5] = (J[2] * J[3] - J[0] * J[5]) / det;
  inv[6] = (J[3] * J[7] - J[4] * J[6]) / det;
  inv[7] = (J[1] * J[6] - J[0] * J[7]) / det;
  inv[8] = (J[0] * J[4] - J[1] * J[3]) / det;
}

void hdg_normal_from_tangents(int dim, const double t[2][3], double *n) {
  if (dim == 2) {
    n[0] = t[0][1];
    n[1] = -t[0][0];
    n[2] = 0.0;
  } else {
    n[0] = t[0][1] * t[1][2] - t[0][2] * t[1][1];
    n[1] = t[0][2] * t[1][0] - t[0][0] * t[1][2];
    n[2] = t[0][0] * t[1][1] - t[0][1] * t[1][0];
  }
}

double hdg_face_normal(const hdgcl_mesh *mesh, int32_t e, int f, const double *X, double *x,
                       double *nds) {
  int d = mesh->dim;
  hdgcl_element_type type = hdgcl_mesh_element_type(mesh, e);
  double jac[9];
  double detj = hdg_map(mesh, e, X, x, jac);
  /* Tangents of the face parametrisation in reference coordinates: the face
   * map is affine in the face coordinates, so differences give them exactly. */
  double s0[2] = {0.0, 0.0}, s1[2] = {1.0, 0.0}, s2[2] = {0.0, 1.0};
  double X0[3], X1[3], X2[3];
  hdgcl_face_map_points(type, f, 0, 1, s0, X0);
  hdgcl_face_map_points(type, f, 0, 1, s1, X1);
  if (d == 3) hdgcl_face_map_points(type, f, 0, 1, s2, X2);
  double t[2][3] = {{0}};
  for (int k = 0; k < d; k++)
    for (int l = 0; l < d; l++) {
      t[0][k] += jac[k * d + l] * (X1[l] - X0[l]);
      if (d == 3) t[1][k] += jac[k * d + l] * (X2[l] - X0[l]);
    }
  hdg_normal_from_tangents(d, (const double(*)[3])t, nds);
  /* Outward: along cof(J) n_ref = det(J) J^-T n_ref. */
  double nref[3] = {0, 0, 0}, cof[3] = {0, 0, 0};
  hdgcl_reference_face_normal(type, f, nref);
  double inv[9];
  hdg_invert(d, jac, detj, inv);
  for (int k = 0; k < d; k++)
    for (int l = 0; l < d; l++) cof[k] += inv[l * d + k] * nref[l];
  double dot = 0.0, len = 0.0;
  for (int k = 0; k < d; k++) {
    dot += nds[k] * cof[k];
    len += nds[k] * nds[k];
  }
  if (dot < 0)
    for (int k = 0; k < 3; k++) nds[k] = -nds[k];
  return sqrt(len);
}
