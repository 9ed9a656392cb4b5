/* Reference path, Newton's method for compressible Neo-Hookean
 * hyperelasticity (docs/nonlinear.md section 11): the manufactured problem
 * u = alpha u_E, u_E the exact displacement of the linear `elasticity`
 * problem (docs/elasticity.md section 6), Dirichlet data on the whole
 * boundary, the body force f = -div P(I + grad u) (N24) in closed form;
 * applied in load steps alpha_l = alpha l / N, each solved by Newton's method
 * on the HDG residual (N22) with its exact Jacobian (N23), the element
 * unknowns (H, u) condensed statically as (N6)-(N7). */
#ifndef HDGCL_HOST_REFERENCE_NEO_HOOKEAN_SOLVE_H
#define HDGCL_HOST_REFERENCE_NEO_HOOKEAN_SOLVE_H

#include "discretisation/discretisation.h"
#include "solvers/solver_settings.h"

#define NEO_HOOKEAN_HISTORY 256

typedef struct neo_hookean_settings {
  double mu, lambda; /* Lame parameters (every element) */
  double alpha;      /* the displacement's scale: u = alpha u_E */
  int load_steps;    /* N >= 1 */
  int newton_max;    /* Newton steps per load step */
  double newton_rtol; /* ||R|| <= rtol ||R_0|| of each load step (or 1e-13) */
} neo_hookean_settings;

typedef struct neo_hookean_report {
  int newton_steps;                      /* over all load steps */
  int iterations;                        /* GMRES iterations over all steps */
  int history_length;                    /* entries of history: ||R|| (N4) before each step */
  double history[NEO_HOOKEAN_HISTORY];   /* ... and after the last, per load step in sequence */
  int step_start[NEO_HOOKEAN_HISTORY];   /* load step l's first history entry */
  int iterations_per_step[NEO_HOOKEAN_HISTORY]; /* GMRES iterations of the step ending at entry i */
  double l2_u, l2_h, norm_u, norm_h;     /* ||u - u_h||, ||H - H_h||, ||u||, ||H|| */
} neo_hookean_report;

/* Exact u [d], grad u [d][d] and f [d] (N24) of the manufactured problem at
 * x; returns -1 (f NaN) where its J = det(I + grad u) <= 0, else 0. */
int neo_hookean_exact(int dim, double mu, double lambda, double alpha, const double *x, double *u,
                      double *grad, double *f);

/* Solves on disc (the `elasticity` problem's discretisation: ncomp = dim)
 * into sol (u [e][c][N_p], H in q [e][c][dim][N_p], the trace), the trace
 * systems by GMRES with set; the report gets the history and errors.
 * HDGCL_ERROR_CONVERGENCE where a load step does not converge in newton_max
 * steps; J <= 0 is reference_neo_hookean_element's error. */
int reference_neo_hookean_solve(const hdg_discretisation *disc, const solver_settings *set,
                                hdg_solution *sol, const neo_hookean_settings *ns,
                                neo_hookean_report *rep);

#endif
