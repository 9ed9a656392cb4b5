/* The spherical shell 1 <= r <= 2 (hdgcl_mesh_create_shell): hexahedra of a
 * cubed sphere, n x n cells on each of the cube's six faces and n layers
 * across, straight-sided or curved (geometry order 2 or 3: hexahedra 27, 64).  A point is an
 * integer point (x, y, z) of the cube [0, K]^3's surface (K = n g, g the
 * geometry order) and a layer index R in 0..n g: it lies at radius
 * 1 + R / (n g) along the direction (tan(pi/4 (2x/K - 1)), ...) (the
 * equiangular cubed sphere).  Points of shared vertices and nodes come from
 * the same integers, so they are bitwise equal, and boundary nodes lie on
 * the spheres. */
#include <math.h>
#include <stdlib.h>

#include "core/error.h"
#include "mesh_internal.h"

static void shell_point(const int *c, int R, int K, int layers, double *x) {
  const double quarter = 0.78539816339744830962; /* pi / 4 */
  double d[3], len = 0.0;
  for (int k = 0; k < 3; k++) {
    d[k] = tan(quarter * (2.0 * c[k] / K - 1.0));
    len += d[k] * d[k];
  }
  double r = R == layers ? 2.0 : 1.0 + (double)R / layers;
  for (int k = 0; k < 3; k++) x[k] = r * d[k] / sqrt(len);
}

/* Cube point of face (axis, side) at face lattice (P, Q): the face's
 * tangential axes t1 = axis + 1, t2 = axis + 2 (mod 3); on the side 0 face
 * (P, Q) run along (t2, t1) so that (P, Q, outward) is right-handed. */
static void face_point(int axis, int side, int P, int Q, int K, int *c) {
  int t1 = (axis + 1) % 3, t2 = (axis + 2) % 3;
  c[axis] = side ? K : 0;
  c[side ? t1 : t2] = P;
  c[side ? t2 : t1] = Q;
}

static int compare_keys(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return x < y ? -1 : x > y;
}

int hdgcl_mesh_create_shell(int n, int geometry_order, hdgcl_mesh **mesh) {
  if (!mesh) return hdgcl_error(HDGCL_ERROR_ARGUMENT, "hdgcl_mesh_create_shell: mesh is NULL");
  *mesh = NULL;
  if (geometry_order < 1 || geometry_order > 3)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "shell mesh: geometry order %d is not 1, 2 or 3",
                       geometry_order);
  if (n < 1 || n > 64)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "shell mesh: %d cells per edge is not in 1..64", n);
  int g = geometry_order, K = n * g, layers = n * g, nodes = hdgcl_geometry_nodes(HDGCL_HEXAHEDRON, g, NULL);
  int64_t ne = 6 * (int64_t)n * n * n;
  const int8_t *index;
  hdgcl_geometry_nodes(HDGCL_HEXAHEDRON, g, &index);
  /* Corner keys of every element, sorted and merged: the vertices. */
  int64_t *keys = NULL, *corner = NULL, nkeys = 0;
  int status = HDGCL_SUCCESS;
  hdgcl_mesh *m = NULL;
  HDGCL_TRY(hdgcl_calloc((size_t)ne * 8, sizeof *keys, "shell vertices", &keys));
  HDGCL_TRY_GOTO(status, hdgcl_calloc((size_t)ne * 8, sizeof *corner, "shell vertices", &corner), done);
  for (int pass = 0; pass < 2; pass++) {
    int64_t e = 0;
    for (int face = 0; face < 6; face++)
      for (int layer = 0; layer < n; layer++)
        for (int j = 0; j < n; j++)
          for (int i = 0; i < n; i++, e++)
            for (int a = 0; a < (pass ? nodes : 8); a++) {
              /* node a's lattice index (hex1 corners first: the same for both orders) */
              const int8_t *ia = index + 3 * a;
              int P = i * g + ia[0], Q = j * g + ia[1], R = layer * g + ia[2], c[3];
              face_point(face / 2, face % 2, P, Q, K, c);
              int64_t key = (((int64_t)c[0] * (K + 1) + c[1]) * (K + 1) + c[2]) * (layers + 1) + R;
              if (!pass) {
                keys[nkeys++] = key;
                corner[e * 8 + a] = key;
              } else if (g > 1) {
                shell_point(c, R, K, layers, m->elem_nodes + ((size_t)e * nodes + a) * 3);
              }
            }
    if (pass) break;
    qsort(keys, (size_t)nkeys, sizeof *keys, compare_keys);
    int64_t unique = 0;
    for (int64_t k = 0; k < nkeys; k++)
      if (k == 0 || keys[k] != keys[k - 1]) keys[unique++] = keys[k];
    HDGCL_TRY_GOTO(status, hdgcl_mesh_allocate(HDGCL_HEXAHEDRON, (int32_t)unique, (int32_t)ne, &m), done);
    for (int64_t v = 0; v < unique; v++) { /* decode the key: cube point and layer */
      int64_t key = keys[v];
      int R = (int)(key % (layers + 1)), c[3];
      key /= layers + 1;
      c[2] = (int)(key % (K + 1));
      key /= K + 1;
      c[1] = (int)(key % (K + 1));
      c[0] = (int)(key / (K + 1));
      shell_point(c, R, K, layers, m->coords + 3 * v);
    }
    for (int64_t k = 0; k < ne * 8; k++) {
      const int64_t *hit = bsearch(&corner[k], keys, (size_t)unique, sizeof *keys, compare_keys);
      m->elem_verts[k] = (int32_t)(hit - keys);
    }
    if (g > 1) {
      m->geometry_order = g;
      m->nodes_per_element = nodes;
      HDGCL_TRY_GOTO(status,
                     hdgcl_calloc((size_t)ne * nodes * 3, sizeof(double), "shell geometry nodes",
                                  &m->elem_nodes),
                     done);
    }
  }
  HDGCL_TRY_GOTO(status, hdgcl_mesh_check_curved(m), done);
  HDGCL_TRY_GOTO(status, hdgcl_mesh_build_topology(m), done);
  for (int32_t f = m->num_interior_faces; f < m->num_faces; f++) {
    const double *x = m->coords + 3 * (size_t)m->face_verts[(size_t)f * 4];
    m->face_tags[f] = x[0] * x[0] + x[1] * x[1] + x[2] * x[2] < 2.25 ? 1 : 2;
  }
  HDGCL_TRY_GOTO(status, hdgcl_mesh_set_tag_name(m, 2, 1, "inner"), done);
  HDGCL_TRY_GOTO(status, hdgcl_mesh_set_tag_name(m, 2, 2, "outer"), done);
  *mesh = m;
  m = NULL;
done:
  hdgcl_mesh_destroy(&m);
  free(keys);
  free(corner);
  return status;
}
