/* Random perturbation of the interior vertices of a mesh (to test solvers on
 * unstructured-looking meshes).  The generator is splitmix64, implemented
 * here, so a seed gives the same mesh on every platform.  Vertices are moved
 * one at a time in index order; a move that would bring any element touching
 * the vertex below 10% of its original smallest Jacobian determinant (the
 * validity test of hdgcl_mesh_element_min_jacobian) is halved, up to 8
 * times, then dropped.  Boundary vertices stay where they are. */
#include <math.h>
#include <stdlib.h>

#include "core/error.h"
#include "mesh_internal.h"

enum { MAX_HALVINGS = 8 };
static const double QUALITY_KEPT = 0.1;

static uint64_t splitmix64(uint64_t *state) {
  uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/* Uniform in [-1, 1), exactly representable (53 random bits). */
static double uniform_symmetric(uint64_t *state) {
  return (double)(splitmix64(state) >> 11) * 0x1p-52 - 1.0;
}

/* Uniform point in the unit ball of dimension dim (rejection sampling). */
static void random_in_ball(uint64_t *state, int dim, double *u) {
  for (;;) {
    double r2 = 0;
    for (int d = 0; d < dim; d++) {
      u[d] = uniform_symmetric(state);
      r2 += u[d] * u[d];
    }
    if (r2 <= 1) return;
  }
}

typedef struct perturb_work {
  bool *on_boundary;       /* [num_vertices] */
  double *shortest_edge;   /* [num_vertices] */
  int64_t *first_incident; /* [num_vertices + 1] CSR offsets into incident */
  int32_t *incident;       /* elements touching each vertex */
  double *jacobian_floor;  /* [num_elements] */
} perturb_work;

static void free_work(perturb_work *w) {
  free(w->on_boundary);
  free(w->shortest_edge);
  free(w->first_incident);
  free(w->incident);
  free(w->jacobian_floor);
}

static int prepare(const hdgcl_mesh *mesh, perturb_work *w) {
  int32_t nv = mesh->num_vertices, ne = mesh->num_elements;
  int vpe = mesh->verts_per_element, vpf = mesh->verts_per_face, dim = mesh->dim;
  int64_t nev = (int64_t)ne * vpe;
  HDGCL_TRY(hdgcl_calloc((size_t)nv, sizeof(bool), "perturbation flags", &w->on_boundary));
  HDGCL_TRY(hdgcl_calloc((size_t)nv, sizeof(double), "perturbation lengths", &w->shortest_edge));
  HDGCL_TRY(
      hdgcl_calloc((size_t)nv + 1, sizeof(int64_t), "vertex-element offsets", &w->first_incident));
  HDGCL_TRY(hdgcl_calloc((size_t)nev, sizeof(int32_t), "vertex-element map", &w->incident));
  HDGCL_TRY(hdgcl_calloc((size_t)ne, sizeof(double), "perturbation floors", &w->jacobian_floor));

  for (int32_t f = mesh->num_interior_faces; f < mesh->num_faces; f++)
    for (int j = 0; j < vpf; j++) w->on_boundary[mesh->face_verts[(int64_t)f * vpf + j]] = true;

  int nedges;
  const int8_t(*edges)[2] = hdgcl_element_edges(mesh->type, &nedges);
  for (int32_t v = 0; v < nv; v++) w->shortest_edge[v] = INFINITY;
  for (int32_t e = 0; e < ne; e++) {
    const int32_t *ev = mesh->elem_verts + (int64_t)e * vpe;
    for (int k = 0; k < nedges; k++) {
      int32_t a = ev[edges[k][0]], b = ev[edges[k][1]];
      double s = 0;
      for (int d = 0; d < dim; d++) {
        double t = mesh->coords[(int64_t)b * dim + d] - mesh->coords[(int64_t)a * dim + d];
        s += t * t;
      }
      s = sqrt(s);
      if (s < w->shortest_edge[a]) w->shortest_edge[a] = s;
      if (s < w->shortest_edge[b]) w->shortest_edge[b] = s;
    }
    if (hdgcl_mesh_element_state(mesh, e) != HDGCL_ELEMENT_VALID)
      return hdgcl_error(HDGCL_ERROR_MESH, "cannot perturb: %s %d is not valid",
                         hdgcl_element_type_name(mesh->type), (int)e);
    w->jacobian_floor[e] = QUALITY_KEPT * hdgcl_mesh_element_min_jacobian(mesh, e);
  }

  for (int64_t i = 0; i < nev; i++) w->first_incident[mesh->elem_verts[i] + 1]++;
  for (int32_t v = 0; v < nv; v++) w->first_incident[v + 1] += w->first_incident[v];
  for (int32_t e = 0; e < ne; e++)
    for (int i = 0; i < vpe; i++) {
      int32_t v = mesh->elem_verts[(int64_t)e * vpe + i];
      w->incident[w->first_incident[v]++] = e;
    }
  for (int32_t v = nv; v > 0; v--) w->first_incident[v] = w->first_incident[v - 1];
  w->first_incident[0] = 0;
  return HDGCL_SUCCESS;
}

static bool neighbourhood_valid(const hdgcl_mesh *mesh, const perturb_work *w, int32_t v) {
  for (int64_t k = w->first_incident[v]; k < w->first_incident[v + 1]; k++) {
    int32_t e = w->incident[k];
    if (!(hdgcl_mesh_element_min_jacobian(mesh, e) > w->jacobian_floor[e])) return false;
  }
  return true;
}

int hdgcl_mesh_perturb(hdgcl_mesh *mesh, double amplitude, uint64_t seed) {
  if (!mesh) return hdgcl_error(HDGCL_ERROR_ARGUMENT, "hdgcl_mesh_perturb: mesh is NULL");
  if (!(amplitude >= 0 && amplitude < 0.5))
    return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                       "perturbation amplitude %g out of range (need 0 <= amplitude < 0.5)",
                       amplitude);
  if (amplitude == 0) return HDGCL_SUCCESS;
  if (hdgcl_mesh_is_mixed(mesh))
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "hdgcl_mesh_perturb: the mesh is mixed (%s and %s "
                       "elements); perturbation handles meshes of one element type so far",
                       hdgcl_element_type_name(mesh->types[0]), hdgcl_element_type_name(mesh->types[1]));
  if (mesh->geometry_order > 1) /* the vertices would leave their geometry nodes */
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "hdgcl_mesh_perturb: the mesh is curved (geometry order %d); "
                       "only straight-sided meshes are moved", mesh->geometry_order);
  if (!mesh->face_verts) HDGCL_TRY(hdgcl_mesh_build_topology(mesh));

  perturb_work w = {0};
  int status;
  HDGCL_TRY_GOTO(status, prepare(mesh, &w), done);
  uint64_t state = seed;
  int dim = mesh->dim;
  for (int32_t v = 0; v < mesh->num_vertices; v++) {
    if (w.on_boundary[v] || w.first_incident[v] == w.first_incident[v + 1]) continue;
    double u[3], old[3];
    random_in_ball(&state, dim, u);
    double *x = mesh->coords + (int64_t)v * dim;
    double scale = amplitude * w.shortest_edge[v];
    for (int d = 0; d < dim; d++) old[d] = x[d];
    bool moved = false;
    for (int halving = 0; halving <= MAX_HALVINGS && !moved; halving++, scale /= 2) {
      for (int d = 0; d < dim; d++) x[d] = old[d] + scale * u[d];
      moved = neighbourhood_valid(mesh, &w, v);
    }
    if (!moved)
      for (int d = 0; d < dim; d++) x[d] = old[d];
  }
  status = HDGCL_SUCCESS;
done:
  free_work(&w);
  return status;
}
