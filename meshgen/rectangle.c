/* Structured meshes of a rectangle: nx x ny cells, each a quadrilateral or
 * two triangles split along a diagonal ("/", "\" or a checkerboard of both). */
#include "core/error.h"
#include "mesh_internal.h"

/* The two counter-clockwise triangles of cell (a, b, c, d) = corners
 * (x_i,y_j), (x_i+1,y_j), (x_i+1,y_j+1), (x_i,y_j+1). */
static void split_cell(int32_t a, int32_t b, int32_t c, int32_t d, bool right, int32_t *out) {
  const int32_t right_split[6] = {a, b, c, a, c, d}; /* "/" : diagonal a-c */
  const int32_t left_split[6] = {a, b, d, b, c, d};  /* "\" : diagonal b-d */
  for (int k = 0; k < 6; k++) out[k] = right ? right_split[k] : left_split[k];
}

int hdgcl_mesh_create_rectangle(hdgcl_element_type type, int nx, int ny, const double lo[2],
                                const double hi[2], hdgcl_diagonal diagonal, hdgcl_mesh **mesh) {
  if (!mesh || !lo || !hi)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "hdgcl_mesh_create_rectangle: NULL argument");
  *mesh = NULL;
  if (type != HDGCL_TRIANGLE && type != HDGCL_QUADRILATERAL)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                       "rectangle mesh: element type must be triangle or quadrilateral, not %s",
                       hdgcl_element_type_name(type));
  if (diagonal != HDGCL_DIAGONAL_RIGHT && diagonal != HDGCL_DIAGONAL_LEFT &&
      diagonal != HDGCL_DIAGONAL_ALTERNATING)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "rectangle mesh: unknown diagonal %d", (int)diagonal);
  const int n[2] = {nx, ny};
  bool triangles = type == HDGCL_TRIANGLE;
  int32_t num_vertices, num_elements;
  HDGCL_TRY(hdgcl_structured_check("rectangle mesh", 2, n, lo, hi, triangles ? 2 : 1,
                                   triangles ? 3 : 4, &num_vertices, &num_elements));
  hdgcl_mesh *m;
  HDGCL_TRY(hdgcl_mesh_allocate(type, num_vertices, num_elements, &m));

  for (int j = 0; j <= ny; j++)
    for (int i = 0; i <= nx; i++) {
      int64_t v = i + (int64_t)(nx + 1) * j;
      m->coords[2 * v] = hdgcl_grid_coordinate(lo[0], hi[0], i, nx);
      m->coords[2 * v + 1] = hdgcl_grid_coordinate(lo[1], hi[1], j, ny);
    }
  int32_t *ev = m->elem_verts;
  for (int j = 0; j < ny; j++)
    for (int i = 0; i < nx; i++) {
      int32_t a = i + (nx + 1) * j, b = a + 1, c = b + nx + 1, d = a + nx + 1;
      if (triangles) {
        bool right = diagonal == HDGCL_DIAGONAL_RIGHT ||
                     (diagonal == HDGCL_DIAGONAL_ALTERNATING && (i + j) % 2 == 0);
        split_cell(a, b, c, d, right, ev);
        ev += 6;
      } else {
        ev[0] = a, ev[1] = b, ev[2] = c, ev[3] = d;
        ev += 4;
      }
    }
  return hdgcl_structured_finish(m, lo, hi, mesh);
}
