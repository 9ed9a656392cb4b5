/* Built-in problem table: names, boundary conditions and parameters of the
 * problems whose pointwise functions are in cl/problems.h. */
#ifndef HDGCL_HOST_PROBLEM_H
#define HDGCL_HOST_PROBLEM_H

#include <stdbool.h>
#include <stdint.h>

#include "hdgcl/mesh.h"
#include "hdgcl/options.h"
#include "hdgcl/problem.h"
#include "problems.h"

typedef struct hdg_problem {
  hdgcl_problem_info info;
  int id;                    /* PROBLEM_* of cl/problems.h */
  int32_t neumann_tags[6];   /* boundary tags with Neumann data; all others Dirichlet */
  int num_neumann;
  bool nonsymmetric;         /* convection: the local and trace matrices are not symmetric */
  bool vector;               /* elasticity: dim components (docs/elasticity.md) */
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

/* Element coefficients kappa and c, evaluated at each element's centroid. */
int hdg_problem_coefficients(const problem_params *params, const hdgcl_mesh *mesh, double *kappa,
                             double *c);

#endif
