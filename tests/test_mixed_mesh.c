/* Mixed meshes (docs/geometry.md, "Mixed meshes"): triangles and
 * quadrilaterals in one 2D mesh.
 * 1. mixed:N: the types' ranges and counts, the area, the faces across the
 *    tri-quad interface x = 0.5 (one triangle and one quadrilateral each,
 *    seen with opposite orientation parity), validation;
 * 2. tests/data/gmsh_mixed22.msh (written by hand, types interleaved in the
 *    file): triangles first, element and boundary tags;
 * 3. refusals: hanging nodes (faces that do not match across the types),
 *    mixed curved and mixed 3D files, spec modifiers, and solving what
 *    does not run on mixed meshes yet (solving: test_mixed_solve).
 * The Gmsh round trip of a mixed mesh is in test_gmsh_roundtrip. */
#include <stdlib.h>
#include <string.h>

#include "hdg_test.h"
#include "test_mesh_files.h"

static void generated(void) {
  for (int n = 2; n <= 8; n += 2) {
    hdgcl_mesh *m = NULL;
    char spec[32];
    snprintf(spec, sizeof spec, "mixed:%d", n);
    CHECK_OK(hdgcl_mesh_create_from_spec(spec, &m));
    if (!m) continue;
    CHECK_OK(hdgcl_mesh_validate(m));
    CHECK(hdgcl_mesh_is_mixed(m) && m->num_types == 2 && m->types[0] == HDGCL_TRIANGLE &&
          m->types[1] == HDGCL_QUADRILATERAL && m->type == HDGCL_TRIANGLE);
    CHECK(m->verts_per_element == 4 && m->faces_per_element == 4 && m->verts_per_face == 2);
    CHECK(hdgcl_mesh_count_type(m, HDGCL_TRIANGLE) == n * n &&
          hdgcl_mesh_count_type(m, HDGCL_QUADRILATERAL) == n * n / 2);
    CHECK(m->type_first[0] == 0 && m->type_first[1] == n * n && m->type_first[2] == m->num_elements);
    double area = 0.0;
    for (int32_t e = 0; e < m->num_elements; e++) {
      int tri = e < n * n;
      area += hdgcl_mesh_element_measure(m, e);
      CHECK(hdgcl_mesh_element_type(m, e) == (tri ? HDGCL_TRIANGLE : HDGCL_QUADRILATERAL));
      CHECK(hdgcl_mesh_element_verts(m, e) == (tri ? 3 : 4) && hdgcl_mesh_element_faces(m, e) == (tri ? 3 : 4));
      if (tri) CHECK(m->elem_verts[4 * e + 3] == -1 && m->elem_faces[4 * e + 3] == -1);
    }
    CHECK_NEAR(area, 1.0, 1e-14);
    /* faces: 3 n^2 + 4 n^2 / 2 element sides, 4 n on the boundary */
    CHECK(m->num_faces - m->num_interior_faces == 4 * n && 2 * m->num_interior_faces + 4 * n == 5 * n * n);
    int interface = 0;
    for (int32_t f = 0; f < m->num_interior_faces; f++) {
      int32_t a = m->face_elems[2 * f], b = m->face_elems[2 * f + 1];
      if (hdgcl_mesh_element_type(m, a) == hdgcl_mesh_element_type(m, b)) continue;
      interface++;
      for (int j = 0; j < 2; j++) CHECK(m->coords[2 * m->face_verts[2 * f + j]] == 0.5);
      CHECK(m->face_orient[2 * f] != m->face_orient[2 * f + 1]); /* opposite directions */
      CHECK(m->face_local[2 * f] >= 0 && m->face_local[2 * f] < 3 && m->face_local[2 * f + 1] >= 0 &&
            m->face_local[2 * f + 1] < 4);
    }
    CHECK_MSG(interface == n, "%s: %d faces across the types", spec, interface);
    printf("%-10s %d triangles, %d quadrilaterals, %d faces (%d across the types)\n", spec,
           (int)hdgcl_mesh_count_type(m, HDGCL_TRIANGLE), (int)hdgcl_mesh_count_type(m, HDGCL_QUADRILATERAL),
           (int)m->num_faces, interface);
    hdgcl_mesh_destroy(&m);
  }
  hdgcl_mesh *m = NULL; /* split and distort apply */
  CHECK_OK(hdgcl_mesh_create_from_spec("mixed:4,distort=0.1,split=x:0.3", &m));
  if (m) {
    CHECK_OK(hdgcl_mesh_validate(m));
    CHECK(m->elem_tags[0] == 1 && m->elem_tags[m->num_elements - 1] == 2);
  }
  hdgcl_mesh_destroy(&m);
}

static void gmsh_file(void) {
  const char *data = getenv("HDGCL_TEST_DATA");
  CHECK_MSG(data != NULL, "HDGCL_TEST_DATA is not set");
  if (!data) return;
  char path[1024];
  snprintf(path, sizeof path, "%s/gmsh_mixed22.msh", data);
  hdgcl_mesh *m = NULL;
  CHECK_OK(hdgcl_mesh_read_gmsh(path, &m));
  if (!m) return;
  CHECK_OK(hdgcl_mesh_validate(m));
  CHECK(hdgcl_mesh_is_mixed(m) && hdgcl_mesh_count_type(m, HDGCL_TRIANGLE) == 4 &&
        hdgcl_mesh_count_type(m, HDGCL_QUADRILATERAL) == 2 && m->num_vertices == 9);
  for (int32_t e = 0; e < m->num_elements; e++) /* fluid (7) triangles, solid (8) quadrilaterals */
    CHECK(m->elem_tags[e] == (e < 4 ? 7 : 8));
  int32_t tag;
  CHECK_OK(hdgcl_mesh_find_tag(m, 2, "solid", &tag));
  CHECK(tag == 8);
  int left = 0, right = 0;
  for (int32_t f = m->num_interior_faces; f < m->num_faces; f++) {
    left += m->face_tags[f] == 1;
    right += m->face_tags[f] == 2;
  }
  CHECK(left == 2 && right == 2);
  double area = 0.0;
  for (int32_t e = 0; e < m->num_elements; e++) area += hdgcl_mesh_element_measure(m, e);
  CHECK_NEAR(area, 1.0, 1e-15);
  hdgcl_mesh_destroy(&m);
}

#define HEAD22 "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n"

static void refusals(const char *dir) {
  const struct {
    const char *name, *text;
    int status;
    const char *message[2];
  } cases[] = {
      /* a quadrilateral's side against two triangles' sides (node 7 hangs) */
      {"hanging.msh",
       HEAD22 "$Nodes\n7\n1 0 0 0\n2 1 0 0\n3 1 1 0\n4 0 1 0\n5 2 0 0\n6 2 1 0\n7 1 0.5 0\n$EndNodes\n"
              "$Elements\n4\n1 3 2 0 1 1 2 3 4\n2 2 2 0 1 2 5 7\n3 2 2 0 1 5 6 7\n4 2 2 0 1 7 6 3\n"
              "$EndElements\n",
       HDGCL_ERROR_MESH,
       {"hanging.msh:16: quadrangle 1: its side from node 2 to node 3", "node 7 lies inside it"}},
      {"curved.msh",
       HEAD22 "$Nodes\n6\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0.5 0 0\n5 0.5 0.5 0\n6 0 0.5 0\n$EndNodes\n"
              "$Elements\n2\n1 9 2 0 1 1 2 3 4 5 6\n2 3 2 0 1 2 5 3 1\n$EndElements\n",
       HDGCL_ERROR_FORMAT,
       {"curved.msh:", "mixed meshes are straight-sided triangles and quadrangles"}},
      {"tet_hex.msh",
       HEAD22 "$Nodes\n8\n1 0 0 0\n2 1 0 0\n3 1 1 0\n4 0 1 0\n5 0 0 1\n6 1 0 1\n7 1 1 1\n8 0 1 1\n"
              "$EndNodes\n$Elements\n2\n1 5 2 0 1 1 2 3 4 5 6 7 8\n2 4 2 0 1 1 2 4 5\n$EndElements\n",
       HDGCL_ERROR_FORMAT,
       {"tet_hex.msh:", "mixed element types: tetrahedron"}},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char path[1024];
    tmf_path(dir, cases[i].name, path, sizeof path);
    CHECK(tmf_write(path, cases[i].text) == 0);
    hdgcl_mesh *m = NULL;
    int status = hdgcl_mesh_read_gmsh(path, &m);
    const char *msg = hdgcl_last_error();
    printf("%-12s %s\n", cases[i].name, msg);
    CHECK_MSG(status == cases[i].status && !m, "%s: %s", cases[i].name, hdgcl_status_name(status));
    for (int k = 0; k < 2; k++)
      CHECK_MSG(strstr(msg, cases[i].message[k]) != NULL, "%s: '%s' lacks '%s'", cases[i].name, msg,
                cases[i].message[k]);
    hdgcl_mesh_destroy(&m);
  }
  const char *specs[][2] = {{"mixed:3", "n must be even"},
                            {"mixed:4x2", "one cell count"},
                            {"mixed:4,perturb=0.1", "does not apply to a mixed mesh"},
                            {"mixed:4,order=2", "does not apply to a mixed mesh"}};
  for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
    hdgcl_mesh *m = NULL;
    CHECK_FAILS(hdgcl_mesh_create_from_spec(specs[i][0], &m), HDGCL_ERROR_ARGUMENT);
    CHECK_MSG(strstr(hdgcl_last_error(), specs[i][1]) != NULL, "%s: %s", specs[i][0], hdgcl_last_error());
  }
  /* solving: what does not run on mixed meshes yet names the mesh as mixed
   * (the rest: test_mixed_solve) */
  hdgcl_context ref = NULL;
  CHECK_OK(hdgcl_context_create("ref", NULL, &ref));
  solved s = solve_with(ref, "mixed:4", "problem", "neo-hookean", "order", "1", NULL);
  CHECK(s.status == HDGCL_ERROR_MESH && strstr(hdgcl_last_error(), "the mesh is mixed (16 triangles, 8 quadrilaterals)"));
  solved_destroy(&s);
  hdgcl_context_destroy(&ref);
}

int main(void) {
  char *dir = tmf_make_dir();
  CHECK(dir != NULL);
  if (!dir) CHECK_DONE();
  generated();
  gmsh_file();
  refusals(dir);
  CHECK_DONE();
}
