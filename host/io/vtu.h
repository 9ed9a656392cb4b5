/* ParaView output (vtu.c, docs/mpi.md): one .vtu piece, and the .pvtu index
 * that lists pieces STEM_RRRR.vtu beside STEM.pvtu (one per rank of a
 * distributed solve, one for a serial solve written as .pvtu).  The index's
 * arrays are those of the pieces: both come from one table. */
#ifndef HDGCL_HOST_IO_VTU_H
#define HDGCL_HOST_IO_VTU_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "hdgcl/solver.h"

/* Whether path names a parallel file (ends in .pvtu). */
bool vtu_is_pvtu(const char *path);

/* The piece of rank r beside the index pvtu = STEM.pvtu: STEM_RRRR.vtu (at
 * least four digits) into piece[n]; *source points at its file name in piece
 * (the index's relative Source).  An error naming pvtu if it does not end in
 * .pvtu or the name is too long. */
int vtu_piece_path(const char *pvtu, int r, char *piece, size_t n, const char **source);

/* Writes the solver's elements as one VTK UnstructuredGrid to f: points,
 * sub-cells, the point data of vtu.c's table and the cell data "element"
 * (element_numbers[e] for the solver's element e, or e where NULL) and,
 * with rank >= 0, "rank".  Checks the arguments (solved, subdivisions) first;
 * write errors show in ferror(f). */
int vtu_piece_write(hdgcl_solver s, FILE *f, int subdivisions, const int32_t *element_numbers, int rank);

/* Writes the PUnstructuredGrid index of pieces STEM_0000.vtu ...
 * (pieces of them, as vtu_piece_path names them) of pvtu = STEM.pvtu to f,
 * with the point and cell arrays of vtu_piece_write's pieces (rank included). */
int vtu_index_write(hdgcl_solver s, FILE *f, const char *pvtu, int pieces);

#endif
