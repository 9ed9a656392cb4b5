/* JSON output of solver results with cJSON (report_json.h). */
#include "cli/report_json.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "cli/report.h"

static int no_memory(const char *what) {
  return hdgcl_error(HDGCL_ERROR_MEMORY, "out of host memory %s", what);
}

/* --- the file --- */

int json_open(json_file *j, const char *path) { return hdgcl_temp_open(j, path, "w"); }

void json_abort(json_file *j) { hdgcl_temp_discard(j); }

/* cJSON_Print's text with its tabs as before hdgcl used cJSON: two spaces per
 * level, "key": value.  A raw tab in its text is always layout (cJSON writes
 * a tab inside a string as \t). */
static void write_formatted(FILE *f, const char *text) {
  for (const char *c = text; *c; c++) {
    if (*c != '\t')
      fputc(*c, f);
    else if (c > text && c[-1] == ':')
      fputc(' ', f);
    else
      fputs("  ", f);
  }
  fputc('\n', f);
}

int json_print(FILE *f, const cJSON *item) {
  char *text = cJSON_Print(item);
  if (!text) return no_memory("printing the JSON output");
  write_formatted(f, text);
  cJSON_free(text);
  return HDGCL_SUCCESS;
}

int json_write_line(json_file *j, const cJSON *item) {
  char *text = cJSON_PrintUnformatted(item);
  if (!text) return no_memory("printing a JSON line");
  fputs(text, j->f); /* one line: cJSON writes a newline inside a string as \n */
  fputc('\n', j->f);
  cJSON_free(text);
  return HDGCL_SUCCESS;
}

int json_commit(json_file *j, const cJSON *root) {
  if (root) {
    int status = json_print(j->f, root);
    if (status) {
      json_abort(j);
      return status;
    }
  }
  return hdgcl_temp_commit(j);
}

/* --- building --- */

void json_real_text(double x, char *text, size_t n) {
  if (!isfinite(x)) {
    snprintf(text, n, "null");
    return;
  }
  /* The shortest of 15, 16, 17 significant digits that reads back as x
   * (17 always does). */
  for (int digits = 15; digits <= 17; digits++) {
    snprintf(text, n, "%.*g", digits, x);
    if (strtod(text, NULL) == x) return;
  }
}

int json_new_object(cJSON **out) {
  *out = cJSON_CreateObject();
  return *out ? HDGCL_SUCCESS : no_memory("building the JSON output");
}

int json_new_array(cJSON **out) {
  *out = cJSON_CreateArray();
  return *out ? HDGCL_SUCCESS : no_memory("building the JSON output");
}

/* Attaches item to parent, or frees it: every path leaves nothing unowned. */
static int attach(cJSON *parent, const char *key, cJSON *item) {
  if (item && (key ? cJSON_AddItemToObject(parent, key, item) : cJSON_AddItemToArray(parent, item)))
    return HDGCL_SUCCESS;
  cJSON_Delete(item);
  return no_memory("building the JSON output");
}

int json_add_item(cJSON *parent, const char *key, cJSON *item) {
  return attach(parent, key, item);
}

int json_add_object(cJSON *parent, const char *key, cJSON **out) {
  *out = cJSON_CreateObject();
  int status = attach(parent, key, *out);
  if (status) *out = NULL;
  return status;
}

int json_add_array(cJSON *parent, const char *key, cJSON **out) {
  *out = cJSON_CreateArray();
  int status = attach(parent, key, *out);
  if (status) *out = NULL;
  return status;
}

int json_add_string(cJSON *parent, const char *key, const char *s) {
  return attach(parent, key, cJSON_CreateString(s ? s : ""));
}

int json_add_real(cJSON *parent, const char *key, double x) {
  if (!isfinite(x)) return attach(parent, key, cJSON_CreateNull());
  char text[32];
  json_real_text(x, text, sizeof text);
  return attach(parent, key, cJSON_CreateRaw(text));
}

int json_add_int(cJSON *parent, const char *key, long long v) {
  char text[32];
  snprintf(text, sizeof text, "%lld", v);
  return attach(parent, key, cJSON_CreateRaw(text));
}

int json_add_uint(cJSON *parent, const char *key, unsigned long long v) {
  char text[32];
  snprintf(text, sizeof text, "%llu", v);
  return attach(parent, key, cJSON_CreateRaw(text));
}

int json_add_bool(cJSON *parent, const char *key, bool v) {
  return attach(parent, key, cJSON_CreateBool(v));
}

/* --- one run --- */

const char *report_device_type(const hdgcl_device_info *dev) {
  return dev->is_gpu ? "gpu" : dev->is_cpu ? "cpu" : "other";
}

/* "key": [lo, hi] */
static int add_range(cJSON *parent, const char *key, double lo, double hi) {
  cJSON *a;
  HDGCL_TRY(json_add_array(parent, key, &a));
  HDGCL_TRY(json_add_real(a, NULL, lo));
  return json_add_real(a, NULL, hi);
}

#define TRY(expr) HDGCL_TRY_GOTO(status, expr, fail)

int report_json_run(const char *mesh_spec, const hdgcl_mesh *mesh, const hdgcl_device_info *dev,
                    const hdgcl_result *r, int repeat, cJSON **out) {
  cJSON *run = NULL, *o, *a;
  int status;
  TRY(json_new_object(&run));
  TRY(json_add_string(run, "hdgcl_version", hdgcl_version()));
  TRY(json_add_string(run, "problem", r->problem));
  TRY(json_add_string(run, "mesh", mesh_spec));
  TRY(json_add_string(run, "element_type", hdgcl_element_type_name(mesh->type)));
  if (hdgcl_mesh_is_mixed(mesh)) { /* docs/geometry.md, "Mixed meshes": the count of each type */
    TRY(json_add_object(run, "element_types", &o));
    for (int i = 0; i < mesh->num_types; i++)
      TRY(json_add_int(o, hdgcl_element_type_name(mesh->types[i]),
                       hdgcl_mesh_count_type(mesh, mesh->types[i])));
  }
  TRY(json_add_int(run, "order", r->order));
  TRY(json_add_real(run, "tau", r->tau));
  if (!isnan(r->mu_min)) { /* vector problems: the range of the elements' Lame parameters */
    TRY(add_range(run, "mu", r->mu_min, r->mu_max));
    TRY(add_range(run, "lambda", r->lambda_min, r->lambda_max));
  }
  TRY(json_add_object(run, "device", &o));
  TRY(json_add_string(o, "name", dev->name));
  TRY(json_add_string(o, "platform", dev->platform));
  TRY(json_add_string(o, "vendor", dev->vendor));
  TRY(json_add_string(o, "driver", dev->driver));
  TRY(json_add_string(o, "type", report_device_type(dev)));
  TRY(json_add_uint(o, "compute_units", dev->compute_units));
  TRY(json_add_int(run, "elements", r->num_elements));
  TRY(json_add_int(run, "faces", r->num_faces));
  TRY(json_add_int(run, "trace_unknown_faces", r->num_unknown_faces));
  TRY(json_add_int(run, "element_dofs", r->element_dofs));
  TRY(json_add_int(run, "trace_dofs", r->trace_dofs));
  TRY(json_add_real(run, "h", r->h));
  TRY(json_add_string(run, "solver", r->solver));
  TRY(json_add_string(run, "precond", r->precond));
  if (r->restart) TRY(json_add_int(run, "restart", r->restart));
  if (r->cheb_degree) {
    TRY(json_add_int(run, "cheb_degree", r->cheb_degree));
    TRY(json_add_real(run, "eig_min", r->eig_min));
    TRY(json_add_real(run, "eig_max", r->eig_max));
  }
  TRY(json_add_string(run, "format", r->format));
  if (r->local_invert) {
    TRY(json_add_string(run, "local_invert", r->local_invert));
    TRY(json_add_int(run, "local_invert_wg", r->local_invert_wg));
    TRY(json_add_string(run, "local_invert_source", r->local_invert_source));
    TRY(json_add_string(run, "local_schur", r->local_schur));
    TRY(json_add_string(run, "local_schur_source", r->local_schur_source));
    TRY(json_add_int(run, "local_schur_stage", r->local_schur_stage));
    TRY(json_add_int(run, "local_schur_wg", r->local_schur_wg));
    TRY(json_add_int(run, "local_element_wg", r->local_element_wg));
    TRY(json_add_int(run, "local_element_grid", r->local_element_grid));
    TRY(json_add_string(run, "local_element_source", r->local_element_source));
    TRY(json_add_string(run, "local_gemm_z", r->local_gemm_z));
    TRY(json_add_string(run, "local_gemm_z_source", r->local_gemm_z_source));
    TRY(json_add_string(run, "local_gemm_k", r->local_gemm_k));
    TRY(json_add_string(run, "local_gemm_k_source", r->local_gemm_k_source));
  }
  if (r->postprocess) {
    TRY(json_add_string(run, "postprocess", r->postprocess));
    TRY(json_add_int(run, "postprocess_wg", r->postprocess_wg));
  }
  TRY(json_add_int(run, "iterations", r->iterations));
  if (r->scheme) { /* a transient problem: iterations is the sum over the stage solves */
    TRY(json_add_object(run, "time", &o));
    TRY(json_add_string(o, "scheme", r->scheme));
    TRY(json_add_int(o, "steps", r->time_steps));
    TRY(json_add_real(o, "time_step", r->time_step));
    TRY(json_add_real(o, "final_time", r->final_time));
    TRY(json_add_int(o, "stage_solves", r->stage_solves));
    TRY(json_add_int(o, "iterations_max", r->iterations_max));
    if (r->newton_steps_all > 0) TRY(json_add_int(o, "newton_steps", r->newton_steps_all));
  }
  if (r->newton_history) { /* docs/nonlinear.md: iterations is the sum over the steps */
    TRY(json_add_object(run, "newton", &o));
    TRY(json_add_int(o, "steps", r->newton_steps));
    TRY(json_add_real(o, "rtol", r->newton_rtol));
    TRY(json_add_array(o, "residual_history", &a));
    for (int i = 0; i <= r->newton_steps; i++) TRY(json_add_real(a, NULL, r->newton_history[i]));
    TRY(json_add_array(o, "iterations", &a));
    for (int i = 0; i < r->newton_steps; i++) TRY(json_add_int(a, NULL, r->newton_iterations[i]));
    if (!r->scheme && r->newton_steps_all > r->newton_steps) /* neo-hookean: all load steps' */
      TRY(json_add_int(o, "steps_all_load_steps", r->newton_steps_all));
    if (r->load_steps > 0) { /* neo-hookean: each load step's steps and ||R|| history */
      cJSON *ls;
      TRY(json_add_array(o, "load_steps", &ls));
      for (int l = 0, at = 0; l < r->load_steps; l++) {
        cJSON *e, *h;
        TRY(json_add_object(ls, NULL, &e));
        TRY(json_add_int(e, "steps", r->load_newton_steps[l]));
        TRY(json_add_array(e, "residual_history", &h));
        for (int i = 0; i <= r->load_newton_steps[l]; i++)
          TRY(json_add_real(h, NULL, r->load_history[at + i]));
        at += r->load_newton_steps[l] + 1;
      }
      TRY(json_add_int(o, "line_search_halvings", r->line_search_halvings));
      TRY(json_add_int(o, "line_search_halvings_j", r->line_search_halvings_j));
    }
    if (!isnan(r->loaded_face_u[0])) { /* neo-hookean-cube */
      TRY(json_add_array(o, "loaded_face_u", &a));
      for (int c = 0; c < 3; c++) TRY(json_add_real(a, NULL, r->loaded_face_u[c]));
    }
    if (r->ptc_steps > 0) { /* --ptc true: the pseudo-steps (N17)-(N18) */
      cJSON *p;
      TRY(json_add_object(o, "ptc", &p));
      TRY(json_add_int(p, "pseudo_steps", r->ptc_steps));
      TRY(json_add_real(p, "dt_first", r->ptc_dt_first));
      TRY(json_add_real(p, "dt_last", r->ptc_dt_last));
    }
  }
  TRY(json_add_real(run, "rtol", r->rtol));
  TRY(json_add_real(run, "residual", r->residual));
  TRY(json_add_array(run, "residual_history", &a));
  for (int i = 0; i < r->history_length; i++) TRY(json_add_real(a, NULL, r->history[i]));
  TRY(json_add_object(run, "errors", &o));
  TRY(json_add_real(o, "l2_u", r->l2_u));
  TRY(json_add_real(o, "l2_q", r->l2_q));
  TRY(json_add_real(o, "l2_ustar", r->l2_ustar));
  TRY(json_add_real(o, "linf_u", r->linf_u));
  TRY(json_add_real(o, "norm_u", r->norm_u));
  TRY(json_add_real(o, "norm_q", r->norm_q));
  TRY(json_add_real(o, "ustar_check", r->ustar_check));
  TRY(json_add_int(o, "ustar_retries", r->ustar_retries));
  if (!isnan(r->l2_p) || !isnan(r->tip_deflection)) { /* vector problems: q is H = grad u, and p */
    TRY(json_add_real(o, "l2_p", r->l2_p));
    TRY(json_add_real(o, "norm_p", r->norm_p));
  }
  if (!isnan(r->tip_deflection)) { /* cantilever */
    TRY(json_add_real(o, "tip_deflection", r->tip_deflection));
    TRY(json_add_real(o, "beam_deflection", r->beam_deflection));
  }
  if (r->num_outputs) { /* a user's problem's outputs */
    TRY(json_add_array(run, "outputs", &a));
    for (int i = 0; i < r->num_outputs; i++) {
      const hdgcl_output *op = &r->outputs[i];
      cJSON *values;
      TRY(json_add_object(a, NULL, &o));
      TRY(json_add_string(o, "label", op->label));
      TRY(json_add_string(o, "names", op->names));
      TRY(json_add_array(o, "values", &values));
      for (int k = 0; k < op->num_values; k++) TRY(json_add_real(values, NULL, op->values[k]));
    }
  }
  TRY(json_add_array(run, "stages", &a));
  for (int i = 0; i < HDGCL_NUM_STAGES; i++) {
    const hdgcl_stage_stats *st = &r->stages[i];
    TRY(json_add_object(a, NULL, &o));
    TRY(json_add_string(o, "name", st->name));
    TRY(json_add_real(o, "seconds", st->seconds));
    TRY(json_add_real(o, "flops", st->flops));
    TRY(json_add_real(o, "bytes", st->bytes));
    TRY(json_add_real(o, "gflops", stage_gflops(st)));
    TRY(json_add_real(o, "gbs", stage_gbs(st)));
  }
  TRY(json_add_int(run, "repeat", repeat));
  TRY(json_add_real(run, "total_seconds", r->total_seconds));
  TRY(json_add_real(run, "setup_seconds", r->setup_seconds));
  TRY(json_add_real(run, "precond_seconds", r->precond_seconds));
  TRY(json_add_real(run, "seconds_per_iteration", report_seconds_per_iteration(r)));
  TRY(json_add_uint(run, "memory_high_water_bytes", r->device_memory_high_water));
  if (r->num_memory_uses > 0) { /* the high water by buffer name, largest first */
    cJSON *uses;
    TRY(json_add_array(run, "memory_buffers", &uses));
    for (int i = 0; i < r->num_memory_uses; i++) {
      cJSON *entry;
      TRY(json_add_object(uses, NULL, &entry));
      TRY(json_add_string(entry, "name", r->memory_uses[i].name));
      TRY(json_add_uint(entry, "bytes", r->memory_uses[i].bytes));
    }
  }
  TRY(json_add_int(run, "chunk_elements", r->chunk_elements));
  TRY(json_add_int(run, "chunks", r->num_chunks));
  if (r->curved_elements || r->straight_elements) { /* element batches of a curved mesh */
    TRY(json_add_int(run, "straight_elements", r->straight_elements));
    TRY(json_add_int(run, "curved_elements", r->curved_elements));
  }
  *out = run;
  return HDGCL_SUCCESS;
fail:
  cJSON_Delete(run);
  *out = NULL;
  return status;
}
