/* The `hdgcl mesh` subcommand, run as a user would ($HDGCL_CLI): summary
 * line, Gmsh output that reads back, and errors (bad spec, unknown option,
 * bad format) that exit non-zero with one error line and leave no file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "cli_run.h"
#include "test_mesh_checks.h"
#include "test_mesh_files.h"

/* Runs "$HDGCL_CLI mesh ARGS" in dir with stdout/stderr captured; returns the exit code. */
static int run_mesh(const char *dir, const char *args) {
  char full[4096];
  snprintf(full, sizeof full, "mesh %s", args);
  return cli_run(dir, full);
}

static int count_lines(const char *s) {
  int n = 0;
  for (; *s; s++) n += *s == '\n';
  return n;
}

/* A failing run: non-zero exit, one error line containing `part`, nothing on
 * stdout, and no file left in dir. */
static void check_failure(const char *dir, const char *args, const char *part) {
  int code = run_mesh(dir, args);
  CHECK_MSG(code != 0, "'%s' exited 0", args);
  CHECK_MSG(count_lines(cli_err) == 1 && strstr(cli_err, "hdgcl mesh: error: ") == cli_err,
            "'%s': stderr is not one error line: %s", args, cli_err);
  CHECK_MSG(strstr(cli_err, part) != NULL, "'%s': error '%s' lacks '%s'", args, cli_err, part);
  CHECK_MSG(cli_out[0] == '\0', "'%s' printed: %s", args, cli_out);
  CHECK_MSG(tmf_count_entries(dir) == 0, "'%s' left %d file(s)", args, tmf_count_entries(dir));
}

int main(void) {
  CHECK_MSG(getenv("HDGCL_CLI") != NULL, "HDGCL_CLI is not set");
  char *dir = tmf_make_dir();
  CHECK(dir != NULL);
  if (!dir || !getenv("HDGCL_CLI")) CHECK_DONE();
  char path[1024], args[2048];

  /* write, then read back: the same mesh as the spec gives */
  tmf_path(dir, "square.msh", path, sizeof path);
  snprintf(args, sizeof args, "--mesh square:4 --output \"%s\"", path);
  CHECK(run_mesh(dir, args) == 0);
  CHECK_MSG(strstr(cli_out, "triangle mesh: 25 vertices, 32 elements, 56 faces (40 interior, 16 "
                             "boundary), area 1\n") == cli_out,
            "summary: %s", cli_out);
  CHECK(strstr(cli_out, "Gmsh 4.1") != NULL);
  CHECK(cli_err[0] == '\0');
  hdgcl_mesh *a = NULL, *b = NULL;
  CHECK_OK(hdgcl_mesh_read_gmsh(path, &a));
  CHECK_OK(hdgcl_mesh_create_from_spec("square:4", &b));
  if (a && b) tmc_check_same_mesh(a, b);
  hdgcl_mesh_destroy(&a);
  hdgcl_mesh_destroy(&b);
  remove(path);

  /* format 2.2, a 3D mesh */
  tmf_path(dir, "hex.msh", path, sizeof path);
  snprintf(args, sizeof args, "--mesh hex:2x1x3,perturb=0.2 --output=\"%s\" --format 22", path);
  CHECK(run_mesh(dir, args) == 0);
  CHECK(strstr(cli_out, "hexahedron mesh: 24 vertices, 6 elements, ") == cli_out);
  CHECK(strstr(cli_out, "volume 1") != NULL);
  CHECK_OK(hdgcl_mesh_read_gmsh(path, &a));
  CHECK_OK(hdgcl_mesh_create_from_spec("hex:2x1x3,perturb=0.2", &b));
  if (a && b) tmc_check_same_mesh(a, b);
  hdgcl_mesh_destroy(&a);
  hdgcl_mesh_destroy(&b);
  FILE *f = fopen(path, "r");
  char line[64] = "";
  if (f) {
    CHECK(fgets(line, sizeof line, f) && fgets(line, sizeof line, f));
    fclose(f);
  }
  CHECK(!strcmp(line, "2.2 0 8\n"));
  remove(path);

  /* binary 4.1, read back by the CLI and the library */
  tmf_path(dir, "tet_bin.msh", path, sizeof path);
  snprintf(args, sizeof args, "--mesh cube:2x1x2,perturb=0.2 --output \"%s\" --binary", path);
  CHECK(run_mesh(dir, args) == 0);
  CHECK_MSG(strstr(cli_out, "(Gmsh 4.1 binary)\n") != NULL, "%s", cli_out);
  CHECK_OK(hdgcl_mesh_read_gmsh(path, &a));
  CHECK_OK(hdgcl_mesh_create_from_spec("cube:2x1x2,perturb=0.2", &b));
  if (a && b) tmc_check_same_mesh(a, b);
  hdgcl_mesh_destroy(&a);
  hdgcl_mesh_destroy(&b);
  snprintf(args, sizeof args, "--mesh \"%s\"", path);
  CHECK(run_mesh(dir, args) == 0);
  CHECK_MSG(strstr(cli_out, "tetrahedron mesh: 18 vertices, 24 elements, ") == cli_out, "%s",
            cli_out);
  remove(path);

  /* summary only; a Gmsh file as input */
  CHECK(run_mesh(dir, "--mesh cube:2") == 0);
  CHECK(!strcmp(cli_out, "tetrahedron mesh: 27 vertices, 48 elements, 120 faces (72 interior, 48 "
                          "boundary), volume 1\n"
                          "boundary tags: 1 left (8 faces), 2 right (8 faces), 3 bottom (8 faces), "
                          "4 top (8 faces), 5 back (8 faces), 6 front (8 faces)\n"));
  CHECK(tmf_count_entries(dir) == 0);
  snprintf(args, sizeof args, "--mesh \"%s/gmsh_quad41.msh\"", getenv("HDGCL_TEST_DATA"));
  CHECK(run_mesh(dir, args) == 0);
  CHECK_MSG(strstr(cli_out, "quadrilateral mesh: 79 vertices, 62 elements") == cli_out, "%s",
            cli_out);
  CHECK_MSG(strstr(cli_out, "\nboundary tags: 1 outer (24 faces), 2 reentrant (8 faces)\n"
                            "element tags: 5 domain (62 elements)\n") != NULL,
            "%s", cli_out);

  CHECK(run_mesh(dir, "--help") == 0);
  CHECK(strstr(cli_out, "usage: hdgcl mesh --mesh SPEC") == cli_out);

  /* errors: one line, non-zero exit, no output file */
  tmf_path(dir, "bad.msh", path, sizeof path);
  snprintf(args, sizeof args, "--mesh square:0 --output \"%s\"", path);
  check_failure(dir, args, "mesh spec 'square:0'");
  snprintf(args, sizeof args, "--mesh square:4,diag=up --output \"%s\"", path);
  check_failure(dir, args, "mesh spec 'square:4,diag=up'");
  snprintf(args, sizeof args, "--mesh square:4 --output \"%s\" --outptu x", path);
  check_failure(dir, args, "unknown option --outptu");
  snprintf(args, sizeof args, "--mesh square:4 --output \"%s\" --format 40", path);
  check_failure(dir, args, "--format 40");
  snprintf(args, sizeof args, "--mesh square:4 --output \"%s\" --format 22 --binary", path);
  check_failure(dir, args, "--binary writes Gmsh 4.1 only");
  check_failure(dir, "--mesh square:4 --binary", "--binary needs --output");
  snprintf(args, sizeof args, "--output \"%s\"", path);
  check_failure(dir, args, "--mesh SPEC is required");
  check_failure(dir, "--mesh square:2 --output", "--output needs a file name");
  snprintf(args, sizeof args, "--mesh \"%s/missing.msh\" --output \"%s\"", dir, path);
  check_failure(dir, args, "missing.msh");
  snprintf(args, sizeof args, "--mesh square:2 --output \"%s/no/such/dir/out.msh\"", dir);
  check_failure(dir, args, "out.msh");
  tmf_remove_dir(dir);
  CHECK_DONE();
}
