/* Reference path stages (reference_*.c), driven by reference.c. */
#ifndef HDGCL_HOST_REFERENCE_H
#define HDGCL_HOST_REFERENCE_H

#include "discretisation/discretisation.h"
#include "reference/reference_local.h"
#include "solvers/solver_settings.h" /* SOLVER_*, PRECOND_* */

/* The serial reference path: the same mathematics in plain C, integrated on
 * each physical element (docs/formulation.md sections 3-5).  It reads the
 * discretisation disc and the Krylov method's settings set (solver, rtol, maxit,
 * restart, precond: none, jacobi or block-jacobi) and writes the trace system,
 * the solution, the residual history, iterations, errors, u*'s check and the
 * seconds of the assemble, solve and recover stages into sol (allocated by
 * hdg_solution_create; its other figures are left as they are). */
int reference_solve(const hdg_discretisation *disc, const solver_settings *set, hdg_solution *sol);

/* The same step by step (the trace operator's steps, discretisation/trace_operator.h):
 * assemble (boundary data, local stage, assembly into sol->matrix, sol->rhs),
 * apply (y = A x), solve (CG or GMRES, every face's trace into sol->trace),
 * recover (reference_recover), in that order (trace_operator.c checks it).
 * disc and sol must outlive it. */
typedef struct reference_path {
  const hdg_discretisation *disc;
  solver_settings set;
  hdg_solution *sol;
  double *bvals; /* boundary data [num_faces - num_interior][nfb] */
  double *x;     /* the solved trace unknowns [num_unknown_faces][nfb] */
} reference_path;
int reference_path_create(const hdg_discretisation *disc, const solver_settings *set,
                          hdg_solution *sol, reference_path **out);
int reference_path_assemble(reference_path *rp);
int reference_path_apply(reference_path *rp, const double *x, double *y);
int reference_path_solve(reference_path *rp);
int reference_path_recover(reference_path *rp);
void reference_path_destroy(reference_path **rp);

/* Trace values of Dirichlet faces (L2 projection of g_D) and Neumann loads
 * <g_N, psi_m> of Neumann faces, [num_faces - num_interior][nf], on the host
 * (the device computes the same in cl/pipeline/assemble.cl). */
int reference_boundary_data(const hdg_discretisation *disc, double *bvals);

/* Fills sol->matrix and sol->rhs (F11) from the condensed elements. */
int reference_assemble(const hdg_discretisation *disc, hdg_solution *sol, const double *bvals);
/* Slot of block column `col` in unknown row `row` of the block-ELL pattern
 * (num->block_cols, nslots a row), or -1. */
int reference_block_slot(const hdg_numbering *num, int nslots, int32_t row, int32_t col);

/* Preconditioned CG on sol->matrix; x has rows*nf values (output). */
int reference_cg(const hdg_discretisation *disc, const solver_settings *set, hdg_solution *sol,
                 double *x);
int reference_gmres(const hdg_discretisation *disc, const solver_settings *set, hdg_solution *sol,
                    double *x);

/* u, q (F8)-(F9), u* (F12) from sol->trace, and the error norms, into sol
 * (vector problems: elasticity_recover). */
int reference_recover(const hdg_discretisation *disc, hdg_solution *sol);
/* The solution's error figures from the sums over elements err[6]: squared
 * L2 errors of u, q, u*, the max |u - u_h|, squared norms of u and q. */
void reference_store_errors(const double err[6], hdg_solution *sol);

/* Work arrays of reference_postprocess. */
typedef struct reference_postprocess_work {
  double *gx;   /* [np1][dim] physical gradients at one point */
  double *kst;  /* [np1-1]^2  reduced stiffness */
  double *rhs;  /* [np1]      right-hand side, then u*_1.. */
  double *mphi; /* [np1]      (phi+_j, 1)_K */
  double *kst0; /* [np1-1]^2  the stiffness and right-hand side kept for the */
  double *rhs0; /* [np1]      residual of u*'s check */
  double rmax, rscale; /* the check's residual terms (ustar_check), maxima
                          over the calls since the caller zeroed them */
} reference_postprocess_work;
int reference_postprocess_work_create(const hdg_sizes *sz, reference_postprocess_work *w);
void reference_postprocess_work_destroy(reference_postprocess_work *w);

/* u* (np1 values) on element e from u (np values) and g ([dim][np]):
 * (grad u*, grad w) = (g, grad w) / divisor for w in P_{p+1}, mean of u* = mean
 * of u (F12; divisor = -kappa with g = q; (E10) with g = H_i., divisor = 1). */
int reference_postprocess(const hdg_discretisation *disc, int32_t e, const double *u,
                          const double *g, double divisor, double *ustar,
                          reference_postprocess_work *w);

/* Vector problems (linear elasticity, docs/elasticity.md; reference_elasticity.c). */
typedef struct elasticity_element {
  hdg_sizes sz;
  reference_element scalar; /* M (a, with kappa = 1), B_k, C_k, D, E, H of (E5) */
  double *s0;  /* [np][np]              S0 (E7) */
  double *w0;  /* [np][nt]              W0 (E7) */
  double *k0;  /* [nt][nt]              K0 (E7), one component */
  double *z;   /* [nz][nz]              Z (E8), then its LU factors; nz = (dim+1) np */
  double *wf;  /* [nz][ntb+1]           [Wext | Fext] (E8) */
  double *zs;  /* [nz][ntb+1]           Z^-1 [Wext | Fext] */
  double *k;   /* [ntb][ntb]            K_e (E9) */
  double *g;   /* [ntb]                 g_e (E9) */
  double *y;   /* [np][max(np, nt)]     scratch */
  double *yb;  /* [dim][np][np]         M^-1 B_k (traction faces, (E13)) */
  double *yc;  /* [dim][np][nt]         M^-1 C_k (traction faces, (E13)) */
  double *wt;  /* [nz][ntb+1]           [Wext + P | Fext], traction faces' left factor (E13) */
  int *piv;    /* [nz] */
} elasticity_element;

int elasticity_element_create(const hdg_sizes *sz, elasticity_element *el);
void elasticity_element_destroy(elasticity_element *el);
/* (E5)-(E9) on element e: fills every field. */
int elasticity_element_condense(const hdg_discretisation *disc, int32_t e, elasticity_element *el);
/* Boundary data of face f, nfb values: the projected Dirichlet displacement (E4)
 * or, on a traction face, the load <g_N, psi_m>_F of each component (E12). */
int elasticity_boundary_values(const hdg_discretisation *disc, int32_t f, double *out);
/* u, p, H (E7)-(E8), u* (E10) and the errors (E11) into sol. */
int elasticity_recover(const hdg_discretisation *disc, hdg_solution *sol);

#endif
