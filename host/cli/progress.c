/* The tool's progress line (cli.h): the library's status lines on stderr,
 * one line rewritten in place, once the run has taken long enough to need
 * it.  Only for a terminal: the caller installs it where stderr is one. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double started = -1.0; /* the first status's time */
static double last_shown = -1.0;
static bool shown;             /* a line is on the screen */
/* Quiet for runs that end quickly: a line only after this many seconds
 * (HDGCL_PROGRESS_AFTER, default 2; tests set 0), read once at install. */
static double show_after = 2.0;

static void show(void *data, const char *line) {
  (void)data;
  double t = now();
  if (started < 0) started = t;
  /* then at most ten updates a second */
  if (t - started < show_after || (shown && t - last_shown < 0.1)) return;
  fprintf(stderr, "\r%s\033[K", line);
  fflush(stderr);
  shown = true;
  last_shown = t;
}

int cli_progress_install(hdgcl_context ctx, bool quiet) {
  if (quiet || !isatty(STDERR_FILENO)) return HDGCL_SUCCESS;
  const char *env = getenv("HDGCL_PROGRESS_AFTER");
  if (env && env[0]) show_after = atof(env);
  return hdgcl_context_set_progress(ctx, show, NULL);
}

void cli_progress_clear(void) {
  if (!shown) return;
  fputs("\r\033[K", stderr);
  fflush(stderr);
  shown = false;
}
