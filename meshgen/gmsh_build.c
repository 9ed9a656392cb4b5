/* From the content of a Gmsh file to an hdgcl mesh:
 *  - the highest-dimensional elements (triangles or quadrangles in 2D,
 *    tetrahedra or hexahedra in 3D, one type per mesh) are the mesh, their
 *    physical group its element tags;
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
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "gmsh_sections.h"
#include "mesh_internal.h"

static hdgcl_element_type element_type_of(int gmsh_type) {
  switch (gmsh_type) {
  case GMSH_TRIANGLE: return HDGCL_TRIANGLE;
  case GMSH_QUADRANGLE: return HDGCL_QUADRILATERAL;
  case GMSH_TETRAHEDRON: return HDGCL_TETRAHEDRON;
  default: return HDGCL_HEXAHEDRON;
  }
}

/* The Gmsh type forming the mesh. */
static int choose_body_type(const gmsh_content *c, const char *path, int *body) {
  static const int pairs[2][2] = {{GMSH_TETRAHEDRON, GMSH_HEXAHEDRON},
                                  {GMSH_TRIANGLE, GMSH_QUADRANGLE}};
  for (int p = 0; p < 2; p++) {
    const gmsh_element_list *a = &c->lists[pairs[p][0]], *b = &c->lists[pairs[p][1]];
    if (a->count && b->count) {
      long line = a->lines[0] > b->lines[0] ? a->lines[0] : b->lines[0];
      return hdgcl_error(HDGCL_ERROR_FORMAT,
                         "%s%s: mixed element types: %s %lld (%s) and %s %lld (%s); "
                         "a mesh has one element type",
                         path, gmsh_where(c, line).text, gmsh_type_name(pairs[p][0]),
                         (long long)a->numbers[0], gmsh_at(c, a->lines[0]).text,
                         gmsh_type_name(pairs[p][1]), (long long)b->numbers[0],
                         gmsh_at(c, b->lines[0]).text);
    }
    if (a->count || b->count) {
      *body = a->count ? pairs[p][0] : pairs[p][1];
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
static void number_vertices(const gmsh_content *c, const gmsh_element_list *body, int n,
                            int32_t *vertex, int32_t *num_vertices) {
  for (int64_t i = 0; i < c->num_nodes; i++) vertex[i] = -1;
  for (int64_t k = 0; k < body->count * n; k++) vertex[body->nodes[k]] = 0;
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
static int check_planar(const gmsh_content *c, const gmsh_element_list *body, int gmsh_type,
                        const int32_t *vertex, const char *path) {
  int n = gmsh_type_nodes(gmsh_type);
  double lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY}, z0 = 0;
  bool first = true;
  for (int64_t i = 0; i < c->num_nodes; i++) {
    if (vertex[i] < 0) continue;
    const double *x = c->node_xyz + 3 * i;
    if (first) z0 = x[2], first = false;
    for (int d = 0; d < 2; d++) {
      lo[d] = fmin(lo[d], x[d]);
      hi[d] = fmax(hi[d], x[d]);
    }
  }
  double scale = fmax(fmax(hi[0] - lo[0], hi[1] - lo[1]), fabs(z0));
  double tolerance = 1e-10 * scale;
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
  return HDGCL_SUCCESS;
}

/* Mirrors inverted elements; refuses degenerate ones (hdgcl_mesh_orient_elements),
 * naming the file's element. */
static int orient(hdgcl_mesh *mesh, const gmsh_content *c, const gmsh_element_list *body,
                  int gmsh_type, const char *path) {
  int32_t e;
  int status = hdgcl_mesh_orient_elements(mesh, &e);
  if (status == HDGCL_SUCCESS || e < 0) return status;
  return hdgcl_error(HDGCL_ERROR_MESH,
                     "%s%s: %s %lld is degenerate (zero %s, or a collapsed or twisted "
                     "shape: its Jacobian is not of one sign at the corners)",
                     path, gmsh_where(c, body->lines[e]).text, gmsh_type_name(gmsh_type),
                     (long long)body->numbers[e], mesh->dim == 2 ? "area" : "volume");
}

static int topology(hdgcl_mesh *mesh, const gmsh_content *c, const gmsh_element_list *body,
                    int gmsh_type, const char *path) {
  hdgcl_face_conflict conflict;
  int status = hdgcl_mesh_build_topology_conflict(mesh, &conflict);
  if (status == HDGCL_SUCCESS || conflict.count == 0) return status;
  char who[3][64];
  long line = 0;
  for (int i = 0; i < conflict.count; i++) {
    int32_t e = conflict.elements[i];
    snprintf(who[i], sizeof who[i], "%lld (%s)", (long long)body->numbers[e],
             gmsh_at(c, body->lines[e]).text);
    if (body->lines[e] > line) line = body->lines[e];
  }
  const char *name = gmsh_type_name(gmsh_type);
  gmsh_place place = gmsh_where(c, line);
  const char *where = place.text;
  if (conflict.count == 1)
    return hdgcl_error(status, "%s%s: %s %s %s", path, where, name, who[0], conflict.reason);
  if (conflict.count == 2)
    return hdgcl_error(status, "%s%s: %s elements %s and %s %s", path, where, name, who[0], who[1],
                       conflict.reason);
  return hdgcl_error(status, "%s%s: %s elements %s, %s and %s %s", path, where, name, who[0],
                     who[1], who[2], conflict.reason);
}

/* Boundary tags from the lower-dimensional elements of gmsh type face_type. */
static int tag_faces(hdgcl_mesh *mesh, const gmsh_content *c, int face_type, const int32_t *vertex,
                     int body_type, const char *path) {
  const gmsh_element_list *faces = &c->lists[face_type];
  int n = gmsh_type_nodes(face_type);
  for (int64_t i = 0; i < faces->count; i++) {
    if (faces->tags[i] == 0) continue;
    int32_t local[HDGCL_MAX_FACE_VERTS], canonical[HDGCL_MAX_FACE_VERTS];
    int8_t orient_code;
    int32_t f = -1;
    bool on_mesh = n == mesh->verts_per_face;
    for (int k = 0; k < n && on_mesh; k++) {
      local[k] = vertex[faces->nodes[i * n + k]];
      on_mesh = local[k] >= 0;
    }
    if (on_mesh) {
      hdgcl_face_canonical(n, local, canonical, &orient_code);
      f = orient_code >= 0 ? hdgcl_mesh_find_face(mesh, canonical) : -1;
    }
    if (f < 0)
      return hdgcl_error(
          HDGCL_ERROR_FORMAT, "%s%s: %s %lld (physical group %d) is not a face of any %s", path,
          gmsh_where(c, faces->lines[i]).text, gmsh_type_name(face_type),
          (long long)faces->numbers[i], (int)faces->tags[i], gmsh_type_name(body_type));
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

int gmsh_build_mesh(const gmsh_content *c, const char *path, hdgcl_mesh **mesh) {
  int body_type = 0;
  HDGCL_TRY(choose_body_type(c, path, &body_type));
  const gmsh_element_list *body = &c->lists[body_type];
  int n = gmsh_type_nodes(body_type), dim = gmsh_type_dim(body_type);
  int32_t *vertex, num_vertices;
  hdgcl_mesh *m = NULL;
  HDGCL_TRY(hdgcl_calloc((size_t)c->num_nodes, sizeof *vertex, "node numbering", &vertex));
  int status;
  number_vertices(c, body, n, vertex, &num_vertices);
  status = HDGCL_SUCCESS;
  if (dim == 2) HDGCL_TRY_GOTO(status, check_planar(c, body, body_type, vertex, path), done);
  HDGCL_TRY_GOTO(
      status,
      hdgcl_mesh_allocate(element_type_of(body_type), num_vertices, (int32_t)body->count, &m),
      done);
  for (int64_t i = 0; i < c->num_nodes; i++)
    if (vertex[i] >= 0)
      for (int d = 0; d < dim; d++)
        m->coords[(int64_t)vertex[i] * dim + d] = c->node_xyz[3 * i + d];
  for (int64_t k = 0; k < body->count * n; k++) m->elem_verts[k] = vertex[body->nodes[k]];
  for (int64_t e = 0; e < body->count; e++) m->elem_tags[e] = body->tags[e];
  HDGCL_TRY_GOTO(status, orient(m, c, body, body_type, path), done);
  HDGCL_TRY_GOTO(status, topology(m, c, body, body_type, path), done);
  if (dim == 2) {
    HDGCL_TRY_GOTO(status, tag_faces(m, c, GMSH_LINE, vertex, body_type, path), done);
  } else {
    HDGCL_TRY_GOTO(status, tag_faces(m, c, GMSH_TRIANGLE, vertex, body_type, path), done);
    HDGCL_TRY_GOTO(status, tag_faces(m, c, GMSH_QUADRANGLE, vertex, body_type, path), done);
  }
  HDGCL_TRY_GOTO(status, name_tags(m, c, path), done);
  *mesh = m;
  m = NULL;
done:
  hdgcl_mesh_destroy(&m);
  free(vertex);
  return status;
}
