/* The discrete problem (discretisation.h): reference tables, numbering,
 * coefficients per element and Robin blocks, built once per solver (and per
 * p-multigrid level, at its own degree). */
#include "discretisation/discretisation.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "fem/face_map.h"
#include "problem/user_problem.h"

/* docs/geometry.md, "Mixed meshes": a mixed 2D mesh of straight triangles and
 * quadrilaterals solves the linear problems (built-in, problem files,
 * transient ones, elasticity); everything else is refused by name. */
static int discretisation_check_mixed(const hdg_discretisation *d) {
  const hdgcl_mesh *mesh = d->mesh;
  if (!hdgcl_mesh_is_mixed(mesh)) return HDGCL_SUCCESS;
  const char *what = NULL;
  if (mesh->dim != 2)
    what = "a 3D mesh";
  else if (mesh->geometry_order > 1)
    what = "curved elements";
  else if (d->problem->nonlinear)
    what = "a nonlinear problem (Newton's method)";
  if (!what) return HDGCL_SUCCESS;
  return hdgcl_error(HDGCL_ERROR_MESH,
                     "the mesh is mixed (%d %ss, %d %ss): solving on mixed meshes is not "
                     "implemented for %s (problem '%s'), only for the linear problems on straight "
                     "2D meshes",
                     (int)hdgcl_mesh_count_type(mesh, mesh->types[0]),
                     hdgcl_element_type_name(mesh->types[0]),
                     (int)hdgcl_mesh_count_type(mesh, mesh->types[1]),
                     hdgcl_element_type_name(mesh->types[1]), what, d->problem->info.name);
}

int discretisation_init(hdg_discretisation *d, int order) {
  const hdgcl_mesh *mesh = d->mesh;
  d->mu_min = d->mu_max = d->lambda_min = d->lambda_max = NAN;
  if (mesh->num_elements <= 0) return hdgcl_error(HDGCL_ERROR_MESH, "the mesh has no elements");
  HDGCL_TRY(discretisation_check_mixed(d));
  HDGCL_TRY(hdg_problem_check_mesh(d->problem, &d->params, mesh));
  /* Curved geometry of order g: det J has degree dim (g - 1) more than on a
   * straight element (simplices), so every rule gains that much. */
  int extra = mesh->geometry_order > 1 ? mesh->dim * (mesh->geometry_order - 1) : 0;
  /* A mixed mesh (docs/geometry.md, "Mixed meshes"): ref is the widest type's
   * (the one with faces_per_element faces), other_ref the other type's. */
  hdgcl_element_type wide = mesh->type, other = mesh->type;
  if (hdgcl_mesh_is_mixed(mesh))
    for (int i = 0; i < mesh->num_types; i++) {
      hdgcl_element_type t = mesh->types[i];
      hdg_sizes tsz;
      HDGCL_TRY(hdg_sizes_init(t, order, &tsz));
      if (tsz.nfaces == mesh->faces_per_element)
        wide = t;
      else
        other = t;
    }
  HDGCL_TRY(hdg_reference_create(wide, order, extra, &d->ref));
  HDGCL_TRY(hdg_sizes_set_components(&d->ref.sz, hdg_problem_components(d->problem, mesh->dim)));
  if (other != wide) {
    HDGCL_TRY(hdg_reference_create(other, order, extra, &d->other_ref));
    HDGCL_TRY(hdg_sizes_set_components(&d->other_ref.sz, d->ref.sz.ncomp));
    if (d->other_ref.sz.np > d->ref.sz.np || d->other_ref.sz.np1 > d->ref.sz.np1 ||
        d->other_ref.qface.n != d->ref.qface.n)
      return hdgcl_error(HDGCL_ERROR_INTERNAL, "mixed mesh: the %s is not the widest type",
                         hdgcl_element_type_name(wide));
  }
  const hdg_sizes *sz = &d->ref.sz;
  if (d->user) {
    size_t nb = (size_t)(mesh->num_faces - mesh->num_interior_faces) + 1;
    int8_t *bnd = NULL;
    HDGCL_TRY(hdgcl_calloc(3 * nb, 1, "boundary conditions", &bnd));
    int status = hdg_user_problem_bind(d->user, mesh, bnd, bnd + nb, bnd + 2 * nb);
    if (status == HDGCL_SUCCESS)
      status = hdg_numbering_create_with(mesh, sz, NULL, 0, bnd, bnd + nb, bnd + 2 * nb, &d->num);
    free(bnd);
    HDGCL_TRY(status);
  } else {
    HDGCL_TRY(hdg_numbering_create(mesh, sz, d->problem->neumann_tags, d->problem->num_neumann,
                                   &d->num));
  }
  size_t ne = (size_t)mesh->num_elements;
  HDGCL_TRY(hdgcl_calloc(ne, sizeof(double), "kappa", &d->kappa));
  HDGCL_TRY(hdgcl_calloc(ne, sizeof(double), "c", &d->c));
  if (d->problem->vector) {
    HDGCL_TRY(hdgcl_calloc(ne, sizeof(double), "mu", &d->mu));
    HDGCL_TRY(hdgcl_calloc(ne, sizeof(double), "lambda", &d->lambda));
  }
  if (d->user) {
    if (d->user->tensor_kappa)
      HDGCL_TRY(hdgcl_calloc(ne * KAPPA_TENSOR_VALUES(mesh->dim), sizeof(double), "kappa tensors",
                             &d->kappa_tensor));
    HDGCL_TRY(hdg_user_problem_coefficients(d->user, mesh, d->kappa, d->kappa_tensor, d->c, d->mu,
                                            d->lambda));
    if (d->user->any_robin) HDGCL_TRY(discretisation_robin_blocks(d));
  } else {
    HDGCL_TRY(hdg_problem_coefficients(&d->params, mesh, d->kappa, d->c));
    if (d->problem->vector)
      HDGCL_TRY(hdg_problem_lame(&d->params, &d->materials, mesh, d->mu, d->lambda));
  }
  if (d->problem->vector) {
    d->mu_min = d->mu_max = d->mu[0];
    d->lambda_min = d->lambda_max = d->lambda[0];
    for (size_t e = 1; e < ne; e++) {
      d->mu_min = fmin(d->mu_min, d->mu[e]);
      d->mu_max = fmax(d->mu_max, d->mu[e]);
      d->lambda_min = fmin(d->lambda_min, d->lambda[e]);
      d->lambda_max = fmax(d->lambda_max, d->lambda[e]);
    }
  }
  return HDGCL_SUCCESS;
}

int discretisation_create_level(const hdg_discretisation *fine, int order,
                                hdg_discretisation *level) {
  *level = (hdg_discretisation){.mesh = fine->mesh,
                                .problem = fine->problem,
                                .user = fine->user, /* owned by the fine discretisation */
                                .params = fine->params, /* the same PDE: only the degree changes */
                                .materials = fine->materials,
                                .nonsymmetric = fine->nonsymmetric,
                                .tau = fine->tau};
  HDGCL_TRY(discretisation_init(level, order));
  if (level->num.num_unknown_faces != fine->num.num_unknown_faces)
    return hdgcl_error(HDGCL_ERROR_INTERNAL,
                       "p-multigrid level %d: %d unknown faces, the fine level has %d", order,
                       level->num.num_unknown_faces, fine->num.num_unknown_faces);
  return HDGCL_SUCCESS;
}

void discretisation_release(hdg_discretisation *d) {
  hdg_reference_destroy(&d->ref);
  hdg_reference_destroy(&d->other_ref);
  hdg_numbering_destroy(&d->num);
  free(d->kappa);
  free(d->kappa_tensor);
  free(d->robin);
  if (d->owns_user) hdg_user_problem_destroy(&d->user);
  free(d->mu);
  free(d->lambda);
  free(d->c);
  free(d->element_load);
  d->kappa = d->kappa_tensor = d->robin = d->mu = d->lambda = d->c = d->element_load = NULL;
}

int discretisation_robin_blocks(hdg_discretisation *d) {
  const hdgcl_mesh *mesh = d->mesh;
  const hdg_sizes *sz = &d->ref.sz;
  const hdgcl_quadrature *qf = &d->ref.qface;
  int nf = sz->nf, dim = sz->dim;
  size_t nb = (size_t)(mesh->num_faces - mesh->num_interior_faces);
  free(d->robin);
  d->robin = NULL;
  HDGCL_TRY(hdgcl_calloc(nb * nf * nf + 1, sizeof(double), "Robin blocks", &d->robin));
  for (int32_t f = mesh->num_interior_faces; f < mesh->num_faces; f++) {
    if (d->num.face_bc[f] != FACE_ROBIN) continue;
    size_t b = (size_t)(f - mesh->num_interior_faces);
    double *blk = d->robin + b * nf * nf;
    int32_t e = mesh->face_elems[2 * f];
    int lf = mesh->face_local[2 * f], o = mesh->face_orient[2 * f];
    for (int q = 0; q < qf->n; q++) {
      double X[3], x[3], nds[3];
      HDGCL_TRY(hdgcl_face_map_points(discretisation_ref(d, e)->sz.type, lf, o, 1, qf->points + (size_t)q * (dim - 1), X));
      double ds = hdg_face_normal(mesh, e, lf, X, x, nds);
      double alpha = hdg_user_robin_alpha(d->user, d->num.face_cond[b], x);
      if (!(alpha >= 0) || !isfinite(alpha))
        return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                           "%s: Robin coefficient alpha = %g at (%g, %g, %g) (boundary tag %d): "
                           "it must be >= 0",
                           d->user->source, alpha, x[0], x[1], dim == 3 ? x[2] : 0.0,
                           (int)mesh->face_tags[f]);
      const double *psi = d->ref.psi_face + (size_t)q * nf;
      double w = ds * qf->weights[q] * alpha;
      for (int m = 0; m < nf; m++)
        for (int n = 0; n < nf; n++) blk[m * nf + n] += w * psi[m] * psi[n];
    }
  }
  return HDGCL_SUCCESS;
}

void discretisation_coefficients_at(const hdg_discretisation *d, int32_t e, const double *x,
                                    double *kappa, double *c, double *beta) {
  if (d->user && d->user->point_coefficients) {
    hdg_user_coefficients(d->user, hdg_user_element_set(d->user, d->mesh, e), x[0], x[1], x[2],
                          kappa, c, beta);
    return;
  }
  *kappa = d->kappa[e];
  *c = d->c[e];
  problem_beta(d->params, beta);
}
