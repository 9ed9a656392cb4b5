/* Options database shared by the CLI and the API (see include/hdgcl/options.h). */
#include "hdgcl/options.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/error.h"

typedef struct option_entry {
  char *key;
  char *value;
  bool used;
} option_entry;

struct hdgcl_options_s {
  option_entry *entries;
  int count, capacity;
};

int hdgcl_options_create(hdgcl_options *opts) {
  return hdgcl_calloc(1, sizeof **opts, "options", opts);
}

int hdgcl_options_destroy(hdgcl_options *opts) {
  if (!opts || !*opts) return HDGCL_SUCCESS;
  for (int i = 0; i < (*opts)->count; i++) {
    free((*opts)->entries[i].key);
    free((*opts)->entries[i].value);
  }
  free((*opts)->entries);
  free(*opts);
  *opts = NULL;
  return HDGCL_SUCCESS;
}

static option_entry *find(hdgcl_options opts, const char *key) {
  if (!opts) return NULL;
  for (int i = 0; i < opts->count; i++)
    if (strcmp(opts->entries[i].key, key) == 0) return &opts->entries[i];
  return NULL;
}

static char *duplicate(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (d) memcpy(d, s, n);
  return d;
}

int hdgcl_options_set(hdgcl_options opts, const char *key, const char *value) {
  if (!opts || !key || !key[0]) return hdgcl_error(HDGCL_ERROR_ARGUMENT, "empty option name");
  if (!value) value = "true";
  char *v = duplicate(value);
  if (!v) return hdgcl_error(HDGCL_ERROR_MEMORY, "out of host memory storing option --%s", key);
  option_entry *e = find(opts, key);
  if (e) {
    free(e->value);
    e->value = v;
    e->used = false;
    return HDGCL_SUCCESS;
  }
  if (opts->count == opts->capacity) {
    int cap = opts->capacity ? 2 * opts->capacity : 16;
    option_entry *grown = realloc(opts->entries, (size_t)cap * sizeof *grown);
    if (!grown) {
      free(v);
      return hdgcl_error(HDGCL_ERROR_MEMORY, "out of host memory storing option --%s", key);
    }
    opts->entries = grown;
    opts->capacity = cap;
  }
  char *k = duplicate(key);
  if (!k) {
    free(v);
    return hdgcl_error(HDGCL_ERROR_MEMORY, "out of host memory storing option --%s", key);
  }
  opts->entries[opts->count++] = (option_entry){k, v, false};
  return HDGCL_SUCCESS;
}

int hdgcl_options_parse(hdgcl_options opts, int argc, char **argv, int first) {
  for (int i = first; i < argc; i++) {
    const char *word = argv[i];
    if (strncmp(word, "--", 2) != 0 || word[2] == '\0')
      return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                         "unexpected argument '%s' (options are written --name value)", word);
    const char *name = word + 2;
    const char *eq = strchr(name, '=');
    if (eq) {
      char key[128];
      size_t n = (size_t)(eq - name);
      if (n == 0 || n >= sizeof key)
        return hdgcl_error(HDGCL_ERROR_ARGUMENT, "malformed option '%s'", word);
      memcpy(key, name, n);
      key[n] = '\0';
      HDGCL_TRY(hdgcl_options_set(opts, key, eq + 1));
    } else if (i + 1 < argc && strncmp(argv[i + 1], "--", 2) != 0) {
      HDGCL_TRY(hdgcl_options_set(opts, name, argv[i + 1]));
      i++;
    } else {
      HDGCL_TRY(hdgcl_options_set(opts, name, NULL));
    }
  }
  return HDGCL_SUCCESS;
}

bool hdgcl_options_has(hdgcl_options opts, const char *key) {
  option_entry *e = find(opts, key);
  if (e) e->used = true;
  return e != NULL;
}

static const char *lookup(hdgcl_options opts, const char *key) {
  option_entry *e = find(opts, key);
  if (!e) return NULL;
  e->used = true;
  return e->value;
}

int hdgcl_options_get_string(hdgcl_options opts, const char *key, const char *def,
                             const char **value) {
  const char *v = lookup(opts, key);
  *value = v ? v : def;
  return HDGCL_SUCCESS;
}

int hdgcl_options_get_int(hdgcl_options opts, const char *key, int def, int min, int max,
                          int *value) {
  const char *v = lookup(opts, key);
  if (!v) {
    *value = def;
    return HDGCL_SUCCESS;
  }
  char *end;
  errno = 0;
  long x = strtol(v, &end, 10);
  if (errno || end == v || *end != '\0')
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "--%s %s: not an integer", key, v);
  if (x < min || x > max)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "--%s %s: out of range [%d, %d]", key, v, min, max);
  *value = (int)x;
  return HDGCL_SUCCESS;
}

int hdgcl_options_get_real(hdgcl_options opts, const char *key, double def, double min,
                           double max, double *value) {
  const char *v = lookup(opts, key);
  if (!v) {
    *value = def;
    return HDGCL_SUCCESS;
  }
  char *end;
  errno = 0;
  double x = strtod(v, &end);
  if (errno || end == v || *end != '\0' || !isfinite(x))
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "--%s %s: not a finite number", key, v);
  if (x < min || x > max)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "--%s %s: out of range [%g, %g]", key, v, min, max);
  *value = x;
  return HDGCL_SUCCESS;
}

int hdgcl_options_get_bool(hdgcl_options opts, const char *key, bool def, bool *value) {
  const char *v = lookup(opts, key);
  if (!v) {
    *value = def;
    return HDGCL_SUCCESS;
  }
  if (!strcasecmp(v, "true") || !strcmp(v, "1") || !strcasecmp(v, "yes") || !strcasecmp(v, "on"))
    *value = true;
  else if (!strcasecmp(v, "false") || !strcmp(v, "0") || !strcasecmp(v, "no") ||
           !strcasecmp(v, "off"))
    *value = false;
  else
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "--%s %s: expected true or false", key, v);
  return HDGCL_SUCCESS;
}

int hdgcl_options_get_choice(hdgcl_options opts, const char *key, const char *const *choices,
                             int def, int *index) {
  const char *v = lookup(opts, key);
  if (!v) {
    *index = def;
    return HDGCL_SUCCESS;
  }
  for (int i = 0; choices[i]; i++)
    if (strcmp(v, choices[i]) == 0) {
      *index = i;
      return HDGCL_SUCCESS;
    }
  char list[512] = "";
  for (int i = 0; choices[i]; i++) {
    if (i) strncat(list, "|", sizeof list - strlen(list) - 1);
    strncat(list, choices[i], sizeof list - strlen(list) - 1);
  }
  return hdgcl_error(HDGCL_ERROR_ARGUMENT, "--%s %s: unknown value (expected %s)", key, v, list);
}

int hdgcl_options_check_known(hdgcl_options opts, const char *const *const *lists) {
  if (!opts) return HDGCL_SUCCESS;
  for (int i = 0; i < opts->count; i++) {
    bool known = false;
    for (int l = 0; lists[l] && !known; l++)
      for (int k = 0; lists[l][k] && !known; k++) known = strcmp(lists[l][k], opts->entries[i].key) == 0;
    if (!known) return hdgcl_error(HDGCL_ERROR_ARGUMENT, "unknown option --%s", opts->entries[i].key);
  }
  return HDGCL_SUCCESS;
}

int hdgcl_options_check_unused(hdgcl_options opts) {
  if (!opts) return HDGCL_SUCCESS;
  for (int i = 0; i < opts->count; i++)
    if (!opts->entries[i].used)
      return hdgcl_error(HDGCL_ERROR_ARGUMENT, "unknown option --%s", opts->entries[i].key);
  return HDGCL_SUCCESS;
}
