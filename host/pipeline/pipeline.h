/* The device pipeline: mesh -> local -> assemble -> solve -> recover.
 * pipeline.c uploads what every stage reads and drives the stages; each
 * stage is one host file beside the kernel file of the same name
 * (local.c + cl/pipeline/local.cl, assemble.c + cl/pipeline/assemble.cl, solve.c with the trace
 * operator of spmv.c + cl/solvers/spmv.cl and the Krylov methods and preconditioners
 * of krylov.h, recover.c + cl/pipeline/recover.cl). */
#ifndef HDGCL_HOST_PIPELINE_H
#define HDGCL_HOST_PIPELINE_H

#include "core/batched_gemm.h"
#include "solvers/krylov.h"
#include "discretisation/discretisation.h"
#include "hdgcl/solver.h"
#include "solvers/solver_settings.h"

typedef struct device_pipeline device_pipeline;

/* Where per-element factorisations work (--scratch). */
enum { SCRATCH_AUTO = 0, SCRATCH_LOCAL = 1, SCRATCH_GLOBAL = 2 };

/* The pipeline's own options (the solver's settings are solver_settings). */
typedef struct pipeline_options {
  int64_t chunk;  /* elements per local-stage batch, 0: as many as memory allows */
  int keep_local; /* Z of every element kept for recovery: -1 automatic, 0 recompute, 1 keep */
  int scratch;    /* SCRATCH_* */
  int format;     /* FORMAT_* of the assembled trace matrix */
} pipeline_options;

/* Read-only data on the device: mesh, numbering, coefficients, tables. */
typedef struct device_data {
  hdgcl_buffer coords, elem_verts, elem_faces, elem_orient, kappa, c;
  hdgcl_buffer elem_set; /* region per element of a user's point coefficients (else one 0) */
  hdgcl_buffer lambda; /* vector problems: lambda per element (kappa holds mu) */
  hdgcl_buffer face_verts, face_elems, face_local, face_bc, face_unknown, unknown_face, block_cols;
  hdgcl_buffer face_cond, robin; /* boundary faces' condition index and Robin blocks */
  hdgcl_buffer face_fixed;       /* per face: the components a per-component face fixes (hdg.h) */
  hdgcl_buffer dm, dmdmt, pf, ef, dmef, efef, kpost, dpost;
  hdgcl_buffer load_points, load_weights, phi_load;
  hdgcl_buffer face_points, face_weights, psi_face, phi_face, face_xi, face_tangent, face_nref;
  hdgcl_buffer face_orient, dphi_load, phi1_load, dphi1_load;
  hdgcl_buffer err_points, err_weights, phi_err, phi1_err;
  hdgcl_buffer element_load; /* the discretisation's element load (one value where it has none) */
} device_data;

/* The buffers of device_data that hold one element type's reference tables
 * (pipeline.c upload_tables), as a list of pointers into *d: a mixed mesh's
 * batches swap them (batches.c). */
#define DEVICE_TABLES(d)                                                                       \
  &(d)->dm, &(d)->dmdmt, &(d)->pf, &(d)->ef, &(d)->dmef, &(d)->efef, &(d)->kpost, &(d)->dpost, \
      &(d)->load_points, &(d)->load_weights, &(d)->phi_load, &(d)->face_points,                \
      &(d)->face_weights, &(d)->psi_face, &(d)->phi_face, &(d)->face_xi, &(d)->face_tangent,   \
      &(d)->face_nref, &(d)->dphi_load, &(d)->phi1_load, &(d)->dphi1_load, &(d)->err_points,   \
      &(d)->err_weights, &(d)->phi_err, &(d)->phi1_err

/* The batched products of the mapped stage (local_mapped.c's mapped_operands). */
enum { MAPPED_GEMM_Y, MAPPED_GEMM_X, MAPPED_GEMM_S, MAPPED_GEMM_W, MAPPED_GEMM_K, NUM_MAPPED_GEMM };

/* Local stage (local.c, and local_mapped.c for bilinear/trilinear elements):
 * builds and condenses element chunks. */
typedef struct local_stage {
  cl_kernel build;
  cl_kernel build_s;     /* S of affine scalar elements, SB per work-group (cl/pipeline/local.cl) */
  cl_kernel invert;      /* S^-1 by Cholesky (SPD) or Gauss-Jordan (host/pipeline/local.c) */
#define NUM_TILED 3
  cl_kernel tiled[NUM_TILED]; /* S^-1 by Gauss-Jordan in registers, one per grid (NULL: not compiled yet) */
  cl_kernel solve[NUM_TILED]; /* Z = S^-1 [W|F] by Gauss-Jordan on [S | W F] in registers, the same grids */
  cl_kernel columns;     /* Z = S^-1 [W|F] one column per work-item (small SPD S; NULL until used) */
  cl_kernel cholesky_solve; /* Z = S^-1 [W|F] one element per work-item (SPD S, CPUs; NULL until used) */
  int invert_kind;       /* the method of Z (-1 until local_stage_prepare), and its work-group size */
  size_t invert_wg;
  const char *invert_source; /* "trial", "cache", "default" or "environment" (hdgcl_result) */
  cl_kernel schur;       /* K = K0 - [W|F]^T Z (cl/pipeline/local.cl), or CLBlast: schur_kind */
  cl_kernel k0;          /* affine scalar: K0 from its factors kf, before CLBlast's K -= [W|F]^T Z */
  cl_kernel element;     /* the whole stage one element per work-item (cl/pipeline/local_element.cl; NULL until used) */
#define NUM_ELEMENT_SHAPES 3
  cl_kernel element_tiled[NUM_ELEMENT_SHAPES]; /* the whole stage one element per G x G work-items,
                                         Gauss-Jordan on the augmented matrix
                                         (cl/pipeline/local_element_tiled.cl), one per shape of local.c's
                                         element_shapes (NULL until used) */
  size_t element_wg;     /* the work-group size of the one kernel that runs the stage, 0: the split kernels */
  int element_shape;     /* where element_wg: -1 local_element, else local_element_tiled's shape */
  const char *element_source; /* as invert_source */
  bool k0_factors;       /* affine scalar: local_build_s writes K0's factors (kf), not K0 */
  hdgcl_buffer kf;       /* K0's factors, chunk-sized where k0_factors */
  hdgcl_buffer ef;       /* local_build's factors of each element (cl/pipeline/local.cl's EF), as kf */
  int schur_kind;
  batched_gemm gemm_z;   /* Z = S^-1 [W | F] after an explicit S^-1 (NN, NZ x NTB+1 x NZ) */
  batched_gemm gemm_k;   /* K -= [W | F]^T Z where schur_kind is the GEMM (TN, NTB+1 x NTB+1 x NZ) */
  size_t schur_stage; /* bytes of local memory local_schur stages Z in, 0: none (cl/pipeline/local.cl SCHUR_STAGE) */
  size_t schur_wg;    /* local_schur's work-group size (schur_layout) */
  const char *schur_source; /* as invert_source */
  cl_kernel mbuild, mfactor;          /* mapped elements */
  cl_kernel minverse;                  /* mapped scalar: A^-1 = (M / kappa)^-1 in place (NULL: mfactor) */
  size_t minverse_wg;
  hdgcl_buffer m, x, fac;              /* mapped: M, then A^-1 (minverse) or Ls = sqrt(kappa) L^-1
                                          (M = L L^T); X = A^-1 [B|C] or Ls [B|C]; per-point factors */
  hdgcl_buffer y, t;                   /* mapped: Y = [B|C], T (B = -T Phi^T) */
  batched_gemm mgemm[NUM_MAPPED_GEMM];               /* mapped: local_mapped.c's products, MAPPED_GEMM_* */
  cl_kernel mepre, mepost;             /* mapped elasticity: expansion to Z, [Wext | Fext], K */
  cl_kernel mkmix;                     /* mapped, tensor kappa: X mixed by K or R (else NULL) */
  hdgcl_buffer ms, mwf, mwl, mk;       /* mapped elasticity: the scalar S0, [W0 | F], K0 */
  int64_t chunk;      /* elements per batch */
  int num_chunks;
  bool keep;          /* Z of all elements kept for recovery */
  bool scratch_global; /* the Cholesky work copy does not fit in local memory */
  bool nonsymmetric;   /* convection: S^-1 by Gauss-Jordan, K = K0 - [W_t|F]^T Z (F24);
                          elasticity with traction data: [Wext + P | Fext] (E13) */
  bool vector;         /* elasticity: S is the (u, p) matrix Z of (E8), Gauss-Jordan only */
  bool cpu;            /* a CPU device: the trials also time cholesky-solve and element */
  int rows, cols;      /* S is rows x rows (NZ), [W|F] rows x cols (NTB + 1) */
  hdgcl_buffer s, wf, z, k; /* chunk-sized (z: all elements when keep) */
  hdgcl_buffer wl;          /* [W_t | F], chunk-sized when nonsymmetric */
  hdgcl_buffer scratch;     /* chunk-sized when scratch_global */
  size_t wg;
  int build_epg;            /* elements per work-group of local_build (its BEPG) */
  /* Set before local_stage_create by element batches (batches.c): the
   * elements this stage runs (0: the whole mesh), which cap its chunk, and
   * its share of the device memory left for chunks (0: all of it). */
  int64_t count;
  double share;
} local_stage;

int local_stage_create(device_pipeline *pl, local_stage *ls);
/* *value = the environment variable `name` if set ("on" or "off"), else
 * `fallback`, and *set (unless NULL) whether it was set; any other value is
 * an argument error naming the variable. */
int env_on_off(const char *name, bool fallback, bool *value, bool *set);
/* The register-tiled Gauss-Jordan inverse of NZ x NZ matrices
 * (cl/pipeline/local_invert_tiled.cl, in place, one matrix per work-group) and its
 * work-group size: the largest grid G with G <= NZ / 2 whose tile fits
 * (at least two rows per work-item), else the smallest that fits; *out NULL
 * where none fits or compiles.  local_mapped.c inverts M / kappa with it. */
int local_invert_tiled_kernel(device_pipeline *pl, local_stage *ls, cl_kernel *out, size_t *wg);
/* Once the mesh data is on the device (before the first local stage): the
 * S^-1 kernel from $HDGCL_LOCAL_INVERT, the tuning record, or a timed trial
 * on the first elements (its time counts as setup). */
int local_stage_prepare(device_pipeline *pl, local_stage *ls);
/* Elements [e0, e0+n): S^-1, Z = S^-1 [W|F] (into ls->z at the element's slot),
 * K = K0 - [W_t|F]^T Z (into ls->k, chunk-relative; W_t = W when symmetric).  Its flops and bytes are
 * charged to stage `charge` (local, or recover when recomputed there). */
int local_stage_run(device_pipeline *pl, local_stage *ls, int64_t e0, int64_t n, hdgcl_stage charge);
/* local_stage_run over all elements, chunk after chunk, charged to the local stage. */
int local_stage_run_all(device_pipeline *pl, local_stage *ls);
/* Mapped elements (local_mapped.c): kernels, chunk buffers, the per-element
 * bytes of those buffers, and the build of S, [W|F], K0 for a chunk. */
int local_mapped_create(device_pipeline *pl, local_stage *ls);
uint64_t local_mapped_bytes_per_element(device_pipeline *pl);
/* Per-element doubles of the mapped buffers M, X (and Y), T, G and the geometric factors. */
void local_mapped_sizes(device_pipeline *pl, uint64_t *m, uint64_t *x, uint64_t *t,
                        uint64_t *fac);
int local_mapped_build(device_pipeline *pl, local_stage *ls, int64_t e0, int64_t n, hdgcl_stage charge);
/* batched_gemm_trial for each of the mapped stage's products (those that
 * batched_gemm_choose left untried) on the chunk's first n elements. */
int local_mapped_trial_gemms(device_pipeline *pl, local_stage *ls, int64_t n);
void local_mapped_destroy(device_pipeline *pl, local_stage *ls);

/* Element offset of ls->z's first element for a chunk starting at e0. */
int64_t local_stage_z_first(const local_stage *ls, int64_t e0);
void local_stage_destroy(device_pipeline *pl, local_stage *ls);

/* Assembly (assemble.c). */
typedef struct assembly {
  cl_kernel boundary, matrix, rhs, neumann, ell_columns, fix;
  hdgcl_buffer values, cols, rhs_buf, bvals;
} assembly;

int assembly_create(device_pipeline *pl, assembly *as);
/* Starts the build of assembly_create's program in a host thread (hdgcl_program_prefetch). */
int assembly_prefetch(device_pipeline *pl);
/* Only its kernels (compiled with the view's options: a mixed mesh's
 * narrower type), and then pl->assemble's buffers lent to them; destroyed
 * by assembly_destroy_kernels. */
int assembly_create_kernels(device_pipeline *pl, assembly *as);
void assembly_share_buffers(assembly *as, const assembly *owner);
void assembly_destroy_kernels(assembly *as);
int assembly_boundary_data(device_pipeline *pl, assembly *as);  /* bvals; zeroes matrix and rhs */
/* bvals of the boundary faces whose element lies in [e0, e0 + n), with as's
 * kernel and the view's tables (each batch of a mixed mesh; the others'
 * faces are left as they are). */
int assembly_boundary_faces(device_pipeline *pl, assembly *as, int64_t e0, int64_t n);
int assembly_add_chunk(device_pipeline *pl, assembly *as, const local_stage *ls, int64_t e0, int64_t n);
/* The same from any chunk-relative K_e buffer k (column-major (NTB+1)^2 per
 * element, the last column -g_e): Newton's condensed Jacobians (local_newton.c). */
int assembly_add_elements(device_pipeline *pl, assembly *as, const hdgcl_buffer *k, int64_t e0,
                          int64_t n);
int assembly_finish(device_pipeline *pl, assembly *as);         /* Neumann loads, fixed components */
/* The solved trace's fixed components (per-component faces) set to their data (x: the solution). */
int assembly_fix_solution(device_pipeline *pl, assembly *as, hdgcl_buffer *x);
void assembly_destroy(device_pipeline *pl, assembly *as);

/* Recovery (recover.c). */
typedef struct recovery {
  cl_kernel local, post, errors;
  cl_kernel mapped_q; /* mapped elements: q from L and X of the local stage */
  hdgcl_buffer u, q, ustar, err;
  hdgcl_buffer p; /* pressure of the vector problems */
  bool vector;    /* elasticity: elasticity_recover and elasticity_errors */
  int post_grid;        /* u* by cl/pipeline/postprocess_tiled.cl on a grid of this side, or 0:
                           cl/pipeline/recover.cl's Cholesky (HDGCL_POSTPROCESS, recover.c) */
  bool scratch_global;  /* the postprocessing Cholesky does not fit in local memory */
  hdgcl_buffer scratch; /* chunk-sized when scratch_global */
  size_t wg, err_wg;
} recovery;

/* ls: the local stage whose chunks rc recovers (its chunk sizes the scratch). */
int recovery_create(device_pipeline *pl, recovery *rc, const local_stage *ls);
/* Starts the build of recovery_create's recover.cl program in a host thread. */
int recovery_prefetch(device_pipeline *pl);
int recovery_run_chunk(device_pipeline *pl, recovery *rc, const local_stage *ls, const assembly *as,
                       const krylov *kr, int64_t e0, int64_t n);
int recovery_errors(device_pipeline *pl, recovery *rc);
/* After the u* check refused the tiled kernel's u*: switch to the packed
 * Cholesky kernel (another compiled kernel: PoCL 5.0 miscompiles
 * postprocess_tiled now and then, docs/reliability.md).  *switched false
 * where u* already came from the Cholesky kernel. */
int recovery_use_cholesky(device_pipeline *pl, recovery *rc, const local_stage *ls, bool *switched);
void recovery_destroy(device_pipeline *pl, recovery *rc);

/* Element batches (batches.c, docs/geometry.md): the elements [first, first
 * + count) that run one kernel path of one element type, with the -D options
 * of their element programs, their local stage and their recovery kernels
 * (one trace system, one assembly, one set of u, q, u* buffers).  Today: a
 * curved mesh whose elements the readers sorted straight first
 * (hdgcl_mesh_sort_straight_first) runs its leading straight elements on the
 * vertex map (the affine path on simplices) and the rest on the mapped path;
 * a mixed mesh (sorted by type, hdgcl_mesh.type_first) runs its narrower
 * type's elements first, each type with its own tables (ref) and assembly
 * kernels; every other mesh is one batch. */
#define MAX_BATCHES 2
typedef struct element_batch {
  int64_t first, count;
  bool mapped;          /* element matrices by quadrature (local_mapped.c) */
  bool vertex_coords;   /* straight elements of a curved mesh: the vertices' coordinates, no GEO_ORDER */
  char options[1024];   /* the element programs' -D options */
  const hdg_reference *ref; /* its element type's tables and sizes (pl->disc->ref, or
                               other_ref: the narrower type of a mixed mesh) */
  local_stage *local;   /* &pl->local for the last batch, else owned */
  recovery *recover;    /* &pl->recover for the last batch, else owned (its u, q, u*, p, err are pl->recover's) */
  assembly *assemble;   /* &pl->assemble, or a mixed mesh's narrower type's kernels (its
                           buffers pl->assemble's) */
} element_batch;

/* The device pipeline: a discretisation's trace operator on one context.
 * It reads the discretisation (never changes it) and writes the solution's
 * arrays, history and figures into sol and what only a device run reports
 * (kernel choices, batches, flops and bytes per stage, memory) into report. */
struct device_pipeline {
  hdgcl_context ctx;
  const hdg_discretisation *disc;
  pipeline_options opts;
  solver_settings settings;
  hdg_solution *sol;
  hdgcl_result *report;
  hdgcl_memory_use *memory_uses; /* report's memory breakdown (pipeline_download) */
  bool mapped; /* bilinear/trilinear elements: element matrices by quadrature (local_mapped.c) */
  device_data data;
  char options[1024]; /* -D sizes shared by every element program */
  char *user_source;  /* a user's problem's OpenCL C (NULL for the built-in problems) */
  char trace_options[1024]; /* the same for the solve stage: NF = NFB, NT = NTB (block sizes) */
  local_stage local;
  assembly assemble;
  krylov krylov;
  recovery recover;
  int num_batches, batch;   /* element batches, and the one whose view (options, mapped, coords,
                               ref) is set */
  element_batch batches[MAX_BATCHES];
  hdgcl_buffer other_coords; /* the coordinates of the batches whose view is not set (batches.c) */
  /* A mixed mesh (docs/geometry.md, "Mixed meshes"): one batch per element
   * type (types), the view's element tables and sizes (ref: pl->disc->ref
   * but in the narrower type's batch) and the tables of the type whose view
   * is not set (other_tables, swapped with data's by pipeline_use_batch). */
  bool types;
  const hdg_reference *ref;
  device_data other_tables;
};

/* Element batches (batches.c): created after the last batch's stages
 * (pl->local, pl->recover); pipeline_use_batch sets batch b's view (pl->options,
 * pl->mapped and which coordinates pl->data.coords holds); every function that
 * sets another view sets the last batch's again before it returns. */
int pipeline_batches_create(device_pipeline *pl);
/* The leading straight elements that run as a batch of their own (0: one batch). */
int pipeline_batch_straight(device_pipeline *pl, int64_t *na);
/* A mixed mesh: whether the narrower type's batch takes the mapped path (a
 * user's coefficients at every point; batches.c type_batches). */
bool pipeline_narrow_mapped(const device_pipeline *pl);
int pipeline_use_batch(device_pipeline *pl, int b);
void pipeline_batches_destroy(device_pipeline *pl);
/* The local stage of every batch over its elements (hdgcl bench). */
int pipeline_local_run_all(device_pipeline *pl);
/* The -D options of the element programs of a batch: mapped or not, with the
 * curved geometry's GEO_ORDER (curved) or the vertex map. */
int pipeline_element_options(device_pipeline *pl, bool mapped, bool curved, char *out, size_t size);

/* Builds one stage's program: common.h, problems.h, geometry.h (when
 * with_geometry) and the stage's .cl file, with the shared -D options plus extra. */
int pipeline_program(device_pipeline *pl, const char *file, bool with_geometry, const char *extra,
                     cl_program *program);
/* Starts building what pipeline_program would build in a host thread
 * (hdgcl_program_prefetch); the later pipeline_program takes it. */
int pipeline_program_prefetch(device_pipeline *pl, const char *file, bool with_geometry,
                              const char *extra);
/* Largest work-group size allowed for a kernel on this device, capped at 256. */
size_t pipeline_kernel_max_wg(device_pipeline *pl, cl_kernel kernel);
/* The grid sides G of the register-tiled Gauss-Jordan kernels
 * (local_invert_tiled, local_solve_tiled, postprocess_tiled). */
static const int gauss_jordan_grids[NUM_TILED] = {8, 11, 16};
/* Whether cl/pipeline/gauss_jordan_tiled.h's tile of an nz x nc matrix on a g x g grid
 * fits in registers: at most 8 rows and 64 entries per work-item. */
static inline bool gauss_jordan_tile_fits(int nz, int nc, int g) {
  int rows = (nz + g - 1) / g, cols = (nc + g - 1) / g;
  return rows <= 8 && rows * cols <= 64;
}
/* The same with shared kernel headers (cl/NAME.h, a NULL-terminated list of
 * at most four, or NULL for none) before the file. */
int pipeline_program_with(device_pipeline *pl, const char *const *headers, const char *file,
                          bool with_geometry, const char *extra, cl_program *program);

/* Device memory the pipeline needs besides the local-stage chunks (bytes). */
uint64_t pipeline_fixed_bytes(device_pipeline *pl);

/* The trace system as the solvers see it: sizes, format, and the assembled
 * matrix's and the mesh's buffers on the device. */
void pipeline_linear_system(device_pipeline *pl, linear_system *sys);
/* p-multigrid's coarser levels of pl's trace operator (levels.c). */
trace_levels pipeline_levels(device_pipeline *pl);

/* True if a per-element work array of `bytes` must go to global memory
 * (opts.scratch, else whether it fits the device's local memory). */
bool pipeline_scratch_global(const device_pipeline *pl, size_t bytes);

/* The pipeline of discretisation disc on ctx: its programs, stages and the
 * Krylov solve of settings; its figures go into sol (created for disc) and
 * report.  disc, sol and report must outlive it. */
int pipeline_create(hdgcl_context ctx, const hdg_discretisation *disc,
                    const pipeline_options *opts, const solver_settings *settings,
                    hdg_solution *sol, hdgcl_result *report, device_pipeline **out);
/* The steps of a solve (the trace operator's, discretisation/trace_operator.h).
 * Each writes the solution's arrays, figures and stage seconds (added to)
 * into pl->sol and the device's figures into pl->report.
 * pipeline_assemble: upload, local stage and assembly; the trace system
 *   stays on the device, where pl->krylov reads it (all a p-multigrid level
 *   needs).
 * pipeline_apply: y = A x with the assembled matrix, host arrays of
 *   rows * nfb values (the unknown faces' blocks).
 * pipeline_solve_trace: the Krylov solve, and every face's trace into
 *   pl->sol->trace.
 * pipeline_recover: u, q (H), u*, p, the errors and u*'s check, downloaded.
 * pipeline_solve: the three in turn. */
int pipeline_assemble(device_pipeline *pl);
/* The discretisation's data onto the device (what pipeline_assemble uploads
 * first), for a stage that runs without pipeline_assemble (local_newton.c). */
int pipeline_upload(device_pipeline *pl);
int pipeline_apply(device_pipeline *pl, const double *x, double *y);
int pipeline_solve_trace(device_pipeline *pl);
/* In place of pipeline_solve_trace: x (rows * nfb values, the unknown faces'
 * blocks, solved elsewhere: a distributed solve, docs/mpi.md) as the solution,
 * and every face's trace into pl->sol->trace; x NULL: the solution vector
 * pl->krylov.x on the device already holds it. */
int pipeline_set_trace(device_pipeline *pl, const double *x);
int pipeline_recover(device_pipeline *pl);
int pipeline_solve(device_pipeline *pl);
/* Copies the device's trace matrix and right-hand side into pl->sol->matrix, rhs. */
int pipeline_download_matrix(device_pipeline *pl);
/* Waits for what was enqueued, frees everything and sets *pl to NULL. */
void pipeline_destroy(device_pipeline **pl);

#endif
