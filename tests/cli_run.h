/* Running the hdgcl executable ($HDGCL_CLI, set by ctest) from a C test,
 * as a user would, with its output captured. */
#ifndef HDGCL_TESTS_CLI_RUN_H
#define HDGCL_TESTS_CLI_RUN_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* stdout and stderr of the last cli_run (truncated to fit). */
static char cli_out[16384], cli_err[8192];

static inline void cli_slurp(const char *path, char *buf, size_t size) {
  buf[0] = '\0';
  FILE *f = fopen(path, "r");
  if (!f) return;
  size_t n = fread(buf, 1, size - 1, f);
  buf[n] = '\0';
  fclose(f);
}

/* Runs "$HDGCL_CLI ARGS" in the working directory `dir`, or, with dir NULL,
 * in a fresh temporary directory that is removed afterwards with every file
 * the command wrote there; stdout and stderr go to cli_out and cli_err.
 * Returns the exit code, or -1 if the command could not run. */
static inline int cli_run(const char *dir, const char *args) {
  const char *cli = getenv("HDGCL_CLI");
  if (!cli) return -1;
  char tmp[] = "/tmp/hdgcl_cli_XXXXXX";
  const char *where = dir;
  if (!where) {
    if (!mkdtemp(tmp)) return -1;
    where = tmp;
  }
  char cmd[8192], out[1024], err[1024];
  snprintf(out, sizeof out, "%s/cli-stdout.txt", where);
  snprintf(err, sizeof err, "%s/cli-stderr.txt", where);
  snprintf(cmd, sizeof cmd, "cd \"%s\" && \"%s\" %s > \"%s\" 2> \"%s\"", where, cli, args, out, err);
  int status = system(cmd);
  cli_slurp(out, cli_out, sizeof cli_out);
  cli_slurp(err, cli_err, sizeof cli_err);
  remove(out);
  remove(err);
  if (!dir) {
    DIR *d = opendir(tmp);
    if (d) {
      struct dirent *e;
      char path[1200];
      while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
          snprintf(path, sizeof path, "%s/%s", tmp, e->d_name);
          remove(path);
        }
      closedir(d);
    }
    rmdir(tmp);
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

#endif
