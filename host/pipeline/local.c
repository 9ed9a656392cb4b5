/* Local stage on the device (kernels: cl/pipeline/local.cl): per chunk of elements,
 * local_build_s fills S (F13) and local_build [W | F] and K0 (F14)-(F16), then the static
 * condensation (F10):
 *   Z = S^-1 [W | F]              (NP x NP) x (NP x (NT+1))
 *   K = K0 - [W | F]^T Z          ((NT+1) x NP) x (NP x (NT+1))
 * (with convection, [W_t | F] in the second product, (F24)).  Z comes either
 * from S^-1 (local_invert or cl/pipeline/local_invert_tiled.cl) and a batched GEMM,
 * or in one kernel from Gauss-Jordan on [S | W F]
 * (cl/pipeline/local_solve_tiled.cl); K from local_schur (one work-item per row of K) or
 * a second batched GEMM.  Each GEMM shape runs by CLBlast or by
 * cl/core/batched_gemm.cl, whichever a trial found faster (host/core/batched_gemm.c,
 * choose_gemms).  Scalar problems on affine elements never
 * store K0: local_build_s writes its factors per element (F15), and
 * local_schur_k0 evaluates K0 entry by entry as it forms K (local_k0 writes
 * K0 before the GEMM).  The whole stage may instead be one kernel, with
 * nothing between S and K written out, where a trial finds it faster
 * (choose_element): on CPU devices one element per work-item
 * (cl/pipeline/local_element.cl), on others one element per G x G work-items
 * (cl/pipeline/local_element_tiled.cl: Gauss-Jordan on [S, W F; (W F)^T, K0]).
 * The chunk size comes from the device memory left after the trace system. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/blas.h"
#include "core/error.h"
#include "pipeline/pipeline.h"

/* Work-group size of the per-element kernels: enough work-items for the
 * columns of S, a multiple of 32, at most 256. */
static size_t element_group_size(int np) {
  size_t wg = ((size_t)np + 31) / 32 * 32;
  if (wg < 64) wg = 64;
  return wg > 256 ? 256 : wg;
}

/* local_build's factors per element (cl/pipeline/local.cl's NEF). */
static double local_factor_count(const hdg_sizes *sz) {
  return (double)sz->nfaces * (sz->dim + 2) + sz->dim + sz->dim * sz->dim + 1;
}

/* K0's factors per element (cl/pipeline/local.cl's NKF): one per pair of faces, one per face. */
static double k0_factor_count(const hdg_sizes *sz) {
  return (double)sz->nfaces * sz->nfaces + sz->nfaces;
}

/* Flops per affine scalar element besides S (local_build_s and local_build,
 * or local_element): K0's factors, 2 DIM + 3 per pair of faces and 1 per
 * face (F15), the factors of [W | F], about 2 DIM^2 + 4 per face, W
 * 2 (DIM + 1) NT NP (F14) and the load 2 NQ NP (F16). */
static double factor_load_flops(device_pipeline *pl) {
  const hdg_sizes *sz = &pl->ref->sz;
  double P = sz->np, T = sz->nt, NF2 = (double)sz->nfaces * sz->nfaces, D = sz->dim;
  return 2.0 * (D + 1) * T * P + NF2 * (2.0 * D + 3) + sz->nfaces * (2.0 * D * D + 5) +
         2.0 * pl->ref->qload.n * P;
}

/* The methods of Z = S^-1 [W | F]: S^-1 by cl/pipeline/local.cl's local_invert (its
 * `method` argument: Cholesky or Gauss-Jordan in local memory) or by
 * cl/pipeline/local_invert_tiled.cl (Gauss-Jordan in registers on a G x G grid of
 * work-items, one program per G), then a batched GEMM; or Z directly by
 * cl/pipeline/local_solve_tiled.cl (Gauss-Jordan on [S | W F], the same grids), or,
 * for a small SPD S, by cl/pipeline/local_solve_columns.cl (one work-item per column,
 * Cholesky in registers), or, for SPD S on CPU devices, by
 * cl/pipeline/local_cholesky_solve.cl (one work-item per element, no barriers). */
enum {
  INVERT_CHOLESKY,
  INVERT_GAUSS_JORDAN,
  INVERT_TILED,
  INVERT_SOLVE,
  INVERT_COLUMNS,
  INVERT_CHOLESKY_SOLVE,
  NUM_INVERT
};
static const char *const invert_names[NUM_INVERT] = {
    "cholesky",         "gauss-jordan",    "gauss-jordan-tiled", "gauss-jordan-solve",
    "cholesky-columns", "cholesky-solve"};
#define COLUMNS_MAX 11 /* the largest S (NZ) of local_solve_columns: its factor stays in registers */
/* The methods of K = K0 - [W | F]^T Z: cl/pipeline/local.cl's local_schur (one
 * work-item per row of K) or a batched GEMM (gemm_k).  A third, one work-item
 * per element for CPUs, never won a trial on PoCL or the H100 and was removed
 * (perf/results/stop36). */
enum { SCHUR_KERNEL, SCHUR_GEMM, NUM_SCHUR };
static const char *const schur_names[NUM_SCHUR] = {"local-schur", "gemm"};
/* NZ (NTB+1) up to which local_schur is the default: on the H100 (stop 19)
 * it beat CLBlast at 820 (tetrahedra p = 3), 1485 (hexahedra p = 2) and 2135
 * (tetrahedra p = 4, K0 from its factors counted on both sides) and lost at
 * 6208 (hexahedra p = 3: 2.07 against 1.06 ms). */
#define SCHUR_KERNEL_MAX 3000
/* The most local memory local_schur stages Z in: on the H100 staging cut
 * local_schur_k0 by 17-25% where it applied (stop 20: cube:16 p = 1 37 -> 31 us,
 * p = 2 144 -> 108, p = 3 491 -> 405 with 32 KiB, square:320 p = 3 373 -> 278). */
#define SCHUR_STAGE_MAX 40960
#define TUNE_ELEMENTS 16384 /* elements of the timed trial (several waves on a large GPU) */
#define TUNE_MIN_ELEMENTS 1024 /* smaller meshes take the default method, no trial */

/* Before a timed trial on a CPU device: the later stages' programs that build in host
 * threads (pipeline_init's prefetches) finish first, so that they take no core from the
 * kernels timed. */
static int trial_quiet(device_pipeline *pl) {
  if (pl->ctx->info.is_cpu) hdgcl_program_wait(pl->ctx);
  return HDGCL_SUCCESS;
}
#define BUILD_S_BLOCK 16 /* elements per work-group of local_build_s (its SB) */

/* local_invert_tiled and local_solve_tiled run on the grids of
 * gauss_jordan_grids (pipeline.h); a grid is built only when its tile fits in
 * registers (gauss_jordan_tile_fits): NC = NZ columns for S^-1, NZ + NT + 1
 * for [S | W F]. */

/* The columns NC of the tiled kernel of method `kind`: S, or [S | W F]. */
static int tiled_cols(const local_stage *ls, int kind) {
  return kind == INVERT_SOLVE ? ls->rows + ls->cols : ls->rows;
}

static int choose_chunk(device_pipeline *pl, local_stage *ls) {
  const hdg_sizes *sz = &pl->ref->sz;
  hdgcl_device_info info;
  HDGCL_TRY(hdgcl_context_info(pl->ctx, &info));
  int64_t ne = pl->disc->mesh->num_elements;
  uint64_t np = ls->rows, nt1 = ls->cols;
  uint64_t post = (uint64_t)(sz->np1 - 1) * sz->np1 / 2 + (uint64_t)sz->ncomp * sz->np1; /* postprocessing scratch */
  uint64_t per = 8 * (2 * np * np + np + np * nt1 + nt1 * nt1 + post); /* S, scratches, [W|F], K */
  if (pl->disc->nonsymmetric) per += 8 * np * nt1;                     /* [W_t|F] */
  if (ls->k0_factors) /* scalar problems on affine elements: K0's and local_build's factors */
    per += 8 * (uint64_t)(k0_factor_count(sz) + local_factor_count(sz));
  if (pl->mapped) /* M, X, G, factors; and recovery's per-point factors */
    per += local_mapped_bytes_per_element(pl) +
           8 * (uint64_t)pl->ref->qload.n * (2 + 2 * sz->dim * sz->dim + sz->dim);
  uint64_t zper = 8 * np * nt1;
  uint64_t fixed = pipeline_fixed_bytes(pl);
  /* 90% of the device (or --max-device-memory), less what other solvers on
   * this context hold already (the finer levels of p-multigrid). */
  uint64_t held = 0, peak = 0;
  HDGCL_TRY(hdgcl_context_memory(pl->ctx, &held, &peak));
  uint64_t budget = info.global_mem / 10 * 9;
  budget = held < budget ? budget - held : 0;
  if (fixed + per + zper > budget)
    return hdgcl_error(HDGCL_ERROR_MEMORY,
                       "the trace system needs %.1f MiB (and a local batch %.1f KiB per element), "
                       "more than the %.1f MiB left of 90%% of the %.1f MiB of %s (use a smaller "
                       "mesh or order)",
                       fixed / 1048576.0, (per + zper) / 1024.0, budget / 1048576.0,
                       info.global_mem / 1048576.0, hdgcl_context_memory_name(pl->ctx));
  uint64_t avail = budget - fixed;
  /* An element batch's share of it (the batches after the first see the
   * first's chunk as held memory). */
  if (ls->share > 0 && ls->share < 1) avail = (uint64_t)((double)avail * ls->share);
  uint64_t biggest = np * np > np * nt1 ? np * np : np * nt1;
  if (nt1 * nt1 > biggest) biggest = nt1 * nt1;
  if (pl->mapped) {
    uint64_t m, x, t, fac;
    local_mapped_sizes(pl, &m, &x, &t, &fac);
    if (m > biggest) biggest = m;
    if (x > biggest) biggest = x;
    if (t > biggest) biggest = t;
  }
  int64_t by_alloc = (int64_t)(info.max_alloc / (8 * biggest));
  /* The batched GEMMs (CLBlast) index a chunk buffer with 32-bit ints. */
  if ((int64_t)(INT_MAX / biggest) < by_alloc) by_alloc = (int64_t)(INT_MAX / biggest);
  /* Keep Z of every element when it fits beside a reasonable chunk. */
  bool fits_keep = (uint64_t)ne * zper <= info.max_alloc && (uint64_t)ne * np * nt1 <= INT_MAX &&
                   (uint64_t)ne * zper + per * (uint64_t)(ne < 4096 ? ne : 4096) <= avail;
  /* Mapped elements recover q from L and X, which only the chunk's own buffers hold. */
  ls->keep = !pl->mapped && (pl->opts.keep_local == 1 || (pl->opts.keep_local == -1 && fits_keep));
  if (pl->opts.keep_local == 1 && (!fits_keep || pl->mapped))
    return hdgcl_error(HDGCL_ERROR_MEMORY,
                       "--keep-local true: the local solvers of %lld elements need %.1f MiB, "
                       "the device has %.1f MiB free",
                       (long long)ne, ne * zper / 1048576.0, avail / 1048576.0);
  int64_t chunk = ls->keep ? (int64_t)((avail - (uint64_t)ne * zper) / per)
                           : (int64_t)(avail / (per + zper));
  if (!ls->keep && (int64_t)(info.max_alloc / zper) < by_alloc) by_alloc = info.max_alloc / zper;
  if (chunk > by_alloc) chunk = by_alloc;
  /* One work-group of up to 256 work-items per element: stay below 2^31. */
  if (chunk > INT_MAX / 256) chunk = INT_MAX / 256;
  if (pl->opts.chunk > 0 && pl->opts.chunk < chunk) chunk = pl->opts.chunk;
  int64_t count = ls->count > 0 ? ls->count : ne; /* an element batch's elements */
  if (chunk > count) chunk = count;
  if (chunk < 1)
    return hdgcl_error(HDGCL_ERROR_MEMORY, "no device memory left for a batch of elements");
  ls->chunk = chunk;
  ls->num_chunks = (int)((count + chunk - 1) / chunk);
  return HDGCL_SUCCESS;
}

static int build_chunk(device_pipeline *pl, local_stage *ls, int64_t e0, int64_t n, hdgcl_stage charge);

/* The tiled kernel of method `kind` (INVERT_TILED or INVERT_SOLVE) on grid i,
 * compiled on first use (a compilation per grid and size is slow on some
 * devices: only the grids a trial or a choice needs are built); NULL where
 * its tile does not fit in registers. */
static int tiled_kernel(device_pipeline *pl, local_stage *ls, int kind, int i, cl_kernel *out) {
  bool solve = kind == INVERT_SOLVE;
  cl_kernel *slot = solve ? &ls->solve[i] : &ls->tiled[i];
  *out = NULL;
  if (!gauss_jordan_tile_fits(ls->rows, tiled_cols(ls, kind), gauss_jordan_grids[i]))
    return HDGCL_SUCCESS;
  if (!*slot) {
    char defines[128];
    cl_program program;
    if (solve) /* cl/pipeline/gauss_jordan_tiled.h's sizes: [S | W F] */
      snprintf(defines, sizeof defines, "-DGRID=%d -DNRHS=%d -DGJ_ROWS=NZ -DGJ_COLS=(NZ+NRHS)",
               gauss_jordan_grids[i], ls->cols);
    else
      snprintf(defines, sizeof defines, "-DGRID=%d", gauss_jordan_grids[i]);
    static const char *const gauss_jordan[] = {"pipeline/gauss_jordan_tiled.h", NULL};
    HDGCL_TRY(pipeline_program_with(pl, solve ? gauss_jordan : NULL,
                                    solve ? "pipeline/local_solve_tiled.cl" : "pipeline/local_invert_tiled.cl",
                                    false, defines, &program));
    HDGCL_TRY(hdgcl_kernel_create(program, solve ? "local_solve_tiled" : "local_invert_tiled",
                                  slot));
  }
  *out = *slot;
  return HDGCL_SUCCESS;
}

int local_invert_tiled_kernel(device_pipeline *pl, local_stage *ls, cl_kernel *out, size_t *wg) {
  *out = NULL;
  int pick = -1;
  for (int i = 0; i < NUM_TILED; i++) {
    if (!gauss_jordan_tile_fits(ls->rows, ls->rows, gauss_jordan_grids[i])) continue;
    if (pick < 0 || 2 * gauss_jordan_grids[i] <= ls->rows) pick = i;
  }
  if (pick < 0) return HDGCL_SUCCESS;
  cl_kernel kernel;
  HDGCL_TRY(tiled_kernel(pl, ls, INVERT_TILED, pick, &kernel));
  size_t w = (size_t)gauss_jordan_grids[pick] * gauss_jordan_grids[pick];
  if (kernel && w <= pipeline_kernel_max_wg(pl, kernel)) {
    *out = kernel;
    *wg = w;
  }
  return HDGCL_SUCCESS;
}

/* *slot = the kernel `name` of cl/NAME.cl (after cl/HEADER, NULL for none)
 * built with NRHS = the columns of [W | F], compiled on first use (as the
 * tiled kernels). */
static int nrhs_kernel(device_pipeline *pl, local_stage *ls, const char *name, const char *header,
                       cl_kernel *slot) {
  if (!*slot) {
    char defines[32], file[64];
    const char *headers[] = {header, NULL};
    cl_program program;
    snprintf(defines, sizeof defines, "-DNRHS=%d", ls->cols);
    snprintf(file, sizeof file, "pipeline/%s.cl", name);
    HDGCL_TRY(pipeline_program_with(pl, headers, file, false, defines, &program));
    HDGCL_TRY(hdgcl_kernel_create(program, name, slot));
  }
  return HDGCL_SUCCESS;
}

/* The kernel of method `kind` at work-group size wg into *out, NULL where
 * that pair does not exist here (Cholesky for a nonsymmetric or indefinite
 * S, a tiled grid whose tile does not fit, a size above the kernel's limit). */
static int invert_kernel(device_pipeline *pl, local_stage *ls, int kind, size_t wg, cl_kernel *out) {
  cl_kernel kernel = NULL;
  bool spd = !ls->nonsymmetric && !ls->vector;
  if (kind == INVERT_CHOLESKY && spd) kernel = ls->invert;
  if (kind == INVERT_GAUSS_JORDAN) kernel = ls->invert;
  for (int i = 0; i < NUM_TILED && (kind == INVERT_TILED || kind == INVERT_SOLVE); i++)
    if ((size_t)gauss_jordan_grids[i] * gauss_jordan_grids[i] == wg) HDGCL_TRY(tiled_kernel(pl, ls, kind, i, &kernel));
  if (kind == INVERT_COLUMNS && spd && ls->rows <= COLUMNS_MAX) {
    HDGCL_TRY(nrhs_kernel(pl, ls, "local_solve_columns", NULL, &ls->columns));
    kernel = ls->columns;
  }
  if (kind == INVERT_CHOLESKY_SOLVE && spd) {
    HDGCL_TRY(nrhs_kernel(pl, ls, "local_cholesky_solve", "pipeline/cholesky_rows.h", &ls->cholesky_solve));
    kernel = ls->cholesky_solve;
  }
  *out = kernel && wg >= 1 && wg <= pipeline_kernel_max_wg(pl, kernel) ? kernel : NULL;
  return HDGCL_SUCCESS;
}

/* A kernel on `items` work-items in work-groups of `wg`, or where wg is 0 of
 * at most FLAT_WG (fewer where the device or oclgrind allows fewer), the
 * global size rounded up: the kernels check their range. */
#define FLAT_WG 128
static int launch_flat(device_pipeline *pl, cl_kernel kernel, size_t items, size_t wg) {
  if (!wg) {
    wg = pipeline_kernel_max_wg(pl, kernel);
    if (wg > FLAT_WG) wg = FLAT_WG;
  }
  size_t global = (items + wg - 1) / wg * wg;
  return hdgcl_kernel_launch(pl->ctx, kernel, 1, &global, &wg, NULL);
}

/* Z = S^-1 [W | F] for the elements of the chunk buffers' first n slots,
 * into Z from element slot z0 on: by method `kind` at work-group size wg. */
static int launch_z(device_pipeline *pl, local_stage *ls, int kind, size_t wg, int64_t n, int64_t z0) {
  cl_kernel kernel;
  HDGCL_TRY(invert_kernel(pl, ls, kind, wg, &kernel));
  if (!kernel) return hdgcl_error(HDGCL_ERROR_INTERNAL, "local_invert: no kernel %s:%zu",
                                  invert_names[kind], wg);
  size_t np = ls->rows, nt1 = ls->cols, global = (size_t)n * wg;
  if (kind == INVERT_COLUMNS || kind == INVERT_CHOLESKY_SOLVE) {
    /* one work-item per column of [W | F], resp. per element */
    cl_int cn = (cl_int)n;
    cl_long zoff = (cl_long)(z0 * (int64_t)(np * nt1));
    hdgcl_arg a[] = {HDGCL_ARG(cn), HDGCL_ARG(ls->s.mem), HDGCL_ARG(ls->wf.mem),
                     HDGCL_ARG(ls->z.mem), HDGCL_ARG(zoff)};
    HDGCL_TRY(hdgcl_kernel_set_args(kernel, 5, a));
    return launch_flat(pl, kernel, (size_t)n * (kind == INVERT_COLUMNS ? nt1 : 1), wg);
  }
  if (kind == INVERT_SOLVE) {
    cl_long zoff = (cl_long)(z0 * (int64_t)(np * nt1));
    hdgcl_arg a[] = {HDGCL_ARG(ls->s.mem), HDGCL_ARG(ls->wf.mem), HDGCL_ARG(ls->z.mem),
                     HDGCL_ARG(zoff)};
    HDGCL_TRY(hdgcl_kernel_set_args(kernel, 4, a));
    return hdgcl_kernel_launch(pl->ctx, kernel, 1, &global, &wg, NULL);
  }
  cl_int method = kind; /* S <- S^-1, then Z = S^-1 [W | F] */
  hdgcl_arg a[] = {HDGCL_ARG(ls->s.mem), HDGCL_ARG(ls->scratch.mem), HDGCL_ARG(method)};
  HDGCL_TRY(hdgcl_kernel_set_args(kernel, kind == INVERT_TILED ? 1 : 3, a));
  HDGCL_TRY(hdgcl_kernel_launch(pl->ctx, kernel, 1, &global, &wg, NULL));
  gemm_operands o = {.a = ls->s.mem, .a_stride = np * np, .b = ls->wf.mem, .b_stride = np * nt1,
                     .c = ls->z.mem, .c_offset = (size_t)z0 * np * nt1, .c_stride = np * nt1};
  return batched_gemm_run(pl->ctx, &ls->gemm_z, 1.0, &o, 0.0, (size_t)n);
}

/* K = K0 - [W | F]^T Z (F10), or K0 - [W_t | F]^T Z with convection (F24),
 * for the chunk's first n elements (mesh elements from e0), Z from element
 * slot z0: by method `kind`. */
static int launch_k(device_pipeline *pl, local_stage *ls, int kind, int64_t e0, int64_t n, int64_t z0) {
  size_t np = ls->rows, nt1 = ls->cols, zoff = (size_t)z0 * np * nt1;
  cl_mem left = ls->nonsymmetric ? ls->wl.mem : ls->wf.mem;
  const device_data *d = &pl->data;
  cl_int ce0 = (cl_int)e0, cn = (cl_int)n;
  if (kind == SCHUR_GEMM) {
    if (ls->k0_factors) { /* K0 first, one work-item per entry */
      hdgcl_arg a[] = {HDGCL_ARG(ce0), HDGCL_ARG(cn), HDGCL_ARG(ls->kf.mem),
                       HDGCL_ARG(d->elem_orient.mem), HDGCL_ARG(d->efef.mem), HDGCL_ARG(ls->k.mem)};
      HDGCL_TRY(hdgcl_kernel_set_args(ls->k0, 6, a));
      HDGCL_TRY(launch_flat(pl, ls->k0, (size_t)n * nt1 * nt1, 0));
    }
    gemm_operands o = {.a = left, .a_stride = np * nt1, .b = ls->z.mem, .b_offset = zoff,
                       .b_stride = np * nt1, .c = ls->k.mem, .c_stride = nt1 * nt1};
    return batched_gemm_run(pl->ctx, &ls->gemm_k, -1.0, &o, 1.0, (size_t)n);
  }
  cl_long czoff = (cl_long)zoff;
  hdgcl_arg zl = HDGCL_ARG_LOCAL(ls->schur_stage ? ls->schur_stage : 8); /* staged Z */
  if (ls->k0_factors) {
    hdgcl_arg a[] = {HDGCL_ARG(ce0),       HDGCL_ARG(cn),       HDGCL_ARG(left),
                     HDGCL_ARG(ls->z.mem), HDGCL_ARG(czoff),    HDGCL_ARG(ls->kf.mem),
                     HDGCL_ARG(d->elem_orient.mem), HDGCL_ARG(d->efef.mem), HDGCL_ARG(ls->k.mem),
                     zl};
    HDGCL_TRY(hdgcl_kernel_set_args(ls->schur, 10, a));
  } else {
    hdgcl_arg a[] = {HDGCL_ARG(cn), HDGCL_ARG(left), HDGCL_ARG(ls->z.mem), HDGCL_ARG(czoff),
                     HDGCL_ARG(ls->k.mem), zl};
    HDGCL_TRY(hdgcl_kernel_set_args(ls->schur, 6, a));
  }
  return launch_flat(pl, ls->schur, (size_t)n * nt1, ls->schur_wg); /* a row of K each */
}

/* The most private doubles of local_element (S and [W | F] padded,
 * NP (NP + NRP)): 256 KiB per work-item. */
#define ELEMENT_PRIVATE_MAX 32768
static bool element_fits(const local_stage *ls) {
  size_t np = ls->rows, nrp = ((size_t)ls->cols + 3) / 4 * 4;
  return np * (np + nrp) <= ELEMENT_PRIVATE_MAX;
}

/* ls->element (cl/pipeline/local_element.cl), compiled on first use. */
static int element_kernel(device_pipeline *pl, local_stage *ls) {
  if (!ls->element) {
    static const char *const headers[] = {"pipeline/local_factors.h", "pipeline/cholesky_rows.h", NULL};
    char defines[64];
    snprintf(defines, sizeof defines, "-DNRHS=%d -DCHOL_A_SPACE=__private", ls->cols);
    cl_program program;
    HDGCL_TRY(pipeline_program_with(pl, headers, "pipeline/local_element.cl", true, defines, &program));
    HDGCL_TRY(hdgcl_kernel_create(program, "local_element", &ls->element));
  }
  return HDGCL_SUCCESS;
}

/* The augmented matrix of local_element_tiled: NZ + NT + 1 rows and columns. */
static int augmented_size(const local_stage *ls) { return ls->rows + ls->cols; }

/* The shapes of local_element_tiled: GRID x GRID work-items per element,
 * EPG elements per work-group, in the order "tiled" takes the first that
 * fits (a grid of 4 leaves a group of 16 work-items, too few alone). */
static const struct {
  int grid, epg;
} element_shapes[NUM_ELEMENT_SHAPES] = {{8, 1}, {4, 4}, {8, 2}};

/* *out = local_element_tiled of shape i, compiled on first use; NULL where
 * its tile does not fit in registers, its EPG augmented matrices (and 4 KiB
 * each for the rest) not in the device's local memory, or the device takes
 * fewer work-items per group. */
static int element_tiled_kernel(device_pipeline *pl, local_stage *ls, int i, cl_kernel *out) {
  int g = element_shapes[i].grid, epg = element_shapes[i].epg, na = augmented_size(ls);
  *out = NULL;
  if (!gauss_jordan_tile_fits(na, na, g) ||
      (8 * (uint64_t)na * na + 4096) * epg > pl->ctx->info.local_mem)
    return HDGCL_SUCCESS;
  if (!ls->element_tiled[i]) {
    static const char *const headers[] = {"pipeline/local_factors.h", "pipeline/gauss_jordan_tiled.h", NULL};
    char defines[160];
    snprintf(defines, sizeof defines,
             "-DGRID=%d -DEPG=%d -DNRHS=%d -DGJ_ROWS=(NZ+NRHS) -DGJ_COLS=(NZ+NRHS) -DGJ_PIVOTS=NZ",
             g, epg, ls->cols);
    cl_program program;
    HDGCL_TRY(pipeline_program_with(pl, headers, "pipeline/local_element_tiled.cl", true, defines, &program));
    HDGCL_TRY(hdgcl_kernel_create(program, "local_element_tiled", &ls->element_tiled[i]));
  }
  if ((size_t)g * g * epg <= pipeline_kernel_max_wg(pl, ls->element_tiled[i]))
    *out = ls->element_tiled[i];
  return HDGCL_SUCCESS;
}

/* The whole stage for elements [e0, e0 + n) (the chunk's first n slots):
 * shape -1: local_element, one element per work-item in work-groups of wg;
 * else local_element_tiled of that shape.  Z from element slot z0 on, and K. */
static int launch_element(device_pipeline *pl, local_stage *ls, int shape, size_t wg, int64_t e0,
                          int64_t n, int64_t z0) {
  cl_kernel kernel = NULL;
  if (shape >= 0) HDGCL_TRY(element_tiled_kernel(pl, ls, shape, &kernel));
  else {
    HDGCL_TRY(element_kernel(pl, ls));
    kernel = ls->element;
  }
  if (!kernel) return hdgcl_error(HDGCL_ERROR_INTERNAL, "local_element: no kernel of shape %d", shape);
  size_t np = ls->rows, nt1 = ls->cols;
  const device_data *d = &pl->data;
  cl_int ce0 = (cl_int)e0, cn = (cl_int)n, pid = pl->disc->params.id, pdeg = pl->disc->params.degree;
  cl_long zoff = (cl_long)(z0 * (int64_t)(np * nt1));
  double tau = pl->disc->tau, k2 = pl->disc->params.param;
  hdgcl_arg a[] = {HDGCL_ARG(ce0),           HDGCL_ARG(cn),
                   HDGCL_ARG(d->coords.mem), HDGCL_ARG(d->elem_verts.mem),
                   HDGCL_ARG(d->elem_orient.mem), HDGCL_ARG(d->kappa.mem),
                   HDGCL_ARG(d->c.mem),      HDGCL_ARG(tau),
                   HDGCL_ARG(pid),           HDGCL_ARG(pdeg),
                   HDGCL_ARG(k2),            HDGCL_ARG(d->dmdmt.mem),
                   HDGCL_ARG(d->pf.mem),     HDGCL_ARG(d->ef.mem),
                   HDGCL_ARG(d->dmef.mem),   HDGCL_ARG(d->efef.mem),
                   HDGCL_ARG(d->load_points.mem), HDGCL_ARG(d->load_weights.mem),
                   HDGCL_ARG(d->phi_load.mem), HDGCL_ARG(ls->z.mem),
                   HDGCL_ARG(zoff),          HDGCL_ARG(ls->k.mem),
                   HDGCL_ARG(d->element_load.mem)};
  HDGCL_TRY(hdgcl_kernel_set_args(kernel, sizeof a / sizeof *a, a)); /* the same for both */
  if (shape < 0) return launch_flat(pl, kernel, (size_t)n, wg);
  size_t epg = (size_t)element_shapes[shape].epg, g = (size_t)element_shapes[shape].grid;
  size_t local[2] = {g * g, epg}, global[2] = {g * g, ((size_t)n + epg - 1) / epg * epg};
  return hdgcl_kernel_launch(pl->ctx, kernel, 2, global, local, NULL); /* groups of G^2 x EPG */
}

/* A trial's candidate: method `kind` (in work-groups of wg where it has a
 * size) launched once on the first n elements. */
typedef int (*trial_launch)(device_pipeline *pl, local_stage *ls, int kind, size_t wg, int64_t n);

static int trial_launch_z(device_pipeline *pl, local_stage *ls, int kind, size_t wg, int64_t n) {
  return launch_z(pl, ls, kind, wg, n, 0);
}

static int trial_launch_k(device_pipeline *pl, local_stage *ls, int kind, size_t wg, int64_t n) {
  (void)wg;
  return launch_k(pl, ls, kind, 0, n, 0);
}

/* A trial's candidate and its chunk, as hdgcl_time_best passes them. */
typedef struct {
  device_pipeline *pl;
  local_stage *ls;
  trial_launch launch;
  int kind;
  size_t wg;
  int64_t n;
} candidate_run;

static int run_candidate(void *data) {
  candidate_run *c = data;
  return c->launch(c->pl, c->ls, c->kind, c->wg, c->n);
}

static int rebuild_chunk(void *data) {
  candidate_run *c = data;
  return build_chunk(c->pl, c->ls, 0, c->n, HDGCL_STAGE_LOCAL);
}

/* A candidate's time per launch by the trials' timing policy
 * (hdgcl_time_best), *launches per timing.  rebuild: S, [W | F] and K0 are
 * rebuilt before each timing (the in-place inversions, repeated, invert S
 * back and forth: the same work each time). */
static int time_candidate(device_pipeline *pl, local_stage *ls, trial_launch launch, int kind,
                          size_t wg, int64_t n, bool rebuild, double *seconds, int *launches) {
  candidate_run c = {pl, ls, launch, kind, wg, n};
  return hdgcl_time_best(pl->ctx, run_candidate, rebuild ? rebuild_chunk : NULL, &c, seconds,
                         launches);
}

/* The method of K: $HDGCL_LOCAL_SCHUR ("local-schur" | "gemm" | "tuned"),
 * else the tuning record of this device and size, else a timed trial of
 * each on the first elements after Z
 * (meshes of at least TUNE_MIN_ELEMENTS, or
 * "tuned"), else local_schur for small products and the GEMM for the others. */
static int choose_schur(device_pipeline *pl, local_stage *ls) {
  const char *env = getenv("HDGCL_LOCAL_SCHUR");
  bool tuned = env && !strcmp(env, "tuned");
  if (env && env[0] && !tuned) {
    for (int i = 0; i < NUM_SCHUR; i++)
      if (!strcmp(env, schur_names[i])) {
        ls->schur_kind = i;
        ls->schur_source = "environment";
        return HDGCL_SUCCESS;
      }
    return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                       "HDGCL_LOCAL_SCHUR=%s: expected local-schur, gemm or tuned", env);
  }
  char label[128], value[64];
  snprintf(label, sizeof label, "local_schur v6 np=%d nc=%d%s", ls->rows, ls->cols,
           ls->nonsymmetric ? " nonsymmetric" : "");
  if (hdgcl_tuning_load(pl->ctx, label, value, sizeof value))
    for (int i = 0; i < NUM_SCHUR; i++)
      if (!strcmp(value, schur_names[i])) {
        ls->schur_kind = i;
        ls->schur_source = "cache";
        return HDGCL_SUCCESS;
      }
  /* Default: local_schur for the small products (SCHUR_KERNEL_MAX), else the GEMM. */
  ls->schur_kind = ls->rows * ls->cols <= SCHUR_KERNEL_MAX ? SCHUR_KERNEL : SCHUR_GEMM;
  ls->schur_source = "default";
  if (!tuned && pl->disc->mesh->num_elements < TUNE_MIN_ELEMENTS) return HDGCL_SUCCESS;
  HDGCL_TRY(trial_quiet(pl));
  int64_t n = ls->chunk < TUNE_ELEMENTS ? ls->chunk : TUNE_ELEMENTS;
  hdgcl_stage_stats saved = pl->report->stages[HDGCL_STAGE_LOCAL];
  HDGCL_TRY(build_chunk(pl, ls, 0, n, HDGCL_STAGE_LOCAL));
  HDGCL_TRY(launch_z(pl, ls, ls->invert_kind, ls->invert_wg, n, 0));
  double best = 1e300;
  for (int kind = 0; kind < NUM_SCHUR; kind++) {
    double t;
    int reps;
    HDGCL_TRY(time_candidate(pl, ls, trial_launch_k, kind, 0, n, false, &t, &reps));
    if (pl->ctx->verbose)
      fprintf(stderr, "hdgcl: local_schur trial %s on %lld elements: %.3f ms (launches of %d)\n",
              schur_names[kind], (long long)n, 1e3 * t, reps);
    if (t < best) {
      best = t;
      ls->schur_kind = kind;
    }
  }
  pl->report->stages[HDGCL_STAGE_LOCAL] = saved;
  ls->schur_source = "trial";
  hdgcl_tuning_store(pl->ctx, label, schur_names[ls->schur_kind]);
  return HDGCL_SUCCESS;
}

/* A trial's candidate for the whole stage: the split kernels with the
 * chosen methods (kind 0), local_element in work-groups of wg (kind 1) or
 * local_element_tiled of shape wg (kind 2). */
static int trial_launch_stage(device_pipeline *pl, local_stage *ls, int kind, size_t wg, int64_t n) {
  if (kind) return launch_element(pl, ls, kind == 2 ? (int)wg : -1, wg, 0, n, 0);
  HDGCL_TRY(build_chunk(pl, ls, 0, n, HDGCL_STAGE_LOCAL));
  HDGCL_TRY(launch_z(pl, ls, ls->invert_kind, ls->invert_wg, n, 0));
  return launch_k(pl, ls, ls->schur_kind, 0, n, 0);
}

/* The one-kernel choice as text: "off", "on:WG" or "tiled:G:E". */
static void element_text(const local_stage *ls, char *text, size_t size) {
  if (!ls->element_wg) snprintf(text, size, "off");
  else if (ls->element_shape < 0) snprintf(text, size, "on:%zu", ls->element_wg);
  else
    snprintf(text, size, "tiled:%d:%d", element_shapes[ls->element_shape].grid,
             element_shapes[ls->element_shape].epg);
}

/* Sets the choice to shape i of local_element_tiled (-1: off) if its kernel
 * exists here (*ok). */
static int set_element_shape(device_pipeline *pl, local_stage *ls, int i, bool *ok) {
  cl_kernel kernel = NULL;
  if (i >= 0) HDGCL_TRY(element_tiled_kernel(pl, ls, i, &kernel));
  *ok = kernel != NULL;
  if (kernel) {
    ls->element_shape = i;
    ls->element_wg = (size_t)element_shapes[i].epg * element_shapes[i].grid * element_shapes[i].grid;
  }
  return HDGCL_SUCCESS;
}

/* "off", "on[:WG]" or "tiled[:G[:E]]" (HDGCL_LOCAL_ELEMENT or a tuning
 * record) into the choice: off; local_element in work-groups of WG (1
 * without it); local_element_tiled, the first shape of element_shapes that
 * fits with grid G (any without it) and E elements per group (any without
 * it).  *valid: whether the text has one of these forms, *ok: whether the
 * choice exists here (a tiled shape that fits; not looked for, and true,
 * unless resolve).  Does not check whether the problem is one they take. */
static int parse_element(device_pipeline *pl, local_stage *ls, const char *text, bool resolve,
                         bool *valid, bool *ok) {
  unsigned long v = 1, g = 0, e = 0;
  char rest;
  *valid = *ok = true;
  ls->element_wg = 0;
  ls->element_shape = -1;
  if (!strcmp(text, "off")) return HDGCL_SUCCESS;
  if (!strncmp(text, "tiled", 5)) {
    int at = 0, at2 = 0; /* "tiled", "tiled:G" or "tiled:G:E", nothing after */
    if (text[5] && (sscanf(text, "tiled:%lu%n", &g, &at) != 1 || !g ||
                    (text[at] && (sscanf(text + at, ":%lu%n", &e, &at2) != 1 || !e ||
                                  text[at + at2])))) {
      *valid = *ok = false;
      return HDGCL_SUCCESS;
    }
    *ok = !resolve;
    for (int i = 0; i < NUM_ELEMENT_SHAPES && !*ok; i++)
      if ((!g || (int)g == element_shapes[i].grid) && (!e || (int)e == element_shapes[i].epg))
        HDGCL_TRY(set_element_shape(pl, ls, i, ok));
    return HDGCL_SUCCESS;
  }
  if (strcmp(text, "on") && (sscanf(text, "on:%lu%c", &v, &rest) != 1 || v < 1 || v > 1024)) {
    *valid = *ok = false;
    return HDGCL_SUCCESS;
  }
  ls->element_wg = v;
  return HDGCL_SUCCESS;
}

/* Whether one kernel runs the whole stage, and which: $HDGCL_LOCAL_ELEMENT
 * ("on[:WG]": local_element, one element per work-item; "tiled[:G[:E]]":
 * local_element_tiled, one element per G x G work-items, E per group;
 * "off": the split kernels; "tuned"), else the tuning record of this size,
 * else a timed trial of the split kernels (with the methods chosen for Z
 * and K) against, on CPU devices, local_element in work-groups of 1 and 16
 * and, on other devices, local_element_tiled in each shape that fits, on the
 * first elements (meshes of at least TUNE_MIN_ELEMENTS, or "tuned"), else
 * off.  Symmetric scalar problems on affine elements only (the kernels
 * build S and [W | F] from the affine tables; S is SPD). */
static int choose_element(device_pipeline *pl, local_stage *ls) {
  const char *env = getenv("HDGCL_LOCAL_ELEMENT");
  bool tuned = env && !strcmp(env, "tuned");
  bool applies = ls->k0_factors && !ls->nonsymmetric, valid, ok;
  ls->element_wg = 0;
  ls->element_shape = -1;
  ls->element_source = "default";
  if (env && env[0] && !tuned) {
    HDGCL_TRY(parse_element(pl, ls, env, applies, &valid, &ok));
    if (!valid)
      return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                         "HDGCL_LOCAL_ELEMENT=%s: expected on, on:WG (1..1024), tiled, tiled:G, "
                         "tiled:G:E, off or tuned", env);
    bool one_kernel = strcmp(env, "off");
    if (one_kernel && !applies)
      return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                         "HDGCL_LOCAL_ELEMENT=%s: problem %s on %s elements: the one-kernel local "
                         "stage takes symmetric scalar problems on triangles and tetrahedra",
                         env, pl->disc->problem->info.name, hdgcl_element_type_name(pl->ref->sz.type));
    if (ls->element_wg && ls->element_shape < 0 && !element_fits(ls))
      return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                         "HDGCL_LOCAL_ELEMENT=%s: at order %d local_element's S and [W | F] "
                         "exceed %d doubles of private memory", env, pl->ref->sz.order,
                         ELEMENT_PRIVATE_MAX);
    if (!ok)
      return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                         "HDGCL_LOCAL_ELEMENT=%s: no shape of local_element_tiled (grid:elements "
                         "8:1, 4:4, 8:2) holds the %d x %d augmented matrix of order "
                         "%d in registers and local memory", env, augmented_size(ls),
                         augmented_size(ls), pl->ref->sz.order);
    ls->element_source = "environment";
    return HDGCL_SUCCESS;
  }
  if (!applies) return HDGCL_SUCCESS;
  char label[128], value[64];
  snprintf(label, sizeof label, "local_element v3 np=%d nc=%d", ls->rows, ls->cols);
  if (hdgcl_tuning_load(pl->ctx, label, value, sizeof value)) {
    HDGCL_TRY(parse_element(pl, ls, value, true, &valid, &ok));
    if (valid && ok) {
      ls->element_source = "cache";
      return HDGCL_SUCCESS;
    }
    ls->element_wg = 0;
    ls->element_shape = -1;
  }
  if (!tuned && pl->disc->mesh->num_elements < TUNE_MIN_ELEMENTS) return HDGCL_SUCCESS;
  HDGCL_TRY(trial_quiet(pl));
  /* candidates: {kind, size or shape} as trial_launch_stage takes them */
  size_t cand[1 + NUM_ELEMENT_SHAPES][2] = {{0, 0}};
  int nc = 1;
  if (ls->cpu) {
    if (element_fits(ls)) {
      HDGCL_TRY(element_kernel(pl, ls));
      for (size_t w = 1; w <= 16; w += 15)
        if (w <= pipeline_kernel_max_wg(pl, ls->element)) {
          cand[nc][0] = 1;
          cand[nc++][1] = w;
        }
    }
  } else
    for (int i = 0; i < NUM_ELEMENT_SHAPES; i++) {
      cl_kernel kernel;
      HDGCL_TRY(element_tiled_kernel(pl, ls, i, &kernel));
      if (kernel) {
        cand[nc][0] = 2;
        cand[nc++][1] = (size_t)i;
      }
    }
  if (nc == 1) return HDGCL_SUCCESS;
  int64_t n = ls->chunk < TUNE_ELEMENTS ? ls->chunk : TUNE_ELEMENTS;
  hdgcl_stage_stats saved = pl->report->stages[HDGCL_STAGE_LOCAL];
  double best = 1e300;
  int pick = 0;
  for (int c = 0; c < nc; c++) {
    double t;
    int reps;
    HDGCL_TRY(time_candidate(pl, ls, trial_launch_stage, (int)cand[c][0], cand[c][1], n, false,
                             &t, &reps));
    if (pl->ctx->verbose) {
      char name[32];
      if (cand[c][0] == 2)
        snprintf(name, sizeof name, "tiled:%d:%d", element_shapes[cand[c][1]].grid,
                 element_shapes[cand[c][1]].epg);
      else if (cand[c][0] == 1) snprintf(name, sizeof name, "on:%zu", cand[c][1]);
      else snprintf(name, sizeof name, "off");
      fprintf(stderr, "hdgcl: local_element trial %s on %lld elements: %.3f ms (launches of %d)\n",
              name, (long long)n, 1e3 * t, reps);
    }
    if (t < best) {
      best = t;
      pick = c;
    }
  }
  if (cand[pick][0] == 2) HDGCL_TRY(set_element_shape(pl, ls, (int)cand[pick][1], &ok));
  else ls->element_wg = cand[pick][1];
  pl->report->stages[HDGCL_STAGE_LOCAL] = saved;
  ls->element_source = "trial";
  element_text(ls, value, sizeof value);
  hdgcl_tuning_store(pl->ctx, label, value);
  return HDGCL_SUCCESS;
}

/* "NAME[:WG]" (HDGCL_LOCAL_INVERT or a tuning record) -> method *k and size
 * *wg; *k = -1 if it names no usable variant.  Without WG: the default
 * work-group (Cholesky, Gauss-Jordan) or the largest grid whose tile fits
 * (tiled). */
static int parse_invert(device_pipeline *pl, local_stage *ls, const char *text, int *k, size_t *wg) {
  char name[32];
  unsigned long size = 0;
  *k = -1;
  int fields = sscanf(text, "%31[a-z-]:%lu", name, &size);
  if (fields < 1 || (fields == 2 && size == 0)) return HDGCL_SUCCESS;
  for (int i = 0; i < NUM_INVERT; i++)
    if (!strcmp(name, invert_names[i])) {
      size_t w = size ? (size_t)size : ls->wg;
      for (int g = NUM_TILED - 1; (i == INVERT_TILED || i == INVERT_SOLVE) && !size && g >= 0; g--)
        if (gauss_jordan_tile_fits(ls->rows, tiled_cols(ls, i), gauss_jordan_grids[g])) {
          w = (size_t)gauss_jordan_grids[g] * gauss_jordan_grids[g];
          break;
        }
      cl_kernel kernel;
      HDGCL_TRY(invert_kernel(pl, ls, i, w, &kernel));
      if (kernel) {
        *k = i;
        *wg = w;
      }
      break;
    }
  return HDGCL_SUCCESS;
}

/* Times the candidate (method, work-group size) pairs, each computing Z on
 * the first elements of the mesh (S rebuilt before each run), and keeps the
 * fastest: Cholesky (SPD only), the column solves (small SPD S only) in
 * work-groups of 64 and 128, Gauss-Jordan at 1x, 2x and 4x the default
 * work-group, the tiled Gauss-Jordan and the tiled Gauss-Jordan solve on each
 * compiled grid.  The first three are timed with the GEMM they need. */
static int tune_invert(device_pipeline *pl, local_stage *ls) {
  int64_t n = ls->chunk < TUNE_ELEMENTS ? ls->chunk : TUNE_ELEMENTS;
  hdgcl_stage_stats saved = pl->report->stages[HDGCL_STAGE_LOCAL];
  typedef struct { int kind; size_t wg; } candidate;
  candidate cand[8 + 2 * NUM_TILED];
  int nc = 0;
  if (ls->cpu) /* one element per work-item: work-groups of 1 and 16 elements */
    for (size_t w = 1; w <= 16; w *= 16) cand[nc++] = (candidate){INVERT_CHOLESKY_SOLVE, w};
  cand[nc++] = (candidate){INVERT_CHOLESKY, ls->wg};
  cand[nc++] = (candidate){INVERT_COLUMNS, 64};
  cand[nc++] = (candidate){INVERT_COLUMNS, 128};
  for (size_t mult = 1; mult <= 4; mult *= 2)
    cand[nc++] = (candidate){INVERT_GAUSS_JORDAN, ls->wg * mult};
  for (int i = 0; i < NUM_TILED; i++) {
    cand[nc++] = (candidate){INVERT_TILED, (size_t)gauss_jordan_grids[i] * gauss_jordan_grids[i]};
    cand[nc++] = (candidate){INVERT_SOLVE, (size_t)gauss_jordan_grids[i] * gauss_jordan_grids[i]};
  }
  double best = 1e300;
  for (int c = 0; c < nc; c++) {
    cl_kernel kernel;
    HDGCL_TRY(invert_kernel(pl, ls, cand[c].kind, cand[c].wg, &kernel));
    if (!kernel) continue;
    double t;
    int reps;
    HDGCL_TRY(time_candidate(pl, ls, trial_launch_z, cand[c].kind, cand[c].wg, n, true, &t, &reps));
    if (pl->ctx->verbose)
      fprintf(stderr, "hdgcl: local_invert trial %s:%zu on %lld elements: %.3f ms (launches of %d)\n",
              invert_names[cand[c].kind], cand[c].wg, (long long)n, 1e3 * t, reps);
    if (t < best) {
      best = t;
      ls->invert_kind = cand[c].kind;
      ls->invert_wg = cand[c].wg;
    }
  }
  pl->report->stages[HDGCL_STAGE_LOCAL] = saved;
  return HDGCL_SUCCESS;
}

/* The method of Z: $HDGCL_LOCAL_INVERT ("cholesky" | "gauss-jordan" |
 * "gauss-jordan-tiled" | "gauss-jordan-solve" | "cholesky-columns", optional
 * ":WG"), else the
 * tuning record of this device and size, else a timed trial (stored as the
 * record) if the mesh has at least TUNE_MIN_ELEMENTS elements, else the
 * default: Cholesky where S is SPD, Gauss-Jordan otherwise (on a small mesh
 * the trial's compilations cost more than any method could save, and its
 * timing would be a poor record for large meshes of the same size).
 * HDGCL_LOCAL_INVERT=tuned asks for the record or the trial at any mesh size.
 * Convection allows Gauss-Jordan only, and so does elasticity's indefinite
 * (u, p) matrix (docs/elasticity.md, "Device pipeline"). */
static int choose_invert(device_pipeline *pl, local_stage *ls) {
  const char *env = getenv("HDGCL_LOCAL_INVERT");
  bool tuned = env && !strcmp(env, "tuned");
  ls->invert_source = "environment";
  if (env && env[0] && !tuned) {
    if ((ls->nonsymmetric || ls->vector) && !strncmp(env, invert_names[INVERT_CHOLESKY], 8))
      return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                         "HDGCL_LOCAL_INVERT=%s: problem %s is %s, only gauss-jordan applies", env,
                         pl->disc->problem->info.name,
                         ls->vector ? "a vector problem (indefinite local matrix)" : "nonsymmetric");
    HDGCL_TRY(parse_invert(pl, ls, env, &ls->invert_kind, &ls->invert_wg));
    if (ls->invert_kind < 0)
      return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                         "HDGCL_LOCAL_INVERT=%s: expected tuned, cholesky, gauss-jordan, "
                         "gauss-jordan-tiled, gauss-jordan-solve, cholesky-columns (SPD S of "
                         "at most %d rows) or cholesky-solve, optionally :WG (a work-group size the kernel "
                         "allows; G*G for a grid G of the tiled ones whose tile fits)",
                         env, COLUMNS_MAX);
    return HDGCL_SUCCESS;
  }
  char label[128], value[64];
  snprintf(label, sizeof label, "local_invert v5 np=%d nc=%d %s%s%s", ls->rows, ls->cols,
           ls->scratch_global ? "global" : "local", ls->nonsymmetric ? " nonsymmetric" : "",
           ls->vector ? " vector" : "");
  if (hdgcl_tuning_load(pl->ctx, label, value, sizeof value)) {
    HDGCL_TRY(parse_invert(pl, ls, value, &ls->invert_kind, &ls->invert_wg));
    if (ls->invert_kind >= 0) {
      ls->invert_source = "cache";
      return HDGCL_SUCCESS;
    }
  }
  if (!tuned && pl->disc->mesh->num_elements < TUNE_MIN_ELEMENTS) {
    ls->invert_kind = ls->nonsymmetric || ls->vector ? INVERT_GAUSS_JORDAN : INVERT_CHOLESKY;
    ls->invert_wg = ls->wg;
    ls->invert_source = "default";
    return HDGCL_SUCCESS;
  }
  HDGCL_TRY(trial_quiet(pl));
  HDGCL_TRY(tune_invert(pl, ls));
  ls->invert_source = "trial";
  snprintf(value, sizeof value, "%s:%zu", invert_names[ls->invert_kind], ls->invert_wg);
  hdgcl_tuning_store(pl->ctx, label, value);
  return HDGCL_SUCCESS;
}

/* local_schur's work-group size (*wg) and the bytes of local memory its
 * work-group's Z takes (the return; 0: Z is read from global memory), within
 * budget bytes: groups of m whole elements, m (NTB+1) rows of K, for the
 * largest m that fits in wg_max and FLAT_WG work-items and in the budget;
 * FLAT_WG (or wg_max) rows where nothing is staged.  On the H100 whole
 * elements beat groups of 128 rows, which may straddle m + 2 elements, where
 * both fit (cube:16 p = 3 local_schur_k0 403 -> 344 us) and fit where those
 * do not (p = 4 1735 -> 1130 us, p = 5 6971 -> 3012; square:320 p = 8 7871 ->
 * 2779; perf/results/stop21). */
static size_t schur_layout(const local_stage *ls, size_t wg_max, size_t budget, size_t *wg) {
  size_t kc = (size_t)ls->cols, per = (size_t)ls->rows * kc * 8; /* one element's Z */
  size_t flat = wg_max < FLAT_WG ? wg_max : FLAT_WG, m = flat / kc;
  if (m > budget / per) m = budget / per;
  *wg = m ? m * kc : flat;
  return m * per;
}

int env_on_off(const char *name, bool fallback, bool *value, bool *set) {
  const char *env = getenv(name);
  *value = fallback;
  if (set) *set = env && env[0];
  if (!env || !env[0]) return HDGCL_SUCCESS;
  if (strcmp(env, "on") && strcmp(env, "off"))
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "%s=%s: expected on or off", name, env);
  *value = !strcmp(env, "on");
  return HDGCL_SUCCESS;
}

int local_stage_create(device_pipeline *pl, local_stage *ls) {
  const hdg_sizes *sz = &pl->ref->sz;
  hdgcl_device_info info;
  HDGCL_TRY(hdgcl_context_info(pl->ctx, &info));
  /* S is NP x NP, or for the vector problems the (u, p) matrix Z of
   * (DIM+1) NP rows (docs/elasticity.md (E8)); [W|F] has NTB + 1 columns. */
  ls->vector = sz->ncomp > 1;
  ls->rows = ls->vector ? (sz->dim + 1) * sz->np : sz->np;
  ls->cols = sz->ntb + 1;
  /* The Cholesky work copy (NZ^2 + NZ doubles) goes to local memory when it
   * fits beside the kernel's other local arrays, else to a global scratch. */
  ls->scratch_global = pipeline_scratch_global(pl, ((size_t)ls->rows * ls->rows + ls->rows) * 8);
  ls->wg = element_group_size(ls->rows);
  ls->nonsymmetric = pl->disc->nonsymmetric;
  ls->cpu = info.is_cpu;
  /* local_build: a warp-sized team of work-items per element, several
   * elements per work-group, where K0 has at most 1024 entries. */
  int nk = sz->nt + 1;
  ls->build_epg = nk * nk <= 1024 && ls->wg >= 64 ? (int)(ls->wg / 32) : 1;
  /* local_schur stages the Z of its work-group's elements in local memory on
   * GPUs (schur_layout); on PoCL (2 cores) the copy and barrier made
   * local_schur_k0 slower, square:80 p = 3 12.9 against 8.4 ms at best of four
   * runs.  The program is built for the device's largest work-group, then
   * rebuilt unstaged in the rare case that the kernel allows too few
   * work-items to stage in the memory the device has. */
  bool stage;
  HDGCL_TRY(env_on_off("HDGCL_LOCAL_SCHUR_STAGE", info.is_gpu, &stage, NULL)); /* tests compare both */
  /* local_build reads W's tables through a local tile (cl/pipeline/local.cl,
   * BUILD_TILE) where the element's slices of the DIM + 1 tables pass 64 KiB
   * and strided reads miss the cache: tetrahedra from p = 6 (p = 7 on the
   * H100 13.2 -> 4.8 ms; p = 3-5, in the cache, 12-16% slower tiled).
   * HDGCL_LOCAL_BUILD_TILE=on|off overrides (tests compare both). */
  bool build_tile = (uint64_t)(sz->dim + 1) * sz->np * sz->nf * 8 > 65536;
  HDGCL_TRY(env_on_off("HDGCL_LOCAL_BUILD_TILE", build_tile, &build_tile, NULL));
  size_t budget = !stage || info.local_mem <= 8192 ? 0
                  : info.local_mem - 8192 < SCHUR_STAGE_MAX ? (size_t)info.local_mem - 8192
                                                            : SCHUR_STAGE_MAX;
  size_t wg_max = info.max_work_group < FLAT_WG ? info.max_work_group : FLAT_WG;
  ls->schur_stage = schur_layout(ls, wg_max, budget, &ls->schur_wg);
  ls->k0_factors = !pl->mapped && !ls->vector;
  cl_program program;
  for (;;) {
    char defines[192];
    snprintf(defines, sizeof defines, "-DSB=%d -DBEPG=%d -DSCHUR_STAGE=%d -DBUILD_TILE=%d %s%s",
             BUILD_S_BLOCK, ls->build_epg, ls->schur_stage > 0, build_tile,
             ls->scratch_global ? "-DSCRATCH_GLOBAL " : "", ls->nonsymmetric ? "-DNONSYMMETRIC" : "");
    static const char *const factors[] = {"pipeline/local_factors.h", NULL};
    HDGCL_TRY(pipeline_program_with(pl, factors, "pipeline/local.cl", true, defines, &program));
    HDGCL_TRY(hdgcl_kernel_create(program, ls->k0_factors ? "local_schur_k0" : "local_schur",
                                  &ls->schur));
    /* the kernel's own limit on its work-group */
    wg_max = pipeline_kernel_max_wg(pl, ls->schur);
    bool staged = ls->schur_stage > 0;
    ls->schur_stage = schur_layout(ls, wg_max, staged ? budget : 0, &ls->schur_wg);
    if (ls->schur_stage || !staged) break;
    clReleaseKernel(ls->schur); /* too few work-items for the memory: build it unstaged */
    ls->schur = NULL;
  }
  if (!pl->mapped)
    HDGCL_TRY(hdgcl_kernel_create(program, ls->vector ? "elasticity_build" : "local_build",
                                  &ls->build));
  if (!pl->mapped && !ls->vector)
    HDGCL_TRY(hdgcl_kernel_create(program, "local_build_s", &ls->build_s));
  HDGCL_TRY(hdgcl_kernel_create(program, "local_invert", &ls->invert));
  if (ls->k0_factors) HDGCL_TRY(hdgcl_kernel_create(program, "local_k0", &ls->k0));
  HDGCL_TRY(choose_chunk(pl, ls));
  if (pl->mapped) HDGCL_TRY(local_mapped_create(pl, ls));
  uint64_t np = ls->rows, nt1 = ls->cols, c = ls->chunk;
  uint64_t zcount = ls->keep ? (uint64_t)pl->disc->mesh->num_elements : c;
  HDGCL_TRY(hdgcl_buffer_create(pl->ctx, c * np * np * 8, "local S", &ls->s));
  HDGCL_TRY(hdgcl_buffer_create(pl->ctx, c * np * nt1 * 8, "local [W|F]", &ls->wf));
  HDGCL_TRY(hdgcl_buffer_create(pl->ctx, ls->nonsymmetric ? c * np * nt1 * 8 : 8, "local [W_t|F]",
                                &ls->wl));
  HDGCL_TRY(hdgcl_buffer_create(pl->ctx, zcount * np * nt1 * 8, "local Z", &ls->z));
  HDGCL_TRY(hdgcl_buffer_create(pl->ctx, c * nt1 * nt1 * 8, "local K", &ls->k));
  uint64_t nkf = (uint64_t)k0_factor_count(sz);
  HDGCL_TRY(hdgcl_buffer_create(pl->ctx, ls->k0_factors ? c * nkf * 8 : 8, "local K0 factors",
                                &ls->kf));
  uint64_t nef = (uint64_t)local_factor_count(sz);
  HDGCL_TRY(hdgcl_buffer_create(pl->ctx, ls->k0_factors ? c * nef * 8 : 8, "local element factors",
                                &ls->ef));
  HDGCL_TRY(hdgcl_buffer_create(pl->ctx, ls->scratch_global ? c * (np * np + np) * 8 : 8,
                                "local Cholesky scratch", &ls->scratch));
  batched_gemm_init(&ls->gemm_z, false, false, np, nt1, np, np, np, np);
  batched_gemm_init(&ls->gemm_k, true, false, nt1, nt1, np, np, np, nt1);
  ls->invert_kind = -1;
  return HDGCL_SUCCESS;
}

/* CLBlast compiles its batched GEMM program on the first call: make that
 * call before the stage runs, a 1x1x1 product on zeroed entries, so the
 * compilation counts as setup and not as the first solve's local stage.
 * Only where a GEMM runs by CLBlast: a run that takes the tiled kernel
 * compiles nothing of CLBlast's. */
static int clblast_warm_up(device_pipeline *pl, local_stage *ls) {
  double t = hdgcl_wtime();
  HDGCL_TRY(hdgcl_buffer_fill(pl->ctx, &ls->s, 0, 8, 0.0));
  HDGCL_TRY(hdgcl_buffer_fill(pl->ctx, &ls->wf, 0, 8, 0.0));
  HDGCL_TRY(hdgcl_dgemm_strided_batched(pl->ctx, false, false, 1, 1, 1, 1.0, ls->s.mem, 0, 1, 1,
                                        ls->wf.mem, 0, 1, 1, 0.0, ls->z.mem, 0, 1, 1, 1, NULL));
  HDGCL_TRY(hdgcl_context_finish(pl->ctx));
  if (pl->ctx->verbose)
    fprintf(stderr, "hdgcl: CLBlast's batched GEMM ready in %.2f s (compiled by CLBlast)\n",
            hdgcl_wtime() - t);
  return HDGCL_SUCCESS;
}

/* The implementations of the GEMM shapes (Z's, K's and the mapped stage's:
 * batched_gemm_choose), before the trials of Z's and K's methods so that
 * those time the GEMMs that will run.  Where the variable or a record leaves
 * one untried, the first elements are built once and batched_gemm_trial
 * times CLBlast and the tiled kernel on them, on
 * GPUs and meshes of at least TUNE_MIN_ELEMENTS (on PoCL, 2 cores, CLBlast
 * beat every tiling at each of hexahedra p = 2's seven shapes, by 2-10x;
 * HDGCL_BATCHED_GEMM=tuned asks anywhere). */
static int choose_gemms(device_pipeline *pl, local_stage *ls) {
  bool small = pl->disc->mesh->num_elements < TUNE_MIN_ELEMENTS;
  bool trial = !ls->cpu && !small, untried = false, clblast = false;
  batched_gemm *all[2 + NUM_MAPPED_GEMM] = {&ls->gemm_z, &ls->gemm_k};
  int count = 2;
  for (int i = 0; pl->mapped && i < NUM_MAPPED_GEMM; i++) all[count++] = &ls->mgemm[i];
  for (int i = 0; i < count; i++) {
    /* small meshes on CPU devices: the tiled kernel by default, not CLBlast
     * (its program compiles for 35 s on PoCL, 2 cores; batched_gemm.h) */
    HDGCL_TRY(batched_gemm_choose(pl->ctx, all[i], trial, ls->cpu && small));
    untried = untried || all[i]->untried;
    clblast = clblast || batched_gemm_is_clblast(all[i]);
  }
  if (clblast) HDGCL_TRY(clblast_warm_up(pl, ls));
  if (!untried) return HDGCL_SUCCESS; /* the variable or the records chose them all */
  int64_t n = ls->chunk < TUNE_ELEMENTS ? ls->chunk : TUNE_ELEMENTS;
  size_t np = ls->rows, nt1 = ls->cols;
  hdgcl_stage_stats saved = pl->report->stages[HDGCL_STAGE_LOCAL];
  HDGCL_TRY(build_chunk(pl, ls, 0, n, HDGCL_STAGE_LOCAL)); /* S, [W | F] of real elements */
  if (pl->mapped) HDGCL_TRY(local_mapped_trial_gemms(pl, ls, n));
  gemm_operands oz = {.a = ls->s.mem, .a_stride = np * np, .b = ls->wf.mem, .b_stride = np * nt1,
                      .c = ls->z.mem, .c_stride = np * nt1};
  HDGCL_TRY(batched_gemm_trial(pl->ctx, &ls->gemm_z, 0.0, &oz, (size_t)n));
  gemm_operands ok = {.a = ls->wf.mem, .a_stride = np * nt1, .b = ls->z.mem, .b_stride = np * nt1,
                      .c = ls->k.mem, .c_stride = nt1 * nt1};
  HDGCL_TRY(batched_gemm_trial(pl->ctx, &ls->gemm_k, 1.0, &ok, (size_t)n));
  pl->report->stages[HDGCL_STAGE_LOCAL] = saved;
  return HDGCL_SUCCESS;
}

int local_stage_prepare(device_pipeline *pl, local_stage *ls) {
  if (ls->invert_kind >= 0) return HDGCL_SUCCESS;
  double t = hdgcl_wtime();
  /* HDGCL_LOCAL_ELEMENT set (not "tuned") decides first; a trial of the one
   * kernel needs the split kernels' methods, so it comes after theirs. */
  const char *element = getenv("HDGCL_LOCAL_ELEMENT");
  bool forced = element && element[0] && strcmp(element, "tuned");
  if (forced) HDGCL_TRY(choose_element(pl, ls));
  if (ls->element_wg) {
    /* one kernel forced: the split kernels never run, so none of their
     * trials either (their methods stay the defaults, unused). */
    ls->invert_kind = INVERT_CHOLESKY;
    ls->invert_wg = ls->wg;
    ls->schur_kind = SCHUR_KERNEL;
    ls->invert_source = ls->schur_source = "default";
  } else {
    HDGCL_TRY(choose_gemms(pl, ls));
    HDGCL_TRY(choose_invert(pl, ls));
    HDGCL_TRY(choose_schur(pl, ls));
    if (!forced) HDGCL_TRY(choose_element(pl, ls));
  }
  pl->report->setup_seconds += hdgcl_wtime() - t;
  pl->report->local_schur = schur_names[ls->schur_kind];
  pl->report->local_schur_source = ls->schur_source;
  pl->report->local_schur_stage = ls->schur_kind == SCHUR_KERNEL ? (int)ls->schur_stage : 0;
  pl->report->local_schur_wg = ls->schur_kind == SCHUR_KERNEL ? (int)ls->schur_wg : 0;
  pl->report->local_invert = invert_names[ls->invert_kind];
  pl->report->local_invert_wg = (int)ls->invert_wg;
  pl->report->local_invert_source = ls->invert_source;
  pl->report->local_element_wg = (int)ls->element_wg;
  pl->report->local_element_source = ls->element_source;
  pl->report->local_element_grid =
      ls->element_wg && ls->element_shape >= 0 ? element_shapes[ls->element_shape].grid : 0;
  pl->report->local_gemm_z = ls->gemm_z.name;
  pl->report->local_gemm_z_source = ls->gemm_z.source;
  pl->report->local_gemm_k = ls->gemm_k.name;
  pl->report->local_gemm_k_source = ls->gemm_k.source;
  if (ls->element_wg) { /* one method for the whole stage */
    pl->report->local_invert = pl->report->local_schur =
        ls->element_shape >= 0 ? "local-element-tiled" : "local-element";
    pl->report->local_invert_wg = (int)ls->element_wg;
    pl->report->local_invert_source = pl->report->local_schur_source = ls->element_source;
    pl->report->local_schur_stage = pl->report->local_schur_wg = 0;
  }
  return HDGCL_SUCCESS;
}

int64_t local_stage_z_first(const local_stage *ls, int64_t e0) { return ls->keep ? 0 : e0; }

/* elasticity_build for affine elements: Z, [Wext | Fext] ([Wext + P | Fext])
 * and K0 (x) I_d (- Q) of docs/elasticity.md (E7)-(E9), (E13). */
static int elasticity_build(device_pipeline *pl, local_stage *ls, int64_t e0, int64_t n,
                            hdgcl_stage charge) {
  const hdg_sizes *sz = &pl->ref->sz;
  device_data *d = &pl->data;
  cl_int ce0 = (cl_int)e0, pid = pl->disc->params.id;
  double tau = pl->disc->tau, mu = pl->disc->params.mu, lambda = pl->disc->params.lambda, param = pl->disc->params.param;
  double mu0 = discretisation_mu0(pl->disc); /* (E17); d->kappa holds mu per element */
  hdgcl_arg args[] = {HDGCL_ARG(ce0),           HDGCL_ARG(d->coords.mem),
                      HDGCL_ARG(d->elem_verts.mem), HDGCL_ARG(d->elem_orient.mem),
                      HDGCL_ARG(d->elem_faces.mem), HDGCL_ARG(d->face_bc.mem),
                      HDGCL_ARG(tau),           HDGCL_ARG(mu),
                      HDGCL_ARG(lambda),        HDGCL_ARG(d->kappa.mem),
                      HDGCL_ARG(d->lambda.mem), HDGCL_ARG(mu0),
                      HDGCL_ARG(pid),
                      HDGCL_ARG(param),         HDGCL_ARG(d->dm.mem),
                      HDGCL_ARG(d->dmdmt.mem),  HDGCL_ARG(d->pf.mem),
                      HDGCL_ARG(d->ef.mem),     HDGCL_ARG(d->dmef.mem),  HDGCL_ARG(d->efef.mem),
                      HDGCL_ARG(d->load_points.mem), HDGCL_ARG(d->load_weights.mem),
                      HDGCL_ARG(d->phi_load.mem), HDGCL_ARG(ls->s.mem),
                      HDGCL_ARG(ls->wf.mem),    HDGCL_ARG(ls->wl.mem),    HDGCL_ARG(ls->k.mem)};
  HDGCL_TRY(hdgcl_kernel_set_args(ls->build, sizeof args / sizeof *args, args));
  size_t global = (size_t)n * ls->wg;
  HDGCL_TRY(hdgcl_kernel_launch(pl->ctx, ls->build, 1, &global, &ls->wg, NULL));
  /* Per element: S0 on the d diagonal blocks ((NFACES + 2 DIM^2) NP^2 each,
   * d times), the B blocks (2 DIM NP^2 twice), W0 (2 (DIM + 1) NP NT, d
   * times) and C (3 NP NT), the load (2 DIM NQ NP + problem_elasticity_f,
   * about 60 flops per point), K0 (2 DIM + 8 per entry of the NT^2 blocks, the
   * face products Ef^T Ef read from the EfTEf table, d times); with traction
   * data at most P (2 DIM NP NF per entry) and Q (as K0).
   * Bytes: Z, [Wext | Fext] (twice with traction data), K written once. */
  double P = sz->np, T = sz->nt, D = sz->dim, Z = ls->rows, C = ls->cols;
  double flops = D * (2.0 * (sz->nfaces + 2 * D * D)) * P * P + 4.0 * D * D * P * P +
                 D * 2.0 * (D + 1) * T * P + 3.0 * P * T + 2.0 * pl->ref->qload.n * D * P +
                 60.0 * pl->ref->qload.n + D * T * T * (2 * D + 8);
  double bytes = 8.0 * (Z * Z + Z * C + C * C);
  if (ls->nonsymmetric) {
    flops += D * (D - 1) * T * P * 2 * D + D * (D - 1) * T * T * (2 * D + 8);
    bytes += 8.0 * Z * C;
  }
  if (discretisation_mu_varies(pl->disc)) /* (E17): Z's u blocks i != j, P and Q on every face */
    flops += D * (D - 1) * P * P * 4 * D * D + D * (D - 1) * T * P * 2 * D +
             D * (D - 1) * T * T * (2 * D + 8);
  pl->report->stages[charge].flops += flops * n;
  pl->report->stages[charge].bytes += bytes * n;
  return HDGCL_SUCCESS;
}

/* local_build_s and local_build for affine elements: (F13)-(F16). */
static int affine_build(device_pipeline *pl, local_stage *ls, int64_t e0, int64_t n, hdgcl_stage charge) {
  const hdg_sizes *sz = &pl->ref->sz;
  device_data *d = &pl->data;
  cl_int ce0 = (cl_int)e0, pid = pl->disc->params.id, pdeg = pl->disc->params.degree;
  double tau = pl->disc->tau, k2 = pl->disc->params.param;
  cl_int cn = (cl_int)n;
  /* S: BUILD_S_BLOCK elements per work-group (cl/pipeline/local.cl's local_build_s),
   * one block of wgs entries each. */
  hdgcl_arg sargs[] = {HDGCL_ARG(ce0),          HDGCL_ARG(cn),
                       HDGCL_ARG(d->coords.mem), HDGCL_ARG(d->elem_verts.mem),
                       HDGCL_ARG(d->kappa.mem), HDGCL_ARG(d->c.mem),
                       HDGCL_ARG(tau),          HDGCL_ARG(pid),
                       HDGCL_ARG(pdeg),         HDGCL_ARG(k2),
                       HDGCL_ARG(d->dm.mem),    HDGCL_ARG(d->dmdmt.mem),
                       HDGCL_ARG(d->pf.mem),    HDGCL_ARG(ls->s.mem),
                       HDGCL_ARG(ls->kf.mem),   HDGCL_ARG(ls->ef.mem)};
  HDGCL_TRY(hdgcl_kernel_set_args(ls->build_s, sizeof sargs / sizeof *sargs, sargs));
  size_t wgs = (size_t)sz->np * sz->np >= 128 ? 128 : ((size_t)sz->np * sz->np + 31) / 32 * 32;
  size_t wmax = pipeline_kernel_max_wg(pl, ls->build_s); /* devices (and oclgrind) allowing fewer */
  if (wgs > wmax) wgs = wmax;
  size_t sglobal[2] = {((size_t)sz->np * sz->np + wgs - 1) / wgs * wgs,
                       (size_t)(n + BUILD_S_BLOCK - 1) / BUILD_S_BLOCK};
  size_t slocal[2] = {wgs, 1};
  HDGCL_TRY(hdgcl_kernel_launch(pl->ctx, ls->build_s, 2, sglobal, slocal, NULL));
  /* [W | F] (and [W_t | F]) from the factors local_build_s wrote: build_epg
   * elements per work-group. */
  hdgcl_arg args[] = {HDGCL_ARG(ce0),           HDGCL_ARG(cn),
                      HDGCL_ARG(d->elem_orient.mem), HDGCL_ARG(pid),
                      HDGCL_ARG(pdeg),          HDGCL_ARG(k2),
                      HDGCL_ARG(d->ef.mem),     HDGCL_ARG(d->dmef.mem),
                      HDGCL_ARG(d->load_points.mem), HDGCL_ARG(d->load_weights.mem),
                      HDGCL_ARG(d->phi_load.mem), HDGCL_ARG(ls->ef.mem),
                      HDGCL_ARG(ls->wf.mem),    HDGCL_ARG(ls->wl.mem),
                      HDGCL_ARG(d->element_load.mem)};
  HDGCL_TRY(hdgcl_kernel_set_args(ls->build, sizeof args / sizeof *args, args));
  size_t global = (size_t)((n + ls->build_epg - 1) / ls->build_epg) * ls->wg;
  HDGCL_TRY(hdgcl_kernel_launch(pl->ctx, ls->build, 1, &global, &ls->wg, NULL));
  /* S's weights, then factor_load_flops (K0 itself is counted where it is
   * evaluated, local_stage_run); the factors written once and read once. */
  double P = sz->np, T = sz->nt;
  double nef = local_factor_count(sz);
  double flops = (2.0 * (sz->nfaces + sz->dim * sz->dim) + 1) * P * P + factor_load_flops(pl);
  double bytes = 8.0 * (P * P + P * (T + 1) + k0_factor_count(sz) + 2 * nef);
  if (ls->nonsymmetric) { /* convection in S; [W_t | F] */
    flops += 2.0 * sz->dim * P * P + 2.0 * T * P;
    bytes += 8.0 * P * (T + 1);
  }
  pl->report->stages[charge].flops += flops * n;
  pl->report->stages[charge].bytes += bytes * n;
  return HDGCL_SUCCESS;
}

/* S, [W | F] (and [W_t | F]), K0 of elements [e0, e0 + n). */
static int build_chunk(device_pipeline *pl, local_stage *ls, int64_t e0, int64_t n, hdgcl_stage charge) {
  if (pl->mapped) return local_mapped_build(pl, ls, e0, n, charge);
  return ls->vector ? elasticity_build(pl, ls, e0, n, charge) : affine_build(pl, ls, e0, n, charge);
}

/* The one kernel's flops and bytes per element.  local_element: S's lower
 * triangle, factor_load_flops, the Cholesky factor NP^3 / 3, the two solves
 * 2 NP^2 (NT+1), K = K0 - Y^T Y 2 NP (NT+1)^2 and K0's NT^2 + NT.
 * local_element_tiled: the count of the split kernels with Gauss-Jordan on
 * [S | W F] (S's weighted tables, factor_load_flops, NP^3 + 2 NP^2 (NT+1),
 * K's product and K0), though its elimination of the rows of [W | F]^T does
 * about (NT+1) NP^2 more, so that its rate against theirs is their time
 * against its.  Bytes: Z and K written (S and [W | F] are never stored). */
static void element_counts(device_pipeline *pl, const local_stage *ls, double *flops, double *bytes) {
  const hdg_sizes *sz = &pl->ref->sz;
  double P = ls->rows, N1 = ls->cols, T = sz->nt, D = sz->dim;
  double products = 2 * P * P * N1 + 2 * P * N1 * N1 + T * T + T + factor_load_flops(pl);
  if (ls->element_shape >= 0)
    *flops = (2.0 * (sz->nfaces + D * D) + 1) * P * P + P * P * P + products;
  else
    *flops = (sz->nfaces + D * D) * P * (P + 1) + P * P * P / 3 + products;
  *bytes = 8.0 * (P * N1 + N1 * N1);
}

int local_stage_run(device_pipeline *pl, local_stage *ls, int64_t e0, int64_t n, hdgcl_stage charge) {
  if (ls->element_wg) {
    HDGCL_TRY(launch_element(pl, ls, ls->element_shape, ls->element_wg, e0, n,
                             e0 - local_stage_z_first(ls, e0)));
    double flops, bytes;
    element_counts(pl, ls, &flops, &bytes);
    pl->report->stages[charge].flops += flops * n;
    pl->report->stages[charge].bytes += bytes * n;
    return HDGCL_SUCCESS;
  }
  HDGCL_TRY(build_chunk(pl, ls, e0, n, charge));
  int64_t z0 = e0 - local_stage_z_first(ls, e0);
  HDGCL_TRY(launch_z(pl, ls, ls->invert_kind, ls->invert_wg, n, z0)); /* Z = S^-1 [W | F] */
  HDGCL_TRY(launch_k(pl, ls, ls->schur_kind, e0, n, z0)); /* K = K0 - [W | F]^T Z */
  size_t np = ls->rows, nt1 = ls->cols;
  /* Flops: through S^-1, invert 4/3 NP^3 for SPD S whichever kernel runs
   * (the Cholesky route's count, so a faster kernel shows as a higher rate,
   * not as more flops), 2 NP^3 for nonsymmetric S (Gauss-Jordan), then
   * 2 NP^2 (NT+1) for Z; Gauss-Jordan on [S | W F] eliminates NP^3 + 2 NP^2
   * (NT+1) (the finished columns not counted); the column solves count as
   * the Cholesky route (each of their work-items factors S again: they do
   * more); cholesky-solve counts what it does, NP^3 / 3 for the factor and
   * 2 NP^2 (NT+1) for the two solves.  K's product 2 NP (NT+1)^2,
   * and K0 from its factors one product per entry and one sum per diagonal
   * entry.  Bytes: invert reads and writes S, GEMM 1 reads S, [W|F] and
   * writes Z (the solve kernel reads S, [W|F] and writes Z; cholesky-solve
   * reads and writes S, reads [W|F] and writes Z); K's product
   * reads [W|F] and Z and writes K, and reads K0 from K (in place, GEMM,
   * element, or without K0's factors) or K0's factors (local_schur_k0;
   * local_k0 writes K0 before the GEMM or element). */
  double P = np, N1 = nt1, T = pl->ref->sz.nt, NKF = k0_factor_count(&pl->ref->sz);
  bool fused = ls->invert_kind == INVERT_SOLVE, columns = ls->invert_kind == INVERT_COLUMNS;
  bool solve = ls->invert_kind == INVERT_CHOLESKY_SOLVE;
  double flops = (solve  ? 1.0 / 3.0
                  : fused ? 1.0
                  : ls->nonsymmetric || ls->vector ? 2.0
                                                   : 4.0 / 3.0) * P * P * P +
                 2 * P * P * N1 + 2 * P * N1 * N1;
  double kbytes = 2 * P * N1 + 2 * N1 * N1;
  if (ls->k0_factors) {
    flops += T * T + T;
    kbytes = ls->schur_kind != SCHUR_KERNEL ? 2 * P * N1 + 3 * N1 * N1 + NKF
                                             : 2 * P * N1 + N1 * N1 + NKF;
  }
  double bytes = 8.0 * ((fused || columns ? 0 : 2 * P * P) + (solve ? 0 : P * P) + 2 * P * N1 + kbytes);
  pl->report->stages[charge].flops += flops * n;
  pl->report->stages[charge].bytes += bytes * n;
  return HDGCL_SUCCESS;
}

void local_stage_destroy(device_pipeline *pl, local_stage *ls) {
  if (ls->build) clReleaseKernel(ls->build);
  if (ls->build_s) clReleaseKernel(ls->build_s);
  if (ls->invert) clReleaseKernel(ls->invert);
  if (ls->schur) clReleaseKernel(ls->schur);
  if (ls->k0) clReleaseKernel(ls->k0);
  for (int i = 0; i < NUM_TILED; i++) {
    if (ls->tiled[i]) clReleaseKernel(ls->tiled[i]);
    if (ls->solve[i]) clReleaseKernel(ls->solve[i]);
  }
  if (ls->columns) clReleaseKernel(ls->columns);
  if (ls->cholesky_solve) clReleaseKernel(ls->cholesky_solve);
  if (ls->element) clReleaseKernel(ls->element);
  for (int i = 0; i < NUM_ELEMENT_SHAPES; i++)
    if (ls->element_tiled[i]) clReleaseKernel(ls->element_tiled[i]);
  batched_gemm_destroy(&ls->gemm_z);
  batched_gemm_destroy(&ls->gemm_k);
  hdgcl_buffer_release(pl->ctx, &ls->s);
  hdgcl_buffer_release(pl->ctx, &ls->wf);
  hdgcl_buffer_release(pl->ctx, &ls->wl);
  hdgcl_buffer_release(pl->ctx, &ls->z);
  hdgcl_buffer_release(pl->ctx, &ls->k);
  hdgcl_buffer_release(pl->ctx, &ls->kf);
  hdgcl_buffer_release(pl->ctx, &ls->ef);
  hdgcl_buffer_release(pl->ctx, &ls->scratch);
  local_mapped_destroy(pl, ls);
  *ls = (local_stage){0};
}

/* The whole stage over the mesh, chunk by chunk, nothing between the chunks
 * (hdgcl bench times it; the solve interleaves each chunk's assembly). */
int local_stage_run_all(device_pipeline *pl, local_stage *ls) {
  int64_t ne = pl->disc->mesh->num_elements;
  for (int64_t e0 = 0; e0 < ne; e0 += ls->chunk)
    HDGCL_TRY(local_stage_run(pl, ls, e0, ne - e0 < ls->chunk ? ne - e0 : ls->chunk,
                              HDGCL_STAGE_LOCAL));
  return HDGCL_SUCCESS;
}
