/* hdgcl bench: placeholder until the benchmarks (issue 7) land. */
#include "cli.h"
#include "error.h"

static int run(hdgcl_options opts) {
  (void)opts;
  return hdgcl_error(HDGCL_ERROR_UNSUPPORTED,
                     "'hdgcl bench' is not available yet: benchmarks are issue 7");
}
static void help(FILE *out) {
  fprintf(out, "usage: hdgcl bench ...\n(not available yet: benchmarks are issue 7)\n");
}
const cli_command cli_bench = {"bench", "per-stage benchmarks as JSON lines (not available yet)", run, help};
