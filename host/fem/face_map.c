/* Reference-element faces: face shapes, face-to-element point maps through
 * the orientation codes, and outward normals (see face_map.h).  The
 * orientation permutations below are transcribed from the comments of
 * include/hdgcl/mesh.h. */
#include "fem/face_map.h"

#include <math.h>
#include <stddef.h>

#include "core/error.h"

/* The reference vertices and local faces are the mesh's tables
 * (hdgcl_element_reference_vertex, hdgcl_element_face_vertices: meshgen/mesh.c). */

/* Orientation permutations P_o: local face vertex j is canonical vertex P_o[j]. */
static const int edge_permutations[2][2] = {{0, 1}, {1, 0}};
static const int triangle_permutations[6][3] = {{0, 1, 2}, {1, 2, 0}, {2, 0, 1},
                                                {0, 2, 1}, {2, 1, 0}, {1, 0, 2}};
/* P_r[j] = (j+r) mod 4 (rotations), P_{4+r}[j] = (r-j) mod 4 (reflections). */
static const int quadrilateral_permutations[8][4] = {{0, 1, 2, 3}, {1, 2, 3, 0}, {2, 3, 0, 1},
                                                     {3, 0, 1, 2}, {0, 3, 2, 1}, {1, 0, 3, 2},
                                                     {2, 1, 0, 3}, {3, 2, 1, 0}};

/* What one element type needs: its dimension, faces and tables. */
typedef struct element_tables {
  int dim, num_faces, verts_per_face, num_orientations;
  const int *permutations; /* [num_orientations][verts_per_face] */
} element_tables;

static const element_tables tables[] = {
    [HDGCL_TRIANGLE] = {.dim = 2, .num_faces = 3, .verts_per_face = 2, .num_orientations = 2,
                        .permutations = &edge_permutations[0][0]},
    [HDGCL_QUADRILATERAL] = {.dim = 2, .num_faces = 4, .verts_per_face = 2, .num_orientations = 2,
                             .permutations = &edge_permutations[0][0]},
    [HDGCL_TETRAHEDRON] = {.dim = 3, .num_faces = 4, .verts_per_face = 3, .num_orientations = 6,
                           .permutations = &triangle_permutations[0][0]},
    [HDGCL_HEXAHEDRON] = {.dim = 3, .num_faces = 6, .verts_per_face = 4, .num_orientations = 8,
                          .permutations = &quadrilateral_permutations[0][0]},
};

/* The tables of an element type, NULL for an invalid type. */
static const element_tables *lookup(hdgcl_element_type type) {
  if ((int)type < 0 || (int)type >= (int)(sizeof tables / sizeof tables[0])) return NULL;
  return &tables[type];
}

hdgcl_shape hdgcl_face_shape(hdgcl_element_type type) {
  switch (type) {
  case HDGCL_TRIANGLE:
  case HDGCL_QUADRILATERAL: return HDGCL_SHAPE_SEGMENT;
  case HDGCL_TETRAHEDRON: return HDGCL_SHAPE_TRIANGLE;
  case HDGCL_HEXAHEDRON: return HDGCL_SHAPE_QUADRILATERAL;
  }
  return (hdgcl_shape)-1;
}

/* Vertex functions beta_k of the face reference shape at s, k = 0..nv-1:
 *   segment  (1-s)/2, (1+s)/2                       vertices -1, +1
 *   triangle -(s+t)/2, (1+s)/2, (1+t)/2             vertices (-1,-1) (1,-1) (-1,1)
 *   quad     bilinear (1+-s)(1+-t)/4                vertices (-1,-1) (1,-1) (1,1) (-1,1) */
static void face_vertex_functions(int verts_per_face, const double *s, double *beta) {
  switch (verts_per_face) {
  case 2:
    beta[0] = 0.5 * (1.0 - s[0]);
    beta[1] = 0.5 * (1.0 + s[0]);
    break;
  case 3:
    beta[0] = -0.5 * (s[0] + s[1]);
    beta[1] = 0.5 * (1.0 + s[0]);
    beta[2] = 0.5 * (1.0 + s[1]);
    break;
  default:
    beta[0] = 0.25 * (1.0 - s[0]) * (1.0 - s[1]);
    beta[1] = 0.25 * (1.0 + s[0]) * (1.0 - s[1]);
    beta[2] = 0.25 * (1.0 + s[0]) * (1.0 + s[1]);
    beta[3] = 0.25 * (1.0 - s[0]) * (1.0 + s[1]);
    break;
  }
}

int hdgcl_face_map_points(hdgcl_element_type type, int face, int orient, int npts, const double *s,
                          double *X) {
  const element_tables *tp = lookup(type);
  if (!tp) return hdgcl_error(HDGCL_ERROR_ARGUMENT, "face map: invalid element type %d", (int)type);
  const element_tables t = *tp;
  const char *name = hdgcl_shape_name(hdgcl_face_shape(type));
  if (face < 0 || face >= t.num_faces)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "face map: local face %d out of range [0, %d]", face,
                       t.num_faces - 1);
  if (orient < 0 || orient >= t.num_orientations)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                       "face map: orientation code %d out of range [0, %d] for a %s face", orient,
                       t.num_orientations - 1, name);
  if (npts < 0) return hdgcl_error(HDGCL_ERROR_ARGUMENT, "face map: negative point count %d", npts);
  if (npts > 0 && (!s || !X))
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "face map: NULL point array");

  const int nv = t.verts_per_face, dim = t.dim;
  const int8_t *local = hdgcl_element_face_vertices(type, face); /* element vertex of face vertex j */
  const int *perm = t.permutations + orient * nv; /* canonical vertex of local face vertex j */
  for (int ip = 0; ip < npts; ip++) {
    double beta[4];
    face_vertex_functions(nv, s + (size_t)(dim - 1) * ip, beta);
    double *x = X + (size_t)dim * ip;
    for (int d = 0; d < dim; d++) x[d] = 0.0;
    for (int j = 0; j < nv; j++) {
      const double *v = hdgcl_element_reference_vertex(type, local[j]);
      for (int d = 0; d < dim; d++) x[d] += beta[perm[j]] * v[d];
    }
  }
  return HDGCL_SUCCESS;
}

void hdgcl_reference_face_normal(hdgcl_element_type type, int face, double *n) {
  const element_tables *tp = lookup(type);
  if (!n || !tp || face < 0 || face >= tp->num_faces) return;
  const element_tables t = *tp;
  const int8_t *local = hdgcl_element_face_vertices(type, face);
  const double *v0 = hdgcl_element_reference_vertex(type, local[0]);
  const double *v1 = hdgcl_element_reference_vertex(type, local[1]);
  if (t.dim == 2) { /* faces run counter-clockwise: outward = the tangent turned right */
    n[0] = v1[1] - v0[1];
    n[1] = -(v1[0] - v0[0]);
  } else { /* (v1 - v0) x (vlast - v0) points out of the element */
    const double *vl = hdgcl_element_reference_vertex(type, local[t.verts_per_face - 1]);
    double a[3], b[3];
    for (int d = 0; d < 3; d++) {
      a[d] = v1[d] - v0[d];
      b[d] = vl[d] - v0[d];
    }
    n[0] = a[1] * b[2] - a[2] * b[1];
    n[1] = a[2] * b[0] - a[0] * b[2];
    n[2] = a[0] * b[1] - a[1] * b[0];
  }
  double len = 0.0;
  for (int d = 0; d < t.dim; d++) len += n[d] * n[d];
  len = sqrt(len);
  for (int d = 0; d < t.dim; d++) n[d] /= len;
}
