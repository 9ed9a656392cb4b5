/* Face topology for HDG: unique faces, element-to-face and face-to-element
 * maps with local face indices and orientation codes.
 *
 * Every (element, local face) pair is an "occurrence" numbered
 * occ = element * faces_per_element + local_face.  Occurrences are sorted by
 * their canonical vertex tuple: first a counting sort on the smallest vertex
 * id C0 (O(N)), then a stable sort of each (small) bucket on the remaining
 * components; the sort is stable, so equal tuples stay in element order.
 * Runs of equal tuples are the faces: two occurrences make an interior face,
 * one a boundary face, more is a non-manifold mesh.  Interior faces are
 * numbered first, then boundary faces, each group in canonical-tuple order.
 * Cost O(N log N) in the worst case (one huge bucket), O(N) for ordinary
 * meshes; no per-face allocation. */
#include <stdlib.h>

#include "core/error.h"
#include "mesh_internal.h"

typedef struct occurrence_table {
  int vpf;        /* vertices per face */
  int32_t *canon; /* [occ][vpf] canonical tuples */
  int8_t *orient; /* [occ] orientation code seen from the element */
  int32_t *order; /* occurrences in sorted order */
} occurrence_table;

/* a before b in the tail (C1, C2, ...) of their canonical tuples. */
static bool tail_less(const occurrence_table *t, int32_t a, int32_t b) {
  const int32_t *ca = t->canon + (int64_t)a * t->vpf, *cb = t->canon + (int64_t)b * t->vpf;
  for (int j = 1; j < t->vpf; j++)
    if (ca[j] != cb[j]) return ca[j] < cb[j];
  return false;
}

/* Stable sort of items[0..n) by tail: insertion sort when short, merge sort otherwise. */
static void sort_bucket(const occurrence_table *t, int32_t *items, int32_t n, int32_t *tmp) {
  if (n <= 16) {
    for (int32_t i = 1; i < n; i++) {
      int32_t x = items[i], j = i;
      for (; j > 0 && tail_less(t, x, items[j - 1]); j--) items[j] = items[j - 1];
      items[j] = x;
    }
    return;
  }
  int32_t half = n / 2;
  sort_bucket(t, items, half, tmp);
  sort_bucket(t, items + half, n - half, tmp);
  int32_t i = 0, j = half, k = 0;
  while (i < half && j < n) tmp[k++] = tail_less(t, items[j], items[i]) ? items[j++] : items[i++];
  while (i < half) tmp[k++] = items[i++];
  while (j < n) tmp[k++] = items[j++];
  for (k = 0; k < n; k++) items[k] = tmp[k];
}

static bool same_face(const occurrence_table *t, int32_t a, int32_t b) {
  return hdgcl_face_compare(t->vpf, t->canon + (int64_t)a * t->vpf,
                            t->canon + (int64_t)b * t->vpf) == 0;
}

static int conflict_error(hdgcl_face_conflict *conflict, int count, const int32_t *elements,
                          const char *reason) {
  conflict->count = count;
  for (int i = 0; i < count; i++) conflict->elements[i] = elements[i];
  conflict->reason = reason;
  if (count == 1) return hdgcl_error(HDGCL_ERROR_MESH, "element %d %s", (int)elements[0], reason);
  if (count == 2)
    return hdgcl_error(HDGCL_ERROR_MESH, "elements %d and %d %s", (int)elements[0],
                       (int)elements[1], reason);
  return hdgcl_error(HDGCL_ERROR_MESH, "elements %d, %d and %d %s", (int)elements[0],
                     (int)elements[1], (int)elements[2], reason);
}

static int check_input(const hdgcl_mesh *mesh) {
  const hdgcl_element_layout *layout = hdgcl_element_layout_of(mesh->type);
  if (mesh->num_types > 1) /* the strides are the widest type's */
    layout = hdgcl_element_layout_of(mesh->types[mesh->num_types - 1]);
  if (!layout || layout->dim != mesh->dim || layout->verts_per_element != mesh->verts_per_element ||
      layout->faces_per_element != mesh->faces_per_element ||
      layout->verts_per_face != mesh->verts_per_face)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                       "mesh: element type %d does not match its vertex/face counts",
                       (int)mesh->type);
  if (mesh->num_elements < 0 || mesh->num_vertices < 0)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "mesh has negative counts");
  if ((int64_t)mesh->num_elements * mesh->faces_per_element > INT32_MAX ||
      mesh->num_vertices == INT32_MAX)
    return hdgcl_error(HDGCL_ERROR_MEMORY,
                       "mesh too large for 32-bit face indices (%d elements x %d faces)",
                       (int)mesh->num_elements, mesh->faces_per_element);
  if (mesh->num_types > 1 && mesh->type_first[mesh->num_types] != mesh->num_elements)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "mixed mesh: its type ranges end at %d, not at %d elements",
                       (int)mesh->type_first[mesh->num_types], (int)mesh->num_elements);
  int64_t n = (int64_t)mesh->num_elements * mesh->verts_per_element;
  for (int64_t i = 0; i < n; i++)
    if (i % mesh->verts_per_element < hdgcl_mesh_element_verts(mesh, (int32_t)(i / mesh->verts_per_element)) &&
        (mesh->elem_verts[i] < 0 || mesh->elem_verts[i] >= mesh->num_vertices))
      return hdgcl_error(HDGCL_ERROR_MESH, "element %d references vertex %d (mesh has %d vertices)",
                         (int)(i / mesh->verts_per_element), (int)mesh->elem_verts[i],
                         (int)mesh->num_vertices);
  return HDGCL_SUCCESS;
}

/* Canonical tuple and orientation of every occurrence. */
static int fill_occurrences(const hdgcl_mesh *mesh, occurrence_table *t,
                            hdgcl_face_conflict *conflict) {
  int fpe = mesh->faces_per_element, vpf = mesh->verts_per_face;
  for (int32_t e = 0; e < mesh->num_elements; e++) {
    const int32_t *v = mesh->elem_verts + (int64_t)e * mesh->verts_per_element;
    hdgcl_element_type type = hdgcl_mesh_element_type(mesh, e);
    int own = hdgcl_mesh_element_faces(mesh, e);
    for (int f = own; f < fpe; f++) { /* a mixed mesh's empty slots: no face */
      t->canon[((int64_t)e * fpe + f) * vpf] = -1;
      t->orient[(int64_t)e * fpe + f] = -1;
    }
    for (int f = 0; f < own; f++) {
      const int8_t *lv = hdgcl_element_face_vertices(type, f);
      int32_t L[HDGCL_MAX_FACE_VERTS];
      for (int j = 0; j < vpf; j++) L[j] = v[lv[j]];
      int64_t occ = (int64_t)e * fpe + f;
      hdgcl_face_canonical(vpf, L, t->canon + occ * vpf, &t->orient[occ]);
      if (t->orient[occ] < 0)
        return conflict_error(conflict, 1, &e, "has a face with a repeated vertex");
    }
  }
  return HDGCL_SUCCESS;
}

/* Sorts the occurrences by canonical tuple into t->order, leaving out the
 * empty slots of a mixed mesh (C0 = -1); *sorted receives their number. */
static int sort_occurrences(const hdgcl_mesh *mesh, occurrence_table *t, int32_t num_occ,
                            int32_t *sorted) {
  int32_t *start = NULL, *tmp = NULL;
  int status;
  HDGCL_TRY(
      hdgcl_calloc((size_t)mesh->num_vertices + 1, sizeof *start, "face sort buckets", &start));
  /* counting sort on C0 */
  *sorted = 0;
  for (int32_t occ = 0; occ < num_occ; occ++)
    if (t->canon[(int64_t)occ * t->vpf] >= 0) start[t->canon[(int64_t)occ * t->vpf] + 1]++, (*sorted)++;
  int32_t largest = 0;
  for (int32_t v = 0; v < mesh->num_vertices; v++) {
    if (start[v + 1] > largest) largest = start[v + 1];
    start[v + 1] += start[v];
  }
  for (int32_t occ = 0; occ < num_occ; occ++)
    if (t->canon[(int64_t)occ * t->vpf] >= 0) t->order[start[t->canon[(int64_t)occ * t->vpf]]++] = occ;
  /* start[v] is now the end of bucket v, i.e. the start of bucket v+1 */
  HDGCL_TRY_GOTO(status, hdgcl_calloc((size_t)largest, sizeof *tmp, "face sort buffer", &tmp),
                 done);
  for (int32_t v = 0, begin = 0; v < mesh->num_vertices; begin = start[v], v++)
    sort_bucket(t, t->order + begin, start[v] - begin, tmp);
  status = HDGCL_SUCCESS;
done:
  free(tmp);
  free(start);
  return status;
}

/* Counts interior and boundary faces, checking that no face has more than
 * two neighbours and that the two neighbours lie on opposite sides. */
static int count_faces(const occurrence_table *t, int32_t num_occ, int fpe, int32_t *interior,
                       int32_t *boundary, hdgcl_face_conflict *conflict) {
  *interior = *boundary = 0;
  for (int32_t i = 0; i < num_occ;) {
    int32_t n = 1;
    while (i + n < num_occ && same_face(t, t->order[i], t->order[i + n])) n++;
    int32_t a = t->order[i], b = n > 1 ? t->order[i + 1] : -1;
    int32_t elems[3] = {a / fpe, n > 1 ? b / fpe : -1, n > 2 ? t->order[i + 2] / fpe : -1};
    if (n > 2)
      return conflict_error(conflict, 3, elems,
                            "share one face (a face may belong to at most two elements)");
    if (n == 2 && elems[0] == elems[1])
      return conflict_error(conflict, 1, elems, "has two coinciding faces");
    if (n == 2 && hdgcl_face_orientation_reverses(t->vpf, t->orient[a]) ==
                      hdgcl_face_orientation_reverses(t->vpf, t->orient[b]))
      return conflict_error(conflict, 2, elems,
                            "overlap (they lie on the same side of their shared face)");
    if (n == 2)
      (*interior)++;
    else
      (*boundary)++;
    i += n;
  }
  return HDGCL_SUCCESS;
}

static int allocate_faces(hdgcl_mesh *mesh, int32_t num_faces) {
  int vpf = mesh->verts_per_face, fpe = mesh->faces_per_element;
  size_t nf = (size_t)num_faces, ne = (size_t)mesh->num_elements;
  HDGCL_TRY(hdgcl_calloc(nf * vpf, sizeof(int32_t), "face vertices", &mesh->face_verts));
  HDGCL_TRY(hdgcl_calloc(nf * 2, sizeof(int32_t), "face elements", &mesh->face_elems));
  HDGCL_TRY(hdgcl_calloc(nf * 2, sizeof(int8_t), "face local indices", &mesh->face_local));
  HDGCL_TRY(hdgcl_calloc(nf * 2, sizeof(int8_t), "face orientations", &mesh->face_orient));
  HDGCL_TRY(hdgcl_calloc(nf, sizeof(int32_t), "face tags", &mesh->face_tags));
  HDGCL_TRY(hdgcl_calloc(ne * fpe, sizeof(int32_t), "element faces", &mesh->elem_faces));
  HDGCL_TRY(
      hdgcl_calloc(ne * fpe, sizeof(int8_t), "element face orientations", &mesh->elem_face_orient));
  for (size_t k = 0; k < ne * fpe; k++) { /* a mixed mesh's empty slots keep these */
    mesh->elem_faces[k] = -1;
    mesh->elem_face_orient[k] = -1;
  }
  return HDGCL_SUCCESS;
}

/* Numbers the faces (interior first) and fills every topology array. */
static void assign_faces(hdgcl_mesh *mesh, const occurrence_table *t, int32_t num_occ) {
  int vpf = mesh->verts_per_face, fpe = mesh->faces_per_element;
  int32_t next_interior = 0, next_boundary = mesh->num_interior_faces;
  for (int32_t i = 0; i < num_occ;) {
    bool interior = i + 1 < num_occ && same_face(t, t->order[i], t->order[i + 1]);
    int n = interior ? 2 : 1;
    int32_t f = interior ? next_interior++ : next_boundary++;
    for (int j = 0; j < vpf; j++)
      mesh->face_verts[(int64_t)f * vpf + j] = t->canon[(int64_t)t->order[i] * vpf + j];
    for (int side = 0; side < 2; side++) {
      int32_t occ = side < n ? t->order[i + side] : -1;
      mesh->face_elems[2 * (int64_t)f + side] = occ < 0 ? -1 : occ / fpe;
      mesh->face_local[2 * (int64_t)f + side] = (int8_t)(occ < 0 ? -1 : occ % fpe);
      mesh->face_orient[2 * (int64_t)f + side] = occ < 0 ? -1 : t->orient[occ];
      if (occ >= 0) {
        mesh->elem_faces[occ] = f;
        mesh->elem_face_orient[occ] = t->orient[occ];
      }
    }
    mesh->face_tags[f] = 0;
    i += n;
  }
}

int hdgcl_mesh_build_topology_conflict(hdgcl_mesh *mesh, hdgcl_face_conflict *conflict) {
  hdgcl_face_conflict unused;
  if (!conflict) conflict = &unused;
  *conflict = (hdgcl_face_conflict){0, {-1, -1, -1}, NULL};
  if (!mesh) return hdgcl_error(HDGCL_ERROR_ARGUMENT, "hdgcl_mesh_build_topology: mesh is NULL");
  HDGCL_TRY(check_input(mesh));
  hdgcl_mesh_free_topology(mesh);

  int32_t num_occ = mesh->num_elements * mesh->faces_per_element;
  occurrence_table t = {mesh->verts_per_face, NULL, NULL, NULL};
  int status;
  HDGCL_TRY_GOTO(
      status, hdgcl_calloc((size_t)num_occ * t.vpf, sizeof(int32_t), "face keys", &t.canon), done);
  HDGCL_TRY_GOTO(status, hdgcl_calloc((size_t)num_occ, sizeof(int8_t), "face keys", &t.orient),
                 done);
  HDGCL_TRY_GOTO(status, hdgcl_calloc((size_t)num_occ, sizeof(int32_t), "face order", &t.order),
                 done);
  HDGCL_TRY_GOTO(status, fill_occurrences(mesh, &t, conflict), done);
  int32_t sorted;
  HDGCL_TRY_GOTO(status, sort_occurrences(mesh, &t, num_occ, &sorted), done);
  int32_t interior, boundary;
  HDGCL_TRY_GOTO(status,
                 count_faces(&t, sorted, mesh->faces_per_element, &interior, &boundary, conflict),
                 done);
  HDGCL_TRY_GOTO(status, allocate_faces(mesh, interior + boundary), done);
  mesh->num_faces = interior + boundary;
  mesh->num_interior_faces = interior;
  assign_faces(mesh, &t, sorted);
done:
  if (status != HDGCL_SUCCESS) hdgcl_mesh_free_topology(mesh);
  free(t.canon);
  free(t.orient);
  free(t.order);
  return status;
}

int hdgcl_mesh_build_topology(hdgcl_mesh *mesh) {
  return hdgcl_mesh_build_topology_conflict(mesh, NULL);
}

/* Binary search for a canonical tuple among faces [lo, hi) (sorted). */
static int32_t search(const hdgcl_mesh *mesh, int32_t lo, int32_t hi, const int32_t *canonical) {
  int vpf = mesh->verts_per_face;
  while (lo < hi) {
    int32_t mid = lo + (hi - lo) / 2;
    int c = hdgcl_face_compare(vpf, mesh->face_verts + (int64_t)mid * vpf, canonical);
    if (c == 0) return mid;
    if (c < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return -1;
}

int32_t hdgcl_mesh_find_face(const hdgcl_mesh *mesh, const int32_t *canonical) {
  int32_t f = search(mesh, 0, mesh->num_interior_faces, canonical);
  return f >= 0 ? f : search(mesh, mesh->num_interior_faces, mesh->num_faces, canonical);
}
