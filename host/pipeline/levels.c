/* p-multigrid's coarser levels of the device pipeline (solvers/trace_levels.h):
 * each level is the fine discretisation at a lower degree on the same mesh,
 * problem and faces (discretisation_create_level) with a pipeline of its own,
 * whose upload, local stage and assembly run once per preconditioner setup
 * (pipeline_assemble). */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "pipeline/pipeline.h"

/* One level: what a solve owns, at the level's degree. */
typedef struct pipeline_level {
  hdg_discretisation disc;
  hdg_solution sol;
  hdgcl_result report;
  device_pipeline *pipeline;
} pipeline_level;

static void level_free(pipeline_level *lv) {
  if (!lv) return;
  pipeline_destroy(&lv->pipeline);
  hdg_solution_destroy(&lv->sol);
  discretisation_release(&lv->disc);
  free(lv);
}

static int level_create(void *owner, int order, int precond_kind, int cheb_degree, int gmres_restart,
                        void **level, krylov **kr) {
  const device_pipeline *fine = owner;
  pipeline_level *lv;
  HDGCL_TRY(hdgcl_calloc(1, sizeof *lv, "p-multigrid level", &lv));
  /* CG, or GMRES on the nonsymmetric coarsest level without hypre; the
   * fine solve's tolerances and p-multigrid settings. */
  solver_settings set = fine->settings;
  set.solver = gmres_restart > 0 ? SOLVER_GMRES : SOLVER_CG;
  if (gmres_restart > 0) set.restart = gmres_restart;
  set.flexible = false;
  set.precond = precond_kind;
  set.cheb_degree = cheb_degree;
  set.cheb_inner = PRECOND_BLOCK_JACOBI;
  set.cheb_mixed = false;
  /* Batches no larger than the fine level's (a level's elements are
   * smaller, so its local-stage buffers are too), and no recovery on a
   * level: nothing to keep. */
  pipeline_options opts = fine->opts;
  opts.chunk = fine->local.chunk;
  opts.keep_local = 0;
  int status;
  HDGCL_TRY_GOTO(status, discretisation_create_level(fine->disc, order, &lv->disc), fail);
  HDGCL_TRY_GOTO(status, hdg_solution_create(&lv->disc, &lv->sol), fail);
  HDGCL_TRY_GOTO(status, pipeline_create(fine->ctx, &lv->disc, &opts, &set, &lv->sol, &lv->report,
                                         &lv->pipeline), fail);
  lv->pipeline->krylov.history = (residual_history){0}; /* a level keeps no residual history */
  *level = lv;
  *kr = &lv->pipeline->krylov;
  return HDGCL_SUCCESS;
fail:
  level_free(lv);
  return status;
}

static int level_assemble(void *owner, void *level) {
  const device_pipeline *fine = owner;
  pipeline_level *lv = level;
  /* The fine level's coefficients c and problem time as they are now: a time
   * stepper changes them between stages (docs/time.md); the element load is
   * the right-hand side's only, which a level does not see. */
  memcpy(lv->disc.c, fine->disc->c, sizeof(double) * (size_t)fine->disc->mesh->num_elements);
  lv->disc.params.param = fine->disc->params.param;
  for (int i = 0; i < HDGCL_NUM_STAGES; i++) { /* the work of this assembly only */
    lv->sol.stage_seconds[i] = 0;
    lv->report.stages[i].flops = 0;
    lv->report.stages[i].bytes = 0;
  }
  return pipeline_assemble(lv->pipeline);
}

/* Every stage but the solve, whose work the level's solve stage counts. */
static void level_add_work(void *owner, void *level, double *flops, double *bytes) {
  (void)owner;
  const hdgcl_result *r = &((pipeline_level *)level)->report;
  for (int i = 0; i < HDGCL_NUM_STAGES; i++)
    if (i != HDGCL_STAGE_SOLVE) {
      *flops += r->stages[i].flops;
      *bytes += r->stages[i].bytes;
    }
}

static int level_download(void *owner, void *level, const double **values,
                          const int32_t **block_cols) {
  device_pipeline *pl = level ? ((pipeline_level *)level)->pipeline : owner;
  HDGCL_TRY(pipeline_download_matrix(pl));
  *values = pl->sol->matrix;
  *block_cols = pl->disc->num.block_cols;
  return HDGCL_SUCCESS;
}

static void level_destroy(void *owner, void *level) {
  (void)owner;
  level_free(level);
}

trace_levels pipeline_levels(device_pipeline *pl) {
  return (trace_levels){.owner = pl,
                        .create = level_create,
                        .assemble = level_assemble,
                        .add_work = level_add_work,
                        .download = level_download,
                        .destroy = level_destroy};
}
