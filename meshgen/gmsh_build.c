/* From the content of a Gmsh file to an hdgcl mesh:
 *  - the highest-dimensional elements (triangles and/or quadrangles in 2D:
 *    a mixed mesh, triangles first, each type in file order; tetrahedra or
 *    hexahedra in 3D, one type per mesh) are the mesh, their physical group
 *    its element tags;
 *  - only the nodes they use become vertices (in node tag order); a 2D mesh
 *    must lie in a plane z = constant, and z is dropped;
 *  - mirrored elements are reordered, degenerate ones refused;
 *  - lower-dimensional elements with a physical group (lines in 2D,
 *    triangles/quadrangles in 3D) tag the boundary faces they cover (the
 *    first group wins; groups on interior faces are ignored);
 *  - the names of physical groups of these two dimensions name the tags.
 * Errors name the file and the line of the element concerned (in a binary
 * file its byte offset). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "gmsh_sections.h"
#include "mesh_internal.h"

static hdgcl_element_type element_type_of(int gmsh_type) {
  switch (gmsh_type_base(gmsh_type)) {
  case GMSH_TRIANGLE: return HDGCL_TRIANGLE;
  case GMSH_QUADRANGLE: return HDGCL_QUADRILATERAL;
  case GMSH_TETRAHEDRON: return HDGCL_TETRAHEDRON;
  default: return HDGCL_HEXAHEDRON;
  }
}

/* The elements forming the mesh: one list, or (a mixed 2D mesh) the
 * triangles then the quadrangles; mesh element e is element e - first[i] of
 * lists[i]. */
typedef struct gmsh_body {
  int count;                          /* lists: 1 or 2 */
  const gmsh_element_list *lists[2];
  int64_t first[3];
} gmsh_body;

/* The list and index in it of mesh element e. */
static const gmsh_element_list *body_element(const gmsh_body *b, int64_t e, int64_t *i) {
  int k = b->count > 1 && e >= b->first[1];
  *i = e - b->first[k];
  return b->lists[k];
}

/* The Gmsh types forming the mesh (mixed: triangles and quadrangles, both
 * straight-sided). */
static int choose_body(const gmsh_content *c, const char *path, gmsh_body *body) {
  static const int pairs[2][2] = {{GMSH_TETRAHEDRON, GMSH_HEXAHEDRON},
                                  {GMSH_TRIANGLE, GMSH_QUADRANGLE}};
  for (int p = 0; p < 2; p++) {
    const gmsh_element_list *a = &c->lists[pairs[p][0]], *b = &c->lists[pairs[p][1]];
    long line = a->count && b->count ? (a->lines[0] > b->lines[0] ? a->lines[0] : b->lines[0]) : 0;
    if (a->count && b->count && (p == 0 || gmsh_type_order(a->type) > 1 || gmsh_type_order(b->type) > 1))
      return hdgcl_error(HDGCL_ERROR_FORMAT,
                         "%s%s: mixed element types: %s %lld (%s) and %s %lld (%s); "
                         "mixed meshes are straight-sided triangles and quadrangles so far",
                         path, gmsh_where(c, line).text, gmsh_type_name(a->type),
                         (long long)a->numbers[0], gmsh_at(c, a->lines[0]).text,
                         gmsh_type_name(b->type), (long long)b->numbers[0],
                         gmsh_at(c, b->lines[0]).text);
    if (a->count || b->count) {
      body->count = 0;
      if (a->count) body->lists[body->count++] = a;
      if (b->count) body->lists[body->count++] = b;
      body->first[0] = 0;
      body->first[1] = body->lists[0]->count;
      body->first[2] = body->first[1] + (body->count > 1 ? body->lists[1]->count : 0);
      return HDGCL_SUCCESS;
    }
  }
  return hdgcl_error(HDGCL_ERROR_FORMAT,
                     "%s: no triangles, quadrangles, tetrahedra or hexahedra (if the file has "
                     "physical groups, the domain needs one too, or save with Mesh.SaveAll = 1)",
                     path);
}

/* vertex[node position] = mesh vertex, or -1 for nodes no element uses.
 * Vertices are numbered in increasing node tag order (so a file written by
 * hdgcl_mesh_write_gmsh reads back with the same numbering). */
static void number_vertices(const gmsh_content *c, const gmsh_body *b, int32_t *vertex,
                            int32_t *num_vertices) {
  for (int64_t i = 0; i < c->num_nodes; i++) vertex[i] = -1;
  for (int l = 0; l < b->count; l++) {
    const gmsh_element_list *body = b->lists[l];
    int n = gmsh_type_nodes(body->type), nv = gmsh_type_nodes(gmsh_type_base(body->type));
    for (int64_t e = 0; e < body->count; e++) /* the first nv nodes: the vertices */
      for (int k = 0; k < nv; k++) vertex[body->nodes[e * n + k]] = 0;
  }
  int32_t next = 0;
  if (c->dense) {
    for (int64_t tag = 0; tag < c->dense_size; tag++)
      if (c->dense[tag] >= 0 && vertex[c->dense[tag]] == 0) vertex[c->dense[tag]] = ++next;
  } else {
    for (int64_t i = 0; i < c->num_nodes; i++)
      if (vertex[c->sorted_positions[i]] == 0) vertex[c->sorted_positions[i]] = ++next;
  }
  for (int64_t i = 0; i < c->num_nodes; i++) /* numbered from 1 above (0 meant "used") */
    if (vertex[i] > 0) vertex[i]--;
  *num_vertices = next;
}

/* 2D: every used node in the plane z = z of the first one. */
static int check_planar(const gmsh_content *c, const gmsh_body *b, const int32_t *vertex,
                        const char *path) {
  double lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY}, z0 = 0;
  bool first = true;
  for (int64_t i = 0; i < c->num_nodes; i++) {
    if (vertex[i] < 0) continue; /* (vertices only: the high-order nodes are checked below) */
    const double *x = c->node_xyz + 3 * i;
    if (first) z0 = x[2], first = false;
    for (int d = 0; d < 2; d++) {
      lo[d] = fmin(lo[d], x[d]);
      hi[d] = fmax(hi[d], x[d]);
    }
  }
  double scale = fmax(fmax(hi[0] - lo[0], hi[1] - lo[1]), fabs(z0));
  double tolerance = 1e-10 * scale;
  for (int l = 0; l < b->count; l++) {
    const gmsh_element_list *body = b->lists[l];
    int gmsh_type = body->type, n = gmsh_type_nodes(gmsh_type);
    for (int64_t e = 0; e < body->count; e++)
      for (int k = 0; k < n; k++) {
        int32_t node = body->nodes[e * n + k];
        double z = c->node_xyz[3 * (int64_t)node + 2];
        if (fabs(z - z0) > tolerance)
          return hdgcl_error(HDGCL_ERROR_FORMAT,
                             "%s%s: %s %lld has node %lld at z = %g, off the plane z = %g of "
                             "the mesh (2D meshes must be flat)",
                             path, gmsh_where(c, body->lines[e]).text, gmsh_type_name(gmsh_type),
                             (long long)body->numbers[e], (long long)c->node_tags[node], z, z0);
      }
  }
  return HDGCL_SUCCESS;
}

/* The geometry nodes of a curved mesh in Gmsh's order; the serendipity
 * quadrangle 8 and hexahedron 20 gain the face and centre nodes of the
 * same map (their space lies in Q2: at a face centre the serendipity map is
 * -1/4 the sum of the face's corners + 1/2 the sum of its edge nodes, at the
 * hexahedron's centre -1/4 the corners + 1/4 the edge nodes). */
static int curved_nodes(hdgcl_mesh *m, const gmsh_content *c, const gmsh_element_list *body,
                        int gmsh_type) {
  int n = gmsh_type_nodes(gmsh_type), d = m->dim, order = gmsh_type_order(gmsh_type);
  int count = hdgcl_geometry_nodes(m->type, order, NULL);
  m->geometry_order = order;
  m->nodes_per_element = count;
  HDGCL_TRY(hdgcl_calloc((size_t)body->count * count * d, sizeof(double), "curved geometry nodes",
                         &m->elem_nodes));
  /* hexahedron 20 -> 27: faces 0321 0154 0473 1265 2376 4567 as (corners, edge nodes) */
  static const int8_t hex_face_corners[6][4] = {{0, 3, 2, 1}, {0, 1, 5, 4}, {0, 4, 7, 3},
                                                {1, 2, 6, 5}, {2, 3, 7, 6}, {4, 5, 6, 7}};
  static const int8_t hex_face_edges[6][4] = {{9, 13, 11, 8},  {8, 12, 16, 10}, {10, 17, 15, 9},
                                              {11, 14, 18, 12}, {13, 15, 19, 14}, {16, 18, 19, 17}};
  for (int64_t e = 0; e < body->count; e++) {
    double *x = m->elem_nodes + (size_t)e * count * d;
    for (int a = 0; a < n; a++)
      for (int k = 0; k < d; k++) x[a * d + k] = c->node_xyz[3 * (int64_t)body->nodes[e * n + a] + k];
    if (gmsh_type == GMSH_QUADRANGLE8)
      for (int k = 0; k < d; k++) {
        double s = 0.0;
        for (int a = 0; a < 4; a++) s += -0.25 * x[a * d + k] + 0.5 * x[(4 + a) * d + k];
        x[8 * d + k] = s;
      }
    if (gmsh_type == GMSH_HEXAHEDRON20)
      for (int k = 0; k < d; k++) {
        for (int f = 0; f < 6; f++) {
          double s = 0.0;
          for (int a = 0; a < 4; a++)
            s += -0.25 * x[hex_face_corners[f][a] * d + k] + 0.5 * x[hex_face_edges[f][a] * d + k];
          x[(20 + f) * d + k] = s;
        }
        double s = 0.0;
        for (int a = 0; a < 8; a++) s += -0.25 * x[a * d + k];
        for (int a = 8; a < 20; a++) s += 0.25 * x[a * d + k];
        x[26 * d + k] = s;
      }
  }
  return HDGCL_SUCCESS;
}

/* Every curved element's Jacobian positive (hdgcl_mesh_check_curved_element),
 * naming the file's element.  A mirrored curved element is refused too: its
 * nodes would need reordering. */
static int check_curved(hdgcl_mesh *m, const gmsh_content *c, const gmsh_element_list *body,
                        int gmsh_type, const char *path) {
  for (int32_t e = 0; e < m->num_elements; e++) {
    int status = hdgcl_mesh_check_curved_element(m, e);
    if (status != HDGCL_SUCCESS) {
      char message[400];
      snprintf(message, sizeof message, "%s", hdgcl_last_error());
      return hdgcl_error(status, "%s%s: %s %lld: %s", path, gmsh_where(c, body->lines[e]).text,
                         gmsh_type_name(gmsh_type), (long long)body->numbers[e], message);
    }
  }
  return HDGCL_SUCCESS;
}

/* Mirrors inverted elements; refuses degenerate ones (hdgcl_mesh_orient_elements),
 * naming the file's element. */
static int orient(hdgcl_mesh *mesh, const gmsh_content *c, const gmsh_body *b, const char *path) {
  int32_t me;
  int status = hdgcl_mesh_orient_elements(mesh, &me);
  if (status == HDGCL_SUCCESS || me < 0) return status;
  int64_t e;
  const gmsh_element_list *body = body_element(b, me, &e);
  int gmsh_type = body->type;
  return hdgcl_error(HDGCL_ERROR_MESH,
                     "%s%s: %s %lld is degenerate (zero %s, or a collapsed or twisted "
                     "shape: its Jacobian is not of one sign at the corners)",
                     path, gmsh_where(c, body->lines[e]).text, gmsh_type_name(gmsh_type),
                     (long long)body->numbers[e], mesh->dim == 2 ? "area" : "volume");
}

static int topology(hdgcl_mesh *mesh, const gmsh_content *c, const gmsh_body *b, const char *path) {
  hdgcl_face_conflict conflict;
  int status = hdgcl_mesh_build_topology_conflict(mesh, &conflict);
  if (status == HDGCL_SUCCESS || conflict.count == 0) return status;
  /* "triangle 5 (line 30)"; of a mesh of one type "5 (line 30)", the type leading */
  char who[3][80], name[32] = "";
  long line = 0;
  for (int i = 0; i < conflict.count; i++) {
    int64_t e;
    const gmsh_element_list *body = body_element(b, conflict.elements[i], &e);
    snprintf(who[i], sizeof who[i], "%s%s%lld (%s)", b->count > 1 ? gmsh_type_name(body->type) : "",
             b->count > 1 ? " " : "", (long long)body->numbers[e], gmsh_at(c, body->lines[e]).text);
    if (body->lines[e] > line) line = body->lines[e];
    if (b->count == 1) snprintf(name, sizeof name, "%s ", gmsh_type_name(body->type));
  }
  gmsh_place place = gmsh_where(c, line);
  const char *where = place.text;
  if (conflict.count == 1)
    return hdgcl_error(status, "%s%s: %s%s %s", path, where, name, who[0], conflict.reason);
  if (conflict.count == 2)
    return hdgcl_error(status, "%s%s: %selements %s and %s %s", path, where, name, who[0], who[1],
                       conflict.reason);
  return hdgcl_error(status, "%s%s: %selements %s, %s and %s %s", path, where, name, who[0],
                     who[1], who[2], conflict.reason);
}

/* A mixed mesh's faces match across element types (no hanging node:
 * hdgcl_mesh_check_conforming), naming the file's element and nodes. */
static int conforming(hdgcl_mesh *mesh, const gmsh_content *c, const gmsh_body *b,
                      const int32_t *vertex, const char *path) {
  int32_t bad[4];
  int status = hdgcl_mesh_check_conforming(mesh, bad);
  if (status == HDGCL_SUCCESS || bad[0] < 0) return status;
  long long node[3] = {0, 0, 0}; /* the file's tags of vertices bad[1..3] */
  for (int64_t i = 0; i < c->num_nodes; i++)
    for (int k = 0; k < 3; k++)
      if (vertex[i] == bad[1 + k]) node[k] = (long long)c->node_tags[i];
  int64_t e;
  const gmsh_element_list *body = body_element(b, bad[0], &e);
  return hdgcl_error(status,
                     "%s%s: %s %lld: its side from node %lld to node %lld does not match its "
                     "neighbours: node %lld lies inside it (a hanging node; the faces of a mixed "
                     "mesh must match across element types)",
                     path, gmsh_where(c, body->lines[e]).text, gmsh_type_name(body->type),
                     (long long)body->numbers[e], node[0], node[1], node[2]);
}

/* Boundary tags from the lower-dimensional elements of gmsh type face_type. */
static int tag_faces(hdgcl_mesh *mesh, const gmsh_content *c, int face_type, const int32_t *vertex,
                     const char *body_name, const char *path) {
  const gmsh_element_list *faces = &c->lists[face_type];
  /* stride: the file's face type (line 3, triangle 6, ...); its first n nodes are the vertices */
  int n = gmsh_type_nodes(face_type), stride = faces->count ? gmsh_type_nodes(faces->type) : n;
  for (int64_t i = 0; i < faces->count; i++) {
    if (faces->tags[i] == 0) continue;
    int32_t local[HDGCL_MAX_FACE_VERTS], canonical[HDGCL_MAX_FACE_VERTS];
    int8_t orient_code;
    int32_t f = -1;
    bool on_mesh = n == mesh->verts_per_face;
    for (int k = 0; k < n && on_mesh; k++) {
      local[k] = vertex[faces->nodes[i * stride + k]];
      on_mesh = local[k] >= 0;
    }
    if (on_mesh) {
      hdgcl_face_canonical(n, local, canonical, &orient_code);
      f = orient_code >= 0 ? hdgcl_mesh_find_face(mesh, canonical) : -1;
    }
    if (f < 0)
      return hdgcl_error(
          HDGCL_ERROR_FORMAT, "%s%s: %s %lld (physical group %d) is not a face of any %s", path,
          gmsh_where(c, faces->lines[i]).text, gmsh_type_name(faces->type),
          (long long)faces->numbers[i], (int)faces->tags[i], body_name);
    if (f >= mesh->num_interior_faces && mesh->face_tags[f] == 0)
      mesh->face_tags[f] = faces->tags[i];
  }
  return HDGCL_SUCCESS;
}

/* Tag names from $PhysicalNames (element and face dimensions only). */
static int name_tags(hdgcl_mesh *mesh, const gmsh_content *c, const char *path) {
  for (int64_t i = 0; i < c->num_names; i++) {
    const gmsh_physical_name *p = &c->names[i];
    if (p->dim != mesh->dim && p->dim != mesh->dim - 1) continue;
    const char *problem =
        p->length > 63 ? "is longer than 63 characters" : hdgcl_tag_name_problem(p->name);
    if (problem)
      return hdgcl_error(HDGCL_ERROR_FORMAT, "%s%s: physical name \"%.40s%s\" %s", path,
                         gmsh_where(c, p->line).text, p->name, p->length > 40 ? "..." : "",
                         problem);
    for (int64_t k = 0; k < i; k++)
      if (c->names[k].dim == p->dim && !strcmp(c->names[k].name, p->name))
        return hdgcl_error(HDGCL_ERROR_FORMAT,
                           "%s%s: physical name \"%s\" of group %d also names group %d (%s) "
                           "of dimension %d",
                           path, gmsh_where(c, p->line).text, p->name, (int)p->tag,
                           (int)c->names[k].tag, gmsh_at(c, c->names[k].line).text, p->dim);
    HDGCL_TRY(hdgcl_mesh_set_tag_name(mesh, p->dim, p->tag, p->name));
  }
  return HDGCL_SUCCESS;
}

/* The mesh of the body's elements, vertices numbered by vertex[] (mixed:
 * the triangles, then the quadrangles). */
static int allocate_body(const gmsh_body *b, int dim, const gmsh_content *c, const int32_t *vertex,
                         int32_t num_vertices, hdgcl_mesh **mesh) {
  hdgcl_element_type types[2];
  int32_t counts[2];
  for (int l = 0; l < b->count; l++) {
    types[l] = element_type_of(b->lists[l]->type);
    counts[l] = (int32_t)b->lists[l]->count;
  }
  if (b->first[b->count] > INT32_MAX)
    return hdgcl_error(HDGCL_ERROR_FORMAT, "more than 2^31-1 elements");
  HDGCL_TRY(hdgcl_mesh_allocate_mixed(b->count, types, counts, num_vertices, mesh));
  hdgcl_mesh *m = *mesh;
  for (int64_t i = 0; i < c->num_nodes; i++)
    if (vertex[i] >= 0)
      for (int d = 0; d < dim; d++) m->coords[(int64_t)vertex[i] * dim + d] = c->node_xyz[3 * i + d];
  int stride = m->verts_per_element;
  for (int64_t e = 0; e < m->num_elements; e++) {
    int64_t i;
    const gmsh_element_list *body = body_element(b, e, &i);
    int n = gmsh_type_nodes(body->type), nv = gmsh_type_nodes(gmsh_type_base(body->type));
    for (int k = 0; k < nv; k++) m->elem_verts[e * stride + k] = vertex[body->nodes[i * n + k]];
    m->elem_tags[e] = body->tags[i];
  }
  return HDGCL_SUCCESS;
}

int gmsh_build_mesh(const gmsh_content *c, const char *path, hdgcl_mesh **mesh) {
  gmsh_body b = {0};
  HDGCL_TRY(choose_body(c, path, &b));
  const gmsh_element_list *body = b.lists[0];
  int body_type = body->type; /* the file's type: triangle 6, ... */
  int dim = gmsh_type_dim(body_type);
  int32_t *vertex, num_vertices;
  hdgcl_mesh *m = NULL;
  HDGCL_TRY(hdgcl_calloc((size_t)c->num_nodes, sizeof *vertex, "node numbering", &vertex));
  int status;
  number_vertices(c, &b, vertex, &num_vertices);
  status = HDGCL_SUCCESS;
  if (dim == 2) HDGCL_TRY_GOTO(status, check_planar(c, &b, vertex, path), done);
  HDGCL_TRY_GOTO(status, allocate_body(&b, dim, c, vertex, num_vertices, &m), done);
  if (gmsh_type_order(body_type) > 1) { /* one type (choose_body) */
    HDGCL_TRY_GOTO(status, curved_nodes(m, c, body, body_type), done);
    HDGCL_TRY_GOTO(status, check_curved(m, c, body, body_type, path), done);
  }
  HDGCL_TRY_GOTO(status, orient(m, c, &b, path), done);
  HDGCL_TRY_GOTO(status, topology(m, c, &b, path), done);
  if (b.count > 1) HDGCL_TRY_GOTO(status, conforming(m, c, &b, vertex, path), done);
  const char *body_name = b.count > 1 ? "triangle or quadrangle" : gmsh_type_name(body_type);
  if (dim == 2) {
    HDGCL_TRY_GOTO(status, tag_faces(m, c, GMSH_LINE, vertex, body_name, path), done);
  } else {
    HDGCL_TRY_GOTO(status, tag_faces(m, c, GMSH_TRIANGLE, vertex, body_name, path), done);
    HDGCL_TRY_GOTO(status, tag_faces(m, c, GMSH_QUADRANGLE, vertex, body_name, path), done);
  }
  HDGCL_TRY_GOTO(status, name_tags(m, c, path), done);
  *mesh = m;
  m = NULL;
done:
  hdgcl_mesh_destroy(&m);
  free(vertex);
  return status;
}
