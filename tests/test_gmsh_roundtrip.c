/* Gmsh round trip: every element type and a mixed mesh, written in formats 4.1 and 2.2
 * (ASCII) and 4.1 binary and read back, gives the same mesh (coordinates bit
 * for bit, element order, element tags, boundary tags, tag names,
 * topology).  Also: write errors leave no file. */
#include <string.h>

#include "test_mesh_checks.h"
#include "test_mesh_files.h"

static void round_trip(const char *dir, const char *label, const hdgcl_mesh *m) {
  static const int versions[3] = {41, 22, 41}; /* the last one binary */
  static const char *const headers[3] = {"4.1 0 8\n", "2.2 0 8\n", "4.1 1 8\n"};
  for (int k = 0; k < 3; k++) {
    char path[1024], name[128];
    snprintf(name, sizeof name, "%s_%d%s.msh", label, versions[k], k == 2 ? "_bin" : "");
    tmf_path(dir, name, path, sizeof path);
    int before = check_failures;
    if (k == 2)
      CHECK_OK(hdgcl_mesh_write_gmsh_binary(m, path));
    else
      CHECK_OK(hdgcl_mesh_write_gmsh(m, path, versions[k]));
    hdgcl_mesh *back = NULL;
    CHECK_OK(hdgcl_mesh_read_gmsh(path, &back));
    if (back) {
      tmc_check_same_mesh(m, back);
      CHECK_OK(hdgcl_mesh_validate(back));
    }
    /* the file starts with the requested version */
    FILE *f = fopen(path, "r");
    char line1[64] = "", line2[64] = "";
    if (f) {
      CHECK(fgets(line1, sizeof line1, f) && fgets(line2, sizeof line2, f));
      fclose(f);
    }
    CHECK(!strcmp(line1, "$MeshFormat\n"));
    CHECK(!strcmp(line2, headers[k]));
    hdgcl_mesh_destroy(&back);
    if (check_failures != before) fprintf(stderr, "  ... round trip of %s\n", name);
  }
}

/* Region tags 1..3 on the elements, boundary tags renumbered with some
 * left at 0 (untagged faces are not written, and read back as 0). */
static void retag(hdgcl_mesh *m) {
  for (int32_t e = 0; e < m->num_elements; e++) m->elem_tags[e] = 1 + (e / 3) % 3;
  for (int32_t f = m->num_interior_faces; f < m->num_faces; f++)
    m->face_tags[f] = m->face_tags[f] == 2 ? 0 : 10 * m->face_tags[f];
  /* names: the sides' old names stay (on tags now absent), new ones added */
  CHECK_OK(hdgcl_mesh_set_tag_name(m, m->dim, 2, "steel core"));
  CHECK_OK(hdgcl_mesh_set_tag_name(m, m->dim - 1, 10, "inlet-1"));
  CHECK_OK(hdgcl_mesh_set_tag_name(m, m->dim - 1, 4, "top wall"));
}

int main(void) {
  char *dir = tmf_make_dir();
  CHECK(dir != NULL);
  if (!dir) CHECK_DONE();
  const char *specs[][2] = {{"square:4x3,diag=alt,perturb=0.3,seed=1", "tri"},
                            {"square:1", "tri1"},
                            {"quad:3x5,perturb=0.3", "quad"},
                            {"cube:2x3x2,perturb=0.3,seed=2", "tet"},
                            {"hex:3x2x2,perturb=0.3", "hex"},
                            {"mixed:4,distort=0.1", "mixed"}};
  for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
    hdgcl_mesh *m = NULL;
    CHECK_OK(hdgcl_mesh_create_from_spec(specs[i][0], &m));
    if (!m) continue;
    round_trip(dir, specs[i][1], m);
    retag(m);
    char label[64];
    snprintf(label, sizeof label, "%s_tagged", specs[i][1]);
    round_trip(dir, label, m);
    hdgcl_mesh_destroy(&m);
  }

  /* write errors: nothing is left behind */
  char path[1024];
  hdgcl_mesh *m = NULL;
  CHECK_OK(hdgcl_mesh_create_from_spec("square:2", &m));
  int entries = tmf_count_entries(dir);
  tmf_path(dir, "bad.msh", path, sizeof path);
  CHECK_FAILS(hdgcl_mesh_write_gmsh(m, path, 30), HDGCL_ERROR_ARGUMENT);
  CHECK(strstr(hdgcl_last_error(), "bad.msh") && strstr(hdgcl_last_error(), "41 or 22"));
  m->elem_tags[1] = -4;
  CHECK_FAILS(hdgcl_mesh_write_gmsh(m, path, 41), HDGCL_ERROR_ARGUMENT);
  CHECK(strstr(hdgcl_last_error(), "-4") != NULL);
  m->elem_tags[1] = 0;
  /* a name table filled in by hand that would not read back */
  CHECK(m->num_tag_names == 4);
  m->tag_names[1].name[2] = '"';
  CHECK_FAILS(hdgcl_mesh_write_gmsh(m, path, 41), HDGCL_ERROR_ARGUMENT);
  CHECK(strstr(hdgcl_last_error(), "tag name 1 (tag 2)") != NULL);
  m->tag_names[1].name[2] = 'g';
  m->tag_names[3].dim = 0;
  CHECK_FAILS(hdgcl_mesh_write_gmsh(m, path, 22), HDGCL_ERROR_ARGUMENT);
  CHECK(strstr(hdgcl_last_error(), "tag name 3 (tag 4) has a dimension") != NULL);
  CHECK_FAILS(hdgcl_mesh_write_gmsh_binary(m, path), HDGCL_ERROR_ARGUMENT);
  CHECK(strstr(hdgcl_last_error(), "tag name 3 (tag 4) has a dimension") != NULL);
  CHECK_FAILS(hdgcl_mesh_write_gmsh_binary(NULL, path), HDGCL_ERROR_ARGUMENT);
  CHECK_FAILS(hdgcl_mesh_write_gmsh_binary(m, ""), HDGCL_ERROR_ARGUMENT);
  m->tag_names[3].dim = 1;
  CHECK(tmf_count_entries(dir) == entries);
  CHECK(!tmf_exists(path));
  tmf_path(dir, "no/such/dir/out.msh", path, sizeof path);
  CHECK_FAILS(hdgcl_mesh_write_gmsh(m, path, 22), HDGCL_ERROR_IO);
  CHECK(strstr(hdgcl_last_error(), "out.msh") != NULL);
  /* a file is replaced as a whole */
  tmf_path(dir, "replace.msh", path, sizeof path);
  CHECK(tmf_write(path, "old contents\n") == 0);
  CHECK_OK(hdgcl_mesh_write_gmsh(m, path, 41));
  hdgcl_mesh *back = NULL;
  CHECK_OK(hdgcl_mesh_read_gmsh(path, &back));
  if (back) tmc_check_same_mesh(m, back);
  CHECK(tmf_count_entries(dir) == entries + 1);
  hdgcl_mesh_destroy(&back);
  hdgcl_mesh_destroy(&m);
  tmf_remove_dir(dir);
  CHECK_DONE();
}
