/* libFuzzer harness: the mesh spec parser (hdgcl_mesh_create_from_spec,
 * meshgen/spec.c), e.g. "square:4x3,diag=alt,perturb=0.1,seed=7", on the
 * input as the spec string; accepted meshes are validated.  Two kinds of
 * input are skipped: specs ending in ".msh" (a file path: fuzz_gmsh covers
 * the reader) and specs asking for more than MAX_CELLS cells, which are
 * valid but only cost time and memory (the generators check the 32-bit
 * limits themselves).  Corpus: corpus/spec.
 *   build-fuzz/tests/fuzz/fuzz_spec tests/fuzz/corpus/spec -dict=tests/fuzz/spec.dict */
#include <stdbool.h>

#include "fuzz_common.h"
#include "hdgcl/mesh.h"

#define MAX_CELLS 512

/* The number of cells the spec asks for: the product of the counts after
 * the first ':' ("N", "NxM", "NxMxL"; N alone is N^2 or N^3 cells), read
 * as generously as the parser (digits only); MAX_CELLS + 1 when larger. */
static unsigned long long cells(const char *spec) {
  const char *p = strchr(spec, ':');
  if (!p) return 0;
  bool planar = !strncmp(spec, "square:", 7) || !strncmp(spec, "quad:", 5);
  unsigned long long n[3] = {1, 1, 1};
  int count = 0;
  for (p++; count < 3 && *p >= '0' && *p <= '9';) {
    unsigned long long v = 0;
    while (*p >= '0' && *p <= '9') {
      v = v * 10 + (unsigned)(*p++ - '0');
      if (v > MAX_CELLS) return MAX_CELLS + 1;
    }
    n[count++] = v ? v : 1;
    if (*p != 'x') break;
    p++;
  }
  if (count <= 1) n[1] = n[2] = n[0];
  if (planar) n[2] = 1;
  unsigned long long product = n[0] * n[1] * n[2]; /* each <= MAX_CELLS: no overflow */
  return product > MAX_CELLS ? MAX_CELLS + 1 : product;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *spec = fuzz_string(data, size);
  if (!spec) return 0;
  size_t n = strlen(spec);
  if ((n >= 4 && !strcmp(spec + n - 4, ".msh")) || cells(spec) > MAX_CELLS) {
    free(spec);
    return 0;
  }
  hdgcl_mesh *mesh = NULL;
  hdgcl_clear_error();
  int status = hdgcl_mesh_create_from_spec(spec, &mesh);
  fuzz_check_status(status, "hdgcl_mesh_create_from_spec");
  if (status == HDGCL_SUCCESS) {
    if (!mesh || hdgcl_mesh_validate(mesh) != HDGCL_SUCCESS) {
      fprintf(stderr, "spec '%s': %s\n", spec, mesh ? hdgcl_last_error() : "no mesh");
      abort(); /* the generators make valid meshes */
    }
    hdgcl_mesh_destroy(&mesh);
  } else if (mesh) {
    abort();
  }
  free(spec);
  return 0;
}
