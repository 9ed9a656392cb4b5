/* The hdgcl command-line tool: one file per subcommand. */
#ifndef HDGCL_CLI_H
#define HDGCL_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "hdgcl/hdgcl.h"

/* Each subcommand gets its options (argv after the command name) parsed into
 * opts and returns an hdgcl status; main prints the error message. */
typedef struct cli_command {
  const char *name;
  const char *summary;
  int (*run)(hdgcl_options opts);
  void (*help)(FILE *out);
} cli_command;

/* Solves warmup + repeat times; *out is the last result with each stage's
 * time replaced by its median over the repeats (timed_solves.c). */
int cli_timed_solves(hdgcl_solver solver, int warmup, int repeat, hdgcl_result *out);

/* The progress line (progress.c): installed on ctx where stderr is a
 * terminal and not quiet; cleared before anything else is printed. */
int cli_progress_install(hdgcl_context ctx, bool quiet);
void cli_progress_clear(void);

/* --vtu-every (vtu_series.c): a transient solve's steps for ParaView. */
typedef struct vtu_series {
  char stem[4096]; /* the --vtu path without .vtu (or .pvtu) */
  bool pvtu;       /* STEM.pvtu: each step one .pvtu and its pieces */
  int every, count, capacity;
  double *times;
  int *steps;
} vtu_series;
int cli_vtu_series_init(vtu_series *v, const char *vtu_path, int every);
int cli_vtu_series_step(void *data, hdgcl_solver solver, int step, double time); /* an hdgcl_step_fn */
void cli_vtu_series_free(vtu_series *v);

/* Under mpirun (mpi.c, docs/mpi.md; with HDGCL_WITH_MPI, else the stubs of
 * one process): cli_mpi_init initialises MPI where a launcher started this
 * process; cli_mpi_active says whether it did; rank and size of
 * MPI_COMM_WORLD (0 and 1 without); cli_mpi_device: the device spec of this
 * rank, the node-local rank's device among those `spec` matches (spec
 * itself without MPI or where one device matches; *out static storage);
 * cli_mpi_gather_text: each rank's line (at most each - 1 chars) into
 * rank 0's all[rank * each] (collective);
 * cli_mpi_abort prints the rank's message and ends every rank;
 * cli_mpi_finalize at the end. */
int cli_mpi_init(int *argc, char ***argv);
bool cli_mpi_active(void);
int cli_mpi_rank(void);
int cli_mpi_size(void);
int cli_mpi_device(const char *spec, const char **out);
int cli_mpi_gather_text(const char *line, char *all, int each);
void cli_mpi_abort(const char *command, const char *message);
void cli_mpi_finalize(void);

extern const cli_command cli_devices, cli_mesh, cli_solve, cli_bench;

#endif
