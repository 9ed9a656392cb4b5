/* Tag names (meshgen/tag_names.c): hdgcl_mesh_set_tag_name keeps the table
 * sorted and replaces names; hdgcl_mesh_find_tag takes names and numbers;
 * every refusal, with its message. */
#include <string.h>

#include "mesh_internal.h"
#include "test_mesh_checks.h"

/* The last error message contains part. */
#define CHECK_ERROR_HAS(part)                                                                    \
  CHECK_MSG(strstr(hdgcl_last_error(), part) != NULL, "message '%s' lacks '%s'",                \
            hdgcl_last_error(), part)

static void check_lookups(void) {
  hdgcl_mesh *m = NULL;
  CHECK_OK(hdgcl_mesh_create_from_spec("square:2,split=x:0.5", &m));
  if (!m) return;
  int32_t tag = -1;
  /* by name, by number (with a sign too), the sides' names */
  CHECK_OK(hdgcl_mesh_find_tag(m, 1, "top", &tag));
  CHECK(tag == 4);
  CHECK_OK(hdgcl_mesh_find_tag(m, 1, "3", &tag));
  CHECK(tag == 3);
  CHECK_OK(hdgcl_mesh_find_tag(m, 1, "+2", &tag));
  CHECK(tag == 2);
  CHECK_OK(hdgcl_mesh_find_tag(m, 2, "2", &tag));
  CHECK(tag == 2);
  CHECK(!strcmp(hdgcl_mesh_tag_name(m, 1, 1), "left"));
  CHECK(hdgcl_mesh_tag_name(m, 2, 1) == NULL);
  CHECK(hdgcl_mesh_tag_name(NULL, 1, 1) == NULL);

  /* the example of mesh.h, word for word */
  CHECK_FAILS(hdgcl_mesh_find_tag(m, 1, "cone", &tag), HDGCL_ERROR_ARGUMENT);
  CHECK(!strcmp(hdgcl_last_error(), "boundary tag 'cone': no such name in the mesh (boundary "
                                    "tags: 1 'left', 2 'right', 3 'bottom', 4 'top')"));
  /* a number must occur in the mesh, named or not */
  CHECK_FAILS(hdgcl_mesh_find_tag(m, 1, "5", &tag), HDGCL_ERROR_ARGUMENT);
  CHECK_ERROR_HAS("boundary tag '5': no such tag in the mesh (boundary tags: 1 'left',");
  CHECK_FAILS(hdgcl_mesh_find_tag(m, 1, "0", &tag), HDGCL_ERROR_ARGUMENT); /* all faces tagged */
  CHECK_FAILS(hdgcl_mesh_find_tag(m, 1, "-1", &tag), HDGCL_ERROR_ARGUMENT);
  CHECK_FAILS(hdgcl_mesh_find_tag(m, 1, "99999999999", &tag), HDGCL_ERROR_ARGUMENT);
  CHECK_ERROR_HAS("boundary tag '99999999999': out of range for a tag");
  CHECK_FAILS(hdgcl_mesh_find_tag(m, 1, "", &tag), HDGCL_ERROR_ARGUMENT);
  CHECK_ERROR_HAS("boundary tag '': empty name");
  CHECK_FAILS(hdgcl_mesh_find_tag(m, 1, "3x", &tag), HDGCL_ERROR_ARGUMENT); /* a name, unknown */
  CHECK_ERROR_HAS("no such name");
  CHECK_FAILS(hdgcl_mesh_find_tag(m, 1, "Left", &tag), HDGCL_ERROR_ARGUMENT); /* exact case */
  /* element tags: those of the mesh merged with the named ones */
  CHECK_OK(hdgcl_mesh_set_tag_name(m, 2, 7, "spare"));
  CHECK_OK(hdgcl_mesh_set_tag_name(m, 2, 1, "soft"));
  CHECK_FAILS(hdgcl_mesh_find_tag(m, 2, "steel", &tag), HDGCL_ERROR_ARGUMENT);
  CHECK(!strcmp(hdgcl_last_error(), "element tag 'steel': no such name in the mesh (element "
                                    "tags: 1 'soft', 2, 7 'spare')"));
  CHECK_OK(hdgcl_mesh_find_tag(m, 2, "spare", &tag)); /* a name needs no elements */
  CHECK(tag == 7);
  CHECK_FAILS(hdgcl_mesh_find_tag(m, 2, "7", &tag), HDGCL_ERROR_ARGUMENT); /* a number does */
  CHECK_OK(hdgcl_mesh_find_tag(m, 2, "soft", &tag));
  CHECK(tag == 1);
  CHECK_FAILS(hdgcl_mesh_find_tag(m, 1, "soft", &tag), HDGCL_ERROR_ARGUMENT); /* other dim */

  /* arguments */
  CHECK_FAILS(hdgcl_mesh_find_tag(NULL, 1, "top", &tag), HDGCL_ERROR_ARGUMENT);
  CHECK_ERROR_HAS("NULL mesh");
  CHECK_FAILS(hdgcl_mesh_find_tag(m, 0, "top", &tag), HDGCL_ERROR_ARGUMENT);
  CHECK_ERROR_HAS("dimension 0 (a 2D mesh has element tags of dimension 2 and boundary tags of "
                  "dimension 1)");
  CHECK_FAILS(hdgcl_mesh_find_tag(m, 3, "top", &tag), HDGCL_ERROR_ARGUMENT);
  CHECK_FAILS(hdgcl_mesh_find_tag(m, 1, NULL, &tag), HDGCL_ERROR_ARGUMENT);
  CHECK_FAILS(hdgcl_mesh_find_tag(m, 1, "top", NULL), HDGCL_ERROR_ARGUMENT);
  hdgcl_mesh_destroy(&m);

  /* untagged boundary faces: tag 0 is found by number */
  CHECK_OK(hdgcl_mesh_create_from_spec("hex:1", &m));
  if (!m) return;
  m->face_tags[m->num_faces - 1] = 0;
  CHECK_OK(hdgcl_mesh_find_tag(m, 2, "0", &tag));
  CHECK(tag == 0);
  CHECK_OK(hdgcl_mesh_find_tag(m, 2, "front", &tag));
  CHECK(tag == 6);
  hdgcl_mesh_destroy(&m);
}

/* A mesh without topology has no boundary tags; a long list is cut. */
static void check_lists(void) {
  hdgcl_mesh *m = NULL;
  CHECK_OK(hdgcl_mesh_create_from_spec("square:20", &m));
  if (!m) return;
  for (int32_t e = 0; e < m->num_elements; e++) m->elem_tags[e] = 1000 + e;
  int32_t tag;
  CHECK_FAILS(hdgcl_mesh_find_tag(m, 2, "x", &tag), HDGCL_ERROR_ARGUMENT);
  CHECK_ERROR_HAS("(element tags: 1000, 1001, 1002, ");
  CHECK_ERROR_HAS(", ...)");
  CHECK(strlen(hdgcl_last_error()) < 720);
  CHECK_OK(hdgcl_mesh_find_tag(m, 2, "1799", &tag));
  CHECK(tag == 1799);
  hdgcl_mesh_destroy(&m);

  CHECK_OK(hdgcl_mesh_create_from_spec("square:1", &m));
  if (!m) return;
  hdgcl_mesh_free_topology(m); /* as hdgcl_mesh_allocate leaves it */
  CHECK_FAILS(hdgcl_mesh_find_tag(m, 1, "1", &tag), HDGCL_ERROR_ARGUMENT);
  CHECK(!strcmp(hdgcl_last_error(), "boundary tag '1': no such tag in the mesh (boundary tags: "
                                    "1 'left', 2 'right', 3 'bottom', 4 'top')"));
  m->num_tag_names = 0;
  CHECK_FAILS(hdgcl_mesh_find_tag(m, 1, "left", &tag), HDGCL_ERROR_ARGUMENT);
  CHECK(!strcmp(hdgcl_last_error(), "boundary tag 'left': no such name in the mesh (the mesh has "
                                    "no boundary tags)"));
  hdgcl_mesh_destroy(&m);
}

static void check_set(void) {
  hdgcl_mesh *m = NULL;
  CHECK_OK(hdgcl_mesh_create_from_spec("cube:1", &m));
  if (!m) return;
  /* added in (dim, tag) order wherever they come */
  CHECK_OK(hdgcl_mesh_set_tag_name(m, 3, 2, "rubber"));
  CHECK_OK(hdgcl_mesh_set_tag_name(m, 2, 0, "untagged"));
  CHECK_OK(hdgcl_mesh_set_tag_name(m, 2, 100, "far away"));
  CHECK_OK(hdgcl_mesh_set_tag_name(m, 3, -5, "negative"));
  static const int order[][2] = {{2, 0}, {2, 1}, {2, 2}, {2, 3}, {2, 4}, {2, 5},
                                 {2, 6}, {2, 100}, {3, -5}, {3, 2}};
  CHECK(m->num_tag_names == 10);
  for (int i = 0; i < 10 && i < m->num_tag_names; i++)
    CHECK_MSG(m->tag_names[i].dim == order[i][0] && m->tag_names[i].tag == order[i][1],
              "entry %d is (%d, %d)", i, m->tag_names[i].dim, (int)m->tag_names[i].tag);
  /* replacing: the old name is free again; a name may repeat across dimensions */
  CHECK_OK(hdgcl_mesh_set_tag_name(m, 2, 1, "inflow"));
  CHECK_OK(hdgcl_mesh_set_tag_name(m, 2, 2, "left"));
  CHECK_OK(hdgcl_mesh_set_tag_name(m, 2, 2, "left")); /* its own name again */
  CHECK_OK(hdgcl_mesh_set_tag_name(m, 3, 1, "left"));
  CHECK(m->num_tag_names == 11);
  CHECK(!strcmp(hdgcl_mesh_tag_name(m, 2, 1), "inflow"));
  CHECK(!strcmp(hdgcl_mesh_tag_name(m, 2, 2), "left"));
  int32_t tag = -1;
  CHECK_OK(hdgcl_mesh_find_tag(m, 2, "left", &tag));
  CHECK(tag == 2);
  CHECK_OK(hdgcl_mesh_find_tag(m, 3, "left", &tag));
  CHECK(tag == 1);
  char longest[64];
  memset(longest, 'n', 63);
  longest[63] = '\0';
  CHECK_OK(hdgcl_mesh_set_tag_name(m, 2, 7, longest));
  CHECK(!strcmp(hdgcl_mesh_tag_name(m, 2, 7), longest));

  /* refusals leave the table as it was */
  int32_t count = m->num_tag_names;
  CHECK_FAILS(hdgcl_mesh_set_tag_name(m, 2, 3, "inflow"), HDGCL_ERROR_ARGUMENT);
  CHECK_ERROR_HAS("name of boundary tag 3: 'inflow' already names boundary tag 1");
  CHECK_FAILS(hdgcl_mesh_set_tag_name(m, 2, 8, ""), HDGCL_ERROR_ARGUMENT);
  CHECK_ERROR_HAS("name of boundary tag 8: '' is empty");
  CHECK_FAILS(hdgcl_mesh_set_tag_name(m, 2, 8, NULL), HDGCL_ERROR_ARGUMENT);
  char too_long[65];
  memset(too_long, 'n', 64);
  too_long[64] = '\0';
  CHECK_FAILS(hdgcl_mesh_set_tag_name(m, 3, 8, too_long), HDGCL_ERROR_ARGUMENT);
  CHECK_ERROR_HAS("name of element tag 8: 'nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn...' is longer "
                  "than 63 characters");
  CHECK_FAILS(hdgcl_mesh_set_tag_name(m, 2, 8, "say \"hi\""), HDGCL_ERROR_ARGUMENT);
  CHECK_ERROR_HAS("holds a '\"' or a control character");
  CHECK_FAILS(hdgcl_mesh_set_tag_name(m, 2, 8, "tab\there"), HDGCL_ERROR_ARGUMENT);
  CHECK_ERROR_HAS("control character");
  static const char *const numbers[] = {"7", "-7", "+7", "007"};
  for (int i = 0; i < 4; i++) {
    CHECK_FAILS(hdgcl_mesh_set_tag_name(m, 2, 8, numbers[i]), HDGCL_ERROR_ARGUMENT);
    CHECK_ERROR_HAS("is a decimal number");
  }
  CHECK_FAILS(hdgcl_mesh_set_tag_name(m, 1, 8, "edge"), HDGCL_ERROR_ARGUMENT);
  CHECK_ERROR_HAS("hdgcl_mesh_set_tag_name: dimension 1 (a 3D mesh");
  CHECK_FAILS(hdgcl_mesh_set_tag_name(NULL, 2, 8, "x"), HDGCL_ERROR_ARGUMENT);
  CHECK(m->num_tag_names == count);
  CHECK(hdgcl_mesh_tag_name(m, 2, 8) == NULL);
  CHECK_OK(hdgcl_mesh_set_tag_name(m, 2, 8, "7a")); /* not a number */
  hdgcl_mesh_destroy(&m);
}

int main(void) {
  check_lookups();
  check_lists();
  check_set();
  CHECK_DONE();
}
