/* Built-in problems (pointwise functions: cl/fem/problems.h). */
#include "problem/problem.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/error.h"

/* Checks one material (docs/elasticity.md (E1)): shear modulus mu > 0 and bulk
 * modulus lambda + 2 mu / d > 0; the latter also keeps epsilon = 1 / (mu + lambda)
 * finite and positive (mu + lambda > mu (1 - 2/d) >= 0).  `what` names where
 * the values came from. */
static int check_lame(const char *what, double mu, double lambda, int dim) {
  if (!(mu > 0) || !isfinite(mu))
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "%s: mu = %g, the shear modulus must be > 0", what, mu);
  if (!(lambda > -2.0 * mu / dim) || !isfinite(lambda))
    return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                       "%s: lambda = %g, the bulk modulus lambda + 2 mu / %d must be > 0 "
                       "(lambda > %g for mu = %g)",
                       what, lambda, dim, -2.0 * mu / dim, mu);
  return HDGCL_SUCCESS;
}

static const hdg_problem problems[] = {
    {{"helmholtz-sin",
      "paper 000 section 5: lap u - u = f on the unit square/cube, u = sin(2 pi x) sin(2 pi y) "
      "[sin(2 pi z)], Dirichlet",
      0, "square:8"},
     PROBLEM_HELMHOLTZ_SIN, {0}, 0, false, false, false, false},
    {{"poisson-mixed",
      "-lap u = f, u = exp(x) sin(pi y) [sin(pi z)]; Neumann on x=1, y=1 [, z=1] (tags 2, 4, 6), "
      "Dirichlet elsewhere",
      0, "square:8"},
     PROBLEM_POISSON_MIXED, {2, 4, 6}, 3, false, false, false, false},
    {{"kappa-jump",
      "-div(kappa grad u) = f, kappa = 1 (x<1/2) | kappa2 (x>1/2, default 10), "
      "u = sin(2 pi x) sin(pi y)/kappa + y, Dirichlet; mesh faces must lie on x = 1/2",
      2, "square:8"},
     PROBLEM_KAPPA_JUMP, {0}, 0, false, false, false, false},
    {{"polynomial",
      "-lap u + u = f, u a polynomial of total degree poly-degree (default: the order), "
      "reproduced exactly; Neumann on x=1, y=1 [, z=1]",
      0, "square:4"},
     PROBLEM_POLYNOMIAL, {2, 4, 6}, 3, false, false, false, false},
    {{"convection-diffusion",
      "-lap u + beta . grad u = f, beta = B (1, 1/2 [, 1/4]) (--beta B, default 10), "
      "u = sin(pi x) sin(pi y) [sin(pi z)], Dirichlet; nonsymmetric: GMRES",
      0, "square:8"},
     PROBLEM_CONVECTION_DIFFUSION, {0}, 0, true, false, false, false},
    {{"elasticity",
      "linear elasticity -div(mu grad u + (mu + lambda) div u I) = f (--mu, --lambda, default 1), "
      "paper 004 section 4.1: u = (x sin(2 pi y) + y cos(2 pi z), ...)/100 (2D: "
      "(x sin(2 pi y) + y cos(2 pi x), y sin(2 pi x) + x cos(2 pi y))/100), Dirichlet",
      0, "square:8"},
     PROBLEM_ELASTICITY, {0}, 0, false, true, false, false},
    {{"elasticity-incompressible",
      "linear elasticity as 'elasticity' with paper 004 section 4.2's div-free u "
      "(Tables 2-3: locking test, try --lambda 1e6), Dirichlet",
      0, "square:8"},
     PROBLEM_ELASTICITY_INCOMPRESSIBLE, {0}, 0, false, true, false, false},
    {{"elasticity-mixed",
      "linear elasticity with the 'elasticity' solution, traction sigma n = g on x=1, y=1 "
      "[, z=1] (tags 2, 4, 6), Dirichlet elsewhere; nonsymmetric: GMRES",
      0, "square:8"},
     PROBLEM_ELASTICITY_MIXED, {2, 4, 6}, 3, true, true, false, false},
    {{"elasticity-linear",
      "linear elasticity with u = A x (a fixed 2x2 [3x3] A: uniform stress, f = 0), traction "
      "on x=1, y=1 [, z=1], Dirichlet elsewhere; reproduced exactly for p >= 1; GMRES",
      0, "square:4"},
     PROBLEM_ELASTICITY_LINEAR, {2, 4, 6}, 3, true, true, false, false},
    {{"cantilever",
      "beam clamped at x = 0 (u = 0), traction-free elsewhere, under its own weight "
      "f = -rho g e_y [e_z] (--weight, default 3.85e-7); nondimensional steel (E = 1, "
      "nu = 0.3: --mu 0.3846 --lambda 0.5769); prints the tip deflection against "
      "Euler-Bernoulli; no exact solution; GMRES: restart 1000 and block-jacobi on "
      "--device ref, restart 62 (the most) and pmg on OpenCL devices",
      0, "square:40x4,size=10x1"},
     PROBLEM_CANTILEVER, {2, 3, 4, 5, 6}, 5, true, true, false, false},
    {{"elasticity-bimaterial",
      "linear elasticity, two materials: (mu, lambda) on x<1/2, R (mu, lambda) on x>1/2 "
      "(--contrast R, default 10); u continuous with continuous traction and nonzero "
      "tangential derivatives on x = 1/2 (docs/elasticity.md section 13); Dirichlet; mesh faces "
      "must lie on x = 1/2",
      0, "square:8"},
     PROBLEM_ELASTICITY_BIMATERIAL, {0}, 0, false, true, false, false},
    {{"heat",
      "transient: u_t - lap u = f on the unit square/cube from t = 0, u = cos(t) sin(pi x) "
      "sin(pi y) [sin(pi z)], u = 0 on the boundary; time stepping with --scheme, --time-step, "
      "--final-time (docs/time.md)",
      0, "square:8"},
     PROBLEM_HEAT, {0}, 0, false, false, true, false},
    {{"heat-boundary",
      "transient: as heat with u = cos(t) sin(pi x) sin(pi y) [sin(pi z)] + sin(t) (x + y [+ z])/2, "
      "Dirichlet data that change in time (DIRK(3,3) shows its order reduction there, "
      "docs/time.md)",
      0, "square:8"},
     PROBLEM_HEAT_BOUNDARY, {0}, 0, false, false, true, false},
    {{"nonlinear-diffusion",
      "nonlinear: -div(kappa(u) grad u) = f, kappa(u) = 1 + a u^2 (--kappa-u2 a, default 1), u = sin(pi x) sin(pi y) "
      "[sin(pi z)] + (x + y [+ z])/2, Dirichlet; Newton's method (--newton-rtol, --newton-max, "
      "--newton-forcing; docs/nonlinear.md); reference path (--device ref)",
      0, "square:8"},
     PROBLEM_NONLINEAR_DIFFUSION, {0}, 0, false, false, false, true},
    {{"nonlinear-heat",
      "transient nonlinear: u_t - div(kappa(u) grad u) = f, kappa(u) = 1 + u^2, u = cos(t) "
      "sin(pi x) sin(pi y) [sin(pi z)] + (x + y [+ z])/2, Dirichlet; every stage of a time step "
      "(--scheme, --time-step, --final-time) a Newton solve (docs/nonlinear.md)",
      0, "square:8"},
     PROBLEM_NONLINEAR_HEAT, {0}, 0, false, false, true, true},
    {{"burgers",
      "nonlinear: viscous Burgers div(F(u)) - nu lap u = f, F(u) = u^2/2 (1, 1 [, 1]) (--nu, "
      "default 0.1), u = sin(pi x) sin(pi y) [sin(pi z)] + (x + y [+ z])/2, Dirichlet; Newton's "
      "method (docs/nonlinear.md section 9)",
      0, "square:8"},
     PROBLEM_BURGERS, {0}, 0, false, false, false, true},
    {{"burgers-transient",
      "transient nonlinear: u_t + div(F(u)) - nu lap u = f as burgers with u = cos(t) sin(pi x) "
      "sin(pi y) [sin(pi z)] + (x + y [+ z])/2; every stage a Newton solve (--scheme, "
      "--time-step, --final-time; docs/nonlinear.md section 9)",
      0, "square:8"},
     PROBLEM_BURGERS_TRANSIENT, {0}, 0, false, false, true, true},
    {{"neo-hookean",
      "nonlinear: compressible Neo-Hookean hyperelasticity -div P(I + grad u) = f (paper 001 "
      "(30), --mu, --lambda), u = A u_E with the 'elasticity' problem's u_E (--load-scale A, "
      "default 1), Dirichlet, in --load-steps N; 2D plane strain; Newton's method "
      "(docs/nonlinear.md section 11); --device ref only",
      0, "square:8"},
     PROBLEM_NEO_HOOKEAN, {0}, 0, true, true, false, true},
    {{"neo-hookean-mixed",
      "nonlinear: neo-hookean's manufactured u = A u_E with the exact traction P(I + grad u) n "
      "on x=1, y=1 [, z=1] (tags 2, 4, 6), Dirichlet elsewhere (--load-scale A, --load-steps N; "
      "docs/nonlinear.md section 11); --device ref only",
      0, "square:8"},
     PROBLEM_NEO_HOOKEAN_MIXED, {2, 4, 6}, 3, true, true, false, true},
    {{"neo-hookean-cube",
      "nonlinear: paper 001's Neo-Hookean cube (section 5.4; --mu, --lambda, default 1; tau "
      "default 10): clamped at x = 0, "
      "the traction t = -A e_z (2D: -A e_y) on x = 1 (--load-scale A, default 0.1), "
      "traction-free elsewhere, in --load-steps N increments (default 5), Newton's method with "
      "a line search per increment; prints the loaded face's mean displacement; no exact "
      "solution (docs/nonlinear.md section 11); --device ref only",
      0, "hex:2"},
     PROBLEM_NEO_HOOKEAN_CUBE, {2, 3, 4, 5, 6}, 5, true, true, false, true},
    {{"burgers-paper001",
      "nonlinear: paper 001's viscous Burgers (section 5.1, eq. 27): u_y + (u^2/2)_x - nu lap u "
      "= 0 (--nu, default 1/200), u = 1 - 2x on x = 0, x = 1, y = 0, outflow (zero viscous "
      "flux) on y = 1; no exact solution (the errors are against 1 - 2x); Newton's method "
      "(docs/nonlinear.md section 12)",
      2, "quad:16"},
     PROBLEM_BURGERS_PAPER001, {4}, 1, false, false, false, true},
};
enum { NUM_PROBLEMS = sizeof problems / sizeof problems[0] };

int hdgcl_problem_count(void) { return NUM_PROBLEMS; }

const hdgcl_problem_info *hdgcl_problem_get(int i) {
  return (i >= 0 && i < NUM_PROBLEMS) ? &problems[i].info : NULL;
}

int hdg_problem_find(const char *name, const hdg_problem **problem) {
  for (int i = 0; i < NUM_PROBLEMS; i++)
    if (strcmp(problems[i].info.name, name) == 0) {
      *problem = &problems[i];
      return HDGCL_SUCCESS;
    }
  char list[256] = "";
  for (int i = 0; i < NUM_PROBLEMS; i++) {
    if (i) strncat(list, ", ", sizeof list - strlen(list) - 1);
    strncat(list, problems[i].info.name, sizeof list - strlen(list) - 1);
  }
  return hdgcl_error(HDGCL_ERROR_ARGUMENT, "--problem %s: unknown problem (known: %s)", name, list);
}

int hdg_problem_params(const hdg_problem *problem, hdgcl_options opts, int order, int dim,
                       problem_params *params) {
  *params = (problem_params){.id = problem->id, .dim = dim, .degree = order, .param = 10.0};
  HDGCL_TRY(hdgcl_options_get_int(opts, "poly-degree", order, 0, 20, &params->degree));
  double kappa2, beta, mu, lambda, weight, contrast, kappa_u2, nu;
  /* The cantilever's defaults: steel (E = 200 GPa, nu = 0.3, rho = 7850 kg/m^3,
   * g = 9.81 m/s^2) with stresses in units of E and lengths in units of the
   * beam height H = 1 m: mu = E / (2 (1 + nu)), lambda = E nu / ((1 + nu) (1 - 2 nu)),
   * rho g H / E (docs/elasticity.md section 9, (E14)). */
  bool beam = problem->id == PROBLEM_CANTILEVER;
  HDGCL_TRY(hdgcl_options_get_real(opts, "kappa2", 10.0, 1e-12, 1e12, &kappa2));
  HDGCL_TRY(hdgcl_options_get_real(opts, "beta", 10.0, -1e6, 1e6, &beta));
  HDGCL_TRY(hdgcl_options_get_real(opts, "mu", beam ? 1.0 / 2.6 : 1.0, -1e300, 1e300, &mu));
  HDGCL_TRY(hdgcl_options_get_real(opts, "lambda", beam ? 0.3 / (1.3 * 0.4) : 1.0, -1e300, 1e300,
                                   &lambda));
  HDGCL_TRY(hdgcl_options_get_real(opts, "weight", 7850.0 * 9.81 / 200e9, -1e300, 1e300, &weight));
  HDGCL_TRY(hdgcl_options_get_real(opts, "contrast", 10.0, 1e-6, 1e6, &contrast));
  HDGCL_TRY(hdgcl_options_get_real(opts, "kappa-u2", 1.0, -1e6, 1e6, &kappa_u2));
  HDGCL_TRY(hdgcl_options_get_real(opts, "nu", problem->id == PROBLEM_BURGERS_PAPER001 ? 1.0 / 200.0 : 0.1,
                                   -1e300, 1e300, &nu));
  if (!isfinite(weight))
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "--weight %g: must be a finite number", weight);
  if (problem->id == PROBLEM_KAPPA_JUMP) params->param = kappa2;
  if (problem->id == PROBLEM_CONVECTION_DIFFUSION) params->param = beta;
  if (beam) params->param = weight;
  if (problem->transient) params->param = 0.0; /* the time, set by the time stepper */
  if (problem->id == PROBLEM_ELASTICITY_BIMATERIAL) params->param = contrast;
  if (problem->id == PROBLEM_NONLINEAR_DIFFUSION) params->param = kappa_u2;
  if (PROBLEM_IS_BURGERS(problem->id)) { /* the viscosity of (N14) */
    if (!(nu > 0) || !isfinite(nu))
      return hdgcl_error(HDGCL_ERROR_ARGUMENT, "--nu %g: the viscosity of problem %s must be > 0",
                         nu, problem->info.name);
    params->nu = nu;
  }
  if (problem->vector) {
    HDGCL_TRY(check_lame("--mu, --lambda", mu, lambda, dim));
    params->mu = mu;
    params->lambda = lambda;
  }
  return HDGCL_SUCCESS;
}

int hdg_problem_check_mesh(const hdg_problem *problem, const problem_params *params,
                           const hdgcl_mesh *mesh) {
  if (problem->info.dim != 0 && mesh->dim != problem->info.dim)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "problem %s is posed in %dD, the mesh is %dD",
                       problem->info.name, problem->info.dim, mesh->dim);
  if (problem->id == PROBLEM_KAPPA_JUMP || problem->id == PROBLEM_ELASTICITY_BIMATERIAL) {
    /* Every element must lie on one side of x = 1/2, so kappa (mu, lambda) is constant on it. */
    for (int32_t e = 0; e < mesh->num_elements; e++) {
      bool left = false, right = false;
      for (int a = 0; a < hdgcl_mesh_element_verts(mesh, e); a++) { /* e's own (a mixed mesh) */
        double x = mesh->coords[(size_t)mesh->elem_verts[(size_t)e * mesh->verts_per_element + a] *
                                mesh->dim];
        if (x < 0.5 - 1e-12) left = true;
        if (x > 0.5 + 1e-12) right = true;
      }
      if (left && right)
        return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                           "problem %s needs element faces on x = 1/2, element %d crosses "
                           "it (use an even number of cells in x)",
                           problem->info.name, (int)e);
    }
  }
  (void)params;
  return HDGCL_SUCCESS;
}

void hdg_problem_centroid(const hdgcl_mesh *mesh, int32_t e, double *x) {
  /* a mixed mesh: e's own nv vertices of its row of verts_per_element */
  int d = mesh->dim, stride = mesh->verts_per_element, nv = hdgcl_mesh_element_verts(mesh, e);
  x[0] = x[1] = x[2] = 0.0;
  for (int a = 0; a < nv; a++)
    for (int k = 0; k < d; k++)
      x[k] += mesh->coords[(size_t)mesh->elem_verts[(size_t)e * stride + a] * d + k] / nv;
}

int hdg_problem_coefficients(const problem_params *params, const hdgcl_mesh *mesh, double *kappa,
                             double *c) {
  for (int32_t e = 0; e < mesh->num_elements; e++) {
    double x[3];
    hdg_problem_centroid(mesh, e, x);
    kappa[e] = problem_kappa(*params, x[0], x[1], x[2]);
    c[e] = problem_c(*params, x[0], x[1], x[2]);
    if (!(kappa[e] > 0) || !(c[e] >= 0) || !isfinite(kappa[e]) || !isfinite(c[e]))
      return hdgcl_error(HDGCL_ERROR_ARGUMENT, "element %d: kappa = %g, c = %g (need kappa > 0, c >= 0)",
                         (int)e, kappa[e], c[e]);
  }
  return HDGCL_SUCCESS;
}

int hdg_problem_read_materials(const hdg_problem *problem, hdgcl_options opts, int dim,
                               hdg_materials *materials) {
  memset(materials, 0, sizeof *materials);
  const char *text;
  HDGCL_TRY(hdgcl_options_get_string(opts, "material", "", &text));
  if (!*text) return HDGCL_SUCCESS;
  if (!problem->vector)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                       "--material %s: problem %s has no Lame parameters (elasticity problems only)",
                       text, problem->info.name);
  const char *at = text;
  while (*at) {
    if (materials->count == HDG_MAX_MATERIALS)
      return hdgcl_error(HDGCL_ERROR_ARGUMENT, "--material %s: more than %d materials", text,
                         HDG_MAX_MATERIALS);
    hdg_material *m = &materials->m[materials->count];
    long tag;
    int used = 0;
    if (sscanf(at, "%ld:%lf:%lf%n", &tag, &m->mu, &m->lambda, &used) != 3 || used == 0 ||
        (at[used] != ',' && at[used] != '\0') || tag < 0 || tag > INT32_MAX)
      return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                         "--material %s: expected TAG:MU:LAMBDA[,TAG:MU:LAMBDA...] with element "
                         "tags >= 0 (at '%s')",
                         text, at);
    m->tag = (int32_t)tag;
    for (int i = 0; i < materials->count; i++)
      if (materials->m[i].tag == m->tag)
        return hdgcl_error(HDGCL_ERROR_ARGUMENT, "--material %s: tag %d given twice", text,
                           (int)m->tag);
    char what[64];
    snprintf(what, sizeof what, "--material tag %d", (int)m->tag);
    HDGCL_TRY(check_lame(what, m->mu, m->lambda, dim));
    materials->count++;
    at += used;
    if (*at == ',') at++;
  }
  return HDGCL_SUCCESS;
}

int hdg_problem_lame(const problem_params *params, const hdg_materials *materials,
                     const hdgcl_mesh *mesh, double *mu, double *lambda) {
  int used[HDG_MAX_MATERIALS] = {0};
  for (int32_t e = 0; e < mesh->num_elements; e++) {
    double x[3];
    hdg_problem_centroid(mesh, e, x);
    problem_elasticity_material(*params, x, &mu[e], &lambda[e]);
    int32_t tag = mesh->elem_tags ? mesh->elem_tags[e] : 0;
    for (int i = 0; i < materials->count; i++)
      if (materials->m[i].tag == tag) {
        mu[e] = materials->m[i].mu;
        lambda[e] = materials->m[i].lambda;
        used[i] = 1;
      }
  }
  for (int i = 0; i < materials->count; i++)
    if (!used[i])
      return hdgcl_error(HDGCL_ERROR_ARGUMENT, "--material: no element of the mesh has tag %d",
                         (int)materials->m[i].tag);
  return HDGCL_SUCCESS;
}
