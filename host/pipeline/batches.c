/* Element batches (docs/geometry.md, "Element batches"): the elements of one
 * kernel path and one element type run as one batch, each with its own
 * element programs (-D options), local stage and recovery kernels, into one
 * assembly, one trace system and one set of u, q, u* buffers.  A batch is a
 * contiguous range of elements: the mesh readers sort the elements of a
 * curved mesh straight first (hdgcl_mesh_sort_straight_first), so its leading
 * straight elements [0, na) run on the vertex map (the affine path of
 * local.cl and recover.cl on simplices, the bilinear/trilinear mapped path on
 * quads/hexes) and [na, ne) on the curved mapped path (GEO_ORDER).  The last
 * batch is the pipeline's own (pl->local, pl->recover, the curved view that
 * uploads, assembly and the error norms use); HDGCL_BATCHES=off runs every
 * element in it, as before batching (tests compare both).  A mixed mesh
 * (sorted by type) runs its triangles [0, type_first[1]) as batch 0 with the
 * triangle's tables and assembly kernels and the quadrilaterals as the last
 * (type_batches; docs/geometry.md, "Mixed meshes"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "pipeline/pipeline.h"
#include "problem/user_problem.h"

static void swap_buffers(hdgcl_buffer *a, hdgcl_buffer *b) {
  hdgcl_buffer t = *a;
  *a = *b;
  *b = t;
}

int pipeline_use_batch(device_pipeline *pl, int b) {
  if (b == pl->batch || pl->num_batches < 2) return HDGCL_SUCCESS;
  if (b < 0 || b >= pl->num_batches) return hdgcl_error(HDGCL_ERROR_INTERNAL, "no element batch %d", b);
  const element_batch *to = &pl->batches[b], *from = &pl->batches[pl->batch];
  if (to->vertex_coords != from->vertex_coords) swap_buffers(&pl->data.coords, &pl->other_coords);
  if (to->ref != from->ref) { /* a mixed mesh: the other type's reference tables */
    hdgcl_buffer *mine[] = {DEVICE_TABLES(&pl->data)}, *other[] = {DEVICE_TABLES(&pl->other_tables)};
    for (size_t i = 0; i < sizeof mine / sizeof *mine; i++) swap_buffers(mine[i], other[i]);
  }
  pl->ref = to->ref;
  snprintf(pl->options, sizeof pl->options, "%s", to->options);
  pl->mapped = to->mapped;
  pl->batch = b;
  return HDGCL_SUCCESS;
}

/* The recovery outputs every batch writes into: the last batch's. */
static void share_outputs(recovery *rc, const recovery *main) {
  rc->u = main->u;
  rc->q = main->q;
  rc->ustar = main->ustar;
  rc->p = main->p;
  rc->err = main->err;
}

static void drop_outputs(recovery *rc) {
  rc->u = rc->q = rc->ustar = rc->p = rc->err = (hdgcl_buffer){0};
}

int pipeline_batch_straight(device_pipeline *pl, int64_t *na) {
  const hdgcl_mesh *m = pl->disc->mesh;
  bool on;
  HDGCL_TRY(env_on_off("HDGCL_BATCHES", true, &on, NULL));
  *na = on && m->geometry_order > 1 ? hdgcl_mesh_straight_prefix(m) : 0;
  return HDGCL_SUCCESS;
}

/* The shared outputs of an owned batch's recovery: its own u, q, u*, p, err
 * give way to the last batch's. */
static void use_shared_outputs(device_pipeline *pl, recovery *rc) {
  hdgcl_buffer *own[] = {&rc->u, &rc->q, &rc->ustar, &rc->p, &rc->err};
  for (size_t i = 0; i < sizeof own / sizeof *own; i++) hdgcl_buffer_release(pl->ctx, own[i]);
  share_outputs(rc, &pl->recover);
}

/* A user's point coefficients take the mapped path, as on one type (its
 * recovery indexes rows with ROW_NP: cl/pipeline/recover.cl mapped_recover_q). */
bool pipeline_narrow_mapped(const device_pipeline *pl) {
  return pl->disc->user && pl->disc->user->point_coefficients;
}

/* A mixed mesh: the narrower type's elements [0, na) as batch 0, on the
 * affine path (mapped with a user's point coefficients) with that type's tables and sizes and the widest type's row
 * widths (cl/core/common.h ELEM_NFACES, ROW_NP: pipeline.c options_text), its
 * own local stage, recovery and assembly kernels; the widest type's elements
 * are the last batch (the pipeline's own, mapped). */
static int type_batches(device_pipeline *pl, int64_t na) {
  const hdgcl_mesh *m = pl->disc->mesh;
  element_batch *last = &pl->batches[1], *s = &pl->batches[0];
  *last = pl->batches[0];
  last->first = na;
  last->count = m->num_elements - na;
  bool mapped = pipeline_narrow_mapped(pl);
  *s = (element_batch){.first = 0, .count = na, .mapped = mapped, .ref = &pl->disc->other_ref};
  pl->num_batches = 2; /* pipeline_batches_destroy frees what follows, also after an error */
  pl->batch = 1;
  HDGCL_TRY(hdgcl_calloc(1, sizeof *s->local, "element batch: local stage", &s->local));
  HDGCL_TRY(hdgcl_calloc(1, sizeof *s->recover, "element batch: recovery", &s->recover));
  HDGCL_TRY(hdgcl_calloc(1, sizeof *s->assemble, "element batch: assembly", &s->assemble));
  s->local->count = na;
  HDGCL_TRY(pipeline_use_batch(pl, 0)); /* its ref: its options come from its sizes */
  int status = pipeline_element_options(pl, mapped, false, s->options, sizeof s->options);
  snprintf(pl->options, sizeof pl->options, "%s", s->options);
  if (status == HDGCL_SUCCESS) status = local_stage_create(pl, s->local);
  if (status == HDGCL_SUCCESS) status = recovery_create(pl, s->recover, s->local);
  if (status == HDGCL_SUCCESS) use_shared_outputs(pl, s->recover);
  if (status == HDGCL_SUCCESS) status = assembly_create_kernels(pl, s->assemble);
  if (status == HDGCL_SUCCESS) assembly_share_buffers(s->assemble, &pl->assemble);
  int back = pipeline_use_batch(pl, 1);
  return status != HDGCL_SUCCESS ? status : back;
}

int pipeline_batches_create(device_pipeline *pl) {
  const hdgcl_mesh *m = pl->disc->mesh;
  int64_t ne = m->num_elements, na;
  HDGCL_TRY(pipeline_batch_straight(pl, &na));
  bool on = na > 0;
  element_batch *last = &pl->batches[0];
  *last = (element_batch){.first = 0, .count = ne, .mapped = pl->mapped, .ref = &pl->disc->ref,
                          .local = &pl->local, .recover = &pl->recover, .assemble = &pl->assemble};
  snprintf(last->options, sizeof last->options, "%s", pl->options);
  pl->num_batches = 1;
  pl->batch = 0;
  if (m->geometry_order > 1) { /* the report's counts (hdgcl solve prints them) */
    pl->report->straight_elements = na;
    pl->report->curved_elements = ne - pl->report->straight_elements;
  }
  if (pl->types) return type_batches(pl, m->type_first[1]);
  if (!on) return HDGCL_SUCCESS;
  /* Straight elements first: the vertex map, mapped only where the element
   * type or a user's point coefficients ask for it. */
  pl->batches[1] = *last;
  last = &pl->batches[1];
  last->first = na;
  last->count = ne - na;
  element_batch *s = &pl->batches[0];
  bool mapped = m->type == HDGCL_QUADRILATERAL || m->type == HDGCL_HEXAHEDRON ||
                (pl->disc->user && pl->disc->user->point_coefficients);
  *s = (element_batch){.first = 0, .count = na, .mapped = mapped, .vertex_coords = true,
                       .ref = &pl->disc->ref, .assemble = &pl->assemble};
  pl->num_batches = 2; /* pipeline_batches_destroy frees what follows, also after an error */
  pl->batch = 1;
  HDGCL_TRY(pipeline_element_options(pl, mapped, false, s->options, sizeof s->options));
  HDGCL_TRY(hdgcl_calloc(1, sizeof *s->local, "element batch: local stage", &s->local));
  HDGCL_TRY(hdgcl_calloc(1, sizeof *s->recover, "element batch: recovery", &s->recover));
  s->local->count = na; /* its chunk: at most its elements, from the memory the last batch left */
  HDGCL_TRY(pipeline_use_batch(pl, 0));
  int status = local_stage_create(pl, s->local);
  if (status == HDGCL_SUCCESS) status = recovery_create(pl, s->recover, s->local);
  if (status == HDGCL_SUCCESS) use_shared_outputs(pl, s->recover);
  int back = pipeline_use_batch(pl, 1);
  return status != HDGCL_SUCCESS ? status : back;
}

void pipeline_batches_destroy(device_pipeline *pl) {
  for (int b = 0; b + 1 < pl->num_batches; b++) {
    element_batch *bt = &pl->batches[b];
    if (bt->recover) {
      drop_outputs(bt->recover);
      recovery_destroy(pl, bt->recover);
      free(bt->recover);
    }
    if (bt->local) {
      local_stage_destroy(pl, bt->local);
      free(bt->local);
    }
    if (bt->assemble && bt->assemble != &pl->assemble) {
      assembly_destroy_kernels(bt->assemble);
      free(bt->assemble);
    }
    bt->recover = NULL;
    bt->local = NULL;
    bt->assemble = NULL;
  }
  if (pl->num_batches > 1) (void)pipeline_use_batch(pl, pl->num_batches - 1);
  pl->num_batches = 0;
}

int pipeline_local_run_all(device_pipeline *pl) {
  if (pl->num_batches < 2) return local_stage_run_all(pl, &pl->local);
  int status = HDGCL_SUCCESS;
  for (int b = 0; b < pl->num_batches && status == HDGCL_SUCCESS; b++) {
    const element_batch *bt = &pl->batches[b];
    int64_t end = bt->first + bt->count, chunk = bt->local->chunk;
    status = pipeline_use_batch(pl, b);
    for (int64_t e0 = bt->first; e0 < end && status == HDGCL_SUCCESS; e0 += chunk)
      status = local_stage_run(pl, bt->local, e0, end - e0 < chunk ? end - e0 : chunk, HDGCL_STAGE_LOCAL);
  }
  int back = pipeline_use_batch(pl, pl->num_batches - 1);
  return status != HDGCL_SUCCESS ? status : back;
}
