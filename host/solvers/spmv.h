/* The trace operator y = A x in every storage of cl/solvers/spmv.cl (host/solvers/spmv.c):
 * the solver's operator (krylov_spmv in krylov.h, for --format bell | ell) and
 * stand-alone operators built from a host copy of the block-ELL matrix, which
 * hdgcl bench and the tests use to compare the storages on the same matrix. */
#ifndef HDGCL_HOST_SPMV_H
#define HDGCL_HOST_SPMV_H

#include <stdint.h>

#include "core/context.h"

typedef enum spmv_storage {
  SPMV_BELL = 0,   /* block-ELL, row-major blocks */
  SPMV_ELL,        /* scalar ELL */
  SPMV_BELL_I,     /* block-ELL, interleaved (ELL-layout) values */
  SPMV_BELL_TC,    /* bell-i by tensor contraction, x segments in local memory */
  SPMV_BELL_MIXED, /* bell-i with float values */
  SPMV_CSR,        /* CSR of the non-empty blocks */
  SPMV_BELL_SYM,   /* symmetric: each off-diagonal face-block pair stored once */
  SPMV_STORAGES
} spmv_storage;

extern const char *const spmv_storage_names[SPMV_STORAGES];
/* The kernel of cl/solvers/spmv.cl that applies storage st. */
const char *spmv_kernel_name(spmv_storage st);
/* The storage of the solver's --format (FORMAT_* of linear_system.h). */
spmv_storage spmv_format_storage(int format);
/* Flops and bytes of one product of rows face rows in storage st, counted
 * from the padded layout: 2 x stored entries; values (4 bytes each for
 * bell-mixed, else 8), an index per entry (ell) or per block, x read once and
 * y written once.  CSR and bell-sym operators count their own stored blocks. */
void spmv_counts(spmv_storage st, double rows, int nslots, int nf, double *flops, double *bytes);

/* -D options of cl/solvers/spmv.cl besides NF and NSLOTS (TC_FACES, CSR_LANES) for a
 * device whose work-groups hold at most max_wg work-items. */
void spmv_options(int nf, int nslots, size_t max_wg, char *out, size_t n);

/* A stand-alone operator: its own copy of the matrix in one storage. */
typedef struct spmv_operator {
  spmv_storage storage;
  int rows, nslots, nf;     /* face rows, blocks per row, block size */
  int64_t n;                /* scalar rows = rows * nf */
  hdgcl_buffer values, index, rowptr; /* bell-sym: rowptr holds the block references */
  cl_kernel kernel;
  size_t global, local;
  double flops, bytes;      /* of one product: 2 x stored entries; every byte it must move */
} spmv_operator;

/* Builds the program of cl/solvers/spmv.cl for blocks nf x nf, nslots per row. */
int spmv_program(hdgcl_context ctx, int nf, int nslots, cl_program *program);
/* Uploads the block-ELL matrix values [rows][nslots][nf][nf], block_cols
 * [rows][nslots] (-1 = empty) in storage st. */
int spmv_operator_create(hdgcl_context ctx, cl_program program, spmv_storage st, int rows,
                         int nslots, int nf, const double *values, const int32_t *block_cols,
                         spmv_operator *op);
/* y = A x (enqueued only). */
int spmv_operator_apply(hdgcl_context ctx, spmv_operator *op, const hdgcl_buffer *x,
                        hdgcl_buffer *y);
void spmv_operator_destroy(hdgcl_context ctx, spmv_operator *op);

/* y = A x on the host, from the block-ELL arrays (the tests' and bench's oracle). */
void spmv_host(int rows, int nslots, int nf, const double *values, const int32_t *block_cols,
               const double *x, double *y);

#endif
