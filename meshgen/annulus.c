/* The annulus 1 <= r <= 2 (hdgcl_mesh_create_annulus): n cells across, 8n
 * around, quadrilaterals or two triangles per cell, straight-sided or curved
 * (geometry order 2, 3).  A geometry node is a point of the lattice of the
 * polar parameters refined `order` times, (I, J) -> r = 1 + I / (n k),
 * theta = 2 pi J / (8 n k) (J taken modulo 8 n k): nodes shared by two
 * elements come from the same integers, so they are bitwise equal, and every
 * boundary node lies on its circle.  With boundary_only (spec ,curve=boundary)
 * only the nodes on the two circles are the polar map's; every other node is
 * where the element's vertex map puts it, as a Gmsh mesh curved at its
 * boundary: the elements away from the circles are straight-sided
 * (meshgen/batches.c), those along them have one curved edge. */
#include <math.h>

#include "core/error.h"
#include "mesh_internal.h"

static void polar_point(int I, int J, int n, int k, double *x) {
  int around = 8 * n * k;
  J %= around;
  double r = I == n * k ? 2.0 : 1.0 + (double)I / (n * k), theta = 2.0 * 3.14159265358979323846 * J / around;
  x[0] = r * cos(theta);
  x[1] = r * sin(theta);
}

/* Node a of element e (vertices already in m->coords) where its vertex map
 * puts the lattice point index[a] (include/hdgcl/mesh.h). */
static void straight_node(const hdgcl_mesh *m, int32_t e, const int8_t *ia, int k, double *x) {
  int nv = m->verts_per_element;
  double xi[2] = {-1.0 + 2.0 * ia[0] / k, -1.0 + 2.0 * ia[1] / k}, nfun[4], dn[8];
  hdgcl_geometry_functions(m->type, 1, xi, nfun, dn);
  x[0] = x[1] = 0.0;
  for (int b = 0; b < nv; b++)
    for (int c = 0; c < 2; c++) x[c] += nfun[b] * m->coords[2 * (size_t)m->elem_verts[(size_t)e * nv + b] + c];
}

static int create_annulus(hdgcl_element_type type, int n, int geometry_order, bool boundary_only,
                          hdgcl_mesh **mesh) {
  if (!mesh) return hdgcl_error(HDGCL_ERROR_ARGUMENT, "hdgcl_mesh_create_annulus: mesh is NULL");
  *mesh = NULL;
  if (type != HDGCL_TRIANGLE && type != HDGCL_QUADRILATERAL)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                       "annulus mesh: element type must be triangle or quadrilateral, not %s",
                       hdgcl_element_type_name(type));
  if (geometry_order < 1 || geometry_order > 3)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "annulus mesh: geometry order %d is not 1, 2 or 3",
                       geometry_order);
  if (n < 1 || n > 4096)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "annulus mesh: %d cells across is not in 1..4096", n);
  bool triangles = type == HDGCL_TRIANGLE;
  int around = 8 * n, k = geometry_order;
  int32_t num_vertices = (n + 1) * around, num_elements = n * around * (triangles ? 2 : 1);
  hdgcl_mesh *m;
  HDGCL_TRY(hdgcl_mesh_allocate(type, num_vertices, num_elements, &m));
  for (int i = 0; i <= n; i++)
    for (int j = 0; j < around; j++) polar_point(i * k, j * k, n, k, m->coords + 2 * (i * around + j));
  int status = HDGCL_SUCCESS;
  const int8_t *index = NULL;
  int nodes = hdgcl_geometry_nodes(type, k, &index);
  if (k > 1) {
    m->geometry_order = k;
    m->nodes_per_element = nodes;
    HDGCL_TRY_GOTO(status,
                   hdgcl_calloc((size_t)num_elements * nodes * 2, sizeof(double),
                                "annulus geometry nodes", &m->elem_nodes),
                   fail);
  }
  int32_t e = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < around; j++) {
      /* cell corners in (radial, angular) cell units, counter-clockwise */
      const int corner[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
      const int split[2][3] = {{0, 1, 2}, {0, 2, 3}};
      for (int part = 0; part < (triangles ? 2 : 1); part++, e++) {
        int nv = triangles ? 3 : 4;
        int c[4];
        for (int a = 0; a < nv; a++) c[a] = triangles ? split[part][a] : a;
        for (int a = 0; a < nv; a++)
          m->elem_verts[(size_t)e * nv + a] =
              (i + corner[c[a]][0]) * around + (j + corner[c[a]][1]) % around;
        for (int a = 0; a < nodes && k > 1; a++) {
          const int8_t *ia = index + 2 * a;
          int I, J;
          if (triangles) { /* corner 0 + a1 (corner 1 - corner 0) + a2 (corner 2 - corner 0) */
            I = i * k + corner[c[0]][0] * k + ia[0] * (corner[c[1]][0] - corner[c[0]][0]) +
                ia[1] * (corner[c[2]][0] - corner[c[0]][0]);
            J = j * k + corner[c[0]][1] * k + ia[0] * (corner[c[1]][1] - corner[c[0]][1]) +
                ia[1] * (corner[c[2]][1] - corner[c[0]][1]);
          } else {
            I = i * k + ia[0];
            J = j * k + ia[1];
          }
          double *x = m->elem_nodes + ((size_t)e * nodes + a) * 2;
          if (boundary_only && I % (n * k) != 0 && a >= nv)
            straight_node(m, e, ia, k, x);
          else
            polar_point(I, J, n, k, x);
        }
      }
    }
  HDGCL_TRY_GOTO(status, hdgcl_mesh_check_curved(m), fail);
  HDGCL_TRY_GOTO(status, hdgcl_mesh_build_topology(m), fail);
  for (int32_t f = m->num_interior_faces; f < m->num_faces; f++) {
    const double *x = m->coords + 2 * (size_t)m->face_verts[(size_t)f * 2];
    m->face_tags[f] = x[0] * x[0] + x[1] * x[1] < 2.25 ? 1 : 2;
  }
  HDGCL_TRY_GOTO(status, hdgcl_mesh_set_tag_name(m, 1, 1, "inner"), fail);
  HDGCL_TRY_GOTO(status, hdgcl_mesh_set_tag_name(m, 1, 2, "outer"), fail);
  *mesh = m;
  return HDGCL_SUCCESS;
fail:
  hdgcl_mesh_destroy(&m);
  return status;
}

int hdgcl_mesh_create_annulus(hdgcl_element_type type, int n, int geometry_order,
                              hdgcl_mesh **mesh) {
  return create_annulus(type, n, geometry_order, false, mesh);
}

int hdgcl_mesh_create_annulus_boundary(hdgcl_element_type type, int n, int geometry_order,
                                       hdgcl_mesh **mesh) {
  return create_annulus(type, n, geometry_order, true, mesh);
}
