/* hdgcl_mesh_write_gmsh: Gmsh ASCII formats 4.1 and 2.2;
 * hdgcl_mesh_write_gmsh_binary: binary 4.1, the layout of ASCII 4.1 with the
 * numbers of $Entities, $Nodes and $Elements as machine words (int for
 * dimensions, entity tags, element types and physical tags; 8-byte size_t
 * for counts and node and element tags; double), each section's data ended
 * by a newline, as `gmsh -bin` writes (meshgen/gmsh_read41_binary.c).
 *
 * Layout: one geometric entity per distinct element tag (dimension dim,
 * physical group = the tag, none for tag 0) and one per distinct non-zero
 * boundary tag (dimension dim-1, physical group = the tag).  Boundary faces
 * are written as lines / triangles / quadrangles with their vertices in the
 * order of the element they bound (normal pointing out of the domain), then
 * the elements in mesh order (format 4.1: one block per run of equal tags).
 * The tag names, if any, go to $PhysicalNames.
 * Nodes are numbered from 1 in vertex order; coordinates use 17 significant
 * digits so that reading the file back gives the same doubles.  A curved
 * mesh (geometry order 2, 3) is written with its elements' high-order types
 * (triangle 6 / 10, quadrangle 9 / 16, tetrahedron 10 / 20, hexahedron 27 / 64):
 * their non-vertex nodes follow the vertices, one node per distinct
 * position (shared nodes are bitwise equal copies), numbered in order of
 * first use; boundary faces keep their linear types (corner nodes).
 *
 * The file is written under a temporary name in the same directory and
 * renamed at the end, so a failure leaves no partial file. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/error.h"
#include "mesh_internal.h"

typedef struct tag_set {
  int32_t count;
  int32_t *tags; /* sorted, distinct */
} tag_set;

static int compare_int32(const void *a, const void *b) {
  int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
  return x < y ? -1 : x > y;
}

/* Distinct values of tags[0..n), skipping 0 if skip_zero. */
static int collect_tags(const int32_t *tags, int32_t n, bool skip_zero, tag_set *set) {
  HDGCL_TRY(hdgcl_calloc((size_t)n, sizeof(int32_t), "tag list", &set->tags));
  int32_t m = 0;
  for (int32_t i = 0; i < n; i++)
    if (!(skip_zero && tags[i] == 0)) set->tags[m++] = tags[i];
  qsort(set->tags, (size_t)m, sizeof(int32_t), compare_int32);
  set->count = 0;
  for (int32_t i = 0; i < m; i++)
    if (set->count == 0 || set->tags[set->count - 1] != set->tags[i])
      set->tags[set->count++] = set->tags[i];
  return HDGCL_SUCCESS;
}

/* Entity tag (1-based position) of a tag in the set. */
static int32_t entity_of(const tag_set *set, int32_t tag) {
  const int32_t *p = bsearch(&tag, set->tags, (size_t)set->count, sizeof(int32_t), compare_int32);
  return (int32_t)(p - set->tags) + 1;
}

typedef struct gmsh_writer {
  const hdgcl_mesh *mesh;
  FILE *out;
  bool binary;  /* format 4.1 binary */
  bool started; /* a field of the current ASCII record is written */
  tag_set body, boundary;
  int face_type;     /* Gmsh element types: of the boundary faces, */
  int body_types[4]; /* of the elements by hdgcl element type (a mixed mesh has several) */
  double lo[3], hi[3];      /* bounding box, given to every entity */
  /* Curved meshes: the distinct non-vertex geometry nodes; node
   * num_vertices + i (0-based) is extra position i, elem_nodes[extra_at[i]]. */
  int64_t num_extra;
  int64_t *extra_at;    /* [num_extra] index into elem_nodes / dim */
  int32_t *extra_of;    /* [num_elements][nodes_per_element - verts_per_element] extra node */
} gmsh_writer;

static const double *writer_node(const gmsh_writer *w, int64_t node) {
  const hdgcl_mesh *m = w->mesh;
  return node < m->num_vertices ? m->coords + node * m->dim
                                : m->elem_nodes + w->extra_at[node - m->num_vertices] * m->dim;
}

/* Slot s of a curved mesh's non-vertex nodes (element s / nh, node
 * nv + s % nh) as an index into elem_nodes / dim. */
static int64_t slot_node(const hdgcl_mesh *m, int64_t s) {
  int nv = m->verts_per_element, nh = m->nodes_per_element - nv;
  return (s / nh) * m->nodes_per_element + nv + s % nh;
}

/* Sorting slots by position, then by slot (qsort's comparison has no
 * context argument: the mesh goes through a thread-local pointer set just
 * before the sort). */
static _Thread_local const hdgcl_mesh *sort_mesh;
static int compare_positions(const hdgcl_mesh *m, int64_t a, int64_t b) {
  const double *x = m->elem_nodes + slot_node(m, a) * m->dim, *y = m->elem_nodes + slot_node(m, b) * m->dim;
  for (int k = 0; k < m->dim; k++)
    if (x[k] != y[k]) return x[k] < y[k] ? -1 : 1;
  return 0;
}
static int compare_slots(const void *pa, const void *pb) {
  int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;
  int c = compare_positions(sort_mesh, a, b);
  return c ? c : (a < b ? -1 : a > b);
}

/* The distinct non-vertex nodes of a curved mesh, numbered in order of
 * first use: w->extra_at (their positions), w->extra_of (each slot's). */
static int number_extra_nodes(gmsh_writer *w) {
  const hdgcl_mesh *m = w->mesh;
  int64_t n = (int64_t)m->num_elements * (m->nodes_per_element - m->verts_per_element);
  size_t size = (size_t)(n ? n : 1);
  int64_t *sorted = NULL, *first = NULL;
  int status;
  HDGCL_TRY_GOTO(status, hdgcl_calloc(size, sizeof *sorted, "curved nodes", &sorted), done);
  HDGCL_TRY_GOTO(status, hdgcl_calloc(size, sizeof *first, "curved nodes", &first), done);
  HDGCL_TRY_GOTO(status, hdgcl_calloc(size, sizeof *w->extra_at, "curved nodes", &w->extra_at), done);
  HDGCL_TRY_GOTO(status, hdgcl_calloc(size, sizeof *w->extra_of, "curved nodes", &w->extra_of), done);
  for (int64_t s = 0; s < n; s++) sorted[s] = s;
  sort_mesh = m;
  qsort(sorted, (size_t)n, sizeof *sorted, compare_slots);
  /* first[s]: the smallest slot at s's position (the first of its sorted group) */
  for (int64_t i = 0; i < n; i++)
    first[sorted[i]] = i > 0 && compare_positions(m, sorted[i - 1], sorted[i]) == 0
                           ? first[sorted[i - 1]]
                           : sorted[i];
  int64_t next = 0;
  for (int64_t s = 0; s < n; s++) { /* first[s] <= s: numbered already */
    if (first[s] == s) {
      w->extra_at[next] = slot_node(m, s);
      w->extra_of[s] = (int32_t)next++;
    } else {
      w->extra_of[s] = w->extra_of[first[s]];
    }
  }
  w->num_extra = next;
  status = HDGCL_SUCCESS;
done:
  free(sorted);
  free(first);
  return status;
}

/* The fields of format 4.1: in ASCII separated by blanks, a record ending
 * with a newline; in binary an int (4 bytes), a size_t (8 bytes) or a
 * double. */
static void put_int(gmsh_writer *w, int64_t x) {
  if (w->binary) {
    int32_t v = (int32_t)x;
    fwrite(&v, sizeof v, 1, w->out);
  } else {
    fprintf(w->out, w->started ? " %lld" : "%lld", (long long)x);
    w->started = true;
  }
}

static void put_size(gmsh_writer *w, int64_t x) {
  if (w->binary) {
    uint64_t v = (uint64_t)x;
    fwrite(&v, sizeof v, 1, w->out);
  } else {
    put_int(w, x);
  }
}

static void put_real(gmsh_writer *w, double x) {
  if (w->binary) {
    fwrite(&x, sizeof x, 1, w->out);
  } else {
    fprintf(w->out, w->started ? " %.17g" : "%.17g", x);
    w->started = true;
  }
}

static void end_record(gmsh_writer *w) {
  if (!w->binary) fputc('\n', w->out);
  w->started = false;
}

/* "$Name" opening a section, "$EndName" closing it (binary data ends with a
 * newline first). */
static void begin_section(gmsh_writer *w, const char *name) { fprintf(w->out, "$%s\n", name); }
static void end_section(gmsh_writer *w, const char *name) {
  fprintf(w->out, w->binary ? "\n$End%s\n" : "$End%s\n", name);
}

static void write_entities(gmsh_writer *w) {
  int dim = w->mesh->dim;
  int32_t count[4] = {0, 0, 0, 0};
  count[dim - 1] = w->boundary.count;
  count[dim] = w->body.count;
  begin_section(w, "Entities");
  for (int d = 0; d < 4; d++) put_size(w, count[d]);
  end_record(w);
  for (int d = dim - 1; d <= dim; d++) {
    const tag_set *set = d == dim ? &w->body : &w->boundary;
    for (int32_t i = 0; i < set->count; i++) {
      put_int(w, i + 1);
      for (int k = 0; k < 3; k++) put_real(w, w->lo[k]);
      for (int k = 0; k < 3; k++) put_real(w, w->hi[k]);
      put_size(w, set->tags[i] != 0); /* physical groups */
      if (set->tags[i] != 0) put_int(w, set->tags[i]);
      put_size(w, 0); /* bounding entities */
      end_record(w);
    }
  }
  end_section(w, "Entities");
}

/* $PhysicalNames (the same in both formats), if the mesh names any tag. */
static void write_names(const gmsh_writer *w) {
  const hdgcl_mesh *m = w->mesh;
  if (m->num_tag_names == 0) return;
  fprintf(w->out, "$PhysicalNames\n%d\n", (int)m->num_tag_names);
  for (int32_t i = 0; i < m->num_tag_names; i++)
    fprintf(w->out, "%d %d \"%s\"\n", m->tag_names[i].dim, (int)m->tag_names[i].tag,
            m->tag_names[i].name);
  fprintf(w->out, "$EndPhysicalNames\n");
}

static void write_coordinates(const gmsh_writer *w, int64_t v) {
  const double *x = writer_node(w, v);
  fprintf(w->out, "%.17g %.17g %.17g\n", x[0], x[1], w->mesh->dim == 3 ? x[2] : 0.0);
}

/* Vertex tags (1-based) of boundary face f, in its element's local order. */
static void write_face_nodes(const gmsh_writer *w, int32_t f) {
  const hdgcl_mesh *m = w->mesh;
  int32_t e = m->face_elems[2 * (int64_t)f];
  const int8_t *lv =
      hdgcl_element_face_vertices(hdgcl_mesh_element_type(m, e), m->face_local[2 * (int64_t)f]);
  for (int j = 0; j < m->verts_per_face; j++)
    fprintf(w->out, " %d", (int)m->elem_verts[(int64_t)e * m->verts_per_element + lv[j]] + 1);
  fputc('\n', w->out);
}

/* Node tags (1-based) of element e: its vertices, then (curved) its other nodes. */
static int element_nodes(const gmsh_writer *w, int32_t e, int64_t *tags) {
  const hdgcl_mesh *m = w->mesh;
  int nv = hdgcl_mesh_element_verts(m, e), nh = w->extra_of ? m->nodes_per_element - nv : 0;
  for (int j = 0; j < nv; j++) tags[j] = (int64_t)m->elem_verts[(int64_t)e * m->verts_per_element + j] + 1;
  for (int j = 0; j < nh; j++)
    tags[nv + j] = (int64_t)m->num_vertices + w->extra_of[(int64_t)e * nh + j] + 1;
  return nv + nh;
}

static void write_element_nodes(const gmsh_writer *w, int32_t e) {
  int64_t tags[64];
  int n = element_nodes(w, e, tags);
  for (int j = 0; j < n; j++) fprintf(w->out, " %lld", (long long)tags[j]);
  fputc('\n', w->out);
}

/* Format 4.1: element `number`, element e of the mesh, as one record. */
static void write_body41(gmsh_writer *w, int64_t number, int32_t e) {
  int64_t tags[64];
  int n = element_nodes(w, e, tags);
  if (w->binary) {
    uint64_t words[1 + 64];
    words[0] = (uint64_t)number;
    for (int j = 0; j < n; j++) words[1 + j] = (uint64_t)tags[j];
    fwrite(words, sizeof *words, (size_t)n + 1, w->out);
    return;
  }
  fprintf(w->out, "%lld", (long long)number);
  for (int j = 0; j < n; j++) fprintf(w->out, " %lld", (long long)tags[j]);
  fputc('\n', w->out);
}

/* Format 4.1: element `number` with the vertices vertex[local[j]] (local
 * NULL: in order), n of them, as one record. */
static void write_element41(gmsh_writer *w, int64_t number, const int32_t *vertex,
                            const int8_t *local, int n) {
  if (w->binary) {
    uint64_t words[1 + 8];
    words[0] = (uint64_t)number;
    for (int j = 0; j < n; j++) words[1 + j] = (uint64_t)vertex[local ? local[j] : j] + 1;
    fwrite(words, sizeof *words, (size_t)n + 1, w->out);
    return;
  }
  fprintf(w->out, "%lld", (long long)number);
  for (int j = 0; j < n; j++) fprintf(w->out, " %d", (int)vertex[local ? local[j] : j] + 1);
  fputc('\n', w->out);
}

/* Boundary faces carrying a tag. */
static int32_t tagged_faces(const hdgcl_mesh *m) {
  int32_t n = 0;
  for (int32_t f = m->num_interior_faces; f < m->num_faces; f++) n += m->face_tags[f] != 0;
  return n;
}

/* Format 4.1 gives every node an entity, as Gmsh does: a node on tagged
 * boundary faces goes to the boundary entity of the smallest such tag, any
 * other node to the entity of the first element containing it.  Entity k
 * (0-based) is boundary entity k+1 for k < boundary.count, else body entity
 * k - boundary.count + 1.  *order lists the vertices grouped by entity, in
 * vertex order within a group; start[k] is where group k begins. */
static int classify_nodes(const gmsh_writer *w, int32_t *order, int32_t *start) {
  const hdgcl_mesh *m = w->mesh;
  int32_t nb = w->boundary.count, groups = nb + w->body.count, *entity;
  int64_t nn = m->num_vertices + w->num_extra; /* curved: the other nodes follow */
  HDGCL_TRY(hdgcl_calloc((size_t)nn, sizeof *entity, "node entities", &entity));
  for (int32_t v = 0; v < m->num_vertices; v++) entity[v] = groups; /* unassigned */
  for (int32_t f = m->num_interior_faces; f < m->num_faces; f++)
    if (m->face_tags[f] != 0) {
      int32_t k = entity_of(&w->boundary, m->face_tags[f]) - 1;
      for (int j = 0; j < m->verts_per_face; j++) {
        int32_t v = m->face_verts[(int64_t)f * m->verts_per_face + j];
        if (k < entity[v]) entity[v] = k;
      }
    }
  for (int32_t e = 0; e < m->num_elements; e++) {
    int32_t k = nb + entity_of(&w->body, m->elem_tags[e]) - 1;
    for (int j = 0; j < hdgcl_mesh_element_verts(m, e); j++) {
      int32_t v = m->elem_verts[(int64_t)e * m->verts_per_element + j];
      if (entity[v] == groups) entity[v] = k;
    }
  }
  for (int32_t v = 0; v < m->num_vertices; v++) /* unused vertices: first body entity */
    if (entity[v] == groups) entity[v] = nb;
  for (int64_t i = 0; i < w->num_extra; i++) /* the entity of the first element using it */
    entity[m->num_vertices + i] =
        nb + entity_of(&w->body, m->elem_tags[w->extra_at[i] / m->nodes_per_element]) - 1;
  for (int32_t k = 0; k <= groups; k++) start[k] = 0;
  for (int64_t v = 0; v < nn; v++) start[entity[v] + 1]++;
  for (int32_t k = 0; k < groups; k++) start[k + 1] += start[k];
  for (int64_t v = 0; v < nn; v++) order[start[entity[v]]++] = (int32_t)v;
  for (int32_t k = groups; k > 0; k--) start[k] = start[k - 1];
  start[0] = 0;
  free(entity);
  return HDGCL_SUCCESS;
}

static int write41(gmsh_writer *w) {
  const hdgcl_mesh *m = w->mesh;
  int dim = m->dim;
  fprintf(w->out, "$MeshFormat\n4.1 %d 8\n", w->binary ? 1 : 0);
  if (w->binary) { /* the endianness check: the int 1 in binary, then a newline */
    int32_t one = 1;
    fwrite(&one, sizeof one, 1, w->out);
    fputc('\n', w->out);
  }
  fprintf(w->out, "$EndMeshFormat\n");
  write_names(w);
  write_entities(w);
  int32_t nv = (int32_t)(m->num_vertices + w->num_extra); /* nodes */
  int32_t groups = w->boundary.count + w->body.count, blocks = 0;
  int32_t *order = NULL, *start = NULL;
  int status;
  HDGCL_TRY_GOTO(status, hdgcl_calloc((size_t)nv, sizeof *order, "node order", &order), done);
  HDGCL_TRY_GOTO(status, hdgcl_calloc((size_t)groups + 2, sizeof *start, "node blocks", &start),
                 done);
  if (groups > 0) HDGCL_TRY_GOTO(status, classify_nodes(w, order, start), done);
  for (int32_t k = 0; k < groups; k++) blocks += start[k + 1] > start[k];
  begin_section(w, "Nodes");
  put_size(w, blocks);
  put_size(w, nv);
  put_size(w, nv ? 1 : 0);
  put_size(w, nv);
  end_record(w);
  for (int32_t k = 0; k < groups; k++) {
    if (start[k + 1] == start[k]) continue;
    bool boundary = k < w->boundary.count;
    put_int(w, boundary ? dim - 1 : dim);
    put_int(w, boundary ? k + 1 : k - w->boundary.count + 1);
    put_int(w, 0); /* not parametric */
    put_size(w, start[k + 1] - start[k]);
    end_record(w);
    for (int32_t i = start[k]; i < start[k + 1]; i++) {
      put_size(w, (int64_t)order[i] + 1);
      end_record(w);
    }
    for (int32_t i = start[k]; i < start[k + 1]; i++) {
      const double *x = writer_node(w, order[i]);
      put_real(w, x[0]);
      put_real(w, x[1]);
      put_real(w, dim == 3 ? x[2] : 0.0);
      end_record(w);
    }
  }
  end_section(w, "Nodes");

  int32_t runs = 0; /* blocks: runs of one tag and one type */
  for (int32_t e = 0; e < m->num_elements; e++)
    runs += e == 0 || m->elem_tags[e] != m->elem_tags[e - 1] ||
            hdgcl_mesh_element_type(m, e) != hdgcl_mesh_element_type(m, e - 1);
  int64_t total = (int64_t)tagged_faces(m) + m->num_elements;
  begin_section(w, "Elements");
  put_size(w, w->boundary.count + runs);
  put_size(w, total);
  put_size(w, total ? 1 : 0);
  put_size(w, total);
  end_record(w);
  int64_t number = 1;
  for (int32_t i = 0; i < w->boundary.count; i++) {
    int32_t count = 0;
    for (int32_t f = m->num_interior_faces; f < m->num_faces; f++)
      count += m->face_tags[f] == w->boundary.tags[i];
    put_int(w, dim - 1);
    put_int(w, i + 1);
    put_int(w, w->face_type);
    put_size(w, count);
    end_record(w);
    for (int32_t f = m->num_interior_faces; f < m->num_faces; f++)
      if (m->face_tags[f] == w->boundary.tags[i]) {
        int32_t e = m->face_elems[2 * (int64_t)f];
        write_element41(w, number++, m->elem_verts + (int64_t)e * m->verts_per_element,
                        hdgcl_element_face_vertices(hdgcl_mesh_element_type(m, e),
                                                    m->face_local[2 * (int64_t)f]),
                        m->verts_per_face);
      }
  }
  for (int32_t first = 0, end; first < m->num_elements; first = end) {
    hdgcl_element_type type = hdgcl_mesh_element_type(m, first);
    for (end = first + 1; end < m->num_elements && m->elem_tags[end] == m->elem_tags[first] &&
                          hdgcl_mesh_element_type(m, end) == type;)
      end++;
    put_int(w, dim);
    put_int(w, entity_of(&w->body, m->elem_tags[first]));
    put_int(w, w->body_types[type]);
    put_size(w, end - first);
    end_record(w);
    for (int32_t e = first; e < end; e++) write_body41(w, number++, e);
  }
  end_section(w, "Elements");
  status = HDGCL_SUCCESS;
done:
  free(order);
  free(start);
  return status;
}

static void write22(gmsh_writer *w) {
  const hdgcl_mesh *m = w->mesh;
  fprintf(w->out, "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n");
  write_names(w);
  int64_t nodes = m->num_vertices + w->num_extra;
  fprintf(w->out, "$Nodes\n%lld\n", (long long)nodes);
  for (int64_t v = 0; v < nodes; v++) {
    fprintf(w->out, "%lld ", (long long)v + 1);
    write_coordinates(w, v);
  }
  fprintf(w->out, "$EndNodes\n");
  int64_t total = (int64_t)tagged_faces(m) + m->num_elements, number = 1;
  fprintf(w->out, "$Elements\n%lld\n", (long long)total);
  /* number type 2 physical elementary nodes... */
  for (int32_t f = m->num_interior_faces; f < m->num_faces; f++)
    if (m->face_tags[f] != 0) {
      fprintf(w->out, "%lld %d 2 %d %d", (long long)number++, w->face_type, (int)m->face_tags[f],
              (int)entity_of(&w->boundary, m->face_tags[f]));
      write_face_nodes(w, f);
    }
  for (int32_t e = 0; e < m->num_elements; e++) {
    fprintf(w->out, "%lld %d 2 %d %d", (long long)number++,
            w->body_types[hdgcl_mesh_element_type(m, e)], (int)m->elem_tags[e],
            (int)entity_of(&w->body, m->elem_tags[e]));
    write_element_nodes(w, e);
  }
  fprintf(w->out, "$EndElements\n");
}

static int check_mesh(const hdgcl_mesh *m, const char *path) {
  if (!m->face_verts || !m->face_tags)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                       "cannot write '%s': the mesh has no topology "
                       "(call hdgcl_mesh_build_topology)",
                       path);
  for (int32_t e = 0; e < m->num_elements; e++)
    if (m->elem_tags[e] < 0)
      return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                         "cannot write '%s': element %d has tag %d (Gmsh physical groups are "
                         "positive; 0 means none)",
                         path, (int)e, (int)m->elem_tags[e]);
  for (int32_t f = m->num_interior_faces; f < m->num_faces; f++)
    if (m->face_tags[f] < 0)
      return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                         "cannot write '%s': boundary face %d has tag %d (Gmsh physical groups "
                         "are positive; 0 means none)",
                         path, (int)f, (int)m->face_tags[f]);
  for (int32_t i = 0; i < m->num_tag_names; i++) { /* a table filled in by hand */
    const hdgcl_tag_name *t = &m->tag_names[i];
    const char *problem = memchr(t->name, '\0', sizeof t->name) ? hdgcl_tag_name_problem(t->name)
                                                                : "is not terminated";
    if (t->dim != m->dim && t->dim != m->dim - 1)
      problem = "has a dimension other than the mesh's or its faces'";
    if (problem)
      return hdgcl_error(HDGCL_ERROR_ARGUMENT, "cannot write '%s': tag name %d (tag %d) %s", path,
                         (int)i, (int)t->tag, problem);
  }
  return HDGCL_SUCCESS;
}

/* A new file next to path, opened for writing; its name in tmp. */
static int open_temporary(const char *path, char *tmp, size_t size, FILE **out) {
  static _Atomic unsigned counter = 0; /* makes names unique within the process */
  for (int attempt = 0; attempt < 100; attempt++) {
    snprintf(tmp, size, "%s.tmp%ld.%u", path, (long)getpid(), counter++);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0666);
    if (fd < 0 && errno == EEXIST) continue;
    if (fd < 0) return hdgcl_error(HDGCL_ERROR_IO, "cannot write '%s': %s", path, strerror(errno));
    *out = fdopen(fd, "w");
    if (*out) return HDGCL_SUCCESS;
    int err = errno;
    close(fd);
    unlink(tmp);
    return hdgcl_error(HDGCL_ERROR_IO, "cannot write '%s': %s", path, strerror(err));
  }
  return hdgcl_error(HDGCL_ERROR_IO, "cannot write '%s': no free temporary name", path);
}

static int write_file(const hdgcl_mesh *mesh, const char *path, int version, bool binary) {
  HDGCL_TRY(check_mesh(mesh, path));
  /* Gmsh types by element type and geometry order (1, 2, 3) */
  static const int body_types[4][3] = {{2, 9, 21}, {3, 10, 36}, {4, 11, 29}, {5, 12, 92}};
  static const int face_types[] = {1, 1, 2, 3};
  int order = mesh->geometry_order > 1 ? mesh->geometry_order : 1;
  if (order > 3 || !body_types[mesh->type][order - 1] ||
      (order > 1 && (!mesh->elem_nodes ||
                     mesh->nodes_per_element != hdgcl_geometry_nodes(mesh->type, order, NULL))))
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "cannot write '%s': %s elements of geometry order %d",
                       path, hdgcl_element_type_name(mesh->type), order);
  gmsh_writer w = {.mesh = mesh,
                   .binary = binary,
                   .face_type = face_types[mesh->type]};
  for (int t = 0; t < 4; t++) w.body_types[t] = body_types[t][order - 1];
  for (int32_t v = 0; v < mesh->num_vertices; v++)
    for (int d = 0; d < mesh->dim; d++) {
      double x = mesh->coords[(int64_t)v * mesh->dim + d];
      w.lo[d] = v == 0 ? x : fmin(w.lo[d], x);
      w.hi[d] = v == 0 ? x : fmax(w.hi[d], x);
    }
  char *tmp = NULL;
  size_t tmp_size = strlen(path) + 64;
  int status;
  if (order > 1) HDGCL_TRY_GOTO(status, number_extra_nodes(&w), done);
  if ((int64_t)mesh->num_vertices + w.num_extra > INT32_MAX) {
    status = hdgcl_error(HDGCL_ERROR_ARGUMENT, "cannot write '%s': more than 2^31-1 nodes", path);
    goto done;
  }
  HDGCL_TRY_GOTO(status, collect_tags(mesh->elem_tags, mesh->num_elements, false, &w.body), done);
  HDGCL_TRY_GOTO(status,
                 collect_tags(mesh->face_tags + mesh->num_interior_faces,
                              mesh->num_faces - mesh->num_interior_faces, true, &w.boundary),
                 done);
  HDGCL_TRY_GOTO(status, hdgcl_calloc(tmp_size, 1, "file name", &tmp), done);
  HDGCL_TRY_GOTO(status, open_temporary(path, tmp, tmp_size, &w.out), done);
  if (version == 41)
    status = write41(&w);
  else
    write22(&w);
  bool failed = ferror(w.out) != 0;
  int err = errno;
  if (fclose(w.out) != 0 && !failed) failed = true, err = errno;
  if (status == HDGCL_SUCCESS && !failed && rename(tmp, path) != 0) failed = true, err = errno;
  if (status == HDGCL_SUCCESS && failed)
    status = hdgcl_error(HDGCL_ERROR_IO, "cannot write '%s': %s", path, strerror(err ? err : EIO));
  if (status != HDGCL_SUCCESS) unlink(tmp);
done:
  free(tmp);
  free(w.body.tags);
  free(w.boundary.tags);
  free(w.extra_at);
  free(w.extra_of);
  return status;
}

int hdgcl_mesh_write_gmsh(const hdgcl_mesh *mesh, const char *path, int version) {
  if (!mesh || !path || !path[0])
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "hdgcl_mesh_write_gmsh: NULL mesh or empty path");
  if (version != 41 && version != 22)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                       "cannot write '%s': Gmsh format version %d (use 41 or 22)", path, version);
  return write_file(mesh, path, version, false);
}

int hdgcl_mesh_write_gmsh_binary(const hdgcl_mesh *mesh, const char *path) {
  if (!mesh || !path || !path[0])
    return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                       "hdgcl_mesh_write_gmsh_binary: NULL mesh or empty path");
  return write_file(mesh, path, 41, true);
}
