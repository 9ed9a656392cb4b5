/* libFuzzer harness: problem files of user-defined problems (docs/problems.md)
 * end to end on the host: the JSON (cJSON) mapped onto options
 * (hdg_problem_file_parse, host/problem/problem_file.c), the definition
 * read from them with every expression parsed (hdg_user_problem_create,
 * user_problem.c, user_kappa.c), then bound to two small meshes (a square
 * and a cube, split in two regions, sides tagged and named), the element
 * coefficients computed and the OpenCL C prelude emitted
 * (user_problem_emit.c) -- no device involved.  Corpus: corpus/problem_file
 * (the examples JSON files, the JSON of docs/problems.md and tests).
 *   build-fuzz/tests/fuzz/fuzz_problem_file tests/fuzz/corpus/problem_file -dict=tests/fuzz/problem_file.dict */
#include "fuzz_common.h"
#include "problem/problem_file.h"
#include "problem/user_problem.h"

static hdgcl_mesh *meshes[2];

static void bind(hdg_user_problem *up, const hdgcl_mesh *mesh) {
  size_t nb = (size_t)(mesh->num_faces - mesh->num_interior_faces) + 1;
  size_t ne = (size_t)mesh->num_elements;
  int8_t *bnd = calloc(3 * nb, 1);
  double *values = calloc(ne * (4 + KAPPA_TENSOR_VALUES(3)), sizeof(double));
  if (!bnd || !values) abort();
  hdgcl_clear_error();
  int status = hdg_user_problem_bind(up, mesh, bnd, bnd + nb, bnd + 2 * nb);
  fuzz_check_status(status, "hdg_user_problem_bind");
  if (status == HDGCL_SUCCESS) {
    double *kappa = values, *c = values + ne, *mu = values + 2 * ne, *lambda = values + 3 * ne;
    double *tensor = up->tensor_kappa ? values + 4 * ne : NULL;
    hdgcl_clear_error();
    fuzz_check_status(hdg_user_problem_coefficients(up, mesh, kappa, tensor, c, mu, lambda),
                      "hdg_user_problem_coefficients");
    for (int32_t e = 0; e < mesh->num_elements; e++) hdg_user_element_set(up, mesh, e);
    const double x[3] = {0.5, 0.0, 0.5};
    for (int k = 0; k < up->num_conditions; k++) hdg_user_robin_alpha(up, k, x);
    char *source = NULL;
    hdgcl_clear_error();
    fuzz_check_status(hdg_user_problem_emit(up, &source), "hdg_user_problem_emit");
    free(source);
  }
  free(bnd);
  free(values);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!meshes[0]) {
    if (hdgcl_mesh_create_from_spec("square:2,split=x:0.5", &meshes[0]) ||
        hdgcl_mesh_create_from_spec("cube:1,split=z:0.5", &meshes[1]))
      abort();
  }
  char *text = fuzz_string(data, size);
  if (!text) return 0;
  hdgcl_options opts = NULL;
  hdgcl_clear_error();
  int status = hdg_problem_file_parse(text, "fuzz.json", &opts);
  fuzz_check_status(status, "hdg_problem_file_parse");
  free(text);
  if (status != HDGCL_SUCCESS) {
    if (opts) abort();
    return 0;
  }
  hdg_user_problem *up = NULL;
  hdgcl_clear_error();
  status = hdg_user_problem_create(opts, &up);
  fuzz_check_status(status, "hdg_user_problem_create");
  if (status == HDGCL_SUCCESS) {
    for (int m = 0; m < 2; m++) bind(up, meshes[m]);
    hdg_user_problem_destroy(&up);
  }
  hdgcl_options_destroy(&opts);
  return 0;
}
