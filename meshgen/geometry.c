/* Geometry of one element: Jacobian determinants of the map from the
 * reference element, signed measure, and validity.
 *
 * Simplices map affinely: J = [x1-x0, x2-x0 (, x3-x0)] / 2 (reference edges
 * have length 2), so det J is constant.  Quads and hexes map bilinearly /
 * trilinearly: x(xi) = sum_i N_i(xi) x_i with N_i = prod_d (1 + r_id xi_d) / 2^dim
 * (r_i = reference vertex i).  det J is then a polynomial of degree <= 2 in
 * each variable, so the 2-point Gauss rule per direction integrates it
 * exactly, and its values at the corners decide validity at the vertices. */
#include <math.h>

#include "mesh_internal.h"

static double det2(const double a[2], const double b[2]) { return a[0] * b[1] - a[1] * b[0]; }

static double det3(const double a[3], const double b[3], const double c[3]) {
  return a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) +
         a[2] * (b[0] * c[1] - b[1] * c[0]);
}

/* det J of a simplex (constant). */
static double simplex_jacobian(const hdgcl_mesh *mesh, int32_t e) {
  const int32_t *v = mesh->elem_verts + (int64_t)e * mesh->verts_per_element;
  int dim = mesh->dim;
  double edge[3][3];
  for (int k = 0; k < dim; k++)
    for (int d = 0; d < dim; d++)
      edge[k][d] =
          (mesh->coords[(int64_t)v[k + 1] * dim + d] - mesh->coords[(int64_t)v[0] * dim + d]) / 2;
  return dim == 2 ? det2(edge[0], edge[1]) : det3(edge[0], edge[1], edge[2]);
}

/* det J of a quad/hex at reference point xi. */
static double tensor_jacobian(const hdgcl_mesh *mesh, int32_t e, const double *xi) {
  const int32_t *v = mesh->elem_verts + (int64_t)e * mesh->verts_per_element;
  int dim = mesh->dim, nv = hdgcl_mesh_element_verts(mesh, e);
  hdgcl_element_type type = hdgcl_mesh_element_type(mesh, e);
  double scale = dim == 2 ? 0.25 : 0.125;
  double J[3][3] = {{0}}; /* J[k][d] = d x_d / d xi_k */
  for (int i = 0; i < nv; i++) {
    const double *r = hdgcl_element_reference_vertex(type, i);
    const double *x = mesh->coords + (int64_t)v[i] * dim;
    for (int k = 0; k < dim; k++) {
      double dN = scale * r[k];
      for (int d = 0; d < dim; d++)
        if (d != k) dN *= 1 + r[d] * xi[d];
      for (int d = 0; d < dim; d++) J[k][d] += dN * x[d];
    }
  }
  return dim == 2 ? det2(J[0], J[1]) : det3(J[0], J[1], J[2]);
}

static bool is_simplex(hdgcl_element_type type) {
  return type == HDGCL_TRIANGLE || type == HDGCL_TETRAHEDRON;
}

double hdgcl_mesh_element_measure(const hdgcl_mesh *mesh, int32_t e) {
  if (mesh->geometry_order > 1) return hdgcl_mesh_curved_measure(mesh, e);
  if (is_simplex(hdgcl_mesh_element_type(mesh, e))) {
    /* reference measures: triangle 2, tetrahedron 4/3 */
    return simplex_jacobian(mesh, e) * (mesh->dim == 2 ? 2.0 : 4.0 / 3.0);
  }
  const double g = 1 / sqrt(3.0); /* 2-point Gauss rule, weights 1 */
  double sum = 0;
  int npts = 1 << mesh->dim;
  for (int p = 0; p < npts; p++) {
    double xi[3] = {(p & 1) ? g : -g, (p & 2) ? g : -g, (p & 4) ? g : -g};
    sum += tensor_jacobian(mesh, e, xi);
  }
  return sum;
}

double hdgcl_mesh_element_min_jacobian(const hdgcl_mesh *mesh, int32_t e) {
  if (is_simplex(hdgcl_mesh_element_type(mesh, e))) return simplex_jacobian(mesh, e);
  double lowest = INFINITY;
  for (int i = 0; i < hdgcl_mesh_element_verts(mesh, e); i++) {
    const double *r = hdgcl_element_reference_vertex(hdgcl_mesh_element_type(mesh, e), i);
    double j = tensor_jacobian(mesh, e, r);
    if (j < lowest) lowest = j;
  }
  return lowest;
}

/* Longest edge of element e, the length scale for "zero" Jacobians. */
static double longest_edge(const hdgcl_mesh *mesh, int32_t e) {
  int count;
  const int8_t(*edges)[2] = hdgcl_element_edges(hdgcl_mesh_element_type(mesh, e), &count);
  const int32_t *v = mesh->elem_verts + (int64_t)e * mesh->verts_per_element;
  double longest = 0;
  for (int k = 0; k < count; k++) {
    const double *a = mesh->coords + (int64_t)v[edges[k][0]] * mesh->dim;
    const double *b = mesh->coords + (int64_t)v[edges[k][1]] * mesh->dim;
    double s = 0;
    for (int d = 0; d < mesh->dim; d++) s += (b[d] - a[d]) * (b[d] - a[d]);
    if (s > longest) longest = s;
  }
  return sqrt(longest);
}

hdgcl_element_state hdgcl_mesh_element_state(const hdgcl_mesh *mesh, int32_t e) {
  double h = longest_edge(mesh, e);
  /* Jacobians scale like h^dim; below this they are zero up to rounding. */
  double zero = 1e-12 * pow(h, mesh->dim);
  if (!(h > 0) || !isfinite(h)) return HDGCL_ELEMENT_DEGENERATE;
  if (is_simplex(hdgcl_mesh_element_type(mesh, e))) {
    double j = simplex_jacobian(mesh, e);
    return j > zero    ? HDGCL_ELEMENT_VALID
           : j < -zero ? HDGCL_ELEMENT_INVERTED
                       : HDGCL_ELEMENT_DEGENERATE;
  }
  int positive = 0, negative = 0;
  for (int i = 0; i < hdgcl_mesh_element_verts(mesh, e); i++) {
    const double *r = hdgcl_element_reference_vertex(hdgcl_mesh_element_type(mesh, e), i);
    double j = tensor_jacobian(mesh, e, r);
    if (j > zero)
      positive++;
    else if (j < -zero)
      negative++;
  }
  if (positive == hdgcl_mesh_element_verts(mesh, e)) return HDGCL_ELEMENT_VALID;
  if (negative == hdgcl_mesh_element_verts(mesh, e)) return HDGCL_ELEMENT_INVERTED;
  return HDGCL_ELEMENT_DEGENERATE;
}
