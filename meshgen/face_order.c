/* Canonical vertex order of a face and the orientation codes relating it to
 * an element's local view of the face (see include/hdgcl/mesh.h):
 * L[j] = C[P_o[j]]. */
#include <stddef.h>

#include "mesh_internal.h"

static const int8_t edge_permutations[2][2] = {{0, 1}, {1, 0}};
static const int8_t triangle_permutations[6][3] = {{0, 1, 2}, {1, 2, 0}, {2, 0, 1},
                                                   {0, 2, 1}, {2, 1, 0}, {1, 0, 2}};
/* P_r[j] = (j + r) mod 4 (rotations), P_{4+r}[j] = (r - j) mod 4 (reflections). */
static const int8_t quad_permutations[8][4] = {{0, 1, 2, 3}, {1, 2, 3, 0}, {2, 3, 0, 1},
                                               {3, 0, 1, 2}, {0, 3, 2, 1}, {1, 0, 3, 2},
                                               {2, 1, 0, 3}, {3, 2, 1, 0}};

int hdgcl_face_orientation_count(int verts_per_face) {
  switch (verts_per_face) {
  case 2: return 2;
  case 3: return 6;
  case 4: return 8;
  default: return 0;
  }
}

const int8_t *hdgcl_face_permutation(int verts_per_face, int o) {
  if (o < 0 || o >= hdgcl_face_orientation_count(verts_per_face)) return NULL;
  switch (verts_per_face) {
  case 2: return edge_permutations[o];
  case 3: return triangle_permutations[o];
  default: return quad_permutations[o];
  }
}

bool hdgcl_face_orientation_reverses(int verts_per_face, int orient) {
  /* Codes are listed rotations first, then reflections. */
  return orient >= hdgcl_face_orientation_count(verts_per_face) / 2;
}

void hdgcl_face_canonical(int verts_per_face, const int32_t *local, int32_t *canonical,
                          int8_t *orient) {
  const int32_t *L = local;
  int32_t *C = canonical;
  if (verts_per_face == 2) {
    bool swap = L[1] < L[0];
    C[0] = swap ? L[1] : L[0];
    C[1] = swap ? L[0] : L[1];
  } else if (verts_per_face == 3) {
    C[0] = L[0], C[1] = L[1], C[2] = L[2];
    for (int i = 1; i < 3; i++) /* insertion sort of three ids */
      for (int j = i; j > 0 && C[j] < C[j - 1]; j--) {
        int32_t t = C[j];
        C[j] = C[j - 1], C[j - 1] = t;
      }
  } else {
    /* C0 = smallest, C1 = its smaller neighbour, C2 = opposite, C3 = other neighbour. */
    int k = 0;
    for (int j = 1; j < 4; j++)
      if (L[j] < L[k]) k = j;
    int step = L[(k + 1) % 4] < L[(k + 3) % 4] ? 1 : 3;
    for (int i = 0; i < 4; i++) C[i] = L[(k + i * step) % 4];
  }
  int count = hdgcl_face_orientation_count(verts_per_face);
  for (int o = 0; o < count; o++) {
    const int8_t *P = hdgcl_face_permutation(verts_per_face, o);
    bool match = true;
    for (int j = 0; j < verts_per_face && match; j++) match = L[j] == C[P[j]];
    if (match) {
      *orient = (int8_t)o;
      return;
    }
  }
  *orient = -1; /* only when the face has repeated vertices */
}

int hdgcl_face_compare(int verts_per_face, const int32_t *a, const int32_t *b) {
  for (int j = 0; j < verts_per_face; j++)
    if (a[j] != b[j]) return a[j] < b[j] ? -1 : 1;
  return 0;
}
