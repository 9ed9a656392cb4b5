/* Per-kernel device times (host/core/profile.c): with the context option
 * `profile` (CLI --profile, or HDGCL_PROFILE=1), every kernel launch and
 * CLBlast call gets an OpenCL event; their profiling times are summed per
 * kernel name and printed to stderr when the context is destroyed, so each
 * kernel of a stage can be checked on its own. */
#ifndef HDGCL_HOST_PROFILE_H
#define HDGCL_HOST_PROFILE_H

#include <stdio.h>

#include "core/context.h"

/* Takes ownership of ev (a command of `name` just enqueued). */
void profile_record(hdgcl_context ctx, const char *name, cl_event ev);
/* Adds the times of the recorded commands (all complete after a clFinish). */
void profile_collect(hdgcl_context ctx);
/* Prints the table (kernel, launches, total ms, mean us, share) to out. */
void profile_report(hdgcl_context ctx, FILE *out);
/* Releases what profile_record kept. */
void profile_destroy(hdgcl_context ctx);

#endif
