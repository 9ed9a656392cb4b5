/* The hdgcl tool under mpirun (cli.h, docs/mpi.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/error.h"

#ifdef HDGCL_WITH_MPI
#include <mpi.h>

#include "core/mpi_start.h"

static bool active;

/* Started by a launcher as one of several processes (Open MPI's mpirun sets
 * OMPI_COMM_WORLD_SIZE, MPICH's PMI_SIZE).  One process stays serial and never
 * initialises MPI, also `mpirun -np 1` and a child of a process that
 * initialised MPI alone (hypre's MPI_Init in a test program: Open MPI's
 * singleton sets OMPI_COMM_WORLD_SIZE=1 in the environment its children
 * inherit). */
static bool launched(void) {
  const char *size = getenv("OMPI_COMM_WORLD_SIZE");
  if (!size) size = getenv("PMI_SIZE");
  return size && atoi(size) > 1;
}

int cli_mpi_init(int *argc, char ***argv) {
  if (!launched()) return HDGCL_SUCCESS;
  int flag = 0;
  MPI_Initialized(&flag);
  int rc = MPI_SUCCESS;
  if (!flag) rc = mpi_start(argc, argv);
  if (rc != MPI_SUCCESS) return hdgcl_error(HDGCL_ERROR_INTERNAL, "MPI_Init failed");
  active = true;
  return HDGCL_SUCCESS;
}

bool cli_mpi_active(void) { return active; }

int cli_mpi_rank(void) {
  int r = 0;
  if (active) MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

int cli_mpi_size(void) {
  int n = 1;
  if (active) MPI_Comm_size(MPI_COMM_WORLD, &n);
  return n;
}

int cli_mpi_device(const char *spec, const char **out) {
  static char chosen_spec[32];
  *out = spec;
  if (!active) return HDGCL_SUCCESS;
  const char *s = spec ? spec : getenv("HDGCL_DEVICE");
  if (s && !strcmp(s, "ref")) return HDGCL_SUCCESS;
  hdgcl_device_info *list = NULL;
  int count = 0, chosen = -1;
  HDGCL_TRY(hdgcl_device_list(&list, &count));
  /* the device the spec picks, then every device it matches alike (for auto:
   * those of the same platform and kind) */
  int status = hdgcl_device_match(s ? s : "auto", list, count, &chosen);
  int matching[256], n = 0;
  for (int i = 0; status == HDGCL_SUCCESS && i < count && n < 256; i++) {
    int one;
    bool alike = s && strcmp(s, "auto") ? hdgcl_device_match(s, list + i, 1, &one) == HDGCL_SUCCESS
                                        : list[i].fp64 && list[i].platform_index == list[chosen].platform_index &&
                                              list[i].is_gpu == list[chosen].is_gpu;
    if (alike) matching[n++] = i;
  }
  if (status == HDGCL_SUCCESS && n > 1) {
    MPI_Comm node;
    int local = 0;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_rank(node, &local);
    MPI_Comm_free(&node);
    const hdgcl_device_info *d = &list[matching[local % n]];
    snprintf(chosen_spec, sizeof chosen_spec, "%d:%d", d->platform_index, d->device_index);
    *out = chosen_spec;
  }
  free(list);
  return status;
}

int cli_mpi_gather_text(const char *line, char *all, int each) {
  char *mine = calloc((size_t)each, 1);
  if (!mine) return hdgcl_error(HDGCL_ERROR_MEMORY, "gather: no memory");
  snprintf(mine, (size_t)each, "%s", line);
  int rc = MPI_Gather(mine, each, MPI_CHAR, all, each, MPI_CHAR, 0, MPI_COMM_WORLD);
  free(mine);
  return rc == MPI_SUCCESS ? HDGCL_SUCCESS : hdgcl_error(HDGCL_ERROR_INTERNAL, "MPI_Gather failed");
}

void cli_mpi_abort(const char *command, const char *message) {
  int rank = cli_mpi_rank(), size = cli_mpi_size();
  fprintf(stderr, "hdgcl %s: error on rank %d of %d: %s\n", command, rank, size, message);
  fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, 1);
}

void cli_mpi_finalize(void) {
  int done = 0;
  if (!active) return;
  MPI_Finalized(&done);
  NOT_OUR_LEAKS_BEGIN();
  if (!done) MPI_Finalize();
  NOT_OUR_LEAKS_END();
}

#else

int cli_mpi_init(int *argc, char ***argv) { return HDGCL_SUCCESS; }
bool cli_mpi_active(void) { return false; }
int cli_mpi_rank(void) { return 0; }
int cli_mpi_size(void) { return 1; }
int cli_mpi_device(const char *spec, const char **out) {
  *out = spec;
  return HDGCL_SUCCESS;
}
int cli_mpi_gather_text(const char *line, char *all, int each) {
  snprintf(all, (size_t)each, "%s", line);
  return HDGCL_SUCCESS;
}
void cli_mpi_abort(const char *command, const char *message) {}
void cli_mpi_finalize(void) {}

#endif
