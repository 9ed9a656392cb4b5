/* libFuzzer harness: the CLBlast tuning file reader (host/core/blas_tuning.c,
 * docs/clblast-tuning.md; the files of perf/clblast/ and $HDGCL_CLBLAST_TUNING)
 * on the input as the file's text, through hdgcl_blas_tuning_check (the
 * parser that describe and apply run, without CLBlast or a device).
 * Corpus: corpus/blas_tuning (perf/clblast/ and tests/data/clblast files).
 *   build-fuzz/tests/fuzz/fuzz_blas_tuning tests/fuzz/corpus/blas_tuning -dict=tests/fuzz/blas_tuning.dict */
#include "core/blas.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = fuzz_string(data, size);
  if (!text) return 0;
  hdgcl_clear_error();
  fuzz_check_status(hdgcl_blas_tuning_check(text, "fuzz.txt"), "hdgcl_blas_tuning_check");
  free(text);
  return 0;
}
