/* Malformed and invalid Gmsh files, written into a temporary directory:
 * each is refused with the right status and a one-line message naming the
 * file and (where there is one) the line; files whose only problem is the
 * vertex order of an element are fixed.  Also $PhysicalNames: malformed
 * sections, and names hdgcl cannot use as tag names. */
#include <string.h>

#include "test_mesh_checks.h"
#include "test_mesh_files.h"

#define HEAD22 "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n"
#define NODES22 "$Nodes\n4\n1 0 0 0\n2 1 0 0\n3 1 1 0\n4 0 1 0\n$EndNodes\n" /* lines 4-10 */
/* elements start at line 11; element lines are 13, 14, 15 */
#define SQUARE22 \
  HEAD22 NODES22 "$Elements\n3\n1 1 2 7 1 1 2\n2 2 2 0 1 1 2 3\n3 2 2 0 1 1 3 4\n$EndElements\n"

/* SQUARE22 with a $PhysicalNames section (lines 4 on; entries from line 6) */
#define ELEMENTS22 "$Elements\n3\n1 1 2 7 1 1 2\n2 2 2 0 1 1 2 3\n3 2 2 0 1 1 3 4\n$EndElements\n"
#define NAMED22(body) HEAD22 "$PhysicalNames\n" body "$EndPhysicalNames\n" NODES22 ELEMENTS22
#define LONG_NAME "the_sixty_four_characters_of_this_name_are_one_more_than_allowed"

typedef struct bad_case {
  const char *name;
  const char *text;
  int status;
  const char *message[3]; /* substrings the message must contain (after "NAME") */
} bad_case;

static const bad_case cases[] = {
    {"empty.msh", "", HDGCL_ERROR_FORMAT, {"empty.msh: ", "end of file"}},
    {"not_gmsh.msh", "hello\n", HDGCL_ERROR_FORMAT, {"not_gmsh.msh:1: ", "not a Gmsh file"}},
    {"binary.msh",
     "$MeshFormat\n4.1 1 8\n",
     HDGCL_ERROR_FORMAT,
     {"binary.msh: byte 20: ", "$MeshFormat: file ends before the binary int 1"}},
    {"binary22.msh",
     "$MeshFormat\n2.2 1 8\n",
     HDGCL_ERROR_FORMAT,
     {"binary22.msh:2: ", "binary Gmsh 2.2 files are not read, only binary 4.1"}},
    {"file_type.msh",
     "$MeshFormat\n4.1 2 8\n",
     HDGCL_ERROR_FORMAT,
     {"file_type.msh:2: ", "file type 2 is not 0 (ASCII) or 1 (binary)"}},
    {"version.msh",
     "$MeshFormat\n3.0 0 8\n$EndMeshFormat\n",
     HDGCL_ERROR_FORMAT,
     {"version.msh:2: ", "version 3.0"}},
    {"no_end_format.msh",
     "$MeshFormat\n2.2 0 8\n$Nodes\n",
     HDGCL_ERROR_FORMAT,
     {"no_end_format.msh:3: ", "expected $EndMeshFormat"}},
    {"truncated.msh",
     HEAD22 "$Nodes\n4\n1 0 0 0\n2 1 0 0\n",
     HDGCL_ERROR_FORMAT,
     {"truncated.msh:7: ", "end of file"}},
    {"no_end_elements.msh",
     HEAD22 NODES22 "$Elements\n1\n1 2 2 0 1 1 2 3\n",
     HDGCL_ERROR_FORMAT,
     {"no_end_elements.msh:13: ", "end of file", "$EndElements"}},
    {"too_few_nodes.msh",
     HEAD22 "$Nodes\n5\n1 0 0 0\n2 1 0 0\n3 1 1 0\n4 0 1 0\n$EndNodes\n",
     HDGCL_ERROR_FORMAT,
     {"too_few_nodes.msh:10: ", "found '$EndNodes'", "before the count"}},
    {"too_many_elements.msh",
     HEAD22 NODES22 "$Elements\n2\n1 1 2 7 1 1 2\n2 2 2 0 1 1 2 3\n3 2 2 0 1 1 3 4\n$EndElements\n",
     HDGCL_ERROR_FORMAT,
     {"too_many_elements.msh:15: ", "expected $EndElements", "more entries"}},
    {"bad_number.msh",
     HEAD22 "$Nodes\n4\n1 0 0 0\n2 1.0x 0 0\n",
     HDGCL_ERROR_FORMAT,
     {"bad_number.msh:7: ", "node coordinate", "1.0x"}},
    {"bad_count.msh",
     HEAD22 "$Nodes\nfour\n",
     HDGCL_ERROR_FORMAT,
     {"bad_count.msh:5: ", "number of nodes", "four"}},
    {"bad_type.msh",
     HEAD22 NODES22 "$Elements\n1\n1 abc 2 0 1 1 2 3\n$EndElements\n",
     HDGCL_ERROR_FORMAT,
     {"bad_type.msh:13: ", "element type", "abc"}},
    {"junk.msh",
     HEAD22 "$Nodes\n1\n1 0 0 0 extra\n$EndNodes\n",
     HDGCL_ERROR_FORMAT,
     {"junk.msh:6: ", "unexpected 'extra'"}},
    {"unknown_type.msh",
     HEAD22 NODES22 "$Elements\n2\n1 2 2 0 1 1 2 3\n2 23 2 0 1 1 2 3 4 1 2\n$EndElements\n",
     HDGCL_ERROR_FORMAT,
     {"unknown_type.msh:14: ", "type 23"}}, /* triangle 15: order 4 */
    {"dangling.msh",
     HEAD22 NODES22 "$Elements\n2\n1 2 2 0 1 1 2 3\n2 2 2 0 1 1 3 99\n$EndElements\n",
     HDGCL_ERROR_FORMAT,
     {"dangling.msh:14: ", "node 99"}},
    {"node_tag_zero.msh",
     HEAD22 "$Nodes\n1\n0 0 0 0\n$EndNodes\n",
     HDGCL_ERROR_FORMAT,
     {"node_tag_zero.msh:6: ", "node tag 0"}},
    {"repeated_node.msh",
     HEAD22 "$Nodes\n3\n1 0 0 0\n2 1 0 0\n1 1 1 0\n$EndNodes\n",
     HDGCL_ERROR_FORMAT,
     {"repeated_node.msh:8: ", "node tag 1 is defined twice"}},
    {"elements_first.msh",
     HEAD22 "$Elements\n0\n$EndElements\n",
     HDGCL_ERROR_FORMAT,
     {"elements_first.msh:4: ", "before $Nodes"}},
    {"no_elements.msh", HEAD22 NODES22, HDGCL_ERROR_FORMAT, {"no_elements.msh: ", "no $Elements"}},
    {"only_lines.msh",
     HEAD22 NODES22 "$Elements\n1\n1 1 2 7 1 1 2\n$EndElements\n",
     HDGCL_ERROR_FORMAT,
     {"only_lines.msh: ", "no triangles"}},
    {"unterminated.msh",
     HEAD22 "$Comments\nsome text\n",
     HDGCL_ERROR_FORMAT,
     {"unterminated.msh:5: ", "missing $EndComments", "line 4"}},
    {"stray_end.msh",
     HEAD22 "$EndNodes\n",
     HDGCL_ERROR_FORMAT,
     {"stray_end.msh:4: ", "without a matching"}},
    {"nul_byte.msh",
     HEAD22 "$Nodes\n1\n1 0 0\0 0\n$EndNodes\n",
     HDGCL_ERROR_FORMAT,
     {"nul_byte.msh:6: ", "NUL byte"}},
    /* triangles (1,2,3), (1,3,4) and (1,3,5) share edge 1-3 */
    {"non_manifold.msh",
     HEAD22 "$Nodes\n5\n1 0 0 0\n2 1 0 0\n3 1 1 0\n4 0 1 0\n5 0 0.5 0\n$EndNodes\n"
            "$Elements\n3\n1 2 2 0 1 1 2 3\n2 2 2 0 1 1 3 4\n3 2 2 0 1 1 3 5\n$EndElements\n",
     HDGCL_ERROR_MESH,
     {"non_manifold.msh:16: ", "elements 1 (line 14), 2 (line 15) and 3 (line 16)",
      "share one face"}},
    /* the same tetrahedron twice */
    {"duplicate.msh",
     HEAD22 "$Nodes\n4\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n$EndNodes\n"
            "$Elements\n2\n1 4 2 0 1 1 2 3 4\n2 4 2 0 1 1 2 3 4\n$EndElements\n",
     HDGCL_ERROR_MESH,
     {"duplicate.msh:14: ", "overlap"}},
    {"degenerate.msh",
     HEAD22 "$Nodes\n4\n1 0 0 0\n2 1 0 0\n3 1 1 0\n4 2 0 0\n$EndNodes\n"
            "$Elements\n2\n1 2 2 0 1 1 2 3\n2 2 2 0 1 1 2 4\n$EndElements\n",
     HDGCL_ERROR_MESH,
     {"degenerate.msh:14: ", "triangle 2 is degenerate"}},
    {"twisted_quad.msh",
     HEAD22 NODES22 "$Elements\n1\n5 3 2 0 1 1 2 4 3\n$EndElements\n",
     HDGCL_ERROR_MESH,
     {"twisted_quad.msh:13: ", "quadrangle 5 is degenerate"}},
    {"z_2d.msh",
     HEAD22 "$Nodes\n4\n1 0 0 0\n2 1 0 0\n3 1 1 0.5\n4 0 1 0\n$EndNodes\n"
            "$Elements\n2\n1 2 2 0 1 1 2 4\n2 2 2 0 1 2 3 4\n$EndElements\n",
     HDGCL_ERROR_FORMAT,
     {"z_2d.msh:14: ", "node 3 at z = 0.5", "flat"}},
    {"mixed.msh",
     HEAD22 NODES22 "$Elements\n2\n1 2 2 0 1 1 2 3\n2 3 2 0 1 1 2 3 4\n$EndElements\n",
     HDGCL_ERROR_MESH,
     {"mixed.msh:14: ", "elements triangle 1 (line 13) and quadrangle 2 (line 14) overlap"}},
    {"not_a_face.msh",
     HEAD22 NODES22 "$Elements\n3\n1 1 2 7 1 2 4\n2 2 2 0 1 1 2 3\n3 2 2 0 1 1 3 4\n$EndElements\n",
     HDGCL_ERROR_FORMAT,
     {"not_a_face.msh:13: ", "line 1 (physical group 7) is not a face"}},
    /* $PhysicalNames */
    {"names_count.msh",
     HEAD22 "$PhysicalNames\nmany\n",
     HDGCL_ERROR_FORMAT,
     {"names_count.msh:5: ", "number of physical names", "many"}},
    {"names_quotes.msh",
     NAMED22("1\n1 7 left\n"),
     HDGCL_ERROR_FORMAT,
     {"names_quotes.msh:6: ", "physical name in double quotes", "'left'"}},
    {"names_missing.msh",
     NAMED22("1\n1 7\n"),
     HDGCL_ERROR_FORMAT,
     {"names_missing.msh:6: ", "double quotes", "line ends early"}},
    {"names_unclosed.msh",
     NAMED22("1\n1 7 \"left wall\n"),
     HDGCL_ERROR_FORMAT,
     {"names_unclosed.msh:6: ", "\"left wall has no closing"}},
    {"names_junk.msh",
     NAMED22("1\n1 7 \"left\" 3\n"),
     HDGCL_ERROR_FORMAT,
     {"names_junk.msh:6: ", "unexpected '3' after the physical name"}},
    {"names_twice.msh",
     NAMED22("3\n1 7 \"a\"\n2 7 \"b\"\n1 7 \"c\"\n"),
     HDGCL_ERROR_FORMAT,
     {"names_twice.msh:8: ", "physical group 7 of dimension 1 is named twice",
      "(\"a\" on line 6)"}},
    {"names_too_few.msh",
     NAMED22("2\n1 7 \"a\"\n"),
     HDGCL_ERROR_FORMAT,
     {"names_too_few.msh:7: ", "physical dimension", "before the count"}},
    {"names_too_many.msh",
     NAMED22("1\n1 7 \"a\"\n2 1 \"b\"\n"),
     HDGCL_ERROR_FORMAT,
     {"names_too_many.msh:7: ", "expected $EndPhysicalNames", "more entries"}},
    {"names_dim.msh",
     NAMED22("1\n4 7 \"a\"\n"),
     HDGCL_ERROR_FORMAT,
     {"names_dim.msh:6: ", "physical dimension 4 out of range"}},
    {"names_second.msh",
     HEAD22 "$PhysicalNames\n0\n$EndPhysicalNames\n$PhysicalNames\n",
     HDGCL_ERROR_FORMAT,
     {"names_second.msh:7: ", "second $PhysicalNames section"}},
    /* names that do not suit hdgcl, in the dimensions it keeps */
    {"names_long.msh",
     NAMED22("1\n1 7 \"" LONG_NAME "\"\n"),
     HDGCL_ERROR_FORMAT,
     {"names_long.msh:6: ", "\"the_sixty_four_characters_of_this_name_a...\"",
      "longer than 63 characters"}},
    {"names_number.msh",
     NAMED22("1\n2 1 \"12\"\n"),
     HDGCL_ERROR_FORMAT,
     {"names_number.msh:6: ", "\"12\" is a decimal number"}},
    {"names_empty.msh",
     NAMED22("2\n2 1 \"domain\"\n1 7 \"\"\n"),
     HDGCL_ERROR_FORMAT,
     {"names_empty.msh:7: ", "\"\" is empty"}},
    {"names_same.msh",
     NAMED22("3\n1 7 \"wall\"\n2 7 \"wall\"\n1 8 \"wall\"\n"),
     HDGCL_ERROR_FORMAT,
     {"names_same.msh:8: ", "\"wall\" of group 8 also names group 7 (line 6) of dimension 1"}},
    /* format 4.1 */
    {"count41.msh",
     "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n$Nodes\n1 4 1 3\n2 1 0 3\n1\n2\n3\n0 0 0\n1 0 0\n0 1 "
     "0\n$EndNodes\n",
     HDGCL_ERROR_FORMAT,
     {"count41.msh:5: ", "declares 4 nodes but its blocks hold 3"}},
    {"block_type41.msh",
     "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n$Nodes\n1 1 1 1\n2 1 0 1\n1\n0 0 0\n$EndNodes\n"
     "$Elements\n1 1 1 1\n3 1 13 1\n1 1 1 1 1 1 1 1 1 1 1\n$EndElements\n", /* prism 18 */
     HDGCL_ERROR_FORMAT,
     {"block_type41.msh:12: ", "type 13"}},
    {"block_dim41.msh",
     "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n$Nodes\n1 1 1 1\n2 1 0 1\n1\n0 0 0\n$EndNodes\n"
     "$Elements\n1 1 1 1\n3 1 2 1\n1 1 1 1\n$EndElements\n",
     HDGCL_ERROR_FORMAT,
     {"block_dim41.msh:12: ", "dimension 3"}},
    {"entities41.msh",
     "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n$Entities\n0 0 1 0\n1 0 0 0 1 1 0 1\n$EndEntities\n",
     HDGCL_ERROR_FORMAT,
     {"entities41.msh:6: ", "physical tag"}},
};

/* A 4.1 file with sparse node tags, a physical group per entity, a clockwise
 * triangle (fixed on reading) and tagged boundary lines. */
static const char good41[] =
    "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n"
    "$PhysicalNames\n2\n1 3 \"bottom\"\n2 8 \"domain\"\n$EndPhysicalNames\n"
    "$Entities\n1 1 1 0\n"
    "4 0 0 0 0\n"                /* a point without physical group */
    "5 0 0 0 1 0 0 1 3 2 4 -4\n" /* curve 5 in physical 3 */
    "9 0 0 0 1 1 0 2 8 12 1 5\n" /* surface 9 in physical 8 (and 12: first wins) */
    "$EndEntities\n"
    "$Nodes\n2 4 10 400\n0 4 0 1\n10\n0 0 0\n2 9 0 3\n20\n300\n400\n1 0 0\n1 1 0\n0 1 "
    "0\n$EndNodes\n"
    "$Elements\n3 4 1 8\n"
    "0 4 15 1\n1 10\n"                     /* point: skipped */
    "1 5 1 1\n2 10 20\n"                   /* bottom edge, physical 3 */
    "2 9 2 2\n7 10 20 300\n8 10 400 300\n" /* element 8 is clockwise */
    "$EndElements\n"
    "$NodeData\n1\n\"x\"\n$EndNodeData\n";

static void check_good41(const char *dir) {
  char path[1024];
  tmf_path(dir, "good41.msh", path, sizeof path);
  CHECK(tmf_write(path, good41) == 0);
  hdgcl_mesh *m = NULL;
  CHECK_OK(hdgcl_mesh_read_gmsh(path, &m));
  if (!m) return;
  CHECK_OK(hdgcl_mesh_validate(m));
  CHECK(m->type == HDGCL_TRIANGLE && m->num_vertices == 4 && m->num_elements == 2);
  /* vertices in node tag order 10, 20, 300, 400 */
  const double xy[8] = {0, 0, 1, 0, 1, 1, 0, 1};
  CHECK(!memcmp(m->coords, xy, sizeof xy));
  CHECK(m->elem_tags[0] == 8 && m->elem_tags[1] == 8);
  const int32_t second[3] = {0, 2, 3}; /* (10,400,300) mirrored to (10,300,400) */
  CHECK(!memcmp(m->elem_verts + 3, second, sizeof second));
  int tagged = 0;
  for (int32_t f = m->num_interior_faces; f < m->num_faces; f++) {
    bool bottom = m->face_verts[2 * f] == 0 && m->face_verts[2 * f + 1] == 1;
    CHECK(m->face_tags[f] == (bottom ? 3 : 0));
    tagged += bottom;
  }
  CHECK(tagged == 1);
  tmc_check_topology(m);
  CHECK(m->num_tag_names == 2);
  CHECK(!strcmp(hdgcl_mesh_tag_name(m, 1, 3), "bottom"));
  CHECK(!strcmp(hdgcl_mesh_tag_name(m, 2, 8), "domain"));
  hdgcl_mesh_destroy(&m);
}

/* Names the mesh does not keep (points, volumes in 2D) are not checked;
 * names may hold blanks and name groups without elements. */
static void check_names_kept(const char *dir) {
  char path[1024];
  tmf_path(dir, "names_kept.msh", path, sizeof path);
  CHECK(tmf_write(path, NAMED22("5\n0 1 \"" LONG_NAME "\"\n3 1 \"12\"\n1 7 \"left  wall\"\n"
                                "1 9 \"unused\"\n2 0 \"no group\"\n")) == 0);
  hdgcl_mesh *m = NULL;
  CHECK_OK(hdgcl_mesh_read_gmsh(path, &m));
  if (!m) return;
  CHECK(m->num_tag_names == 3);
  CHECK(!strcmp(hdgcl_mesh_tag_name(m, 1, 7), "left  wall"));
  CHECK(!strcmp(hdgcl_mesh_tag_name(m, 1, 9), "unused"));
  CHECK(!strcmp(hdgcl_mesh_tag_name(m, 2, 0), "no group"));
  int32_t tag = -1;
  CHECK_OK(hdgcl_mesh_find_tag(m, 1, "left  wall", &tag));
  CHECK(tag == 7);
  CHECK_OK(hdgcl_mesh_find_tag(m, 1, "unused", &tag));
  CHECK(tag == 9);
  CHECK_OK(hdgcl_mesh_find_tag(m, 2, "no group", &tag));
  CHECK(tag == 0);
  hdgcl_mesh_destroy(&m);
}

/* Mirrored hexahedron (top and bottom swapped) in a 2.2 file: fixed. */
static void check_mirrored_hex(const char *dir) {
  char path[1024];
  tmf_path(dir, "mirrored_hex.msh", path, sizeof path);
  CHECK(tmf_write(path, HEAD22 "$Nodes\n8\n1 0 0 0\n2 1 0 0\n3 1 1 0\n4 0 1 0\n"
                               "5 0 0 1\n6 1 0 1\n7 1 1 1\n8 0 1 1\n$EndNodes\n"
                               "$Elements\n1\n1 5 2 4 1 5 6 7 8 1 2 3 4\n$EndElements\n") == 0);
  hdgcl_mesh *m = NULL;
  CHECK_OK(hdgcl_mesh_read_gmsh(path, &m));
  if (!m) return;
  CHECK_OK(hdgcl_mesh_validate(m));
  CHECK_NEAR(hdgcl_mesh_element_measure(m, 0), 1, 1e-15);
  CHECK(m->elem_tags[0] == 4 && m->num_faces == 6);
  hdgcl_mesh_destroy(&m);
}

int main(void) {
  char *dir = tmf_make_dir();
  CHECK(dir != NULL);
  if (!dir) CHECK_DONE();
  char path[1024];

  /* the base file is valid: the failures below come from the one change each makes */
  tmf_path(dir, "square.msh", path, sizeof path);
  CHECK(tmf_write(path, SQUARE22) == 0);
  hdgcl_mesh *m = NULL;
  CHECK_OK(hdgcl_mesh_read_gmsh(path, &m));
  if (m) {
    CHECK(m->num_elements == 2 && m->num_vertices == 4 && m->num_faces == 5);
    int tagged = 0;
    for (int32_t f = m->num_interior_faces; f < m->num_faces; f++) tagged += m->face_tags[f] == 7;
    CHECK(tagged == 1);
  }
  hdgcl_mesh_destroy(&m);

  /* Windows line ends are fine */
  char crlf[sizeof SQUARE22 * 2];
  size_t length = 0;
  for (const char *s = SQUARE22; *s; s++) {
    if (*s == '\n') crlf[length++] = '\r';
    crlf[length++] = *s;
  }
  crlf[length] = '\0';
  tmf_path(dir, "crlf.msh", path, sizeof path);
  CHECK(tmf_write(path, crlf) == 0);
  CHECK_OK(hdgcl_mesh_read_gmsh(path, &m));
  CHECK(m && m->num_elements == 2 && m->num_faces == 5);
  hdgcl_mesh_destroy(&m);

  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const bad_case *c = &cases[i];
    tmf_path(dir, c->name, path, sizeof path);
    /* written with fwrite of the full literal so that the NUL case keeps its NUL */
    FILE *f = fopen(path, "wb");
    size_t n = strlen(c->text);
    if (!strcmp(c->name, "nul_byte.msh")) n += strlen(c->text + n + 1) + 1;
    CHECK(f && fwrite(c->text, 1, n, f) == n);
    if (f) fclose(f);
    m = NULL;
    int status = hdgcl_mesh_read_gmsh(path, &m);
    const char *msg = hdgcl_last_error();
    if (getenv("HDGCL_TEST_VERBOSE")) printf("%s\n", msg);
    CHECK_MSG(status == c->status, "%s: status %s, expected %s (%s)", c->name,
              hdgcl_status_name(status), hdgcl_status_name(c->status), msg);
    CHECK_MSG(m == NULL, "%s: a mesh was returned", c->name);
    CHECK_MSG(strstr(msg, path) == msg, "%s: message does not start with the path: %s", c->name,
              msg);
    for (int k = 0; k < 3 && c->message[k]; k++)
      CHECK_MSG(strstr(msg, c->message[k]) != NULL, "%s: message '%s' lacks '%s'", c->name, msg,
                c->message[k]);
    CHECK_MSG(strchr(msg, '\n') == NULL, "%s: message has several lines", c->name);
    hdgcl_mesh_destroy(&m);
  }
  check_good41(dir);
  check_names_kept(dir);
  check_mirrored_hex(dir);
  tmf_remove_dir(dir);
  CHECK_DONE();
}
