/* JSON output of hdgcl solve, bench and devices, built as cJSON trees
 * (Debian's libcjson, which also reads problem files): cJSON escapes the
 * strings and lays the text out, in one place, instead of hand-written
 * fprintf.  Numbers are written as the shortest text that reads back as the
 * same double (cJSON's own %1.15g test is approximate and can lose the last
 * bit), and non-finite numbers as null.
 *
 * Every function returns an hdgcl status; a failed cJSON allocation is a
 * one-line HDGCL_ERROR_MEMORY error.  The json_add_* functions attach the new
 * value to parent (an object: under key; an array: appended when key is NULL),
 * so freeing the root with cJSON_Delete frees everything built under it,
 * whatever failed on the way. */
#ifndef HDGCL_CLI_REPORT_JSON_H
#define HDGCL_CLI_REPORT_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "core/temp_file.h"
#include "hdgcl/hdgcl.h"

/* A JSON file written atomically: opened as PATH.tmp.PID, renamed on success,
 * removed on failure or an interrupt (so a failed run leaves no partial file). */
typedef hdgcl_temp_file json_file;

int json_open(json_file *j, const char *path);
/* Writes root (formatted; NULL: nothing more, e.g. after json_write_line),
 * closes and renames; on any failure removes the temporary file. */
int json_commit(json_file *j, const cJSON *root);
void json_abort(json_file *j); /* closes and removes the temporary file */
/* One JSON line: item unformatted, then a newline. */
int json_write_line(json_file *j, const cJSON *item);
/* item formatted (two-space indents, "key": value) and a newline. */
int json_print(FILE *f, const cJSON *item);

/* A new empty root object or array (free it with cJSON_Delete). */
int json_new_object(cJSON **out);
int json_new_array(cJSON **out);
/* A new empty object or array attached to parent; *out belongs to parent. */
int json_add_object(cJSON *parent, const char *key, cJSON **out);
int json_add_array(cJSON *parent, const char *key, cJSON **out);
int json_add_string(cJSON *parent, const char *key, const char *s); /* NULL: "" */
int json_add_real(cJSON *parent, const char *key, double x);        /* null unless finite */
int json_add_int(cJSON *parent, const char *key, long long v);
int json_add_uint(cJSON *parent, const char *key, unsigned long long v);
int json_add_bool(cJSON *parent, const char *key, bool v);
/* Attaches item (built elsewhere) to parent; on failure frees it. */
int json_add_item(cJSON *parent, const char *key, cJSON *item);

/* The text json_add_real writes for x ("null" if not finite); n >= 32. */
void json_real_text(double x, char *text, size_t n);

/* One run (the object of hdgcl solve --json; "run" of a bench line); stage
 * times are medians over `repeat` solves.  *out: a new root object. */
int report_json_run(const char *mesh_spec, const hdgcl_mesh *mesh, const hdgcl_device_info *dev,
                    const hdgcl_result *r, int repeat, cJSON **out);

/* "gpu", "cpu" or "other". */
const char *report_device_type(const hdgcl_device_info *dev);

#endif
