/* Structured generators (rectangle: triangles with each diagonal, quads; box:
 * tets, hexes), with and without perturbation, on several sizes: counts,
 * Euler characteristic, topology contract, boundary tags on the box sides
 * and their names, measures, and the perturbation's guarantees. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "test_mesh_checks.h"

typedef struct case_desc {
  hdgcl_element_type type;
  int n[3];
  hdgcl_diagonal diagonal;
  double lo[3], hi[3];
} case_desc;

static const char *diagonal_name(hdgcl_diagonal d) {
  return d == HDGCL_DIAGONAL_RIGHT ? "right" : d == HDGCL_DIAGONAL_LEFT ? "left" : "alt";
}

static int create(const case_desc *c, hdgcl_mesh **m) {
  if (c->type == HDGCL_TRIANGLE || c->type == HDGCL_QUADRILATERAL)
    return hdgcl_mesh_create_rectangle(c->type, c->n[0], c->n[1], c->lo, c->hi, c->diagonal, m);
  return hdgcl_mesh_create_box(c->type, c->n[0], c->n[1], c->n[2], c->lo, c->hi, m);
}

/* Expected counts of a structured mesh. */
static void expected_counts(const case_desc *c, int64_t *V, int64_t *E, int64_t *boundary,
                            int64_t tags[7]) {
  int64_t nx = c->n[0], ny = c->n[1], nz = c->n[2];
  for (int t = 0; t < 7; t++) tags[t] = 0;
  switch (c->type) {
  case HDGCL_TRIANGLE:
  case HDGCL_QUADRILATERAL:
    *V = (nx + 1) * (ny + 1);
    *E = nx * ny * (c->type == HDGCL_TRIANGLE ? 2 : 1);
    tags[1] = tags[2] = ny;
    tags[3] = tags[4] = nx;
    break;
  default: {
    int per_face = c->type == HDGCL_TETRAHEDRON ? 2 : 1; /* a cell face is split in 2 triangles */
    *V = (nx + 1) * (ny + 1) * (nz + 1);
    *E = nx * ny * nz * (c->type == HDGCL_TETRAHEDRON ? 6 : 1);
    tags[1] = tags[2] = ny * nz * per_face;
    tags[3] = tags[4] = nx * nz * per_face;
    tags[5] = tags[6] = nx * ny * per_face;
  }
  }
  *boundary = 0;
  for (int t = 1; t < 7; t++) *boundary += tags[t];
}

static double domain_measure(const case_desc *c, int dim) {
  double v = 1;
  for (int d = 0; d < dim; d++) v *= c->hi[d] - c->lo[d];
  return v;
}

/* A face with exactly these two vertices exists (2D). */
static bool has_edge(const hdgcl_mesh *m, int32_t a, int32_t b) {
  int32_t lo = a < b ? a : b, hi = a < b ? b : a;
  for (int32_t f = 0; f < m->num_faces; f++)
    if (m->face_verts[2 * f] == lo && m->face_verts[2 * f + 1] == hi) return true;
  return false;
}

/* The diagonal of cell (i, j) is the one requested. */
static void check_diagonals(const hdgcl_mesh *m, const case_desc *c) {
  int nx = c->n[0], ny = c->n[1];
  for (int j = 0; j < ny; j++)
    for (int i = 0; i < nx; i++) {
      int32_t a = i + (nx + 1) * j, b = a + 1, cc = b + nx + 1, d = a + nx + 1;
      bool right = c->diagonal == HDGCL_DIAGONAL_RIGHT ||
                   (c->diagonal == HDGCL_DIAGONAL_ALTERNATING && (i + j) % 2 == 0);
      CHECK_MSG(has_edge(m, a, cc) == right && has_edge(m, b, d) == !right,
                "cell (%d,%d): wrong diagonal for diag=%s", i, j, diagonal_name(c->diagonal));
    }
}

static void check_case(const case_desc *c, double amplitude, uint64_t seed) {
  char name[160];
  snprintf(name, sizeof name, "%s %dx%dx%d diag=%s perturb=%g seed=%llu",
           hdgcl_element_type_name(c->type), c->n[0], c->n[1], c->n[2], diagonal_name(c->diagonal),
           amplitude, (unsigned long long)seed);
  int before = check_failures;
  hdgcl_mesh *m = NULL, *plain = NULL;
  CHECK_OK(create(c, &m));
  CHECK_OK(create(c, &plain));
  if (!m || !plain) goto done;
  CHECK_OK(hdgcl_mesh_perturb(m, amplitude, seed));
  CHECK_OK(hdgcl_mesh_validate(m));

  int64_t V, E, nb, tags[7], got[7];
  expected_counts(c, &V, &E, &nb, tags);
  CHECK(m->num_vertices == V);
  CHECK(m->num_elements == E);
  CHECK(m->num_faces - m->num_interior_faces == nb);
  CHECK((int64_t)m->num_faces * 2 - nb == (int64_t)E * m->faces_per_element);
  for (int32_t e = 0; e < m->num_elements; e++) CHECK(m->elem_tags[e] == 0);

  tmc_check_topology(m);
  tmc_check_euler(m);
  tmc_check_box_boundary(m, c->lo, c->hi, got);
  for (int t = 0; t < 7; t++)
    CHECK_MSG(got[t] == tags[t], "tag %d on %lld faces, expected %lld", t, (long long)got[t],
              (long long)tags[t]);
  /* the side names, and nothing else named */
  static const char *const sides[6] = {"left", "right", "bottom", "top", "back", "front"};
  CHECK(m->num_tag_names == 2 * m->dim);
  for (int t = 1; t <= 2 * m->dim; t++) {
    const char *side = hdgcl_mesh_tag_name(m, m->dim - 1, t);
    int32_t found = -1;
    CHECK_MSG(side && !strcmp(side, sides[t - 1]), "tag %d named %s", t, side ? side : "NULL");
    CHECK_OK(hdgcl_mesh_find_tag(m, m->dim - 1, sides[t - 1], &found));
    CHECK(found == t);
  }
  CHECK(hdgcl_mesh_tag_name(m, m->dim - 1, 2 * m->dim + 1) == NULL);
  CHECK(hdgcl_mesh_tag_name(m, m->dim, 0) == NULL);
  double total;
  tmc_check_measures(m, &total);
  double expected = domain_measure(c, m->dim);
  CHECK_NEAR(total, expected, 1e-12 * expected);
  if (c->type == HDGCL_TRIANGLE) check_diagonals(m, c);

  /* perturbation: topology unchanged, boundary vertices fixed, interior ones
   * moved by at most amplitude x the shortest edge at the vertex */
  CHECK(!memcmp(m->elem_verts, plain->elem_verts,
                sizeof(int32_t) * (size_t)m->num_elements * m->verts_per_element));
  CHECK(!memcmp(m->face_verts, plain->face_verts,
                sizeof(int32_t) * (size_t)m->num_faces * m->verts_per_face));
  bool *on_boundary = calloc((size_t)m->num_vertices, sizeof *on_boundary);
  for (int32_t f = m->num_interior_faces; f < m->num_faces; f++)
    for (int j = 0; j < m->verts_per_face; j++)
      on_boundary[m->face_verts[(int64_t)f * m->verts_per_face + j]] = true;
  /* edges of the unperturbed mesh: cell edges have length h_d along axis d,
   * diagonals are longer, so the shortest edge at a vertex is min_d h_d */
  double h = INFINITY;
  for (int d = 0; d < m->dim; d++) h = fmin(h, (c->hi[d] - c->lo[d]) / c->n[d]);
  int32_t moved = 0, interior = 0;
  for (int32_t v = 0; v < m->num_vertices; v++) {
    double dist2 = 0;
    for (int d = 0; d < m->dim; d++) {
      double t = m->coords[(int64_t)v * m->dim + d] - plain->coords[(int64_t)v * m->dim + d];
      dist2 += t * t;
    }
    if (on_boundary[v]) {
      CHECK_MSG(dist2 == 0, "boundary vertex %d moved", (int)v);
    } else {
      interior++;
      moved += dist2 > 0;
      CHECK_MSG(sqrt(dist2) <= amplitude * h * (1 + 1e-12), "vertex %d moved %g > %g x %g", (int)v,
                sqrt(dist2), amplitude, h);
    }
  }
  if (amplitude == 0)
    CHECK(moved == 0);
  else
    CHECK_MSG(moved * 10 >= interior * 9, "only %d of %d interior vertices moved", (int)moved,
              (int)interior);
  free(on_boundary);
done:
  hdgcl_mesh_destroy(&m);
  hdgcl_mesh_destroy(&plain);
  if (check_failures != before) fprintf(stderr, "  ... in case %s\n", name);
}

/* Same seed, same mesh (bit for bit); another seed, another mesh. */
static void check_determinism(void) {
  const double lo[3] = {0, 0, 0}, hi[3] = {1, 2, 3};
  hdgcl_mesh *a = NULL, *b = NULL, *c = NULL;
  CHECK_OK(hdgcl_mesh_create_box(HDGCL_TETRAHEDRON, 3, 3, 3, lo, hi, &a));
  CHECK_OK(hdgcl_mesh_create_box(HDGCL_TETRAHEDRON, 3, 3, 3, lo, hi, &b));
  CHECK_OK(hdgcl_mesh_create_box(HDGCL_TETRAHEDRON, 3, 3, 3, lo, hi, &c));
  if (a && b && c) {
    CHECK_OK(hdgcl_mesh_perturb(a, 0.3, 42));
    CHECK_OK(hdgcl_mesh_perturb(b, 0.3, 42));
    CHECK_OK(hdgcl_mesh_perturb(c, 0.3, 43));
    size_t bytes = sizeof(double) * (size_t)a->num_vertices * 3;
    CHECK(!memcmp(a->coords, b->coords, bytes));
    CHECK(memcmp(a->coords, c->coords, bytes) != 0);
    /* interior vertex (i,j,k) = (1,1,1) of the 4x4x4 grid points, at (1/3, 2/3, 1) */
    int32_t v = 1 + 4 * (1 + 4 * 1);
    CHECK(a->coords[3 * v] != 1.0 / 3 || a->coords[3 * v + 1] != 2.0 / 3);
  }
  hdgcl_mesh_destroy(&a);
  hdgcl_mesh_destroy(&b);
  hdgcl_mesh_destroy(&c);
}

static void check_errors(void) {
  const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1}, flat[3] = {1, 0, 1};
  hdgcl_mesh *m = NULL;
  CHECK_FAILS(hdgcl_mesh_create_rectangle(HDGCL_TRIANGLE, 0, 3, lo, hi, HDGCL_DIAGONAL_RIGHT, &m),
              HDGCL_ERROR_ARGUMENT);
  CHECK(strstr(hdgcl_last_error(), "cells along x") != NULL);
  CHECK_FAILS(
      hdgcl_mesh_create_rectangle(HDGCL_QUADRILATERAL, 3, -1, lo, hi, HDGCL_DIAGONAL_RIGHT, &m),
      HDGCL_ERROR_ARGUMENT);
  CHECK_FAILS(hdgcl_mesh_create_rectangle(HDGCL_TRIANGLE, 2, 2, lo, flat, HDGCL_DIAGONAL_RIGHT, &m),
              HDGCL_ERROR_ARGUMENT);
  CHECK(strstr(hdgcl_last_error(), "range") != NULL);
  CHECK_FAILS(
      hdgcl_mesh_create_rectangle(HDGCL_TETRAHEDRON, 2, 2, lo, hi, HDGCL_DIAGONAL_RIGHT, &m),
      HDGCL_ERROR_ARGUMENT);
  CHECK_FAILS(hdgcl_mesh_create_rectangle(HDGCL_TRIANGLE, 2, 2, lo, hi, (hdgcl_diagonal)7, &m),
              HDGCL_ERROR_ARGUMENT);
  CHECK_FAILS(
      hdgcl_mesh_create_rectangle(HDGCL_TRIANGLE, 100000, 100000, lo, hi, HDGCL_DIAGONAL_RIGHT, &m),
      HDGCL_ERROR_ARGUMENT);
  CHECK(strstr(hdgcl_last_error(), "32-bit") != NULL);
  CHECK_FAILS(hdgcl_mesh_create_box(HDGCL_HEXAHEDRON, 2, 0, 2, lo, hi, &m), HDGCL_ERROR_ARGUMENT);
  CHECK_FAILS(hdgcl_mesh_create_box(HDGCL_QUADRILATERAL, 2, 2, 2, lo, hi, &m),
              HDGCL_ERROR_ARGUMENT);
  CHECK_FAILS(hdgcl_mesh_create_box(HDGCL_TETRAHEDRON, 1000, 1000, 1000, lo, hi, &m),
              HDGCL_ERROR_ARGUMENT);
  CHECK(m == NULL);
  CHECK_OK(hdgcl_mesh_create_box(HDGCL_HEXAHEDRON, 2, 2, 2, lo, hi, &m));
  CHECK_FAILS(hdgcl_mesh_perturb(m, 0.5, 1), HDGCL_ERROR_ARGUMENT);
  CHECK_FAILS(hdgcl_mesh_perturb(m, -0.1, 1), HDGCL_ERROR_ARGUMENT);
  CHECK_FAILS(hdgcl_mesh_perturb(m, NAN, 1), HDGCL_ERROR_ARGUMENT);
  CHECK(strstr(hdgcl_last_error(), "amplitude") != NULL);
  hdgcl_mesh_destroy(&m);
}

int main(void) {
  static const int sizes2[][2] = {{1, 1}, {4, 4}, {5, 3}, {2, 7}};
  static const int sizes3[][3] = {{1, 1, 1}, {2, 2, 2}, {3, 2, 4}, {1, 3, 2}};
  static const double amplitudes[] = {0, 0.3, 0.45};
  for (int s = 0; s < 4; s++)
    for (int a = 0; a < 3; a++) {
      /* unit box for the first sizes, an offset non-square box for the others */
      bool offset = s >= 2;
      case_desc c = {HDGCL_TRIANGLE,
                     {sizes2[s][0], sizes2[s][1], 1},
                     HDGCL_DIAGONAL_RIGHT,
                     {offset ? -1 : 0, offset ? 0.5 : 0, 0},
                     {offset ? 2 : 1, offset ? 1.5 : 1, 1}};
      for (int d = 0; d < 3; d++) {
        c.diagonal = (hdgcl_diagonal)d;
        check_case(&c, amplitudes[a], 7 + s);
      }
      c.type = HDGCL_QUADRILATERAL;
      check_case(&c, amplitudes[a], 11 + s);
      case_desc b = {HDGCL_TETRAHEDRON,
                     {sizes3[s][0], sizes3[s][1], sizes3[s][2]},
                     HDGCL_DIAGONAL_RIGHT,
                     {offset ? -1 : 0, 0, offset ? 2 : 0},
                     {offset ? 1 : 1, offset ? 0.5 : 1, offset ? 5 : 1}};
      check_case(&b, amplitudes[a], 3 + s);
      b.type = HDGCL_HEXAHEDRON;
      check_case(&b, amplitudes[a], 5 + s);
    }
  check_determinism();
  check_errors();
  CHECK_DONE();
}
