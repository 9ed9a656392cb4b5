/* hdgcl bench: per-stage and per-kernel performance of solves, against the
 * device's own ceilings measured in the same run (host/drivers/bench.c), as a table
 * and as JSON lines (one object per case; schema in docs/performance.md). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/bench.h"
#include "cli/cli.h"
#include "core/context.h"
#include "core/error.h"
#include "cli/report.h"
#include "cli/report_json.h"
#include "solvers/spmv.h"

static const char *const bench_cli_options[] = {"device", "mesh",   "meshes",   "orders", "json",
                                                "quiet",  "warmup", "repeat",   "min-time", "copy-mib",
                                                "dgemm-batch", NULL};

#define MAX_CASES 64
#define NUM_KERNELS (SPMV_STORAGES + 2) /* the SpMV storages, local_stage, clblast_local_gemms */

static void help(FILE *out) {
  fprintf(out,
          "usage: hdgcl bench [--problem NAME] [--mesh SPEC | --meshes \"SPEC SPEC ...\"]\n"
          "                   [--order P | --orders LIST] [--device SPEC] [--json out.jsonl]\n"
          "                   [--warmup W] [--repeat R] [--min-time S] [solver options]\n\n"
          "Measures the device's ceilings (copy bandwidth of a stream kernel, CLBlast\n"
          "DgemmStridedBatched 64x64x64 rate, kernel-launch overhead), then for each mesh and\n"
          "order solves the problem (median stage times over the repeats) and times the trace\n"
          "operator in every storage (bell, ell, bell-i, bell-tc, bell-mixed, csr, bell-sym;\n"
          "each checked against a host product) and CLBlast at the local stage's GEMM shapes.\n"
          "Prints each stage's and kernel's time, GFLOP/s, GB/s and fraction of the measured\n"
          "ceilings.\n\n"
          "  --mesh SPEC        one mesh (default: the problem's); see hdgcl solve --help\n"
          "  --meshes LIST      several meshes, separated by spaces\n"
          "  --orders LIST      orders: \"1,3,5\" or a range \"1-9\" (default: --order, or 3)\n"
          "  --warmup W         untimed solves per case (default 1)\n"
          "  --repeat R         timed solves per case; stages report the median (default 3)\n"
          "  --min-time S       seconds each kernel measurement repeats for (default 0.1)\n"
          "  --copy-mib M       size of each buffer of the copy benchmark (default 256)\n"
          "  --dgemm-batch B    batch of the 64^3 DGEMM benchmark (default 20000 on GPUs,\n"
          "                     2000 otherwise)\n"
          "  --json FILE        JSON lines, one per case (written atomically)\n"
          "  --quiet            print nothing but errors\n"
          "Solver options (--problem, --precond, --format, --rtol, ...) as in hdgcl solve.\n");
}

/* "1,3,5" or "1-9" (or a mix: "1-3,7") into orders[0..*count). */
static int parse_orders(const char *text, int *orders, int *count) {
  *count = 0;
  const char *p = text;
  while (*p) {
    char *end;
    long a = strtol(p, &end, 10), b = a;
    if (end == p) goto bad;
    p = end;
    if (*p == '-') {
      b = strtol(p + 1, &end, 10);
      if (end == p + 1) goto bad;
      p = end;
    }
    if (a < 0 || b > 10 || a > b) goto bad;
    for (long o = a; o <= b; o++) {
      if (*count >= MAX_CASES) goto bad;
      orders[(*count)++] = (int)o;
    }
    if (*p == ',') p++;
    else if (*p) goto bad;
  }
  if (*count) return HDGCL_SUCCESS;
bad:
  return hdgcl_error(HDGCL_ERROR_ARGUMENT,
                     "--orders '%s': expected orders 0..10 as a list \"1,3,5\" or range \"1-9\"", text);
}

static double frac(double rate, double peak) { return peak > 0 ? rate / peak : 0.0; }

/* seconds, flops, bytes and the rates against the ceilings, into o. */
static int add_rates(cJSON *o, double seconds, double flops, double bytes, const bench_peaks *pk) {
  double gflops = seconds > 0 ? flops / seconds / 1e9 : 0, gbs = seconds > 0 ? bytes / seconds / 1e9 : 0;
  HDGCL_TRY(json_add_real(o, "seconds", seconds));
  HDGCL_TRY(json_add_real(o, "flops", flops));
  HDGCL_TRY(json_add_real(o, "bytes", bytes));
  HDGCL_TRY(json_add_real(o, "gflops", gflops));
  HDGCL_TRY(json_add_real(o, "gbs", gbs));
  HDGCL_TRY(json_add_real(o, "frac_bw", frac(gbs, pk->copy_gbs)));
  return json_add_real(o, "frac_flops", frac(gflops, pk->dgemm_gflops));
}

#define TRY(expr) HDGCL_TRY_GOTO(status, expr, done)

/* One case as one line of JSON. */
static int write_case(json_file *j, const char *spec, const hdgcl_mesh *mesh,
                      const hdgcl_device_info *dev, const hdgcl_host_info *host,
                      const bench_peaks *pk, const char *tuning, const hdgcl_result *r,
                      const bench_kernel *kernels, int nkernels, int repeat) {
  cJSON *line = NULL, *run, *o, *a;
  int status;
  TRY(json_new_object(&line));
  TRY(json_add_string(line, "kind", "bench"));
  TRY(report_json_run(spec, mesh, dev, r, repeat, &run));
  TRY(json_add_item(line, "run", run));
  TRY(json_add_object(line, "host", &o));
  TRY(json_add_string(o, "cpu_model", host->cpu_model));
  TRY(json_add_int(o, "packages", host->packages));
  TRY(json_add_int(o, "cores", host->cores));
  TRY(json_add_int(o, "pus", host->pus));
  TRY(json_add_int(o, "numa_nodes", host->numa_nodes));
  TRY(json_add_object(line, "peak", &o));
  TRY(json_add_real(o, "copy_gbs", pk->copy_gbs));
  TRY(json_add_uint(o, "copy_bytes", pk->copy_bytes));
  TRY(json_add_real(o, "dgemm_gflops", pk->dgemm_gflops));
  TRY(json_add_array(o, "dgemm_shape", &a));
  for (int i = 0; i < 4; i++) TRY(json_add_int(a, NULL, pk->dgemm_shape[i]));
  TRY(json_add_real(o, "launch_us", pk->launch_us));
  TRY(json_add_string(o, "clblast_tuning", tuning));
  TRY(json_add_array(line, "stages", &a));
  for (int i = 0; i < HDGCL_NUM_STAGES; i++) {
    const hdgcl_stage_stats *st = &r->stages[i];
    TRY(json_add_object(a, NULL, &o));
    TRY(json_add_string(o, "name", st->name));
    TRY(add_rates(o, st->seconds, st->flops, st->bytes, pk));
  }
  TRY(json_add_array(line, "kernels", &a));
  for (int i = 0; i < nkernels; i++) {
    const bench_kernel *k = &kernels[i];
    TRY(json_add_object(a, NULL, &o));
    TRY(json_add_string(o, "name", k->name));
    TRY(add_rates(o, k->seconds, k->flops, k->bytes, pk));
    TRY(json_add_real(o, "rel_error", k->rel_error >= 0 ? k->rel_error : NAN)); /* null: not checked */
  }
  TRY(json_write_line(j, line));
done:
  cJSON_Delete(line);
  return status;
}

#undef TRY

static void print_row(const char *name, double seconds, double flops, double bytes,
                      const bench_peaks *pk, const char *note) {
  double gflops = seconds > 0 ? flops / seconds / 1e9 : 0, gbs = seconds > 0 ? bytes / seconds / 1e9 : 0;
  printf("  %-20s %11.4f %9.1f %9.1f %7.1f%% %7.1f%%  %s\n", name, seconds * 1e3, gflops, gbs,
         100 * frac(gbs, pk->copy_gbs), 100 * frac(gflops, pk->dgemm_gflops), note);
}

static void print_case(const char *spec, const hdgcl_result *r, const bench_peaks *pk,
                       const bench_kernel *kernels, int nkernels) {
  printf("\n%s on %s, p = %d: %lld trace DOFs, %d iterations (%s + %s), L2(u) %.3e\n", r->problem,
         spec, r->order, (long long)r->trace_dofs, r->iterations, r->solver, r->precond, r->l2_u);
  printf("  %-20s %11s %9s %9s %8s %8s\n", "stage / kernel", "time [ms]", "GFLOP/s", "GB/s",
         "of copy", "of DGEMM");
  for (int i = 0; i < HDGCL_NUM_STAGES; i++) {
    const hdgcl_stage_stats *st = &r->stages[i];
    print_row(st->name, st->seconds, st->flops, st->bytes, pk, "");
  }
  for (int i = 0; i < nkernels; i++) {
    char note[64] = "";
    if (kernels[i].rel_error >= 0) snprintf(note, sizeof note, "error %.1e", kernels[i].rel_error);
    print_row(kernels[i].name, kernels[i].seconds, kernels[i].flops, kernels[i].bytes, pk, note);
  }
  /* The stage against CLBlast both timed back to back (issue 7's target),
   * and the solve's own pass. */
  const bench_kernel *local = &kernels[nkernels - 2], *gemm = &kernels[nkernels - 1];
  const hdgcl_stage_stats *pass = &r->stages[HDGCL_STAGE_LOCAL];
  if (local->seconds > 0 && pass->seconds > 0 && gemm->seconds > 0) {
    double rate = gemm->flops / gemm->seconds;
    printf("  local stage at %.0f%% of CLBlast's rate at its GEMM shapes, both back to back "
           "(%.0f%% in the solve's one pass)\n",
           100 * (local->flops / local->seconds) / rate, 100 * (pass->flops / pass->seconds) / rate);
  }
}

static int run(hdgcl_options opts) {
  const char *const *known[] = {bench_cli_options, hdgcl_solver_options, hdgcl_context_options,
                                NULL};
  HDGCL_TRY(hdgcl_options_check_known(opts, known));
  const char *device_spec, *mesh_spec, *meshes_text, *orders_text, *json_path, *problem_name;
  int warmup, repeat, order, copy_mib, dgemm_batch;
  bool quiet;
  double min_time;
  HDGCL_TRY(hdgcl_options_get_string(opts, "device", NULL, &device_spec));
  HDGCL_TRY(hdgcl_options_get_string(opts, "problem", "helmholtz-sin", &problem_name));
  HDGCL_TRY(hdgcl_options_get_string(opts, "meshes", NULL, &meshes_text));
  HDGCL_TRY(hdgcl_options_get_string(opts, "orders", NULL, &orders_text));
  HDGCL_TRY(hdgcl_options_get_string(opts, "json", NULL, &json_path));
  HDGCL_TRY(hdgcl_options_get_bool(opts, "quiet", false, &quiet));
  HDGCL_TRY(hdgcl_options_get_int(opts, "warmup", 1, 0, 100, &warmup));
  HDGCL_TRY(hdgcl_options_get_int(opts, "repeat", 3, 1, 1000, &repeat));
  HDGCL_TRY(hdgcl_options_get_real(opts, "min-time", 0.1, 1e-4, 60, &min_time));
  HDGCL_TRY(hdgcl_options_get_int(opts, "order", 3, 0, 10, &order));
  HDGCL_TRY(hdgcl_options_get_int(opts, "copy-mib", 256, 1, 16384, &copy_mib));
  HDGCL_TRY(hdgcl_options_get_int(opts, "dgemm-batch", 0, 1, 10000000, &dgemm_batch));
  const char *default_mesh = "square:8";
  for (int i = 0; i < hdgcl_problem_count(); i++)
    if (!strcmp(hdgcl_problem_get(i)->name, problem_name))
      default_mesh = hdgcl_problem_get(i)->default_mesh;
  HDGCL_TRY(hdgcl_options_get_string(opts, "mesh", default_mesh, &mesh_spec));
  if (meshes_text && hdgcl_options_has(opts, "mesh"))
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "give either --mesh or --meshes, not both");
  if (orders_text && hdgcl_options_has(opts, "order"))
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "give either --order or --orders, not both");
  int orders[MAX_CASES], norders = 1;
  orders[0] = order;
  if (orders_text) HDGCL_TRY(parse_orders(orders_text, orders, &norders));
  /* The mesh list: words of --meshes, or the one --mesh. */
  char meshes[4096];
  snprintf(meshes, sizeof meshes, "%s", meshes_text ? meshes_text : mesh_spec);
  if (strlen(meshes_text ? meshes_text : mesh_spec) >= sizeof meshes)
    return hdgcl_error(HDGCL_ERROR_ARGUMENT, "--meshes: list too long");
  char *words[MAX_CASES];
  int nmeshes = 0;
  for (char *w = strtok(meshes, " \t"); w; w = strtok(NULL, " \t")) {
    if (nmeshes == MAX_CASES) return hdgcl_error(HDGCL_ERROR_ARGUMENT, "--meshes: more than %d meshes", MAX_CASES);
    words[nmeshes++] = w;
  }
  if (!nmeshes) return hdgcl_error(HDGCL_ERROR_ARGUMENT, "--meshes: no mesh given");

  hdgcl_context ctx = NULL;
  hdgcl_mesh *mesh = NULL;
  hdgcl_solver solver = NULL;
  json_file json = {0};
  int status;
  HDGCL_TRY_GOTO(status, hdgcl_context_create(device_spec, opts, &ctx), done);
  HDGCL_TRY_GOTO(status, cli_progress_install(ctx, quiet), done);
  if (ctx->reference) {
    status = hdgcl_error(HDGCL_ERROR_ARGUMENT,
                         "--device ref: hdgcl bench measures an OpenCL device, and the reference "
                         "path has none");
    goto done;
  }
  hdgcl_device_info dev;
  hdgcl_host_info host;
  HDGCL_TRY_GOTO(status, hdgcl_context_info(ctx, &dev), done);
  HDGCL_TRY_GOTO(status, hdgcl_host_info_get(&host), done);
  if (json_path) HDGCL_TRY_GOTO(status, json_open(&json, json_path), done);
  bench_peaks pk;
  HDGCL_TRY_GOTO(status, bench_measure_peaks(ctx, min_time, (uint64_t)copy_mib << 20, dgemm_batch, &pk), done);
  cli_progress_clear();
  if (!quiet) {
    printf("device    %s (%s), %u compute units; host %s (%d cores)\n", dev.name, dev.platform,
           dev.compute_units, host.cpu_model, host.cores);
    printf("ceilings  copy %.1f GB/s (2 x %.0f MiB), DGEMM %dx%dx%d x %d %.1f GFLOP/s (CLBlast), "
           "launch %.2f us\n", pk.copy_gbs, (double)pk.copy_bytes / (1 << 20), pk.dgemm_shape[0],
           pk.dgemm_shape[1], pk.dgemm_shape[2], pk.dgemm_shape[3], pk.dgemm_gflops, pk.launch_us);
    printf("CLBlast tuning: %s\n", ctx->blas_tuning);
  }
  for (int mi = 0; mi < nmeshes; mi++) {
    HDGCL_TRY_GOTO(status, hdgcl_mesh_create_from_spec(words[mi], &mesh), done);
    for (int oi = 0; oi < norders; oi++) {
      char text[8];
      snprintf(text, sizeof text, "%d", orders[oi]);
      HDGCL_TRY_GOTO(status, hdgcl_options_set(opts, "order", text), done);
      HDGCL_TRY_GOTO(status, hdgcl_solver_create(ctx, mesh, opts, &solver), done);
      HDGCL_TRY_GOTO(status, hdgcl_options_check_unused(opts), done);
      hdgcl_result r;
      HDGCL_TRY_GOTO(status, cli_timed_solves(solver, warmup, repeat, &r), done);
      bench_kernel kernels[NUM_KERNELS];
      HDGCL_TRY_GOTO(status, bench_spmv_storages(solver, min_time, kernels), done);
      HDGCL_TRY_GOTO(status, bench_local_stage(solver, min_time, &kernels[SPMV_STORAGES]), done);
      HDGCL_TRY_GOTO(status, bench_local_gemm(solver, min_time, &kernels[SPMV_STORAGES + 1]), done);
      cli_progress_clear();
      if (!quiet) print_case(words[mi], &r, &pk, kernels, NUM_KERNELS);
      if (json_path)
        HDGCL_TRY_GOTO(status, write_case(&json, words[mi], mesh, &dev, &host, &pk, ctx->blas_tuning, &r, kernels,
                                          NUM_KERNELS, repeat), done);
      hdgcl_solver_destroy(&solver);
    }
    hdgcl_mesh_destroy(&mesh);
  }
  if (json_path) HDGCL_TRY_GOTO(status, json_commit(&json, NULL), done); /* the lines are written */
  status = HDGCL_SUCCESS;
done:
  if (json.f) json_abort(&json);
  hdgcl_solver_destroy(&solver);
  hdgcl_mesh_destroy(&mesh);
  hdgcl_context_destroy(&ctx);
  return status;
}

const cli_command cli_bench = {"bench", "per-stage and per-kernel performance against the device's measured ceilings", run, help};
