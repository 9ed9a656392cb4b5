/* hdgcl mesh: placeholder until the foundation work lands. */
#include "cli.h"
#include "error.h"

static int run(hdgcl_options opts) {
  (void)opts;
  return hdgcl_error(HDGCL_ERROR_UNSUPPORTED, "'hdgcl mesh' is not implemented yet");
}
static void help(FILE *out) { fprintf(out, "usage: hdgcl mesh (not implemented yet)\n"); }
const cli_command cli_mesh = {"mesh", "(not implemented yet)", run, help};
