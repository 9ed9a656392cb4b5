/* Human-readable summaries and JSON output of solver results (shared by
 * hdgcl solve and hdgcl bench). */
#ifndef HDGCL_CLI_REPORT_H
#define HDGCL_CLI_REPORT_H

#include <stdio.h>

#include "hdgcl/hdgcl.h"

/* A JSON file written atomically: opened as PATH.tmp.PID, renamed on success,
 * removed on failure (so a failed run leaves no partial file). */
typedef struct json_file {
  FILE *f;
  char path[4096], tmp[4200];
} json_file;

int json_open(json_file *j, const char *path);
int json_commit(json_file *j); /* closes and renames; error if anything failed */
void json_abort(json_file *j); /* closes and removes the temporary file */

/* "string" with JSON escapes. */
void json_string(FILE *f, const char *s);
/* A number, or null when not finite. */
void json_number(FILE *f, double x);

/* One run as a JSON object (no trailing newline); stage times are medians
 * over `repeat` solves. */
void report_json_run(FILE *f, const char *mesh_spec, const hdgcl_mesh *mesh,
                     const hdgcl_device_info *dev, const hdgcl_result *r, int indent, int repeat);

/* The summary printed by hdgcl solve. */
void report_summary(FILE *out, const char *mesh_spec, const hdgcl_mesh *mesh,
                    const hdgcl_device_info *dev, const hdgcl_result *r, int show_history);

/* Solve-stage seconds per Krylov iteration, preconditioner setup excluded. */
double report_seconds_per_iteration(const hdgcl_result *r);

/* Per-stage GFLOP/s and GB/s (0 if the time is 0). */
double stage_gflops(const hdgcl_stage_stats *st);
double stage_gbs(const hdgcl_stage_stats *st);

#endif
