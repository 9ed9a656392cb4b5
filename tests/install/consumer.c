/* A program outside the hdgcl tree, built against an installed hdgcl (by
 * tests/install_consumer.sh, once through find_package and once through
 * pkg-config): prints the version, lists the devices and solves square:2
 * at p = 1 on the reference path. */
#include <hdgcl/hdgcl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(const char *what, int status) {
  fprintf(stderr, "consumer: %s: %s: %s\n", what, hdgcl_status_name(status), hdgcl_last_error());
  return 1;
}

int main(int argc, char **argv) {
  const char *expected_version = argc > 1 ? argv[1] : NULL;
  printf("hdgcl %s\n", hdgcl_version());
  if (expected_version && strcmp(hdgcl_version(), expected_version) != 0) {
    fprintf(stderr, "consumer: version %s, expected %s\n", hdgcl_version(), expected_version);
    return 1;
  }
  hdgcl_device_info *list = NULL;
  int count = 0, status = hdgcl_device_list(&list, &count);
  if (status) return fail("hdgcl_device_list", status);
  printf("%d OpenCL device(s)\n", count);
  free(list);

  hdgcl_options opts = NULL;
  hdgcl_context ctx = NULL;
  hdgcl_mesh *mesh = NULL;
  hdgcl_solver solver = NULL;
  const hdgcl_result *r = NULL;
  if ((status = hdgcl_options_create(&opts))) return fail("hdgcl_options_create", status);
  if ((status = hdgcl_options_set(opts, "order", "1"))) return fail("hdgcl_options_set", status);
  if ((status = hdgcl_context_create("ref", opts, &ctx))) return fail("hdgcl_context_create", status);
  if ((status = hdgcl_mesh_create_from_spec("square:2", &mesh))) return fail("mesh", status);
  if ((status = hdgcl_solver_create(ctx, mesh, opts, &solver))) return fail("hdgcl_solver_create", status);
  if ((status = hdgcl_solver_solve(solver))) return fail("hdgcl_solver_solve", status);
  if ((status = hdgcl_solver_result(solver, &r))) return fail("hdgcl_solver_result", status);
  printf("square:2 p=%d on %s: %d iterations, L2(u) error %.4e\n", r->order, r->device,
         r->iterations, r->l2_u);
  int ok = r->order == 1 && r->num_elements == 8 && r->l2_u > 0 && r->l2_u < 1.0 && r->residual < 1e-10;
  hdgcl_solver_destroy(&solver);
  hdgcl_mesh_destroy(&mesh);
  hdgcl_context_destroy(&ctx);
  hdgcl_options_destroy(&opts);
  if (!ok) {
    fprintf(stderr, "consumer: unexpected result\n");
    return 1;
  }
  return 0;
}
