/* Mixed meshes (docs/geometry.md, "Mixed meshes"): elements of several types
 * sorted by type into contiguous ranges (include/hdgcl/mesh.h: num_types,
 * types, type_first), rows of the per-element arrays as wide as the widest
 * type with -1 past an element's own vertices and faces.  Ranges of one type
 * are what the element batches of the device need: each runs as one batch
 * with its type's sizes.  So far 2D: triangles and quadrilaterals, whose
 * faces are all segments; a 3D mixed mesh (tetrahedra, hexahedra, prisms,
 * pyramids) would add the per-face vertex count the same way. */
#include <math.h>
#include <stdlib.h>

#include "core/error.h"
#include "mesh_internal.h"

hdgcl_element_type hdgcl_mesh_element_type(const hdgcl_mesh *mesh, int32_t e) {
  if (mesh->num_types <= 1) return mesh->type;
  for (int i = mesh->num_types - 1; i > 0; i--)
    if (e >= mesh->type_first[i]) return mesh->types[i];
  return mesh->types[0];
}

int hdgcl_mesh_element_verts(const hdgcl_mesh *mesh, int32_t e) {
  if (mesh->num_types <= 1) return mesh->verts_per_element;
  return hdgcl_element_layout_of(hdgcl_mesh_element_type(mesh, e))->verts_per_element;
}

int hdgcl_mesh_element_faces(const hdgcl_mesh *mesh, int32_t e) {
  if (mesh->num_types <= 1) return mesh->faces_per_element;
  return hdgcl_element_layout_of(hdgcl_mesh_element_type(mesh, e))->faces_per_element;
}

int hdgcl_mesh_is_mixed(const hdgcl_mesh *mesh) { return mesh && mesh->num_types > 1; }

int32_t hdgcl_mesh_count_type(const hdgcl_mesh *mesh, hdgcl_element_type type) {
  if (mesh->num_types <= 1) return mesh->type == type ? mesh->num_elements : 0;
  for (int i = 0; i < mesh->num_types; i++)
    if (mesh->types[i] == type) return mesh->type_first[i + 1] - mesh->type_first[i];
  return 0;
}

int hdgcl_mesh_allocate_mixed(int num_types, const hdgcl_element_type *types, const int32_t *counts,
                              int32_t num_vertices, hdgcl_mesh **mesh) {
  *mesh = NULL;
  if (num_types < 1 || num_types > 4)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "mixed mesh: %d element types", num_types);
  int widest = 0;
  int64_t total = 0;
  for (int i = 0; i < num_types; i++) {
    const hdgcl_element_layout *l = hdgcl_element_layout_of(types[i]);
    if (!l) return hdgcl_error(HDGCL_ERROR_ARGUMENT, "unknown element type %d", (int)types[i]);
    if (num_types > 1 && l->dim != 2)
      return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                         "mixed mesh: %s elements: mixed meshes are triangles and "
                         "quadrilaterals (2D) so far",
                         hdgcl_element_type_name(types[i]));
    if (i > 0 && types[i] <= types[i - 1])
      return hdgcl_error(HDGCL_ERROR_INTERNAL, "mixed mesh: types not in increasing order");
    if (counts[i] < 0) return hdgcl_error(HDGCL_ERROR_ARGUMENT, "mixed mesh: negative count");
    if (l->verts_per_element > hdgcl_element_layout_of(types[widest])->verts_per_element)
      widest = i;
    total += counts[i];
  }
  if (total > INT32_MAX / 8)
    return hdgcl_error(HDGCL_ERROR_MEMORY, "mixed mesh: %lld elements are too many",
                       (long long)total);
  hdgcl_mesh *m;
  HDGCL_TRY(hdgcl_mesh_allocate(types[widest], num_vertices, (int32_t)total, &m));
  m->type = types[0];
  m->num_types = num_types;
  m->type_first[0] = 0;
  for (int i = 0; i < num_types; i++) {
    m->types[i] = types[i];
    m->type_first[i + 1] = m->type_first[i] + counts[i];
  }
  for (int64_t k = 0; k < total * m->verts_per_element; k++) m->elem_verts[k] = -1;
  *mesh = m;
  return HDGCL_SUCCESS;
}

int hdgcl_mesh_create_mixed_square(int n, hdgcl_mesh **mesh) {
  if (!mesh)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "hdgcl_mesh_create_mixed_square: mesh is NULL");
  *mesh = NULL;
  if (n < 2 || n % 2 || n > 4096)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                       "mixed square mesh: n = %d; n must be even, from 2 to 4096", n);
  const double lo[2] = {0.0, 0.0}, hi[2] = {1.0, 1.0};
  int h = n / 2; /* columns of triangles, then of quadrilaterals */
  const hdgcl_element_type types[2] = {HDGCL_TRIANGLE, HDGCL_QUADRILATERAL};
  const int32_t counts[2] = {2 * h * n, (n - h) * n};
  hdgcl_mesh *m;
  HDGCL_TRY(hdgcl_mesh_allocate_mixed(2, types, counts, (n + 1) * (n + 1), &m));
  for (int j = 0; j <= n; j++)
    for (int i = 0; i <= n; i++) {
      int64_t v = i + (int64_t)(n + 1) * j;
      m->coords[2 * v] = hdgcl_grid_coordinate(lo[0], hi[0], i, n);
      m->coords[2 * v + 1] = hdgcl_grid_coordinate(lo[1], hi[1], j, n);
    }
  int32_t *ev = m->elem_verts, t = 0, q = counts[0];
  for (int j = 0; j < n; j++)
    for (int i = 0; i < n; i++) {
      int32_t a = i + (n + 1) * j, b = a + 1, c = b + n + 1, d = a + n + 1;
      if (i < h) { /* "/": (a, b, c) and (a, c, d), counter-clockwise */
        int32_t *v = ev + 4 * (int64_t)t++;
        v[0] = a, v[1] = b, v[2] = c;
        v = ev + 4 * (int64_t)t++;
        v[0] = a, v[1] = c, v[2] = d;
      } else {
        int32_t *v = ev + 4 * (int64_t)q++;
        v[0] = a, v[1] = b, v[2] = c, v[3] = d;
      }
    }
  return hdgcl_structured_finish(m, lo, hi, mesh);
}

/* Boundary vertices sorted by x (for the search below). */
static _Thread_local const double *sort_coords;
static int compare_x(const void *pa, const void *pb) {
  double a = sort_coords[2 * (int64_t) * (const int32_t *)pa],
         b = sort_coords[2 * (int64_t) * (const int32_t *)pb];
  return a < b ? -1 : a > b;
}

int hdgcl_mesh_check_conforming(const hdgcl_mesh *mesh, int32_t bad[4]) {
  bad[0] = bad[1] = bad[2] = bad[3] = -1;
  if (mesh->dim != 2 || mesh->num_faces == mesh->num_interior_faces) return HDGCL_SUCCESS;
  int32_t nb = mesh->num_faces - mesh->num_interior_faces, *verts = NULL, n = 0;
  bool *seen = NULL;
  int status = HDGCL_SUCCESS;
  HDGCL_TRY_GOTO(status,
                 hdgcl_calloc((size_t)mesh->num_vertices + 1, sizeof *seen, "conformity check", &seen),
                 done);
  HDGCL_TRY_GOTO(status,
                 hdgcl_calloc(2 * (size_t)nb + 1, sizeof *verts, "conformity check", &verts), done);
  for (int32_t f = mesh->num_interior_faces; f < mesh->num_faces; f++)
    for (int j = 0; j < 2; j++) {
      int32_t v = mesh->face_verts[2 * (int64_t)f + j];
      if (!seen[v]) seen[v] = true, verts[n++] = v;
    }
  sort_coords = mesh->coords;
  qsort(verts, (size_t)n, sizeof *verts, compare_x);
  const double *x = mesh->coords;
  for (int32_t f = mesh->num_interior_faces; f < mesh->num_faces && bad[0] < 0; f++) {
    int32_t a = mesh->face_verts[2 * (int64_t)f], b = mesh->face_verts[2 * (int64_t)f + 1];
    double ax = x[2 * (int64_t)a], ay = x[2 * (int64_t)a + 1], dx = x[2 * (int64_t)b] - ax,
           dy = x[2 * (int64_t)b + 1] - ay, len2 = dx * dx + dy * dy;
    double lo = fmin(ax, ax + dx), hi = fmax(ax, ax + dx), tol = 1e-10 * sqrt(len2);
    int32_t i0 = 0, i1 = n; /* the first vertex with x >= lo - tol */
    while (i0 < i1) {
      int32_t mid = i0 + (i1 - i0) / 2;
      if (x[2 * (int64_t)verts[mid]] < lo - tol) i0 = mid + 1;
      else i1 = mid;
    }
    for (int32_t i = i0; i < n && x[2 * (int64_t)verts[i]] <= hi + tol; i++) {
      int32_t v = verts[i];
      if (v == a || v == b) continue;
      double px = x[2 * (int64_t)v] - ax, py = x[2 * (int64_t)v + 1] - ay;
      double t = (px * dx + py * dy) / len2, cross = fabs(px * dy - py * dx) / sqrt(len2);
      if (t > 1e-10 && t < 1 - 1e-10 && cross <= tol) {
        int32_t e = mesh->face_elems[2 * (int64_t)f];
        bad[0] = e, bad[1] = a, bad[2] = b, bad[3] = v;
        status = hdgcl_error(HDGCL_ERROR_MESH,
                             "%s %d: its face %d (vertices %d, %d) does not match its neighbours: "
                             "vertex %d lies inside it (a hanging node; the faces of a mixed mesh "
                             "must match across element types)",
                             hdgcl_element_type_name(hdgcl_mesh_element_type(mesh, e)), (int)e,
                             (int)mesh->face_local[2 * (int64_t)f], (int)a, (int)b, (int)v);
        break;
      }
    }
  }
done:
  free(seen);
  free(verts);
  return status;
}
