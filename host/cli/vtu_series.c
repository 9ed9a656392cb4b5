/* `hdgcl solve --vtu FILE --vtu-every K` on a transient problem (cli.h):
 * every K-th time step (and the last) as STEM-NNNNNN.vtu, STEM = FILE without
 * its .vtu, and the ParaView collection STEM.pvd listing them with their
 * times, rewritten (atomically) after each, so that a run stopped halfway
 * leaves a series ParaView opens.  FILE = STEM.pvtu (a distributed solve,
 * docs/mpi.md): each step is STEM-NNNNNN.pvtu with one piece per rank
 * (STEM-NNNNNN_RRRR.vtu, written by every rank together), and rank 0 writes
 * the .pvd listing the .pvtu files. */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/error.h"
#include "core/temp_file.h"
#ifdef HDGCL_WITH_MPI
#include "hdgcl/mpi.h"
#endif

static int write_pvd(const vtu_series *v) {
  char path[4200];
  snprintf(path, sizeof path, "%s.pvd", v->stem);
  hdgcl_temp_file out;
  HDGCL_TRY(hdgcl_temp_open(&out, path, "w"));
  /* the .vtu files by name alone: they lie beside the .pvd */
  const char *base = strrchr(v->stem, '/');
  base = base ? base + 1 : v->stem;
  fprintf(out.f, "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"0.1\">\n"
                 "<Collection>\n");
  for (int i = 0; i < v->count; i++)
    fprintf(out.f, "<DataSet timestep=\"%.17g\" part=\"0\" file=\"%s-%06d.%s\"/>\n",
            v->times[i], base, v->steps[i], v->pvtu ? "pvtu" : "vtu");
  fprintf(out.f, "</Collection>\n</VTKFile>\n");
  return hdgcl_temp_commit(&out);
}

int cli_vtu_series_step(void *data, hdgcl_solver solver, int step, double time) {
  vtu_series *v = data;
  const hdgcl_result *r;
  HDGCL_TRY(hdgcl_solver_result(solver, &r));
  if (step == 1) v->count = 0; /* a new solve (--warmup, --repeat): a new series */
  if (step % v->every != 0 && step != r->time_steps) return HDGCL_SUCCESS;
  if (v->count == v->capacity) {
    int cap = v->capacity ? 2 * v->capacity : 64;
    double *t = realloc(v->times, (size_t)cap * sizeof *t);
    if (!t) return hdgcl_error(HDGCL_ERROR_MEMORY, "--vtu-every: out of host memory");
    v->times = t;
    int *s = realloc(v->steps, (size_t)cap * sizeof *s);
    if (!s) return hdgcl_error(HDGCL_ERROR_MEMORY, "--vtu-every: out of host memory");
    v->steps = s;
    v->capacity = cap;
  }
  char path[4200];
  snprintf(path, sizeof path, "%s-%06d.%s", v->stem, step, v->pvtu ? "pvtu" : "vtu");
#ifdef HDGCL_WITH_MPI
  if (v->pvtu) /* collective: every rank's piece and rank 0's index, or nothing */
    HDGCL_TRY(hdgcl_solver_write_pvtu(solver, path, 0));
  else
#endif
    HDGCL_TRY(hdgcl_solver_write_vtu(solver, path, 0));
  v->times[v->count] = time;
  v->steps[v->count++] = step;
  return cli_mpi_rank() == 0 ? write_pvd(v) : HDGCL_SUCCESS;
}

int cli_vtu_series_init(vtu_series *v, const char *vtu_path, int every) {
  memset(v, 0, sizeof *v);
  size_t n = strlen(vtu_path);
  if (n >= 4 && strcmp(vtu_path + n - 4, ".vtu") == 0) n -= 4;
  else if (n >= 5 && strcmp(vtu_path + n - 5, ".pvtu") == 0) n -= 5, v->pvtu = true;
  if (n == 0 || n >= sizeof v->stem)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "--vtu %s: not a usable file name for a series", vtu_path);
  memcpy(v->stem, vtu_path, n);
  v->stem[n] = '\0';
  v->every = every;
  return HDGCL_SUCCESS;
}

void cli_vtu_series_free(vtu_series *v) {
  free(v->times);
  free(v->steps);
  v->times = NULL;
  v->steps = NULL;
}
