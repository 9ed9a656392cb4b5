/* Output files written under a temporary name (PATH.tmp.PID) and renamed into
 * place once complete, so that a reader never sees a partial file.  The names
 * of the temporaries open now are kept in a small table, so that a signal
 * handler (the CLI's, on SIGINT or SIGTERM) can remove them:
 * hdgcl_temp_remove_all only calls unlink, which is async-signal-safe. */
#ifndef HDGCL_HOST_CORE_TEMP_FILE_H
#define HDGCL_HOST_CORE_TEMP_FILE_H

#include <stdio.h>

typedef struct hdgcl_temp_file {
  FILE *f;
  char path[4096], tmp[4200];
  int slot; /* 1 + its index in the table of open temporaries, 0: not in it (a
              zeroed struct is a closed file) */
} hdgcl_temp_file;

/* Opens PATH.tmp.PID with fopen's mode; an error naming path if it cannot. */
int hdgcl_temp_open(hdgcl_temp_file *t, const char *path, const char *mode);
/* Closes the temporary and renames it to its path; on any failure (a write
 * error, disk full, the rename) removes it and returns an error naming path. */
int hdgcl_temp_commit(hdgcl_temp_file *t);
/* Closes and removes the temporary (nothing if none is open). */
void hdgcl_temp_discard(hdgcl_temp_file *t);
/* Removes every temporary open now; async-signal-safe. */
void hdgcl_temp_remove_all(void);

#endif
