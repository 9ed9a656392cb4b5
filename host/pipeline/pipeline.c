/* The device pipeline driver: compile-time sizes, upload of the mesh and
 * reference tables, then mesh -> local -> assemble -> solve -> recover with
 * per-stage timing.  Each stage lives in its own file pair. */
#include "pipeline/pipeline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "problem/user_problem.h"

/* program NULL: hdgcl_program_prefetch of the same files and options. */
static int stage_program(device_pipeline *pl, const char *const *headers, const char *file,
                         bool with_geometry, const char *extra, cl_program *program) {
  const char *files[8];
  int n = 0;
  files[n++] = "core/common.h";
  const int problems_at = n; /* a user's problem's prelude goes before fem/problems.h */
  if (with_geometry) {
    files[n++] = "fem/problems.h";
    files[n++] = "fem/geometry.h";
  }
  for (int i = 0; headers && headers[i]; i++) {
    if (n == 7) return hdgcl_error(HDGCL_ERROR_INTERNAL, "%s: more than four kernel headers", file);
    files[n++] = headers[i];
  }
  files[n++] = file;
  char options[1536];
  snprintf(options, sizeof options, "%s %s", pl->options, extra ? extra : "");
  const char *prelude = with_geometry ? pl->user_source : NULL;
  if (!program) return hdgcl_program_prefetch(pl->ctx, prelude, problems_at, files, n, options);
  return hdgcl_program_get_prelude(pl->ctx, prelude, problems_at, files, n, options, program);
}

int pipeline_program_with(device_pipeline *pl, const char *const *headers, const char *file,
                          bool with_geometry, const char *extra, cl_program *program) {
  return stage_program(pl, headers, file, with_geometry, extra, program);
}

int pipeline_program_prefetch(device_pipeline *pl, const char *file, bool with_geometry,
                              const char *extra) {
  return stage_program(pl, NULL, file, with_geometry, extra, NULL);
}

int pipeline_program(device_pipeline *pl, const char *file, bool with_geometry, const char *extra,
                     cl_program *program) {
  return pipeline_program_with(pl, NULL, file, with_geometry, extra, program);
}

size_t pipeline_kernel_max_wg(device_pipeline *pl, cl_kernel kernel) {
  size_t max = 256, kmax = 0;
  if (clGetKernelWorkGroupInfo(kernel, pl->ctx->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof kmax,
                               &kmax, NULL) == CL_SUCCESS && kmax < max)
    max = kmax;
  if (pl->ctx->info.max_work_group < max) max = pl->ctx->info.max_work_group;
  return max;
}

/* A device buffer of `bytes` (at least `min`: no buffer is empty) holding src. */
static int upload_bytes(device_pipeline *pl, hdgcl_buffer *buf, size_t bytes, size_t min, const void *src,
                        const char *name) {
  HDGCL_TRY(hdgcl_buffer_create(pl->ctx, bytes ? bytes : min, name, buf));
  return bytes ? hdgcl_buffer_write(pl->ctx, buf, 0, bytes, src) : HDGCL_SUCCESS;
}
/* With `count` set, UPLOAD only adds the bytes it would allocate (what
 * pipeline_fixed_bytes counts), else allocates and writes. */
#define UPLOAD(buf, n, type, src, name)                                                        \
  do {                                                                                         \
    size_t bytes_ = (size_t)(n) * sizeof(type);                                                \
    if (count)                                                                                 \
      *count += bytes_ ? bytes_ : sizeof(type);                                                \
    else                                                                                       \
      HDGCL_TRY(upload_bytes(pl, &(buf), bytes_, sizeof(type), (src), name));                   \
  } while (0)

/* coefficients = points: each element's region, for user_coefficients (else one 0). */
static int upload_element_regions(device_pipeline *pl, hdgcl_buffer *buf, uint64_t *count) {
  bool points = pl->disc->user && pl->disc->user->point_coefficients;
  size_t n = points ? (size_t)pl->disc->mesh->num_elements : 1;
  if (count) {
    *count += n * sizeof(int32_t);
    return HDGCL_SUCCESS;
  }
  int32_t *set;
  HDGCL_TRY(hdgcl_calloc(n, sizeof *set, "element regions", &set));
  for (size_t e = 0; points && e < n; e++) set[e] = hdg_user_element_set(pl->disc->user, pl->disc->mesh, (int32_t)e);
  int status = upload_bytes(pl, buf, n * sizeof *set, sizeof *set, set, "element regions");
  free(set);
  return status;
}

/* The reference tables of one element type (ref) into d's table buffers
 * (device_data_swap_tables names them); mapped: those of the mapped path too. */
static int upload_tables(device_pipeline *pl, const hdg_reference *ref, device_data *d, bool mapped,
                         uint64_t *count) {
  const hdg_sizes *sz = &ref->sz;
  int dim = sz->dim, np = sz->np, np1 = sz->np1, nf = sz->nf;
  size_t nfo = (size_t)sz->nfaces * sz->norient;
  UPLOAD(d->dm, (size_t)dim * np * np, double, ref->dm, "Dm");
  UPLOAD(d->dmdmt, (size_t)dim * dim * np * np, double, ref->dmdmt, "DmDmT");
  UPLOAD(d->pf, (size_t)sz->nfaces * np * np, double, ref->pf, "Pf");
  UPLOAD(d->ef, nfo * np * nf, double, ref->ef, "Ef");
  UPLOAD(d->dmef, (size_t)dim * nfo * np * nf, double, ref->dmef, "DmEf");
  UPLOAD(d->efef, nfo * nfo * nf * nf, double, ref->efef, "EfTEf");
  UPLOAD(d->kpost, (size_t)dim * dim * np1 * np1, double, ref->kpost, "Kpost");
  UPLOAD(d->dpost, (size_t)dim * np1 * np, double, ref->dpost, "Dpost");
  UPLOAD(d->load_points, (size_t)ref->qload.n * dim, double, ref->qload.points, "load points");
  UPLOAD(d->load_weights, ref->qload.n, double, ref->qload.weights, "load weights");
  UPLOAD(d->phi_load, (size_t)ref->qload.n * np, double, ref->phi_load, "load basis");
  UPLOAD(d->face_points, (size_t)ref->qface.n * (dim - 1), double, ref->qface.points,
         "face points");
  UPLOAD(d->face_weights, ref->qface.n, double, ref->qface.weights, "face weights");
  UPLOAD(d->psi_face, (size_t)ref->qface.n * nf, double, ref->psi_face, "face basis");
  UPLOAD(d->face_xi, nfo * ref->qface.n * dim, double, ref->face_xi, "face points");
  UPLOAD(d->face_tangent, (size_t)sz->nfaces * 2 * dim, double, ref->face_tangent, "face tangents");
  UPLOAD(d->face_nref, (size_t)sz->nfaces * dim, double, ref->face_nref, "reference normals");
  if (mapped) {
    UPLOAD(d->phi_face, nfo * ref->qface.n * np, double, ref->phi_face, "face trace basis");
    UPLOAD(d->dphi_load, (size_t)ref->qload.n * np * dim, double, ref->dphi_load, "load gradients");
    UPLOAD(d->phi1_load, (size_t)ref->qload.n * np1, double, ref->phi1_load, "basis p+1");
    UPLOAD(d->dphi1_load, (size_t)ref->qload.n * np1 * dim, double, ref->dphi1_load,
           "gradients p+1");
  }
  UPLOAD(d->err_points, (size_t)ref->qerr.n * dim, double, ref->qerr.points, "error points");
  UPLOAD(d->err_weights, ref->qerr.n, double, ref->qerr.weights, "error weights");
  UPLOAD(d->phi_err, (size_t)ref->qerr.n * np, double, ref->phi_err, "error basis");
  UPLOAD(d->phi1_err, (size_t)ref->qerr.n * np1, double, ref->phi1_err, "error basis p+1");
  return HDGCL_SUCCESS;
}

/* Allocates and fills device_data (counted as the upload stage); with count
 * set, only adds the bytes that would take. */
static int upload(device_pipeline *pl, uint64_t *count) {
  device_data *d = &pl->data;
  const hdgcl_mesh *m = pl->disc->mesh;
  const hdg_reference *ref = &pl->disc->ref;
  const hdg_sizes *sz = &ref->sz;
  size_t ne = m->num_elements, nfc = m->num_faces;
  int dim = sz->dim, np = sz->np;
  /* Curved elements: the geometry nodes of each element take the vertex
   * coordinates' place (cl/fem/geometry.h element_map, GEO_ORDER > 1). */
  if (m->geometry_order > 1)
    UPLOAD(d->coords, ne * m->nodes_per_element * dim, double, m->elem_nodes, "geometry nodes");
  else
    UPLOAD(d->coords, (size_t)m->num_vertices * dim, double, m->coords, "coords");
  /* A straight batch of a curved mesh reads the vertices (batches.c). */
  if (pl->num_batches > 1)
    UPLOAD(pl->other_coords, (size_t)m->num_vertices * dim, double, m->coords, "vertex coords");
  UPLOAD(d->elem_verts, ne * m->verts_per_element, int32_t, m->elem_verts, "elem_verts");
  UPLOAD(d->elem_faces, ne * sz->nfaces, int32_t, m->elem_faces, "elem_faces");
  UPLOAD(d->elem_orient, ne * sz->nfaces, int8_t, m->elem_face_orient, "elem_orient");
  /* The vector problems' gradient block has the element's coefficient mu ((E6):
   * the scalar element matrices with kappa = mu, mapped elements' X = sqrt(mu)
   * L^-1 [B | C]); their lambda per element has a buffer of its own. */
  bool vector = sz->ncomp > 1;
  /* A tensor kappa: its K, K^-1 and R per element (kernels built with -DKAPPA_TENSOR). */
  if (pl->disc->kappa_tensor)
    UPLOAD(d->kappa, ne * KAPPA_TENSOR_VALUES(dim), double, pl->disc->kappa_tensor, "kappa tensors");
  else
    UPLOAD(d->kappa, ne, double, vector ? pl->disc->mu : pl->disc->kappa, "kappa");
  UPLOAD(d->c, ne, double, pl->disc->c, "c");
  UPLOAD(d->element_load, pl->disc->element_load ? ne * np : 1, double,
         pl->disc->element_load ? pl->disc->element_load : pl->disc->c, "element load");
  HDGCL_TRY(upload_element_regions(pl, &d->elem_set, count));
  UPLOAD(d->lambda, vector ? ne : 1, double, vector ? pl->disc->lambda : pl->disc->c, "lambda");
  UPLOAD(d->face_verts, nfc * m->verts_per_face, int32_t, m->face_verts, "face_verts");
  UPLOAD(d->face_elems, nfc * 2, int32_t, m->face_elems, "face_elems");
  UPLOAD(d->face_local, nfc * 2, int8_t, m->face_local, "face_local");
  UPLOAD(d->face_bc, nfc, int8_t, pl->disc->num.face_bc, "face_bc");
  UPLOAD(d->face_fixed, nfc, int8_t, pl->disc->num.face_fixed, "face_fixed");
  {
    size_t nb = nfc - (size_t)m->num_interior_faces;
    UPLOAD(d->face_cond, nb ? nb : 1, int8_t, pl->disc->num.face_cond, "face_cond");
    UPLOAD(d->robin, pl->disc->robin ? nb * sz->nfb * sz->nfb : 1, double, pl->disc->robin ? pl->disc->robin : pl->disc->c,
           "Robin blocks");
  }
  UPLOAD(d->face_unknown, nfc, int32_t, pl->disc->num.face_unknown, "face_unknown");
  UPLOAD(d->unknown_face, pl->disc->num.num_unknown_faces, int32_t, pl->disc->num.unknown_face, "unknown_face");
  UPLOAD(d->block_cols, (size_t)pl->disc->num.num_unknown_faces * sz->nslots, int32_t,
         pl->disc->num.block_cols, "block_cols");
  UPLOAD(d->face_orient, nfc * 2, int8_t, m->face_orient, "face_orient");
  HDGCL_TRY(upload_tables(pl, ref, d, pl->mapped, count));
  /* A mixed mesh: the other type's tables, which its batch swaps in (batches.c). */
  if (pl->types)
    HDGCL_TRY(upload_tables(pl, &pl->disc->other_ref, &pl->other_tables,
                            pipeline_narrow_mapped(pl), count));
  return count ? HDGCL_SUCCESS : hdgcl_context_finish(pl->ctx);
}

/* Bytes of the device buffers other than the local-stage chunks. */
uint64_t pipeline_fixed_bytes(device_pipeline *pl) {
  const hdgcl_mesh *m = pl->disc->mesh;
  const hdg_sizes *sz = &pl->disc->ref.sz;
  uint64_t ne = (uint64_t)m->num_elements, nfc = (uint64_t)m->num_faces;
  uint64_t rows = (uint64_t)pl->disc->num.num_unknown_faces, n = rows * sz->nfb;
  uint64_t bytes = 0;
  (void)upload(pl, &bytes); /* mesh, numbering, coefficients, reference tables */
  bytes += rows * sz->nslots * sz->nfb * sz->nfb * 8;             /* matrix values */
  if (pl->opts.format == FORMAT_ELL) bytes += rows * sz->nslots * sz->nfb * sz->nfb * 4; /* columns */
  bytes += n * 8;                                               /* rhs */
  linear_system sys;
  pipeline_linear_system(pl, &sys);
  solver_settings set = pl->settings;
  bytes += krylov_bytes(&sys, &set);            /* Krylov vectors, preconditioner, history */
  bytes += (nfc - (uint64_t)m->num_interior_faces) * sz->nfb * 8; /* boundary data */
  /* u, q (H), u*, errors; the pressure of the vector problems */
  bytes += ne * ((uint64_t)sz->ncomp * (sz->np * (1 + sz->dim) + sz->np1) + 4) * 8;
  if (sz->ncomp > 1) bytes += ne * ((uint64_t)sz->np + 4) * 8;
  return bytes;
}

static void release_data(device_pipeline *pl) {
  device_data *d = &pl->data;
  hdgcl_buffer *all[] = {&d->coords,     &d->elem_verts,   &d->elem_faces,  &d->elem_orient,
                         &d->kappa,      &d->c,            &d->elem_set,            &d->face_verts,  &d->face_elems,
                         &d->face_local, &d->face_bc,      &d->face_unknown, &d->unknown_face,
                         &d->block_cols, &d->dm,           &d->dmdmt,       &d->pf,
                         &d->ef,         &d->dmef,         &d->efef,        &d->kpost,       &d->dpost,
                         &d->load_points, &d->load_weights, &d->phi_load,   &d->face_points,
                         &d->face_weights, &d->psi_face,   &d->err_points,  &d->err_weights,
                         &d->phi_err,    &d->phi1_err,     &d->phi_face,    &d->face_xi,
                         &d->face_tangent, &d->face_nref,  &d->face_orient, &d->dphi_load,
                         &d->phi1_load,  &d->dphi1_load,   &d->lambda,
                         &d->face_cond,  &d->robin,        &d->face_fixed, &d->element_load};
  for (size_t i = 0; i < sizeof all / sizeof *all; i++) hdgcl_buffer_release(pl->ctx, all[i]);
  hdgcl_buffer_release(pl->ctx, &pl->other_coords);
  device_data *o = &pl->other_tables; /* the other type's tables (a mixed mesh), or none */
  hdgcl_buffer *tables[] = {DEVICE_TABLES(o)};
  for (size_t i = 0; i < sizeof tables / sizeof *tables; i++) hdgcl_buffer_release(pl->ctx, tables[i]);
}

void pipeline_linear_system(device_pipeline *pl, linear_system *sys) {
  const hdg_sizes *sz = &pl->disc->ref.sz;
  *sys = (linear_system){.rows = pl->disc->num.num_unknown_faces,
                         .nf = sz->nfb,
                         .nslots = sz->nslots,
                         .format = pl->opts.format,
                         .dim = sz->dim,
                         .order = sz->order,
                         .ncomp = sz->ncomp,
                         .face_shape = sz->face_shape,
                         .problem = pl->disc->problem->info.name,
                         .patches = {.num_elements = pl->disc->mesh->num_elements, .nt = sz->ntb}};
  const device_pipeline *dev = pl;
  sys->options = dev->trace_options;
  sys->values = &dev->assemble.values;
  sys->cols = &dev->assemble.cols;
  sys->block_cols = &dev->data.block_cols;
  sys->rhs = &dev->assemble.rhs_buf;
  element_patches *p = &sys->patches;
  p->elem_faces = &dev->data.elem_faces;
  p->face_elems = &dev->data.face_elems;
  p->face_local = &dev->data.face_local;
  p->face_unknown = &dev->data.face_unknown;
  p->unknown_face = &dev->data.unknown_face;
}

static int record_residual(void *sol, double relres) {
  return hdg_solution_record_residual(sol, relres);
}

/* The solve stage's outcome into the solution, its counters into the report. */
static void solve_outcome(device_pipeline *pl, const solve_stats *stats) {
  hdgcl_result *r = pl->report;
  pl->sol->iterations = stats->iterations;
  pl->sol->residual = stats->residual;
  r->precond_seconds = stats->precond_seconds;
  r->eig_min = stats->eig_min;
  r->eig_max = stats->eig_max;
  r->stages[HDGCL_STAGE_SOLVE].flops += stats->flops;
  r->stages[HDGCL_STAGE_SOLVE].bytes += stats->bytes;
}

bool pipeline_scratch_global(const device_pipeline *pl, size_t bytes) {
  if (pl->opts.scratch != SCRATCH_AUTO) return pl->opts.scratch == SCRATCH_GLOBAL;
  return bytes + 1024 > pl->ctx->info.local_mem; /* 1 KiB for the kernels' other local arrays */
}

/* Element programs see the element's sizes and the trace blocks (NCOMP
 * components: NFB = NCOMP NF per face, NTB = NCOMP NT per element, NZ the
 * local (u, p) system of the vector problems); the solve stage's program
 * (trace_options) sees the trace system only, so its NF and NT are the block
 * sizes NFB and NTB (the same for the scalar problems).  Curved elements: the
 * geometry's order, node count and node lattice (meshgen/curved.c) for
 * element_map; nothing for straight-sided meshes and the straight batch of a
 * curved one (batches.c). */
static int options_text(device_pipeline *pl, bool mapped, bool curved, bool trace, char *out, size_t size) {
  const hdg_reference *ref = pl->ref, *wide = &pl->disc->ref;
  const hdg_sizes *sz = &ref->sz;
  const hdgcl_mesh *mesh = pl->disc->mesh;
  char geometry[640] = ""; /* the hexahedron 64's table: 192 indices */
  if (curved && mesh->geometry_order > 1) {
    const int8_t *index;
    int count = hdgcl_geometry_nodes(mesh->type, mesh->geometry_order, &index);
    int len = snprintf(geometry, sizeof geometry, " -DGEO_ORDER=%d -DNGEO=%d -DGEO_INDEX=",
                       mesh->geometry_order, count);
    for (int i = 0; i < count * sz->dim && len < (int)sizeof geometry; i++)
      len += snprintf(geometry + len, sizeof geometry - len, "%s%d", i ? "," : "", index[i]);
    if (len >= (int)sizeof geometry)
      return hdgcl_error(HDGCL_ERROR_INTERNAL, "curved geometry: node table too long");
  }
  int nz = sz->ncomp > 1 ? (sz->dim + 1) * sz->np : sz->np;
  /* A mixed mesh's narrower type (pl->ref other_ref): its own sizes, the
   * trace rows' slots and the per-element rows of the widest type
   * (cl/core/common.h), and its own vertex count. */
  char rows[160] = "";
  int nvert = mesh->verts_per_element, nslots = sz->nslots;
  if (ref != wide) {
    for (int i = 0; i < mesh->num_types; i++)
      if (mesh->types[i] == sz->type) nvert = hdgcl_mesh_element_verts(mesh, mesh->type_first[i]);
    nslots = wide->sz.nslots;
    snprintf(rows, sizeof rows, " -DELEM_NVERT=%d -DELEM_NFACES=%d -DROW_NP=%d -DROW_NP1=%d",
             mesh->verts_per_element, mesh->faces_per_element, wide->sz.np, wide->sz.np1);
  }
  int len = snprintf(out, size,
           "-DELEMENT_TYPE=%d -DDIM=%d -DNVERT=%d -DNFACES=%d -DNORIENT=%d -DNP=%d -DNP1=%d "
           "-DNF=%d -DNT=%d -DNSLOTS=%d -DNQ_LOAD=%d -DNQ_FACE=%d -DNQ_ERR=%d -DNCOMP=%d "
           "-DNFB=%d -DNTB=%d -DNZ=%d -DMAPPED=%d%s%s%s%s",
           (int)sz->type, sz->dim, nvert, sz->nfaces, sz->norient, sz->np,
           sz->np1, trace ? sz->nfb : sz->nf, trace ? sz->ntb : sz->nt, nslots, ref->qload.n,
           ref->qface.n, ref->qerr.n, sz->ncomp, sz->nfb, sz->ntb, nz, (int)mapped,
           pl->disc->kappa_tensor ? " -DKAPPA_TENSOR" : "",
           pl->disc->element_load ? " -DELEMENT_LOAD" : "", geometry, rows);
  if (len < 0 || (size_t)len >= size) return hdgcl_error(HDGCL_ERROR_INTERNAL, "element program options too long");
  return HDGCL_SUCCESS;
}

int pipeline_element_options(device_pipeline *pl, bool mapped, bool curved, char *out, size_t size) {
  return options_text(pl, mapped, curved, false, out, size);
}

static int trace_options(device_pipeline *pl) {
  return options_text(pl, pl->mapped, pl->disc->mesh->geometry_order > 1, true, pl->trace_options,
                      sizeof pl->trace_options);
}

/* u, q, u* (p) in pinned host memory, which the download stage reads into,
 * on GPUs; $HDGCL_PINNED=on|off overrides.  Not on CPU devices: there is no
 * DMA to gain, and on PoCL (2 shared cores, square:160 p = 3, 18 MB) the
 * download took 22.7, 40.3, 18.5, 24.6 ms pinned against 14.9, 33.6, 79.2,
 * 25.6 ms malloc'd: no difference beyond the noise. */
static int pin_solution(device_pipeline *pl) {
  const char *env = getenv("HDGCL_PINNED");
  bool pin = pl->ctx->info.is_gpu;
  if (env && env[0]) {
    if (strcmp(env, "on") && strcmp(env, "off"))
      return hdgcl_error(HDGCL_ERROR_ARGUMENT, "HDGCL_PINNED=%s: expected on or off", env);
    pin = !strcmp(env, "on");
  }
  return pin ? hdg_solution_pin(pl->sol, pl->ctx, pl->disc) : HDGCL_SUCCESS;
}

static int pipeline_init(device_pipeline *pl) {
  const hdg_reference *ref = &pl->disc->ref;
  const hdg_sizes *sz = &ref->sz;
  pl->ref = ref; /* the last batch's view: the widest type's */
  pl->types = hdgcl_mesh_is_mixed(pl->disc->mesh);
  if (pl->disc->user) HDGCL_TRY(hdg_user_problem_emit(pl->disc->user, &pl->user_source));
  /* Mapped elements, and a user's coefficients evaluated at every point
   * (coefficients = points), take the per-point kernels. */
  const hdgcl_mesh *mesh = pl->disc->mesh;
  pl->mapped = sz->type == HDGCL_QUADRILATERAL || sz->type == HDGCL_HEXAHEDRON ||
               mesh->geometry_order > 1 ||
               (pl->disc->user && pl->disc->user->point_coefficients);
  HDGCL_TRY(pipeline_element_options(pl, pl->mapped, mesh->geometry_order > 1, pl->options,
                                      sizeof pl->options));
  HDGCL_TRY(trace_options(pl));
  /* With element batches (batches.c) this stage runs the curved elements
   * after the straight ones: its chunk at most their count, from their share
   * of the memory. */
  int64_t na, ne = mesh->num_elements;
  HDGCL_TRY(pipeline_batch_straight(pl, &na));
  if (na > 0) { /* (a mesh whose elements are all straight: a token curved batch) */
    pl->local.count = ne - na > 0 ? ne - na : 1;
    pl->local.share = (double)pl->local.count / (double)ne;
  }
  /* The later stages' programs compile in host threads while the local stage
   * builds its own (host/core/program.c; docs/tuning.md, "Start-up"). */
  HDGCL_TRY(assembly_prefetch(pl));
  krylov early = {.ctx = pl->ctx, .set = pl->settings};
  pipeline_linear_system(pl, &early.sys);
  HDGCL_TRY(krylov_prefetch(&early));
  HDGCL_TRY(recovery_prefetch(pl));
  if (pl->types) { /* a mixed mesh: this stage runs the widest type's elements, the last */
    pl->local.count = ne - mesh->type_first[1];
    pl->local.share = (double)pl->local.count / (double)ne;
  }
  HDGCL_TRY(local_stage_create(pl, &pl->local));
  HDGCL_TRY(assembly_create(pl, &pl->assemble));
  krylov *kr = &pl->krylov;
  kr->ctx = pl->ctx;
  pipeline_linear_system(pl, &kr->sys);
  kr->set = pl->settings;
  kr->levels = pipeline_levels(pl);
  kr->history = (residual_history){record_residual, pl->sol};
  HDGCL_TRY(krylov_create(kr));
  HDGCL_TRY(recovery_create(pl, &pl->recover, &pl->local));
  HDGCL_TRY(pipeline_batches_create(pl));
  pl->report->chunk_elements = pl->local.chunk;
  pl->report->num_chunks = pl->local.num_chunks;
  return pin_solution(pl);
}

int pipeline_create(hdgcl_context ctx, const hdg_discretisation *disc,
                    const pipeline_options *opts, const solver_settings *settings,
                    hdg_solution *sol, hdgcl_result *report, device_pipeline **out) {
  *out = NULL;
  device_pipeline *pl;
  HDGCL_TRY(hdgcl_calloc(1, sizeof *pl, "device pipeline", &pl));
  pl->ctx = ctx;
  pl->disc = disc;
  pl->opts = *opts;
  pl->settings = *settings;
  pl->sol = sol;
  pl->report = report;
  int status = pipeline_init(pl);
  if (status != HDGCL_SUCCESS) {
    pipeline_destroy(&pl);
    return status;
  }
  *out = pl;
  return HDGCL_SUCCESS;
}

int pipeline_upload(device_pipeline *pl) {
  double t = hdgcl_wtime();
  release_data(pl);
  HDGCL_TRY(upload(pl, NULL));
  pl->sol->stage_seconds[HDGCL_STAGE_UPLOAD] += hdgcl_wtime() - t;
  return HDGCL_SUCCESS;
}

int pipeline_assemble(device_pipeline *pl) {
  double *st = pl->sol->stage_seconds;
  release_data(pl);

  double t = hdgcl_wtime();
  HDGCL_TRY(upload(pl, NULL));
  st[HDGCL_STAGE_UPLOAD] = hdgcl_wtime() - t;
  for (int b = 0; b < pl->num_batches; b++) { /* each batch's kernel choices (trials) */
    HDGCL_TRY(pipeline_use_batch(pl, b));
    HDGCL_TRY(local_stage_prepare(pl, pl->batches[b].local));
  }
  HDGCL_TRY(pipeline_use_batch(pl, pl->num_batches - 1));

  t = hdgcl_wtime();
  HDGCL_TRY(assembly_boundary_data(pl, &pl->assemble));
  for (int b = 0; pl->types && b < pl->num_batches; b++) { /* each type's boundary faces */
    HDGCL_TRY(pipeline_use_batch(pl, b));
    HDGCL_TRY(assembly_boundary_faces(pl, pl->batches[b].assemble, pl->batches[b].first,
                                      pl->batches[b].count));
  }
  HDGCL_TRY(pipeline_use_batch(pl, pl->num_batches - 1));
  HDGCL_TRY(hdgcl_context_finish(pl->ctx));
  st[HDGCL_STAGE_ASSEMBLE] += hdgcl_wtime() - t;
  for (int b = 0; b < pl->num_batches; b++) {
    const element_batch *bt = &pl->batches[b];
    local_stage *ls = bt->local;
    for (int64_t e0 = bt->first; e0 < bt->first + bt->count; e0 += ls->chunk) {
      int64_t n = bt->first + bt->count - e0 < ls->chunk ? bt->first + bt->count - e0 : ls->chunk;
      t = hdgcl_wtime();
      HDGCL_TRY(pipeline_use_batch(pl, b));
      HDGCL_TRY(local_stage_run(pl, ls, e0, n, HDGCL_STAGE_LOCAL));
      HDGCL_TRY(pipeline_use_batch(pl, pl->num_batches - 1));
      HDGCL_TRY(hdgcl_context_finish(pl->ctx));
      double t1 = hdgcl_wtime();
      st[HDGCL_STAGE_LOCAL] += t1 - t;
      HDGCL_TRY(assembly_add_chunk(pl, bt->assemble, ls, e0, n));
      HDGCL_TRY(hdgcl_context_finish(pl->ctx));
      st[HDGCL_STAGE_ASSEMBLE] += hdgcl_wtime() - t1;
    }
  }
  t = hdgcl_wtime();
  HDGCL_TRY(assembly_finish(pl, &pl->assemble));
  HDGCL_TRY(hdgcl_context_finish(pl->ctx));
  st[HDGCL_STAGE_ASSEMBLE] += hdgcl_wtime() - t;
  return HDGCL_SUCCESS;
}

int pipeline_apply(device_pipeline *pl, const double *x, double *y) {
  size_t n = (size_t)pl->disc->num.num_unknown_faces * pl->disc->ref.sz.nfb;
  if (!n) return HDGCL_SUCCESS;
  hdgcl_buffer bx = {0}, by = {0};
  int status;
  HDGCL_TRY_GOTO(status, hdgcl_buffer_create(pl->ctx, n * 8, "apply: x", &bx), done);
  HDGCL_TRY_GOTO(status, hdgcl_buffer_create(pl->ctx, n * 8, "apply: y", &by), done);
  HDGCL_TRY_GOTO(status, hdgcl_buffer_write(pl->ctx, &bx, 0, n * 8, x), done);
  HDGCL_TRY_GOTO(status, krylov_spmv(&pl->krylov, &bx, &by), done);
  status = hdgcl_buffer_read(pl->ctx, &by, 0, n * 8, y);
done:
  hdgcl_buffer_release(pl->ctx, &bx);
  hdgcl_buffer_release(pl->ctx, &by);
  return status;
}

/* The Krylov solve from the initial guess in sol->trace (docs/time.md (T5)):
 * A d = b - A x0 to the tolerance that means rtol relative to ||b||, then
 * x = x0 + d; the right-hand side and the settings are restored. */
static int krylov_solve_from_guess(device_pipeline *pl) {
  krylov *kr = &pl->krylov;
  size_t n = (size_t)pl->disc->num.num_unknown_faces * pl->disc->ref.sz.nfb;
  int hstart = pl->sol->history_length;
  double rtol = kr->set.rtol, scale = 0.0;
  double *x0 = NULL, *r = NULL, *b = NULL;
  hdgcl_buffer g = {0};
  bool rhs_changed = false;
  int status;
  HDGCL_TRY_GOTO(status, hdgcl_calloc(n, sizeof(double), "initial guess", &x0), done);
  HDGCL_TRY_GOTO(status, hdgcl_calloc(n, sizeof(double), "initial residual", &r), done);
  HDGCL_TRY_GOTO(status, hdgcl_calloc(n, sizeof(double), "right-hand side", &b), done);
  initial_guess_gather(pl->disc, pl->sol, x0);
  HDGCL_TRY_GOTO(status, hdgcl_buffer_create(pl->ctx, n * 8, "initial guess", &g), done);
  HDGCL_TRY_GOTO(status, hdgcl_buffer_write(pl->ctx, &g, 0, n * 8, x0), done);
  /* A x0 into x, which the solve overwrites anyway */
  HDGCL_TRY_GOTO(status, krylov_spmv(kr, &g, &kr->x), done);
  HDGCL_TRY_GOTO(status, hdgcl_buffer_read(pl->ctx, &kr->x, 0, n * 8, r), done);
  HDGCL_TRY_GOTO(status, hdgcl_buffer_read(pl->ctx, kr->sys.rhs, 0, n * 8, b), done);
  scale = initial_guess_residual(n, b, r, r, rtol, &kr->set.rtol);
  if (scale == 0.0) { /* x0 solves it (or b = 0) */
    kr->stats = (solve_stats){0};
    HDGCL_TRY_GOTO(status, hdgcl_buffer_copy(pl->ctx, &g, &kr->x, n * 8), done);
    status = krylov_record_residual(kr, 0.0);
    goto done;
  }
  rhs_changed = true;
  HDGCL_TRY_GOTO(status, hdgcl_buffer_write(pl->ctx, &pl->assemble.rhs_buf, 0, n * 8, r), done);
  status = krylov_solve(kr);
  if (status == HDGCL_SUCCESS) status = vec_axpby(kr, 1.0, &g, 1.0, &kr->x);
done:
  kr->set.rtol = rtol;
  if (rhs_changed) {
    int st = hdgcl_buffer_write(pl->ctx, &pl->assemble.rhs_buf, 0, n * 8, b);
    if (status == HDGCL_SUCCESS) status = st;
  }
  solve_outcome(pl, &kr->stats); /* also of a failed solve */
  initial_guess_finish(pl->sol, hstart, scale);
  hdgcl_buffer_release(pl->ctx, &g);
  free(x0);
  free(r);
  free(b);
  return status;
}

/* The trace of every face into sol->trace: the unknowns in the Krylov
 * vector x and the boundary data. */
static int trace_of_every_face(device_pipeline *pl) {
  double *st = pl->sol->stage_seconds;
  const hdgcl_mesh *m = pl->disc->mesh;
  size_t nfb = pl->disc->ref.sz.nfb;
  double t = hdgcl_wtime();
  int status;
  size_t nu = (size_t)pl->disc->num.num_unknown_faces * nfb;
  size_t nb = (size_t)(m->num_faces - m->num_interior_faces) * nfb;
  double *x = NULL, *bv = NULL;
  HDGCL_TRY_GOTO(status, hdgcl_calloc(nu + 1, sizeof(double), "trace unknowns", &x), done);
  HDGCL_TRY_GOTO(status, hdgcl_calloc(nb + 1, sizeof(double), "boundary data", &bv), done);
  if (nu) HDGCL_TRY_GOTO(status, hdgcl_buffer_read(pl->ctx, &pl->krylov.x, 0, nu * 8, x), done);
  if (nb) HDGCL_TRY_GOTO(status, hdgcl_buffer_read(pl->ctx, &pl->assemble.bvals, 0, nb * 8, bv), done);
  for (int32_t f = 0; f < m->num_faces; f++) {
    int32_t u = pl->disc->num.face_unknown[f];
    const double *src = u >= 0 ? x + (size_t)u * nfb
                               : bv + (size_t)(f - m->num_interior_faces) * nfb;
    memcpy(pl->sol->trace + (size_t)f * nfb, src, sizeof(double) * nfb);
  }
  st[HDGCL_STAGE_DOWNLOAD] += hdgcl_wtime() - t;
  status = HDGCL_SUCCESS;
done:
  free(x);
  free(bv);
  return status;
}

int pipeline_solve_trace(device_pipeline *pl) {
  double *st = pl->sol->stage_seconds;
  double t = hdgcl_wtime();
  int status;
  if (pl->sol->initial_guess && pl->krylov.n > 0) {
    status = krylov_solve_from_guess(pl);
  } else {
    status = krylov_solve(&pl->krylov);
    solve_outcome(pl, &pl->krylov.stats); /* also of a failed solve */
  }
  HDGCL_TRY(status);
  HDGCL_TRY(assembly_fix_solution(pl, &pl->assemble, &pl->krylov.x));
  st[HDGCL_STAGE_SOLVE] = hdgcl_wtime() - t;
  return trace_of_every_face(pl);
}

/* The report's memory at the high water by buffer name (largest first). */
static int memory_breakdown(device_pipeline *pl) {
  int count;
  HDGCL_TRY(hdgcl_context_memory_breakdown(pl->ctx, 0, NULL, &count));
  hdgcl_memory_use *uses = NULL;
  if (count > 0) {
    HDGCL_TRY(hdgcl_calloc((size_t)count, sizeof *uses, "memory breakdown", &uses));
    int status = hdgcl_context_memory_breakdown(pl->ctx, count, uses, &count);
    if (status != HDGCL_SUCCESS) {
      free(uses);
      return status;
    }
  }
  free(pl->memory_uses);
  pl->memory_uses = uses;
  pl->report->num_memory_uses = count;
  pl->report->memory_uses = uses;
  return HDGCL_SUCCESS;
}

int pipeline_set_trace(device_pipeline *pl, const double *x) {
  size_t n = (size_t)pl->disc->num.num_unknown_faces * pl->disc->ref.sz.nfb;
  if (n && x) HDGCL_TRY(hdgcl_buffer_write(pl->ctx, &pl->krylov.x, 0, n * 8, x));
  HDGCL_TRY(assembly_fix_solution(pl, &pl->assemble, &pl->krylov.x));
  return trace_of_every_face(pl);
}

int pipeline_recover(device_pipeline *pl) {
  double *st = pl->sol->stage_seconds;
  const hdgcl_mesh *m = pl->disc->mesh;
  const hdg_sizes *sz = &pl->disc->ref.sz;
  /* Recovery: recompute the local solvers of each chunk unless kept. */
  double t = hdgcl_wtime();
  int status = HDGCL_SUCCESS;
  pl->report->ustar_retries = 0;
  for (int attempt = 0; attempt < 2; attempt++) {
    for (int b = 0; b < pl->num_batches; b++) {
      const element_batch *bt = &pl->batches[b];
      local_stage *ls = bt->local;
      HDGCL_TRY(pipeline_use_batch(pl, b));
      for (int64_t e0 = bt->first; e0 < bt->first + bt->count; e0 += ls->chunk) {
        int64_t n = bt->first + bt->count - e0 < ls->chunk ? bt->first + bt->count - e0 : ls->chunk;
        /* With one chunk its buffers still hold every element's local solver. */
        if (!ls->keep && bt->count > ls->chunk)
          HDGCL_TRY(local_stage_run(pl, ls, e0, n, HDGCL_STAGE_RECOVER));
        HDGCL_TRY(recovery_run_chunk(pl, bt->recover, ls, &pl->assemble, &pl->krylov, e0, n));
      }
    }
    HDGCL_TRY(pipeline_use_batch(pl, pl->num_batches - 1));
    status = recovery_errors(pl, &pl->recover);
    /* A u* refused by its consistency check is recomputed once, by the packed
     * Cholesky kernel where it came from the tiled one: PoCL 5.0 sometimes
     * compiles postprocess_tiled wrong on a cold cache, and the same binary
     * then fails again (docs/reliability.md); a second refusal stands. */
    if (status != HDGCL_ERROR_OPENCL || !(pl->sol->ustar_check > USTAR_CHECK_TOL)) break;
    for (int b = 0; b < pl->num_batches; b++) {
      bool switched;
      HDGCL_TRY(pipeline_use_batch(pl, b));
      HDGCL_TRY(recovery_use_cholesky(pl, pl->batches[b].recover, pl->batches[b].local, &switched));
    }
    HDGCL_TRY(pipeline_use_batch(pl, pl->num_batches - 1));
    pl->report->ustar_retries++;
  }
  HDGCL_TRY(status);
  st[HDGCL_STAGE_RECOVER] = hdgcl_wtime() - t;

  /* Download: u, q (H), u* and the pressure of the vector problems, into
   * pinned host memory (pipeline_init: hdg_solution_pin). */
  t = hdgcl_wtime();
  size_t ne = m->num_elements, nc = sz->ncomp;
  recovery *rc = &pl->recover;
  HDGCL_TRY(hdgcl_buffer_read(pl->ctx, &rc->u, 0, ne * nc * sz->np * 8, pl->sol->u));
  HDGCL_TRY(hdgcl_buffer_read(pl->ctx, &rc->q, 0, ne * nc * sz->dim * sz->np * 8, pl->sol->q));
  HDGCL_TRY(hdgcl_buffer_read(pl->ctx, &rc->ustar, 0, ne * nc * sz->np1 * 8, pl->sol->ustar));
  if (pl->sol->p) HDGCL_TRY(hdgcl_buffer_read(pl->ctx, &rc->p, 0, ne * sz->np * 8, pl->sol->p));
  /* The cantilever's tip deflection from the trace (host, as on the reference path). */
  if (pl->disc->problem->vector) HDGCL_TRY(elasticity_finish(pl->disc, pl->sol));
  st[HDGCL_STAGE_DOWNLOAD] += hdgcl_wtime() - t;
  uint64_t in_use, high;
  hdgcl_context_memory(pl->ctx, &in_use, &high);
  pl->report->device_memory_high_water = high;
  return memory_breakdown(pl);
}

int pipeline_solve(device_pipeline *pl) {
  HDGCL_TRY(pipeline_assemble(pl));
  HDGCL_TRY(pipeline_solve_trace(pl));
  return pipeline_recover(pl);
}

int pipeline_download_matrix(device_pipeline *pl) {
  const hdg_sizes *sz = &pl->disc->ref.sz;
  assembly *as = &pl->assemble;
  size_t rows = pl->disc->num.num_unknown_faces, nb = rows * sz->nslots * sz->nfb * sz->nfb;
  if (!rows) return HDGCL_SUCCESS;
  HDGCL_TRY(hdgcl_buffer_read(pl->ctx, &as->rhs_buf, 0, rows * sz->nfb * 8, pl->sol->rhs));
  if (pl->opts.format == FORMAT_BELL) return hdgcl_buffer_read(pl->ctx, &as->values, 0, nb * 8, pl->sol->matrix);
  /* Interleaved: entry k = slot*nf + n of row u*nf + m at k*nrows + row. */
  double *ell;
  HDGCL_TRY(hdgcl_calloc(nb, sizeof(double), "interleaved values", &ell));
  int status = hdgcl_buffer_read(pl->ctx, &as->values, 0, nb * 8, ell);
  size_t nrows = rows * sz->nfb;
  for (size_t u = 0; u < rows && status == HDGCL_SUCCESS; u++)
    for (int sl = 0; sl < sz->nslots; sl++)
      for (int m = 0; m < sz->nfb; m++)
        for (int n = 0; n < sz->nfb; n++)
          pl->sol->matrix[((u * sz->nslots + sl) * sz->nfb + m) * sz->nfb + n] =
              ell[(size_t)(sl * sz->nfb + n) * nrows + u * sz->nfb + m];
  free(ell);
  return status;
}

void pipeline_destroy(device_pipeline **pipeline) {
  device_pipeline *pl = *pipeline;
  if (!pl) return;
  /* After an error, commands enqueued before it may still run: let them end
   * before their kernels and buffers go (PoCL crashed compiling a kernel of
   * an enqueued launch while the objects were released, tests/cli_enqueue_faults.sh). */
  clFinish(pl->ctx->queue);
  pipeline_batches_destroy(pl);
  recovery_destroy(pl, &pl->recover);
  krylov_destroy(&pl->krylov);
  assembly_destroy(pl, &pl->assemble);
  local_stage_destroy(pl, &pl->local);
  release_data(pl);
  free(pl->user_source);
  free(pl->memory_uses);
  free(pl);
  *pipeline = NULL;
}
