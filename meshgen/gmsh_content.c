/* Storage of what the Gmsh reader collects (see gmsh_content.h). */
#include "gmsh_content.h"

#include <stdio.h>
#include <stdlib.h>

#include "core/error.h"

int gmsh_type_nodes(int64_t gmsh_type) {
  switch (gmsh_type) {
  case GMSH_LINE: return 2;
  case GMSH_TRIANGLE: return 3;
  case GMSH_QUADRANGLE: return 4;
  case GMSH_TETRAHEDRON: return 4;
  case GMSH_HEXAHEDRON: return 8;
  case GMSH_POINT: return 1;
  case GMSH_LINE3: return 3;
  case GMSH_LINE4: return 4;
  case GMSH_TRIANGLE6: return 6;
  case GMSH_TRIANGLE10: return 10;
  case GMSH_QUADRANGLE8: return 8;
  case GMSH_QUADRANGLE9: return 9;
  case GMSH_QUADRANGLE16: return 16;
  case GMSH_TETRAHEDRON10: return 10;
  case GMSH_TETRAHEDRON20: return 20;
  case GMSH_HEXAHEDRON20: return 20;
  case GMSH_HEXAHEDRON27: return 27;
  case GMSH_HEXAHEDRON64: return 64;
  default: return 0;
  }
}

int gmsh_type_base(int gmsh_type) {
  switch (gmsh_type) {
  case GMSH_LINE3:
  case GMSH_LINE4: return GMSH_LINE;
  case GMSH_TRIANGLE6:
  case GMSH_TRIANGLE10: return GMSH_TRIANGLE;
  case GMSH_QUADRANGLE8:
  case GMSH_QUADRANGLE9:
  case GMSH_QUADRANGLE16: return GMSH_QUADRANGLE;
  case GMSH_TETRAHEDRON10:
  case GMSH_TETRAHEDRON20: return GMSH_TETRAHEDRON;
  case GMSH_HEXAHEDRON20:
  case GMSH_HEXAHEDRON27:
  case GMSH_HEXAHEDRON64: return GMSH_HEXAHEDRON;
  default: return gmsh_type;
  }
}

int gmsh_type_order(int gmsh_type) {
  switch (gmsh_type) {
  case GMSH_LINE3:
  case GMSH_TRIANGLE6:
  case GMSH_QUADRANGLE8:
  case GMSH_QUADRANGLE9:
  case GMSH_TETRAHEDRON10:
  case GMSH_HEXAHEDRON20:
  case GMSH_HEXAHEDRON27: return 2;
  case GMSH_LINE4:
  case GMSH_TRIANGLE10:
  case GMSH_QUADRANGLE16:
  case GMSH_TETRAHEDRON20:
  case GMSH_HEXAHEDRON64: return 3;
  default: return 1;
  }
}

int gmsh_type_dim(int gmsh_type) {
  switch (gmsh_type_base(gmsh_type)) {
  case GMSH_LINE: return 1;
  case GMSH_TRIANGLE:
  case GMSH_QUADRANGLE: return 2;
  case GMSH_TETRAHEDRON:
  case GMSH_HEXAHEDRON: return 3;
  default: return 0;
  }
}

const char *gmsh_type_name(int gmsh_type) {
  switch (gmsh_type) {
  case GMSH_LINE: return "line";
  case GMSH_TRIANGLE: return "triangle";
  case GMSH_QUADRANGLE: return "quadrangle";
  case GMSH_TETRAHEDRON: return "tetrahedron";
  case GMSH_HEXAHEDRON: return "hexahedron";
  case GMSH_POINT: return "point";
  case GMSH_LINE3: return "line 3";
  case GMSH_LINE4: return "line 4";
  case GMSH_TRIANGLE6: return "triangle 6";
  case GMSH_TRIANGLE10: return "triangle 10";
  case GMSH_QUADRANGLE8: return "quadrangle 8";
  case GMSH_QUADRANGLE9: return "quadrangle 9";
  case GMSH_QUADRANGLE16: return "quadrangle 16";
  case GMSH_TETRAHEDRON10: return "tetrahedron 10";
  case GMSH_TETRAHEDRON20: return "tetrahedron 20";
  case GMSH_HEXAHEDRON20: return "hexahedron 20";
  case GMSH_HEXAHEDRON27: return "hexahedron 27";
  case GMSH_HEXAHEDRON64: return "hexahedron 64";
  default: return "unknown";
  }
}

gmsh_place gmsh_where(const gmsh_content *c, long position) {
  gmsh_place p;
  snprintf(p.text, sizeof p.text, c->binary ? ": byte %ld" : ":%ld", position);
  return p;
}

gmsh_place gmsh_at(const gmsh_content *c, long position) {
  gmsh_place p;
  snprintf(p.text, sizeof p.text, c->binary ? "byte %ld" : "line %ld", position);
  return p;
}

void gmsh_content_free(gmsh_content *c) {
  free(c->node_tags);
  free(c->node_xyz);
  free(c->node_lines);
  free(c->dense);
  free(c->sorted_tags);
  free(c->sorted_positions);
  for (int t = 0; t < GMSH_NUM_LISTS; t++) {
    free(c->lists[t].nodes);
    free(c->lists[t].tags);
    free(c->lists[t].numbers);
    free(c->lists[t].lines);
  }
  for (int d = 0; d < 4; d++) {
    free(c->entities[d].entity_tags);
    free(c->entities[d].physical_tags);
  }
  free(c->names);
  *c = (gmsh_content){0};
}

/* Grows *array to hold capacity items of size bytes. */
static int grow(void *array, int64_t capacity, size_t size, const char *what) {
  void *p = realloc(*(void **)array, (size_t)capacity * size);
  if (!p)
    return hdgcl_error(HDGCL_ERROR_MEMORY, "out of host memory reading %s (%lld entries)", what,
                       (long long)capacity);
  *(void **)array = p;
  return HDGCL_SUCCESS;
}

static int64_t next_capacity(int64_t capacity) { return capacity ? 2 * capacity : 1024; }

int gmsh_add_node(gmsh_content *c, int64_t tag, const char *path, long line) {
  if (c->num_nodes == INT32_MAX)
    return hdgcl_error(HDGCL_ERROR_FORMAT, "%s%s: more than 2^31-1 nodes", path,
                       gmsh_where(c, line).text);
  if (c->num_nodes == c->node_capacity) {
    int64_t cap = next_capacity(c->node_capacity);
    HDGCL_TRY(grow(&c->node_tags, cap, sizeof *c->node_tags, "nodes"));
    HDGCL_TRY(grow(&c->node_xyz, cap, 3 * sizeof *c->node_xyz, "nodes"));
    HDGCL_TRY(grow(&c->node_lines, cap, sizeof *c->node_lines, "nodes"));
    c->node_capacity = cap;
  }
  c->node_tags[c->num_nodes] = tag;
  c->node_lines[c->num_nodes] = line;
  c->num_nodes++;
  return HDGCL_SUCCESS;
}

typedef struct tag_position {
  int64_t tag;
  int32_t position;
} tag_position;

static int compare_tags(const void *a, const void *b) {
  const tag_position *x = a, *y = b;
  if (x->tag != y->tag) return x->tag < y->tag ? -1 : 1;
  return x->position < y->position ? -1 : x->position > y->position;
}

static int repeated_tag(const gmsh_content *c, const char *path, int32_t later) {
  return hdgcl_error(HDGCL_ERROR_FORMAT, "%s%s: node tag %lld is defined twice", path,
                     gmsh_where(c, c->node_lines[later]).text, (long long)c->node_tags[later]);
}

int gmsh_index_nodes(gmsh_content *c, const char *path) {
  int64_t max_tag = 0;
  for (int64_t i = 0; i < c->num_nodes; i++)
    if (c->node_tags[i] > max_tag) max_tag = c->node_tags[i];
  if (max_tag <= 2 * c->num_nodes + 1024) { /* compact tags: direct table */
    c->dense_size = max_tag + 1;
    HDGCL_TRY(hdgcl_calloc((size_t)c->dense_size, sizeof *c->dense, "node tag map", &c->dense));
    for (int64_t t = 0; t < c->dense_size; t++) c->dense[t] = -1;
    for (int32_t i = 0; i < c->num_nodes; i++) {
      if (c->dense[c->node_tags[i]] >= 0) return repeated_tag(c, path, i);
      c->dense[c->node_tags[i]] = i;
    }
    return HDGCL_SUCCESS;
  }
  tag_position *pairs; /* sparse tags: sorted table, binary search */
  HDGCL_TRY(hdgcl_calloc((size_t)c->num_nodes, sizeof *pairs, "node tag map", &pairs));
  for (int32_t i = 0; i < c->num_nodes; i++) pairs[i] = (tag_position){c->node_tags[i], i};
  qsort(pairs, (size_t)c->num_nodes, sizeof *pairs, compare_tags);
  int status = HDGCL_SUCCESS;
  for (int64_t i = 1; i < c->num_nodes && status == HDGCL_SUCCESS; i++)
    if (pairs[i].tag == pairs[i - 1].tag) status = repeated_tag(c, path, pairs[i].position);
  if (status == HDGCL_SUCCESS)
    status =
        hdgcl_calloc((size_t)c->num_nodes, sizeof *c->sorted_tags, "node tag map", &c->sorted_tags);
  if (status == HDGCL_SUCCESS)
    status = hdgcl_calloc((size_t)c->num_nodes, sizeof *c->sorted_positions, "node tag map",
                          &c->sorted_positions);
  for (int64_t i = 0; i < c->num_nodes && status == HDGCL_SUCCESS; i++) {
    c->sorted_tags[i] = pairs[i].tag;
    c->sorted_positions[i] = pairs[i].position;
  }
  free(pairs);
  return status;
}

int32_t gmsh_node_position(const gmsh_content *c, int64_t tag) {
  if (c->dense) return tag >= 0 && tag < c->dense_size ? c->dense[tag] : -1;
  int64_t lo = 0, hi = c->num_nodes;
  while (lo < hi) {
    int64_t mid = lo + (hi - lo) / 2;
    if (c->sorted_tags[mid] == tag) return c->sorted_positions[mid];
    if (c->sorted_tags[mid] < tag)
      lo = mid + 1;
    else
      hi = mid;
  }
  return -1;
}

int gmsh_add_element(gmsh_content *c, int gmsh_type, int64_t number, int32_t tag, const char *path,
                     long line, int32_t **nodes) {
  gmsh_element_list *l = &c->lists[gmsh_type_base(gmsh_type)];
  int n = gmsh_type_nodes(gmsh_type);
  if (l->count && l->type != gmsh_type)
    return hdgcl_error(HDGCL_ERROR_FORMAT,
                       "%s%s: element %lld is a %s, element %lld (%s) a %s: hdgcl reads one "
                       "geometry order per element type",
                       path, gmsh_where(c, line).text, (long long)number, gmsh_type_name(gmsh_type),
                       (long long)l->numbers[0], gmsh_at(c, l->lines[0]).text,
                       gmsh_type_name(l->type));
  l->type = gmsh_type;
  if (l->count == INT32_MAX)
    return hdgcl_error(HDGCL_ERROR_FORMAT, "%s%s: more than 2^31-1 %s elements", path,
                       gmsh_where(c, line).text, gmsh_type_name(gmsh_type));
  if (l->count == l->capacity) {
    int64_t cap = next_capacity(l->capacity);
    HDGCL_TRY(grow(&l->nodes, cap, (size_t)n * sizeof *l->nodes, "elements"));
    HDGCL_TRY(grow(&l->tags, cap, sizeof *l->tags, "elements"));
    HDGCL_TRY(grow(&l->numbers, cap, sizeof *l->numbers, "elements"));
    HDGCL_TRY(grow(&l->lines, cap, sizeof *l->lines, "elements"));
    l->capacity = cap;
  }
  l->tags[l->count] = tag;
  l->numbers[l->count] = number;
  l->lines[l->count] = line;
  *nodes = l->nodes + l->count * n;
  l->count++;
  return HDGCL_SUCCESS;
}

int gmsh_add_entity(gmsh_content *c, int dim, int32_t entity_tag, int32_t physical_tag) {
  gmsh_entity_list *l = &c->entities[dim];
  if (l->count == l->capacity) {
    int64_t cap = next_capacity(l->capacity);
    HDGCL_TRY(grow(&l->entity_tags, cap, sizeof *l->entity_tags, "entities"));
    HDGCL_TRY(grow(&l->physical_tags, cap, sizeof *l->physical_tags, "entities"));
    l->capacity = cap;
  }
  l->entity_tags[l->count] = entity_tag;
  l->physical_tags[l->count] = physical_tag;
  l->count++;
  return HDGCL_SUCCESS;
}

static int compare_entities(const void *a, const void *b) {
  const int32_t *x = a, *y = b; /* {entity tag, physical tag} */
  return x[0] < y[0] ? -1 : x[0] > y[0];
}

int gmsh_sort_entities(gmsh_content *c) {
  for (int d = 0; d < 4; d++) {
    gmsh_entity_list *l = &c->entities[d];
    int32_t(*pairs)[2];
    HDGCL_TRY(hdgcl_calloc((size_t)l->count, sizeof *pairs, "entities", &pairs));
    for (int64_t i = 0; i < l->count; i++) {
      pairs[i][0] = l->entity_tags[i];
      pairs[i][1] = l->physical_tags[i];
    }
    qsort(pairs, (size_t)l->count, sizeof *pairs, compare_entities);
    for (int64_t i = 0; i < l->count; i++) {
      l->entity_tags[i] = pairs[i][0];
      l->physical_tags[i] = pairs[i][1];
    }
    free(pairs);
  }
  return HDGCL_SUCCESS;
}

int32_t gmsh_entity_physical(const gmsh_content *c, int dim, int32_t entity_tag) {
  const gmsh_entity_list *l = &c->entities[dim];
  int64_t lo = 0, hi = l->count;
  while (lo < hi) {
    int64_t mid = lo + (hi - lo) / 2;
    if (l->entity_tags[mid] == entity_tag) return l->physical_tags[mid];
    if (l->entity_tags[mid] < entity_tag)
      lo = mid + 1;
    else
      hi = mid;
  }
  return 0;
}

int gmsh_add_physical_name(gmsh_content *c, const gmsh_physical_name *name) {
  if (c->num_names == c->names_capacity) {
    int64_t cap = c->names_capacity ? 2 * c->names_capacity : 16;
    HDGCL_TRY(grow(&c->names, cap, sizeof *c->names, "physical names"));
    c->names_capacity = cap;
  }
  c->names[c->num_names++] = *name;
  return HDGCL_SUCCESS;
}
