/* Additive Schwarz preconditioner with element patches (paper 001 eq. 12,
 * sections 3.3 and 4.6): the subdomain of element e is the trace unknowns of
 * its faces (NT = NFACES * NF values), A_e = R_e A R_e^T is extracted from the
 * assembled matrix and inverted once per solve, and
 *     z = sum_e R_e^T A_e^-1 R_e r,
 * the plain (symmetric) sum, gathered face by face over the face's 1-2
 * neighbour elements in a fixed order: deterministic, no atomics.
 * Dirichlet faces carry no unknowns: their rows and columns of A_e are
 * replaced by the identity (and their residual entries are zero), which keeps
 * A_e SPD (or of positive definite symmetric part) without changing the action on the real unknowns.
 * A mixed mesh (docs/geometry.md, "Mixed meshes"): NFACES and NT are the
 * widest type's; a narrower element (a triangle among quadrilaterals) has its
 * own faces first in its row of elem_faces and -1 after them, and the empty
 * faces' rows and columns of A_e are the identity, as a Dirichlet face's.
 * Needs trace_matrix.h. */

/* Slot of face b's block in the row of face a, for element e of nfe faces
 * which is neighbour `side` of face a (host/fem/hdg.h, block_cols: the widest
 * type's NFACES - 1 slots per side, a narrower neighbour's own first). */
int patch_slot(const int a, const int b, const int side, const int nfe) {
  if (a == b) return 0;
  const int j = (b - a + nfe) % nfe;
  return 1 + side * (NFACES - 1) + (j - 1);
}

/* Element e's own face count: its leading faces that are not -1. */
int element_nfaces(const int e, __global const int *elem_faces) {
  int n = NFACES;
  while (n > 1 && elem_faces[e * ELEM_NFACES + n - 1] < 0) n--;
  return n;
}

/* One work-item per element: A_e from the matrix, then A_e^-1 in place. */
__kernel void asm_setup(const int nelem, const int nunknown, __global const int *elem_faces,
                        __global const int *face_elems, __global const int *face_unknown,
                        __global const double *values, __global double *ainv) {
  const int e = get_global_id(0);
  if (e >= nelem) return;
  __global double *a = ainv + (long)e * NT * NT;
  const int nfe = element_nfaces(e, elem_faces);
  for (int fa = 0; fa < NFACES; fa++) {
    const int face = elem_faces[e * ELEM_NFACES + fa];
    const int ua = face >= 0 ? face_unknown[face] : -1;
    const int side = face >= 0 && face_elems[2 * face] != e ? 1 : 0;
    for (int fb = 0; fb < NFACES; fb++) {
      const int fbf = elem_faces[e * ELEM_NFACES + fb];
      const int ub = fbf >= 0 ? face_unknown[fbf] : -1;
      const int slot = ua >= 0 && ub >= 0 ? patch_slot(fa, fb, side, nfe) : 0;
      for (int m = 0; m < NF; m++)
        for (int n = 0; n < NF; n++) {
          double v;
          if (ua < 0 || ub < 0)
            v = (fa == fb && m == n) ? 1.0 : 0.0;
          else
            v = trace_block_entry(values, nunknown, ua, slot, m, n);
          a[(fa * NF + m) * NT + fb * NF + n] = v;
        }
    }
  }
  posdef_invert_in_place(a, NT);
}

/* z_(u,m) = sum over the neighbours e of face u of row (local face, m) of
 * A_e^-1 R_e r.  One work-item per row (u, m); each row of every A_e^-1 is
 * read by exactly one work-item. */
__kernel void asm_apply(const int nunknown, __global const int *unknown_face,
                        __global const int *elem_faces, __global const int *face_elems,
                        __global const char *face_local, __global const int *face_unknown,
                        __global const double *ainv, __global const double *r,
                        __global double *z) {
  const int row = get_global_id(0);
  if (row >= nunknown * NF) return;
  const int u = row / NF, m = row % NF;
  const int face = unknown_face[u];
  double s = 0.0;
  for (int side = 0; side < 2; side++) {
    const int e = face_elems[2 * face + side];
    if (e < 0) continue;
    const int a = face_local[2 * face + side];
    __global const double *arow = ainv + (long)e * NT * NT + (long)(a * NF + m) * NT;
    for (int fb = 0; fb < NFACES; fb++) {
      const int fbf = elem_faces[e * ELEM_NFACES + fb]; /* -1 past a narrower element's faces */
      const int ub = fbf >= 0 ? face_unknown[fbf] : -1;
      if (ub < 0) continue;
      __global const double *rb = r + (long)ub * NF;
      for (int n = 0; n < NF; n++) s += arow[fb * NF + n] * rb[n];
    }
  }
  z[row] = s;
}
