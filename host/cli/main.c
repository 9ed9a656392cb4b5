/* hdgcl: command-line entry point; dispatches to the subcommands. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/temp_file.h"

static const cli_command *const commands[] = {&cli_devices, &cli_mesh, &cli_solve, &cli_bench};
enum { NUM_COMMANDS = sizeof commands / sizeof commands[0] };

static void usage(FILE *out) {
  fprintf(out, "usage: hdgcl COMMAND [--option value ...]\n"
               "       hdgcl COMMAND --help | hdgcl --help | hdgcl --version\n\ncommands:\n");
  for (int i = 0; i < NUM_COMMANDS; i++)
    fprintf(out, "  %-8s %s\n", commands[i]->name, commands[i]->summary);
  fprintf(out, "\nThe device is chosen with --device SPEC or $HDGCL_DEVICE "
               "(auto, gpu, cpu, ref, a vendor or platform name, or P:D).\n");
}

/* SIGINT (Ctrl-C) or SIGTERM: remove the temporaries of the output files
 * being written (no partial file), say so, and stop at once with the shell's
 * code for the signal (128 + its number).  Only async-signal-safe calls. */
static void interrupted(int sig) {
  hdgcl_temp_remove_all();
  static const char clear[] = "\r\033[K"; /* a progress line, if any (not on a file: harmless) */
  if (isatty(STDERR_FILENO)) (void)!write(STDERR_FILENO, clear, sizeof clear - 1);
  static const char msg_int[] = "hdgcl: interrupted (SIGINT): stopped, unfinished output files removed\n";
  static const char msg_term[] = "hdgcl: terminated (SIGTERM): stopped, unfinished output files removed\n";
  if (sig == SIGINT)
    (void)!write(STDERR_FILENO, msg_int, sizeof msg_int - 1);
  else
    (void)!write(STDERR_FILENO, msg_term, sizeof msg_term - 1);
  _exit(128 + sig);
}

static void catch_interrupts(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = interrupted;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
    usage(stdout);
    return 0;
  }
  if (!strcmp(argv[1], "--version")) {
    printf("hdgcl %s\n", hdgcl_version());
    return 0;
  }
  const cli_command *cmd = NULL;
  for (int i = 0; i < NUM_COMMANDS; i++)
    if (!strcmp(argv[1], commands[i]->name)) cmd = commands[i];
  if (!cmd) {
    fprintf(stderr, "hdgcl: error: unknown command '%s' (try hdgcl --help)\n", argv[1]);
    return 2;
  }
  for (int i = 2; i < argc; i++)
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      cmd->help(stdout);
      return 0;
    }
  catch_interrupts();
  hdgcl_options opts = NULL;
  int status = cli_mpi_init(&argc, &argv); /* under mpirun (docs/mpi.md) */
  if (status == HDGCL_SUCCESS) status = hdgcl_options_create(&opts);
  if (status == HDGCL_SUCCESS) status = hdgcl_options_parse(opts, argc, argv, 2);
  if (status == HDGCL_SUCCESS) status = cmd->run(opts);
  cli_progress_clear();
  hdgcl_options_destroy(&opts);
  if (status != HDGCL_SUCCESS) {
    /* under mpirun: this rank's message, then every rank ends (no hang) */
    if (cli_mpi_active()) cli_mpi_abort(cmd->name, hdgcl_last_error());
    fprintf(stderr, "hdgcl %s: error: %s\n", cmd->name, hdgcl_last_error());
    return 1;
  }
  cli_mpi_finalize();
  return 0;
}
