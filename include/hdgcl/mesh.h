/* Meshes: element connectivity plus the face topology HDG needs.
 *
 * Reference elements (vertex numbering follows Gmsh):
 *   triangle     v0(-1,-1) v1(1,-1) v2(-1,1)
 *                faces f0=(v0,v1) f1=(v1,v2) f2=(v2,v0)
 *   quadrilateral v0(-1,-1) v1(1,-1) v2(1,1) v3(-1,1)
 *                faces f0=(v0,v1) f1=(v1,v2) f2=(v2,v3) f3=(v3,v0)
 *   tetrahedron  v0(-1,-1,-1) v1(1,-1,-1) v2(-1,1,-1) v3(-1,-1,1)
 *                faces f0=(v0,v2,v1) f1=(v0,v1,v3) f2=(v0,v3,v2) f3=(v1,v2,v3)
 *   hexahedron   v0..v3 = (-1,-1,-1) (1,-1,-1) (1,1,-1) (-1,1,-1), v4..v7 the same at z=+1
 *                faces f0=(v0,v3,v2,v1) f1=(v0,v1,v5,v4) f2=(v1,v2,v6,v5)
 *                      f3=(v2,v3,v7,v6) f4=(v3,v0,v4,v7) f5=(v4,v5,v6,v7)
 * Local face vertex lists are ordered so that (v1-v0)x(vlast-v0) points out
 * of the element (3D); in 2D, faces run counter-clockwise.
 *
 * Every face has a canonical vertex order C (global vertex ids):
 *   edge:     C0 < C1
 *   triangle: C0 < C1 < C2
 *   quad:     C0 = smallest id, C1 = the smaller of C0's two neighbours in the
 *             quad, C2 opposite C0, C3 the other neighbour.
 * Seen from a neighbour element, the face's local vertex list L (global ids,
 * in the local order above) relates to C by  L[j] = C[P_o[j]]  where o is the
 * orientation code stored in face_orient / elem_face_orient:
 *   edge (2 codes):     P0=(0,1) P1=(1,0)
 *   triangle (6 codes): P0=(0,1,2) P1=(1,2,0) P2=(2,0,1) P3=(0,2,1) P4=(2,1,0) P5=(1,0,2)
 *   quad (8 codes):     P_r[j] = (j+r) mod 4 for r=0..3 (rotations),
 *                       P_{4+r}[j] = (r-j) mod 4 for r=0..3 (reflections)
 * hdgcl_face_permutation() returns these tables.  The face's own reference
 * coordinates (edge s in [-1,1]; reference triangle; [-1,1]^2 for quads) are
 * attached to the canonical vertices, so a trace basis on the face is single
 * valued whichever neighbour looks at it.
 *
 * Face numbering: interior faces are 0..num_interior_faces-1, boundary faces
 * follow, so "is face F on the boundary" is F >= num_interior_faces.  Within
 * each group faces are sorted by canonical vertex tuple (deterministic). */
#ifndef HDGCL_MESH_H
#define HDGCL_MESH_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum hdgcl_element_type {
  HDGCL_TRIANGLE = 0,
  HDGCL_QUADRILATERAL = 1,
  HDGCL_TETRAHEDRON = 2,
  HDGCL_HEXAHEDRON = 3
} hdgcl_element_type;

/* A name for a tag: dim = mesh->dim for element (region) tags, mesh->dim - 1
 * for boundary tags.  Names are 1 to 63 characters, without '"' or control
 * characters, not a decimal number, and distinct within a dimension. */
typedef struct hdgcl_tag_name {
  int dim;
  int32_t tag;
  char name[64];
} hdgcl_tag_name;

typedef struct hdgcl_mesh {
  hdgcl_element_type type;
  int dim;               /* 2 or 3 */
  int verts_per_element; /* 3, 4, 4, 8 */
  int faces_per_element; /* 3, 4, 4, 6 */
  int verts_per_face;    /* 2, 2, 3, 4 */

  int32_t num_vertices;
  double *coords;        /* [num_vertices][dim] */

  int32_t num_elements;
  int32_t *elem_verts;   /* [num_elements][verts_per_element], positive orientation */
  int32_t *elem_tags;    /* [num_elements] physical group (material region), 0 if none */

  /* Topology (hdgcl_mesh_build_topology). */
  int32_t num_faces;
  int32_t num_interior_faces;
  int32_t *face_verts;       /* [num_faces][verts_per_face] canonical order */
  int32_t *face_elems;       /* [num_faces][2] neighbour elements; [1] = -1 on the boundary.
                                Interior faces: face_elems[0] < face_elems[1]. */
  int8_t *face_local;        /* [num_faces][2] local face index in each neighbour (-1 if none) */
  int8_t *face_orient;       /* [num_faces][2] orientation code seen from each neighbour (-1 if none) */
  int32_t *face_tags;        /* [num_faces] boundary tag (box sides, Gmsh physical group); 0 interior */
  int32_t *elem_faces;       /* [num_elements][faces_per_element] global face ids */
  int8_t *elem_face_orient;  /* [num_elements][faces_per_element] orientation code */

  /* Names of tags (Gmsh $PhysicalNames, the sides of generated meshes),
   * sorted by (dim, tag); hdgcl_mesh_set_tag_name adds to it. */
  int32_t num_tag_names;
  hdgcl_tag_name *tag_names;

  /* Geometry (curved, isoparametric elements; last, so that bindings that
   * mirror the fields above keep their layout).  geometry_order 1: the
   * element is the map of its vertices (linear on simplices, bilinear /
   * trilinear on quads / hexes) and elem_nodes is NULL.  geometry_order 2 or
   * 3: the element is the Lagrange map of that order through
   * nodes_per_element nodes in Gmsh's node ordering (tri 6 | 10, quad 9 | 16,
   * tet 10 | 20, hex 27 | 64; the first verts_per_element nodes are the vertices),
   * stored per element (a node shared by two elements is stored twice, with
   * the same coordinates, so shared faces are curved the same from both
   * sides): elem_nodes[num_elements][nodes_per_element][dim].  Gmsh's
   * serendipity quadrangle 8 and hexahedron 20 are read as the quadrangle 9
   * and hexahedron 27 of the same map (their space is a subspace).
   * hdgcl_mesh_map evaluates the map; hdgcl_mesh_validate checks the sign of
   * its Jacobian at quadrature points. */
  int geometry_order;     /* 1, 2 or 3 (0 is read as 1) */
  int nodes_per_element;  /* verts_per_element at order 1 */
  double *elem_nodes;     /* NULL at order 1 */

  /* Mixed meshes (docs/geometry.md, "Mixed meshes"; last, as above): the
   * elements sorted by type into contiguous ranges, elements of types[i]
   * being [type_first[i], type_first[i + 1]).  num_types is 0 or 1 for a
   * mesh of one type (`type`, as before; type_first unused when 0).  With
   * num_types > 1 (so far triangles and quadrilaterals, in that order),
   * `type` is types[0] and verts_per_element / faces_per_element are the
   * largest of the types: the row widths (strides) of elem_verts,
   * elem_faces and elem_face_orient, whose slots past an element's own
   * vertices / faces hold -1; verts_per_face is the same for every type (2
   * in 2D).  hdgcl_mesh_element_type names element e's type;
   * hdgcl_mesh_element_verts / _faces its counts. */
  int num_types;
  hdgcl_element_type types[4];
  int32_t type_first[5];
} hdgcl_mesh;

/* Diagonal of the squares split into two triangles. */
typedef enum hdgcl_diagonal {
  HDGCL_DIAGONAL_RIGHT = 0,      /* "/" : from (x_i,y_j) to (x_i+1,y_j+1) */
  HDGCL_DIAGONAL_LEFT = 1,       /* "\" */
  HDGCL_DIAGONAL_ALTERNATING = 2 /* "/" and "\" in a checkerboard */
} hdgcl_diagonal;

/* Rectangle [x0,x1]x[y0,y1] split into nx*ny squares, then into triangles
 * (type HDGCL_TRIANGLE, two per square along `diagonal`) or quadrilaterals.
 * Boundary tags: 1 (x=x0), 2 (x=x1), 3 (y=y0), 4 (y=y1), named left, right,
 * bottom, top. */
int hdgcl_mesh_create_rectangle(hdgcl_element_type type, int nx, int ny, const double lo[2],
                                const double hi[2], hdgcl_diagonal diagonal, hdgcl_mesh **mesh);

/* Box [lo,hi] split into nx*ny*nz hexahedra, or each hexahedron into 6
 * conforming tetrahedra.  Boundary tags: 1 (x=lo), 2 (x=hi), 3 (y=lo),
 * 4 (y=hi), 5 (z=lo), 6 (z=hi), named left, right, bottom, top, back,
 * front. */
int hdgcl_mesh_create_box(hdgcl_element_type type, int nx, int ny, int nz, const double lo[3],
                          const double hi[3], hdgcl_mesh **mesh);

/* Moves every interior vertex by a random offset of at most amplitude times
 * the shortest edge at that vertex (0 <= amplitude < 0.5), from a seeded
 * generator; any move that would make an element invalid is scaled back. */
int hdgcl_mesh_perturb(hdgcl_mesh *mesh, double amplitude, uint64_t seed);

/* Moves every vertex by the smooth map x_k += A L_k s_k prod_j sin(pi t_j)
 * over the bounding box (t the normalised coordinates, s = (+1,-1,+1)),
 * 0 <= A <= 0.2: non-affine elements that refine like a smooth mapping. */
int hdgcl_mesh_distort(hdgcl_mesh *mesh, double amplitude);

/* A mesh from a spec string:
 *   square:N[xM]    unit square, triangles      quad:N[xM]   unit square, quads
 *   cube:N[xMxL]    unit cube, tetrahedra       hex:N[xMxL]  unit cube, hexahedra
 *   annulus:N       1 <= r <= 2, triangles      annulus-quad:N  the same, quads
 *                   (hdgcl_mesh_create_annulus; ,order=1|2|3 the geometry order)
 *   shell:N         1 <= r <= 2, hexahedra (hdgcl_mesh_create_shell; ,order=1|2|3)
 *   mixed:N         unit square, triangles left of x = 0.5, quads right of it
 *                   (hdgcl_mesh_create_mixed_square)
 * followed by optional ",key=value" modifiers: diag=right|left|alt (triangles),
 * distort=A (hdgcl_mesh_distort), perturb=A, seed=S, size=L[xH[xW]] (the box),
 * split=A:V (element tags 1 where the centroid's coordinate A = x, y or z is
 * below V, 2 elsewhere; without it the tags are 0); or a path ending in ".msh"
 * (Gmsh). */
int hdgcl_mesh_create_from_spec(const char *spec, hdgcl_mesh **mesh);

/* A mesh from arrays of points and cells (what a program that builds or reads
 * its mesh itself hands over; the Python package's Mesh.from_arrays):
 *   coords      [num_vertices][dim of type]  every point a vertex of some cell
 *   elem_verts  [num_elements][verts_per_element]  0-based point indices in the
 *               vertex order of the reference elements above (Gmsh's); mirrored
 *               cells are reordered, degenerate ones refused
 *   elem_tags   [num_elements] region tags >= 0, or NULL (all 0)
 *   face_verts  [num_tagged_faces][verts_per_face] faces (any vertex order)
 *   face_tags   [num_tagged_faces] their boundary tags >= 1
 * As in Gmsh files the first tag of a boundary face wins and tags on interior
 * faces are ignored; untagged boundary faces have tag 0.  Errors name the
 * array and the index ("mesh from arrays: cell 7 has vertex 12, out of range
 * 0..8"). */
int hdgcl_mesh_create_from_arrays(hdgcl_element_type type, int32_t num_vertices,
                                  const double *coords, int32_t num_elements,
                                  const int32_t *elem_verts, const int32_t *elem_tags,
                                  int32_t num_tagged_faces, const int32_t *face_verts,
                                  const int32_t *face_tags, hdgcl_mesh **mesh);
/* The same for a mixed mesh (docs/geometry.md, "Mixed meshes"): counts[i]
 * cells of types[i] (1 to 4 types in increasing order, each at least one
 * cell; so far triangles and quadrilaterals), numbered in that order;
 * elem_verts has rows as wide as the widest type, -1 in the slots past a
 * cell's own vertices.  One type is hdgcl_mesh_create_from_arrays. */
int hdgcl_mesh_create_from_arrays_mixed(int num_types, const hdgcl_element_type *types,
                                        const int32_t *counts, int32_t num_vertices,
                                        const double *coords, const int32_t *elem_verts,
                                        const int32_t *elem_tags, int32_t num_tagged_faces,
                                        const int32_t *face_verts, const int32_t *face_tags,
                                        hdgcl_mesh **mesh);

/* Gmsh .msh, ASCII formats 2.2 and 4.1 and binary 4.1 (gmsh -bin):
 * triangles, quads, tets, hexes, and their curved types of order 2 and 3
 * (geometry_order above; types 8, 26, 9, 21, 10, 16, 36, 11, 29, 12, 17;
 * other types are refused naming the type) (the highest-dimensional elements form the
 * mesh; lower-dimensional elements with a physical group give face tags;
 * $PhysicalNames of these two dimensions give tag names).  Errors name the
 * file and line (in a binary file the byte offset). */
int hdgcl_mesh_read_gmsh(const char *path, hdgcl_mesh **mesh);

/* Writes format 4.1 (version = 41) or 2.2 (version = 22) with physical groups
 * for the boundary tags and element tags, and $PhysicalNames for their names.
 * A curved mesh is written with its high-order element types and nodes
 * (shared nodes once; boundary faces with their linear types).
 * Written to a temporary file and renamed, so a failure leaves no partial
 * file. */
int hdgcl_mesh_write_gmsh(const hdgcl_mesh *mesh, const char *path, int version);

/* The same as binary format 4.1 (what gmsh -bin writes; numbers in this
 * machine's byte order, which hdgcl_mesh_read_gmsh checks): about the size
 * of ASCII, read about twice as fast (docs/problems.md). */
int hdgcl_mesh_write_gmsh_binary(const hdgcl_mesh *mesh, const char *path);

/* Annulus 1 <= r <= 2 (boundary tags 1 'inner', 2 'outer'): n cells across
 * and 8n around, quadrilaterals or (type HDGCL_TRIANGLE) each split into two
 * triangles, with geometry of order geometry_order (1: straight sides; 2, 3:
 * every node at the image of the polar map, so boundary nodes lie on the
 * circles).  Spec: annulus:N (triangles), annulus-quad:N, with ,order=2|3. */
int hdgcl_mesh_create_annulus(hdgcl_element_type type, int n, int geometry_order,
                              hdgcl_mesh **mesh);
/* The same annulus curved at its boundary only (spec ,curve=boundary): the
 * nodes on the circles as above, every other node where the element's
 * vertex map puts it, so the elements away from the circles are straight. */
int hdgcl_mesh_create_annulus_boundary(hdgcl_element_type type, int n, int geometry_order,
                                       hdgcl_mesh **mesh);

/* Spherical shell 1 <= r <= 2 (boundary tags 1 'inner', 2 'outer'):
 * hexahedra of a cubed sphere, n x n on each of the cube's six faces and n
 * layers across (6 n^3), with geometry of order 1 (straight), 2 or 3 (nodes on
 * the equiangular cubed sphere's map, boundary nodes on the spheres).
 * Spec: shell:N with ,order=1|2|3. */
int hdgcl_mesh_create_shell(int n, int geometry_order, hdgcl_mesh **mesh);

/* Nodes of the geometry of order `order` of an element type: their count
 * (0 if hdgcl has no such element), and, if index is not NULL, their lattice
 * indices in Gmsh's order: index[node][dim], node position xi_k = -1 + 2
 * index_k / order (quads, hexes) or barycentric lambda_k = index_k / order of
 * the reference vertex k + 1 (simplices). */
int hdgcl_geometry_nodes(hdgcl_element_type type, int order, const int8_t **index);

/* The geometry's shape functions n[a] and reference gradients dn[a][dim] at
 * reference point xi (order 1: the vertex functions). */
void hdgcl_geometry_functions(hdgcl_element_type type, int order, const double *xi, double *n,
                              double *dn);

/* Physical point x[dim] and Jacobian jac[dim][dim] (d x_k / d xi_l) of element
 * e at reference point xi, at any geometry order; returns det(jac). */
double hdgcl_mesh_map(const hdgcl_mesh *mesh, int32_t e, const double *xi, double *x, double *jac);

/* Element batches (meshgen/batches.c, docs/geometry.md): element e of a
 * curved mesh is straight when every geometry node lies where its vertex map
 * puts it (to 1e-10 of its size; always true at geometry order 1).
 * hdgcl_mesh_sort_straight_first renumbers the elements of a curved mesh,
 * straight ones first (stable; the topology follows), which the spec reader
 * and the Gmsh reader do, so that hdgcl_mesh_straight_prefix (the leading
 * straight elements) is hdgcl_mesh_count_straight. */
int hdgcl_mesh_element_straight(const hdgcl_mesh *mesh, int32_t e);
int32_t hdgcl_mesh_count_straight(const hdgcl_mesh *mesh);
int32_t hdgcl_mesh_straight_prefix(const hdgcl_mesh *mesh);
int hdgcl_mesh_sort_straight_first(hdgcl_mesh *mesh);

/* Mixed meshes (meshgen/mixed.c): element e's type and its numbers of
 * vertices and faces (the type's; at most verts_per_element /
 * faces_per_element, the strides); hdgcl_mesh_is_mixed: num_types > 1;
 * hdgcl_mesh_count_type: the elements of a type. */
hdgcl_element_type hdgcl_mesh_element_type(const hdgcl_mesh *mesh, int32_t e);
int hdgcl_mesh_element_verts(const hdgcl_mesh *mesh, int32_t e);
int hdgcl_mesh_element_faces(const hdgcl_mesh *mesh, int32_t e);
int hdgcl_mesh_is_mixed(const hdgcl_mesh *mesh);
int32_t hdgcl_mesh_count_type(const hdgcl_mesh *mesh, hdgcl_element_type type);

/* The unit square, n x n squares: triangles (two per square, diagonal "/")
 * where x < 0.5 and quadrilaterals where x > 0.5, conforming on x = 0.5
 * (n even, >= 2); boundary tags as hdgcl_mesh_create_rectangle.
 * Spec: mixed:N. */
int hdgcl_mesh_create_mixed_square(int n, hdgcl_mesh **mesh);

/* Builds the face topology from elem_verts (sort faces by canonical key,
 * reduce by key, number interior faces first).  Called by every creator. */
int hdgcl_mesh_build_topology(hdgcl_mesh *mesh);

/* Checks: element orientation and non-zero measure (curved elements: the
 * sign of the Jacobian at the points of a Gauss rule; an inverted or tangled
 * element is an error naming it), faces shared by at most
 * two elements, indices in range, matching vertices of interior faces,
 * orientation codes consistent with the canonical order. */
int hdgcl_mesh_validate(const hdgcl_mesh *mesh);

/* Signed measure (area/volume) of element e, computed from its vertices
 * (for quads/hexes: exact for bilinear/trilinear maps). */
double hdgcl_mesh_element_measure(const hdgcl_mesh *mesh, int32_t e);

/* The permutation P_o of the face type with nverts vertices (2, 3 or 4);
 * NULL if o is out of range.  Number of codes: 2, 6, 8. */
const int8_t *hdgcl_face_permutation(int verts_per_face, int o);
int hdgcl_face_orientation_count(int verts_per_face);

/* Reference-element tables (see above). */
const int8_t *hdgcl_element_face_vertices(hdgcl_element_type type, int local_face);
const double *hdgcl_element_reference_vertex(hdgcl_element_type type, int local_vertex);
const char *hdgcl_element_type_name(hdgcl_element_type type);

/* Tags by name or number, dim = mesh->dim (element tags) or mesh->dim - 1
 * (boundary tags).  A decimal number is the tag itself and must occur in the
 * mesh (elem_tags, or face_tags of boundary faces); anything else is looked
 * up in the names.  Fails with HDGCL_ERROR_ARGUMENT and a message listing
 * the known tags, e.g. "boundary tag 'cone': no such name in the mesh
 * (boundary tags: 1 'left', 2 'right', 3 'bottom', 4 'top')". */
int hdgcl_mesh_find_tag(const hdgcl_mesh *mesh, int dim, const char *name_or_number,
                        int32_t *tag);

/* The name of a tag, or NULL if it has none. */
const char *hdgcl_mesh_tag_name(const hdgcl_mesh *mesh, int dim, int32_t tag);

/* Names a tag (replacing its name if it has one); refuses a name that is
 * empty, over 63 characters, a decimal number, holds '"' or a control
 * character, or already names another tag of that dimension. */
int hdgcl_mesh_set_tag_name(hdgcl_mesh *mesh, int dim, int32_t tag, const char *name);

int hdgcl_mesh_destroy(hdgcl_mesh **mesh);

#ifdef __cplusplus
}
#endif
#endif
