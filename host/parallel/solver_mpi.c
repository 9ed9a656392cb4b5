/* The distributed steady linear solve (include/hdgcl/mpi.h, docs/mpi.md).
 *
 * Each rank holds its part of the mesh (partition.c) and a solver on it:
 * discretisation and device pipeline exactly as a serial solve's, the cut
 * faces numbered as interior unknown faces with one neighbour.  The part's
 * assembly gives every row of its own interior faces and, on a cut face,
 * the part's share of the row (its element's contribution); the global
 * matrix is the sum of the parts' matrices (a subassembled operator).  The
 * CG of krylov_mpi.c solves it on the devices (vectors there, only the cut
 * faces' blocks exchanged); the trace stays in the pipeline's solution
 * vector (trace_operator_set_trace(NULL)) for the recovery of u, q, u*, and
 * the error norms are summed over the ranks. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/context.h"
#include "core/error.h"
#include "drivers/solver_impl.h"
#include "drivers/time_stepping.h"
#include "hdgcl/mpi.h"
#include "parallel/krylov_mpi.h"
#include "parallel/partition.h"
#include "parallel/solver_mpi.h"
#include "pipeline/pipeline.h"
#include "pipeline/pipeline_operator.h"
#include "problem/problem_elasticity.h"
#include "problem/user_problem.h"

typedef struct parallel_solve {
  parallel_part part;
  mpi_krylov_stats krylov; /* the last solve's exchange figures (this rank's) */
  double halo_max, reduce_max, hidden_max; /* the slowest rank's, and */
  int64_t halo_bytes;          /* all ranks' sent bytes */
  double *rank_seconds; /* [size][HDGCL_NUM_STAGES] each rank's stage seconds of the last solve */
  bool timed;           /* rank_seconds holds a solve's */
} parallel_solve;

/* The global figures: error norms summed as squares (their maximum for the
 * max norm and u*'s check), counts summed over owned faces, the slowest
 * rank's stage seconds. */
static int reduce_figures(hdgcl_solver s, parallel_solve *ps) {
  hdg_solution *sol = &s->sol;
  MPI_Comm comm = ps->part.comm;
  /* elasticity's pressure error and norm too (NaN for scalar problems) */
  double sq[7] = {sol->l2_u,   sol->l2_q,   sol->l2_ustar, sol->norm_u,
                  sol->norm_q, sol->l2_p,   sol->norm_p};
  for (int i = 0; i < 7; i++) sq[i] *= sq[i];
  MPI_TRY(MPI_Allreduce(MPI_IN_PLACE, sq, 7, MPI_DOUBLE, MPI_SUM, comm));
  sol->l2_u = sqrt(sq[0]);
  sol->l2_q = sqrt(sq[1]);
  sol->l2_ustar = sqrt(sq[2]);
  sol->norm_u = sqrt(sq[3]);
  sol->norm_q = sqrt(sq[4]);
  sol->l2_p = sqrt(sq[5]);
  sol->norm_p = sqrt(sq[6]);
  double mx[2] = {sol->linf_u, sol->ustar_check};
  MPI_TRY(MPI_Allreduce(MPI_IN_PLACE, mx, 2, MPI_DOUBLE, MPI_MAX, comm));
  sol->linf_u = mx[0];
  sol->ustar_check = mx[1];
  MPI_TRY(MPI_Allgather(sol->stage_seconds, HDGCL_NUM_STAGES, MPI_DOUBLE, ps->rank_seconds,
                        HDGCL_NUM_STAGES, MPI_DOUBLE, comm));
  ps->timed = true;
  double ex[3] = {ps->krylov.halo_seconds, ps->krylov.reduce_seconds, ps->krylov.hidden_seconds};
  MPI_TRY(MPI_Allreduce(MPI_IN_PLACE, ex, 3, MPI_DOUBLE, MPI_MAX, comm));
  ps->halo_max = ex[0];
  ps->reduce_max = ex[1];
  ps->hidden_max = ex[2];
  ps->halo_bytes = ps->krylov.halo_bytes;
  MPI_TRY(MPI_Allreduce(MPI_IN_PLACE, &ps->halo_bytes, 1, MPI_INT64_T, MPI_SUM, comm));
  MPI_TRY(MPI_Allreduce(MPI_IN_PLACE, sol->stage_seconds, HDGCL_NUM_STAGES, MPI_DOUBLE, MPI_MAX, comm));
  return HDGCL_SUCCESS;
}

/* The cantilever's tip deflection (docs/elasticity.md (E15)): the end faces'
 * integral and area, the bounding box and the layered section's moments
 * summed over the ranks' parts (MPI_SUM, MIN, MAX), then the serial formula.
 * The material range is the whole mesh's (global_counts). */
static int cantilever_tip(hdgcl_solver s, MPI_Comm comm) {
  const hdgcl_result *r = &s->result;
  bool layered = !(r->mu_min == r->mu_max && r->lambda_min == r->lambda_max);
  cantilever_sums cs;
  HDGCL_TRY(cantilever_partial_sums(&s->disc, &s->sol, layered, &cs));
  double sums[5] = {cs.sum, cs.area, cs.m[0], cs.m[1], cs.m[2]};
  MPI_TRY(MPI_Allreduce(MPI_IN_PLACE, sums, 5, MPI_DOUBLE, MPI_SUM, comm));
  MPI_TRY(MPI_Allreduce(MPI_IN_PLACE, cs.lo, 3, MPI_DOUBLE, MPI_MIN, comm));
  MPI_TRY(MPI_Allreduce(MPI_IN_PLACE, cs.hi, 3, MPI_DOUBLE, MPI_MAX, comm));
  cs.sum = sums[0], cs.area = sums[1], cs.m[0] = sums[2], cs.m[1] = sums[3], cs.m[2] = sums[4];
  return cantilever_figures(&s->disc, &cs, layered, &s->sol);
}

/* Assembly and the distributed trace solve, the trace left in the pipeline's
 * solution vector and sol->trace for the recovery.  From an initial guess
 * (a time step's stage, docs/time.md (T5)) the guess is sol->trace, as in
 * the serial solve (pipeline.c's krylov_solve_from_guess). */
static int assemble_and_solve(hdgcl_solver s, parallel_solve *ps) {
  device_pipeline *pl = pipeline_operator_pipeline(&s->op);
  if (!pl) return hdgcl_error(HDGCL_ERROR_INTERNAL, "a distributed solve without a device pipeline");
  HDGCL_TRY(trace_operator_assemble(&s->op));
  double t = hdgcl_wtime();
  if (s->sol.initial_guess && pl->krylov.n > 0) {
    size_t n = (size_t)s->disc.num.num_unknown_faces * s->disc.ref.sz.nfb;
    double *x0;
    HDGCL_TRY(hdgcl_calloc(n, sizeof *x0, "initial guess", &x0));
    initial_guess_gather(&s->disc, &s->sol, x0);
    int status = hdgcl_buffer_write(pl->ctx, &pl->krylov.x, 0, n * 8, x0);
    free(x0);
    HDGCL_TRY(status);
  }
  /* every rank takes part in the collectives, also one without unknowns */
  HDGCL_TRY(mpi_krylov_solve(&pl->krylov, &ps->part, &s->disc.num, s->precond, s->maxit, s->rtol,
                             s->sol.initial_guess, &s->sol, &ps->krylov));
  s->sol.stage_seconds[HDGCL_STAGE_SOLVE] += hdgcl_wtime() - t;
  return trace_operator_set_trace(&s->op, NULL);
}

/* One stage of a time step (drivers/time_stepping.c's stage_solve). */
static int stage_steps(hdgcl_solver s, void *data) { return assemble_and_solve(s, data); }

static int solve_steps(hdgcl_solver s, void *data) {
  parallel_solve *ps = data;
  solver_figures_to_solution(s);
  int status;
  if (s->disc.problem->transient) {
    /* each stage's solve distributed (stage_steps); the errors at the final
     * time are the last recovery's, reduced below */
    HDGCL_TRY_GOTO(status, time_stepping_run(s), done);
  } else {
    HDGCL_TRY_GOTO(status, assemble_and_solve(s, ps), done);
    HDGCL_TRY_GOTO(status, trace_operator_recover(&s->op), done);
  }
  if (s->disc.problem->vector && !elasticity_has_exact(&s->disc.params))
    HDGCL_TRY_GOTO(status, cantilever_tip(s, ps->part.comm), done);
  HDGCL_TRY_GOTO(status, reduce_figures(s, ps), done);
done:
  solver_figures_to_result(s);
  if (status == HDGCL_SUCCESS && s->precond == PRECOND_CHEBYSHEV) {
    s->result.eig_min = ps->krylov.eig_min;
    s->result.eig_max = ps->krylov.eig_max;
  }
  return status;
}

/* The user's outputs (docs/problems.md "Outputs"), each computed on the
 * rank's part (host/drivers/outputs.c), made the whole mesh's: fluxes and
 * integrals summed; the largest von Mises stress and its point from the rank
 * that has it (MPI_MAXLOC); a point's values from the rank holding the
 * element of the lowest global number that contains it, the element the
 * serial search finds (MPI_MINLOC), so a point on a face between elements
 * gives the serial value.  Reactions are refused (check_supported). */
static int reduce_outputs(hdgcl_solver s, void *data) {
  parallel_solve *ps = data;
  MPI_Comm comm = ps->part.comm;
  hdg_user_problem *up = s->disc.user;
  for (int i = 0; i < up->num_outputs; i++) {
    hdg_user_output *o = &up->outputs[i];
    int n = o->num_values, from;
    if (o->kind == USER_OUT_FLUX || o->kind == USER_OUT_INTEGRAL) {
      MPI_TRY(MPI_Allreduce(MPI_IN_PLACE, o->values, n, MPI_DOUBLE, MPI_SUM, comm));
      continue;
    }
    if (o->kind == USER_OUT_VON_MISES) {
      struct { double value; int rank; } best = {o->values[0], ps->part.rank};
      MPI_TRY(MPI_Allreduce(MPI_IN_PLACE, &best, 1, MPI_DOUBLE_INT, MPI_MAXLOC, comm));
      from = best.rank;
    } else if (o->kind == USER_OUT_POINT) {
      struct { int element, rank; } first = {o->element >= 0 ? ps->part.elem_global[o->element]
                                                             : INT32_MAX, ps->part.rank};
      MPI_TRY(MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_2INT, MPI_MINLOC, comm));
      if (first.element == INT32_MAX)
        return hdgcl_error(HDGCL_ERROR_ARGUMENT, "output '%s': the point (%g, %g, %g) is not in "
                           "the mesh", o->label, o->point[0], o->point[1],
                           s->disc.ref.sz.dim == 3 ? o->point[2] : 0.0);
      from = first.rank;
    } else {
      return hdgcl_error(HDGCL_ERROR_INTERNAL, "output '%s' of a distributed solve", o->label);
    }
    MPI_TRY(MPI_Bcast(o->values, n, MPI_DOUBLE, from, comm));
  }
  return HDGCL_SUCCESS;
}

static void free_steps(void *data) {
  parallel_solve *ps = data;
  if (!ps) return;
  parallel_part_destroy(&ps->part);
  free(ps->rank_seconds);
  free(ps);
}

/* The result's counts of the whole problem (the solver's are its part's). */
static int global_counts(hdgcl_solver s, parallel_solve *ps) {
  hdgcl_result *r = &s->result;
  int64_t owned_rows = 0;
  for (int32_t u = 0; u < s->disc.num.num_unknown_faces; u++)
    owned_rows += ps->part.face_owned[s->disc.num.unknown_face[u]];
  int64_t c[2] = {owned_rows, r->element_dofs};
  MPI_TRY(MPI_Allreduce(MPI_IN_PLACE, c, 2, MPI_INT64_T, MPI_SUM, ps->part.comm));
  MPI_TRY(MPI_Allreduce(MPI_IN_PLACE, &r->h, 1, MPI_DOUBLE, MPI_MAX, ps->part.comm));
  /* the range of the Lame parameters over all elements (NaN for scalar problems) */
  if (s->disc.problem->vector) {
    double lo[2] = {r->mu_min, r->lambda_min}, hi[2] = {r->mu_max, r->lambda_max};
    MPI_TRY(MPI_Allreduce(MPI_IN_PLACE, lo, 2, MPI_DOUBLE, MPI_MIN, ps->part.comm));
    MPI_TRY(MPI_Allreduce(MPI_IN_PLACE, hi, 2, MPI_DOUBLE, MPI_MAX, ps->part.comm));
    r->mu_min = lo[0], r->lambda_min = lo[1], r->mu_max = hi[0], r->lambda_max = hi[1];
  }
  r->num_elements = ps->part.global_elements;
  r->num_faces = ps->part.global_faces;
  r->num_unknown_faces = (int32_t)c[0];
  r->trace_dofs = c[0] * s->disc.ref.sz.nfb;
  r->element_dofs = c[1];
  return HDGCL_SUCCESS;
}

/* What the distributed solve does not do yet (docs/mpi.md), refused by name. */
static int check_supported(hdgcl_solver s) {
  if (hdgcl_context_is_reference(s->ctx))
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "a distributed solve runs on OpenCL devices, not on "
                       "the reference path (--device ref)");
  const char *what = s->newton ? "a nonlinear problem (Newton's method)" : NULL;
  for (int i = 0; s->disc.user && !what && i < s->disc.user->num_outputs; i++)
    if (s->disc.user->outputs[i].kind == USER_OUT_REACTION)
      what = "a reaction output (its virtual-work weights need the vertices of other ranks' faces)";
  if (what)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "a distributed solve of %s is not done yet "
                       "(docs/mpi.md): linear problems only", what);
  if (s->precond != PRECOND_NONE && s->precond != PRECOND_JACOBI &&
      s->precond != PRECOND_BLOCK_JACOBI && s->precond != PRECOND_CHEBYSHEV &&
      s->precond != PRECOND_ASM)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "a distributed solve has --solver cg or gmres with "
                       "--precond none, jacobi, block-jacobi, chebyshev or asm only (docs/mpi.md)");
  if (s->disc.problem->nonsymmetric && s->solver != SOLVER_GMRES)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "problem %s is nonsymmetric: use --solver gmres",
                       s->disc.problem->info.name);
  return HDGCL_SUCCESS;
}

/* A user's problem checked against the whole mesh: every tag it names exists
 * and every boundary face has a condition.  Each rank's part has a subset of
 * the tags, which its own check takes on trust (user_problem.c). */
static int check_user_problem(const hdgcl_mesh *mesh, hdgcl_options opts) {
  if (!opts || !hdg_user_problem_requested(opts)) return HDGCL_SUCCESS;
  hdg_user_problem *up;
  HDGCL_TRY(hdg_user_problem_create(opts, &up));
  size_t nb = (size_t)(mesh->num_faces - mesh->num_interior_faces);
  int8_t *bnd = NULL;
  int status = hdgcl_calloc(3 * nb + 1, sizeof *bnd, "boundary conditions", &bnd);
  if (status == HDGCL_SUCCESS) status = hdg_user_problem_bind(up, mesh, bnd, bnd + nb, bnd + 2 * nb);
  free(bnd);
  hdg_user_problem_destroy(&up);
  return status;
}

int hdgcl_solver_create_mpi(hdgcl_context ctx, const hdgcl_mesh *mesh, hdgcl_options opts,
                            MPI_Comm comm, hdgcl_solver *solver) {
  if (!ctx || !mesh || !solver)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "hdgcl_solver_create_mpi: NULL argument");
  *solver = NULL;
  parallel_solve *ps;
  HDGCL_TRY(hdgcl_calloc(1, sizeof *ps, "distributed solve", &ps));
  hdgcl_solver s = NULL;
  int status;
  /* the order weights the elements of a mixed mesh (partition.c); an order
   * the solver refuses is refused below by hdgcl_solver_create */
  int order = 3;
  if (opts && hdgcl_options_get_int(opts, "order", 3, 0, 1 << 20, &order) != HDGCL_SUCCESS) order = 3;
  HDGCL_TRY_GOTO(status, check_user_problem(mesh, opts), fail);
  HDGCL_TRY_GOTO(status, parallel_partition(comm, mesh, order, &ps->part), fail);
  HDGCL_TRY_GOTO(status, hdgcl_calloc((size_t)ps->part.size * HDGCL_NUM_STAGES,
                                      sizeof *ps->rank_seconds, "stage seconds", &ps->rank_seconds), fail);
  HDGCL_TRY_GOTO(status, hdgcl_solver_create(ctx, ps->part.mesh, opts, &s), fail);
  s->solve_steps = solve_steps;
  s->stage_steps = stage_steps;
  s->reduce_outputs = reduce_outputs;
  s->solve_steps_data = ps;
  s->disc.partial = true; /* figures of the whole mesh are reduced here (the cantilever's tip) */
  s->solve_steps_free = free_steps;
  ps = NULL; /* the solver's now */
  parallel_solve *own = s->solve_steps_data;
  HDGCL_TRY_GOTO(status, check_supported(s), fail);
  HDGCL_TRY_GOTO(status, global_counts(s, own), fail);
  *solver = s;
  return HDGCL_SUCCESS;
fail:
  free_steps(ps);
  hdgcl_solver_destroy(&s);
  return status;
}

int hdgcl_solver_part_elements(hdgcl_solver s, const int32_t **elements, int32_t *count) {
  if (!s || !elements || !count)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "hdgcl_solver_part_elements: NULL argument");
  *elements = NULL;
  *count = 0;
  if (s->solve_steps != solve_steps) return HDGCL_SUCCESS;
  const parallel_solve *ps = s->solve_steps_data;
  *elements = ps->part.elem_global;
  *count = ps->part.mesh->num_elements;
  return HDGCL_SUCCESS;
}

const parallel_part *parallel_solver_part(hdgcl_solver s) {
  if (!s || s->solve_steps != solve_steps) return NULL;
  return &((const parallel_solve *)s->solve_steps_data)->part;
}

int hdgcl_solver_partition_figures(hdgcl_solver s, const int32_t **elements, const double **work,
                                   int *ranks) {
  if (!s || !elements || !work || !ranks)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "hdgcl_solver_partition_figures: NULL argument");
  *elements = NULL;
  *work = NULL;
  *ranks = 0;
  if (s->solve_steps != solve_steps) return HDGCL_SUCCESS;
  const parallel_solve *ps = s->solve_steps_data;
  *elements = ps->part.rank_elements;
  *work = ps->part.rank_work;
  *ranks = ps->part.size;
  return HDGCL_SUCCESS;
}

int hdgcl_solver_rank_seconds(hdgcl_solver s, const double **seconds, int *ranks) {
  if (!s || !seconds || !ranks)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "hdgcl_solver_rank_seconds: NULL argument");
  *seconds = NULL;
  *ranks = 0;
  if (s->solve_steps != solve_steps) return HDGCL_SUCCESS;
  const parallel_solve *ps = s->solve_steps_data;
  if (!ps->timed) return HDGCL_SUCCESS;
  *seconds = ps->rank_seconds;
  *ranks = ps->part.size;
  return HDGCL_SUCCESS;
}

int hdgcl_solver_exchange_figures(hdgcl_solver s, double *halo_seconds, double *reduce_seconds,
                                  int64_t *halo_bytes) {
  if (!s || !halo_seconds || !reduce_seconds || !halo_bytes)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "hdgcl_solver_exchange_figures: NULL argument");
  *halo_seconds = *reduce_seconds = 0.0;
  *halo_bytes = 0;
  if (s->solve_steps != solve_steps) return HDGCL_SUCCESS;
  const parallel_solve *ps = s->solve_steps_data;
  if (!ps->timed) return HDGCL_SUCCESS;
  *halo_seconds = ps->halo_max;
  *reduce_seconds = ps->reduce_max;
  *halo_bytes = ps->halo_bytes;
  return HDGCL_SUCCESS;
}

int hdgcl_solver_overlap_figures(hdgcl_solver s, int *overlap, double *hidden_seconds) {
  if (!s || !overlap || !hidden_seconds)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "hdgcl_solver_overlap_figures: NULL argument");
  *overlap = 0;
  *hidden_seconds = 0.0;
  if (s->solve_steps != solve_steps) return HDGCL_SUCCESS;
  const parallel_solve *ps = s->solve_steps_data;
  if (!ps->timed) return HDGCL_SUCCESS;
  *overlap = ps->krylov.overlap ? 1 : 0;
  *hidden_seconds = ps->hidden_max;
  return HDGCL_SUCCESS;
}
