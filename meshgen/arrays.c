/* A mesh from arrays of points and cells (hdgcl_mesh_create_from_arrays):
 * what a program that made its mesh itself (or read it with another library,
 * e.g. Python's meshio) hands over.  The same steps as the Gmsh reader
 * (gmsh_build.c): mirrored elements reordered, degenerate ones refused, the
 * topology built, boundary faces tagged; errors name the array and index.
 * Mixed meshes (triangles and quadrilaterals) come with their cells sorted
 * by type (hdgcl_mesh_create_from_arrays_mixed; the validation checks that
 * their faces match across the types). */
#include <math.h>
#include <stdlib.h>

#include "core/error.h"
#include "mesh_internal.h"

/* The element types of the arrays: num_types types, counts[i] cells of
 * types[i] in that order (one type: counts[0] is num_elements); the rows of
 * elem_verts as wide as the widest type, -1 past a cell's own vertices. */
typedef struct cell_types {
  int num_types;
  const hdgcl_element_type *types;
  const int32_t *counts;
} cell_types;

static int check_arrays(cell_types ct, int32_t num_vertices, const double *coords,
                        int32_t num_elements, const int32_t *elem_verts, const int32_t *elem_tags,
                        int32_t num_tagged_faces, const int32_t *face_verts,
                        const int32_t *face_tags) {
  const hdgcl_element_layout *layout = NULL;
  int stride = 0;
  for (int i = 0; i < ct.num_types; i++) {
    const hdgcl_element_layout *l = hdgcl_element_layout_of(ct.types[i]);
    if (!l)
      return hdgcl_error(HDGCL_ERROR_ARGUMENT, "mesh from arrays: unknown element type %d",
                         (int)ct.types[i]);
    if (!layout || l->faces_per_element > layout->faces_per_element) layout = l;
    if (l->verts_per_element > stride) stride = l->verts_per_element;
  }
  if (num_vertices < 1 || num_elements < 1)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                       "mesh from arrays: %d points and %d cells (need at least one of each)",
                       (int)num_vertices, (int)num_elements);
  if (num_tagged_faces < 0)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "mesh from arrays: %d tagged faces (negative)",
                       (int)num_tagged_faces);
  if (!coords || !elem_verts || (num_tagged_faces > 0 && (!face_verts || !face_tags)))
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "mesh from arrays: %s is NULL",
                       !coords ? "coords" : !elem_verts ? "elem_verts"
                       : !face_verts ? "face_verts" : "face_tags");
  if ((int64_t)num_elements * layout->faces_per_element > INT32_MAX)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                       "mesh from arrays: %d cells have too many faces for 32-bit indices",
                       (int)num_elements);
  int dim = layout->dim, vpf = layout->verts_per_face;
  for (int64_t i = 0; i < (int64_t)num_vertices * dim; i++)
    if (!isfinite(coords[i]))
      return hdgcl_error(HDGCL_ERROR_ARGUMENT, "mesh from arrays: point %lld has coordinate %g",
                         (long long)(i / dim), coords[i]);
  int type_index = 0;
  int64_t type_end = ct.counts[0];
  for (int64_t e = 0; e < num_elements; e++) {
    while (e >= type_end) type_end += ct.counts[++type_index];
    int vpe = hdgcl_element_layout_of(ct.types[type_index])->verts_per_element;
    for (int k = vpe; k < stride; k++)
      if (elem_verts[e * stride + k] != -1)
        return hdgcl_error(HDGCL_ERROR_ARGUMENT, "mesh from arrays: cell %lld (%s) has %d vertex "
                           "slots past its %d (need -1)", (long long)e,
                           hdgcl_element_type_name(ct.types[type_index]), stride - vpe, vpe);
    for (int k = 0; k < vpe; k++) {
      int32_t v = elem_verts[e * stride + k];
      if (v < 0 || v >= num_vertices)
        return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                           "mesh from arrays: cell %lld has vertex %d, out of range 0..%d",
                           (long long)e, (int)v, (int)num_vertices - 1);
      for (int j = 0; j < k; j++)
        if (elem_verts[e * stride + j] == v)
          return hdgcl_error(HDGCL_ERROR_MESH, "mesh from arrays: cell %lld has vertex %d twice",
                             (long long)e, (int)v);
    }
    if (elem_tags && elem_tags[e] < 0)
      return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                         "mesh from arrays: cell %lld has tag %d (tags are >= 0; 0: none)",
                         (long long)e, (int)elem_tags[e]);
  }
  for (int64_t f = 0; f < num_tagged_faces; f++) {
    for (int k = 0; k < vpf; k++) {
      int32_t v = face_verts[f * vpf + k];
      if (v < 0 || v >= num_vertices)
        return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                           "mesh from arrays: tagged face %lld has vertex %d, out of range 0..%d",
                           (long long)f, (int)v, (int)num_vertices - 1);
    }
    if (face_tags[f] < 1)
      return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                         "mesh from arrays: tagged face %lld has tag %d (need >= 1)",
                         (long long)f, (int)face_tags[f]);
  }
  return HDGCL_SUCCESS;
}

/* Every point is a vertex of some element (an unused point would still
 * count in the bounding box and in h). */
static int check_used(const hdgcl_mesh *m) {
  char *used;
  HDGCL_TRY(hdgcl_calloc((size_t)m->num_vertices, 1, "used points", &used));
  for (int64_t k = 0; k < (int64_t)m->num_elements * m->verts_per_element; k++)
    if (m->elem_verts[k] >= 0) used[m->elem_verts[k]] = 1; /* -1: past a mixed mesh's cell */
  int32_t unused = -1;
  for (int32_t v = 0; v < m->num_vertices && unused < 0; v++)
    if (!used[v]) unused = v;
  free(used);
  if (unused >= 0)
    return hdgcl_error(HDGCL_ERROR_MESH,
                       "mesh from arrays: point %d is a vertex of no cell (drop unused points)",
                       (int)unused);
  return HDGCL_SUCCESS;
}

/* hdgcl_mesh_orient_elements, its refusal named as a cell of the arrays. */
static int orient(hdgcl_mesh *m) {
  int32_t e;
  int status = hdgcl_mesh_orient_elements(m, &e);
  if (status == HDGCL_SUCCESS || e < 0) return status;
  return hdgcl_error(HDGCL_ERROR_MESH,
                     "mesh from arrays: cell %d (%s) is degenerate (zero %s, or a collapsed "
                     "or twisted shape)",
                     (int)e, hdgcl_element_type_name(hdgcl_mesh_element_type(m, e)),
                     m->dim == 2 ? "area" : "volume");
}

static int topology(hdgcl_mesh *m) {
  hdgcl_face_conflict conflict;
  int status = hdgcl_mesh_build_topology_conflict(m, &conflict);
  if (status == HDGCL_SUCCESS || conflict.count == 0) return status;
  if (conflict.count == 1)
    return hdgcl_error(status, "mesh from arrays: cell %d %s", (int)conflict.elements[0],
                       conflict.reason);
  if (conflict.count == 2)
    return hdgcl_error(status, "mesh from arrays: cells %d and %d %s", (int)conflict.elements[0],
                       (int)conflict.elements[1], conflict.reason);
  return hdgcl_error(status, "mesh from arrays: cells %d, %d and %d %s",
                     (int)conflict.elements[0], (int)conflict.elements[1],
                     (int)conflict.elements[2], conflict.reason);
}

/* Boundary tags; as in Gmsh files the first tag given to a face wins, and tags
 * on interior faces (an interface between regions) are ignored. */
static int tag_faces(hdgcl_mesh *m, int32_t num_tagged_faces, const int32_t *face_verts,
                     const int32_t *face_tags) {
  int vpf = m->verts_per_face;
  for (int64_t i = 0; i < num_tagged_faces; i++) {
    int32_t canonical[HDGCL_MAX_FACE_VERTS];
    int8_t orient_code;
    hdgcl_face_canonical(vpf, face_verts + i * vpf, canonical, &orient_code);
    int32_t f = orient_code >= 0 ? hdgcl_mesh_find_face(m, canonical) : -1;
    if (f < 0)
      return hdgcl_error(HDGCL_ERROR_MESH, "mesh from arrays: tagged face %lld (tag %d) is not a "
                         "face of any cell", (long long)i, (int)face_tags[i]);
    if (f >= m->num_interior_faces && m->face_tags[f] == 0) m->face_tags[f] = face_tags[i];
  }
  return HDGCL_SUCCESS;
}

static int create(cell_types ct, int32_t num_vertices, const double *coords, int32_t num_elements,
                  const int32_t *elem_verts, const int32_t *elem_tags, int32_t num_tagged_faces,
                  const int32_t *face_verts, const int32_t *face_tags, hdgcl_mesh **mesh) {
  if (!mesh) return hdgcl_error(HDGCL_ERROR_ARGUMENT, "mesh from arrays: mesh is NULL");
  *mesh = NULL;
  HDGCL_TRY(check_arrays(ct, num_vertices, coords, num_elements, elem_verts, elem_tags,
                         num_tagged_faces, face_verts, face_tags));
  hdgcl_mesh *m = NULL;
  if (ct.num_types == 1)
    HDGCL_TRY(hdgcl_mesh_allocate(ct.types[0], num_vertices, num_elements, &m));
  else
    HDGCL_TRY(hdgcl_mesh_allocate_mixed(ct.num_types, ct.types, ct.counts, num_vertices, &m));
  for (int64_t i = 0; i < (int64_t)num_vertices * m->dim; i++) m->coords[i] = coords[i];
  for (int64_t k = 0; k < (int64_t)num_elements * m->verts_per_element; k++)
    m->elem_verts[k] = elem_verts[k];
  for (int64_t e = 0; e < num_elements; e++) m->elem_tags[e] = elem_tags ? elem_tags[e] : 0;
  int status;
  HDGCL_TRY_GOTO(status, check_used(m), fail);
  HDGCL_TRY_GOTO(status, orient(m), fail);
  HDGCL_TRY_GOTO(status, topology(m), fail);
  HDGCL_TRY_GOTO(status, tag_faces(m, num_tagged_faces, face_verts, face_tags), fail);
  HDGCL_TRY_GOTO(status, hdgcl_mesh_validate(m), fail);
  *mesh = m;
  return HDGCL_SUCCESS;
fail:
  hdgcl_mesh_destroy(&m);
  return status;
}

int hdgcl_mesh_create_from_arrays(hdgcl_element_type type, int32_t num_vertices,
                                  const double *coords, int32_t num_elements,
                                  const int32_t *elem_verts, const int32_t *elem_tags,
                                  int32_t num_tagged_faces, const int32_t *face_verts,
                                  const int32_t *face_tags, hdgcl_mesh **mesh) {
  cell_types ct = {1, &type, &num_elements};
  return create(ct, num_vertices, coords, num_elements, elem_verts, elem_tags, num_tagged_faces,
                face_verts, face_tags, mesh);
}

int hdgcl_mesh_create_from_arrays_mixed(int num_types, const hdgcl_element_type *types,
                                        const int32_t *counts, int32_t num_vertices,
                                        const double *coords, const int32_t *elem_verts,
                                        const int32_t *elem_tags, int32_t num_tagged_faces,
                                        const int32_t *face_verts, const int32_t *face_tags,
                                        hdgcl_mesh **mesh) {
  if (!mesh) return hdgcl_error(HDGCL_ERROR_ARGUMENT, "mesh from arrays: mesh is NULL");
  *mesh = NULL;
  if (num_types < 1 || num_types > 4 || !types || !counts)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "mesh from arrays: %d element types (1 to 4, with "
                       "their counts)", num_types);
  int64_t total = 0;
  for (int i = 0; i < num_types; i++) {
    if (counts[i] < 1)
      return hdgcl_error(HDGCL_ERROR_ARGUMENT, "mesh from arrays: %d cells of type %s (need at "
                         "least one of each type given)", (int)counts[i],
                         hdgcl_element_type_name(types[i]));
    total += counts[i];
  }
  if (total > INT32_MAX)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "mesh from arrays: %lld cells, more than 2^31-1",
                       (long long)total);
  cell_types ct = {num_types, types, counts};
  return create(ct, num_vertices, coords, (int32_t)total, elem_verts, elem_tags, num_tagged_faces,
                face_verts, face_tags, mesh);
}
