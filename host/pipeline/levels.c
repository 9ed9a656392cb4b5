/* p-multigrid's coarser levels of the device pipeline (solvers/trace_levels.h):
 * each level is an internal solver at a lower degree on the same mesh,
 * problem and options (solver_create_level), whose upload, local stage and
 * assembly run once per preconditioner setup (pipeline_assemble_only). */
#include "core/error.h"
#include "pipeline/pipeline.h"

static int level_create(void *owner, int order, int precond_kind, int cheb_degree, int gmres_restart,
                        void **level, krylov **kr) {
  hdgcl_solver fine = owner, s;
  /* Batches no larger than the fine level's: a level's elements are
   * smaller, so its local-stage buffers are too. */
  HDGCL_TRY(solver_create_level(fine, order, precond_kind, cheb_degree, gmres_restart,
                                fine->dev->local.chunk, &s));
  s->dev->krylov.history = (residual_history){0}; /* a level keeps no residual history */
  *level = s;
  *kr = &s->dev->krylov;
  return HDGCL_SUCCESS;
}

static int level_assemble(void *owner, void *level) {
  (void)owner;
  return pipeline_assemble_only(level);
}

/* Every stage but the solve, whose work the level's solve stage counts. */
static void level_add_work(void *owner, void *level, double *flops, double *bytes) {
  (void)owner;
  const hdgcl_result *r = &((hdgcl_solver)level)->result;
  for (int i = 0; i < HDGCL_NUM_STAGES; i++)
    if (i != HDGCL_STAGE_SOLVE) {
      *flops += r->stages[i].flops;
      *bytes += r->stages[i].bytes;
    }
}

static int level_download(void *owner, void *level, const double **values,
                          const int32_t **block_cols) {
  hdgcl_solver s = level ? level : owner;
  HDGCL_TRY(pipeline_download_matrix(s));
  *values = s->sol.matrix;
  *block_cols = s->disc.num.block_cols;
  return HDGCL_SUCCESS;
}

static void level_destroy(void *owner, void *level) {
  (void)owner;
  hdgcl_solver s = level;
  hdgcl_solver_destroy(&s);
}

trace_levels pipeline_levels(hdgcl_solver s) {
  return (trace_levels){.owner = s,
                        .create = level_create,
                        .assemble = level_assemble,
                        .add_work = level_add_work,
                        .download = level_download,
                        .destroy = level_destroy};
}
