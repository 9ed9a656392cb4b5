/* Straight-sided and curved elements of a curved mesh (docs/geometry.md,
 * "Element batches"): an element of geometry order g > 1 is straight when
 * each of its geometry nodes lies where the vertex map (linear on simplices,
 * bilinear/trilinear on quads/hexes) puts the node's reference point, to
 * 1e-10 of the element's size; hdgcl_mesh_sort_straight_first renumbers the
 * elements so that the straight ones come first, which lets the device run
 * them as one batch of the affine (vertex-map) path and the rest as one batch
 * of the mapped path. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "mesh_internal.h"

int hdgcl_mesh_element_straight(const hdgcl_mesh *mesh, int32_t e) {
  int g = mesh->geometry_order, d = mesh->dim, nv = mesh->verts_per_element;
  if (g <= 1 || !mesh->elem_nodes) return 1;
  const int8_t *index;
  int nodes = hdgcl_geometry_nodes(mesh->type, g, &index);
  const double *x = mesh->elem_nodes + (size_t)e * nodes * d; /* vertices first */
  double h = 0.0; /* size: the largest distance of a vertex from vertex 0 */
  for (int a = 1; a < nv; a++) {
    double s = 0.0;
    for (int k = 0; k < d; k++) s += (x[a * d + k] - x[k]) * (x[a * d + k] - x[k]);
    if (s > h) h = s;
  }
  h = sqrt(h);
  for (int a = nv; a < nodes; a++) {
    double xi[3], n[8], dn[8 * 3];
    for (int k = 0; k < d; k++) xi[k] = -1.0 + 2.0 * index[a * d + k] / g; /* include/hdgcl/mesh.h */
    hdgcl_geometry_functions(mesh->type, 1, xi, n, dn);
    for (int k = 0; k < d; k++) {
      double v = 0.0;
      for (int b = 0; b < nv; b++) v += n[b] * x[b * d + k];
      if (fabs(v - x[a * d + k]) > 1e-10 * h) return 0;
    }
  }
  return 1;
}

int32_t hdgcl_mesh_count_straight(const hdgcl_mesh *mesh) {
  int32_t count = 0;
  for (int32_t e = 0; e < mesh->num_elements; e++) count += hdgcl_mesh_element_straight(mesh, e);
  return count;
}

int32_t hdgcl_mesh_straight_prefix(const hdgcl_mesh *mesh) {
  int32_t e = 0;
  while (e < mesh->num_elements && hdgcl_mesh_element_straight(mesh, e)) e++;
  return e;
}

/* Rows of width `width` bytes of a per-element array moved to their new
 * places: new row order[i] = old row i... as new[i] = old[old_of[i]]. */
static int permute_rows(void *data, size_t width, const int32_t *old_of, int32_t n) {
  if (!data) return HDGCL_SUCCESS;
  char *copy;
  HDGCL_TRY(hdgcl_calloc((size_t)n, width, "element renumbering", &copy));
  for (int32_t i = 0; i < n; i++) memcpy(copy + (size_t)i * width, (char *)data + (size_t)old_of[i] * width, width);
  memcpy(data, copy, (size_t)n * width);
  free(copy);
  return HDGCL_SUCCESS;
}

int hdgcl_mesh_sort_straight_first(hdgcl_mesh *mesh) {
  if (!mesh) return hdgcl_error(HDGCL_ERROR_ARGUMENT, "hdgcl_mesh_sort_straight_first: mesh is NULL");
  if (mesh->geometry_order <= 1) return HDGCL_SUCCESS;
  int32_t ne = mesh->num_elements, *old_of = NULL, *new_of = NULL;
  int status = HDGCL_SUCCESS;
  HDGCL_TRY_GOTO(status, hdgcl_calloc((size_t)ne + 1, sizeof *old_of, "element renumbering", &old_of), done);
  HDGCL_TRY_GOTO(status, hdgcl_calloc((size_t)ne + 1, sizeof *new_of, "element renumbering", &new_of), done);
  int32_t i = 0; /* stable: straight elements in their order, then the curved ones */
  for (int pass = 0; pass < 2; pass++)
    for (int32_t e = 0; e < ne; e++)
      if (hdgcl_mesh_element_straight(mesh, e) == (int)(pass == 0)) old_of[i++] = e;
  for (i = 0; i < ne; i++) new_of[old_of[i]] = i;
  int nv = mesh->verts_per_element, nfc = mesh->faces_per_element;
  HDGCL_TRY_GOTO(status, permute_rows(mesh->elem_verts, nv * sizeof(int32_t), old_of, ne), done);
  HDGCL_TRY_GOTO(status, permute_rows(mesh->elem_tags, sizeof(int32_t), old_of, ne), done);
  HDGCL_TRY_GOTO(status, permute_rows(mesh->elem_nodes, (size_t)mesh->nodes_per_element * mesh->dim * sizeof(double),
                                      old_of, ne), done);
  HDGCL_TRY_GOTO(status, permute_rows(mesh->elem_faces, nfc * sizeof(int32_t), old_of, ne), done);
  HDGCL_TRY_GOTO(status, permute_rows(mesh->elem_face_orient, nfc * sizeof(int8_t), old_of, ne), done);
  /* face_elems: the new numbers; an interior face keeps face_elems[0] <
   * face_elems[1] (include/hdgcl/mesh.h) by swapping its two sides. */
  for (int32_t f = 0; mesh->face_elems && f < mesh->num_faces; f++) {
    int32_t *fe = mesh->face_elems + 2 * (size_t)f;
    fe[0] = new_of[fe[0]];
    if (fe[1] < 0) continue;
    fe[1] = new_of[fe[1]];
    if (fe[0] > fe[1]) {
      int32_t t = fe[0];
      fe[0] = fe[1];
      fe[1] = t;
      int8_t *fl = mesh->face_local + 2 * (size_t)f, *fo = mesh->face_orient + 2 * (size_t)f;
      int8_t l = fl[0], o = fo[0];
      fl[0] = fl[1];
      fl[1] = l;
      fo[0] = fo[1];
      fo[1] = o;
    }
  }
done:
  free(old_of);
  free(new_of);
  return status;
}
