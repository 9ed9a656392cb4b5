/* Problem files (docs/problems.md): JSON read by cJSON (Debian libcjson),
 * turned into the options a user's problem reads, in the option syntax, so
 * the command line, the C API and the file share one vocabulary. */
#ifndef HDGCL_HOST_PROBLEM_FILE_H
#define HDGCL_HOST_PROBLEM_FILE_H

#include "hdgcl/options.h"

/* Reads path into a new options object (the caller destroys it).  Errors
 * name the file and, for syntax errors, the line and column. */
int hdg_problem_file_read(const char *path, hdgcl_options *opts);

/* The same on the file's text (NUL-terminated); path names it in errors.
 * The reader above, and tests/fuzz/fuzz_problem_file.c. */
int hdg_problem_file_parse(const char *text, const char *path, hdgcl_options *opts);

#endif
