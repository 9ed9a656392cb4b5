/* Reference-element tables, orientation permutations, element measures and
 * validity, and topology of small hand-made meshes (shared faces seen from
 * both sides, non-manifold and overlapping elements refused). */
#include <math.h>
#include <string.h>

#include "mesh_internal.h"
#include "test_mesh_checks.h"

static const hdgcl_element_type types[4] = {HDGCL_TRIANGLE, HDGCL_QUADRILATERAL, HDGCL_TETRAHEDRON,
                                            HDGCL_HEXAHEDRON};

/* The permutation tables are the ones written in mesh.h. */
static void check_permutations(void) {
  static const int8_t edge[2][2] = {{0, 1}, {1, 0}};
  static const int8_t tri[6][3] = {{0, 1, 2}, {1, 2, 0}, {2, 0, 1},
                                   {0, 2, 1}, {2, 1, 0}, {1, 0, 2}};
  CHECK(hdgcl_face_orientation_count(2) == 2);
  CHECK(hdgcl_face_orientation_count(3) == 6);
  CHECK(hdgcl_face_orientation_count(4) == 8);
  for (int o = 0; o < 2; o++) CHECK(!memcmp(hdgcl_face_permutation(2, o), edge[o], 2));
  for (int o = 0; o < 6; o++) CHECK(!memcmp(hdgcl_face_permutation(3, o), tri[o], 3));
  for (int r = 0; r < 4; r++)
    for (int j = 0; j < 4; j++) {
      CHECK(hdgcl_face_permutation(4, r)[j] == (j + r) % 4);
      CHECK(hdgcl_face_permutation(4, 4 + r)[j] == ((r - j) % 4 + 4) % 4);
    }
  CHECK(hdgcl_face_permutation(2, 2) == NULL);
  CHECK(hdgcl_face_permutation(3, -1) == NULL);
  CHECK(hdgcl_face_permutation(4, 8) == NULL);
  CHECK(hdgcl_face_permutation(5, 0) == NULL);
}

static void sub(const double *a, const double *b, double *c, int dim) {
  for (int d = 0; d < dim; d++) c[d] = a[d] - b[d];
}

/* Local faces point out of the reference element (3D: (v1-v0)x(vlast-v0);
 * 2D: counter-clockwise, so the outward normal is (dy, -dx)). */
static void check_reference_faces(void) {
  static const int nv[4] = {3, 4, 4, 8}, nf[4] = {3, 4, 4, 6}, vpf[4] = {2, 2, 3, 4},
                   dims[4] = {2, 2, 3, 3};
  static const char *names[4] = {"triangle", "quadrilateral", "tetrahedron", "hexahedron"};
  for (int t = 0; t < 4; t++) {
    hdgcl_element_type type = types[t];
    int dim = dims[t];
    CHECK(!strcmp(hdgcl_element_type_name(type), names[t]));
    double center[3] = {0, 0, 0};
    for (int i = 0; i < nv[t]; i++)
      for (int d = 0; d < dim; d++) center[d] += hdgcl_element_reference_vertex(type, i)[d] / nv[t];
    CHECK(hdgcl_element_reference_vertex(type, nv[t]) == NULL);
    CHECK(hdgcl_element_face_vertices(type, nf[t]) == NULL);
    int used[8] = {0};
    for (int f = 0; f < nf[t]; f++) {
      const int8_t *lv = hdgcl_element_face_vertices(type, f);
      const double *x0 = hdgcl_element_reference_vertex(type, lv[0]);
      const double *x1 = hdgcl_element_reference_vertex(type, lv[1]);
      const double *xl = hdgcl_element_reference_vertex(type, lv[vpf[t] - 1]);
      double a[3], b[3], n[3], mid[3] = {0, 0, 0};
      for (int j = 0; j < vpf[t]; j++) {
        used[lv[j]]++;
        for (int d = 0; d < dim; d++)
          mid[d] += hdgcl_element_reference_vertex(type, lv[j])[d] / vpf[t] - center[d] / vpf[t];
      }
      sub(x1, x0, a, dim);
      if (dim == 2) {
        n[0] = a[1], n[1] = -a[0];
      } else {
        sub(xl, x0, b, dim);
        n[0] = a[1] * b[2] - a[2] * b[1];
        n[1] = a[2] * b[0] - a[0] * b[2];
        n[2] = a[0] * b[1] - a[1] * b[0];
      }
      double dot = 0;
      for (int d = 0; d < dim; d++) dot += n[d] * mid[d];
      CHECK_MSG(dot > 0, "%s face %d does not point outwards", names[t], f);
    }
    /* every vertex is on dim faces (simplices, tensor cells alike) */
    for (int i = 0; i < nv[t]; i++) CHECK(used[i] == dim);
  }
}

/* A one-element mesh of the given type at the given vertex coordinates. */
static hdgcl_mesh *one_element(hdgcl_element_type type, const double *coords) {
  hdgcl_mesh *m = NULL;
  static const int nv[4] = {3, 4, 4, 8};
  CHECK_OK(hdgcl_mesh_allocate(type, nv[type], 1, &m));
  if (!m) return NULL;
  memcpy(m->coords, coords, sizeof(double) * nv[type] * m->dim);
  for (int i = 0; i < nv[type]; i++) m->elem_verts[i] = i;
  return m;
}

static void check_measures(void) {
  static const double ref_measure[4] = {2, 4, 4.0 / 3, 8};
  for (int t = 0; t < 4; t++) {
    double coords[24];
    int nv = t == 3 ? 8 : t == 0 ? 3 : 4, dim = t < 2 ? 2 : 3;
    for (int i = 0; i < nv; i++)
      for (int d = 0; d < dim; d++)
        coords[i * dim + d] = hdgcl_element_reference_vertex(types[t], i)[d];
    hdgcl_mesh *m = one_element(types[t], coords);
    if (!m) continue;
    CHECK_NEAR(hdgcl_mesh_element_measure(m, 0), ref_measure[t], 1e-14);
    CHECK_OK(hdgcl_mesh_build_topology(m));
    CHECK_OK(hdgcl_mesh_validate(m));
    CHECK(m->num_faces == m->faces_per_element && m->num_interior_faces == 0);
    tmc_check_topology(m);
    hdgcl_mesh_destroy(&m);
  }
  /* general quadrilateral: the shoelace area */
  const double quad[8] = {0, 0, 3, 0.5, 2.5, 2, 0.2, 1.5};
  hdgcl_mesh *m = one_element(HDGCL_QUADRILATERAL, quad);
  double shoelace = 0;
  for (int i = 0; i < 4; i++)
    shoelace +=
        quad[2 * i] * quad[2 * ((i + 1) % 4) + 1] - quad[2 * ((i + 1) % 4)] * quad[2 * i + 1];
  CHECK_NEAR(hdgcl_mesh_element_measure(m, 0), shoelace / 2, 1e-14);
  hdgcl_mesh_destroy(&m);
  /* trilinear hexahedron: the unit cube with vertex 6 raised by h has
   * volume 1 + h/4 (the top surface is z = 1 + h x y) */
  double hex[24] = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0, 0, 1, 1, 0, 1, 1, 1, 1.6, 0, 1, 1};
  m = one_element(HDGCL_HEXAHEDRON, hex);
  CHECK_NEAR(hdgcl_mesh_element_measure(m, 0), 1 + 0.6 / 4, 1e-14);
  hdgcl_mesh_destroy(&m);
  /* tetrahedron: det/6 */
  const double tet[12] = {1, 1, 1, 3, 1, 1, 1, 4, 1, 1, 1, 6};
  m = one_element(HDGCL_TETRAHEDRON, tet);
  CHECK_NEAR(hdgcl_mesh_element_measure(m, 0), 2.0 * 3 * 5 / 6, 1e-13);
  hdgcl_mesh_destroy(&m);
}

/* Invalid elements are refused by hdgcl_mesh_validate; mirrored ones are
 * only a vertex order problem, fixed by hdgcl_mesh_orient_elements. */
static void check_validity(void) {
  const double cw_triangle[6] = {0, 0, 0, 1, 1, 0};
  const double flat_triangle[6] = {0, 0, 1, 1, 2, 2};
  const double arrow_quad[8] = {0, 0, 2, 0, 0.5, 0.5, 0, 2}; /* non-convex */
  const double bowtie_quad[8] = {0, 0, 1, 0, 0, 1, 1, 1};    /* self-intersecting */
  const double mirrored_quad[8] = {0, 0, 0, 1, 1, 1, 1, 0};  /* clockwise */
  struct {
    hdgcl_element_type type;
    const double *coords;
    bool fixable;
  } cases[] = {{HDGCL_TRIANGLE, cw_triangle, true},
               {HDGCL_TRIANGLE, flat_triangle, false},
               {HDGCL_QUADRILATERAL, arrow_quad, false},
               {HDGCL_QUADRILATERAL, bowtie_quad, false},
               {HDGCL_QUADRILATERAL, mirrored_quad, true}};
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    hdgcl_mesh *m = one_element(cases[k].type, cases[k].coords);
    if (!m) continue;
    CHECK_FAILS(hdgcl_mesh_validate(m), HDGCL_ERROR_MESH);
    CHECK(strstr(hdgcl_last_error(), "element") || strstr(hdgcl_last_error(), "triangle") ||
          strstr(hdgcl_last_error(), "quadrilateral"));
    int32_t bad;
    if (cases[k].fixable) {
      CHECK_OK(hdgcl_mesh_orient_elements(m, &bad));
      CHECK(bad == -1);
      CHECK_OK(hdgcl_mesh_validate(m));
      CHECK(hdgcl_mesh_element_measure(m, 0) > 0);
    } else {
      CHECK_FAILS(hdgcl_mesh_orient_elements(m, &bad), HDGCL_ERROR_MESH);
      CHECK(bad == 0);
      CHECK(strstr(hdgcl_last_error(), "degenerate") != NULL);
    }
    hdgcl_mesh_destroy(&m);
  }
  /* a mirrored hexahedron (top and bottom swapped) and a negative tetrahedron */
  double hex[24];
  for (int i = 0; i < 8; i++)
    for (int d = 0; d < 3; d++)
      hex[i * 3 + d] = hdgcl_element_reference_vertex(HDGCL_HEXAHEDRON, (i + 4) % 8)[d];
  hdgcl_mesh *m = one_element(HDGCL_HEXAHEDRON, hex);
  int32_t bad;
  CHECK(hdgcl_mesh_element_measure(m, 0) < 0);
  CHECK_OK(hdgcl_mesh_orient_elements(m, &bad));
  CHECK_NEAR(hdgcl_mesh_element_measure(m, 0), 8, 1e-14);
  /* twist the top face: corners of mixed sign, refused */
  double twisted[24];
  memcpy(twisted, hex, sizeof hex);
  for (int i = 0; i < 8; i++)
    for (int d = 0; d < 3; d++)
      twisted[i * 3 + d] = hdgcl_element_reference_vertex(HDGCL_HEXAHEDRON, i)[d];
  double t0 = twisted[4 * 3], t1 = twisted[4 * 3 + 1]; /* swap vertices 4 and 5 */
  twisted[4 * 3] = twisted[5 * 3], twisted[4 * 3 + 1] = twisted[5 * 3 + 1];
  twisted[5 * 3] = t0, twisted[5 * 3 + 1] = t1;
  hdgcl_mesh_destroy(&m);
  m = one_element(HDGCL_HEXAHEDRON, twisted);
  CHECK_FAILS(hdgcl_mesh_orient_elements(m, &bad), HDGCL_ERROR_MESH);
  hdgcl_mesh_destroy(&m);
  const double tet[12] = {0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 1};
  m = one_element(HDGCL_TETRAHEDRON, tet);
  CHECK_FAILS(hdgcl_mesh_validate(m), HDGCL_ERROR_MESH);
  CHECK_OK(hdgcl_mesh_orient_elements(m, &bad));
  CHECK_NEAR(hdgcl_mesh_element_measure(m, 0), 1.0 / 6, 1e-15);
  hdgcl_mesh_destroy(&m);
}

/* Triangles sharing edges: two from opposite sides are fine; a third on the
 * same edge is non-manifold; two on the same side overlap. */
static void check_conflicts(void) {
  const double coords[10] = {0, 0, 1, 0, 0.5, 1, 0.5, -1, 0.5, 2};
  hdgcl_mesh *m = NULL;
  CHECK_OK(hdgcl_mesh_allocate(HDGCL_TRIANGLE, 5, 3, &m));
  memcpy(m->coords, coords, sizeof coords);
  const int32_t tris[9] = {0, 1, 2, 1, 0, 3, 0, 1, 4};
  memcpy(m->elem_verts, tris, sizeof tris);
  hdgcl_face_conflict conflict;
  CHECK_FAILS(hdgcl_mesh_build_topology_conflict(m, &conflict), HDGCL_ERROR_MESH);
  CHECK(conflict.count == 3 && conflict.elements[0] == 0 && conflict.elements[1] == 1 &&
        conflict.elements[2] == 2);
  CHECK(strstr(hdgcl_last_error(), "elements 0, 1 and 2 share one face") != NULL);
  CHECK(m->face_verts == NULL && m->num_faces == 0);
  m->num_elements = 2; /* triangles 0 and 1 lie on opposite sides of edge 0-1 */
  CHECK_OK(hdgcl_mesh_build_topology(m));
  CHECK_OK(hdgcl_mesh_validate(m));
  tmc_check_topology(m);
  CHECK(m->num_interior_faces == 1 && m->num_faces == 5);
  CHECK(m->face_verts[0] == 0 && m->face_verts[1] == 1);
  CHECK(m->face_elems[0] == 0 && m->face_elems[1] == 1);
  CHECK(m->face_local[0] == 0 && m->face_local[1] == 0);
  CHECK(m->face_orient[0] == 0 && m->face_orient[1] == 1);  /* (0,1) as is, then reversed */
  memcpy(m->elem_verts + 3, tris + 6, 3 * sizeof(int32_t)); /* 0 and 2: same side */
  CHECK_FAILS(hdgcl_mesh_build_topology_conflict(m, &conflict), HDGCL_ERROR_MESH);
  CHECK(conflict.count == 2 && strstr(hdgcl_last_error(), "overlap") != NULL);
  hdgcl_mesh_destroy(&m);

  /* two quads sharing an edge in opposite directions; hexes sharing a quad face */
  const double lo[3] = {0, 0, 0}, hi[3] = {2, 1, 1};
  CHECK_OK(hdgcl_mesh_create_box(HDGCL_HEXAHEDRON, 2, 1, 1, lo, hi, &m));
  if (m) {
    CHECK(m->num_interior_faces == 1);
    /* the shared face x = 1: vertices 1, 4, 7, 10 of the 3x2x2 grid; canonical
     * (1, 4, 10, 7) since 1's neighbours in the quad are 4 and 7 */
    const int32_t expected[4] = {1, 4, 10, 7};
    CHECK(!memcmp(m->face_verts, expected, sizeof expected));
    /* element 0 sees it as its face 2 (v1,v2,v6,v5) = (1,4,10,7): rotation 0;
     * element 1 as its face 4 (v3,v0,v4,v7) = (4,1,7,10) = C[(1-j) mod 4]: code 5 */
    CHECK(m->face_local[0] == 2 && m->face_orient[0] == 0);
    CHECK(m->face_local[1] == 4 && m->face_orient[1] == 5);
    tmc_check_topology(m);
  }
  hdgcl_mesh_destroy(&m);
}

int main(void) {
  check_permutations();
  check_reference_faces();
  check_measures();
  check_validity();
  check_conflicts();
  CHECK_DONE();
}
