/* The device pipeline as a trace operator (discretisation/trace_operator.h). */
#include "pipeline/pipeline_operator.h"

static int op_assemble(void *impl) { return pipeline_assemble(impl); }
static int op_apply(void *impl, const double *x, double *y) { return pipeline_apply(impl, x, y); }
static int op_solve(void *impl) { return pipeline_solve_trace(impl); }
static int op_recover(void *impl) { return pipeline_recover(impl); }
static int op_matrix(void *impl) { return pipeline_download_matrix(impl); }
static int op_set_trace(void *impl, const double *x) { return pipeline_set_trace(impl, x); }
static void op_destroy(void *impl) {
  device_pipeline *pl = impl;
  pipeline_destroy(&pl);
}

static const trace_operator_ops device_ops = {"device",   op_assemble, op_apply, op_solve,
                                              op_recover, op_matrix,   op_destroy,
                                              op_set_trace};

int pipeline_operator_create(hdgcl_context ctx, const hdg_discretisation *disc,
                             const pipeline_options *opts, const solver_settings *settings,
                             hdg_solution *sol, hdgcl_result *report, trace_operator *op) {
  *op = (trace_operator){0};
  device_pipeline *pl;
  HDGCL_TRY(pipeline_create(ctx, disc, opts, settings, sol, report, &pl));
  *op = (trace_operator){.ops = &device_ops, .impl = pl};
  return HDGCL_SUCCESS;
}

device_pipeline *pipeline_operator_pipeline(const trace_operator *op) {
  return op->ops == &device_ops ? op->impl : NULL;
}
