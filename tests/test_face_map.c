/* Face maps and reference normals against the conventions of
 * include/hdgcl/mesh.h.  The tables below are transcribed here from that
 * comment, independently of the library (the quad permutations are computed
 * from their formulas), and checked against the definitions first. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fem/face_map.h"

/* ---- the mesh.h conventions ------------------------------------------------ */

typedef struct element_def {
  hdgcl_element_type type;
  int dim, num_vertices, num_faces, verts_per_face;
  double vertex[8][3];
  int face[6][4];
} element_def;

static const element_def elements[] = {
    {.type = HDGCL_TRIANGLE, .dim = 2, .num_vertices = 3, .num_faces = 3, .verts_per_face = 2,
     .vertex = {{-1, -1}, {1, -1}, {-1, 1}},
     .face = {{0, 1}, {1, 2}, {2, 0}}},
    {.type = HDGCL_QUADRILATERAL, .dim = 2, .num_vertices = 4, .num_faces = 4, .verts_per_face = 2,
     .vertex = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}},
     .face = {{0, 1}, {1, 2}, {2, 3}, {3, 0}}},
    {.type = HDGCL_TETRAHEDRON, .dim = 3, .num_vertices = 4, .num_faces = 4, .verts_per_face = 3,
     .vertex = {{-1, -1, -1}, {1, -1, -1}, {-1, 1, -1}, {-1, -1, 1}},
     .face = {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}}},
    {.type = HDGCL_HEXAHEDRON, .dim = 3, .num_vertices = 8, .num_faces = 6, .verts_per_face = 4,
     .vertex = {{-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {-1, 1, -1},
                {-1, -1, 1}, {1, -1, 1}, {1, 1, 1}, {-1, 1, 1}},
     .face = {{0, 3, 2, 1}, {0, 1, 5, 4}, {1, 2, 6, 5}, {2, 3, 7, 6}, {3, 0, 4, 7}, {4, 5, 6, 7}}},
};

static int orientation_count(int nv) { return nv == 2 ? 2 : nv == 3 ? 6 : 8; }

/* P_o[j]: local face vertex j is canonical vertex P_o[j]. */
static int permutation(int nv, int o, int j) {
  static const int tri[6][3] = {{0, 1, 2}, {1, 2, 0}, {2, 0, 1}, {0, 2, 1}, {2, 1, 0}, {1, 0, 2}};
  if (nv == 2) return o == 0 ? j : 1 - j;
  if (nv == 3) return tri[o][j];
  return o < 4 ? (j + o) % 4 : ((o - 4) - j + 8) % 4; /* rotations, reflections */
}

/* Vertex functions of the face reference shape (segment [-1,1]; triangle
 * (-1,-1) (1,-1) (-1,1); quad [-1,1]^2 numbered counter-clockwise). */
static void face_vertex_coords(int nv, int k, double *s) {
  static const double seg[2][1] = {{-1}, {1}};
  static const double tri[3][2] = {{-1, -1}, {1, -1}, {-1, 1}};
  static const double quad[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
  if (nv == 2) s[0] = seg[k][0];
  if (nv == 3) memcpy(s, tri[k], 2 * sizeof *s);
  if (nv == 4) memcpy(s, quad[k], 2 * sizeof *s);
}

static double vertex_function(int nv, int k, const double *s) {
  double r[4][2] = {{0}};
  for (int l = 0; l < nv; l++) face_vertex_coords(nv, l, r[l]);
  if (nv == 2) return 0.5 * (1 + r[k][0] * s[0]);
  if (nv == 4) return 0.25 * (1 + r[k][0] * s[0]) * (1 + r[k][1] * s[1]);
  return k == 0 ? -0.5 * (s[0] + s[1]) : k == 1 ? 0.5 * (1 + s[0]) : 0.5 * (1 + s[1]);
}

/* Deterministic pseudo-random numbers (xorshift64*). */
static uint64_t rng_state = 0x243F6A8885A308D3ull;
static uint64_t next_random(void) {
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * 0x2545F4914F6CDD1Dull;
}
static double uniform01(void) { return (double)(next_random() >> 11) / 9007199254740992.0; }

/* A random point of the face reference shape with nv vertices. */
static void random_face_point(int nv, double *s) {
  if (nv == 2) {
    s[0] = 2 * uniform01() - 1;
  } else if (nv == 4) {
    s[0] = 2 * uniform01() - 1;
    s[1] = 2 * uniform01() - 1;
  } else {
    do {
      s[0] = 2 * uniform01() - 1;
      s[1] = 2 * uniform01() - 1;
    } while (s[0] + s[1] > 0);
  }
}

static double distance(const double *a, const double *b, int dim) {
  double d = 0;
  for (int e = 0; e < dim; e++) d += (a[e] - b[e]) * (a[e] - b[e]);
  return sqrt(d);
}

/* ---- checks ------------------------------------------------------------------ */

/* The transcribed permutations: bijections, pairwise distinct, and for quads
 * every P_o maps cyclic neighbours to cyclic neighbours (a symmetry of the square). */
static void test_permutation_tables(void) {
  for (int nv = 2; nv <= 4; nv++) {
    int count = orientation_count(nv);
    for (int o = 0; o < count; o++) {
      int seen[4] = {0};
      for (int j = 0; j < nv; j++) seen[permutation(nv, o, j)]++;
      for (int j = 0; j < nv; j++) CHECK(seen[j] == 1);
      for (int o2 = 0; o2 < o; o2++) {
        int same = 1;
        for (int j = 0; j < nv; j++) same &= permutation(nv, o, j) == permutation(nv, o2, j);
        CHECK_MSG(!same, "codes %d and %d of a %d-vertex face coincide", o, o2, nv);
      }
      if (nv == 4)
        for (int j = 0; j < 4; j++) {
          int diff = (permutation(4, o, (j + 1) % 4) - permutation(4, o, j) + 4) % 4;
          CHECK(diff == 1 || diff == 3);
        }
    }
    for (int j = 0; j < nv; j++) CHECK(permutation(nv, 0, j) == j); /* P_0 is the identity */
  }
}

/* The transcribed face lists: faces run counter-clockwise (2D) or have
 * (v1-v0)x(vlast-v0) pointing away from the element centroid (3D). */
static void test_face_tables(void) {
  for (int t = 0; t < 4; t++) {
    const element_def *el = &elements[t];
    double centroid[3] = {0, 0, 0};
    for (int v = 0; v < el->num_vertices; v++)
      for (int d = 0; d < el->dim; d++) centroid[d] += el->vertex[v][d] / el->num_vertices;
    for (int f = 0; f < el->num_faces; f++) {
      const double *v0 = el->vertex[el->face[f][0]], *v1 = el->vertex[el->face[f][1]];
      const double *vl = el->vertex[el->face[f][el->verts_per_face - 1]];
      double out;
      if (el->dim == 2) { /* centroid to the left of v0 -> v1 */
        out = (v1[0] - v0[0]) * (centroid[1] - v0[1]) - (v1[1] - v0[1]) * (centroid[0] - v0[0]);
      } else {
        double a[3], b[3], n[3];
        for (int d = 0; d < 3; d++) {
          a[d] = v1[d] - v0[d];
          b[d] = vl[d] - v0[d];
        }
        n[0] = a[1] * b[2] - a[2] * b[1];
        n[1] = a[2] * b[0] - a[0] * b[2];
        n[2] = a[0] * b[1] - a[1] * b[0];
        out = 0;
        for (int d = 0; d < 3; d++) out += n[d] * (v0[d] - centroid[d]);
      }
      CHECK_MSG(out > 0, "%d-D element type %d face %d is not oriented outwards", el->dim, t, f);
    }
  }
}

static void test_face_shapes(void) {
  CHECK(hdgcl_face_shape(HDGCL_TRIANGLE) == HDGCL_SHAPE_SEGMENT);
  CHECK(hdgcl_face_shape(HDGCL_QUADRILATERAL) == HDGCL_SHAPE_SEGMENT);
  CHECK(hdgcl_face_shape(HDGCL_TETRAHEDRON) == HDGCL_SHAPE_TRIANGLE);
  CHECK(hdgcl_face_shape(HDGCL_HEXAHEDRON) == HDGCL_SHAPE_QUADRILATERAL);
  CHECK(hdgcl_shape_dim(hdgcl_face_shape((hdgcl_element_type)9)) == 0);
}

/* Face reference vertex k (= canonical vertex k) maps to the element vertex
 * L[j] with P_o[j] = k. */
static void test_vertex_images(void) {
  for (int t = 0; t < 4; t++) {
    const element_def *el = &elements[t];
    int nv = el->verts_per_face;
    for (int f = 0; f < el->num_faces; f++)
      for (int o = 0; o < orientation_count(nv); o++)
        for (int k = 0; k < nv; k++) {
          double s[2], X[3];
          face_vertex_coords(nv, k, s);
          CHECK_OK(hdgcl_face_map_points(el->type, f, o, 1, s, X));
          int j = 0;
          while (permutation(nv, o, j) != k) j++;
          double err = distance(X, el->vertex[el->face[f][j]], el->dim);
          CHECK_MSG(err <= 1e-15, "type %d face %d orientation %d: canonical vertex %d misplaced",
                    t, f, o, k);
        }
  }
}

/* The use case: an element whose vertices carry global ids.  For each face,
 * build the canonical order C from the definitions, find the orientation code
 * o with L[j] = C[P_o[j]] (exactly one must exist), and check that a face
 * point s maps to sum_k beta_k(s) X(vertex with id C[k]): the same physical
 * point for every element that shares the face. */
static void test_global_consistency(void) {
  for (int t = 0; t < 4; t++) {
    const element_def *el = &elements[t];
    int nv = el->verts_per_face, dim = el->dim;
    for (int trial = 0; trial < 50; trial++) {
      int id[8];
      for (int v = 0; v < el->num_vertices; v++) { /* distinct ids in 0..99 */
        int fresh;
        do {
          id[v] = (int)(next_random() % 100);
          fresh = 1;
          for (int u = 0; u < v; u++) fresh &= id[u] != id[v];
        } while (!fresh);
      }
      for (int f = 0; f < el->num_faces; f++) {
        int L[4] = {0}, C[4] = {0};
        for (int j = 0; j < nv; j++) L[j] = id[el->face[f][j]];
        if (nv < 4) { /* ascending ids */
          memcpy(C, L, sizeof L);
          for (int a = 0; a < nv; a++)
            for (int b = a + 1; b < nv; b++)
              if (C[b] < C[a]) {
                int tmp = C[a];
                C[a] = C[b];
                C[b] = tmp;
              }
        } else { /* smallest, its smaller neighbour, the opposite, the other neighbour */
          int j0 = 0;
          for (int j = 1; j < 4; j++)
            if (L[j] < L[j0]) j0 = j;
          int na = L[(j0 + 1) % 4], nb = L[(j0 + 3) % 4];
          C[0] = L[j0];
          C[1] = na < nb ? na : nb;
          C[2] = L[(j0 + 2) % 4];
          C[3] = na < nb ? nb : na;
        }
        int matches = 0, o = -1;
        for (int c = 0; c < orientation_count(nv); c++) {
          int ok = 1;
          for (int j = 0; j < nv; j++) ok &= L[j] == C[permutation(nv, c, j)];
          if (ok) {
            matches++;
            o = c;
          }
        }
        CHECK_MSG(matches == 1, "type %d face %d: %d orientation codes match", t, f, matches);
        if (matches != 1) continue;
        /* coordinates of the vertex with global id C[k] */
        const double *cv[4];
        for (int k = 0; k < nv; k++)
          for (int v = 0; v < el->num_vertices; v++)
            if (id[v] == C[k]) cv[k] = el->vertex[v];
        double s[5 * 2], X[5 * 3];
        for (int k = 0; k < 4; k++) random_face_point(nv, s + 2 * k);
        face_vertex_coords(nv, trial % nv, s + 8); /* and a vertex */
        /* pack as [npts][dim-1] */
        for (int k = 0; k < 5; k++)
          memmove(s + k * (dim - 1), s + 2 * k, (dim - 1) * sizeof *s);
        CHECK_OK(hdgcl_face_map_points(el->type, f, o, 5, s, X));
        for (int ip = 0; ip < 5; ip++) {
          double expect[3] = {0, 0, 0};
          for (int k = 0; k < nv; k++)
            for (int d = 0; d < dim; d++)
              expect[d] += vertex_function(nv, k, s + ip * (dim - 1)) * cv[k][d];
          CHECK_MSG(distance(X + ip * dim, expect, dim) <= 1e-15,
                    "type %d face %d orientation %d: point %d maps elsewhere", t, f, o, ip);
        }
      }
    }
  }
}

/* Mapped points lie on the face: on its line/plane and inside the element. */
static void test_points_on_face(void) {
  for (int t = 0; t < 4; t++) {
    const element_def *el = &elements[t];
    int nv = el->verts_per_face, dim = el->dim;
    for (int f = 0; f < el->num_faces; f++)
      for (int o = 0; o < orientation_count(nv); o++)
        for (int trial = 0; trial < 20; trial++) {
          double s[2], X[3], n[3];
          random_face_point(nv, s);
          CHECK_OK(hdgcl_face_map_points(el->type, f, o, 1, s, X));
          hdgcl_reference_face_normal(el->type, f, n);
          double off = 0;
          for (int d = 0; d < dim; d++) off += n[d] * (X[d] - el->vertex[el->face[f][0]][d]);
          CHECK_MSG(fabs(off) <= 1e-15, "type %d face %d: mapped point off the face by %g", t, f,
                    off);
          double sum = 0, lo = 1;
          for (int d = 0; d < dim; d++) {
            sum += X[d];
            lo = fmin(lo, 1 - fabs(X[d]));
          }
          int simplex = t == HDGCL_TRIANGLE || t == HDGCL_TETRAHEDRON;
          double slack = simplex ? fmin(fmin(X[0], X[1]) + 1, (dim == 2 ? 0 : -1) - sum) : lo;
          if (simplex && dim == 3) slack = fmin(slack, X[2] + 1);
          CHECK_MSG(slack >= -1e-15, "type %d face %d: mapped point outside the element", t, f);
        }
  }
}

/* Normals: unit, orthogonal to the face, pointing away from the centroid,
 * plus a few known values. */
static void test_normals(void) {
  for (int t = 0; t < 4; t++) {
    const element_def *el = &elements[t];
    int nv = el->verts_per_face, dim = el->dim;
    double centroid[3] = {0, 0, 0};
    for (int v = 0; v < el->num_vertices; v++)
      for (int d = 0; d < dim; d++) centroid[d] += el->vertex[v][d] / el->num_vertices;
    for (int f = 0; f < el->num_faces; f++) {
      double n[3] = {NAN, NAN, NAN}, len = 0, out = 0;
      hdgcl_reference_face_normal(el->type, f, n);
      for (int d = 0; d < dim; d++) len += n[d] * n[d];
      CHECK_NEAR(len, 1.0, 1e-15);
      const double *v0 = el->vertex[el->face[f][0]];
      for (int j = 1; j < nv; j++) {
        double dot = 0;
        for (int d = 0; d < dim; d++) dot += n[d] * (el->vertex[el->face[f][j]][d] - v0[d]);
        CHECK_NEAR(dot, 0.0, 1e-15);
      }
      for (int d = 0; d < dim; d++) out += n[d] * (v0[d] - centroid[d]);
      CHECK_MSG(out > 0.1, "type %d face %d: normal points inwards", t, f);
    }
  }
  double n[3];
  hdgcl_reference_face_normal(HDGCL_TRIANGLE, 1, n);
  CHECK_NEAR(n[0], sqrt(0.5), 1e-15);
  CHECK_NEAR(n[1], sqrt(0.5), 1e-15);
  hdgcl_reference_face_normal(HDGCL_TETRAHEDRON, 3, n);
  for (int d = 0; d < 3; d++) CHECK_NEAR(n[d], 1 / sqrt(3.0), 1e-15);
  hdgcl_reference_face_normal(HDGCL_HEXAHEDRON, 0, n);
  CHECK(n[0] == 0 && n[1] == 0 && n[2] == -1);
  hdgcl_reference_face_normal(HDGCL_QUADRILATERAL, 3, n);
  CHECK(n[0] == -1 && n[1] == 0);
}

static void test_errors(void) {
  double s[2] = {0, 0}, X[3];
  CHECK_FAILS(hdgcl_face_map_points(HDGCL_TETRAHEDRON, 4, 0, 1, s, X), HDGCL_ERROR_ARGUMENT);
  CHECK(strstr(hdgcl_last_error(), "face 4") != NULL);
  CHECK_FAILS(hdgcl_face_map_points(HDGCL_TETRAHEDRON, 0, 6, 1, s, X), HDGCL_ERROR_ARGUMENT);
  CHECK(strstr(hdgcl_last_error(), "orientation code 6") != NULL);
  CHECK_FAILS(hdgcl_face_map_points(HDGCL_TRIANGLE, 0, 2, 1, s, X), HDGCL_ERROR_ARGUMENT);
  CHECK_FAILS(hdgcl_face_map_points(HDGCL_HEXAHEDRON, -1, 0, 1, s, X), HDGCL_ERROR_ARGUMENT);
  CHECK_FAILS(hdgcl_face_map_points((hdgcl_element_type)5, 0, 0, 1, s, X), HDGCL_ERROR_ARGUMENT);
  CHECK_FAILS(hdgcl_face_map_points(HDGCL_HEXAHEDRON, 0, 0, -1, s, X), HDGCL_ERROR_ARGUMENT);
  CHECK_FAILS(hdgcl_face_map_points(HDGCL_HEXAHEDRON, 0, 0, 1, NULL, X), HDGCL_ERROR_ARGUMENT);
  CHECK_OK(hdgcl_face_map_points(HDGCL_HEXAHEDRON, 5, 7, 0, NULL, NULL));
  double n[3] = {7, 7, 7};
  hdgcl_reference_face_normal(HDGCL_HEXAHEDRON, 6, n); /* invalid: n untouched */
  CHECK(n[0] == 7 && n[1] == 7 && n[2] == 7);
}

int main(void) {
  test_permutation_tables();
  test_face_tables();
  test_face_shapes();
  test_vertex_images();
  test_global_consistency();
  test_points_on_face();
  test_normals();
  test_errors();
  CHECK_DONE();
}
