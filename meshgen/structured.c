/* Pieces shared by the structured generators (rectangle.c, box.c): argument
 * checks, grid coordinates, and boundary tags (and their names) from the
 * sides of the box. */
#include <math.h>

#include "core/error.h"
#include "mesh_internal.h"

int hdgcl_structured_check(const char *what, int dim, const int *n, const double *lo,
                           const double *hi, int64_t elements_per_cell, int faces_per_element,
                           int32_t *num_vertices, int32_t *num_elements) {
  static const char axis_name[3] = {'x', 'y', 'z'};
  int64_t vertices = 1, elements = elements_per_cell;
  double h_min = INFINITY, h_max = 0.0;
  for (int d = 0; d < dim; d++) {
    if (n[d] < 1)
      return hdgcl_error(HDGCL_ERROR_ARGUMENT, "%s: %d cells along %c (need at least 1)", what,
                         n[d], axis_name[d]);
    if (!isfinite(lo[d]) || !isfinite(hi[d]) || !(lo[d] < hi[d]))
      return hdgcl_error(HDGCL_ERROR_ARGUMENT, "%s: empty or invalid range [%g, %g] along %c", what,
                         lo[d], hi[d], axis_name[d]);
    /* Cells whose measures stay normal finite numbers (1e-90 <= h <= 1e90 per
     * axis) and whose vertices are distinct in double precision: "square:4,
     * size=1e200" made triangles of infinite area (found by tests/fuzz/fuzz_spec). */
    double h = (hi[d] - lo[d]) / n[d], scale = fmax(fabs(lo[d]), fabs(hi[d]));
    if (!(h >= 1e-90 && h <= 1e90) || h < 1e-12 * scale)
      return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                         "%s: cells of size %g along %c in [%g, %g] (need 1e-90 to 1e90, and at "
                         "least 1e-12 times the coordinates)",
                         what, h, axis_name[d], lo[d], hi[d]);
    h_min = fmin(h_min, h);
    h_max = fmax(h_max, h);
    /* n[d] < 2^31, so these products stay far below INT64_MAX until they are checked */
    vertices *= (int64_t)n[d] + 1;
    elements *= n[d];
    if (vertices > INT32_MAX || elements * faces_per_element > INT32_MAX)
      return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                         "%s: too many cells for 32-bit indices (at most 2^31-1 vertices and "
                         "element faces)",
                         what);
  }
  /* hdgcl_mesh_validate calls an element degenerate below 1e-12 h^dim (h its
   * longest edge): a tetrahedron of a cell 1e5 times longer than wide is
   * (size=2x1e13 made degenerate triangles, tests/fuzz/fuzz_spec). */
  if (h_max > 1e4 * h_min)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                       "%s: cells of %g by %g: longer than 1e4 times their width (their elements "
                       "would be degenerate)",
                       what, h_max, h_min);
  *num_vertices = (int32_t)vertices;
  *num_elements = (int32_t)elements;
  return HDGCL_SUCCESS;
}

double hdgcl_grid_coordinate(double lo, double hi, int i, int n) {
  /* the last point is hi exactly, so boundary vertices lie exactly on their side */
  return i == n ? hi : lo + (hi - lo) * ((double)i / n);
}

int hdgcl_mesh_tag_box_sides(hdgcl_mesh *mesh, const double *lo, const double *hi) {
  int dim = mesh->dim, vpf = mesh->verts_per_face;
  for (int32_t f = mesh->num_interior_faces; f < mesh->num_faces; f++) {
    const int32_t *v = mesh->face_verts + (int64_t)f * vpf;
    int tag = 0;
    /* side s: axis s/2 at lo (s even) or hi (s odd); tag s+1 */
    for (int s = 0; s < 2 * dim && !tag; s++) {
      int axis = s / 2;
      double plane = s % 2 ? hi[axis] : lo[axis];
      bool on_side = true;
      for (int j = 0; j < vpf && on_side; j++)
        on_side = mesh->coords[(int64_t)v[j] * dim + axis] == plane;
      if (on_side) tag = s + 1;
    }
    if (!tag)
      return hdgcl_error(HDGCL_ERROR_INTERNAL, "boundary face %d lies on no side of the box",
                         (int)f);
    mesh->face_tags[f] = tag;
  }
  static const char *const side_names[6] = {"left", "right", "bottom", "top", "back", "front"};
  for (int s = 0; s < 2 * dim; s++)
    HDGCL_TRY(hdgcl_mesh_set_tag_name(mesh, dim - 1, s + 1, side_names[s]));
  return HDGCL_SUCCESS;
}

int hdgcl_structured_finish(hdgcl_mesh *m, const double *lo, const double *hi, hdgcl_mesh **mesh) {
  int status;
  HDGCL_TRY_GOTO(status, hdgcl_mesh_build_topology(m), fail);
  HDGCL_TRY_GOTO(status, hdgcl_mesh_tag_box_sides(m, lo, hi), fail);
  *mesh = m;
  return HDGCL_SUCCESS;
fail:
  hdgcl_mesh_destroy(&m);
  return status;
}
