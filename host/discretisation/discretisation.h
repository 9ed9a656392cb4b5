/* The discrete problem: mesh, PDE, reference tables, numbering and
 * coefficients per element, everything a trace operator needs that knows
 * nothing about devices or solver options (docs/architecture.md).  Both
 * implementations of the operator read it: the reference path (host/reference)
 * and the device pipeline (host/pipeline). */
#ifndef HDGCL_HOST_DISCRETISATION_H
#define HDGCL_HOST_DISCRETISATION_H

#include <stdbool.h>
#include <stdint.h>

#include "core/pinned.h"
#include "fem/hdg.h"
#include "hdgcl/solver.h"
#include "problem/problem.h"

struct hdg_user_problem;

typedef struct hdg_discretisation {
  const hdgcl_mesh *mesh;
  const hdg_problem *problem;
  problem_params params;
  hdg_reference ref; /* sizes and reference tables */
  /* A mixed mesh (docs/geometry.md, "Mixed meshes"): ref is the widest
   * type's (the quadrilateral's), whose np, np1, nt and nslots are the row
   * strides of u, q, u* and of the trace system; other_ref the other type's
   * (the triangle's) at the same p.  Zero for a mesh of one type.  Element
   * e's tables: discretisation_ref(d, e). */
  hdg_reference other_ref;
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
  /* The element load of a time step's stage (docs/time.md (T3)): NULL, or
   * [num_elements][np] values s in each element's basis, whose (s, phi_i)_K
   * both operators add to the load F_i (F16).  Scalar problems only; set
   * before the operator is created (the pipeline compiles for it), freed by
   * discretisation_release. */
  double *element_load;
  double mu_min, mu_max, lambda_min, lambda_max;
  bool nonsymmetric;
  /* The mesh is one rank's part of a distributed solve (host/parallel):
   * figures summed over the whole mesh (the cantilever's tip) are left to
   * that layer, which adds the parts' sums. */
  bool partial;
} hdg_discretisation;

/* The reference tables and sizes of element e's type (d->ref but on a mixed
 * mesh); strides of the solution arrays stay d->ref.sz's. */
static inline const hdg_reference *discretisation_ref(const hdg_discretisation *d, int32_t e) {
  if (d->other_ref.sz.np > 0 && hdgcl_mesh_element_type(d->mesh, e) == d->other_ref.sz.type)
    return &d->other_ref;
  return &d->ref;
}

/* With mesh, problem, params, user, materials, tau and nonsymmetric set by
 * the caller: checks the mesh against the problem, builds the reference
 * tables at degree `order`, the numbering, the coefficients per element and
 * the Robin blocks. */
int discretisation_init(hdg_discretisation *d, int order);
/* *level: fine's mesh, problem, coefficients and trace unknowns at degree
 * `order` (a p-multigrid level; it shares fine's user problem, so fine must
 * outlive it).  Release it with discretisation_release even on failure. */
int discretisation_create_level(const hdg_discretisation *fine, int order,
                                hdg_discretisation *level);
/* u [num_elements][np]: the L2 projection onto each element's basis of a
 * user's transient problem's initial condition, else of the problem's exact
 * u at the time in d->params (projection.c); scalar problems (a transient
 * problem's u at t = 0, docs/time.md). */
int discretisation_project_exact(const hdg_discretisation *d, double *u);

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

/* The host copies of a discrete solution and what a solve measured: what the
 * reference path writes (host/reference) and the driver copies into
 * hdgcl_result; the device pipeline downloads into the arrays. */
typedef struct hdg_solution {
  /* The assembled trace system: block-ELL values [rows][nslots][nfb][nfb],
   * right-hand side [rows*nfb] (nfb = ncomp * nf, hdg_sizes; = nf for the
   * scalar problems). */
  double *matrix, *rhs;
  /* Solution; c = ncomp components (1 for scalar problems). */
  double *trace; /* [num_faces][c][nf] */
  double *u;     /* [num_elements][c][np] */
  double *q;     /* [num_elements][c][dim][np]: q, or H = grad u for the vector problems */
  double *ustar; /* [num_elements][c][np1] */
  double *p;     /* [num_elements][np] pressure of the vector problems (else NULL) */
  double *history; /* relative residuals, history[0] = 1 */
  /* The solve step starts from the trace of the unknown faces in `trace`
   * (a time step's previous stage, docs/time.md (T5)) instead of zero; the
   * residuals stay relative to ||b||. */
  bool initial_guess;
  int history_length, history_capacity;
  /* Called with each residual appended (a progress line), or NULL. */
  void (*on_residual)(void *owner, int iteration, double relres);
  void *on_residual_owner;
  /* As the fields of hdgcl_result of the same names. */
  int iterations;
  double residual;
  double l2_u, l2_q, l2_ustar, linf_u, norm_u, norm_q, l2_p, norm_p;
  double ustar_check, tip_deflection, beam_deflection;
  double stage_seconds[HDGCL_NUM_STAGES];
  /* hdg_solution_pin: u, q, u* and p in pinned host memory of this context
   * (NULL: malloc'd). */
  hdgcl_context pinned_ctx;
  hdgcl_pinned pinned[4];
} hdg_solution;

/* A solve from an initial guess (initial_guess.c, docs/time.md (T5)): the
 * operators solve A d = r0 = b - A x0 and add x0.
 *   gather    x0 [num_unknown_faces * nfb] from sol->trace;
 *   residual  r = b - ax0 over n values; *rtol_r = the tolerance for d relative
 *             to ||r0|| that means rtol relative to ||b||; returns ||r0|| / ||b||
 *             (0 when x0 is exact or b = 0);
 *   finish    after the solve of d: sol->residual and the history recorded from
 *             history_start on, scaled back to be relative to ||b||. */
void initial_guess_gather(const hdg_discretisation *d, const hdg_solution *sol, double *x0);
double initial_guess_residual(size_t n, const double *b, const double *ax0, double *r,
                              double rtol, double *rtol_r);
void initial_guess_finish(hdg_solution *sol, int history_start, double scale);

/* Allocates the arrays of sol (zeroed) for the discretisation d. */
int hdg_solution_create(const hdg_discretisation *d, hdg_solution *sol);
/* Moves u, q, u* and p (zeroed) into pinned host memory of ctx, so the
 * device pipeline's download of them runs at the link's rate (core/pinned.h);
 * hdg_solution_destroy releases it.  No-op if already pinned. */
int hdg_solution_pin(hdg_solution *sol, hdgcl_context ctx, const hdg_discretisation *d);
void hdg_solution_destroy(hdg_solution *sol);
/* Appends a relative residual to sol->history (and tells on_residual). */
int hdg_solution_record_residual(hdg_solution *sol, double relres);

/* After the recovery of a vector problem (either path, discretisation/cantilever.c):
 * the cantilever's figures, errors NaN (no exact solution) and the tip
 * deflection from sol->trace (E15), into sol; nothing for the other problems. */
int elasticity_finish(const hdg_discretisation *disc, hdg_solution *sol);

/* The cantilever's tip figures in two steps, for a mesh in parts
 * (host/parallel): the sums over this mesh (the end faces' integral of the
 * deflection and their area, the bounding box, and where layered, i.e. with
 * more than one material, (E19)'s moments), then the figures from the sums
 * of the whole mesh. */
typedef struct cantilever_sums {
  double sum, area;   /* int -u_{d-1}, int 1 over the end faces (tag 2) */
  double lo[3], hi[3]; /* the bounding box */
  double m[3];        /* sum_e E_e int_e y^k, k = 0, 1, 2 (layered only) */
} cantilever_sums;
bool cantilever_layered(const hdg_discretisation *disc);
int cantilever_partial_sums(const hdg_discretisation *disc, const hdg_solution *sol, bool layered,
                            cantilever_sums *cs);
int cantilever_figures(const hdg_discretisation *disc, const cantilever_sums *cs, bool layered,
                       hdg_solution *sol);

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
/* Sets *check; an error above the tolerance (HDGCL_ERROR_INTERNAL on the
 * reference path, a bug; else HDGCL_ERROR_OPENCL, the device's). */
int ustar_check_finish(const ustar_check *c, bool reference, double *check);

#endif
