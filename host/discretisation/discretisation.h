/* The discrete problem: mesh, PDE, reference tables, numbering and
 * coefficients per element, everything a trace operator needs that knows
 * nothing about devices or solver options (docs/architecture.md).  Both
 * implementations of the operator read it: the reference path (host/reference)
 * and the device pipeline (host/pipeline, through the solver object). */
#ifndef HDGCL_HOST_DISCRETISATION_H
#define HDGCL_HOST_DISCRETISATION_H

#include <stdbool.h>
#include <stdint.h>

#include "fem/hdg.h"
#include "hdgcl/solver.h"
#include "problem/problem.h"

struct hdg_user_problem;

typedef struct hdg_discretisation {
  const hdgcl_mesh *mesh;
  const hdg_problem *problem;
  problem_params params;
  hdg_reference ref; /* sizes and reference tables */
  hdg_numbering num; /* boundary conditions and trace unknowns */
  double tau;
  double *kappa, *c; /* [num_elements]; vector problems: kappa = 1, c = 0 (mu, lambda: below) */
  /* A user's tensor kappa (docs/problems.md): per element K, K^-1 and R,
   * KAPPA_TENSOR_VALUES(dim) values (cl/fem/problems.h), with kappa = 1; else NULL. */
  double *kappa_tensor;
  /* Robin faces' alpha-weighted face mass blocks [num_boundary_faces][nfb][nfb]
   * (docs/problems.md (P3)); NULL when no face is Robin. */
  double *robin;
  /* The user's own problem (host/problem/user_problem.h), or NULL; owned
   * unless shared (p-multigrid levels share the fine solver's). */
  struct hdg_user_problem *user;
  bool owns_user;
  /* Vector problems: Lame parameters per element ([num_elements], from the
   * problem and --material) and their range (NaN for scalar problems; see
   * discretisation_mu0).  nonsymmetric: the trace system is not symmetric
   * (convection, traction data). */
  hdg_materials materials;
  double *mu, *lambda;
  double mu_min, mu_max, lambda_min, lambda_max;
  bool nonsymmetric;
} hdg_discretisation;

/* With mesh, problem, params, user, materials, tau and nonsymmetric set by
 * the caller: checks the mesh against the problem, builds the reference
 * tables at degree `order`, the numbering, the coefficients per element and
 * the Robin blocks. */
int discretisation_init(hdg_discretisation *d, int order);
/* Frees what discretisation_init built, and the user's problem if owned. */
void discretisation_release(hdg_discretisation *d);

/* d->robin: each Robin face's block R_mn = <alpha psi_n, psi_m>_F by the face
 * quadrature (docs/problems.md (P3)), shared by both paths. */
int discretisation_robin_blocks(hdg_discretisation *d);

/* kappa, c and beta (beta[0..2]) at the point x of element e: the user's
 * expressions there with coefficients = points, else the element's kappa
 * and c and the problem's constant beta. */
void discretisation_coefficients_at(const hdg_discretisation *d, int32_t e, const double *x,
                                    double *kappa, double *c, double *beta);

/* docs/elasticity.md (E17): mu0, the smallest mu of the mesh (elements with
 * mu > mu0 carry (mu - mu0) (H^T - tr(H) I) in their stress), and whether
 * some element has mu > mu0 (then the terms of (E17) are built). */
static inline double discretisation_mu0(const hdg_discretisation *d) { return d->mu_min; }
static inline bool discretisation_mu_varies(const hdg_discretisation *d) {
  return d->mu_max > d->mu_min;
}

#endif
