/* Options database: one vocabulary shared by the CLI and the API.
 *
 * The CLI turns "--order 3 --tau=2 --no-cache" into key/value pairs
 * ("order"="3", "tau"="2", "no-cache"="true"); API users set the same keys
 * with hdgcl_options_set().  Each stage reads the keys it understands with
 * the typed getters, which validate the value and name the option in their
 * error message.  hdgcl_options_check_unused() then rejects misspelt keys. */
#ifndef HDGCL_OPTIONS_H
#define HDGCL_OPTIONS_H

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hdgcl_options_s *hdgcl_options;

int hdgcl_options_create(hdgcl_options *opts);
int hdgcl_options_destroy(hdgcl_options *opts);

/* Sets (or replaces) key = value; value NULL means "true" (a flag). */
int hdgcl_options_set(hdgcl_options opts, const char *key, const char *value);

/* Parses argv[first..argc-1]: "--key value", "--key=value" or a bare flag
 * "--key" (when the next word is absent or starts with "--").  Words not
 * starting with "--" are an error naming the word. */
int hdgcl_options_parse(hdgcl_options opts, int argc, char **argv, int first);

/* True if key was given (and marks it used). */
bool hdgcl_options_has(hdgcl_options opts, const char *key);

/* Typed getters: *value = default when the key is absent; an unparsable or
 * out-of-range value is HDGCL_ERROR_ARGUMENT with a message naming
 * "--key VALUE".  opts may be NULL (all defaults). */
int hdgcl_options_get_string(hdgcl_options opts, const char *key, const char *def,
                             const char **value);
int hdgcl_options_get_int(hdgcl_options opts, const char *key, int def, int min, int max,
                          int *value);
int hdgcl_options_get_real(hdgcl_options opts, const char *key, double def, double min,
                           double max, double *value);
int hdgcl_options_get_bool(hdgcl_options opts, const char *key, bool def, bool *value);
/* choices: NULL-terminated list; *index = position of the value in it. */
int hdgcl_options_get_choice(hdgcl_options opts, const char *key, const char *const *choices,
                             int def, int *index);

/* HDGCL_ERROR_ARGUMENT naming the first key that is in none of the
 * NULL-terminated name lists of the NULL-terminated array `lists`; lets a
 * program reject a misspelt option before doing any work. */
int hdgcl_options_check_known(hdgcl_options opts, const char *const *const *lists);

/* HDGCL_ERROR_ARGUMENT naming the first key nobody read ("unknown option --foo"). */
int hdgcl_options_check_unused(hdgcl_options opts);

#ifdef __cplusplus
}
#endif
#endif
