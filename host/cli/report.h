/* Human-readable summaries of solver results (shared by hdgcl solve and
 * hdgcl bench; their JSON: report_json.h). */
#ifndef HDGCL_CLI_REPORT_H
#define HDGCL_CLI_REPORT_H

#include <stdio.h>

#include "hdgcl/hdgcl.h"

/* The summary printed by hdgcl solve. */
void report_summary(FILE *out, const char *mesh_spec, const hdgcl_mesh *mesh,
                    const hdgcl_device_info *dev, const hdgcl_result *r, int show_history);

/* Solve-stage seconds per Krylov iteration, preconditioner setup excluded. */
double report_seconds_per_iteration(const hdgcl_result *r);

/* Per-stage GFLOP/s and GB/s (0 if the time is 0). */
double stage_gflops(const hdgcl_stage_stats *st);
double stage_gbs(const hdgcl_stage_stats *st);

#endif
