/* One element of a Gmsh file: its type and its node tags (shared by formats
 * 2.2 and 4.1, ASCII and binary). */
#include <stdio.h>

#include "core/error.h"
#include "gmsh_sections.h"

int gmsh_check_element_type(gmsh_input *in, int64_t number, int64_t gmsh_type) {
  if (gmsh_type_nodes(gmsh_type) > 0) return HDGCL_SUCCESS;
  char who[48] = "element block"; /* format 4.1 checks the type of a whole block */
  if (number > 0) snprintf(who, sizeof who, "element %lld", (long long)number);
  return gmsh_error(in, HDGCL_ERROR_FORMAT,
                    "%s has type %lld, which hdgcl does not read (supported Gmsh types: "
                    "1 line, 2 triangle, 3 quadrangle, 4 tetrahedron, 5 hexahedron, 15 point; "
                    "curved: 8, 26 line, 9, 21 triangle, 10, 16, 36 quadrangle, 11, 29 "
                    "tetrahedron, 12, 17, 92 hexahedron)",
                    who, (long long)gmsh_type);
}

int gmsh_store_element(gmsh_input *in, gmsh_content *c, int gmsh_type, int64_t number,
                       const uint64_t *tags, int32_t physical_tag) {
  int n = gmsh_type_nodes(gmsh_type);
  int32_t positions[GMSH_MAX_NODES];
  for (int k = 0; k < n; k++) {
    positions[k] = tags[k] <= INT64_MAX ? gmsh_node_position(c, (int64_t)tags[k]) : -1;
    if (positions[k] < 0)
      return gmsh_error(in, HDGCL_ERROR_FORMAT,
                        "element %lld references node %llu, which $Nodes does not define",
                        (long long)number, (unsigned long long)tags[k]);
  }
  if (gmsh_type == GMSH_POINT) return HDGCL_SUCCESS;
  int32_t *nodes;
  HDGCL_TRY(
      gmsh_add_element(c, gmsh_type, number, physical_tag, in->path, gmsh_position(in), &nodes));
  for (int k = 0; k < n; k++) nodes[k] = positions[k];
  return HDGCL_SUCCESS;
}

int gmsh_read_element_nodes(gmsh_input *in, gmsh_content *c, int gmsh_type, int64_t number,
                            int32_t physical_tag) {
  int n = gmsh_type_nodes(gmsh_type);
  uint64_t tags[GMSH_MAX_NODES];
  for (int k = 0; k < n; k++) {
    int64_t tag;
    HDGCL_TRY(gmsh_int(in, "node tag", 1, INT64_MAX, &tag));
    tags[k] = (uint64_t)tag;
  }
  HDGCL_TRY(gmsh_end_of_line(in, "the element's node tags"));
  return gmsh_store_element(in, c, gmsh_type, number, tags, physical_tag);
}
