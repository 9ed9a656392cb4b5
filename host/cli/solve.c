/* hdgcl solve: placeholder until the HDG pipeline (issue 3) lands. */
#include "cli.h"
#include "error.h"

static int run(hdgcl_options opts) {
  (void)opts;
  return hdgcl_error(HDGCL_ERROR_UNSUPPORTED,
                     "'hdgcl solve' is not available yet: the HDG pipeline is issue 3");
}
static void help(FILE *out) {
  fprintf(out, "usage: hdgcl solve ...\n(not available yet: the HDG pipeline is issue 3)\n");
}
const cli_command cli_solve = {"solve", "solve a built-in problem by HDG (not available yet)", run, help};
