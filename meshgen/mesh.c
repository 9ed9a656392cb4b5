/* Mesh creation and destruction, and the reference-element tables of
 * include/hdgcl/mesh.h (vertex coordinates, local faces, edges). */
#include <stdlib.h>

#include "core/error.h"
#include "mesh_internal.h"

/* Reference vertices (Gmsh numbering). */
static const double triangle_vertices[3][2] = {{-1, -1}, {1, -1}, {-1, 1}};
static const double quadrilateral_vertices[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
static const double tetrahedron_vertices[4][3] = {
    {-1, -1, -1}, {1, -1, -1}, {-1, 1, -1}, {-1, -1, 1}};
static const double hexahedron_vertices[8][3] = {{-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {-1, 1, -1},
                                                 {-1, -1, 1},  {1, -1, 1},  {1, 1, 1},  {-1, 1, 1}};

/* Local faces: counter-clockwise edges in 2D; in 3D ordered so that
 * (v1-v0)x(vlast-v0) points out of the element. */
static const int8_t triangle_faces[3][2] = {{0, 1}, {1, 2}, {2, 0}};
static const int8_t quadrilateral_faces[4][2] = {{0, 1}, {1, 2}, {2, 3}, {3, 0}};
static const int8_t tetrahedron_faces[4][3] = {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}};
static const int8_t hexahedron_faces[6][4] = {{0, 3, 2, 1}, {0, 1, 5, 4}, {1, 2, 6, 5},
                                              {2, 3, 7, 6}, {3, 0, 4, 7}, {4, 5, 6, 7}};

/* Edges (pairs of local vertices). */
static const int8_t triangle_edges[3][2] = {{0, 1}, {1, 2}, {2, 0}};
static const int8_t quadrilateral_edges[4][2] = {{0, 1}, {1, 2}, {2, 3}, {3, 0}};
static const int8_t tetrahedron_edges[6][2] = {{0, 1}, {1, 2}, {2, 0}, {0, 3}, {1, 3}, {2, 3}};
static const int8_t hexahedron_edges[12][2] = {{0, 1}, {1, 2}, {2, 3}, {3, 0}, {4, 5}, {5, 6},
                                               {6, 7}, {7, 4}, {0, 4}, {1, 5}, {2, 6}, {3, 7}};

static const hdgcl_element_layout layouts[4] = {
    [HDGCL_TRIANGLE] = {2, 3, 3, 2},
    [HDGCL_QUADRILATERAL] = {2, 4, 4, 2},
    [HDGCL_TETRAHEDRON] = {3, 4, 4, 3},
    [HDGCL_HEXAHEDRON] = {3, 8, 6, 4},
};

const hdgcl_element_layout *hdgcl_element_layout_of(hdgcl_element_type type) {
  return (int)type >= 0 && (int)type < 4 ? &layouts[type] : NULL;
}

const char *hdgcl_element_type_name(hdgcl_element_type type) {
  switch (type) {
  case HDGCL_TRIANGLE: return "triangle";
  case HDGCL_QUADRILATERAL: return "quadrilateral";
  case HDGCL_TETRAHEDRON: return "tetrahedron";
  case HDGCL_HEXAHEDRON: return "hexahedron";
  }
  return "unknown";
}

const double *hdgcl_element_reference_vertex(hdgcl_element_type type, int local_vertex) {
  switch (type) {
  case HDGCL_TRIANGLE:
    return local_vertex >= 0 && local_vertex < 3 ? triangle_vertices[local_vertex] : NULL;
  case HDGCL_QUADRILATERAL:
    return local_vertex >= 0 && local_vertex < 4 ? quadrilateral_vertices[local_vertex] : NULL;
  case HDGCL_TETRAHEDRON:
    return local_vertex >= 0 && local_vertex < 4 ? tetrahedron_vertices[local_vertex] : NULL;
  case HDGCL_HEXAHEDRON:
    return local_vertex >= 0 && local_vertex < 8 ? hexahedron_vertices[local_vertex] : NULL;
  }
  return NULL;
}

const int8_t *hdgcl_element_face_vertices(hdgcl_element_type type, int local_face) {
  switch (type) {
  case HDGCL_TRIANGLE: return local_face >= 0 && local_face < 3 ? triangle_faces[local_face] : NULL;
  case HDGCL_QUADRILATERAL:
    return local_face >= 0 && local_face < 4 ? quadrilateral_faces[local_face] : NULL;
  case HDGCL_TETRAHEDRON:
    return local_face >= 0 && local_face < 4 ? tetrahedron_faces[local_face] : NULL;
  case HDGCL_HEXAHEDRON:
    return local_face >= 0 && local_face < 6 ? hexahedron_faces[local_face] : NULL;
  }
  return NULL;
}

const int8_t (*hdgcl_element_edges(hdgcl_element_type type, int *count))[2] {
  switch (type) {
  case HDGCL_TRIANGLE: *count = 3; return triangle_edges;
  case HDGCL_QUADRILATERAL: *count = 4; return quadrilateral_edges;
  case HDGCL_TETRAHEDRON: *count = 6; return tetrahedron_edges;
  case HDGCL_HEXAHEDRON: *count = 12; return hexahedron_edges;
  }
  *count = 0;
  return NULL;
}

int hdgcl_mesh_allocate(hdgcl_element_type type, int32_t num_vertices, int32_t num_elements,
                        hdgcl_mesh **mesh) {
  *mesh = NULL;
  const hdgcl_element_layout *layout = hdgcl_element_layout_of(type);
  if (!layout) return hdgcl_error(HDGCL_ERROR_ARGUMENT, "unknown element type %d", (int)type);
  if (num_vertices < 0 || num_elements < 0)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "negative mesh size (%d vertices, %d elements)",
                       (int)num_vertices, (int)num_elements);
  hdgcl_mesh *m;
  HDGCL_TRY(hdgcl_calloc(1, sizeof *m, "mesh", &m));
  m->type = type;
  m->dim = layout->dim;
  m->verts_per_element = layout->verts_per_element;
  m->faces_per_element = layout->faces_per_element;
  m->verts_per_face = layout->verts_per_face;
  m->geometry_order = 1;
  m->nodes_per_element = layout->verts_per_element;
  m->num_vertices = num_vertices;
  m->num_elements = num_elements;
  int status;
  HDGCL_TRY_GOTO(status,
                 hdgcl_calloc((size_t)num_vertices * (size_t)m->dim, sizeof(double),
                              "mesh vertex coordinates", &m->coords),
                 fail);
  HDGCL_TRY_GOTO(status,
                 hdgcl_calloc((size_t)num_elements * (size_t)m->verts_per_element, sizeof(int32_t),
                              "mesh element vertices", &m->elem_verts),
                 fail);
  HDGCL_TRY_GOTO(
      status,
      hdgcl_calloc((size_t)num_elements, sizeof(int32_t), "mesh element tags", &m->elem_tags),
      fail);
  *mesh = m;
  return HDGCL_SUCCESS;
fail:
  hdgcl_mesh_destroy(&m);
  return status;
}

void hdgcl_mesh_free_topology(hdgcl_mesh *mesh) {
  free(mesh->face_verts);
  free(mesh->face_elems);
  free(mesh->face_local);
  free(mesh->face_orient);
  free(mesh->face_tags);
  free(mesh->elem_faces);
  free(mesh->elem_face_orient);
  mesh->face_verts = NULL;
  mesh->face_elems = NULL;
  mesh->face_local = NULL;
  mesh->face_orient = NULL;
  mesh->face_tags = NULL;
  mesh->elem_faces = NULL;
  mesh->elem_face_orient = NULL;
  mesh->num_faces = 0;
  mesh->num_interior_faces = 0;
}

int hdgcl_mesh_destroy(hdgcl_mesh **mesh) {
  if (!mesh || !*mesh) return HDGCL_SUCCESS;
  hdgcl_mesh *m = *mesh;
  hdgcl_mesh_free_topology(m);
  free(m->coords);
  free(m->elem_verts);
  free(m->elem_tags);
  free(m->elem_nodes);
  free(m->tag_names);
  free(m);
  *mesh = NULL;
  return HDGCL_SUCCESS;
}
