/* The device pipeline behind the trace operator's interface. */
#ifndef HDGCL_HOST_PIPELINE_OPERATOR_H
#define HDGCL_HOST_PIPELINE_OPERATOR_H

#include "core/error.h"
#include "discretisation/trace_operator.h"
#include "pipeline/pipeline.h"

/* As pipeline_create (pipeline.h), the pipeline wrapped in *op. */
int pipeline_operator_create(hdgcl_context ctx, const hdg_discretisation *disc,
                             const pipeline_options *opts, const solver_settings *settings,
                             hdg_solution *sol, hdgcl_result *report, trace_operator *op);
/* The device pipeline of op, or NULL where op is not one (benchmarks of its stages). */
device_pipeline *pipeline_operator_pipeline(const trace_operator *op);

#endif
