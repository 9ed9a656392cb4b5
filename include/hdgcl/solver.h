/* The HDG solver: one problem on one mesh at one order, on one context.
 *
 *   hdgcl_solver s;
 *   hdgcl_solver_create(ctx, mesh, opts, &s);   // reads the options below
 *   hdgcl_solver_solve(s);                       // local -> assemble -> solve -> recover
 *   const hdgcl_result *r; hdgcl_solver_result(s, &r);
 *   hdgcl_solver_destroy(&s);
 *
 * Options (the same names as `hdgcl solve --NAME VALUE`):
 *   problem   built-in problem name (default helmholtz-sin)
 *   order     polynomial degree p, 0..10 (default 3)
 *   tau       stabilisation, > 0 (default 1)
 *   rtol      relative residual tolerance of the trace solve (default 1e-12)
 *   maxit     iteration limit (default 10000)
 *   solver    cg | gmres: preconditioned CG, or restarted right-preconditioned
 *             GMRES(m) with CGS2 orthogonalisation (default cg)
 *   precond   none | jacobi | block-jacobi | chebyshev | asm (default block-jacobi):
 *             point or face block-Jacobi, a Chebyshev polynomial in the
 *             (block-)Jacobi-preconditioned operator (eigenvalue bounds
 *             estimated by Lanczos), additive Schwarz with element patches
 *   restart   GMRES restart length m, 1..62 (default 30; any on the reference path)
 *   flexible  true: FGMRES even for a fixed preconditioner (default false)
 *   cheb-degree  Chebyshev steps per application, 1..100 (default 4)
 *   cheb-inner   jacobi | block-jacobi: what Chebyshev accelerates (default block-jacobi)
 *   cheb-mixed   true: Chebyshev's products read a single-precision copy of the
 *                matrix (double vectors and sums; needs format bell-i; default false)
 *   format    bell-i (block-ELL with interleaved values: consecutive rows read
 *             consecutive addresses) | bell (block-ELL, row-major blocks) | ell
 *             (scalar ELL) matrix storage (default bell-i)
 *   chunk     elements per local-stage batch; 0 = sized from device memory (default 0)
 *   keep-local true: keep the local solvers of all elements for recovery; false:
 *              recompute them chunk by chunk (default: true if they fit in memory)
 *   scratch   auto | local | global: where the per-element Cholesky factorisations
 *             and block-Jacobi's face-block inversions work (auto: local memory
 *             when it fits)
 *   poly-degree, kappa2, beta, mu, lambda, weight   problem parameters (see hdgcl solve --help)
 *   scheme      transient problems (docs/time.md): be | dirk2 | dirk3 | bdf2 (default dirk2)
 *   time-step   the largest time step, > 0 (default 0.05; the step is final-time / N)
 *   final-time  the end of the integration from t = 0, > 0 (default 1)
 */
#ifndef HDGCL_SOLVER_H
#define HDGCL_SOLVER_H

#include <stdint.h>

#include "hdgcl/device.h"
#include "hdgcl/mesh.h"
#include "hdgcl/options.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hdgcl_solver_s *hdgcl_solver;

/* Names of the options hdgcl_solver_create reads (NULL-terminated). */
extern const char *const hdgcl_solver_options[];

typedef enum hdgcl_stage {
  HDGCL_STAGE_UPLOAD = 0, /* mesh, coefficients and reference tables to the device */
  HDGCL_STAGE_LOCAL,      /* element matrices and Schur complements */
  HDGCL_STAGE_ASSEMBLE,   /* face-parallel assembly of the trace system */
  HDGCL_STAGE_SOLVE,      /* preconditioned Krylov solve (incl. preconditioner setup) */
  HDGCL_STAGE_RECOVER,    /* u, q, postprocessing u*, error norms */
  HDGCL_STAGE_DOWNLOAD,   /* solution back to the host */
  HDGCL_NUM_STAGES
} hdgcl_stage;

typedef struct hdgcl_stage_stats {
  const char *name;
  double seconds;
  double flops; /* floating-point operations counted from the algorithm */
  double bytes; /* bytes the stage must move through device memory */
} hdgcl_stage_stats;

/* One output of a user's problem (docs/problems.md "Outputs"). */
typedef struct hdgcl_output {
  const char *label;  /* as asked, e.g. "flux: cone" */
  const char *names;  /* the values' names, space-separated, e.g. "u qx qy" */
  int num_values;
  double values[12];
} hdgcl_output;

typedef struct hdgcl_result {
  const char *problem;
  char device[256];
  const char *solver;       /* "cg" | "gmres" */
  const char *precond;
  const char *format;
  int restart;              /* GMRES restart length (0 for CG) */
  int cheb_degree;          /* Chebyshev steps (0 for other preconditioners) */
  double eig_min, eig_max;  /* Chebyshev interval of the inner-preconditioned operator */
  int order;
  double tau;
  int64_t num_elements, num_faces, num_unknown_faces;
  int64_t element_dofs;     /* (1 + dim) * Np per element: u and q */
  int64_t trace_dofs;       /* unknowns of the trace system */
  double h;                 /* largest element diameter */
  int iterations;
  double rtol;
  double residual;          /* final relative residual ||b - A x|| / ||b|| */
  int history_length;
  const double *history;    /* relative residual after each iteration, history[0] = 1
                               (GMRES: the least-squares estimate) */
  double l2_u, l2_q, l2_ustar, linf_u; /* errors against the exact solution */
  double norm_u, norm_q;    /* L2 norms of the exact u and q (for relative errors) */
  /* Vector problems (elasticity): l2_u, norm_u are of the displacement u,
   * l2_q, norm_q of the displacement gradient H = grad u, l2_ustar of the
   * postprocessed displacement, l2_p, norm_p of the pressure
   * p = -(mu + lambda) div u; l2_p and norm_p are NaN for scalar problems. */
  double precond_seconds;   /* preconditioner setup, part of the solve stage */
  double setup_seconds;     /* host tables, numbering, kernel compilation, local_invert trial */
  double total_seconds;     /* the stages (excludes setup) */
  hdgcl_stage_stats stages[HDGCL_NUM_STAGES];
  uint64_t device_memory_high_water;
  int64_t chunk_elements;   /* local-stage batch size used */
  int num_chunks;
  const char *local_invert; /* method of Z = S^-1 [W|F]: "cholesky" | "gauss-jordan" |
                               "gauss-jordan-tiled" | "gauss-jordan-solve" | "cholesky-columns" |
                               "cholesky-solve" | "local-element" | "local-element-tiled"
                               (device) */
  int local_invert_wg;      /* its work-group size */
  const char *local_invert_source; /* "trial" (timed in this run), "cache" (the tuning
                                      record), "default" (a mesh too small for a trial),
                                      "environment" (HDGCL_LOCAL_INVERT) */
  const char *local_schur;  /* method of K = K0 - [W|F]^T Z: "local-schur" (cl/pipeline/local.cl),
                               "gemm" (a batched GEMM: local_gemm_k), "element" or
                               "local-element" or "local-element-tiled" (device) */
  const char *local_schur_source; /* as local_invert_source (HDGCL_LOCAL_SCHUR) */
  int local_schur_stage;    /* bytes of local memory in which local-schur stages its work-group's
                               Z (0: it reads Z from global memory); on GPUs where it fits,
                               HDGCL_LOCAL_SCHUR_STAGE=on|off overrides */
  int local_schur_wg;       /* local-schur's work-group size (rows of K; where Z is staged, whole
                               elements: a multiple of the element's NTB + 1) */
  int local_element_wg;     /* work-group size of the one kernel that runs the whole local stage:
                               local_element, one element per work-item (then local_invert and
                               local_schur read "local-element"), or local_element_tiled, one
                               element per work-group of G x G ("local-element-tiled");
                               0: the split kernels (HDGCL_LOCAL_ELEMENT) */
  int local_element_grid;   /* local_element_tiled: G (G x G work-items per element; the group
                               holds local_element_wg / G^2 elements); otherwise 0 */
  const char *local_element_source; /* as local_invert_source; "default" where it does not
                                       apply (convection, elasticity, mapped elements) */
  const char *local_gemm_z; /* the batched GEMM of Z = S^-1 [W|F] after an explicit S^-1 (the
                               methods cholesky, gauss-jordan, gauss-jordan-tiled): "clblast" or
                               cl/core/batched_gemm.cl as "tiled:TMxTN:RMxRN:KB" (device) */
  const char *local_gemm_z_source; /* as local_invert_source (HDGCL_BATCHED_GEMM) */
  const char *local_gemm_k; /* the batched GEMM of K where local_schur is "gemm", as local_gemm_z */
  const char *local_gemm_k_source;
  double l2_p, norm_p;      /* pressure error and norm (vector problems; see above) */
  /* Problem cantilever (no exact solution: the errors and norms above are
   * NaN): the tip deflection, the mean of -u_y (2D) or -u_z (3D) of the trace
   * over the end face x = L, and Euler-Bernoulli's q L^4 / (8 E I) for the
   * mesh's bounding box (plane strain in 2D); NaN for the other problems. */
  double tip_deflection, beam_deflection;
  /* Vector problems: the range of the elements' Lame parameters (one value
   * unless materials vary: --material, elasticity-bimaterial); NaN for the
   * scalar problems. */
  double mu_min, mu_max, lambda_min, lambda_max;
  /* Device: the method of the postprocessed u* (F12): "gauss-jordan-tiled"
   * (registers, affine elements whose system fits) or "cholesky" (packed, by a
   * work-group; $HDGCL_POSTPROCESS=cholesky asks for it), and its work-group
   * size; NULL and 0 on the reference path. */
  const char *postprocess;
  int postprocess_wg;
  /* A user's problem: its outputs in the order asked (none for the built-in
   * problems); without an exact solution its errors and norms are NaN. */
  int num_outputs;
  const hdgcl_output *outputs;
  /* u*'s consistency check (docs/reliability.md), on both paths: the larger
   * of max over elements |mean u* - mean u| / max rms u (the constraint
   * (u*, 1)_K = (u_h, 1)_K of (F12)) and, on affine elements, the residual
   * of u*'s equations relative to their terms' size.  Round-off on a correct
   * run (at most 1e-15 measured, p = 1..10); a solve whose check exceeds 1e-10 fails
   * (HDGCL_ERROR_OPENCL on a device) and keeps no result. */
  double ustar_check;
  /* Times u* was recomputed after its check refused it (device path; 0 or 1:
   * a second refusal fails the solve). */
  int ustar_retries;
  /* A transient problem (docs/time.md): the scheme ("be", "dirk2", "dirk3",
   * "bdf2"), time_steps steps of time_step (final_time / time_steps) from
   * t = 0, stage_solves solves of the trace system in all.  Then iterations
   * is their sum, iterations_max the most of one, residual the largest final
   * residual, stages[] their sums, history the last solve's, and the errors
   * are those at final_time.  NULL and 0 for a steady problem. */
  const char *scheme;
  int time_steps, stage_solves, iterations_max;
  double time_step, final_time;
  /* Newton's method (a nonlinear problem, or --newton true; docs/nonlinear.md):
   * newton_steps steps, the residual norm ||R|| (N4) at the first state and
   * after each step (newton_history[0..newton_steps]), the Krylov iterations
   * of each step (newton_iterations[0..newton_steps-1], summed in
   * iterations), its tolerance newton_rtol (relative to newton_history[0]).
   * 0 and NULL for a linear solve.  A transient nonlinear problem: these
   * are the last stage's, and newton_steps_all the steps of all stages. */
  int newton_steps, newton_steps_all;
  const double *newton_history;
  const int *newton_iterations;
  double newton_rtol;
  /* Element batches of a curved mesh on a device (docs/geometry.md): the
   * elements run on the vertex map (straight-sided, the affine path on
   * simplices) and on the curved mapped path; both 0 for a straight-sided
   * mesh and on the reference path. */
  int64_t straight_elements, curved_elements;
  /* Pseudo-transient continuation (--ptc true; docs/nonlinear.md section 10):
   * ptc_steps of the newton_steps carried the pseudo-time term (N17), with
   * the pseudo time steps ptc_dt_first and, at the last of them, ptc_dt_last.
   * 0 and NaN without it. */
  int ptc_steps;
  double ptc_dt_first, ptc_dt_last;
  /* Neo-Hookean's load steps (docs/nonlinear.md section 11): load_steps
   * increments, the Newton steps of each (load_newton_steps[0..load_steps-1])
   * and their residual histories one after another in load_history (each
   * increment's first ||R|| and one after each of its steps), the line-search
   * halvings over all steps (line_search_halvings_j of them for J <= 0 at a
   * trial state); loaded_face_u the mean displacement of the loaded face
   * x = 1 of neo-hookean-cube (NaN otherwise).  0 and NULL for the other
   * problems. */
  int load_steps, line_search_halvings, line_search_halvings_j;
  const int *load_newton_steps;
  const double *load_history;
  double loaded_face_u[3];
  /* Device memory at the high water by buffer name, largest first
   * (hdgcl_context_memory_breakdown; they sum to device_memory_high_water):
   * num_memory_uses entries, valid while the solver and its context live.
   * 0 and NULL on the reference path. */
  int num_memory_uses;
  const hdgcl_memory_use *memory_uses;
} hdgcl_result;

int hdgcl_solver_create(hdgcl_context ctx, const hdgcl_mesh *mesh, hdgcl_options opts,
                        hdgcl_solver *solver);
int hdgcl_solver_solve(hdgcl_solver solver);
int hdgcl_solver_result(hdgcl_solver solver, const hdgcl_result **result);

/* Host copies of the solution after hdgcl_solver_solve (owned by the solver):
 * u [num_elements][Np], q [num_elements][dim][Np], ustar [num_elements][Np1]
 * (coefficients in the orthonormal basis), trace [num_faces][Nf] (Dirichlet
 * faces hold the projected data).  Any pointer may be NULL.  Vector problems
 * (elasticity, dim components c): u [num_elements][c][Np], q holds H = grad u
 * as [num_elements][c][dim][Np] (H_cj = d_j u_c), ustar [num_elements][c][Np1],
 * trace [num_faces][c][Nf].  A mixed mesh (docs/geometry.md): Np and Np1 are
 * the widest type's (the quadrilateral's); a triangle's row holds its own
 * (p+1)(p+2)/2 and (p+2)(p+3)/2 coefficients first, zeros after them. */
int hdgcl_solver_solution(hdgcl_solver solver, const double **u, const double **q,
                          const double **ustar, const double **trace);

/* The pressure p [num_elements][Np] of a vector problem after
 * hdgcl_solver_solve (owned by the solver); HDGCL_ERROR_ARGUMENT for the
 * scalar problems. */
int hdgcl_solver_pressure(hdgcl_solver solver, const double **p);

/* Vector problems: the Lame parameters of each element, mu[e] and lambda[e]
 * (num_elements each; from the problem and --material or the user's regions),
 * valid until the solver is destroyed; an error for scalar problems. */
int hdgcl_solver_materials(hdgcl_solver solver, const double **mu, const double **lambda);

/* The assembled trace matrix in block-ELL form (host copy, owned by the
 * solver): values [rows][slots][Nf][Nf], block columns [rows][slots] (-1 =
 * empty), right-hand side [rows*Nf].  For tests and matrix export.  For the
 * vector problems *nf is the face block size c * Nf (c components). */
int hdgcl_solver_matrix(hdgcl_solver solver, int *rows, int *slots, int *nf, const double **values,
                        const int32_t **columns, const double **rhs);

/* Writes the trace matrix to PREFIX.mtx and its right-hand side to
 * PREFIX.rhs.mtx (MatrixMarket; rows/columns numbered face row * Nf + mode),
 * both or neither. */
int hdgcl_solver_export_matrix(hdgcl_solver solver, const char *prefix);

/* ParaView file of u, q and u* (vector problems: displacement u, u*, stress,
 * von Mises stress and pressure) on each element subdivided into
 * subdivisions^dim sub-cells (default p+1 when subdivisions <= 0);
 * written atomically.  A path ending in .pvtu writes the ParaView index
 * STEM.pvtu and its one piece STEM_0000.vtu (with a cell field "rank", 0),
 * both or neither: the layout of a distributed solve's output
 * (hdgcl_solver_write_pvtu, hdgcl/mpi.h). */
int hdgcl_solver_write_vtu(hdgcl_solver solver, const char *path, int subdivisions);

int hdgcl_solver_destroy(hdgcl_solver *solver);

/* A transient problem (docs/time.md): fn(data, solver, step, time) is called
 * by hdgcl_solver_solve after each time step (step = 1 .. the number of
 * steps, time its end).  During the call hdgcl_solver_solution,
 * hdgcl_solver_result and hdgcl_solver_write_vtu see that step's solution
 * (errors against the exact u at that time); a nonzero return stops the
 * integration, and hdgcl_solver_solve returns it.  fn = NULL removes it;
 * refused for a steady problem. */
typedef int (*hdgcl_step_fn)(void *data, hdgcl_solver solver, int step, double time);
int hdgcl_solver_set_step_callback(hdgcl_solver solver, hdgcl_step_fn fn, void *data);

#ifdef __cplusplus
}
#endif
#endif
