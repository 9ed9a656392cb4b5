/* Meshes from arrays (meshgen/arrays.c): the same mesh as a generator's,
 * built again from its arrays, has the same topology and tags (a mixed one
 * too); mirrored cells are reordered; every refusal, with its message. */
#include <string.h>

#include "test_mesh_checks.h"

#define CHECK_ERROR_HAS(part)                                                                    \
  CHECK_MSG(strstr(hdgcl_last_error(), part) != NULL, "message '%s' lacks '%s'",                \
            hdgcl_last_error(), part)

/* Rebuilds a generated mesh from its points, cells, region tags and tagged
 * boundary faces (given in reversed vertex order), and compares. */
static void check_rebuild(const char *spec) {
  hdgcl_mesh *a = NULL, *b = NULL;
  CHECK_OK(hdgcl_mesh_create_from_spec(spec, &a));
  if (!a) return;
  int vpf = a->verts_per_face;
  int32_t nb = a->num_faces - a->num_interior_faces;
  int32_t *fv = malloc(sizeof *fv * (size_t)(nb * vpf)), *ft = malloc(sizeof *ft * (size_t)nb);
  for (int32_t i = 0; i < nb; i++) {
    int32_t f = a->num_interior_faces + i;
    for (int k = 0; k < vpf; k++) fv[i * vpf + k] = a->face_verts[f * vpf + vpf - 1 - k];
    ft[i] = a->face_tags[f];
  }
  CHECK_OK(hdgcl_mesh_create_from_arrays(a->type, a->num_vertices, a->coords, a->num_elements,
                                         a->elem_verts, a->elem_tags, nb, fv, ft, &b));
  if (b) {
    CHECK(b->type == a->type && b->num_vertices == a->num_vertices);
    CHECK(b->num_faces == a->num_faces && b->num_interior_faces == a->num_interior_faces);
    CHECK(!memcmp(b->elem_verts, a->elem_verts,
                  sizeof(int32_t) * (size_t)(a->num_elements * a->verts_per_element)));
    CHECK(!memcmp(b->elem_tags, a->elem_tags, sizeof(int32_t) * (size_t)a->num_elements));
    CHECK(!memcmp(b->face_verts, a->face_verts, sizeof(int32_t) * (size_t)(a->num_faces * vpf)));
    CHECK(!memcmp(b->face_tags, a->face_tags, sizeof(int32_t) * (size_t)a->num_faces));
    CHECK(b->num_tag_names == 0); /* names are the caller's: hdgcl_mesh_set_tag_name */
    int failed = tmc_check_topology(b);
    if (failed) fprintf(stderr, "  (mesh %s rebuilt from arrays)\n", spec);
    CHECK_OK(hdgcl_mesh_validate(b));
  }
  hdgcl_mesh_destroy(&b);
  /* without tags: regions 0 and untagged boundary faces */
  CHECK_OK(hdgcl_mesh_create_from_arrays(a->type, a->num_vertices, a->coords, a->num_elements,
                                         a->elem_verts, NULL, 0, NULL, NULL, &b));
  if (b) {
    for (int32_t e = 0; e < b->num_elements; e++) CHECK(b->elem_tags[e] == 0);
    for (int32_t f = 0; f < b->num_faces; f++) CHECK(b->face_tags[f] == 0);
  }
  hdgcl_mesh_destroy(&b);
  free(fv);
  free(ft);
  hdgcl_mesh_destroy(&a);
}

/* Two triangles of the unit square, the second given clockwise. */
static const double square_xy[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
static const int32_t square_tri[2][3] = {{0, 1, 2}, {0, 3, 2}};

static void check_mirrored_and_tags(void) {
  hdgcl_mesh *m = NULL;
  const int32_t region[2] = {1, 2}, edges[3][2] = {{1, 0}, {0, 2}, {2, 3}}, etags[3] = {5, 9, 6};
  CHECK_OK(hdgcl_mesh_create_from_arrays(HDGCL_TRIANGLE, 4, &square_xy[0][0], 2,
                                         &square_tri[0][0], region, 3, &edges[0][0], etags, &m));
  if (!m) return;
  CHECK(hdgcl_mesh_element_measure(m, 1) > 0); /* reordered */
  CHECK(m->num_faces == 5 && m->num_interior_faces == 1);
  CHECK(m->elem_tags[0] == 1 && m->elem_tags[1] == 2);
  int counted[10] = {0};
  for (int32_t f = 0; f < m->num_faces; f++) counted[m->face_tags[f]]++;
  /* the diagonal (0,2) is interior: its tag 9 is ignored */
  CHECK(counted[5] == 1 && counted[6] == 1 && counted[9] == 0 && counted[0] == 3);
  hdgcl_mesh_destroy(&m);
}

static void check_refusals(void) {
  hdgcl_mesh *m = NULL;
  const double *xy = &square_xy[0][0];
  const int32_t *tri = &square_tri[0][0];
  CHECK_FAILS(hdgcl_mesh_create_from_arrays((hdgcl_element_type)7, 4, xy, 2, tri, NULL, 0, NULL,
                                            NULL, &m),
              HDGCL_ERROR_ARGUMENT);
  CHECK_ERROR_HAS("unknown element type 7");
  CHECK_FAILS(hdgcl_mesh_create_from_arrays(HDGCL_TRIANGLE, 4, xy, 0, tri, NULL, 0, NULL, NULL, &m),
              HDGCL_ERROR_ARGUMENT);
  CHECK_ERROR_HAS("4 points and 0 cells (need at least one of each)");
  CHECK_FAILS(hdgcl_mesh_create_from_arrays(HDGCL_TRIANGLE, 4, NULL, 2, tri, NULL, 0, NULL, NULL,
                                            &m),
              HDGCL_ERROR_ARGUMENT);
  CHECK_ERROR_HAS("coords is NULL");
  CHECK_FAILS(hdgcl_mesh_create_from_arrays(HDGCL_TRIANGLE, 4, xy, 2, tri, NULL, 1, NULL, NULL, &m),
              HDGCL_ERROR_ARGUMENT);
  CHECK_ERROR_HAS("face_verts is NULL");
  CHECK_FAILS(hdgcl_mesh_create_from_arrays(HDGCL_TRIANGLE, 4, xy, 2, tri, NULL, 0, NULL, NULL,
                                            NULL),
              HDGCL_ERROR_ARGUMENT);
  const double bad_xy[4][2] = {{0, 0}, {1, 0}, {1, NAN}, {0, 1}};
  CHECK_FAILS(hdgcl_mesh_create_from_arrays(HDGCL_TRIANGLE, 4, &bad_xy[0][0], 2, tri, NULL, 0, NULL,
                                            NULL, &m),
              HDGCL_ERROR_ARGUMENT);
  CHECK_ERROR_HAS("point 2 has coordinate nan");
  const int32_t out_of_range[2][3] = {{0, 1, 2}, {0, 4, 2}};
  CHECK_FAILS(hdgcl_mesh_create_from_arrays(HDGCL_TRIANGLE, 4, xy, 2, &out_of_range[0][0], NULL, 0,
                                            NULL, NULL, &m),
              HDGCL_ERROR_ARGUMENT);
  CHECK(!strcmp(hdgcl_last_error(), "mesh from arrays: cell 1 has vertex 4, out of range 0..3"));
  const int32_t twice[2][3] = {{0, 1, 2}, {0, 2, 2}};
  CHECK_FAILS(hdgcl_mesh_create_from_arrays(HDGCL_TRIANGLE, 4, xy, 2, &twice[0][0], NULL, 0, NULL,
                                            NULL, &m),
              HDGCL_ERROR_MESH);
  CHECK_ERROR_HAS("cell 1 has vertex 2 twice");
  const int32_t negative_tag[2] = {0, -3};
  CHECK_FAILS(hdgcl_mesh_create_from_arrays(HDGCL_TRIANGLE, 4, xy, 2, tri, negative_tag, 0, NULL,
                                            NULL, &m),
              HDGCL_ERROR_ARGUMENT);
  CHECK_ERROR_HAS("cell 1 has tag -3");
  const int32_t one_cell[1][3] = {{0, 1, 2}};
  CHECK_FAILS(hdgcl_mesh_create_from_arrays(HDGCL_TRIANGLE, 4, xy, 1, &one_cell[0][0], NULL, 0,
                                            NULL, NULL, &m),
              HDGCL_ERROR_MESH);
  CHECK_ERROR_HAS("point 3 is a vertex of no cell");
  const double flat_xy[3][2] = {{0, 0}, {1, 0}, {2, 0}};
  CHECK_FAILS(hdgcl_mesh_create_from_arrays(HDGCL_TRIANGLE, 3, &flat_xy[0][0], 1, &one_cell[0][0],
                                            NULL, 0, NULL, NULL, &m),
              HDGCL_ERROR_MESH);
  CHECK_ERROR_HAS("cell 0 (triangle) is degenerate");
  /* three triangles on the edge (0,2) */
  const double fan_xy[5][2] = {{0, 0}, {1, 0}, {0, 1}, {-1, 0}, {1, 1}};
  const int32_t fan[3][3] = {{0, 1, 2}, {0, 2, 3}, {0, 4, 2}};
  CHECK_FAILS(hdgcl_mesh_create_from_arrays(HDGCL_TRIANGLE, 5, &fan_xy[0][0], 3, &fan[0][0], NULL,
                                            0, NULL, NULL, &m),
              HDGCL_ERROR_MESH);
  CHECK_ERROR_HAS("mesh from arrays: cells ");
  const int32_t no_face[1][2] = {{1, 3}}, tag1[1] = {1}, tag0[1] = {0};
  CHECK_FAILS(hdgcl_mesh_create_from_arrays(HDGCL_TRIANGLE, 4, xy, 2, tri, NULL, 1, &no_face[0][0],
                                            tag1, &m),
              HDGCL_ERROR_MESH);
  CHECK(!strcmp(hdgcl_last_error(),
                "mesh from arrays: tagged face 0 (tag 1) is not a face of any cell"));
  const int32_t edge[1][2] = {{0, 1}}, edge_bad[1][2] = {{0, 7}};
  CHECK_FAILS(hdgcl_mesh_create_from_arrays(HDGCL_TRIANGLE, 4, xy, 2, tri, NULL, 1, &edge[0][0],
                                            tag0, &m),
              HDGCL_ERROR_ARGUMENT);
  CHECK_ERROR_HAS("tagged face 0 has tag 0 (need >= 1)");
  CHECK_FAILS(hdgcl_mesh_create_from_arrays(HDGCL_TRIANGLE, 4, xy, 2, tri, NULL, 1,
                                            &edge_bad[0][0], tag1, &m),
              HDGCL_ERROR_ARGUMENT);
  CHECK_ERROR_HAS("tagged face 0 has vertex 7, out of range 0..3");
  CHECK(m == NULL);
}

/* A mixed mesh rebuilt by hdgcl_mesh_create_from_arrays_mixed from a
 * generator's arrays: the same types, counts, topology and tags; a cell
 * with a vertex past its own (not -1) and a type without cells are refused. */
static void check_mixed(const char *spec) {
  hdgcl_mesh *a = NULL, *b = NULL;
  CHECK_OK(hdgcl_mesh_create_from_spec(spec, &a));
  if (!a) return;
  int32_t counts[2] = {a->type_first[1] - a->type_first[0], a->type_first[2] - a->type_first[1]};
  int32_t nb = a->num_faces - a->num_interior_faces;
  CHECK_OK(hdgcl_mesh_create_from_arrays_mixed(a->num_types, a->types, counts, a->num_vertices,
                                               a->coords, a->elem_verts, a->elem_tags, nb,
                                               a->face_verts + (size_t)a->num_interior_faces * 2,
                                               a->face_tags + a->num_interior_faces, &b));
  if (b) {
    CHECK(b->num_types == 2 && b->types[0] == HDGCL_TRIANGLE && b->types[1] == HDGCL_QUADRILATERAL);
    CHECK(b->type_first[1] == a->type_first[1] && b->type_first[2] == a->type_first[2]);
    CHECK(b->num_faces == a->num_faces && b->num_interior_faces == a->num_interior_faces);
    CHECK(!memcmp(b->elem_verts, a->elem_verts, sizeof(int32_t) * (size_t)a->num_elements * 4));
    CHECK(!memcmp(b->face_verts, a->face_verts, sizeof(int32_t) * (size_t)a->num_faces * 2));
    CHECK(!memcmp(b->face_tags, a->face_tags, sizeof(int32_t) * (size_t)a->num_faces));
    CHECK_OK(hdgcl_mesh_validate(b));
  }
  hdgcl_mesh_destroy(&b);
  int32_t *ev = malloc(sizeof *ev * (size_t)a->num_elements * 4);
  memcpy(ev, a->elem_verts, sizeof *ev * (size_t)a->num_elements * 4);
  ev[3] = ev[4]; /* triangle 0's fourth slot */
  CHECK_FAILS(hdgcl_mesh_create_from_arrays_mixed(2, a->types, counts, a->num_vertices, a->coords,
                                                  ev, NULL, 0, NULL, NULL, &b),
              HDGCL_ERROR_ARGUMENT);
  CHECK_ERROR_HAS("cell 0 (triangle) has 1 vertex slots past its 3 (need -1)");
  int32_t none[2] = {0, a->num_elements};
  CHECK_FAILS(hdgcl_mesh_create_from_arrays_mixed(2, a->types, none, a->num_vertices, a->coords,
                                                  a->elem_verts, NULL, 0, NULL, NULL, &b),
              HDGCL_ERROR_ARGUMENT);
  CHECK_ERROR_HAS("0 cells of type triangle");
  CHECK(b == NULL);
  free(ev);
  hdgcl_mesh_destroy(&a);
}

int main(void) {
  const char *specs[] = {"square:3,split=x:0.5", "square:2x3,diag=alt,perturb=0.2", "quad:3",
                         "cube:2,split=z:0.5", "hex:2x1x2,distort=0.1"};
  for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) check_rebuild(specs[i]);
  check_mirrored_and_tags();
  check_refusals();
  check_mixed("mixed:4,split=x:0.25");
  return check_failures;
}
