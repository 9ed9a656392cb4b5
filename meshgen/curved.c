/* Curved (isoparametric) element geometry: the Lagrange map of order 2 or 3
 * through an element's nodes in Gmsh's node ordering (include/hdgcl/mesh.h),
 * and the check of its Jacobian's sign.  Device twin: cl/fem/geometry.h
 * (GEO_ORDER > 1), which receives the same node tables as -DGEO_INDEX.
 *
 * Quads and hexes: tensor products of the 1D Lagrange polynomials on the
 * equispaced points t_j = -1 + 2 j / k.  Simplices: with the barycentric
 * coordinates lambda_0 = 1 - sum lambda_m, lambda_m = (xi_{m-1} + 1) / 2 and
 * the node's lattice index a (a_0 = k - sum a_m), the equispaced Lagrange
 * function is prod_m l_{a_m}(lambda_m), l_n(s) = prod_{j<n} (k s - j) / (j + 1). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/error.h"
#include "mesh_internal.h"

/* Lattice indices in Gmsh's order (gmsh's MTriangle, MQuadrangle,
 * MTetrahedron, MHexahedron node numbering): vertices, then the nodes of
 * each edge from its first to its second vertex, faces, interior. */
static const int8_t tri1[] = {0, 0, 1, 0, 0, 1};
static const int8_t tri6[] = {0, 0, 2, 0, 0, 2, 1, 0, 1, 1, 0, 1};
static const int8_t tri10[] = {0, 0, 3, 0, 0, 3, 1, 0, 2, 0, 2, 1, 1, 2, 0, 2, 0, 1, 1, 1};
static const int8_t quad1[] = {0, 0, 1, 0, 1, 1, 0, 1};
static const int8_t quad9[] = {0, 0, 2, 0, 2, 2, 0, 2, 1, 0, 2, 1, 1, 2, 0, 1, 1, 1};
static const int8_t quad16[] = {0, 0, 3, 0, 3, 3, 0, 3, 1, 0, 2, 0, 3, 1, 3, 2,
                                2, 3, 1, 3, 0, 2, 0, 1, 1, 1, 2, 1, 2, 2, 1, 2};
static const int8_t tet1[] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
/* edges 0-1, 1-2, 2-0, 3-0, 3-2, 3-1 */
static const int8_t tet10[] = {0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 2, 1, 0, 0,
                               1, 1, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 1, 0, 1};
/* the same edges, two nodes each; face centres of faces 021, 013, 032, 312 */
static const int8_t tet20[] = {0, 0, 0, 3, 0, 0, 0, 3, 0, 0, 0, 3, 1, 0, 0, 2, 0, 0, 2, 1,
                               0, 1, 2, 0, 0, 2, 0, 0, 1, 0, 0, 0, 2, 0, 0, 1, 0, 1, 2, 0,
                               2, 1, 1, 0, 2, 2, 0, 1, 1, 1, 0, 1, 0, 1, 0, 1, 1, 1, 1, 1};
static const int8_t hex1[] = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0,
                              0, 0, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1};
/* edges 01 03 04 12 15 23 26 37 45 47 56 67; faces 0321 0154 0473 1265 2376
 * 4567; centre */
static const int8_t hex27[] = {0, 0, 0, 2, 0, 0, 2, 2, 0, 0, 2, 0, 0, 0, 2, 2, 0, 2, 2, 2, 2,
                               0, 2, 2, 1, 0, 0, 0, 1, 0, 0, 0, 1, 2, 1, 0, 2, 0, 1, 1, 2, 0,
                               2, 2, 1, 0, 2, 1, 1, 0, 2, 0, 1, 2, 2, 1, 2, 1, 2, 2, 1, 1, 0,
                               1, 0, 1, 0, 1, 1, 2, 1, 1, 1, 2, 1, 1, 1, 2, 1, 1, 1};

/* Order 3 (Gmsh type 92), read off Gmsh 4.8.4's own hexahedron 64 of the cube
 * [0, 3]^3 (nodes at the integer points): vertices; edges as hex27's, two
 * nodes each from the first vertex; the four inner nodes of each face as
 * hex27's faces, in the face's vertex order; the inner 2 x 2 x 2 as a
 * hexahedron's vertices. */
static const int8_t hex64[] = {0, 0, 0, 3, 0, 0, 3, 3, 0, 0, 3, 0, 0, 0, 3, 3, 0, 3, 3, 3, 3, 0, 3, 3,
                               1, 0, 0, 2, 0, 0, 0, 1, 0, 0, 2, 0, 0, 0, 1, 0, 0, 2, 3, 1, 0, 3, 2, 0,
                               3, 0, 1, 3, 0, 2, 2, 3, 0, 1, 3, 0, 3, 3, 1, 3, 3, 2, 0, 3, 1, 0, 3, 2,
                               1, 0, 3, 2, 0, 3, 0, 1, 3, 0, 2, 3, 3, 1, 3, 3, 2, 3, 2, 3, 3, 1, 3, 3,
                               1, 1, 0, 1, 2, 0, 2, 2, 0, 2, 1, 0, 1, 0, 1, 2, 0, 1, 2, 0, 2, 1, 0, 2,
                               0, 1, 1, 0, 1, 2, 0, 2, 2, 0, 2, 1, 3, 1, 1, 3, 2, 1, 3, 2, 2, 3, 1, 2,
                               2, 3, 1, 1, 3, 1, 1, 3, 2, 2, 3, 2, 1, 1, 3, 2, 1, 3, 2, 2, 3, 1, 2, 3,
                               1, 1, 1, 2, 1, 1, 2, 2, 1, 1, 2, 1, 1, 1, 2, 2, 1, 2, 2, 2, 2, 1, 2, 2};

int hdgcl_geometry_nodes(hdgcl_element_type type, int order, const int8_t **index) {
  const int8_t *table = NULL;
  int count = 0;
  switch (type) {
  case HDGCL_TRIANGLE:
    table = order == 1 ? tri1 : order == 2 ? tri6 : order == 3 ? tri10 : NULL;
    count = order == 1 ? 3 : order == 2 ? 6 : order == 3 ? 10 : 0;
    break;
  case HDGCL_QUADRILATERAL:
    table = order == 1 ? quad1 : order == 2 ? quad9 : order == 3 ? quad16 : NULL;
    count = order == 1 ? 4 : order == 2 ? 9 : order == 3 ? 16 : 0;
    break;
  case HDGCL_TETRAHEDRON:
    table = order == 1 ? tet1 : order == 2 ? tet10 : order == 3 ? tet20 : NULL;
    count = order == 1 ? 4 : order == 2 ? 10 : order == 3 ? 20 : 0;
    break;
  case HDGCL_HEXAHEDRON:
    table = order == 1 ? hex1 : order == 2 ? hex27 : order == 3 ? hex64 : NULL;
    count = order == 1 ? 8 : order == 2 ? 27 : order == 3 ? 64 : 0;
    break;
  }
  if (index) *index = table;
  return count;
}

/* l_n(s) = prod_{j<n} (k s - j) / (j + 1) and its derivative in s. */
static void lattice_factor(int n, int k, double s, double *value, double *slope) {
  double v = 1.0, d = 0.0;
  for (int j = 0; j < n; j++) {
    double f = (k * s - j) / (j + 1);
    d = d * f + v * k / (j + 1);
    v *= f;
  }
  *value = v;
  *slope = d;
}

/* 1D Lagrange polynomial j of the points -1 + 2 i / k at t, and its derivative. */
static void lagrange_1d(int j, int k, double t, double *value, double *slope) {
  double v = 1.0, d = 0.0, tj = -1.0 + 2.0 * j / k;
  for (int i = 0; i <= k; i++) {
    if (i == j) continue;
    double ti = -1.0 + 2.0 * i / k, f = (t - ti) / (tj - ti);
    d = d * f + v / (tj - ti);
    v *= f;
  }
  *value = v;
  *slope = d;
}

void hdgcl_geometry_functions(hdgcl_element_type type, int order, const double *xi, double *n,
                              double *dn) {
  const int8_t *index;
  int count = hdgcl_geometry_nodes(type, order, &index);
  int dim = type == HDGCL_TRIANGLE || type == HDGCL_QUADRILATERAL ? 2 : 3;
  bool simplex = type == HDGCL_TRIANGLE || type == HDGCL_TETRAHEDRON;
  for (int a = 0; a < count; a++) {
    const int8_t *ia = index + a * dim;
    double v[4], s[4];
    if (simplex) {
      /* factors m = 0 (lambda_0) .. dim; d lambda_0 / d xi_l = -1/2, d lambda_m / d xi_{m-1} = 1/2 */
      double lam0 = 1.0;
      int a0 = order;
      for (int m = 1; m <= dim; m++) {
        double lam = 0.5 * (xi[m - 1] + 1.0);
        lam0 -= lam;
        a0 -= ia[m - 1];
        lattice_factor(ia[m - 1], order, lam, &v[m], &s[m]);
      }
      lattice_factor(a0, order, lam0, &v[0], &s[0]);
      double prod = v[0];
      for (int m = 1; m <= dim; m++) prod *= v[m];
      n[a] = prod;
      for (int l = 0; l < dim; l++) {
        /* product rule over factors 0 and l + 1, the only ones depending on xi_l */
        double g0 = -0.5 * s[0], g1 = 0.5 * s[l + 1];
        double rest0 = 1.0, rest1 = 1.0;
        for (int m = 0; m <= dim; m++) {
          if (m != 0) rest0 *= v[m];
          if (m != l + 1) rest1 *= v[m];
        }
        dn[a * dim + l] = g0 * rest0 + g1 * rest1;
      }
    } else {
      for (int l = 0; l < dim; l++) lagrange_1d(ia[l], order, xi[l], &v[l], &s[l]);
      double prod = 1.0;
      for (int l = 0; l < dim; l++) prod *= v[l];
      n[a] = prod;
      for (int l = 0; l < dim; l++) {
        double g = s[l];
        for (int m = 0; m < dim; m++)
          if (m != l) g *= v[m];
        dn[a * dim + l] = g;
      }
    }
  }
}

double hdgcl_mesh_map(const hdgcl_mesh *mesh, int32_t e, const double *xi, double *x, double *jac) {
  int d = mesh->dim, order = mesh->geometry_order > 1 ? mesh->geometry_order : 1;
  int count = order > 1 ? mesh->nodes_per_element : hdgcl_mesh_element_verts(mesh, e);
  int stride = order > 1 ? mesh->nodes_per_element : mesh->verts_per_element; /* mixed: wider */
  double n[64], dn[64 * 3];
  hdgcl_geometry_functions(hdgcl_mesh_element_type(mesh, e), order, xi, n, dn);
  for (int k = 0; k < d; k++) x[k] = 0.0;
  for (int k = 0; k < d * d; k++) jac[k] = 0.0;
  for (int a = 0; a < count; a++) {
    const double *xa = order > 1 ? mesh->elem_nodes + ((size_t)e * stride + a) * d
                                 : mesh->coords + (size_t)mesh->elem_verts[(size_t)e * stride + a] * d;
    for (int k = 0; k < d; k++) {
      x[k] += n[a] * xa[k];
      for (int l = 0; l < d; l++) jac[k * d + l] += xa[k] * dn[a * d + l];
    }
  }
  if (d == 2) return jac[0] * jac[3] - jac[1] * jac[2];
  return jac[0] * (jac[4] * jac[8] - jac[5] * jac[7]) - jac[1] * (jac[3] * jac[8] - jac[5] * jac[6]) +
         jac[2] * (jac[3] * jac[7] - jac[4] * jac[6]);
}

/* Gauss-Legendre points of the 4-point rule on [-1,1]. */
static const double gauss4[4] = {-0.861136311594052575, -0.339981043584856265,
                                 0.339981043584856265, 0.861136311594052575};

static const double gauss4_weights[4] = {0.347854845137453857, 0.652145154862546143,
                                         0.652145154862546143, 0.347854845137453857};

double hdgcl_mesh_curved_measure(const hdgcl_mesh *mesh, int32_t e) {
  int d = mesh->dim, npts = d == 2 ? 16 : 64;
  bool simplex = mesh->type == HDGCL_TRIANGLE || mesh->type == HDGCL_TETRAHEDRON;
  double sum = 0.0;
  for (int p = 0; p < npts; p++) {
    int i[3] = {p % 4, (p / 4) % 4, (p / 16) % 4};
    double xi[3], w = 1.0;
    for (int k = 0; k < d; k++) xi[k] = gauss4[i[k]], w *= gauss4_weights[i[k]];
    if (simplex) { /* Duffy: the cube [-1,1]^d onto the simplex, Jacobian of the collapse */
      double t[3] = {0.5 * (xi[0] + 1), 0.5 * (xi[1] + 1), 0.5 * (xi[2] + 1)};
      double s2 = d == 3 ? 1 - t[2] : 1.0;
      xi[0] = 2 * t[0] * (1 - t[1]) * s2 - 1, xi[1] = 2 * t[1] * s2 - 1;
      if (d == 3) xi[2] = 2 * t[2] - 1;
      w *= (1 - t[1]) * s2 * s2;
    }
    double x[3], jac[9];
    sum += w * hdgcl_mesh_map(mesh, e, xi, x, jac);
  }
  return sum;
}

int hdgcl_mesh_check_curved_element(const hdgcl_mesh *mesh, int32_t e) {
  int d = mesh->dim;
  bool simplex = mesh->type == HDGCL_TRIANGLE || mesh->type == HDGCL_TETRAHEDRON;
  int npts = d == 2 ? 16 : 64;
  double scale = 0.0; /* Jacobians scale like h^dim: the largest one seen */
  double lowest = INFINITY, where[3] = {0, 0, 0};
  for (int p = 0; p < npts; p++) {
    double xi[3] = {gauss4[p % 4], gauss4[(p / 4) % 4], gauss4[(p / 16) % 4]};
    if (simplex) { /* the collapsed (Duffy) image of the cube's Gauss points */
      double t[3] = {0.5 * (xi[0] + 1), 0.5 * (xi[1] + 1), 0.5 * (xi[2] + 1)};
      double l1 = t[0] * (1 - t[1]) * (d == 3 ? 1 - t[2] : 1.0), l2 = t[1] * (d == 3 ? 1 - t[2] : 1.0);
      double l3 = d == 3 ? t[2] : 0.0;
      xi[0] = 2 * l1 - 1, xi[1] = 2 * l2 - 1, xi[2] = 2 * l3 - 1;
    }
    double x[3], jac[9];
    double j = hdgcl_mesh_map(mesh, e, xi, x, jac);
    if (!isfinite(j)) j = -INFINITY;
    if (fabs(j) > scale) scale = fabs(j);
    if (j < lowest) {
      lowest = j;
      for (int k = 0; k < 3; k++) where[k] = xi[k];
    }
  }
  if (!(lowest > 1e-12 * scale)) {
    char point[96];
    if (d == 2)
      snprintf(point, sizeof point, "(%.3g, %.3g)", where[0], where[1]);
    else
      snprintf(point, sizeof point, "(%.3g, %.3g, %.3g)", where[0], where[1], where[2]);
    return hdgcl_error(HDGCL_ERROR_MESH,
                       "curved element %d is inverted or tangled: Jacobian %.3g at reference "
                       "point %s of its geometry of order %d",
                       (int)e, lowest, point, mesh->geometry_order);
  }
  return HDGCL_SUCCESS;
}

int hdgcl_mesh_check_curved(const hdgcl_mesh *mesh) {
  if (mesh->geometry_order <= 1) return HDGCL_SUCCESS;
  int d = mesh->dim;
  if (hdgcl_mesh_is_mixed(mesh))
    return hdgcl_error(HDGCL_ERROR_MESH, "curved mesh: a mixed mesh (%s and %s elements) of geometry "
                       "order %d: mixed meshes are straight-sided so far",
                       hdgcl_element_type_name(mesh->types[0]), hdgcl_element_type_name(mesh->types[1]),
                       mesh->geometry_order);
  if (mesh->geometry_order > 3 ||
      hdgcl_geometry_nodes(mesh->type, mesh->geometry_order, NULL) != mesh->nodes_per_element ||
      !mesh->elem_nodes)
    return hdgcl_error(HDGCL_ERROR_MESH,
                       "curved mesh: %s elements of geometry order %d with %d nodes are not "
                       "supported",
                       hdgcl_element_type_name(mesh->type), mesh->geometry_order,
                       mesh->nodes_per_element);
  for (int32_t e = 0; e < mesh->num_elements; e++) /* finite nodes; the first ones the vertices */
    for (int a = 0; a < mesh->nodes_per_element; a++)
      for (int k = 0; k < d; k++) {
        double xa = mesh->elem_nodes[((size_t)e * mesh->nodes_per_element + a) * d + k];
        if (!isfinite(xa))
          return hdgcl_error(HDGCL_ERROR_MESH, "curved element %d: node %d has a non-finite "
                             "coordinate", (int)e, a);
        if (a < mesh->verts_per_element &&
            xa != mesh->coords[(size_t)mesh->elem_verts[(size_t)e * mesh->verts_per_element + a] * d + k])
          return hdgcl_error(HDGCL_ERROR_MESH,
                             "curved element %d: geometry node %d is not its vertex %d", (int)e,
                             a, a);
      }
  for (int32_t e = 0; e < mesh->num_elements; e++) HDGCL_TRY(hdgcl_mesh_check_curved_element(mesh, e));
  return HDGCL_SUCCESS;
}
