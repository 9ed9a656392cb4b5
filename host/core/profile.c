/* Per-kernel device times from OpenCL profiling events (see profile.h). */
#include <stdlib.h>
#include <string.h>

#include "core/profile.h"

#define PENDING_MAX 4096 /* events kept before a clFinish collects them */

typedef struct profile_entry {
  char name[96];
  long launches;
  double seconds;
} profile_entry;

struct kernel_profile {
  cl_event pending[PENDING_MAX];
  int pending_name[PENDING_MAX]; /* index into entries */
  int num_pending;
  profile_entry *entries;
  int num_entries, capacity;
};

static int entry_index(struct kernel_profile *p, const char *name) {
  for (int i = 0; i < p->num_entries; i++)
    if (!strcmp(p->entries[i].name, name)) return i;
  if (p->num_entries == p->capacity) {
    int cap = p->capacity ? 2 * p->capacity : 32;
    profile_entry *e = realloc(p->entries, (size_t)cap * sizeof *e);
    if (!e) return -1;
    p->entries = e;
    p->capacity = cap;
  }
  profile_entry *e = &p->entries[p->num_entries];
  memset(e, 0, sizeof *e);
  snprintf(e->name, sizeof e->name, "%s", name);
  return p->num_entries++;
}

void profile_record(hdgcl_context ctx, const char *name, cl_event ev) {
  if (!ctx->profile_data) ctx->profile_data = calloc(1, sizeof(struct kernel_profile));
  struct kernel_profile *p = ctx->profile_data;
  int idx = p ? entry_index(p, name) : -1;
  if (idx < 0) { /* out of host memory: drop the sample, never fail the run */
    clReleaseEvent(ev);
    return;
  }
  if (p->num_pending == PENDING_MAX) {
    clFinish(ctx->queue);
    profile_collect(ctx);
  }
  p->pending[p->num_pending] = ev;
  p->pending_name[p->num_pending++] = idx;
}

void profile_collect(hdgcl_context ctx) {
  struct kernel_profile *p = ctx->profile_data;
  if (!p) return;
  for (int i = 0; i < p->num_pending; i++) {
    profile_entry *e = &p->entries[p->pending_name[i]];
    e->launches++;
    e->seconds += hdgcl_event_seconds(p->pending[i]);
    clReleaseEvent(p->pending[i]);
  }
  p->num_pending = 0;
}

static int by_time(const void *a, const void *b) {
  double x = ((const profile_entry *)a)->seconds, y = ((const profile_entry *)b)->seconds;
  return (x < y) - (x > y);
}

void profile_report(hdgcl_context ctx, FILE *out) {
  struct kernel_profile *p = ctx->profile_data;
  if (!p || !p->num_entries) return;
  if (p->num_pending && ctx->queue) {
    clFinish(ctx->queue);
    profile_collect(ctx);
  }
  qsort(p->entries, (size_t)p->num_entries, sizeof *p->entries, by_time);
  double total = 0.0;
  for (int i = 0; i < p->num_entries; i++) total += p->entries[i].seconds;
  fprintf(out, "profile (device time per kernel, %s)\n", ctx->info.name);
  fprintf(out, "  %-48s %9s %12s %10s %6s\n", "kernel", "launches", "total [ms]", "mean [us]", "share");
  for (int i = 0; i < p->num_entries; i++) {
    const profile_entry *e = &p->entries[i];
    fprintf(out, "  %-48s %9ld %12.3f %10.2f %5.1f%%\n", e->name, e->launches, e->seconds * 1e3,
            e->launches ? e->seconds / e->launches * 1e6 : 0.0, total > 0 ? 100 * e->seconds / total : 0.0);
  }
  /* Entries were reordered: pending indices are no longer valid, but none are pending. */
}

void profile_destroy(hdgcl_context ctx) {
  struct kernel_profile *p = ctx->profile_data;
  if (!p) return;
  for (int i = 0; i < p->num_pending; i++) clReleaseEvent(p->pending[i]);
  free(p->entries);
  free(p);
  ctx->profile_data = NULL;
}
