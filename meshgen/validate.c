/* Consistency checks of a mesh and its topology (hdgcl_mesh_validate).  The
 * first problem found is reported, naming the element or face. */
#include <math.h>

#include "core/error.h"
#include "mesh_internal.h"

static int check_layout(const hdgcl_mesh *mesh) {
  const hdgcl_element_layout *layout = hdgcl_element_layout_of(mesh->type);
  if (mesh->num_types > 1) { /* the widest type's strides; ranges ending at num_elements */
    layout = hdgcl_element_layout_of(mesh->types[mesh->num_types - 1]);
    for (int i = 0; i < mesh->num_types; i++)
      if (!hdgcl_element_layout_of(mesh->types[i]) || mesh->type_first[i] > mesh->type_first[i + 1] ||
          hdgcl_element_layout_of(mesh->types[i])->verts_per_face != mesh->verts_per_face ||
          (i > 0 && mesh->types[i] <= mesh->types[i - 1]))
        return hdgcl_error(HDGCL_ERROR_MESH, "mixed mesh: bad element type range %d", i);
    if (mesh->type_first[0] != 0 || mesh->type_first[mesh->num_types] != mesh->num_elements ||
        mesh->type != mesh->types[0])
      return hdgcl_error(HDGCL_ERROR_MESH, "mixed mesh: its type ranges do not cover its %d elements",
                         (int)mesh->num_elements);
  }
  if (!layout)
    return hdgcl_error(HDGCL_ERROR_MESH, "mesh has an unknown element type %d", (int)mesh->type);
  if (layout->dim != mesh->dim || layout->verts_per_element != mesh->verts_per_element ||
      layout->faces_per_element != mesh->faces_per_element ||
      layout->verts_per_face != mesh->verts_per_face)
    return hdgcl_error(HDGCL_ERROR_MESH, "mesh: dim/vertex/face counts do not match type %s",
                       hdgcl_element_type_name(mesh->type));
  if (mesh->num_vertices < 0 || mesh->num_elements < 0 || !mesh->coords || !mesh->elem_verts ||
      !mesh->elem_tags)
    return hdgcl_error(HDGCL_ERROR_MESH, "mesh: missing vertex or element arrays");
  return HDGCL_SUCCESS;
}

static int check_elements(const hdgcl_mesh *mesh) {
  int64_t ncoords = (int64_t)mesh->num_vertices * mesh->dim;
  for (int64_t i = 0; i < ncoords; i++)
    if (!isfinite(mesh->coords[i]))
      return hdgcl_error(HDGCL_ERROR_MESH, "vertex %d has a non-finite coordinate",
                         (int)(i / mesh->dim));
  for (int32_t e = 0; e < mesh->num_elements; e++) {
    const int32_t *v = mesh->elem_verts + (int64_t)e * mesh->verts_per_element;
    int nv = hdgcl_mesh_element_verts(mesh, e);
    for (int i = 0; i < nv; i++) {
      if (v[i] < 0 || v[i] >= mesh->num_vertices)
        return hdgcl_error(HDGCL_ERROR_MESH, "element %d references vertex %d (mesh has %d)",
                           (int)e, (int)v[i], (int)mesh->num_vertices);
      for (int j = 0; j < i; j++)
        if (v[j] == v[i])
          return hdgcl_error(HDGCL_ERROR_MESH, "element %d repeats vertex %d", (int)e, (int)v[i]);
    }
    hdgcl_element_state state = hdgcl_mesh_element_state(mesh, e);
    if (state != HDGCL_ELEMENT_VALID)
      return hdgcl_error(HDGCL_ERROR_MESH, "%s %d is %s (measure %g)",
                         hdgcl_element_type_name(hdgcl_mesh_element_type(mesh, e)), (int)e,
                         state == HDGCL_ELEMENT_INVERTED ? "negatively oriented" : "degenerate",
                         hdgcl_mesh_element_measure(mesh, e));
  }
  return HDGCL_SUCCESS;
}

/* The canonical-order rules of include/hdgcl/mesh.h. */
static bool is_canonical(int vpf, const int32_t *C) {
  if (vpf == 2) return C[0] < C[1];
  if (vpf == 3) return C[0] < C[1] && C[1] < C[2];
  return C[0] < C[1] && C[0] < C[2] && C[0] < C[3] && C[1] < C[3] && C[1] != C[2] && C[2] != C[3];
}

/* One neighbour (element e, local face lf, code o) of face f. */
static int check_side(const hdgcl_mesh *mesh, int32_t f, int side) {
  int fpe = mesh->faces_per_element, vpf = mesh->verts_per_face;
  int32_t e = mesh->face_elems[2 * (int64_t)f + side];
  int lf = mesh->face_local[2 * (int64_t)f + side], o = mesh->face_orient[2 * (int64_t)f + side];
  if (e < 0 || e >= mesh->num_elements || lf < 0 || lf >= hdgcl_mesh_element_faces(mesh, e))
    return hdgcl_error(HDGCL_ERROR_MESH, "face %d: neighbour %d is element %d, local face %d",
                       (int)f, side, (int)e, lf);
  const int8_t *P = hdgcl_face_permutation(vpf, o);
  if (!P) return hdgcl_error(HDGCL_ERROR_MESH, "face %d: invalid orientation code %d", (int)f, o);
  if (mesh->elem_faces[(int64_t)e * fpe + lf] != f ||
      mesh->elem_face_orient[(int64_t)e * fpe + lf] != o)
    return hdgcl_error(HDGCL_ERROR_MESH,
                       "face %d and element %d (local face %d) do not point to each other", (int)f,
                       (int)e, lf);
  const int8_t *lv = hdgcl_element_face_vertices(hdgcl_mesh_element_type(mesh, e), lf);
  const int32_t *C = mesh->face_verts + (int64_t)f * vpf;
  const int32_t *v = mesh->elem_verts + (int64_t)e * mesh->verts_per_element;
  for (int j = 0; j < vpf; j++)
    if (v[lv[j]] != C[P[j]])
      return hdgcl_error(HDGCL_ERROR_MESH,
                         "face %d: vertex %d of element %d's local face %d is not the "
                         "canonical vertex given by orientation %d",
                         (int)f, j, (int)e, lf, o);
  return HDGCL_SUCCESS;
}

static int check_faces(const hdgcl_mesh *mesh) {
  int fpe = mesh->faces_per_element, vpf = mesh->verts_per_face;
  int32_t nf = mesh->num_faces, ni = mesh->num_interior_faces;
  if (!mesh->face_elems || !mesh->face_local || !mesh->face_orient || !mesh->face_tags ||
      !mesh->elem_faces || !mesh->elem_face_orient)
    return hdgcl_error(HDGCL_ERROR_MESH, "mesh topology is incomplete");
  int64_t sides = 0; /* element faces: num_elements * fpe unless mixed */
  for (int32_t e = 0; e < mesh->num_elements; e++) sides += hdgcl_mesh_element_faces(mesh, e);
  if (ni < 0 || ni > nf || sides != 2 * (int64_t)ni + (nf - ni))
    return hdgcl_error(HDGCL_ERROR_MESH,
                       "%d faces (%d interior) do not match %d elements with %lld faces in all",
                       (int)nf, (int)ni, (int)mesh->num_elements, (long long)sides);
  for (int32_t f = 0; f < nf; f++) {
    const int32_t *C = mesh->face_verts + (int64_t)f * vpf;
    bool interior = f < ni;
    for (int j = 0; j < vpf; j++)
      if (C[j] < 0 || C[j] >= mesh->num_vertices)
        return hdgcl_error(HDGCL_ERROR_MESH, "face %d references vertex %d", (int)f, (int)C[j]);
    if (!is_canonical(vpf, C))
      return hdgcl_error(HDGCL_ERROR_MESH, "face %d: vertices not in canonical order", (int)f);
    if (f != 0 && f != ni && hdgcl_face_compare(vpf, C - vpf, C) >= 0)
      return hdgcl_error(HDGCL_ERROR_MESH,
                         "face %d: faces are not sorted by canonical vertices (or repeat)", (int)f);
    if (!interior && hdgcl_mesh_find_face(mesh, C) != f)
      return hdgcl_error(HDGCL_ERROR_MESH,
                         "boundary face %d is also an interior face (shared by three elements)",
                         (int)f);
    HDGCL_TRY(check_side(mesh, f, 0));
    if (interior) {
      HDGCL_TRY(check_side(mesh, f, 1));
      if (mesh->face_elems[2 * (int64_t)f] >= mesh->face_elems[2 * (int64_t)f + 1])
        return hdgcl_error(HDGCL_ERROR_MESH, "interior face %d: neighbours %d, %d not ascending",
                           (int)f, (int)mesh->face_elems[2 * (int64_t)f],
                           (int)mesh->face_elems[2 * (int64_t)f + 1]);
      if (hdgcl_face_orientation_reverses(vpf, mesh->face_orient[2 * (int64_t)f]) ==
          hdgcl_face_orientation_reverses(vpf, mesh->face_orient[2 * (int64_t)f + 1]))
        return hdgcl_error(HDGCL_ERROR_MESH,
                           "interior face %d: elements %d and %d lie on the same side of it",
                           (int)f, (int)mesh->face_elems[2 * (int64_t)f],
                           (int)mesh->face_elems[2 * (int64_t)f + 1]);
      if (mesh->face_tags[f] != 0)
        return hdgcl_error(HDGCL_ERROR_MESH, "interior face %d has boundary tag %d", (int)f,
                           (int)mesh->face_tags[f]);
    } else if (mesh->face_elems[2 * (int64_t)f + 1] != -1 ||
               mesh->face_local[2 * (int64_t)f + 1] != -1 ||
               mesh->face_orient[2 * (int64_t)f + 1] != -1) {
      return hdgcl_error(HDGCL_ERROR_MESH, "boundary face %d has a second neighbour", (int)f);
    }
  }
  /* every (element, local face) belongs to the face it names */
  for (int32_t e = 0; e < mesh->num_elements; e++)
    for (int lf = 0; lf < fpe; lf++) {
      int32_t f = mesh->elem_faces[(int64_t)e * fpe + lf];
      if (lf >= hdgcl_mesh_element_faces(mesh, e)) { /* a mixed mesh's empty slot */
        if (f != -1 || mesh->elem_face_orient[(int64_t)e * fpe + lf] != -1)
          return hdgcl_error(HDGCL_ERROR_MESH, "element %d: empty face slot %d names face %d", (int)e,
                             lf, (int)f);
        continue;
      }
      bool found = false;
      for (int side = 0; side < 2 && f >= 0 && f < nf; side++)
        found |= mesh->face_elems[2 * (int64_t)f + side] == e &&
                 mesh->face_local[2 * (int64_t)f + side] == lf;
      if (!found)
        return hdgcl_error(HDGCL_ERROR_MESH,
                           "element %d: local face %d names face %d, "
                           "which does not list it",
                           (int)e, lf, (int)f);
    }
  return HDGCL_SUCCESS;
}

int hdgcl_mesh_validate(const hdgcl_mesh *mesh) {
  if (!mesh) return hdgcl_error(HDGCL_ERROR_ARGUMENT, "hdgcl_mesh_validate: mesh is NULL");
  HDGCL_TRY(check_layout(mesh));
  HDGCL_TRY(check_elements(mesh));
  HDGCL_TRY(hdgcl_mesh_check_curved(mesh));
  if (mesh->face_verts) HDGCL_TRY(check_faces(mesh));
  int32_t bad[4]; /* mixed meshes: faces matching across element types */
  if (mesh->face_verts && hdgcl_mesh_is_mixed(mesh)) HDGCL_TRY(hdgcl_mesh_check_conforming(mesh, bad));
  return HDGCL_SUCCESS;
}
