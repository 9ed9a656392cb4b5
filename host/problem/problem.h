/* Built-in problem table: names, boundary conditions and parameters of the
 * problems whose pointwise functions are in cl/fem/problems.h. */
#ifndef HDGCL_HOST_PROBLEM_H
#define HDGCL_HOST_PROBLEM_H

#include <stdbool.h>
#include <stdint.h>

#include "hdgcl/mesh.h"
#include "hdgcl/options.h"
#include "hdgcl/problem.h"
#include "cl/fem/problems.h"

typedef struct hdg_problem {
  hdgcl_problem_info info;
  int id;                    /* PROBLEM_* of cl/fem/problems.h */
  int32_t neumann_tags[6];   /* boundary tags with Neumann data; all others Dirichlet */
  int num_neumann;
  bool nonsymmetric;         /* convection: the local and trace matrices are not symmetric */
  bool vector;               /* elasticity: dim components (docs/elasticity.md) */
  bool transient;            /* u_t + (the steady operator) = f: solved by time stepping
                                (docs/time.md); params.param is the time */
  bool nonlinear;            /* kappa(u): solved by Newton's method (docs/nonlinear.md) */
} hdg_problem;

/* Solution components of the problem in dimension dim: 1, or dim for a vector problem. */
static inline int hdg_problem_components(const hdg_problem *problem, int dim) {
  return problem->vector ? dim : 1;
}

/* The problem named `name`; error lists the known names. */
int hdg_problem_find(const char *name, const hdg_problem **problem);

/* Parameters of the instance in dimension dim: reads "poly-degree" (default:
 * the order), "kappa2", "beta", "mu" and "lambda" from opts; refuses bad
 * material data of the vector problems (mu <= 0, lambda <= -2 mu / dim). */
int hdg_problem_params(const hdg_problem *problem, hdgcl_options opts, int order, int dim,
                       problem_params *params);

/* Refuses meshes the problem cannot be posed on (wrong dimension, a kappa
 * jump not aligned with element faces), naming the problem and the reason. */
int hdg_problem_check_mesh(const hdg_problem *problem, const problem_params *params,
                           const hdgcl_mesh *mesh);

/* Materials by element tag (--material TAG:MU:LAMBDA[,...], docs/elasticity.md
 * section 13); elements of other tags keep the problem's own. */
#define HDG_MAX_MATERIALS 16
typedef struct hdg_material {
  int32_t tag;
  double mu, lambda;
} hdg_material;
typedef struct hdg_materials {
  int count;
  hdg_material m[HDG_MAX_MATERIALS];
} hdg_materials;

/* Reads "material" from opts (empty: none); refuses it for the scalar
 * problems, malformed text, repeated tags and bad
 * values (mu <= 0, lambda <= -2 mu / dim). */
int hdg_problem_read_materials(const hdg_problem *problem, hdgcl_options opts, int dim,
                               hdg_materials *materials);

/* Lame parameters of each element of a vector problem: the problem's own at
 * the centroid (problem_elasticity_material), replaced by the material of the
 * element's tag where one is given (both checked already, by hdg_problem_params
 * and hdg_problem_read_materials; the problem's own keep mu > 0 and the bulk
 * modulus > 0: elasticity-bimaterial scales both by its contrast R > 0);
 * refuses tags that no element has. */
int hdg_problem_lame(const problem_params *params, const hdg_materials *materials,
                     const hdgcl_mesh *mesh, double *mu, double *lambda);

/* x[0..2] = the centroid of element e (the mean of its vertices; x[2] = 0 in 2D):
 * where every coefficient constant per element is sampled. */
void hdg_problem_centroid(const hdgcl_mesh *mesh, int32_t e, double *x);

/* Element coefficients kappa and c, evaluated at each element's centroid. */
int hdg_problem_coefficients(const problem_params *params, const hdgcl_mesh *mesh, double *kappa,
                             double *c);

#endif
