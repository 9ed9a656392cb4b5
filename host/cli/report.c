/* Human-readable summaries of solver results (JSON: report_json.c). */
#include "cli/report.h"

#include <math.h>
#include <stdio.h>
#include <string.h>


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

void report_summary(FILE *out, const char *mesh_spec, const hdgcl_mesh *mesh,
                    const hdgcl_device_info *dev, const hdgcl_result *r, int show_history) {
  fprintf(out, "problem   %s, order p = %d, tau = %g\n", r->problem, r->order, r->tau);
  char types[96]; /* a mixed mesh: the count of each type */
  snprintf(types, sizeof types, "%s", hdgcl_element_type_name(mesh->type));
  if (hdgcl_mesh_is_mixed(mesh))
    snprintf(types, sizeof types, "%d %ss, %d %ss",
             (int)hdgcl_mesh_count_type(mesh, mesh->types[0]), hdgcl_element_type_name(mesh->types[0]),
             (int)hdgcl_mesh_count_type(mesh, mesh->types[1]), hdgcl_element_type_name(mesh->types[1]));
  fprintf(out, "mesh      %s: %lld elements (%s), %lld faces, h = %.4g\n", mesh_spec,
          (long long)r->num_elements, types, (long long)r->num_faces, r->h);
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
  if (r->scheme) {
    fprintf(out, "time      %s, %d steps of %g to t = %g, %d stage solves", r->scheme,
            r->time_steps, r->time_step, r->final_time, r->stage_solves);
    if (r->newton_steps_all > 0) /* a nonlinear problem: each stage a Newton solve */
      fprintf(out, ", %d Newton steps in all", r->newton_steps_all);
    fprintf(out, "\n");
    fprintf(out, "solve     %s + %s (%s), %d iterations in all (at most %d per solve), largest "
                 "relative residual %.3e (rtol %g)\n",
            method, r->precond, r->format, r->iterations, r->iterations_max, r->residual, r->rtol);
  } else if (r->newton_history) { /* docs/nonlinear.md: steps, iterations per step, ||R|| */
    fprintf(out, "newton    %d steps, residual %.3e -> %.3e (%.3e relative, newton-rtol %g), "
                 "iterations per step",
            r->newton_steps, r->newton_history[0], r->newton_history[r->newton_steps],
            r->residual, r->newton_rtol);
    for (int i = 0; i < r->newton_steps; i++) fprintf(out, " %d", r->newton_iterations[i]);
    fprintf(out, "\n");
    if (r->load_steps > 0) { /* neo-hookean's load steps: the last one above */
      fprintf(out, "load      %d load steps (the last above), Newton steps per load step",
              r->load_steps);
      for (int l = 0; l < r->load_steps; l++) fprintf(out, " %d", r->load_newton_steps[l]);
      fprintf(out, " (%d in all), line search halvings %d (%d for J <= 0)\n", r->newton_steps_all,
              r->line_search_halvings, r->line_search_halvings_j);
    }
    if (!isnan(r->loaded_face_u[0])) /* neo-hookean-cube */
      fprintf(out, "cube      mean displacement of the loaded side (tag 2): (%.6e, %.6e, %.6e)\n",
              r->loaded_face_u[0], r->loaded_face_u[1], r->loaded_face_u[2]);
    if (r->ptc_steps > 0) /* --ptc true (docs/nonlinear.md (N17)-(N18)) */
      fprintf(out, "ptc       %d pseudo-steps of the %d, pseudo time step %.3g -> %.3g\n",
              r->ptc_steps, r->newton_steps, r->ptc_dt_first, r->ptc_dt_last);
    fprintf(out, "solve     %s + %s (%s), %d iterations in all\n", method, r->precond, r->format,
            r->iterations);
  } else
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
  if (show_history && r->newton_steps > 0)
    for (int i = 0; i <= r->newton_steps; i++)
      fprintf(out, "          newton %4d  residual %.6e\n", i, r->newton_history[i]);
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
  if (r->device_memory_high_water) {
    fprintf(out, "memory    device high water %.1f MiB, %lld elements per local batch (%d batches)\n",
            r->device_memory_high_water / 1048576.0, (long long)r->chunk_elements, r->num_chunks);
    /* what the high water holds (issue 31 goal 6: bytes per trace DOF by buffer) */
    if (r->num_memory_uses > 0 && r->trace_dofs > 0) {
      fprintf(out, "          %.0f bytes per trace DOF; largest:",
              (double)r->device_memory_high_water / (double)r->trace_dofs);
      for (int i = 0; i < r->num_memory_uses && i < 5; i++)
        fprintf(out, "%s %s %.1f MiB (%.0f%%)", i ? "," : "", r->memory_uses[i].name,
                r->memory_uses[i].bytes / 1048576.0,
                100.0 * (double)r->memory_uses[i].bytes / (double)r->device_memory_high_water);
      fprintf(out, "\n");
    }
  }
  if (r->curved_elements || r->straight_elements) /* element batches (docs/geometry.md) */
    fprintf(out, "batches   %lld straight elements on the vertex map, %lld curved on the mapped path\n",
            (long long)r->straight_elements, (long long)r->curved_elements);
}
