/* Newton's method on the device (local_newton.h, docs/nonlinear.md): the
 * element kernel (cl/pipeline/local_newton_group.cl, one work-group per
 * element, or cl/pipeline/local_newton.cl's newton_element, one work-item per
 * element: $HDGCL_NEWTON_KERNEL) feeds the pipeline's assembly
 * (assembly_add_elements) and Krylov solve; the residual norm (N4) is summed
 * on the device from the per-element pieces (newton_norm). */
#include "pipeline/local_newton.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "problem/user_problem.h"

/* newton_element_group's local memory (cl/pipeline/local_newton_group.cl) in
 * work-groups of wg: VQ doubles per volume point, FQ per face point, the
 * element's arrays and the pivot's reduction. */
static size_t group_local_bytes(const hdg_discretisation *disc, size_t wg) {
  const hdg_sizes *sz = &disc->ref.sz;
  size_t d = (size_t)sz->dim, np = (size_t)sz->np, nt = (size_t)sz->nt, nl = (d + 1) * np;
  size_t na = nl + nt + 1, vq = 7 + d + d * d, fq = 9 + d;
  size_t doubles = (size_t)disc->ref.qload.n * vq + (size_t)sz->nfaces * disc->ref.qface.n * fq +
                   np + d * np + 2 * nt + nl + 2 * na + nl;
  return doubles * 8 + 4 * ((size_t)sz->nfaces + 1) + 12 * wg;
}

/* The element kernel: $HDGCL_NEWTON_KERNEL = item (newton_element), group or
 * group:WG (newton_element_group in work-groups of WG), else on GPUs the group
 * kernel where its local memory fits, and elsewhere the item kernel (on PoCL
 * the faster of the two, docs/nonlinear.md section 7).  The group's default
 * size: on GPUs the power of two >= 1/16 of the augmented matrix's entries,
 * between 32 and 128 (32 at k = 1, 128 from k = 2 on quadrilaterals), 16 on
 * other devices.  *wg = 0 for the item kernel. */
static int choose_kernel(device_pipeline *pl, size_t *wg) {
  const char *env = getenv("HDGCL_NEWTON_KERNEL");
  size_t lmem = pl->ctx->info.local_mem, maxwg = pl->ctx->info.max_work_group;
  const hdg_sizes *sz = &pl->disc->ref.sz;
  size_t nl = (size_t)(sz->dim + 1) * sz->np, entries = nl * (nl + sz->nt + 1);
  *wg = 16;
  if (pl->ctx->info.is_gpu)
    for (*wg = 32; *wg < 128 && *wg * 16 < entries;) *wg *= 2;
  if (*wg > maxwg) *wg = maxwg;
  size_t local = group_local_bytes(pl->disc, *wg);
  bool fits = local + 1024 <= lmem;
  if (!env || !env[0]) {
    if (!fits || !pl->ctx->info.is_gpu) *wg = 0;
    return HDGCL_SUCCESS;
  }
  if (!strcmp(env, "item")) {
    *wg = 0;
    return HDGCL_SUCCESS;
  }
  unsigned long v = 0;
  char rest;
  if (strcmp(env, "group") && (sscanf(env, "group:%lu%c", &v, &rest) != 1 || v < 1 || v > 1024))
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "HDGCL_NEWTON_KERNEL=%s: expected item, group or group:WG (1..1024)",
                       env);
  if (v) {
    *wg = v;
    local = group_local_bytes(pl->disc, *wg);
    fits = local + 1024 <= lmem;
  }
  if (*wg > maxwg)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                       "HDGCL_NEWTON_KERNEL=%s: work-groups of %zu exceed the device's %zu", env, *wg, maxwg);
  if (!fits)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                       "HDGCL_NEWTON_KERNEL=%s: at order %d newton_element_group needs %zu bytes of "
                       "local memory, the device has %zu",
                       env, pl->disc->ref.sz.order, local, lmem);
  return HDGCL_SUCCESS;
}

struct local_newton {
  device_pipeline *pl;
  cl_kernel element, update, trace_update, norm;
  size_t norm_wg; /* newton_norm's one work-group (a power of two) */
  size_t wg; /* the element kernel's work-group: 0 for newton_element (one work-item per element) */
  hdgcl_buffer u, q, u0, q0, trace, trace0; /* the state and the base of the line search */
  bool resident; /* the device holds the current state (pl's solution may not) */
  hdgcl_buffer rl, aug, jtl, k, rl2, rt, flags, norm2, bad;
  hdgcl_buffer phi_face, dphi; /* tables the pipeline uploads for mapped elements only */
};

void local_newton_destroy(local_newton **lnp) {
  local_newton *ln = *lnp;
  if (!ln) return;
  hdgcl_context ctx = ln->pl->ctx;
  if (ln->element) clReleaseKernel(ln->element);
  if (ln->update) clReleaseKernel(ln->update);
  if (ln->trace_update) clReleaseKernel(ln->trace_update);
  if (ln->norm) clReleaseKernel(ln->norm);
  hdgcl_buffer *bufs[] = {&ln->u, &ln->q, &ln->u0, &ln->q0, &ln->trace, &ln->trace0, &ln->rl, &ln->aug,
                          &ln->jtl, &ln->k, &ln->rl2, &ln->rt, &ln->flags, &ln->norm2, &ln->bad,
                          &ln->phi_face, &ln->dphi};
  for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++) hdgcl_buffer_release(ctx, bufs[i]);
  free(ln);
  *lnp = NULL;
}

int local_newton_create(device_pipeline *pl, local_newton **out) {
  *out = NULL;
  const hdg_discretisation *disc = pl->disc;
  const hdg_sizes *sz = &disc->ref.sz;
  const hdgcl_mesh *mesh = disc->mesh;
  double beta[3];
  problem_beta(disc->params, beta);
  /* Straight-sided elements of every type: the kernel evaluates the map's
   * Jacobian at each quadrature point (element_map, cl/fem/geometry.h), so
   * bilinear quadrilaterals and trilinear hexahedra take the same code as
   * the simplices. */
  /* A user's problem: kappa(u) is emitted as OpenCL C with its symbolic
   * derivative (user_kappa_u); coefficients per point and tensor kappa are
   * not in the element kernels. */
  bool user_unsupported = disc->user && (disc->user->point_coefficients || disc->kappa_tensor);
  if (mesh->geometry_order > 1 || user_unsupported || sz->ncomp > 1 || disc->robin || beta[0] != 0 ||
      beta[1] != 0 || beta[2] != 0)
    return hdgcl_error(HDGCL_ERROR_UNSUPPORTED,
                       "problem %s: Newton's method on an OpenCL device takes scalar problems "
                       "(built-in or a problem file with coefficients per element) without "
                       "linear convection or Robin faces on straight-sided triangles, "
                       "quadrilaterals, tetrahedra and hexahedra; use --device ref "
                       "(docs/nonlinear.md)",
                       disc->problem->info.name);
  HDGCL_TRY(pipeline_upload(pl));
  local_newton *ln;
  HDGCL_TRY(hdgcl_calloc(1, sizeof *ln, "device Newton", &ln));
  ln->pl = pl;
  size_t ne = (size_t)mesh->num_elements, np = (size_t)sz->np, d = (size_t)sz->dim;
  size_t nt = (size_t)sz->nt, nl = (d + 1) * np, na = nl + nt + 1, nf = (size_t)sz->nf;
  size_t nfaces = (size_t)mesh->num_faces;
  int status;
  cl_program program;
  static const char *const headers[] = {"pipeline/newton_element.h", NULL};
  HDGCL_TRY_GOTO(status, choose_kernel(pl, &ln->wg), fail);
  HDGCL_TRY_GOTO(status, pipeline_program_with(pl, headers, "pipeline/local_newton.cl", true, NULL, &program),
                 fail);
  HDGCL_TRY_GOTO(status, hdgcl_kernel_create(program, "newton_update", &ln->update), fail);
  HDGCL_TRY_GOTO(status, hdgcl_kernel_create(program, "newton_trace_update", &ln->trace_update), fail);
  HDGCL_TRY_GOTO(status, hdgcl_kernel_create(program, "newton_norm", &ln->norm), fail);
  for (ln->norm_wg = 1; ln->norm_wg * 2 <= pipeline_kernel_max_wg(pl, ln->norm);) ln->norm_wg *= 2;
  if (ln->wg) {
    char defines[64];
    snprintf(defines, sizeof defines, "-DNEWTON_WG=%zu", ln->wg);
    HDGCL_TRY_GOTO(status, pipeline_program_with(pl, headers, "pipeline/local_newton_group.cl", true, defines,
                                                 &program), fail);
    HDGCL_TRY_GOTO(status, hdgcl_kernel_create(program, "newton_element_group", &ln->element), fail);
  } else {
    HDGCL_TRY_GOTO(status, hdgcl_kernel_create(program, "newton_element", &ln->element), fail);
  }
  size_t phi_face_bytes = (size_t)sz->nfaces * sz->norient * disc->ref.qface.n * np * 8;
  size_t dphi_bytes = (size_t)disc->ref.qload.n * np * d * 8;
  struct {
    hdgcl_buffer *b;
    size_t bytes;
    const char *name;
  } bufs[] = {{&ln->u, ne * np * 8, "Newton u"},           {&ln->q, ne * d * np * 8, "Newton q"},
              {&ln->u0, ne * np * 8, "Newton base u"},     {&ln->q0, ne * d * np * 8, "Newton base q"},
              {&ln->trace, nfaces * nf * 8, "Newton trace"}, {&ln->trace0, nfaces * nf * 8, "Newton base trace"}, {&ln->rl, ne * nl * 8, "Newton R_L"}, {&ln->aug, ne * nl * na * 8, "Newton [J_LL | J_LT | R_L]"},
              {&ln->jtl, ne * nt * nl * 8, "Newton J_TL"}, {&ln->k, ne * (nt + 1) * (nt + 1) * 8, "Newton K_e"},
              {&ln->rl2, ne * 8, "Newton |R_L|^2"},        {&ln->rt, ne * nt * 8, "Newton R_T^e"},
              {&ln->flags, ne * 4, "Newton flags"},        {&ln->norm2, 8, "Newton ||R||^2"},
              {&ln->bad, 8, "Newton flagged element"},
              {&ln->phi_face, phi_face_bytes, "face trace basis"},
              {&ln->dphi, dphi_bytes, "load gradients"}};
  for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++)
    HDGCL_TRY_GOTO(status, hdgcl_buffer_create(pl->ctx, bufs[i].bytes, bufs[i].name, bufs[i].b), fail);
  HDGCL_TRY_GOTO(status, hdgcl_buffer_write(pl->ctx, &ln->phi_face, 0, phi_face_bytes, disc->ref.phi_face), fail);
  HDGCL_TRY_GOTO(status, hdgcl_buffer_write(pl->ctx, &ln->dphi, 0, dphi_bytes, disc->ref.dphi_load), fail);
  *out = ln;
  return HDGCL_SUCCESS;
fail:
  local_newton_destroy(&ln);
  return status;
}

/* The element kernel (residual, and the condensed Jacobian with `jacobian`),
 * then ||R|| (N4) from its pieces; kappa <= 0 and a singular J_LL are errors. */
static int element_pass(local_newton *ln, int jacobian, double *norm) {
  device_pipeline *pl = ln->pl;
  const hdg_discretisation *disc = pl->disc;
  const hdgcl_mesh *mesh = disc->mesh;
  device_data *dd = &pl->data;
  cl_int ne = mesh->num_elements, nonlinear = disc->problem->nonlinear;
  cl_int pid = disc->params.id, pdeg = disc->params.degree;
  double tau = disc->tau, param = disc->params.param, visc = disc->params.nu;
  hdgcl_arg args[] = {HDGCL_ARG(jacobian),          HDGCL_ARG(nonlinear),
                      HDGCL_ARG(dd->coords.mem),     HDGCL_ARG(dd->elem_verts.mem),
                      HDGCL_ARG(dd->elem_orient.mem), HDGCL_ARG(dd->elem_faces.mem),
                      HDGCL_ARG(dd->face_bc.mem),    HDGCL_ARG(dd->kappa.mem),
                      HDGCL_ARG(dd->c.mem),          HDGCL_ARG(tau),
                      HDGCL_ARG(pid),                HDGCL_ARG(pdeg),
                      HDGCL_ARG(param),              HDGCL_ARG(visc),
                      HDGCL_ARG(dd->load_points.mem),
                      HDGCL_ARG(dd->load_weights.mem), HDGCL_ARG(dd->phi_load.mem),
                      HDGCL_ARG(ln->dphi.mem),  HDGCL_ARG(dd->face_weights.mem),
                      HDGCL_ARG(dd->psi_face.mem),   HDGCL_ARG(ln->phi_face.mem),
                      HDGCL_ARG(dd->face_xi.mem),    HDGCL_ARG(dd->face_tangent.mem),
                      HDGCL_ARG(dd->face_nref.mem),  HDGCL_ARG(dd->element_load.mem),
                      HDGCL_ARG(ln->u.mem),
                      HDGCL_ARG(ln->q.mem),          HDGCL_ARG(ln->trace.mem),
                      HDGCL_ARG(ln->rl.mem),         HDGCL_ARG(ln->aug.mem),        HDGCL_ARG(ln->jtl.mem),
                      HDGCL_ARG(ln->k.mem),          HDGCL_ARG(ln->rl2.mem),
                      HDGCL_ARG(ln->rt.mem),         HDGCL_ARG(ln->flags.mem),
                      HDGCL_ARG(ne)};
  HDGCL_TRY(hdgcl_kernel_set_args(ln->element, sizeof args / sizeof *args, args));
  size_t global = (size_t)ne * (ln->wg ? ln->wg : 1);
  HDGCL_TRY(hdgcl_kernel_launch(pl->ctx, ln->element, 1, &global, ln->wg ? &ln->wg : NULL, NULL));
  /* (N4) and the flags on the device: two ints and a double come back */
  cl_int nunknown = disc->num.num_unknown_faces, nint = mesh->num_interior_faces;
  hdgcl_buffer *bvals = &pl->assemble.bvals; /* written by assembly_boundary_data at the linearisation */
  hdgcl_arg nargs[] = {HDGCL_ARG(ne),
                       HDGCL_ARG(nunknown),
                       HDGCL_ARG(nint),
                       HDGCL_ARG(dd->unknown_face.mem),
                       HDGCL_ARG(dd->face_elems.mem),
                       HDGCL_ARG(dd->face_local.mem),
                       HDGCL_ARG(bvals->mem),
                       HDGCL_ARG(ln->rl2.mem),
                       HDGCL_ARG(ln->rt.mem),
                       HDGCL_ARG(ln->flags.mem),
                       HDGCL_ARG_LOCAL(ln->norm_wg * sizeof(double)),
                       HDGCL_ARG_LOCAL(ln->norm_wg * sizeof(cl_int)),
                       HDGCL_ARG(ln->norm2.mem),
                       HDGCL_ARG(ln->bad.mem)};
  HDGCL_TRY(hdgcl_kernel_set_args(ln->norm, sizeof nargs / sizeof *nargs, nargs));
  HDGCL_TRY(hdgcl_kernel_launch(pl->ctx, ln->norm, 1, &ln->norm_wg, &ln->norm_wg, NULL));
  cl_int bad[2];
  double s;
  HDGCL_TRY(hdgcl_buffer_read(pl->ctx, &ln->bad, 0, sizeof bad, bad));
  if (bad[0] >= 0 && bad[1] == 1)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                       "%s: kappa(u) <= 0 at a quadrature point of element %d during Newton's "
                       "iteration (device); kappa must stay > 0",
                       disc->problem->info.name, (int)bad[0]);
  if (bad[0] >= 0)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "element %d: Newton's local Jacobian J_LL singular",
                       (int)bad[0]);
  HDGCL_TRY(hdgcl_buffer_read(pl->ctx, &ln->norm2, 0, sizeof s, &s));
  *norm = sqrt(s);
  return HDGCL_SUCCESS;
}

int local_newton_upload_shift(local_newton *ln) {
  device_pipeline *pl = ln->pl;
  const hdg_discretisation *disc = pl->disc;
  size_t ne = (size_t)disc->mesh->num_elements, np = (size_t)disc->ref.sz.np;
  if (!disc->element_load)
    return hdgcl_error(HDGCL_ERROR_INTERNAL, "Newton on the device: no element load to upload");
  HDGCL_TRY(hdgcl_buffer_write(pl->ctx, &pl->data.c, 0, ne * 8, disc->c));
  return hdgcl_buffer_write(pl->ctx, &pl->data.element_load, 0, ne * np * 8, disc->element_load);
}

/* The state of pl's solution onto the device, unless it is there already. */
static int upload_state(local_newton *ln) {
  if (ln->resident) return HDGCL_SUCCESS;
  device_pipeline *pl = ln->pl;
  const hdg_sizes *sz = &pl->disc->ref.sz;
  const hdgcl_mesh *mesh = pl->disc->mesh;
  hdg_solution *sol = pl->sol;
  size_t ne = (size_t)mesh->num_elements, np = (size_t)sz->np, d = (size_t)sz->dim, nf = (size_t)sz->nf;
  HDGCL_TRY(hdgcl_buffer_write(pl->ctx, &ln->u, 0, ne * np * 8, sol->u));
  HDGCL_TRY(hdgcl_buffer_write(pl->ctx, &ln->q, 0, ne * d * np * 8, sol->q));
  HDGCL_TRY(hdgcl_buffer_write(pl->ctx, &ln->trace, 0, (size_t)mesh->num_faces * nf * 8, sol->trace));
  ln->resident = true;
  return HDGCL_SUCCESS;
}

int local_newton_download(local_newton *ln) {
  if (!ln->resident) return HDGCL_SUCCESS;
  device_pipeline *pl = ln->pl;
  const hdg_sizes *sz = &pl->disc->ref.sz;
  const hdgcl_mesh *mesh = pl->disc->mesh;
  hdg_solution *sol = pl->sol;
  size_t ne = (size_t)mesh->num_elements, np = (size_t)sz->np, d = (size_t)sz->dim, nf = (size_t)sz->nf;
  double t0 = hdgcl_wtime();
  HDGCL_TRY(hdgcl_buffer_read(pl->ctx, &ln->u, 0, ne * np * 8, sol->u));
  HDGCL_TRY(hdgcl_buffer_read(pl->ctx, &ln->q, 0, ne * d * np * 8, sol->q));
  HDGCL_TRY(hdgcl_buffer_read(pl->ctx, &ln->trace, 0, (size_t)mesh->num_faces * nf * 8, sol->trace));
  ln->resident = false; /* the host may change it now (a pseudo-time shift) */
  sol->stage_seconds[HDGCL_STAGE_RECOVER] += hdgcl_wtime() - t0;
  return HDGCL_SUCCESS;
}

int local_newton_residual(local_newton *ln, double *norm) {
  HDGCL_TRY(upload_state(ln));
  return element_pass(ln, 0, norm);
}

int local_newton_linearise(local_newton *ln, double *norm) {
  device_pipeline *pl = ln->pl;
  const hdg_discretisation *disc = pl->disc;
  const hdg_sizes *sz = &disc->ref.sz;
  const hdgcl_mesh *mesh = disc->mesh;
  hdg_solution *sol = pl->sol;
  size_t ne = (size_t)mesh->num_elements, np = (size_t)sz->np, d = (size_t)sz->dim, nf = (size_t)sz->nf;
  double t0 = hdgcl_wtime();
  HDGCL_TRY(upload_state(ln));
  HDGCL_TRY(hdgcl_buffer_copy(pl->ctx, &ln->u, &ln->u0, ne * np * 8));
  HDGCL_TRY(hdgcl_buffer_copy(pl->ctx, &ln->q, &ln->q0, ne * d * np * 8));
  HDGCL_TRY(hdgcl_buffer_copy(pl->ctx, &ln->trace, &ln->trace0, (size_t)mesh->num_faces * nf * 8));
  /* boundary data (zeroes A and b), then the condensed elements (N6) and the Neumann loads */
  HDGCL_TRY(assembly_boundary_data(pl, &pl->assemble));
  HDGCL_TRY(element_pass(ln, 1, norm));
  HDGCL_TRY(assembly_add_elements(pl, &pl->assemble, &ln->k, 0, mesh->num_elements));
  HDGCL_TRY(assembly_finish(pl, &pl->assemble));
  HDGCL_TRY(hdgcl_context_finish(pl->ctx));
  sol->stage_seconds[HDGCL_STAGE_ASSEMBLE] += hdgcl_wtime() - t0;
  return HDGCL_SUCCESS;
}

int local_newton_solve(local_newton *ln, double rtol, int *iterations) {
  krylov *kr = &ln->pl->krylov;
  double t0 = hdgcl_wtime(), saved = kr->set.rtol;
  kr->set.rtol = rtol;
  int status = kr->n > 0 ? krylov_solve(kr) : HDGCL_SUCCESS;
  kr->set.rtol = saved;
  *iterations = kr->n > 0 ? kr->stats.iterations : 0;
  ln->pl->report->stages[HDGCL_STAGE_SOLVE].flops += kr->stats.flops;
  ln->pl->report->stages[HDGCL_STAGE_SOLVE].bytes += kr->stats.bytes;
  ln->pl->sol->stage_seconds[HDGCL_STAGE_SOLVE] += hdgcl_wtime() - t0;
  return status;
}

int local_newton_update(local_newton *ln, double alpha, double *norm) {
  device_pipeline *pl = ln->pl;
  const hdgcl_mesh *mesh = pl->disc->mesh;
  double t0 = hdgcl_wtime();
  hdgcl_buffer *x = &pl->krylov.x; /* (one value where there are no unknowns) */
  cl_int nfaces = mesh->num_faces;
  hdgcl_arg targs[] = {HDGCL_ARG(alpha),       HDGCL_ARG(pl->data.face_unknown.mem), HDGCL_ARG(x->mem),
                       HDGCL_ARG(ln->trace0.mem), HDGCL_ARG(ln->trace.mem),             HDGCL_ARG(nfaces)};
  HDGCL_TRY(hdgcl_kernel_set_args(ln->trace_update, sizeof targs / sizeof *targs, targs));
  size_t global = (size_t)nfaces * (size_t)pl->disc->ref.sz.nf;
  HDGCL_TRY(hdgcl_kernel_launch_items(pl->ctx, ln->trace_update, global));
  cl_int cne = mesh->num_elements;
  hdgcl_arg args[] = {HDGCL_ARG(alpha),  HDGCL_ARG(pl->data.elem_faces.mem),
                      HDGCL_ARG(pl->data.face_unknown.mem), HDGCL_ARG(x->mem),
                      HDGCL_ARG(ln->aug.mem), HDGCL_ARG(ln->u0.mem), HDGCL_ARG(ln->q0.mem),
                      HDGCL_ARG(ln->u.mem), HDGCL_ARG(ln->q.mem), HDGCL_ARG(cne)};
  HDGCL_TRY(hdgcl_kernel_set_args(ln->update, sizeof args / sizeof *args, args));
  HDGCL_TRY(hdgcl_kernel_launch_items(pl->ctx, ln->update, (size_t)cne));
  /* the residual at the trial state: the element kernel without the Jacobian,
   * which leaves Z of (N7) in place for the next trial */
  HDGCL_TRY(element_pass(ln, 0, norm));
  pl->sol->stage_seconds[HDGCL_STAGE_RECOVER] += hdgcl_wtime() - t0;
  return HDGCL_SUCCESS;
}
