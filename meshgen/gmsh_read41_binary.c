/* Gmsh format 4.1 binary sections (gmsh_binary.h for the field types; the
 * layout is that of the ASCII sections, gmsh_read41.c):
 *   $Entities: 4 size_t counts (points, curves, surfaces, volumes); per
 *     entity: int tag, 3 doubles (point) or 6 (bounding box), size_t number
 *     of physical tags and as many ints, and (curves and up) size_t number
 *     of bounding entities and as many ints.
 *   $Nodes: 4 size_t (blocks, nodes, min and max tag); per block: int
 *     entityDim, int entityTag, int parametric, size_t n; n size_t tags,
 *     then n times 3 doubles (plus entityDim parametric ones if parametric).
 *   $Elements: 4 size_t (blocks, elements, min and max tag); per block: int
 *     entityDim, int entityTag, int elementType, size_t n; then n times
 *     size_t element tag and size_t node tags.
 * Each section's data ends with a newline before its $End line.  The same
 * checks as the ASCII reader; errors give the byte offset of the field.
 * Blocks are read in chunks, so a large file costs no copy of itself. */
#include <string.h>

#include "core/error.h"
#include "gmsh_binary.h"
#include "gmsh_sections.h"

enum { CHUNK = 512 }; /* nodes or elements per fread */

int gmsh_read_entities41_binary(gmsh_input *in, gmsh_content *c) {
  static const char *const names[4] = {"number of points", "number of curves", "number of surfaces",
                                       "number of volumes"};
  /* the smallest entity: tag, coordinates or box, physical count (, bounding count) */
  static const int64_t least[4] = {4 + 24 + 8, 4 + 48 + 16, 4 + 48 + 16, 4 + 48 + 16};
  int64_t count[4];
  in->section = "$Entities";
  for (int d = 0; d < 4; d++) HDGCL_TRY(gmsh_binary_size(in, names[d], 0, INT32_MAX, &count[d]));
  for (int d = 0; d < 4; d++) {
    HDGCL_TRY(gmsh_binary_need(in, names[d] + 10, (uint64_t)count[d], least[d]));
    for (int64_t i = 0; i < count[d]; i++) {
      int64_t tag, num_physical, physical, first_physical = 0, num_bounding, bounding;
      double x[6];
      HDGCL_TRY(gmsh_binary_int(in, "entity tag", INT32_MIN, INT32_MAX, &tag));
      HDGCL_TRY(gmsh_binary_reals(in, d == 0 ? "point coordinate" : "bounding box coordinate", x,
                                  d == 0 ? 3 : 6));
      HDGCL_TRY(gmsh_binary_size(in, "number of physical tags", 0, INT32_MAX, &num_physical));
      HDGCL_TRY(gmsh_binary_need(in, "physical tags", (uint64_t)num_physical, GMSH_BINARY_INT));
      for (int64_t k = 0; k < num_physical; k++) {
        HDGCL_TRY(gmsh_binary_int(in, "physical tag", INT32_MIN, INT32_MAX, &physical));
        if (k == 0) first_physical = physical;
      }
      if (d > 0) {
        HDGCL_TRY(gmsh_binary_size(in, "number of bounding entities", 0, INT32_MAX, &num_bounding));
        HDGCL_TRY(
            gmsh_binary_need(in, "bounding entity tags", (uint64_t)num_bounding, GMSH_BINARY_INT));
        for (int64_t k = 0; k < num_bounding; k++)
          HDGCL_TRY(gmsh_binary_int(in, "bounding entity tag", INT32_MIN, INT32_MAX, &bounding));
      }
      HDGCL_TRY(gmsh_add_entity(c, d, (int32_t)tag, (int32_t)first_physical));
    }
  }
  HDGCL_TRY(gmsh_binary_end(in, "$EndEntities"));
  c->have_entities = true;
  return gmsh_sort_entities(c);
}

/* blocks, count, min tag, max tag of $Nodes / $Elements. */
static int read_header(gmsh_input *in, const char *what, int64_t *blocks, int64_t *count) {
  int64_t tag;
  HDGCL_TRY(gmsh_binary_size(in, "number of blocks", 0, INT32_MAX, blocks));
  HDGCL_TRY(gmsh_binary_size(in, what, 0, INT64_MAX, count));
  HDGCL_TRY(gmsh_binary_size(in, "minimum tag", 0, INT64_MAX, &tag));
  return gmsh_binary_size(in, "maximum tag", 0, INT64_MAX, &tag);
}

static int count_mismatch(gmsh_input *in, int64_t header, int64_t declared, int64_t found,
                          const char *what) {
  in->position = header;
  return gmsh_binary_error(in, "the header declares %lld %s but its blocks hold %lld",
                           (long long)declared, what, (long long)found);
}

int gmsh_read_nodes41_binary(gmsh_input *in, gmsh_content *c) {
  int64_t blocks, declared, found = 0, header = in->offset;
  in->section = "$Nodes";
  HDGCL_TRY(read_header(in, "number of nodes", &blocks, &declared));
  for (int64_t b = 0; b < blocks; b++) {
    int64_t entity_dim, entity_tag, parametric, n;
    HDGCL_TRY(gmsh_binary_int(in, "entity dimension", 0, 3, &entity_dim));
    HDGCL_TRY(gmsh_binary_int(in, "entity tag", INT32_MIN, INT32_MAX, &entity_tag));
    HDGCL_TRY(gmsh_binary_int(in, "parametric flag", 0, 1, &parametric));
    HDGCL_TRY(gmsh_binary_size(in, "number of nodes in block", 0, INT32_MAX, &n));
    int values = 3 + (parametric ? (int)entity_dim : 0); /* doubles per node */
    HDGCL_TRY(gmsh_binary_need(in, "nodes of the block", (uint64_t)n,
                               GMSH_BINARY_SIZE + values * GMSH_BINARY_REAL));
    int64_t first = c->num_nodes;
    uint64_t tags[CHUNK];
    for (int64_t i = 0; i < n; i += CHUNK) {
      int64_t m = n - i < CHUNK ? n - i : CHUNK, start = in->offset;
      HDGCL_TRY(gmsh_binary_read(in, "node tags", tags, (size_t)m * sizeof *tags));
      for (int64_t k = 0; k < m; k++) {
        in->position = start + k * GMSH_BINARY_SIZE;
        if (tags[k] < 1 || tags[k] > (uint64_t)INT64_MAX)
          return gmsh_binary_error(in, "node tag %llu out of range [1, %lld]",
                                   (unsigned long long)tags[k], (long long)INT64_MAX);
        HDGCL_TRY(gmsh_add_node(c, (int64_t)tags[k], in->path, (long)in->position));
      }
    }
    double xyz[CHUNK * 3];
    int per_chunk = CHUNK * 3 / values;
    for (int64_t i = 0; i < n; i += per_chunk) {
      int64_t m = n - i < per_chunk ? n - i : per_chunk;
      HDGCL_TRY(gmsh_binary_reals(in, "node coordinate", xyz, (size_t)(m * values)));
      double *out = c->node_xyz + 3 * (first + i);
      if (values == 3)
        memcpy(out, xyz, (size_t)m * 3 * sizeof *xyz);
      else
        for (int64_t k = 0; k < m; k++)
          for (int d = 0; d < 3; d++) out[3 * k + d] = xyz[values * k + d];
    }
    found += n;
  }
  if (found != declared) return count_mismatch(in, header, declared, found, "nodes");
  HDGCL_TRY(gmsh_binary_end(in, "$EndNodes"));
  return gmsh_index_nodes(c, in->path);
}

int gmsh_read_elements41_binary(gmsh_input *in, gmsh_content *c) {
  int64_t blocks, declared, found = 0, header = in->offset;
  in->section = "$Elements";
  HDGCL_TRY(read_header(in, "number of elements", &blocks, &declared));
  for (int64_t b = 0; b < blocks; b++) {
    int64_t entity_dim, entity_tag, type, n;
    HDGCL_TRY(gmsh_binary_int(in, "entity dimension", 0, 3, &entity_dim));
    HDGCL_TRY(gmsh_binary_int(in, "entity tag", INT32_MIN, INT32_MAX, &entity_tag));
    HDGCL_TRY(gmsh_binary_int(in, "element type", INT32_MIN, INT32_MAX, &type));
    int64_t block = in->position;
    HDGCL_TRY(gmsh_binary_size(in, "number of elements in block", 0, INT64_MAX, &n));
    in->position = block;
    HDGCL_TRY(gmsh_check_element_type(in, 0, type));
    if (gmsh_type_dim((int)type) != entity_dim)
      return gmsh_binary_error(in, "%s elements (type %lld) in an entity of dimension %lld",
                               gmsh_type_name((int)type), (long long)type, (long long)entity_dim);
    int words = 1 + gmsh_type_nodes(type); /* size_t per element */
    HDGCL_TRY(gmsh_binary_need(in, "elements of the block", (uint64_t)n, words * GMSH_BINARY_SIZE));
    int32_t physical = gmsh_entity_physical(c, (int)entity_dim, (int32_t)entity_tag);
    uint64_t data[CHUNK * (1 + GMSH_MAX_NODES)];
    for (int64_t i = 0; i < n; i += CHUNK) {
      int64_t m = n - i < CHUNK ? n - i : CHUNK, start = in->offset;
      HDGCL_TRY(gmsh_binary_read(in, "elements", data, (size_t)(m * words) * sizeof *data));
      for (int64_t k = 0; k < m; k++) {
        const uint64_t *e = data + k * words;
        in->position = start + k * words * GMSH_BINARY_SIZE;
        if (e[0] < 1 || e[0] > (uint64_t)INT64_MAX)
          return gmsh_binary_error(in, "element number %llu out of range [1, %lld]",
                                   (unsigned long long)e[0], (long long)INT64_MAX);
        HDGCL_TRY(gmsh_store_element(in, c, (int)type, (int64_t)e[0], e + 1, physical));
      }
    }
    found += n;
  }
  if (found != declared) return count_mismatch(in, header, declared, found, "elements");
  return gmsh_binary_end(in, "$EndElements");
}
