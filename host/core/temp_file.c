/* Temporary output files and the table a signal handler empties (temp_file.h). */
#include "core/temp_file.h"

#include <signal.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include "core/error.h"

/* Temporaries open at once: a solve writes at most its JSON, VTU and the two
 * matrix files; more simply go untracked (still removed on errors). */
#define MAX_OPEN_TEMPS 16
static char open_names[MAX_OPEN_TEMPS][4200];
static volatile sig_atomic_t open_used[MAX_OPEN_TEMPS];

static int track(const char *tmp) {
  for (int i = 0; i < MAX_OPEN_TEMPS; i++)
    if (!open_used[i]) {
      snprintf(open_names[i], sizeof open_names[i], "%s", tmp);
      open_used[i] = 1; /* after the name: a handler never sees half a name */
      return i + 1;
    }
  return 0;
}

static void untrack(hdgcl_temp_file *t) {
  if (t->slot > 0) open_used[t->slot - 1] = 0;
  t->slot = 0;
}

int hdgcl_temp_open(hdgcl_temp_file *t, const char *path, const char *mode) {
  t->f = NULL;
  t->slot = 0;
  snprintf(t->path, sizeof t->path, "%s", path);
  snprintf(t->tmp, sizeof t->tmp, "%s.tmp.%ld", path, (long)getpid());
  t->slot = track(t->tmp);
  t->f = fopen(t->tmp, mode);
  if (!t->f) {
    untrack(t);
    return hdgcl_error(HDGCL_ERROR_IO, "cannot write %s", path);
  }
  return HDGCL_SUCCESS;
}

int hdgcl_temp_commit(hdgcl_temp_file *t) {
  if (!t->f) return hdgcl_error(HDGCL_ERROR_INTERNAL, "%s: no temporary file open", t->path);
  bool bad = ferror(t->f) != 0;
  bad |= fclose(t->f) != 0;
  t->f = NULL;
  if (bad) {
    remove(t->tmp);
    untrack(t);
    return hdgcl_error(HDGCL_ERROR_IO, "error writing %s (disk full?)", t->path);
  }
  if (rename(t->tmp, t->path) != 0) {
    remove(t->tmp);
    untrack(t);
    return hdgcl_error(HDGCL_ERROR_IO, "cannot rename %s to %s", t->tmp, t->path);
  }
  untrack(t);
  return HDGCL_SUCCESS;
}

void hdgcl_temp_discard(hdgcl_temp_file *t) {
  if (t->f) {
    fclose(t->f);
    t->f = NULL;
    remove(t->tmp);
  }
  untrack(t);
}

void hdgcl_temp_remove_all(void) {
  for (int i = 0; i < MAX_OPEN_TEMPS; i++)
    if (open_used[i]) unlink(open_names[i]);
}
