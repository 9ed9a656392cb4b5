/* The distributed solve (docs/mpi.md) of what it took on after the steady
 * scalar and elasticity problems, run by mpirun on 1, 2 and 3 ranks, each
 * against the serial solve of the whole mesh on every rank (u, q, u* of the
 * rank's elements and the global figures to 1e-10 relative):
 *   - a mixed triangle + quadrilateral mesh, partitioned by element work
 *     (METIS vertex weights): on 2 and 3 ranks the weighted split differs
 *     from the split by count (HDGCL_MPI_UNWEIGHTED=1) and is better balanced
 *     in work;
 *   - the cantilever: its tip deflection (a mean over the end faces) and
 *     Euler-Bernoulli's reference, one material and two layers (E19);
 *   - transient problems: backward Euler, DIRK(3,3) and BDF2, every stage's
 *     solve distributed, from the previous stage's trace (T5): the same
 *     iterations as serially and the errors at the final time;
 *   - user problem files (examples/): fluxes, integrals, a point (on a vertex:
 *     the serial search's element) and the largest von Mises stress reduced
 *     over the ranks, Robin faces, a transient one; a reaction output is
 *     refused by name.  Usage: test_mpi_problems EXAMPLES_DIR */
#include <mpi.h>
#include <stdlib.h>

#include "core/not_our_leaks.h"
#include "hdg_test.h"
#include "hdgcl/mpi.h"

#define TOL 1e-10

static int rank, size;

#define MUST(call)                                                                              \
  do {                                                                                          \
    int must_status_ = (call);                                                                  \
    if (must_status_ != HDGCL_SUCCESS) {                                                        \
      fprintf(stderr, "rank %d: %s:%d: %s: %s\n", rank, __FILE__, __LINE__, #call,              \
              hdgcl_last_error());                                                              \
      MPI_Abort(MPI_COMM_WORLD, 1);                                                             \
    }                                                                                           \
  } while (0)

/* Values per row of u and u* of an element type at order p (one component). */
static void row_sizes(hdgcl_element_type t, size_t p, size_t *np, size_t *np1) {
  bool tensor = t == HDGCL_QUADRILATERAL || t == HDGCL_HEXAHEDRON;
  bool three = t == HDGCL_TETRAHEDRON || t == HDGCL_HEXAHEDRON;
  size_t a = p + 1, b = p + 2;
  if (tensor) {
    *np = three ? a * a * a : a * a;
    *np1 = three ? b * b * b : b * b;
  } else {
    *np = three ? a * b * (p + 3) / 6 : a * b / 2;
    *np1 = three ? b * (p + 3) * (p + 4) / 6 : b * (p + 3) / 2;
  }
}

/* The widest element type among elements[0..n) of mesh (all of it: NULL). */
static hdgcl_element_type widest(const hdgcl_mesh *mesh, const int32_t *elements, int32_t n) {
  int32_t count = elements ? n : mesh->num_elements, best = elements ? elements[0] : 0;
  for (int32_t i = 0; i < count; i++) {
    int32_t e = elements ? elements[i] : i;
    if (hdgcl_mesh_element_verts(mesh, e) > hdgcl_mesh_element_verts(mesh, best)) best = e;
  }
  return hdgcl_mesh_element_type(mesh, best);
}

static hdgcl_options options_of(const char *const kv[][2], int nkv) {
  hdgcl_options opts;
  MUST(hdgcl_options_create(&opts));
  for (int i = 0; i < nkv; i++) MUST(hdgcl_options_set(opts, kv[i][0], kv[i][1]));
  return opts;
}

/* The serial and the distributed solve of spec with the options kv: the
 * figures, the iterations, and u, q, u* of the rank's elements (each
 * element's own values in rows as wide as each solve's widest type; nc
 * components).  Of the largest von Mises stress the value (its point may be
 * any of several where the value ties up to rounding). */
static void compare(hdgcl_context ctx, const char *what, const char *spec, const char *const kv[][2],
                    int nkv, size_t nc) {
  char label[200];
  snprintf(label, sizeof label, "%s %s, %d ranks", what, spec, size);
  hdgcl_mesh *mesh;
  MUST(hdgcl_mesh_create_from_spec(spec, &mesh));
  hdgcl_options opts = options_of(kv, nkv);
  hdgcl_solver ser = NULL, s = NULL;
  MUST(hdgcl_solver_create(ctx, mesh, opts, &ser));
  MUST(hdgcl_solver_solve(ser));
  MUST(hdgcl_solver_create_mpi(ctx, mesh, opts, MPI_COMM_WORLD, &s));
  MUST(hdgcl_solver_solve(s));
  const hdgcl_result *r, *sr;
  MUST(hdgcl_solver_result(s, &r));
  MUST(hdgcl_solver_result(ser, &sr));
  double pairs[][2] = {{r->l2_u, sr->l2_u},       {r->l2_q, sr->l2_q},
                       {r->l2_ustar, sr->l2_ustar}, {r->norm_u, sr->norm_u},
                       {r->linf_u, sr->linf_u},   {r->tip_deflection, sr->tip_deflection},
                       {r->beam_deflection, sr->beam_deflection}};
  for (size_t i = 0; i < sizeof pairs / sizeof *pairs; i++)
    CHECK_MSG((isnan(pairs[i][0]) && isnan(pairs[i][1])) ||
                  fabs(pairs[i][0] - pairs[i][1]) <= TOL * fabs(pairs[i][1]),
              "%s: figure %zu: %.15e distributed, %.15e serial", label, i, pairs[i][0], pairs[i][1]);
  /* the same iterations as serially (measured: equal); a time stepping's sum
   * within 1 + 1 %: each stage starts from the previous trace as serially
   * (from zero instead, dirk3 took 492 against 473) */
  int slack = sr->time_steps > 0 ? 1 + sr->iterations / 100 : 2 + sr->iterations / 10;
  CHECK_MSG(abs(r->iterations - sr->iterations) <= slack,
            "%s: %d iterations distributed, %d serially", label, r->iterations, sr->iterations);
  CHECK_MSG(r->num_outputs == sr->num_outputs, "%s: %d outputs, serially %d", label,
            r->num_outputs, sr->num_outputs);
  for (int i = 0; i < r->num_outputs && i < sr->num_outputs; i++) {
    const hdgcl_output *a = &r->outputs[i], *b = &sr->outputs[i];
    double big = 0.0, diff = 0.0;
    int nv = strcmp(b->label, "von-mises") == 0 ? 1 : b->num_values;
    for (int k = 0; k < nv; k++) {
      big = fmax(big, fabs(b->values[k]));
      diff = fmax(diff, fabs(a->values[k] - b->values[k]));
    }
    CHECK_MSG(a->num_values == b->num_values && diff <= TOL * big,
              "%s: output %s differs from the serial one by %.2e of %.3e", label, b->label, diff, big);
  }
  CHECK_MSG(r->num_elements == sr->num_elements && r->trace_dofs == sr->trace_dofs &&
                r->time_steps == sr->time_steps && r->stage_solves == sr->stage_solves,
            "%s: counts differ from the serial solve's", label);
  const int32_t *elems;
  int32_t ne;
  MUST(hdgcl_solver_part_elements(s, &elems, &ne));
  const double *u, *q, *us, *su, *sq, *sus;
  MUST(hdgcl_solver_solution(s, &u, &q, &us, NULL));
  MUST(hdgcl_solver_solution(ser, &su, &sq, &sus, NULL));
  /* vector problems: nc = dim components, H = grad u */
  size_t p = (size_t)sr->order, dim = (size_t)mesh->dim, rnp, rnp1, snp, snp1;
  row_sizes(widest(mesh, elems, ne), p, &rnp, &rnp1);
  row_sizes(widest(mesh, NULL, 0), p, &snp, &snp1);
  double du = 0, dq = 0, ds = 0, mu = 0, mq = 0, ms = 0;
  for (int32_t i = 0; i < ne; i++) {
    size_t e = (size_t)elems[i], np, np1;
    row_sizes(hdgcl_mesh_element_type(mesh, elems[i]), p, &np, &np1);
    for (size_t c = 0; c < nc; c++) {
      for (size_t k = 0; k < np; k++) {
        double a = u[(i * nc + c) * rnp + k], b = su[(e * nc + c) * snp + k];
        du = fmax(du, fabs(a - b));
        mu = fmax(mu, fabs(b));
      }
      for (size_t d = 0; d < dim; d++)
        for (size_t k = 0; k < np; k++) {
          double a = q[((i * nc + c) * dim + d) * rnp + k], b = sq[((e * nc + c) * dim + d) * snp + k];
          dq = fmax(dq, fabs(a - b));
          mq = fmax(mq, fabs(b));
        }
      for (size_t k = 0; k < np1; k++) {
        double a = us[(i * nc + c) * rnp1 + k], b = sus[(e * nc + c) * snp1 + k];
        ds = fmax(ds, fabs(a - b));
        ms = fmax(ms, fabs(b));
      }
    }
  }
  CHECK_MSG(du <= TOL * mu && dq <= TOL * mq && ds <= TOL * ms,
            "%s, rank %d: u, q, u* differ from the serial solve's by %.2e, %.2e, %.2e relative",
            label, rank, du / mu, dq / mq, ds / ms);
  if (rank == 0) {
    printf("%-60s iterations %d (serial %d), L2(u) %.15e", label, r->iterations, sr->iterations,
           r->l2_u);
    if (!isnan(r->tip_deflection)) printf(", tip %.15e", r->tip_deflection);
    for (int i = 0; i < r->num_outputs; i++) printf(", %s %.12e", r->outputs[i].label, r->outputs[i].values[0]);
    printf("\n");
  }
  hdgcl_solver_destroy(&s);
  hdgcl_solver_destroy(&ser);
  hdgcl_options_destroy(&opts);
  hdgcl_mesh_destroy(&mesh);
}

/* The work imbalance (heaviest rank over the mean) and the elements per rank. */
static double partition_of(hdgcl_context ctx, const hdgcl_mesh *mesh, hdgcl_options opts,
                           int32_t *elements) {
  hdgcl_solver s = NULL;
  MUST(hdgcl_solver_create_mpi(ctx, mesh, opts, MPI_COMM_WORLD, &s));
  const int32_t *el;
  const double *work;
  int ranks;
  MUST(hdgcl_solver_partition_figures(s, &el, &work, &ranks));
  CHECK(ranks == size);
  double sum = 0, most = 0;
  for (int k = 0; k < ranks; k++) {
    elements[k] = el[k];
    sum += work[k];
    most = fmax(most, work[k]);
  }
  hdgcl_solver_destroy(&s);
  return most / (sum / ranks);
}

/* The weighted partition of a mixed mesh against the split by count. */
static void check_weights(hdgcl_context ctx, const char *spec, const char *order) {
  hdgcl_mesh *mesh;
  MUST(hdgcl_mesh_create_from_spec(spec, &mesh));
  const char *const kv[][2] = {{"order", order}};
  hdgcl_options opts = options_of(kv, 1);
  int32_t weighted[8] = {0}, counted[8] = {0};
  double iw = partition_of(ctx, mesh, opts, weighted);
  setenv("HDGCL_MPI_UNWEIGHTED", "1", 1);
  double ic = partition_of(ctx, mesh, opts, counted);
  unsetenv("HDGCL_MPI_UNWEIGHTED");
  if (size > 1) {
    CHECK_MSG(memcmp(weighted, counted, sizeof weighted) != 0,
              "%s p=%s, %d ranks: the weighted split is the split by count", spec, order, size);
    CHECK_MSG(iw < ic && iw < 1.1, "%s p=%s, %d ranks: work imbalance %.3f weighted, %.3f by count",
              spec, order, size, iw, ic);
  }
  if (rank == 0) {
    printf("%s p=%s, %d ranks: elements per rank", spec, order, size);
    for (int k = 0; k < size; k++) printf(" %d", (int)weighted[k]);
    printf(" (by count:");
    for (int k = 0; k < size; k++) printf(" %d", (int)counted[k]);
    printf("), work imbalance %.3f (by count %.3f)\n", iw, ic);
  }
  hdgcl_options_destroy(&opts);
  hdgcl_mesh_destroy(&mesh);
}

int main(int argc, char **argv) {
  NOT_OUR_LEAKS_BEGIN(); /* Open MPI's own (core/not_our_leaks.h) */
  MPI_Init(&argc, &argv);
  NOT_OUR_LEAKS_END();
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size > 8) MPI_Abort(MPI_COMM_WORLD, 1);
  hdgcl_context ctx = test_device();
  /* a mixed mesh: split by work, solved as serially */
  check_weights(ctx, "mixed:8", "2");
  const char *const mixed[][2] = {{"order", "2"}, {"rtol", "1e-13"}};
  compare(ctx, "helmholtz-sin p=2", "mixed:4,distort=0.1", mixed, 2, 1);
  /* the cantilever's tip, one material and two layers (E19) */
  const char *const beam[][2] = {{"problem", "cantilever"}, {"order", "2"}, {"precond", "asm"},
                                 {"rtol", "1e-12"}};
  compare(ctx, "cantilever p=2", "quad:4x2,size=2x1", beam, 4, 2);
  const char *const layered[][2] = {{"problem", "cantilever"}, {"order", "2"}, {"precond", "asm"},
                                    {"rtol", "1e-12"},
                                    {"material", "2:1.1538461538461537:1.7307692307692308"}};
  compare(ctx, "cantilever p=2, two layers", "quad:4x2,size=2x1,split=y:0.5", layered, 5, 2);
  /* time stepping: each stage's solve distributed */
  static const char *const schemes[] = {"be", "dirk3", "bdf2"};
  for (int i = 0; i < 3; i++) {
    const char *const heat[][2] = {{"problem", "heat-boundary"}, {"order", "2"},
                                   {"scheme", schemes[i]},        {"time-step", "0.05"},
                                   {"final-time", "0.2"},         {"rtol", "1e-13"}};
    char what[64];
    snprintf(what, sizeof what, "heat-boundary p=2 %s, 4 steps", schemes[i]);
    compare(ctx, what, "square:4", heat, 6, 1);
  }
  const char *const heat3[][2] = {{"problem", "heat"},   {"order", "1"},   {"scheme", "dirk2"},
                                  {"time-step", "0.1"}, {"final-time", "0.2"}, {"rtol", "1e-13"}};
  compare(ctx, "heat p=1 dirk2, 2 steps", "cube:2", heat3, 6, 1);
  /* user problem files: outputs reduced over the ranks */
  const char *examples = argc > 1 ? argv[1] : "examples";
  char file[2][4096];
  snprintf(file[0], sizeof file[0], "%s/manufactured-robin.json", examples);
  const char *const robin[][2] = {{"problem-file", file[0]}, {"order", "2"}, {"rtol", "1e-13"}};
  compare(ctx, "manufactured-robin.json p=2", "square:4", robin, 3, 1);
  snprintf(file[0], sizeof file[0], "%s/heat-plate.json", examples);
  const char *const plate[][2] = {{"problem-file", file[0]}, {"order", "2"}, {"rtol", "1e-13"}};
  compare(ctx, "heat-plate.json p=2", "square:4,split=x:0.5", plate, 3, 1);
  snprintf(file[0], sizeof file[0], "%s/heat-transient.json", examples);
  const char *const warm[][2] = {{"problem-file", file[0]}, {"order", "2"}, {"rtol", "1e-13"},
                                 {"time-step", "0.1"},      {"final-time", "0.3"}};
  compare(ctx, "heat-transient.json p=2, 3 steps", "square:4", warm, 5, 1);
  /* elasticity: the largest von Mises stress and a point (elastic-plate.json
   * without its reaction output, written here) */
  int pid = (int)getpid(); /* rank 0's: one file name for all ranks */
  MPI_Bcast(&pid, 1, MPI_INT, 0, MPI_COMM_WORLD);
  snprintf(file[1], sizeof file[1], "/tmp/hdgcl_mpi_plate_%d.json", pid);
  if (rank == 0) {
    FILE *f = fopen(file[1], "w");
    if (!f) MPI_Abort(MPI_COMM_WORLD, 1);
    fprintf(f, "{\"pde\": \"elasticity\", \"constants\": {\"E\": 1, \"nu\": 0.3},\n"
               " \"mu\": \"E / (2*(1 + nu))\", \"lambda\": \"E*nu / ((1 + nu)*(1 - 2*nu))\",\n"
               " \"boundary\": {\"left\": {\"displacement\": [0, 0]}, \"right\": {\"traction\": "
               "[0.01, 0]}, \"bottom, top\": {\"traction\": [0, 0]}},\n"
               " \"outputs\": [\"von-mises\", {\"point\": [0.7, 0.4]}]}\n");
    fclose(f);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  const char *const elastic[][2] = {{"problem-file", file[1]}, {"order", "2"}, {"rtol", "1e-12"},
                                    {"solver", "gmres"},      {"precond", "asm"}};
  compare(ctx, "elastic plate p=2", "quad:4x2,size=2x1", elastic, 5, 2);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) remove(file[1]);
  /* a reaction output is refused by name, on every rank */
  {
    snprintf(file[0], sizeof file[0], "%s/elastic-plate.json", examples);
    const char *const kv[][2] = {{"problem-file", file[0]}, {"order", "1"}};
    hdgcl_options opts = options_of(kv, 2);
    hdgcl_mesh *mesh;
    hdgcl_solver s = NULL;
    MUST(hdgcl_mesh_create_from_spec("square:2", &mesh));
    CHECK_FAILS(hdgcl_solver_create_mpi(ctx, mesh, opts, MPI_COMM_WORLD, &s), HDGCL_ERROR_ARGUMENT);
    CHECK_MSG(strstr(hdgcl_last_error(), "a reaction output"), "unexpected message: %s",
              hdgcl_last_error());
    CHECK(s == NULL);
    hdgcl_mesh_destroy(&mesh);
    hdgcl_options_destroy(&opts);
  }
  hdgcl_context_destroy(&ctx);
  int failures = 0;
  MPI_Allreduce(&check_failures, &failures, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  NOT_OUR_LEAKS_BEGIN();
  MPI_Finalize();
  NOT_OUR_LEAKS_END();
  if (rank == 0 && failures) fprintf(stderr, "%d checks failed\n", failures);
  return failures ? 1 : 0;
}
