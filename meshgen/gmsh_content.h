/* What the Gmsh reader collects from a file before building the mesh: the
 * nodes (with a map from node tags to positions), the elements of each
 * supported type with their physical group, (format 4.1) the physical
 * groups of the geometric entities, and the names of physical groups. */
#ifndef HDGCL_MESHGEN_GMSH_CONTENT_H
#define HDGCL_MESHGEN_GMSH_CONTENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Gmsh element type numbers read by hdgcl. */
enum {
  GMSH_LINE = 1,
  GMSH_TRIANGLE = 2,
  GMSH_QUADRANGLE = 3,
  GMSH_TETRAHEDRON = 4,
  GMSH_HEXAHEDRON = 5,
  GMSH_POINT = 15,
  GMSH_NUM_LISTS = 6 /* lists[1..5] */
};

/* High-order (curved) types read by hdgcl: line 3 and 4 (boundary lines),
 * triangle 6 and 10, quadrangle 9, 8 (serendipity) and 16, tetrahedron 10
 * and 20, hexahedron 27 and 20 (serendipity).  Their first nodes are the
 * vertices of the linear type. */
enum {
  GMSH_LINE3 = 8,
  GMSH_TRIANGLE6 = 9,
  GMSH_QUADRANGLE9 = 10,
  GMSH_TETRAHEDRON10 = 11,
  GMSH_HEXAHEDRON27 = 12,
  GMSH_QUADRANGLE8 = 16,
  GMSH_HEXAHEDRON20 = 17,
  GMSH_TRIANGLE10 = 21,
  GMSH_LINE4 = 26,
  GMSH_TETRAHEDRON20 = 29,
  GMSH_QUADRANGLE16 = 36,
  GMSH_HEXAHEDRON64 = 92
};

/* The most nodes of an element type read by hdgcl (hexahedron 64). */
enum { GMSH_MAX_NODES = 64 };

/* Nodes of a type read by hdgcl, or 0 if hdgcl does not read it. */
int gmsh_type_nodes(int64_t gmsh_type);
/* The linear type of a type read by hdgcl (its list), and its geometry order. */
int gmsh_type_base(int gmsh_type);
int gmsh_type_order(int gmsh_type);
/* Dimension of a type read by hdgcl. */
int gmsh_type_dim(int gmsh_type);
/* "line", "triangle", "triangle 6", ... for messages. */
const char *gmsh_type_name(int gmsh_type);

/* The elements of one linear type and its high-order variants: all of one
 * Gmsh type (the first one stored; a file mixing, e.g., triangles 3 and 6
 * is refused). */
typedef struct gmsh_element_list {
  int type;         /* Gmsh type of the elements (0 while empty) */
  int64_t count, capacity;
  int32_t *nodes;   /* [count][gmsh_type_nodes(type)] node positions in the node table */
  int32_t *tags;    /* physical group, 0 if none */
  int64_t *numbers; /* element tag in the file */
  long *lines;      /* line of the element in the file (binary file: byte offset) */
} gmsh_element_list;

typedef struct gmsh_entity_list { /* one dimension of $Entities, sorted by entity tag */
  int64_t count, capacity;
  int32_t *entity_tags;
  int32_t *physical_tags; /* first physical group of the entity, 0 if none */
} gmsh_entity_list;

typedef struct gmsh_physical_name { /* one line of $PhysicalNames */
  int dim;
  int32_t tag;
  char name[64]; /* cut at 63 characters; length is the full length */
  size_t length;
  long line; /* (binary file: byte offset) */
} gmsh_physical_name;

typedef struct gmsh_content {
  int64_t num_nodes, node_capacity;
  int64_t *node_tags;
  double *node_xyz; /* [num_nodes][3] */
  long *node_lines; /* (binary file: byte offsets) */
  bool binary;      /* positions ("lines") are byte offsets */
  bool have_nodes, have_elements, have_entities, have_names;
  /* tag -> position: dense table when tags are compact, else sorted pairs */
  int64_t dense_size;
  int32_t *dense;
  int64_t *sorted_tags;
  int32_t *sorted_positions;
  gmsh_element_list lists[GMSH_NUM_LISTS];
  gmsh_entity_list entities[4];
  int64_t num_names, names_capacity;
  gmsh_physical_name *names;
} gmsh_content;

void gmsh_content_free(gmsh_content *c);

/* A stored position for messages: where.text is ":LINE" (to follow the
 * path) or, in a binary file, ": byte OFFSET"; at.text is "line LINE" or
 * "byte OFFSET". */
typedef struct gmsh_place {
  char text[40];
} gmsh_place;
gmsh_place gmsh_where(const gmsh_content *c, long position);
gmsh_place gmsh_at(const gmsh_content *c, long position);

/* Appends a node (tag and line; coordinates set by the caller afterwards). */
int gmsh_add_node(gmsh_content *c, int64_t tag, const char *path, long line);

/* Builds the tag -> position map once all nodes are read; fails naming the
 * file and line of a repeated tag. */
int gmsh_index_nodes(gmsh_content *c, const char *path);

/* Position of node `tag`, or -1 if no such node. */
int32_t gmsh_node_position(const gmsh_content *c, int64_t tag);

/* Appends an element of a type read by hdgcl; returns a pointer to its node
 * slots in *nodes for the caller to fill. */
int gmsh_add_element(gmsh_content *c, int gmsh_type, int64_t number, int32_t tag, const char *path,
                     long line, int32_t **nodes);

/* $Entities (4.1): records the first physical tag of an entity, then
 * gmsh_sort_entities once the section is read; lookups give 0 for an
 * unknown entity or one without physical group. */
int gmsh_add_entity(gmsh_content *c, int dim, int32_t entity_tag, int32_t physical_tag);
int gmsh_sort_entities(gmsh_content *c);
int32_t gmsh_entity_physical(const gmsh_content *c, int dim, int32_t entity_tag);

/* $PhysicalNames: appends a name (the caller has checked that its (dim, tag)
 * is new). */
int gmsh_add_physical_name(gmsh_content *c, const gmsh_physical_name *name);

#endif
