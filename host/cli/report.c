/* Summaries and JSON output of solver results. */
#include "report.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "error.h"

int json_open(json_file *j, const char *path) {
  snprintf(j->path, sizeof j->path, "%s", path);
  snprintf(j->tmp, sizeof j->tmp, "%s.tmp.%ld", path, (long)getpid());
  j->f = fopen(j->tmp, "w");
  if (!j->f) return hdgcl_error(HDGCL_ERROR_IO, "cannot write %s", path);
  return HDGCL_SUCCESS;
}

int json_commit(json_file *j) {
  int bad = ferror(j->f);
  bad |= fclose(j->f);
  j->f = NULL;
  if (bad || rename(j->tmp, j->path) != 0) {
    remove(j->tmp);
    return hdgcl_error(HDGCL_ERROR_IO, "cannot write %s", j->path);
  }
  return HDGCL_SUCCESS;
}

void json_abort(json_file *j) {
  if (j->f) fclose(j->f);
  j->f = NULL;
  remove(j->tmp);
}

void json_string(FILE *f, const char *s) {
  fputc('"', f);
  for (; s && *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\')
      fprintf(f, "\\%c", c);
    else if (c < 0x20)
      fprintf(f, "\\u%04x", c);
    else
      fputc(c, f);
  }
  fputc('"', f);
}

void json_number(FILE *f, double x) {
  if (isfinite(x))
    fprintf(f, "%.17g", x);
  else
    fputs("null", f);
}

/* "key": [lo, hi] */
static void json_range(FILE *f, const char *key, double lo, double hi) {
  fprintf(f, "\"%s\": [", key);
  json_number(f, lo);
  fprintf(f, ", ");
  json_number(f, hi);
  fprintf(f, "]");
}

double report_seconds_per_iteration(const hdgcl_result *r) {
  return r->iterations ? (r->stages[HDGCL_STAGE_SOLVE].seconds - r->precond_seconds) / r->iterations
                       : 0.0;
}

double stage_gflops(const hdgcl_stage_stats *st) {
  return st->seconds > 0 ? st->flops / st->seconds * 1e-9 : 0.0;
}

double stage_gbs(const hdgcl_stage_stats *st) {
  return st->seconds > 0 ? st->bytes / st->seconds * 1e-9 : 0.0;
}

void report_json_run(FILE *f, const char *mesh_spec, const hdgcl_mesh *mesh,
                     const hdgcl_device_info *dev, const hdgcl_result *r, int indent, int repeat) {
  char pad[32];
  snprintf(pad, sizeof pad, "%*s", indent, "");
  fprintf(f, "{\n%s  \"hdgcl_version\": ", pad);
  json_string(f, hdgcl_version());
  fprintf(f, ",\n%s  \"problem\": ", pad);
  json_string(f, r->problem);
  fprintf(f, ",\n%s  \"mesh\": ", pad);
  json_string(f, mesh_spec);
  fprintf(f, ",\n%s  \"element_type\": ", pad);
  json_string(f, hdgcl_element_type_name(mesh->type));
  fprintf(f, ",\n%s  \"order\": %d,\n%s  \"tau\": ", pad, r->order, pad);
  json_number(f, r->tau);
  if (!isnan(r->mu_min)) { /* vector problems: the range of the elements' Lame parameters */
    fprintf(f, ",\n%s  ", pad);
    json_range(f, "mu", r->mu_min, r->mu_max);
    fprintf(f, ", ");
    json_range(f, "lambda", r->lambda_min, r->lambda_max);
  }
  fprintf(f, ",\n%s  \"device\": {\"name\": ", pad);
  json_string(f, dev->name);
  fprintf(f, ", \"platform\": ");
  json_string(f, dev->platform);
  fprintf(f, ", \"vendor\": ");
  json_string(f, dev->vendor);
  fprintf(f, ", \"driver\": ");
  json_string(f, dev->driver);
  fprintf(f, ", \"type\": \"%s\", \"compute_units\": %u},\n", dev->is_gpu ? "gpu" : dev->is_cpu ? "cpu" : "other",
          dev->compute_units);
  fprintf(f, "%s  \"elements\": %lld, \"faces\": %lld, \"trace_unknown_faces\": %lld,\n", pad,
          (long long)r->num_elements, (long long)r->num_faces, (long long)r->num_unknown_faces);
  fprintf(f, "%s  \"element_dofs\": %lld, \"trace_dofs\": %lld, \"h\": ", pad,
          (long long)r->element_dofs, (long long)r->trace_dofs);
  json_number(f, r->h);
  fprintf(f, ",\n%s  \"solver\": ", pad);
  json_string(f, r->solver);
  fprintf(f, ", \"precond\": ");
  json_string(f, r->precond);
  if (r->restart) fprintf(f, ", \"restart\": %d", r->restart);
  if (r->cheb_degree) {
    fprintf(f, ", \"cheb_degree\": %d, \"eig_min\": ", r->cheb_degree);
    json_number(f, r->eig_min);
    fprintf(f, ", \"eig_max\": ");
    json_number(f, r->eig_max);
  }
  fprintf(f, ", \"format\": ");
  json_string(f, r->format);
  if (r->local_invert) {
    fprintf(f, ", \"local_invert\": ");
    json_string(f, r->local_invert);
    fprintf(f, ", \"local_invert_wg\": %d, \"local_invert_source\": ", r->local_invert_wg);
    json_string(f, r->local_invert_source);
    fprintf(f, ", \"local_schur\": ");
    json_string(f, r->local_schur);
    fprintf(f, ", \"local_schur_source\": ");
    json_string(f, r->local_schur_source);
    fprintf(f, ", \"local_schur_stage\": %d, \"local_schur_wg\": %d", r->local_schur_stage,
            r->local_schur_wg);
    fprintf(f, ", \"local_element_wg\": %d, \"local_element_grid\": %d, \"local_element_source\": ",
            r->local_element_wg, r->local_element_grid);
    json_string(f, r->local_element_source);
    fprintf(f, ", \"local_gemm_z\": ");
    json_string(f, r->local_gemm_z);
    fprintf(f, ", \"local_gemm_z_source\": ");
    json_string(f, r->local_gemm_z_source);
    fprintf(f, ", \"local_gemm_k\": ");
    json_string(f, r->local_gemm_k);
    fprintf(f, ", \"local_gemm_k_source\": ");
    json_string(f, r->local_gemm_k_source);
  }
  if (r->postprocess) {
    fprintf(f, ", \"postprocess\": ");
    json_string(f, r->postprocess);
    fprintf(f, ", \"postprocess_wg\": %d", r->postprocess_wg);
  }
  fprintf(f, ", \"iterations\": %d, \"rtol\": ", r->iterations);
  json_number(f, r->rtol);
  fprintf(f, ", \"residual\": ");
  json_number(f, r->residual);
  fprintf(f, ",\n%s  \"residual_history\": [", pad);
  for (int i = 0; i < r->history_length; i++) {
    if (i) fputs(", ", f);
    json_number(f, r->history[i]);
  }
  fprintf(f, "],\n%s  \"errors\": {\"l2_u\": ", pad);
  json_number(f, r->l2_u);
  fprintf(f, ", \"l2_q\": ");
  json_number(f, r->l2_q);
  fprintf(f, ", \"l2_ustar\": ");
  json_number(f, r->l2_ustar);
  fprintf(f, ", \"linf_u\": ");
  json_number(f, r->linf_u);
  fprintf(f, ", \"norm_u\": ");
  json_number(f, r->norm_u);
  fprintf(f, ", \"norm_q\": ");
  json_number(f, r->norm_q);
  fprintf(f, ", \"ustar_check\": ");
  json_number(f, r->ustar_check);
  fprintf(f, ", \"ustar_retries\": %d", r->ustar_retries);
  bool vector = !isnan(r->l2_p) || !isnan(r->tip_deflection);
  if (vector) { /* vector problems: q is H = grad u, and the pressure */
    fprintf(f, ", \"l2_p\": ");
    json_number(f, r->l2_p);
    fprintf(f, ", \"norm_p\": ");
    json_number(f, r->norm_p);
  }
  if (!isnan(r->tip_deflection)) { /* cantilever */
    fprintf(f, ", \"tip_deflection\": ");
    json_number(f, r->tip_deflection);
    fprintf(f, ", \"beam_deflection\": ");
    json_number(f, r->beam_deflection);
  }
  fprintf(f, "}");
  if (r->num_outputs) { /* a user's problem's outputs */
    fprintf(f, ",\n%s  \"outputs\": [", pad);
    for (int i = 0; i < r->num_outputs; i++) {
      const hdgcl_output *o = &r->outputs[i];
      fprintf(f, "%s\n%s    {\"label\": ", i ? "," : "", pad);
      json_string(f, o->label);
      fprintf(f, ", \"names\": ");
      json_string(f, o->names);
      fprintf(f, ", \"values\": [");
      for (int k = 0; k < o->num_values; k++) {
        if (k) fprintf(f, ", ");
        json_number(f, o->values[k]);
      }
      fprintf(f, "]}");
    }
    fprintf(f, "\n%s  ]", pad);
  }
  fprintf(f, ",\n%s  \"stages\": [", pad);
  for (int i = 0; i < HDGCL_NUM_STAGES; i++) {
    const hdgcl_stage_stats *st = &r->stages[i];
    fprintf(f, "%s\n%s    {\"name\": \"%s\", \"seconds\": ", i ? "," : "", pad, st->name);
    json_number(f, st->seconds);
    fprintf(f, ", \"flops\": ");
    json_number(f, st->flops);
    fprintf(f, ", \"bytes\": ");
    json_number(f, st->bytes);
    fprintf(f, ", \"gflops\": ");
    json_number(f, stage_gflops(st));
    fprintf(f, ", \"gbs\": ");
    json_number(f, stage_gbs(st));
    fputc('}', f);
  }
  fprintf(f, "],\n%s  \"repeat\": %d, \"total_seconds\": ", pad, repeat);
  json_number(f, r->total_seconds);
  fprintf(f, ", \"setup_seconds\": ");
  json_number(f, r->setup_seconds);
  fprintf(f, ", \"precond_seconds\": ");
  json_number(f, r->precond_seconds);
  fprintf(f, ", \"seconds_per_iteration\": ");
  json_number(f, report_seconds_per_iteration(r));
  fprintf(f, ",\n%s  \"memory_high_water_bytes\": %llu, \"chunk_elements\": %lld, \"chunks\": %d\n%s}",
          pad, (unsigned long long)r->device_memory_high_water, (long long)r->chunk_elements,
          r->num_chunks, pad);
}

void report_summary(FILE *out, const char *mesh_spec, const hdgcl_mesh *mesh,
                    const hdgcl_device_info *dev, const hdgcl_result *r, int show_history) {
  fprintf(out, "problem   %s, order p = %d, tau = %g\n", r->problem, r->order, r->tau);
  fprintf(out, "mesh      %s: %lld elements (%s), %lld faces, h = %.4g\n", mesh_spec,
          (long long)r->num_elements, hdgcl_element_type_name(mesh->type), (long long)r->num_faces,
          r->h);
  fprintf(out, "device    %s (%s)\n", dev->name, dev->platform);
  if (!isnan(r->mu_min)) {
    if (r->mu_min == r->mu_max && r->lambda_min == r->lambda_max)
      fprintf(out, "material  mu = %g, lambda = %g\n", r->mu_min, r->lambda_min);
    else
      fprintf(out, "material  per element: mu %g..%g, lambda %g..%g\n", r->mu_min, r->mu_max,
              r->lambda_min, r->lambda_max);
  }
  bool vector = !isnan(r->l2_p) || !isnan(r->tip_deflection);
  fprintf(out, "DOFs      element %s %lld, trace %lld (%lld faces x %lld)\n",
          vector ? "(u, H, p)" : "(u, q)", (long long)r->element_dofs, (long long)r->trace_dofs, (long long)r->num_unknown_faces,
          r->num_unknown_faces ? (long long)(r->trace_dofs / r->num_unknown_faces) : 0LL);
  char method[32];
  if (r->restart)
    snprintf(method, sizeof method, "GMRES(%d)", r->restart);
  else
    snprintf(method, sizeof method, "CG");
  fprintf(out, "solve     %s + %s (%s), %d iterations, relative residual %.3e (rtol %g)\n",
          method, r->precond, r->format, r->iterations, r->residual, r->rtol);
  if (r->local_invert) {
    char staged[64] = "";
    if (r->local_schur_stage)
      snprintf(staged, sizeof staged, ", Z staged in local memory (work-groups of %d)",
               r->local_schur_wg);
    if (r->local_element_grid)
      fprintf(out, "local     S, [W | F], Z and K by local_element_tiled, one element per %d x %d "
                   "work-items, %d per work-group (%s)\n", r->local_element_grid,
              r->local_element_grid,
              r->local_element_wg / (r->local_element_grid * r->local_element_grid),
              r->local_element_source);
    else if (r->local_element_wg)
      fprintf(out, "local     S, [W | F], Z and K by local_element, one element per work-item, "
                   "work-groups of %d (%s)\n", r->local_element_wg, r->local_element_source);
    else
      fprintf(out, "local     S^-1 by %s, work-groups of %d (%s); K by %s (%s)%s\n",
              r->local_invert, r->local_invert_wg, r->local_invert_source, r->local_schur,
              r->local_schur_source, staged);
    if (!r->local_element_wg && r->local_gemm_z)
      fprintf(out, "          batched GEMMs: Z by %s (%s), K by %s (%s)\n", r->local_gemm_z,
              r->local_gemm_z_source, r->local_gemm_k, r->local_gemm_k_source);
  }
  if (r->postprocess)
    fprintf(out, "recover   u* by %s, work-groups of %d\n", r->postprocess, r->postprocess_wg);
  if (r->cheb_degree && r->eig_max > 0)
    fprintf(out, "          Chebyshev %d steps on [%.4g, %.4g]\n", r->cheb_degree, r->eig_min,
            r->eig_max);
  if (show_history)
    for (int i = 0; i < r->history_length; i++)
      fprintf(out, "          iteration %4d  residual %.6e\n", i, r->history[i]);
  if (r->ustar_retries)
    fprintf(out, "recover   u* recomputed by %s: its consistency check refused the first "
                 "computation (docs/reliability.md)\n",
            r->postprocess ? r->postprocess : "the same method");
  if (!isnan(r->tip_deflection)) /* cantilever: no exact solution */
    fprintf(out, "tip       deflection %.6e, Euler-Bernoulli q L^4 / (8 E I) %.6e (ratio %.4f)\n",
            r->tip_deflection, r->beam_deflection, r->tip_deflection / r->beam_deflection);
  else if (isnan(r->l2_u) && isnan(r->norm_u))
    fprintf(out, "errors    none (the problem gives no exact solution)\n");
  else if (!vector)
    fprintf(out, "errors    L2(u) %.4e   L2(q) %.4e   L2(u*) %.4e   max|u-u_h| %.4e\n", r->l2_u,
            r->l2_q, r->l2_ustar, r->linf_u);
  else /* vector problems */
    fprintf(out, "errors    L2(u) %.4e   L2(H) %.4e   L2(p) %.4e   L2(u*) %.4e   max|u-u_h| %.4e\n",
            r->l2_u, r->l2_q, r->l2_p, r->l2_ustar, r->linf_u);
  for (int i = 0; i < r->num_outputs; i++) { /* a user's problem's outputs */
    const hdgcl_output *o = &r->outputs[i];
    fprintf(out, "output    %s:", o->label);
    const char *name = o->names;
    for (int k = 0; k < o->num_values; k++) {
      size_t len = strcspn(name, " ");
      fprintf(out, "%s%.*s = %.10g", k ? ", " : " ", (int)len, name, o->values[k]);
      name += len + (name[len] == ' ');
    }
    fprintf(out, "\n");
  }
  fprintf(out, "stage          time [ms]   GFLOP/s      GB/s\n");
  for (int i = 0; i < HDGCL_NUM_STAGES; i++) {
    const hdgcl_stage_stats *st = &r->stages[i];
    fprintf(out, "  %-10s %12.3f", st->name, st->seconds * 1e3);
    if (st->flops > 0 || st->bytes > 0)
      fprintf(out, " %9.2f %9.2f\n", stage_gflops(st), stage_gbs(st));
    else
      fprintf(out, "\n");
  }
  fprintf(out, "    %-8s %12.3f   (preconditioner setup)\n", "setup", r->precond_seconds * 1e3);
  fprintf(out, "    %-8s %12.3f   (per iteration, %d iterations)\n", "iteration",
          report_seconds_per_iteration(r) * 1e3, r->iterations);
  fprintf(out, "  %-10s %12.3f   (setup and kernel compilation %.3f ms, not included)\n", "total",
          r->total_seconds * 1e3, r->setup_seconds * 1e3);
  if (r->device_memory_high_water)
    fprintf(out, "memory    device high water %.1f MiB, %lld elements per local batch (%d batches)\n",
            r->device_memory_high_water / 1048576.0, (long long)r->chunk_elements, r->num_chunks);
}
