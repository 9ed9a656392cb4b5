/* Reading real Gmsh files (tests/data/gmsh_*.msh, made by Gmsh 4.8.4 from
 * the .geo scripts below, e.g. `gmsh tri.geo -2 -format msh41 -o
 * gmsh_tri41.msh`; msh22 for the 2.2 files).  The expected counts come from
 * the files themselves (counted by a separate script, not by hdgcl):
 * vertices used by the highest-dimensional elements, elements, elements per
 * physical group, boundary elements per physical group.  The test also
 * checks geometry: total measure, tagged faces on the right sides, regions
 * where they should be, and the topology contract; and the tag names from
 * $PhysicalNames.
 *
 * The binary 4.1 files gmsh_*41_bin.msh are the 4.1 files saved again by
 * Gmsh 4.8.4 (`gmsh gmsh_tri41.msh -0 -bin -format msh41 -o
 * gmsh_tri41_bin.msh`), and gmsh_plate-hole_bin.msh is examples/plate-hole.geo
 * meshed by it (`gmsh -2 -bin -format msh41 examples/plate-hole.geo -o
 * tests/data/gmsh_plate-hole_bin.msh`); each must pass the same checks and
 * read to exactly the mesh of its ASCII twin.
 *
 * tri.geo:  rectangle [0,2]x[0,1] in two surfaces split at x = 1,
 *           lc 0.3; Physical Curve bottom 1, right 2, top 3, left 4;
 *           Physical Surface 10 (x < 1), 11 (x > 1).
 * quad.geo: L-shape [0,2]^2 minus [1,2]^2, lc 0.3, Recombine Surface;
 *           Physical Curve outer 1, reentrant 2 (x=1 or y=1 edges);
 *           Physical Surface 5.
 * tet.geo:  OpenCASCADE Box unit cube, MeshSize 0.45 at its points;
 *           Physical Surface 1..6 on x=0, x=1, y=0, y=1, z=0, z=1;
 *           Physical Volume 20.
 * hex.geo:  [0,1]x[0,2] transfinite 3x4 cells, recombined, extruded by 1
 *           in 3 layers; Physical Surface bottom 5 (z=0), top 6 (z=1);
 *           Physical Volume 7; the four other sides untagged. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "test_mesh_checks.h"

typedef struct expected_file {
  const char *name;
  hdgcl_element_type type;
  int32_t vertices, elements, boundary_faces;
  double measure;
  int32_t elem_tags[3][2]; /* {tag, count}, count 0 ends */
  int32_t face_tags[7][2]; /* {tag, count} over boundary faces, tag 0 = untagged */
  const char *names;       /* $PhysicalNames as "b TAG NAME" (boundary), "e TAG NAME" lines */
} expected_file;

static const expected_file files[] = {
    {"gmsh_tri41.msh",
     HDGCL_TRIANGLE,
     56,
     86,
     24,
     2.0,
     {{10, 42}, {11, 44}},
     {{1, 8}, {2, 4}, {3, 8}, {4, 4}},
     "b 1 bottom\nb 2 right\nb 3 top\nb 4 left\ne 10 left_region\ne 11 right_region\n"},
    {"gmsh_tri22.msh",
     HDGCL_TRIANGLE,
     56,
     86,
     24,
     2.0,
     {{10, 42}, {11, 44}},
     {{1, 8}, {2, 4}, {3, 8}, {4, 4}},
     "b 1 bottom\nb 2 right\nb 3 top\nb 4 left\ne 10 left_region\ne 11 right_region\n"},
    {"gmsh_quad41.msh", HDGCL_QUADRILATERAL, 79, 62, 32, 3.0, {{5, 62}}, {{1, 24}, {2, 8}},
     "b 1 outer\nb 2 reentrant\ne 5 domain\n"},
    {"gmsh_tet41.msh",
     HDGCL_TETRAHEDRON,
     81,
     184,
     156,
     1.0,
     {{20, 184}},
     {{1, 26}, {2, 26}, {3, 26}, {4, 26}, {5, 26}, {6, 26}},
     "b 1 x0\nb 2 x1\nb 3 y0\nb 4 y1\nb 5 z0\nb 6 z1\ne 20 cube\n"},
    {"gmsh_tet22.msh",
     HDGCL_TETRAHEDRON,
     81,
     184,
     156,
     1.0,
     {{20, 184}},
     {{1, 26}, {2, 26}, {3, 26}, {4, 26}, {5, 26}, {6, 26}},
     "b 1 x0\nb 2 x1\nb 3 y0\nb 4 y1\nb 5 z0\nb 6 z1\ne 20 cube\n"},
    {"gmsh_hex41.msh", HDGCL_HEXAHEDRON, 80, 36, 66, 2.0, {{7, 36}}, {{5, 12}, {6, 12}, {0, 42}},
     "b 5 bottom\nb 6 top\ne 7 box\n"},
};

/* All vertices of face f have coordinate `axis` equal to value. */
static bool face_on_plane(const hdgcl_mesh *m, int32_t f, int axis, double value) {
  for (int j = 0; j < m->verts_per_face; j++)
    if (m->coords[(int64_t)m->face_verts[(int64_t)f * m->verts_per_face + j] * m->dim + axis] !=
        value)
      return false;
  return true;
}

/* The side a tagged boundary face must lie on, per file. */
static bool face_where_tag_says(const expected_file *x, const hdgcl_mesh *m, int32_t f) {
  int tag = m->face_tags[f];
  switch (x->type) {
  case HDGCL_TRIANGLE: /* bottom y=0, right x=2, top y=1, left x=0 */
    return (tag == 1 && face_on_plane(m, f, 1, 0)) || (tag == 2 && face_on_plane(m, f, 0, 2)) ||
           (tag == 3 && face_on_plane(m, f, 1, 1)) || (tag == 4 && face_on_plane(m, f, 0, 0));
  case HDGCL_QUADRILATERAL:
    if (tag == 1)
      return face_on_plane(m, f, 0, 0) || face_on_plane(m, f, 1, 0) || face_on_plane(m, f, 0, 2) ||
             face_on_plane(m, f, 1, 2);
    return tag == 2 && (face_on_plane(m, f, 0, 1) || face_on_plane(m, f, 1, 1));
  case HDGCL_TETRAHEDRON: /* hdgcl's box convention */
    return tag >= 1 && tag <= 6 && face_on_plane(m, f, (tag - 1) / 2, (tag - 1) % 2);
  case HDGCL_HEXAHEDRON:
    if (tag == 5) return face_on_plane(m, f, 2, 0);
    if (tag == 6) return face_on_plane(m, f, 2, 1);
    /* untagged: the four lateral sides */
    return tag == 0 && (face_on_plane(m, f, 0, 0) || face_on_plane(m, f, 0, 1) ||
                        face_on_plane(m, f, 1, 0) || face_on_plane(m, f, 1, 2));
  }
  return false;
}

static int32_t count_tag(const int32_t *tags, int32_t first, int32_t end, int32_t tag) {
  int32_t n = 0;
  for (int32_t i = first; i < end; i++) n += tags[i] == tag;
  return n;
}

/* The tag names are those of the file's $PhysicalNames, found by name and
 * by number. */
static void check_names(const expected_file *x, const hdgcl_mesh *m) {
  int32_t count = 0;
  for (const char *line = x->names; *line; line = strchr(line, '\n') + 1, count++) {
    char kind, name[64];
    int tag;
    CHECK(sscanf(line, "%c %d %63s", &kind, &tag, name) == 3);
    int dim = kind == 'b' ? m->dim - 1 : m->dim;
    const char *got = hdgcl_mesh_tag_name(m, dim, tag);
    CHECK_MSG(got && !strcmp(got, name), "tag %c %d named %s, expected %s", kind, tag,
              got ? got : "NULL", name);
    int32_t found = -1;
    CHECK_OK(hdgcl_mesh_find_tag(m, dim, name, &found));
    CHECK(found == tag);
    char number[16];
    snprintf(number, sizeof number, "%d", tag);
    found = -1;
    CHECK_OK(hdgcl_mesh_find_tag(m, dim, number, &found));
    CHECK(found == tag);
    /* no file gives a boundary and an element group the same number */
    CHECK(hdgcl_mesh_tag_name(m, kind == 'b' ? m->dim : m->dim - 1, tag) == NULL);
  }
  CHECK(m->num_tag_names == count);
}

static void check_file(const char *data, const expected_file *x) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", data, x->name);
  int before = check_failures;
  hdgcl_mesh *m = NULL;
  CHECK_OK(hdgcl_mesh_read_gmsh(path, &m));
  if (!m) goto done;
  CHECK_OK(hdgcl_mesh_validate(m));
  CHECK(m->type == x->type);
  CHECK(m->num_vertices == x->vertices);
  CHECK(m->num_elements == x->elements);
  CHECK(m->num_faces - m->num_interior_faces == x->boundary_faces);
  int32_t listed = 0;
  for (int k = 0; k < 3 && x->elem_tags[k][1]; k++) {
    CHECK_MSG(count_tag(m->elem_tags, 0, m->num_elements, x->elem_tags[k][0]) == x->elem_tags[k][1],
              "element tag %d", (int)x->elem_tags[k][0]);
    listed += x->elem_tags[k][1];
  }
  CHECK(listed == m->num_elements);
  listed = 0;
  for (int k = 0; k < 7 && x->face_tags[k][1]; k++) {
    CHECK_MSG(count_tag(m->face_tags, m->num_interior_faces, m->num_faces, x->face_tags[k][0]) ==
                  x->face_tags[k][1],
              "face tag %d", (int)x->face_tags[k][0]);
    listed += x->face_tags[k][1];
  }
  CHECK(listed == m->num_faces - m->num_interior_faces);
  for (int32_t f = m->num_interior_faces; f < m->num_faces; f++)
    CHECK_MSG(face_where_tag_says(x, m, f), "boundary face %d with tag %d is not on its side",
              (int)f, (int)m->face_tags[f]);
  if (x->type == HDGCL_TRIANGLE) /* regions: 10 left of x = 1, 11 right of it */
    for (int32_t e = 0; e < m->num_elements; e++) {
      double cx = 0;
      for (int i = 0; i < 3; i++) cx += m->coords[2 * (int64_t)m->elem_verts[3 * e + i]] / 3;
      CHECK(m->elem_tags[e] == (cx < 1 ? 10 : 11));
    }
  double total;
  tmc_check_measures(m, &total);
  CHECK_NEAR(total, x->measure, 1e-12);
  tmc_check_topology(m);
  tmc_check_euler(m);
  check_names(x, m);
done:
  hdgcl_mesh_destroy(&m);
  if (check_failures != before) fprintf(stderr, "  ... reading %s\n", path);
}

/* Files a and b (in data unless a is a path) read to the same mesh; the
 * coordinates the same to within tolerance (0: bit for bit; Gmsh's ASCII
 * files give 16 digits, its binary ones the doubles). */
static void check_same_file(const char *data, const char *a, const char *b, double tolerance) {
  char path_a[1024], path_b[1024];
  snprintf(path_a, sizeof path_a, a[0] == '/' ? "%.0s%s" : "%s/%s", data, a);
  snprintf(path_b, sizeof path_b, "%s/%s", data, b);
  hdgcl_mesh *ma = NULL, *mb = NULL;
  CHECK_OK(hdgcl_mesh_read_gmsh(path_a, &ma));
  CHECK_OK(hdgcl_mesh_read_gmsh(path_b, &mb));
  if (ma && mb && tolerance > 0 && ma->num_vertices == mb->num_vertices && ma->dim == mb->dim) {
    double error = 0;
    for (int64_t i = 0; i < (int64_t)ma->num_vertices * ma->dim; i++) {
      error = fmax(error, fabs(ma->coords[i] - mb->coords[i]));
      ma->coords[i] = mb->coords[i];
    }
    CHECK_MSG(error <= tolerance, "%s: coordinates differ by %g", b, error);
  }
  if (ma && mb && tmc_check_same_mesh(ma, mb)) fprintf(stderr, "  ... %s against %s\n", b, a);
  hdgcl_mesh_destroy(&ma);
  hdgcl_mesh_destroy(&mb);
}

int main(void) {
  const char *data = getenv("HDGCL_TEST_DATA");
  CHECK_MSG(data != NULL, "HDGCL_TEST_DATA is not set");
  if (!data) CHECK_DONE();
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
    check_file(data, &files[i]);
    size_t n = strlen(files[i].name);
    if (n < 6 || strcmp(files[i].name + n - 6, "41.msh")) continue;
    /* the binary twin: the same checks, and the same mesh */
    char name[64];
    snprintf(name, sizeof name, "%.*s_bin.msh", (int)(n - 4), files[i].name);
    expected_file binary = files[i];
    binary.name = name;
    check_file(data, &binary);
    check_same_file(data, files[i].name, name, 0);
  }
  char plate[1024];
  snprintf(plate, sizeof plate, "%s/../../examples/plate-hole.msh", data);
  check_same_file(data, plate, "gmsh_plate-hole_bin.msh", 1e-13);
  CHECK_DONE();
}
