/* Reference path, Newton's method for compressible Neo-Hookean
 * hyperelasticity (docs/nonlinear.md section 11), two loads:
 *   - manufactured: u = alpha u_E, u_E the exact displacement of the linear
 *     `elasticity` problem (docs/elasticity.md section 6), the body force
 *     f = -div P(I + grad u) (N24) in closed form, Dirichlet data alpha u_E
 *     and, on the discretisation's traction (FACE_NEUMANN) faces, the exact
 *     traction P(I + grad u) n (N26);
 *   - paper 001's cube (section 5.4): f = 0, u = 0 on the Dirichlet faces,
 *     the traction alpha t0 (t0 = -e_y in 2D, -e_z in 3D) on the traction
 *     faces of tag 2 (x = 1), 0 on the other traction faces;
 * applied in load steps alpha_l = alpha l / N, each solved by Newton's method
 * on the HDG residual (N22) with its exact Jacobian (N23), the element
 * unknowns (H, u) condensed statically as (N6)-(N7), with the scalar
 * Newton's backtracking line search (N11) that also halves a step whose
 * trial state has J <= 0 somewhere (N27). */
#ifndef HDGCL_HOST_REFERENCE_NEO_HOOKEAN_SOLVE_H
#define HDGCL_HOST_REFERENCE_NEO_HOOKEAN_SOLVE_H

#include <stdbool.h>

#include "discretisation/discretisation.h"
#include "solvers/solver_settings.h"

#define NEO_HOOKEAN_HISTORY 4096

enum { NEO_HOOKEAN_MANUFACTURED, NEO_HOOKEAN_CUBE };

typedef struct neo_hookean_settings {
  double mu, lambda; /* Lame parameters (every element) */
  double alpha;      /* manufactured: u = alpha u_E; cube: the traction's size */
  int load;          /* NEO_HOOKEAN_MANUFACTURED or NEO_HOOKEAN_CUBE */
  bool line_search;  /* false: full Newton steps, J <= 0 an error */
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
  int newton_per_step[NEO_HOOKEAN_HISTORY]; /* Newton steps of load step l */
  int halvings;                          /* line-search halvings over all steps */
  int halvings_j;                        /* ... of them for J <= 0 at a trial state */
  double l2_u, l2_h, norm_u, norm_h;     /* ||u - u_h||, ||H - H_h||, ||u||, ||H|| (manufactured) */
  double face_u[3];                      /* cube: the mean displacement of the faces of tag 2 */
} neo_hookean_report;

/* Exact u [d], grad u [d][d] and f [d] (N24) of the manufactured problem at
 * x; returns -1 (f NaN) where its J = det(I + grad u) <= 0, else 0. */
int neo_hookean_exact(int dim, double mu, double lambda, double alpha, const double *x, double *u,
                      double *grad, double *f);

/* Solves on disc (a vector problem's discretisation: ncomp = dim; its
 * FACE_NEUMANN faces are the traction faces, with no fixed components)
 * into sol (u [e][c][N_p], H in q [e][c][dim][N_p], the trace), the trace
 * systems by GMRES with set; the report gets the history and errors.
 * HDGCL_ERROR_CONVERGENCE where a load step does not converge in newton_max
 * steps or the line search finds no decrease; J <= 0 without the line
 * search is reference_neo_hookean_element's error. */
int reference_neo_hookean_solve(const hdg_discretisation *disc, const solver_settings *set,
                                hdg_solution *sol, const neo_hookean_settings *ns,
                                neo_hookean_report *rep);

#endif
