/* The cantilever's figures from a solution (docs/elasticity.md section 9):
 * host arithmetic on the discretisation and the trace, the same after
 * either implementation of the trace operator. */
#include <math.h>

#include "core/error.h"
#include "discretisation/discretisation.h"
#include "fem/face_map.h"
#include "problem/problem_elasticity.h"

/* Young's modulus of element e, E' = E / (1 - nu^2) in 2D (plane strain). */
static double young_modulus(const hdg_discretisation *disc, int32_t e) {
  double mu = disc->mu[e], lambda = disc->lambda[e];
  double young = mu * (3 * lambda + 2 * mu) / (lambda + mu), nu = lambda / (2 * (lambda + mu));
  return disc->ref.sz.dim == 2 ? young / (1 - nu * nu) : young;
}

/* Cantilever (docs/elasticity.md section 9, (E15)): the tip deflection, mean of
 * -u_{d-1} of the trace over the end faces (tag 2, x = L), and Euler-Bernoulli's
 * w = q L^4 / (8 E I) with q = rho g H B, I = B H^3 / 12 over the mesh's
 * bounding box (L along x, H along the load, B = 1 in 2D, else the y extent),
 * E' = E / (1 - nu^2) in 2D (plane strain); with materials per element, E I of
 * the layered section (E19).  The sums over this mesh's faces and elements
 * (a distributed solve adds them over the ranks' parts, docs/mpi.md): */
int cantilever_partial_sums(const hdg_discretisation *disc, const hdg_solution *sol, bool layered,
                            cantilever_sums *cs) {
  const hdgcl_mesh *mesh = disc->mesh;
  const hdg_sizes *sz = &disc->ref.sz;
  const hdgcl_quadrature *qf = &disc->ref.qface;
  int d = sz->dim, nf = sz->nf, nfb = sz->nfb;
  *cs = (cantilever_sums){0};
  for (int32_t f = mesh->num_interior_faces; f < mesh->num_faces; f++) {
    if (mesh->face_tags[f] != 2) continue;
    int32_t e = mesh->face_elems[2 * f];
    int lf = mesh->face_local[2 * f], o = mesh->face_orient[2 * f];
    const double *tr = sol->trace + (size_t)f * nfb + (size_t)(d - 1) * nf;
    for (int q = 0; q < qf->n; q++) {
      double X[3], x[3], nds[3];
      HDGCL_TRY(hdgcl_face_map_points(discretisation_ref(disc, e)->sz.type, lf, o, 1,
                                      qf->points + (size_t)q * (d - 1), X));
      double w = qf->weights[q] * hdg_face_normal(mesh, e, lf, X, x, nds);
      const double *psi = disc->ref.psi_face + (size_t)q * nf;
      double v = 0.0;
      for (int m = 0; m < nf; m++) v += psi[m] * tr[m];
      cs->sum += w * v;
      cs->area += w;
    }
  }
  for (int k = 0; k < d; k++) cs->lo[k] = cs->hi[k] = mesh->coords[k];
  for (int32_t v = 0; v < mesh->num_vertices; v++)
    for (int k = 0; k < d; k++) {
      double x = mesh->coords[(size_t)v * d + k];
      cs->lo[k] = fmin(cs->lo[k], x);
      cs->hi[k] = fmax(cs->hi[k], x);
    }
  if (!layered) return HDGCL_SUCCESS;
  /* (E19): layers across the load direction: sum E int 1, E int y, E int y^2
   * (y: the coordinate along the load) */
  for (int32_t e = 0; e < mesh->num_elements; e++) {
    const hdgcl_quadrature *qe = &discretisation_ref(disc, e)->qerr; /* e's type's */
    double young = young_modulus(disc, e);
    for (int k = 0; k < qe->n; k++) {
      double x[3], jac[9];
      double wq = young * qe->weights[k] * hdg_map(mesh, e, qe->points + (size_t)k * d, x, jac);
      cs->m[0] += wq;
      cs->m[1] += wq * x[d - 1];
      cs->m[2] += wq * x[d - 1] * x[d - 1];
    }
  }
  return HDGCL_SUCCESS;
}

/* The figures from the sums (of the whole mesh). */
int cantilever_figures(const hdg_discretisation *disc, const cantilever_sums *cs, bool layered,
                       hdg_solution *sol) {
  int d = disc->ref.sz.dim;
  if (!(cs->area > 0))
    return hdgcl_error(HDGCL_ERROR_MESH, "cantilever: the mesh has no end face x = L (tag 2)");
  double len = cs->hi[0] - cs->lo[0], height = cs->hi[d - 1] - cs->lo[d - 1];
  double width = d == 3 ? cs->hi[1] - cs->lo[1] : 1.0;
  double q = disc->params.param * height * width, stiffness; /* E I */
  if (!layered) /* one material */
    stiffness = young_modulus(disc, 0) * width * height * height * height / 12;
  else /* (E19): E I = (1/L) sum_e E_e int_e (y - y_n)^2, y_n = sum_e E_e int_e y / sum_e E_e |e| */
    stiffness = (cs->m[2] - cs->m[1] * cs->m[1] / cs->m[0]) / len;
  sol->tip_deflection = -cs->sum / cs->area;
  sol->beam_deflection = q * len * len * len * len / (8 * stiffness);
  return HDGCL_SUCCESS;
}

bool cantilever_layered(const hdg_discretisation *disc) {
  return !(disc->mu_min == disc->mu_max && disc->lambda_min == disc->lambda_max);
}

static int cantilever_tip(const hdg_discretisation *disc, hdg_solution *sol) {
  cantilever_sums cs;
  bool layered = cantilever_layered(disc);
  HDGCL_TRY(cantilever_partial_sums(disc, sol, layered, &cs));
  return cantilever_figures(disc, &cs, layered, sol);
}

int elasticity_finish(const hdg_discretisation *disc, hdg_solution *sol) {
  if (elasticity_has_exact(&disc->params)) return HDGCL_SUCCESS;
  hdg_solution *r = sol;
  r->l2_u = r->l2_q = r->l2_p = r->l2_ustar = r->linf_u = NAN;
  r->norm_u = r->norm_q = r->norm_p = NAN;
  if (disc->partial) return HDGCL_SUCCESS; /* a rank's part: the sums are the ranks' together */
  return cantilever_tip(disc, sol);
}
