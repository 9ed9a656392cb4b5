/* hdgcl: command-line entry point; dispatches to the subcommands. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

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
  hdgcl_options opts = NULL;
  int status = hdgcl_options_create(&opts);
  if (status == HDGCL_SUCCESS) status = hdgcl_options_parse(opts, argc, argv, 2);
  if (status == HDGCL_SUCCESS) status = cmd->run(opts);
  hdgcl_options_destroy(&opts);
  if (status != HDGCL_SUCCESS) {
    fprintf(stderr, "hdgcl %s: error: %s\n", cmd->name, hdgcl_last_error());
    return 1;
  }
  return 0;
}
