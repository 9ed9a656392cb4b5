/* libFuzzer harness: the options database (host/core/options.c), both ways
 * in.  The input is a command line, one argv word per line:
 *   CLI: hdgcl_options_parse on the words ("--order", "3", "--tau=2", ...);
 *   API: hdgcl_options_set on each word "key=value" (or "key": a flag);
 * then every key named by a word is read with each typed getter (string,
 * int, real, bool, choice) and the unknown/unused checks run, as the
 * stages of the tool do.  Corpus: corpus/options (one command line each).
 *   build-fuzz/tests/fuzz/fuzz_options tests/fuzz/corpus/options -dict=tests/fuzz/options.dict */
#include "fuzz_common.h"
#include "hdgcl/options.h"

#define MAX_WORDS 64

static void read_all(hdgcl_options opts, char **keys, int nkeys) {
  static const char *const choices[] = {"cg", "gmres", "bicgstab", "direct", NULL};
  static const char *const known[] = {"order", "tau", "mesh", "solver", "no-cache", "tol", NULL};
  static const char *const *const lists[] = {known, NULL};
  for (int i = 0; i < nkeys; i++) {
    const char *s;
    int n;
    double x;
    bool b;
    hdgcl_clear_error();
    fuzz_check_status(hdgcl_options_get_string(opts, keys[i], "default", &s), "get_string");
    hdgcl_clear_error();
    fuzz_check_status(hdgcl_options_get_int(opts, keys[i], 1, -5, 12, &n), "get_int");
    hdgcl_clear_error();
    fuzz_check_status(hdgcl_options_get_real(opts, keys[i], 0.5, -1e300, 1e300, &x), "get_real");
    hdgcl_clear_error();
    fuzz_check_status(hdgcl_options_get_bool(opts, keys[i], false, &b), "get_bool");
    hdgcl_clear_error();
    fuzz_check_status(hdgcl_options_get_choice(opts, keys[i], choices, 0, &n), "get_choice");
    hdgcl_options_has(opts, keys[i]);
  }
  hdgcl_clear_error();
  fuzz_check_status(hdgcl_options_check_known(opts, lists), "check_known");
  hdgcl_clear_error();
  fuzz_check_status(hdgcl_options_check_unused(opts), "check_unused");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = fuzz_string(data, size);
  if (!text) return 0;
  char *words[MAX_WORDS], *keys[MAX_WORDS];
  int nwords = 0;
  for (char *p = text; nwords < MAX_WORDS;) {
    words[nwords++] = p;
    char *nl = strchr(p, '\n');
    if (!nl) break;
    *nl = '\0';
    p = nl + 1;
  }
  /* The key each word names: after "--", up to '=' (copies, for the getters). */
  int nkeys = 0;
  for (int i = 0; i < nwords; i++) {
    const char *w = words[i];
    if (!strncmp(w, "--", 2)) w += 2;
    size_t n = strcspn(w, "=");
    keys[nkeys] = strndup(w, n);
    if (!keys[nkeys]) abort();
    nkeys++;
  }

  hdgcl_options cli = NULL;
  if (hdgcl_options_create(&cli)) abort();
  hdgcl_clear_error();
  int status = hdgcl_options_parse(cli, nwords, words, 0);
  fuzz_check_status(status, "hdgcl_options_parse");
  read_all(cli, keys, nkeys);
  hdgcl_options_destroy(&cli);

  hdgcl_options api = NULL;
  if (hdgcl_options_create(&api)) abort();
  for (int i = 0; i < nwords; i++) {
    char *eq = strchr(words[i], '=');
    if (eq) *eq = '\0';
    hdgcl_clear_error();
    fuzz_check_status(hdgcl_options_set(api, words[i], eq ? eq + 1 : NULL), "hdgcl_options_set");
  }
  read_all(api, keys, nkeys);
  hdgcl_options_destroy(&api);
  if (api || cli) abort();

  for (int i = 0; i < nkeys; i++) free(keys[i]);
  free(text);
  return 0;
}
