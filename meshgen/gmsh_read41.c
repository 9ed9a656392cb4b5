/* Gmsh format 4.1 sections:
 *   $Entities: counts of points, curves, surfaces, volumes, then one line
 *     per entity: tag, coordinates (point) or bounding box, physical tags,
 *     and (curves and up) bounding entities.
 *   $Nodes: "blocks nodes minTag maxTag", then per block
 *     "entityDim entityTag parametric n", n tag lines, n coordinate lines
 *     (x y z, plus entityDim parametric coordinates if parametric).
 *   $Elements: "blocks elements minTag maxTag", then per block
 *     "entityDim entityTag type n" and n lines "number node...".
 * An element's physical group is the (first) physical tag of its entity. */
#include "core/error.h"
#include "gmsh_sections.h"

int gmsh_read_entities41(gmsh_input *in, gmsh_content *c) {
  int64_t count[4];
  static const char *const names[4] = {"number of points", "number of curves", "number of surfaces",
                                       "number of volumes"};
  HDGCL_TRY(gmsh_next_line(in, "the entity counts", NULL));
  for (int d = 0; d < 4; d++) HDGCL_TRY(gmsh_int(in, names[d], 0, INT32_MAX, &count[d]));
  HDGCL_TRY(gmsh_end_of_line(in, "the entity counts"));
  for (int d = 0; d < 4; d++)
    for (int64_t i = 0; i < count[d]; i++) {
      int64_t tag, num_physical, physical, first_physical = 0, num_bounding, bounding;
      double x;
      HDGCL_TRY(gmsh_next_line(in, "an entity line", NULL));
      HDGCL_TRY(gmsh_int(in, "entity tag", INT32_MIN, INT32_MAX, &tag));
      for (int k = 0; k < (d == 0 ? 3 : 6); k++)
        HDGCL_TRY(gmsh_real(in, d == 0 ? "point coordinate" : "bounding box coordinate", &x));
      HDGCL_TRY(gmsh_int(in, "number of physical tags", 0, INT32_MAX, &num_physical));
      for (int64_t k = 0; k < num_physical; k++) {
        HDGCL_TRY(gmsh_int(in, "physical tag", INT32_MIN, INT32_MAX, &physical));
        if (k == 0) first_physical = physical;
      }
      if (d > 0) {
        HDGCL_TRY(gmsh_int(in, "number of bounding entities", 0, INT32_MAX, &num_bounding));
        for (int64_t k = 0; k < num_bounding; k++)
          HDGCL_TRY(gmsh_int(in, "bounding entity tag", INT32_MIN, INT32_MAX, &bounding));
      }
      HDGCL_TRY(gmsh_end_of_line(in, "the entity"));
      HDGCL_TRY(gmsh_add_entity(c, d, (int32_t)tag, (int32_t)first_physical));
    }
  HDGCL_TRY(gmsh_expect_line(in, "$EndEntities"));
  c->have_entities = true;
  return gmsh_sort_entities(c);
}

/* "blocks count minTag maxTag" header of $Nodes / $Elements. */
static int read_header(gmsh_input *in, const char *what, int64_t *blocks, int64_t *count) {
  int64_t tag;
  HDGCL_TRY(gmsh_next_line(in, "the section header", NULL));
  HDGCL_TRY(gmsh_int(in, "number of blocks", 0, INT32_MAX, blocks));
  HDGCL_TRY(gmsh_int(in, what, 0, INT64_MAX, count));
  HDGCL_TRY(gmsh_int(in, "minimum tag", 0, INT64_MAX, &tag));
  HDGCL_TRY(gmsh_int(in, "maximum tag", 0, INT64_MAX, &tag));
  return gmsh_end_of_line(in, "the section header");
}

static int count_mismatch(gmsh_input *in, long header_line, const char *section, int64_t declared,
                          int64_t found, const char *what) {
  return hdgcl_error(HDGCL_ERROR_FORMAT, "%s:%ld: %s declares %lld %s but its blocks hold %lld",
                     in->path, header_line, section, (long long)declared, what, (long long)found);
}

int gmsh_read_nodes41(gmsh_input *in, gmsh_content *c) {
  int64_t blocks, declared, found = 0;
  HDGCL_TRY(read_header(in, "number of nodes", &blocks, &declared));
  long header_line = in->line_no;
  for (int64_t b = 0; b < blocks; b++) {
    int64_t entity_dim, entity_tag, parametric, n, tag;
    HDGCL_TRY(gmsh_next_line(in, "a node block header", NULL));
    HDGCL_TRY(gmsh_int(in, "entity dimension", 0, 3, &entity_dim));
    HDGCL_TRY(gmsh_int(in, "entity tag", INT32_MIN, INT32_MAX, &entity_tag));
    HDGCL_TRY(gmsh_int(in, "parametric flag", 0, 1, &parametric));
    HDGCL_TRY(gmsh_int(in, "number of nodes in block", 0, INT32_MAX, &n));
    HDGCL_TRY(gmsh_end_of_line(in, "the node block header"));
    int64_t first = c->num_nodes;
    for (int64_t i = 0; i < n; i++) {
      HDGCL_TRY(gmsh_next_line(in, "a node tag", NULL));
      HDGCL_TRY(gmsh_int(in, "node tag", 1, INT64_MAX, &tag));
      HDGCL_TRY(gmsh_end_of_line(in, "the node tag"));
      HDGCL_TRY(gmsh_add_node(c, tag, in->path, in->line_no));
    }
    int extra = parametric ? (int)entity_dim : 0;
    for (int64_t i = 0; i < n; i++) {
      double *xyz = c->node_xyz + 3 * (first + i), u;
      HDGCL_TRY(gmsh_next_line(in, "node coordinates", NULL));
      for (int d = 0; d < 3; d++) HDGCL_TRY(gmsh_real(in, "node coordinate", &xyz[d]));
      for (int d = 0; d < extra; d++) HDGCL_TRY(gmsh_real(in, "parametric coordinate", &u));
      HDGCL_TRY(gmsh_end_of_line(in, "the node coordinates"));
    }
    found += n;
  }
  if (found != declared) return count_mismatch(in, header_line, "$Nodes", declared, found, "nodes");
  HDGCL_TRY(gmsh_expect_line(in, "$EndNodes"));
  return gmsh_index_nodes(c, in->path);
}

int gmsh_read_elements41(gmsh_input *in, gmsh_content *c) {
  int64_t blocks, declared, found = 0;
  HDGCL_TRY(read_header(in, "number of elements", &blocks, &declared));
  long header_line = in->line_no;
  for (int64_t b = 0; b < blocks; b++) {
    int64_t entity_dim, entity_tag, type, n, number;
    HDGCL_TRY(gmsh_next_line(in, "an element block header", NULL));
    HDGCL_TRY(gmsh_int(in, "entity dimension", 0, 3, &entity_dim));
    HDGCL_TRY(gmsh_int(in, "entity tag", INT32_MIN, INT32_MAX, &entity_tag));
    HDGCL_TRY(gmsh_int(in, "element type", INT64_MIN, INT64_MAX, &type));
    HDGCL_TRY(gmsh_int(in, "number of elements in block", 0, INT64_MAX, &n));
    HDGCL_TRY(gmsh_end_of_line(in, "the element block header"));
    HDGCL_TRY(gmsh_check_element_type(in, 0, type));
    if (gmsh_type_dim((int)type) != entity_dim)
      return gmsh_error(in, HDGCL_ERROR_FORMAT,
                        "%s elements (type %lld) in an entity of dimension %lld",
                        gmsh_type_name((int)type), (long long)type, (long long)entity_dim);
    int32_t physical = gmsh_entity_physical(c, (int)entity_dim, (int32_t)entity_tag);
    for (int64_t i = 0; i < n; i++) {
      HDGCL_TRY(gmsh_next_line(in, "an element line (number node...)", NULL));
      HDGCL_TRY(gmsh_int(in, "element number", 1, INT64_MAX, &number));
      HDGCL_TRY(gmsh_read_element_nodes(in, c, (int)type, number, physical));
    }
    found += n;
  }
  if (found != declared)
    return count_mismatch(in, header_line, "$Elements", declared, found, "elements");
  return gmsh_expect_line(in, "$EndElements");
}
