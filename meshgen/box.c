/* Structured meshes of a box: nx x ny x nz cells, each a hexahedron or six
 * tetrahedra.
 *
 * Tetrahedra: the Kuhn (Freudenthal) split.  Each cell is cut along its main
 * diagonal from corner (0,0,0) to (1,1,1); each of the 6 orderings (a,b,c)
 * of the axes gives the tetrahedron whose vertices are the corners reached
 * by walking 0 -> e_a -> e_a+e_b -> e_a+e_b+e_c.  Every cell is split the
 * same way, so the split of a shared cell face (the diagonal through its
 * lowest corner) is the same on both sides: the mesh is conforming. */
#include "core/error.h"
#include "mesh_internal.h"

/* Axis orderings; the odd ones (last three) give negatively oriented walks
 * (det[e_a, e_b, e_c] = -1), so their 2nd and 3rd vertices are swapped. */
static const int axis_orders[6][3] = {{0, 1, 2}, {1, 2, 0}, {2, 0, 1},
                                      {0, 2, 1}, {2, 1, 0}, {1, 0, 2}};

/* Global vertex of cell corner (dx,dy,dz) in {0,1}^3. */
static int32_t corner(const int32_t stride[3], int32_t base, const int delta[3]) {
  return base + delta[0] * stride[0] + delta[1] * stride[1] + delta[2] * stride[2];
}

static void kuhn_tetrahedra(const int32_t stride[3], int32_t base, int32_t *out) {
  for (int t = 0; t < 6; t++) {
    int delta[3] = {0, 0, 0};
    int32_t walk[4];
    walk[0] = corner(stride, base, delta);
    for (int step = 0; step < 3; step++) {
      delta[axis_orders[t][step]] = 1;
      walk[step + 1] = corner(stride, base, delta);
    }
    bool odd = t >= 3;
    out[4 * t + 0] = walk[0];
    out[4 * t + 1] = odd ? walk[2] : walk[1];
    out[4 * t + 2] = odd ? walk[1] : walk[2];
    out[4 * t + 3] = walk[3];
  }
}

static void hexahedron(const int32_t stride[3], int32_t base, int32_t *out) {
  /* Gmsh order: bottom face (z=0) counter-clockwise seen from +z, then top */
  static const int corners[8][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0},
                                    {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
  for (int k = 0; k < 8; k++) out[k] = corner(stride, base, corners[k]);
}

int hdgcl_mesh_create_box(hdgcl_element_type type, int nx, int ny, int nz, const double lo[3],
                          const double hi[3], hdgcl_mesh **mesh) {
  if (!mesh || !lo || !hi)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "hdgcl_mesh_create_box: NULL argument");
  *mesh = NULL;
  if (type != HDGCL_TETRAHEDRON && type != HDGCL_HEXAHEDRON)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                       "box mesh: element type must be tetrahedron or hexahedron, not %s",
                       hdgcl_element_type_name(type));
  const int n[3] = {nx, ny, nz};
  bool tets = type == HDGCL_TETRAHEDRON;
  int32_t num_vertices, num_elements;
  HDGCL_TRY(hdgcl_structured_check("box mesh", 3, n, lo, hi, tets ? 6 : 1, tets ? 4 : 6,
                                   &num_vertices, &num_elements));
  hdgcl_mesh *m;
  HDGCL_TRY(hdgcl_mesh_allocate(type, num_vertices, num_elements, &m));

  const int32_t stride[3] = {1, nx + 1, (nx + 1) * (ny + 1)};
  for (int k = 0; k <= nz; k++)
    for (int j = 0; j <= ny; j++)
      for (int i = 0; i <= nx; i++) {
        int64_t v = i + (int64_t)stride[1] * j + (int64_t)stride[2] * k;
        m->coords[3 * v] = hdgcl_grid_coordinate(lo[0], hi[0], i, nx);
        m->coords[3 * v + 1] = hdgcl_grid_coordinate(lo[1], hi[1], j, ny);
        m->coords[3 * v + 2] = hdgcl_grid_coordinate(lo[2], hi[2], k, nz);
      }
  int32_t *ev = m->elem_verts;
  for (int k = 0; k < nz; k++)
    for (int j = 0; j < ny; j++)
      for (int i = 0; i < nx; i++) {
        int32_t base = i + stride[1] * j + stride[2] * k;
        if (tets) {
          kuhn_tetrahedra(stride, base, ev);
          ev += 24;
        } else {
          hexahedron(stride, base, ev);
          ev += 8;
        }
      }
  return hdgcl_structured_finish(m, lo, hi, mesh);
}
