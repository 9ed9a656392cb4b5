/* A user's own problem (docs/problems.md): the PDE, its coefficients,
 * source, boundary conditions per boundary tag, optional exact solution and
 * the outputs to compute, all as expressions (expr.h) read from options
 * (the same names on the command line, in the C API and in a problem file,
 * problem_file.c).  The expressions are evaluated on the host (reference
 * path, element coefficients, checks) and emitted as OpenCL C compiled into
 * the kernels (user_problem_emit.c), where cl/fem/problems.h dispatches to them
 * for PROBLEM_USER.
 *
 * Coefficients kappa, c (scalar) and mu, lambda (elasticity) are constant on
 * each element: the expression (or the element's region's) at its centroid;
 * kappa may be a symmetric tensor, a matrix of expressions (user_kappa.h).
 * beta is a constant vector.  f, the body force and all boundary data are
 * evaluated at every quadrature point. */
#ifndef HDGCL_HOST_USER_PROBLEM_H
#define HDGCL_HOST_USER_PROBLEM_H

#include <stdbool.h>
#include <stdint.h>

#include "problem/expr.h"
#include "hdgcl/mesh.h"
#include "hdgcl/options.h"
#include "problem/problem.h"
#include "problem/user_kappa.h"

/* The option names a user's problem reads: HDG_USER_PROBLEM_OPTION_NAMES,
 * also part of hdgcl_solver_options (host/drivers/solver.c), and the same list
 * NULL-terminated. */
#define HDG_USER_PROBLEM_OPTION_NAMES                                                            \
  "problem-file", "pde", "constants", "kappa", "c", "f", "beta", "mu", "lambda", "body-force",   \
      "exact", "exact-grad", "bc", "bc-default", "region", "output", "coefficients", "transient",   \
      "initial"
extern const char *const hdg_user_problem_options[];

#define HDG_USER_MAX_CONDITIONS 64 /* boundary conditions (face_cond is int8) */
#define HDG_USER_MAX_REGIONS 64
#define HDG_USER_MAX_OUTPUTS 64
#define HDG_USER_MAX_CONSTANTS 64
#define HDG_USER_MAX_TAGS 32 /* tags of one condition or output */

/* Boundary condition kinds.  Scalar: u = g; kappa du/dn = g; alpha u + kappa
 * du/dn = g.  Elasticity: displacement u = g; traction sigma n = g; per
 * component (docs/problems.md (P4)): u_c = g_c for the fixed components c,
 * (sigma n)_c = g_c for the others (a roller: u . n = 0 on faces normal to
 * an axis, the tangential traction 0). */
enum { USER_BC_DIRICHLET = 0, USER_BC_NEUMANN, USER_BC_ROBIN, USER_BC_COMPONENTS };

/* Output kinds (docs/problems.md section "Outputs"). */
enum { USER_OUT_FLUX = 0, USER_OUT_INTEGRAL, USER_OUT_POINT, USER_OUT_REACTION, USER_OUT_VON_MISES };

/* Variables of the expressions: coefficients and sources see x, y, z;
 * boundary data also the outward unit normal nx, ny, nz; integrals also the
 * solution u, its gradient ux, uy, uz and the flux q = -kappa grad u.  A
 * transient problem's exact solution, source and boundary data also see the
 * time t (docs/time.md); nothing else may. */
enum { USER_X = 0, USER_Y, USER_Z, USER_NX, USER_NY, USER_NZ, USER_T, USER_NUM_BOUNDARY_VARS };
enum { USER_U = 3, USER_UX, USER_UY, USER_UZ, USER_QX, USER_QY, USER_QZ, USER_NUM_INTEGRAND_VARS };

typedef struct hdg_user_condition {
  char tags[256];        /* as written: tag names or numbers separated by commas */
  int32_t tag_ids[HDG_USER_MAX_TAGS];
  int num_tags;
  int kind;              /* USER_BC_* */
  hdg_expr *value[3];    /* g, one per component (elasticity: dim of them); per
                            component: u_c's or (sigma n)_c's data, NULL for 0 */
  int num_values;        /* components given (elasticity: 1, or the mesh's dim) */
  hdg_expr *alpha;       /* Robin */
  int fixed;             /* USER_BC_COMPONENTS: bit c set if u_c is given */
  bool roller;           /* USER_BC_COMPONENTS: u . n = 0, the fixed bit from each face's normal */
} hdg_user_condition;

typedef struct hdg_user_region {
  char tag[64];
  int32_t tag_id;
  hdg_user_kappa kappa;   /* not given: the problem's own */
  hdg_expr *c, *mu, *lambda; /* NULL: the problem's own */
} hdg_user_region;

typedef struct hdg_user_output {
  int kind;              /* USER_OUT_* */
  char label[300];       /* as written, e.g. "flux:cone" */
  char tags[256];        /* flux, reaction: boundary tags; integral: region tag ("" all) */
  int32_t tag_ids[HDG_USER_MAX_TAGS];
  int num_tags;
  hdg_expr *integrand;   /* integral */
  double point[3];       /* point */
  const char *names;     /* filled by solver_outputs (host/drivers/outputs.c): the values' names */
  int num_values;
  double values[12];     /* flux: 1; integral: 1; point: u, q (or u and grad u per component);
                            reaction: dim; von-mises: max and its point */
  int32_t element;       /* point: the element the point was found in (-1: none; a rank's
                            part of a distributed solve leaves the values NaN then) */
} hdg_user_output;

typedef struct hdg_user_problem {
  hdg_problem problem;   /* name, vector, nonsymmetric: what the solver sees */
  char source[256];      /* where the definition came from (a file or "options") */
  int num_constants;
  char constant_names[HDG_USER_MAX_CONSTANTS][32];
  double constant_values[HDG_USER_MAX_CONSTANTS];
  hdg_user_kappa kappa;  /* scalar PDE: kappa, a scalar or a tensor */
  bool tensor_kappa;     /* kappa or a region's is a matrix (hdg_user_problem_coefficients' K) */
  /* kappa(u): a scalar kappa that uses u (docs/nonlinear.md), an expression of
   * x, y, z, u (variables 0..3), and its symbolic derivative in u; the
   * problem is then nonlinear and kappa above is 1 (NULL: a linear kappa). */
  hdg_expr *kappa_u, *dkappa_u;
  hdg_expr *c, *f, *beta[3];
  double beta_value[3];
  hdg_expr *mu, *lambda, *force[3];   /* elasticity */
  hdg_expr *exact[3], *exact_grad[3][3]; /* exact solution (NULL: none) */
  bool has_exact;
  hdg_expr *initial;     /* transient: u at t = 0 (NULL: the exact solution's) */
  int num_conditions;    /* the default, if any, is the last */
  bool has_default;
  hdg_user_condition conditions[HDG_USER_MAX_CONDITIONS];
  int num_regions;
  hdg_user_region regions[HDG_USER_MAX_REGIONS];
  int num_outputs;
  hdg_user_output outputs[HDG_USER_MAX_OUTPUTS];
  bool point_coefficients; /* kappa, c, beta at quadrature points ("coefficients") */
  int dim;               /* set by hdg_user_problem_bind */
  bool any_robin;
} hdg_user_problem;

/* True if the options ask for a user's problem: "problem-file" given, or
 * "problem" = "user". */
bool hdg_user_problem_requested(hdgcl_options opts);

/* Reads the problem file (if any) and the options into a new definition.
 * Options given explicitly win over the file's entries.  Every expression is
 * parsed here: errors name the option or file entry and the column. */
int hdg_user_problem_create(hdgcl_options opts, hdg_user_problem **up);
void hdg_user_problem_destroy(hdg_user_problem **up);

/* Resolves tags against the mesh and fixes the dimension: every boundary
 * face must have a condition (or the default), every tag named must exist.
 * Fills bnd_bc[b] (FACE_*), bnd_cond[b] and bnd_fixed[b] (the components a
 * per-component face fixes: bit c for u_c, hdg_numbering.face_fixed) for
 * the boundary faces; a roller face must be normal to x, y or z. */
int hdg_user_problem_bind(hdg_user_problem *up, const hdgcl_mesh *mesh, int8_t *bnd_bc,
                          int8_t *bnd_cond, int8_t *bnd_fixed);

/* Element coefficients at the centroids (region overrides applied), checked:
 * kappa > 0, c >= 0 (scalar); mu > 0, lambda > -2 mu / d (elasticity).  With
 * tensor_kappa, kappa[e] = 1 and ktensor[e] holds KAPPA_TENSOR_VALUES(d)
 * values, K, K^-1 and R (K = R R^T), of the symmetric positive definite K
 * (hdg_user_kappa_factor); ktensor is NULL otherwise. */
int hdg_user_problem_coefficients(const hdg_user_problem *up, const hdgcl_mesh *mesh,
                                  double *kappa, double *ktensor, double *c, double *mu,
                                  double *lambda);

/* The index of element e's region in up->regions, or -1: the coefficient
 * set passed to user_coefficients (hdg_user_coefficients on the host). */
int hdg_user_element_set(const hdg_user_problem *up, const hdgcl_mesh *mesh, int32_t e);

/* Robin alpha at a boundary point of condition cond (0 for other kinds). */
double hdg_user_robin_alpha(const hdg_user_problem *up, int cond, const double *x);
/* A transient problem's u at t = 0 at (x, y, z): its "initial" expression, else
 * its exact solution at t = 0 (docs/time.md). */
double hdg_user_initial(const hdg_user_problem *up, double x, double y, double z);

/* The OpenCL C prelude defining HDGCL_USER_PROBLEM and the user_* functions
 * cl/fem/problems.h calls (malloc'd; user_problem_emit.c). */
int hdg_user_problem_emit(const hdg_user_problem *up, char **source);

/* kappa(u) of a nonlinear problem at the point (x, y, z), and *dk = kappa'(u)
 * (up->kappa_u must be set). */
double hdg_user_kappa_u(const hdg_user_problem *up, double x, double y, double z, double u,
                        double *dk);

#endif
