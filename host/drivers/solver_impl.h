/* The solver object shared by the reference path (reference_*.c) and the
 * device pipeline (local.c, assemble.c, solve.c, recover.c). */
#ifndef HDGCL_HOST_SOLVER_IMPL_H
#define HDGCL_HOST_SOLVER_IMPL_H

#include <stdbool.h>

#include "core/context.h"
#include "fem/hdg.h"
#include "hdgcl/solver.h"
#include "problem/problem.h"
#include "solvers/linear_system.h"   /* FORMAT_* */
#include "solvers/solver_settings.h" /* SOLVER_*, PRECOND_* */

enum { SCRATCH_AUTO = 0, SCRATCH_LOCAL = 1, SCRATCH_GLOBAL = 2 };

/* True if a per-element work array of `bytes` must go to global memory. */
bool solver_scratch_global(hdgcl_solver s, size_t bytes);

/* u*'s consistency check (host/pipeline/recover.c), on both paths.  Per element e
 * the values of cl/pipeline/recover.cl's CHECK_VALUES: sums[c] = (u*_c - u_c, 1)_K,
 * sums[ncomp + c] = (u_c^2, 1)_K, sums[2 ncomp] = |K|, sums[2 ncomp + 1] =
 * max_i |r_i| and sums[2 ncomp + 2] = max_i (sum_j |A_ij u*_j| + |b_i|) for
 * the residual r = A u* - b of u*'s equations (F12) (0, 0 where not
 * computed).  The check is the larger of
 *   max_e |mean u* - mean u| / max_e rms u  (the constraint of (F12); not
 *   / max_e |mean u|, which is 0 for sin(2 pi x) on quad:1) and
 *   max_e max_i |r_i| / max_e max_i (sum_j |A_ij u*_j| + |b_i|);
 * above USTAR_CHECK_TOL the solve fails (docs/reliability.md). */
#define USTAR_CHECK_TOL 1e-10
typedef struct ustar_check {
  double dmean, umean, rmax, rscale; /* maxima over the elements (umean: rms u) */
  int32_t dmean_elem, rmax_elem;
} ustar_check;
void ustar_check_element(ustar_check *c, int32_t e, int ncomp, const double *sums);
/* Sets s->result.ustar_check; an error above the tolerance. */
int ustar_check_finish(hdgcl_solver s, const ustar_check *c);

typedef struct device_pipeline device_pipeline; /* pipeline.c */

struct hdgcl_solver_s {
  hdgcl_context ctx;
  const hdgcl_mesh *mesh;
  const hdg_problem *problem;
  problem_params params;
  hdg_reference ref;  /* sizes and reference tables */
  hdg_numbering num;  /* boundary conditions and trace unknowns */
  double tau, rtol;
  int maxit;
  int precond, format;  /* PRECOND_*, FORMAT_* */
  int solver;           /* SOLVER_CG / SOLVER_GMRES */
  int restart;          /* GMRES(m): m */
  bool flexible;        /* FGMRES even for a fixed preconditioner */
  int cheb_degree;      /* Chebyshev: inner preconditioner applications per apply */
  int cheb_inner;       /* Chebyshev: PRECOND_JACOBI or PRECOND_BLOCK_JACOBI */
  int pmg_smooth;       /* p-multigrid: Chebyshev smoothing steps before and after the correction */
  int pmg_coarse;       /* p-multigrid: coarsest degree, 0 or 1 */
  bool cheb_mixed;      /* Chebyshev: products with a single-precision copy of the matrix */
  int64_t chunk_option; /* 0 = automatic */
  int keep_local;       /* -1 automatic, 0 recompute, 1 keep */
  int scratch;          /* SCRATCH_AUTO / _LOCAL / _GLOBAL: where per-element factorisations work */
  double *kappa, *c;    /* [num_elements]; vector problems: kappa = 1, c = 0 (mu, lambda: below) */
  /* A user's tensor kappa (docs/problems.md): per element K, K^-1 and R,
   * KAPPA_TENSOR_VALUES(dim) values (cl/fem/problems.h), with kappa = 1; else NULL. */
  double *kappa_tensor;
  /* Robin faces' alpha-weighted face mass blocks [num_boundary_faces][nfb][nfb]
   * (docs/problems.md (P3)); NULL when no face is Robin. */
  double *robin;
  /* The user's own problem (host/problem/user_problem.h), or NULL. */
  struct hdg_user_problem *user;
  bool owns_user;
  hdgcl_output *outputs; /* [user->num_outputs], result.outputs */       /* false in p-multigrid levels, which share the fine solver's */
  /* Vector problems: Lame parameters per element ([num_elements], from the
   * problem and --material; their range is in result.mu_min .. lambda_max,
   * see solver_mu0).  nonsymmetric: the trace system is not symmetric
   * (convection, traction data). */
  hdg_materials materials;
  double *mu, *lambda;
  bool nonsymmetric;

  /* The assembled trace system (host copies, filled by both paths):
   * block-ELL values [rows][nslots][nfb][nfb], right-hand side [rows*nfb]
   * (nfb = ncomp * nf, hdg_sizes; = nf for the scalar problems). */
  double *matrix, *rhs;
  /* Solution (host copies); c = ncomp components (1 for scalar problems). */
  double *trace;  /* [num_faces][c][nf] */
  double *u;      /* [num_elements][c][np] */
  double *q;      /* [num_elements][c][dim][np]: q, or H = grad u for the vector problems */
  double *ustar;  /* [num_elements][c][np1] */
  double *p;      /* [num_elements][np] pressure of the vector problems (else NULL) */
  double *history;
  int history_capacity;
  bool solved;
  hdgcl_result result;
  device_pipeline *dev;
};

/* docs/elasticity.md (E17): mu0, the smallest mu of the mesh (elements with
 * mu > mu0 carry (mu - mu0) (H^T - tr(H) I) in their stress), and whether
 * some element has mu > mu0 (then the terms of (E17) are built). */
static inline double solver_mu0(const struct hdgcl_solver_s *s) { return s->result.mu_min; }
static inline bool solver_mu_varies(const struct hdgcl_solver_s *s) {
  return s->result.mu_max > s->result.mu_min;
}

/* The serial reference path: the same mathematics in plain C, integrated on
 * each physical element (docs/formulation.md sections 3-5). */
int reference_solve(hdgcl_solver s);

/* The device pipeline (pipeline.c drives local.c, assemble.c, solve.c, recover.c). */
int pipeline_create(hdgcl_solver s);
int pipeline_solve(hdgcl_solver s);
void pipeline_destroy(hdgcl_solver s);
/* Copies the device's trace matrix and right-hand side into s->matrix, s->rhs. */
int pipeline_download_matrix(hdgcl_solver s);
/* Upload, local stage and assembly only (a p-multigrid level): the assembled
 * trace system stays on the device, in s->dev->assemble, where its solve
 * stage s->dev->krylov reads it. */
int pipeline_assemble_only(hdgcl_solver s);

/* An internal solver on the same mesh, problem, coefficients and options at
 * degree `order` with preconditioner `precond_kind` (and Chebyshev degree
 * cheb_degree where that is Chebyshev) and local-stage batches of at most
 * `chunk` elements: a p-multigrid level (precond_pmg.c).  Its Krylov method
 * is CG, or GMRES(gmres_restart) when gmres_restart > 0 (the nonsymmetric
 * coarsest level without hypre).
 * Its trace unknowns are numbered as the fine solver's. */
int solver_create_level(hdgcl_solver fine, int order, int precond_kind, int cheb_degree,
                        int gmres_restart, int64_t chunk, hdgcl_solver *level);

/* Appends a relative residual to the history. */
int solver_record_residual(hdgcl_solver s, double relres);
/* The solver's options that the trace solve reads (host/solvers). */
solver_settings solver_krylov_settings(const struct hdgcl_solver_s *s);

/* Trace values of Dirichlet faces (L2 projection of g_D) and Neumann loads
 * <g_N, psi_m> of Neumann faces, [num_faces - num_interior][nf], on the host
 * (the reference path; the device computes the same in cl/pipeline/assemble.cl). */
int reference_boundary_data(hdgcl_solver s, double *bvals);

/* s->robin: each Robin face's block R_mn = <alpha psi_n, psi_m>_F by the face
 * quadrature (docs/problems.md (P3)), shared by both paths. */
int solver_robin_blocks(hdgcl_solver s);

/* kappa, c and beta (beta[0..2]) at the point x of element e: the user's
 * expressions there with coefficients = points, else the element's kappa
 * and c and the problem's constant beta. */
void solver_coefficients_at(hdgcl_solver s, int32_t e, const double *x, double *kappa, double *c,
                            double *beta);

/* The user's outputs from the host copies of the solution (host/drivers/outputs.c). */
int solver_outputs(hdgcl_solver s);

#endif
