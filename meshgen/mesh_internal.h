/* Internal helpers shared by the mesh sources (meshgen/ sources).  The public
 * contract (reference elements, canonical face order, orientation codes,
 * face numbering) is documented in include/hdgcl/mesh.h. */
#ifndef HDGCL_MESHGEN_MESH_INTERNAL_H
#define HDGCL_MESHGEN_MESH_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "hdgcl/mesh.h"

/* Largest number of vertices of an element / of a face. */
enum { HDGCL_MAX_ELEMENT_VERTS = 8, HDGCL_MAX_FACE_VERTS = 4 };

/* ---- mesh.c: allocation and per-type constants ---- */

/* Dimension and vertex/face counts of an element type. */
typedef struct hdgcl_element_layout {
  int dim, verts_per_element, faces_per_element, verts_per_face;
} hdgcl_element_layout;

/* NULL for an unknown type. */
const hdgcl_element_layout *hdgcl_element_layout_of(hdgcl_element_type type);

/* A mesh of `type` with room for the vertices and elements (zeroed, tags 0,
 * no topology).  Fails with a clear message if the counts are negative. */
int hdgcl_mesh_allocate(hdgcl_element_type type, int32_t num_vertices, int32_t num_elements,
                        hdgcl_mesh **mesh);

/* ---- mixed.c ---- */

/* A mesh of num_types types (increasing), counts[i] elements of types[i]
 * numbered in that order, rows as wide as the widest type, every vertex
 * slot -1 (the caller fills them); one type gives an ordinary mesh. */
int hdgcl_mesh_allocate_mixed(int num_types, const hdgcl_element_type *types, const int32_t *counts,
                              int32_t num_vertices, hdgcl_mesh **mesh);

/* 2D: no boundary vertex inside a boundary face (a hanging node: faces that
 * do not match, e.g. a quadrilateral's side against two triangles' sides);
 * else an error naming the element of that face, with bad = {element, the
 * face's two vertices, the vertex inside it} (all -1 when none). */
int hdgcl_mesh_check_conforming(const hdgcl_mesh *mesh, int32_t bad[4]);

/* Frees the topology arrays and zeroes the face counts. */
void hdgcl_mesh_free_topology(hdgcl_mesh *mesh);

/* Edges of the reference element as pairs of local vertices (for edge
 * lengths and edge counts); *count receives 3, 4, 6 or 12. */
const int8_t (*hdgcl_element_edges(hdgcl_element_type type, int *count))[2];

/* ---- geometry.c: measure and validity of one element ---- */

typedef enum hdgcl_element_state {
  HDGCL_ELEMENT_VALID = 0,     /* positive Jacobian everywhere checked */
  HDGCL_ELEMENT_INVERTED = 1,  /* negative Jacobian everywhere checked: a mirror image */
  HDGCL_ELEMENT_DEGENERATE = 2 /* zero, or sign-changing Jacobian (twisted, collapsed) */
} hdgcl_element_state;

/* Smallest Jacobian determinant of the reference-to-physical map of
 * element e: constant for simplices, minimum over the corners for quads and
 * hexes (the right validity test at the vertices of bilinear/trilinear maps). */
double hdgcl_mesh_element_min_jacobian(const hdgcl_mesh *mesh, int32_t e);

/* Valid, inverted (all checked Jacobians negative) or degenerate; "zero" is
 * relative to the element's longest edge. */
hdgcl_element_state hdgcl_mesh_element_state(const hdgcl_mesh *mesh, int32_t e);

/* ---- curved.c ---- */

/* The Jacobian of every curved element (geometry_order > 1) positive at the
 * points of a Gauss rule (a collapsed one on simplices); else an error
 * naming the first element that is inverted or tangled. */
int hdgcl_mesh_check_curved(const hdgcl_mesh *mesh);
/* The Jacobian check of one curved element. */
int hdgcl_mesh_check_curved_element(const hdgcl_mesh *mesh, int32_t e);

/* Measure of the curved element e (Gauss rule of 4 points per direction,
 * collapsed on simplices). */
double hdgcl_mesh_curved_measure(const hdgcl_mesh *mesh, int32_t e);

/* ---- orientation.c ---- */

/* Reorders the vertices of element e into its mirror image (e.g. a
 * clockwise triangle becomes counter-clockwise); the element is unchanged
 * as a point set. */
void hdgcl_mesh_element_mirror(hdgcl_mesh *mesh, int32_t e);

/* Mirrors every inverted element; fails with HDGCL_ERROR_MESH on the first
 * degenerate one, storing its index in *bad (-1 if none). */
int hdgcl_mesh_orient_elements(hdgcl_mesh *mesh, int32_t *bad);

/* ---- face_order.c: canonical order and orientation codes ---- */

/* Canonical order C of a face given by its local vertex list L (global ids),
 * and the orientation code o with L[j] = C[P_o[j]]. */
void hdgcl_face_canonical(int verts_per_face, const int32_t *local, int32_t *canonical,
                          int8_t *orient);

/* True for the orientation codes that reverse the face (reflections).  Two
 * positively oriented neighbours see a shared face with opposite parity. */
bool hdgcl_face_orientation_reverses(int verts_per_face, int orient);

/* Lexicographic comparison of two canonical tuples. */
int hdgcl_face_compare(int verts_per_face, const int32_t *a, const int32_t *b);

/* ---- topology.c ---- */

/* Details of a topology failure, so that a file reader can name the input
 * lines of the elements involved. */
typedef struct hdgcl_face_conflict {
  int count;           /* elements involved (0 if the failure is not about a face) */
  int32_t elements[3]; /* their indices */
  const char
      *reason; /* predicate, e.g. "share one face (a face may belong to at most two elements)" */
} hdgcl_face_conflict;

/* hdgcl_mesh_build_topology, also filling *conflict (may be NULL). */
int hdgcl_mesh_build_topology_conflict(hdgcl_mesh *mesh, hdgcl_face_conflict *conflict);

/* Face id with this canonical tuple, or -1 (binary search in the interior
 * and boundary groups). */
int32_t hdgcl_mesh_find_face(const hdgcl_mesh *mesh, const int32_t *canonical);

/* ---- tag_names.c ---- */

/* NULL if name is acceptable as a tag name (see hdgcl_tag_name), else why
 * not, e.g. "is longer than 63 characters". */
const char *hdgcl_tag_name_problem(const char *name);

/* ---- structured.c: shared by rectangle.c and box.c ---- */

/* Checks the arguments of a structured generator named `what` (n[d] >= 1
 * cells, lo < hi finite) and that the counts fit 32-bit indices. */
int hdgcl_structured_check(const char *what, int dim, const int *n, const double *lo,
                           const double *hi, int64_t elements_per_cell, int faces_per_element,
                           int32_t *num_vertices, int32_t *num_elements);

/* Point i of n+1 evenly spaced points from lo to hi (exactly hi for i = n). */
double hdgcl_grid_coordinate(double lo, double hi, int i, int n);

/* Tags every boundary face of a mesh of the box [lo,hi] by the side it lies
 * on: 1 (x=lo), 2 (x=hi), 3 (y=lo), 4 (y=hi), 5 (z=lo), 6 (z=hi), and names
 * these tags left, right, bottom, top, back, front. */
int hdgcl_mesh_tag_box_sides(hdgcl_mesh *mesh, const double *lo, const double *hi);

/* The last steps of a structured generator: the topology of m (its elements
 * filled in), its box sides tagged, then *mesh = m; on an error m is
 * destroyed and *mesh left alone. */
int hdgcl_structured_finish(hdgcl_mesh *m, const double *lo, const double *hi, hdgcl_mesh **mesh);

#endif
