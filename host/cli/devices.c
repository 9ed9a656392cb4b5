/* hdgcl devices: placeholder until the foundation work lands. */
#include "cli.h"
#include "error.h"

static int run(hdgcl_options opts) {
  (void)opts;
  return hdgcl_error(HDGCL_ERROR_UNSUPPORTED, "'hdgcl devices' is not implemented yet");
}
static void help(FILE *out) { fprintf(out, "usage: hdgcl devices (not implemented yet)\n"); }
const cli_command cli_devices = {"devices", "(not implemented yet)", run, help};
