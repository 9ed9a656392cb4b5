/* Gmsh format 2.2 sections:
 *   $Nodes: count, then "tag x y z" lines.
 *   $Elements: count, then "number type ntags tag... node..." lines; the
 *   first tag is the physical group (0 = none), the second the elementary
 *   entity. */
#include "core/error.h"
#include "gmsh_sections.h"

int gmsh_read_nodes22(gmsh_input *in, gmsh_content *c) {
  int64_t count;
  HDGCL_TRY(gmsh_next_line(in, "the number of nodes", NULL));
  HDGCL_TRY(gmsh_int(in, "number of nodes", 0, INT32_MAX, &count));
  HDGCL_TRY(gmsh_end_of_line(in, "the number of nodes"));
  for (int64_t i = 0; i < count; i++) {
    int64_t tag;
    HDGCL_TRY(gmsh_next_line(in, "a node line (tag x y z)", NULL));
    HDGCL_TRY(gmsh_int(in, "node tag", 1, INT64_MAX, &tag));
    HDGCL_TRY(gmsh_add_node(c, tag, in->path, in->line_no));
    double *xyz = c->node_xyz + 3 * (c->num_nodes - 1);
    for (int d = 0; d < 3; d++) HDGCL_TRY(gmsh_real(in, "node coordinate", &xyz[d]));
    HDGCL_TRY(gmsh_end_of_line(in, "the node coordinates"));
  }
  HDGCL_TRY(gmsh_expect_line(in, "$EndNodes"));
  return gmsh_index_nodes(c, in->path);
}

int gmsh_read_elements22(gmsh_input *in, gmsh_content *c) {
  int64_t count;
  HDGCL_TRY(gmsh_next_line(in, "the number of elements", NULL));
  HDGCL_TRY(gmsh_int(in, "number of elements", 0, INT64_MAX, &count));
  HDGCL_TRY(gmsh_end_of_line(in, "the number of elements"));
  for (int64_t i = 0; i < count; i++) {
    int64_t number, type, num_tags, tag, physical = 0;
    HDGCL_TRY(gmsh_next_line(in, "an element line (number type ntags tags nodes)", NULL));
    HDGCL_TRY(gmsh_int(in, "element number", 1, INT64_MAX, &number));
    HDGCL_TRY(gmsh_int(in, "element type", INT64_MIN, INT64_MAX, &type));
    HDGCL_TRY(gmsh_check_element_type(in, number, type));
    HDGCL_TRY(gmsh_int(in, "number of tags", 0, 1000, &num_tags));
    for (int64_t k = 0; k < num_tags; k++) {
      HDGCL_TRY(gmsh_int(in, "element tag", INT32_MIN, INT32_MAX, &tag));
      if (k == 0) physical = tag;
    }
    HDGCL_TRY(gmsh_read_element_nodes(in, c, (int)type, number, (int32_t)physical));
  }
  return gmsh_expect_line(in, "$EndElements");
}
