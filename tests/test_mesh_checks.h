/* Checks of a mesh's topology written from the contract in
 * include/hdgcl/mesh.h, independently of meshgen's own code (they use only
 * the public API and the mesh struct).  Each returns the number of failed
 * CHECKs it added, so callers can print which mesh failed. */
#ifndef HDGCL_TESTS_TEST_MESH_CHECKS_H
#define HDGCL_TESTS_TEST_MESH_CHECKS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "hdgcl/mesh.h"

/* Canonical order rules (mesh.h) for a face's vertex tuple C. */
static inline bool tmc_is_canonical(int vpf, const int32_t *C) {
  if (vpf == 2) return C[0] < C[1];
  if (vpf == 3) return C[0] < C[1] && C[1] < C[2];
  /* quad: C0 smallest, C1 the smaller of C0's neighbours C1 and C3, C2 opposite */
  return C[0] < C[1] && C[0] < C[2] && C[0] < C[3] && C[1] < C[3];
}

static inline int tmc_compare(int vpf, const int32_t *a, const int32_t *b) {
  for (int j = 0; j < vpf; j++)
    if (a[j] != b[j]) return a[j] < b[j] ? -1 : 1;
  return 0;
}

/* Orientation code o reverses the face: codes are rotations then reflections. */
static inline bool tmc_reverses(int vpf, int o) {
  return o >= hdgcl_face_orientation_count(vpf) / 2;
}

/* Face/element maps, canonical order, orientation codes, numbering. */
static inline int tmc_check_topology(const hdgcl_mesh *m) {
  int before = check_failures;
  int vpf = m->verts_per_face, fpe = m->faces_per_element, vpe = m->verts_per_element;
  int32_t nf = m->num_faces, ni = m->num_interior_faces;
  CHECK(m->face_verts && m->face_elems && m->face_local && m->face_orient && m->face_tags &&
        m->elem_faces && m->elem_face_orient);
  if (check_failures != before) return check_failures - before;
  CHECK(0 <= ni && ni <= nf);
  /* each (element, local face) is on exactly one face */
  CHECK((int64_t)m->num_elements * fpe == 2 * (int64_t)ni + (nf - ni));
  int *seen = calloc((size_t)m->num_elements * fpe + 1, sizeof *seen);
  for (int32_t f = 0; f < nf && check_failures - before < 10; f++) {
    const int32_t *C = m->face_verts + (int64_t)f * vpf;
    bool interior = f < ni;
    CHECK_MSG(tmc_is_canonical(vpf, C), "face %d not in canonical order", (int)f);
    /* numbering: each group sorted by canonical tuple, strictly (faces are unique) */
    if (f != 0 && f != ni)
      CHECK_MSG(tmc_compare(vpf, C - vpf, C) < 0, "faces %d, %d out of order", (int)f - 1, (int)f);
    int32_t e0 = m->face_elems[2 * f], e1 = m->face_elems[2 * f + 1];
    if (interior) {
      CHECK_MSG(e0 >= 0 && e1 > e0 && e1 < m->num_elements, "interior face %d: elements %d %d",
                (int)f, (int)e0, (int)e1);
      CHECK_MSG(m->face_tags[f] == 0, "interior face %d has tag %d", (int)f, (int)m->face_tags[f]);
      /* positively oriented neighbours see the face with opposite orientation */
      CHECK_MSG(tmc_reverses(vpf, m->face_orient[2 * f]) !=
                    tmc_reverses(vpf, m->face_orient[2 * f + 1]),
                "interior face %d: orientation codes %d %d of the same parity", (int)f,
                m->face_orient[2 * f], m->face_orient[2 * f + 1]);
    } else {
      CHECK_MSG(e0 >= 0 && e0 < m->num_elements && e1 == -1 && m->face_local[2 * f + 1] == -1 &&
                    m->face_orient[2 * f + 1] == -1,
                "boundary face %d: second neighbour %d", (int)f, (int)e1);
    }
    for (int side = 0; side < (interior ? 2 : 1); side++) {
      int32_t e = m->face_elems[2 * f + side];
      int lf = m->face_local[2 * f + side], o = m->face_orient[2 * f + side];
      if (e < 0 || e >= m->num_elements || lf < 0 || lf >= fpe) {
        CHECK_MSG(false, "face %d side %d: element %d local face %d", (int)f, side, (int)e, lf);
        continue;
      }
      const int8_t *P = hdgcl_face_permutation(vpf, o);
      CHECK_MSG(P != NULL, "face %d: orientation code %d", (int)f, o);
      if (!P) continue;
      const int8_t *lv = hdgcl_element_face_vertices(m->type, lf);
      for (int j = 0; j < vpf; j++)
        CHECK_MSG(m->elem_verts[(int64_t)e * vpe + lv[j]] == C[P[j]],
                  "face %d: element %d local face %d vertex %d is not C[P_%d[%d]]", (int)f, (int)e,
                  lf, j, o, j);
      CHECK(m->elem_faces[(int64_t)e * fpe + lf] == f);
      CHECK(m->elem_face_orient[(int64_t)e * fpe + lf] == o);
      seen[(int64_t)e * fpe + lf]++;
    }
  }
  for (int64_t k = 0; k < (int64_t)m->num_elements * fpe && check_failures - before < 10; k++)
    CHECK_MSG(seen[k] == 1, "element %d local face %d lies on %d faces", (int)(k / fpe),
              (int)(k % fpe), seen[k]);
  free(seen);
  return check_failures - before;
}

static inline int tmc_compare_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

/* Unique edges of the mesh, from the element edges (own tables). */
static inline int64_t tmc_count_edges(const hdgcl_mesh *m) {
  static const int tri[][2] = {{0, 1}, {1, 2}, {2, 0}},
                   quad[][2] = {{0, 1}, {1, 2}, {2, 3}, {3, 0}},
                   tet[][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}},
                   hex[][2] = {{0, 1}, {1, 2}, {2, 3}, {3, 0}, {4, 5}, {5, 6},
                               {6, 7}, {7, 4}, {0, 4}, {1, 5}, {2, 6}, {3, 7}};
  const int(*edges)[2] = m->type == HDGCL_TRIANGLE        ? tri
                         : m->type == HDGCL_QUADRILATERAL ? quad
                         : m->type == HDGCL_TETRAHEDRON   ? tet
                                                          : hex;
  int ne = m->type == HDGCL_TRIANGLE      ? 3
           : m->type == HDGCL_HEXAHEDRON  ? 12
           : m->type == HDGCL_TETRAHEDRON ? 6
                                          : 4;
  int64_t n = (int64_t)m->num_elements * ne;
  uint64_t *keys = malloc((size_t)n * sizeof *keys + 1);
  for (int32_t e = 0; e < m->num_elements; e++)
    for (int k = 0; k < ne; k++) {
      uint64_t a = (uint64_t)m->elem_verts[(int64_t)e * m->verts_per_element + edges[k][0]];
      uint64_t b = (uint64_t)m->elem_verts[(int64_t)e * m->verts_per_element + edges[k][1]];
      keys[(int64_t)e * ne + k] = a < b ? a << 32 | b : b << 32 | a;
    }
  qsort(keys, (size_t)n, sizeof *keys, tmc_compare_u64);
  int64_t unique = 0;
  for (int64_t i = 0; i < n; i++) unique += i == 0 || keys[i] != keys[i - 1];
  free(keys);
  return unique;
}

/* Euler characteristic of a disk (2D) or ball (3D) is 1. */
static inline int tmc_check_euler(const hdgcl_mesh *m) {
  int before = check_failures;
  int64_t V = m->num_vertices, F = m->num_faces, C = m->num_elements;
  if (m->dim == 2) {
    CHECK_MSG(tmc_count_edges(m) == F, "2D: faces are the edges (%lld vs %lld)",
              (long long)tmc_count_edges(m), (long long)F);
    CHECK_MSG(V - F + C == 1, "V - E + F = %lld", (long long)(V - F + C));
  } else {
    int64_t E = tmc_count_edges(m);
    CHECK_MSG(V - E + F - C == 1, "V - E + F - C = %lld", (long long)(V - E + F - C));
  }
  return check_failures - before;
}

/* All element measures positive; returns their sum in *total. */
static inline int tmc_check_measures(const hdgcl_mesh *m, double *total) {
  int before = check_failures;
  double sum = 0;
  for (int32_t e = 0; e < m->num_elements; e++) {
    double v = hdgcl_mesh_element_measure(m, e);
    if (!(v > 0) && check_failures - before < 5)
      CHECK_MSG(v > 0, "element %d measure %g", (int)e, v);
    sum += v;
  }
  *total = sum;
  return check_failures - before;
}

/* Boundary faces lie on the side of the box [lo,hi] named by their tag
 * (1 x=lo, 2 x=hi, 3 y=lo, 4 y=hi, 5 z=lo, 6 z=hi); count[t] receives the
 * number of faces with tag t (t = 0..6), and every boundary vertex lies on
 * the box boundary while no interior face lies within a side. */
static inline int tmc_check_box_boundary(const hdgcl_mesh *m, const double *lo, const double *hi,
                                         int64_t count[7]) {
  int before = check_failures;
  int vpf = m->verts_per_face, dim = m->dim;
  for (int t = 0; t < 7; t++) count[t] = 0;
  for (int32_t f = m->num_interior_faces; f < m->num_faces; f++) {
    int tag = m->face_tags[f];
    CHECK_MSG(tag >= 1 && tag <= 2 * dim, "boundary face %d tag %d", (int)f, tag);
    if (tag < 1 || tag > 2 * dim) continue;
    count[tag]++;
    int axis = (tag - 1) / 2;
    double plane = (tag - 1) % 2 ? hi[axis] : lo[axis];
    for (int j = 0; j < vpf; j++) {
      int32_t v = m->face_verts[(int64_t)f * vpf + j];
      CHECK_MSG(m->coords[(int64_t)v * dim + axis] == plane,
                "boundary face %d (tag %d): vertex %d has coordinate %g, side is at %g", (int)f,
                tag, (int)v, m->coords[(int64_t)v * dim + axis], plane);
    }
  }
  for (int32_t f = 0; f < m->num_interior_faces; f++) {
    /* an interior face may touch the boundary but never lie within one side */
    for (int axis = 0; axis < dim; axis++)
      for (int s = 0; s < 2; s++) {
        double plane = s ? hi[axis] : lo[axis];
        bool all = true;
        for (int j = 0; j < vpf; j++)
          all =
              all && m->coords[(int64_t)m->face_verts[(int64_t)f * vpf + j] * dim + axis] == plane;
        CHECK_MSG(!all, "interior face %d lies on the boundary", (int)f);
      }
  }
  return check_failures - before;
}

/* Same vertices, elements, element tags and topology (including face tags). */
static inline int tmc_check_same_mesh(const hdgcl_mesh *a, const hdgcl_mesh *b) {
  int before = check_failures;
  CHECK(a->type == b->type && a->dim == b->dim);
  CHECK(a->num_vertices == b->num_vertices && a->num_elements == b->num_elements);
  CHECK(a->num_faces == b->num_faces && a->num_interior_faces == b->num_interior_faces);
  CHECK(hdgcl_mesh_is_mixed(a) == hdgcl_mesh_is_mixed(b)); /* mixed: the same type ranges */
  for (int i = 0; hdgcl_mesh_is_mixed(a) && hdgcl_mesh_is_mixed(b) && i <= a->num_types; i++)
    CHECK(a->num_types == b->num_types && a->type_first[i] == b->type_first[i] &&
          (i == a->num_types || a->types[i] == b->types[i]));
  if (check_failures != before) return check_failures - before;
  CHECK(!memcmp(a->coords, b->coords, sizeof(double) * a->num_vertices * a->dim));
  CHECK(!memcmp(a->elem_verts, b->elem_verts,
                sizeof(int32_t) * a->num_elements * a->verts_per_element));
  CHECK(!memcmp(a->elem_tags, b->elem_tags, sizeof(int32_t) * a->num_elements));
  CHECK(!memcmp(a->face_verts, b->face_verts, sizeof(int32_t) * a->num_faces * a->verts_per_face));
  CHECK(!memcmp(a->face_tags, b->face_tags, sizeof(int32_t) * a->num_faces));
  CHECK(!memcmp(a->face_elems, b->face_elems, sizeof(int32_t) * a->num_faces * 2));
  CHECK(!memcmp(a->elem_faces, b->elem_faces,
                sizeof(int32_t) * a->num_elements * a->faces_per_element));
  CHECK(a->num_tag_names == b->num_tag_names);
  for (int32_t i = 0; i < a->num_tag_names && i < b->num_tag_names; i++)
    CHECK_MSG(a->tag_names[i].dim == b->tag_names[i].dim &&
                  a->tag_names[i].tag == b->tag_names[i].tag &&
                  !strcmp(a->tag_names[i].name, b->tag_names[i].name),
              "tag name %d: %d %d '%s' against %d %d '%s'", (int)i, a->tag_names[i].dim,
              (int)a->tag_names[i].tag, a->tag_names[i].name, b->tag_names[i].dim,
              (int)b->tag_names[i].tag, b->tag_names[i].name);
  return check_failures - before;
}

#endif
