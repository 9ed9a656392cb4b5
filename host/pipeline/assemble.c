/* Assembly on the device (kernels: cl/pipeline/assemble.cl): boundary data, then per
 * chunk of condensed elements a face-parallel gather into the block-ELL (row-
 * major or interleaved blocks, or scalar ELL) trace matrix and right-hand side, then the Neumann loads. */
#include "core/error.h"
#include "pipeline/pipeline.h"

static const char *assembly_extra(const device_pipeline *pl) {
  return FORMAT_INTERLEAVED(pl->opts.format) ? "-DINTERLEAVED" : NULL;
}

int assembly_prefetch(device_pipeline *pl) {
  return pipeline_program_prefetch(pl, "pipeline/assemble.cl", true, assembly_extra(pl));
}

int assembly_create_kernels(device_pipeline *pl, assembly *as) {
  cl_program program;
  HDGCL_TRY(pipeline_program(pl, "pipeline/assemble.cl", true, assembly_extra(pl), &program));
  HDGCL_TRY(hdgcl_kernel_create(program, "boundary_data", &as->boundary));
  HDGCL_TRY(hdgcl_kernel_create(program, "assemble_matrix", &as->matrix));
  HDGCL_TRY(hdgcl_kernel_create(program, "assemble_rhs", &as->rhs));
  HDGCL_TRY(hdgcl_kernel_create(program, "add_neumann", &as->neumann));
  HDGCL_TRY(hdgcl_kernel_create(program, "ell_columns", &as->ell_columns));
  HDGCL_TRY(hdgcl_kernel_create(program, "fix_solution", &as->fix));
  return HDGCL_SUCCESS;
}

void assembly_share_buffers(assembly *as, const assembly *owner) {
  as->values = owner->values;
  as->cols = owner->cols;
  as->rhs_buf = owner->rhs_buf;
  as->bvals = owner->bvals;
}

void assembly_destroy_kernels(assembly *as) {
  cl_kernel kernels[] = {as->boundary, as->matrix, as->rhs, as->neumann, as->ell_columns, as->fix};
  for (size_t i = 0; i < sizeof kernels / sizeof *kernels; i++)
    if (kernels[i]) clReleaseKernel(kernels[i]);
  *as = (assembly){0};
}

int assembly_create(device_pipeline *pl, assembly *as) {
  const hdg_sizes *sz = &pl->disc->ref.sz;
  HDGCL_TRY(assembly_create_kernels(pl, as));
  size_t rows = pl->disc->num.num_unknown_faces;
  size_t entries = rows * sz->nslots * sz->nfb * sz->nfb;
  size_t nbnd = (size_t)(pl->disc->mesh->num_faces - pl->disc->mesh->num_interior_faces);
  HDGCL_TRY(hdgcl_buffer_create(pl->ctx, (entries ? entries : 1) * 8, "trace matrix", &as->values));
  if (pl->opts.format == FORMAT_ELL)
    HDGCL_TRY(hdgcl_buffer_create(pl->ctx, (entries ? entries : 1) * 4, "ELL columns", &as->cols));
  HDGCL_TRY(hdgcl_buffer_create(pl->ctx, (rows ? rows : 1) * sz->nfb * 8, "right-hand side",
                                &as->rhs_buf));
  HDGCL_TRY(hdgcl_buffer_create(pl->ctx, (nbnd ? nbnd : 1) * sz->nfb * 8, "boundary data",
                                &as->bvals));
  return HDGCL_SUCCESS;
}

int assembly_boundary_data(device_pipeline *pl, assembly *as) {
  const hdg_sizes *sz = &pl->disc->ref.sz;
  const hdgcl_mesh *m = pl->disc->mesh;
  device_data *d = &pl->data;
  size_t rows = pl->disc->num.num_unknown_faces, entries = rows * sz->nslots * sz->nfb * sz->nfb;
  if (entries) HDGCL_TRY(hdgcl_buffer_fill(pl->ctx, &as->values, 0, entries * 8, 0.0));
  if (rows) HDGCL_TRY(hdgcl_buffer_fill(pl->ctx, &as->rhs_buf, 0, rows * sz->nfb * 8, 0.0));
  if (pl->opts.format == FORMAT_ELL && rows) {
    cl_int nu = (cl_int)rows;
    hdgcl_arg args[] = {HDGCL_ARG(nu), HDGCL_ARG(d->block_cols.mem), HDGCL_ARG(as->cols.mem)};
    HDGCL_TRY(hdgcl_kernel_set_args(as->ell_columns, 3, args));
    size_t global = rows * sz->nfb;
    HDGCL_TRY(hdgcl_kernel_launch_items(pl->ctx, as->ell_columns, global));
  }
  /* A mixed mesh: each batch its own faces (pipeline.c pipeline_assemble). */
  return pl->types ? HDGCL_SUCCESS : assembly_boundary_faces(pl, as, 0, m->num_elements);
}

int assembly_boundary_faces(device_pipeline *pl, assembly *as, int64_t e0, int64_t n) {
  const hdg_sizes *sz = &pl->ref->sz;
  const hdgcl_mesh *m = pl->disc->mesh;
  device_data *d = &pl->data;
  cl_int nint = m->num_interior_faces, nbnd = m->num_faces - m->num_interior_faces;
  cl_int pid = pl->disc->params.id, pdeg = pl->disc->params.degree;
  double k2 = pl->disc->params.param, mu = pl->disc->params.mu, lambda = pl->disc->params.lambda;
  cl_int first = (cl_int)e0, end = (cl_int)(e0 + n);
  if (nbnd == 0) return HDGCL_SUCCESS;
  hdgcl_arg args[] = {HDGCL_ARG(nint),           HDGCL_ARG(nbnd),
                      HDGCL_ARG(first),          HDGCL_ARG(end),
                      HDGCL_ARG(d->face_bc.mem), HDGCL_ARG(d->face_cond.mem),
                      HDGCL_ARG(d->face_fixed.mem),
                      HDGCL_ARG(d->face_elems.mem),
                      HDGCL_ARG(d->face_local.mem), HDGCL_ARG(d->face_orient.mem),
                      HDGCL_ARG(d->coords.mem),  HDGCL_ARG(d->elem_verts.mem),
                      HDGCL_ARG(pid),            HDGCL_ARG(pdeg),
                      HDGCL_ARG(k2),             HDGCL_ARG(mu),
                      HDGCL_ARG(lambda),         HDGCL_ARG(d->face_weights.mem),
                      HDGCL_ARG(d->psi_face.mem), HDGCL_ARG(d->face_xi.mem),
                      HDGCL_ARG(d->face_tangent.mem), HDGCL_ARG(d->face_nref.mem),
                      HDGCL_ARG(as->bvals.mem)};
  HDGCL_TRY(hdgcl_kernel_set_args(as->boundary, sizeof args / sizeof *args, args));
  size_t global = (size_t)nbnd;
  HDGCL_TRY(hdgcl_kernel_launch_items(pl->ctx, as->boundary, global));
  pl->report->stages[HDGCL_STAGE_ASSEMBLE].flops +=
      (double)nbnd * pl->ref->qface.n * (2.0 * sz->nfb + 40.0 * sz->ncomp);
  pl->report->stages[HDGCL_STAGE_ASSEMBLE].bytes += (double)nbnd * sz->nfb * 8;
  return HDGCL_SUCCESS;
}

int assembly_add_chunk(device_pipeline *pl, assembly *as, const local_stage *ls, int64_t e0, int64_t n) {
  return assembly_add_elements(pl, as, &ls->k, e0, n);
}

int assembly_add_elements(device_pipeline *pl, assembly *as, const hdgcl_buffer *k, int64_t e0,
                          int64_t n) {
  const hdg_sizes *sz = &pl->disc->ref.sz;
  device_data *d = &pl->data;
  size_t rows = pl->disc->num.num_unknown_faces;
  if (!rows) return HDGCL_SUCCESS;
  cl_int nu = (cl_int)rows, ce0 = (cl_int)e0, cn = (cl_int)n, nint = pl->disc->mesh->num_interior_faces;
  hdgcl_arg margs[] = {HDGCL_ARG(nu),
                       HDGCL_ARG(ce0),
                       HDGCL_ARG(cn),
                       HDGCL_ARG(d->unknown_face.mem),
                       HDGCL_ARG(d->block_cols.mem),
                       HDGCL_ARG(d->face_elems.mem),
                       HDGCL_ARG(d->face_local.mem),
                       HDGCL_ARG(k->mem),
                       HDGCL_ARG(as->values.mem)};
  HDGCL_TRY(hdgcl_kernel_set_args(as->matrix, sizeof margs / sizeof *margs, margs));
  /* The kernel loops over entries: 2^20 work-items fill any current device
   * (an H100 holds 270k resident) and keep the launch far below 2^31. */
  size_t global = rows * sz->nslots * sz->nfb * sz->nfb;
  if (global > ((size_t)1 << 20)) global = (size_t)1 << 20;
  HDGCL_TRY(hdgcl_kernel_launch_items(pl->ctx, as->matrix, global));
  hdgcl_arg rargs[] = {HDGCL_ARG(nu),
                       HDGCL_ARG(ce0),
                       HDGCL_ARG(cn),
                       HDGCL_ARG(nint),
                       HDGCL_ARG(d->unknown_face.mem),
                       HDGCL_ARG(d->face_elems.mem),
                       HDGCL_ARG(d->face_local.mem),
                       HDGCL_ARG(d->elem_faces.mem),
                       HDGCL_ARG(d->face_bc.mem),
                       HDGCL_ARG(as->bvals.mem),
                       HDGCL_ARG(k->mem),
                       HDGCL_ARG(as->rhs_buf.mem)};
  HDGCL_TRY(hdgcl_kernel_set_args(as->rhs, sizeof rargs / sizeof *rargs, rargs));
  global = rows * sz->nfb;
  HDGCL_TRY(hdgcl_kernel_launch_items(pl->ctx, as->rhs, global));
  /* Each matrix entry: one add per neighbour; the matrix is read and written once
   * per chunk and every K_e entry is read once (the right-hand side reads the
   * K_e rows of the face again, with the Dirichlet columns). */
  double entries = (double)rows * sz->nslots * sz->nfb * sz->nfb;
  double nt1 = sz->ntb + 1;
  pl->report->stages[HDGCL_STAGE_ASSEMBLE].flops += (double)rows * sz->nfb * 2 + entries;
  pl->report->stages[HDGCL_STAGE_ASSEMBLE].bytes +=
      8.0 * (2 * entries + (double)n * nt1 * nt1 + 2.0 * rows * sz->nfb) +
      4.0 * rows * (sz->nslots + 5);
  return HDGCL_SUCCESS;
}

int assembly_finish(device_pipeline *pl, assembly *as) {
  const hdg_sizes *sz = &pl->disc->ref.sz;
  device_data *d = &pl->data;
  size_t rows = pl->disc->num.num_unknown_faces;
  if (!rows || pl->disc->mesh->num_faces == pl->disc->mesh->num_interior_faces) return HDGCL_SUCCESS;
  cl_int nu = (cl_int)rows, nint = pl->disc->mesh->num_interior_faces;
  hdgcl_arg args[] = {HDGCL_ARG(nu),
                      HDGCL_ARG(nint),
                      HDGCL_ARG(d->unknown_face.mem),
                      HDGCL_ARG(d->block_cols.mem),
                      HDGCL_ARG(d->face_bc.mem),
                      HDGCL_ARG(d->face_fixed.mem),
                      HDGCL_ARG(as->bvals.mem),
                      HDGCL_ARG(d->robin.mem),
                      HDGCL_ARG(as->rhs_buf.mem),
                      HDGCL_ARG(as->values.mem)};
  HDGCL_TRY(hdgcl_kernel_set_args(as->neumann, sizeof args / sizeof *args, args));
  size_t global = rows * sz->nfb;
  return hdgcl_kernel_launch_items(pl->ctx, as->neumann, global);
}

int assembly_fix_solution(device_pipeline *pl, assembly *as, hdgcl_buffer *x) {
  const hdg_sizes *sz = &pl->disc->ref.sz;
  device_data *d = &pl->data;
  size_t rows = pl->disc->num.num_unknown_faces;
  if (!rows || sz->ncomp == 1 || pl->disc->mesh->num_faces == pl->disc->mesh->num_interior_faces)
    return HDGCL_SUCCESS;
  cl_int nu = (cl_int)rows, nint = pl->disc->mesh->num_interior_faces;
  hdgcl_arg args[] = {HDGCL_ARG(nu), HDGCL_ARG(nint), HDGCL_ARG(d->unknown_face.mem),
                      HDGCL_ARG(d->face_fixed.mem), HDGCL_ARG(as->bvals.mem), HDGCL_ARG(x->mem)};
  HDGCL_TRY(hdgcl_kernel_set_args(as->fix, sizeof args / sizeof *args, args));
  size_t global = rows * sz->nfb;
  return hdgcl_kernel_launch_items(pl->ctx, as->fix, global);
}

void assembly_destroy(device_pipeline *pl, assembly *as) {
  cl_kernel kernels[] = {as->boundary, as->matrix, as->rhs, as->neumann, as->ell_columns, as->fix};
  for (size_t i = 0; i < sizeof kernels / sizeof *kernels; i++)
    if (kernels[i]) clReleaseKernel(kernels[i]);
  hdgcl_buffer_release(pl->ctx, &as->values);
  hdgcl_buffer_release(pl->ctx, &as->cols);
  hdgcl_buffer_release(pl->ctx, &as->rhs_buf);
  hdgcl_buffer_release(pl->ctx, &as->bvals);
  *as = (assembly){0};
}
