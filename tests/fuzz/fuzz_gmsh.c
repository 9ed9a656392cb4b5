/* libFuzzer harness: the Gmsh reader (ASCII 2.2 and 4.1, binary 4.1,
 * meshgen/gmsh_read*.c) on the input as a file's content, through
 * gmsh_read_stream on a memory stream (fmemopen), so no temporary file;
 * a mesh it accepts is then checked with hdgcl_mesh_validate and its tags
 * looked up.  Corpus: corpus/gmsh (tests/data/ meshes and small variants;
 * bin_*.msh: the binary files of tests/test_gmsh_binary.c).
 *   build-fuzz/tests/fuzz/fuzz_gmsh tests/fuzz/corpus/gmsh -dict=tests/fuzz/gmsh.dict
 * (tests/fuzz/README.md). */
#include "fuzz_common.h"
#include "gmsh_sections.h"
#include "hdgcl/mesh.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0) return 0; /* fmemopen refuses an empty buffer */
  FILE *f = fmemopen((void *)data, size, "r");
  if (!f) abort();
  hdgcl_mesh *mesh = NULL;
  hdgcl_clear_error();
  int status = gmsh_read_stream(f, "fuzz.msh", &mesh);
  fclose(f);
  fuzz_check_status(status, "gmsh_read_stream");
  if (status == HDGCL_SUCCESS) {
    if (!mesh) abort();
    hdgcl_mesh_validate(mesh); /* may refuse (e.g. a flat element): only memory safety here */
    int32_t tag;
    hdgcl_mesh_find_tag(mesh, mesh->dim - 1, "1", &tag);
    hdgcl_mesh_find_tag(mesh, mesh->dim, "1", &tag);
    hdgcl_mesh_destroy(&mesh);
  } else if (mesh) {
    abort(); /* a failure leaves no mesh */
  }
  return 0;
}
