/* hdgcl devices: every OpenCL platform/device, which one `auto` picks, the
 * CLBlast tuning that applies to it (host/core/blas_tuning.c), and the host CPU
 * topology (hwloc). */
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "core/blas.h"
#include "cli/cli.h"
#include "core/error.h"
#include "cli/report_json.h"

static const char *const device_cli_options[] = {"json", "device", NULL};

static void help(FILE *out) {
  fprintf(out, "usage: hdgcl devices [--device SPEC] [--json]\n\n"
               "Lists every OpenCL platform and device (index P:D, platform, vendor, name, type,\n"
               "versions, compute units, clock, memory, FP64, the tuned CLBlast parameters that\n"
               "apply: docs/clblast-tuning.md) and the host CPU topology; marks\n"
               "the device that --device SPEC (default: $HDGCL_DEVICE or auto) would select.\n"
               "  --json   print the same as one JSON object\n");
}

typedef char tuning_line[512];

#define TRY(expr) HDGCL_TRY_GOTO(status, expr, done)

static int print_json(const hdgcl_device_info *list, const tuning_line *tuning, int count,
                      int chosen, const hdgcl_host_info *h) {
  cJSON *root = NULL, *devices, *o;
  int status;
  TRY(json_new_object(&root));
  TRY(json_add_array(root, "devices", &devices));
  for (int i = 0; i < count; i++) {
    const hdgcl_device_info *d = &list[i];
    char index[32];
    snprintf(index, sizeof index, "%d:%d", d->platform_index, d->device_index);
    TRY(json_add_object(devices, NULL, &o));
    TRY(json_add_string(o, "index", index));
    TRY(json_add_string(o, "platform", d->platform));
    TRY(json_add_string(o, "vendor", d->vendor));
    TRY(json_add_string(o, "name", d->name));
    TRY(json_add_string(o, "type", report_device_type(d)));
    TRY(json_add_string(o, "version", d->version));
    TRY(json_add_string(o, "driver", d->driver));
    TRY(json_add_uint(o, "compute_units", d->compute_units));
    TRY(json_add_uint(o, "clock_mhz", d->clock_mhz));
    TRY(json_add_uint(o, "global_mem", d->global_mem));
    TRY(json_add_uint(o, "local_mem", d->local_mem));
    TRY(json_add_uint(o, "max_alloc", d->max_alloc));
    TRY(json_add_bool(o, "fp64", d->fp64));
    TRY(json_add_bool(o, "selected", i == chosen));
    TRY(json_add_string(o, "clblast_tuning", tuning[i]));
  }
  TRY(json_add_object(root, "host", &o));
  TRY(json_add_string(o, "cpu", h->cpu_model));
  TRY(json_add_int(o, "packages", h->packages));
  TRY(json_add_int(o, "cores", h->cores));
  TRY(json_add_int(o, "pus", h->pus));
  TRY(json_add_int(o, "numa_nodes", h->numa_nodes));
  TRY(json_add_uint(o, "l1d", h->l1d_bytes));
  TRY(json_add_uint(o, "l2", h->l2_bytes));
  TRY(json_add_uint(o, "l3", h->l3_bytes));
  TRY(json_add_uint(o, "memory", h->memory_bytes));
  TRY(json_print(stdout, root));
done:
  cJSON_Delete(root);
  return status;
}

#undef TRY

static int run(hdgcl_options opts) {
  const char *const *known[] = {device_cli_options, NULL};
  HDGCL_TRY(hdgcl_options_check_known(opts, known));
  bool json;
  const char *spec;
  HDGCL_TRY(hdgcl_options_get_bool(opts, "json", false, &json));
  HDGCL_TRY(hdgcl_options_get_string(opts, "device", NULL, &spec)); /* NULL: $HDGCL_DEVICE */
  hdgcl_device_info *list;
  int count, chosen = -1;
  char *all = NULL; /* under mpirun: each rank's device line (256 chars), on rank 0 */
  int ranks = 0;
  HDGCL_TRY(hdgcl_device_list(&list, &count));
  hdgcl_host_info host;
  tuning_line *tuning = calloc(count > 0 ? (size_t)count : 1, sizeof *tuning);
  int status = tuning ? HDGCL_SUCCESS : hdgcl_error(HDGCL_ERROR_MEMORY, "devices: no memory");
  for (int i = 0; i < count && !status; i++)
    status = hdgcl_blas_tuning_describe(list[i].name, tuning[i], sizeof tuning[i]);
  if (!status) status = hdgcl_host_info_get(&host);
  if (status) goto done;
  const char *env = getenv("HDGCL_DEVICE");
  bool reference = spec ? !strcmp(spec, "ref") : (env && !strcmp(env, "ref"));
  if (!reference) {
    status = hdgcl_device_match(spec, list, count, &chosen);
    if (status && count == 0) goto done; /* nothing installed: the message says what to install */
  }
  if (cli_mpi_active()) { /* under mpirun: rank 0 lists, then each rank's device */
    enum { EACH = 256 };
    const char *mine = NULL;
    char line[EACH - 64], hostname[32] = "?";
    int r = cli_mpi_rank(), size = cli_mpi_size(), idx = -1;
    gethostname(hostname, sizeof hostname - 1);
    int st = reference ? HDGCL_SUCCESS : cli_mpi_device(spec, &mine);
    if (reference)
      snprintf(line, sizeof line, "ref (the serial C reference path)");
    else if (st != HDGCL_SUCCESS || hdgcl_device_match(mine, list, count, &idx) != HDGCL_SUCCESS)
      snprintf(line, sizeof line, "no device (%s)", hdgcl_last_error());
    else
      snprintf(line, sizeof line, "%d:%d  %s", list[idx].platform_index, list[idx].device_index,
               list[idx].name);
    char text[EACH];
    snprintf(text, sizeof text, "rank %d of %d on %s: %s", r, size, hostname, line);
    all = r == 0 ? calloc((size_t)size * EACH, 1) : NULL;
    if (r == 0 && !all) {
      status = hdgcl_error(HDGCL_ERROR_MEMORY, "devices: no memory");
      goto done;
    }
    int gathered = cli_mpi_gather_text(text, all, EACH);
    if (gathered) status = gathered;
    if (r != 0 || gathered) goto done;
    ranks = size;
  }
  if (json) {
    int printed = print_json(list, tuning, count, chosen, &host);
    if (printed) status = printed; /* else keep hdgcl_device_match's */
  } else {
    for (int i = 0; i < count; i++) {
      const hdgcl_device_info *d = &list[i];
      printf("%s %d:%d  %s\n", i == chosen ? "*" : " ", d->platform_index, d->device_index, d->name);
      printf("      platform %s, vendor %s, type %s\n", d->platform, d->vendor,
             d->is_gpu ? "GPU" : d->is_cpu ? "CPU" : "other");
      printf("      %s, driver %s\n", d->version, d->driver);
      printf("      %u compute units at %u MHz, global memory %.1f GiB (max allocation %.1f GiB), "
             "local memory %.0f KiB, FP64 %s\n",
             d->compute_units, d->clock_mhz, d->global_mem / 1073741824.0,
             d->max_alloc / 1073741824.0, d->local_mem / 1024.0, d->fp64 ? "yes" : "no");
      printf("      CLBlast tuning: %s\n", tuning[i]);
    }
    printf("%s\n", reference ? "  selected: ref (the serial C reference path)"
                   : chosen >= 0 ? "  * = selected by --device (default auto)"
                                 : "  no device matches --device");
    printf("host: %s; %d package(s), %d cores, %d PUs, %d NUMA node(s); L1d %llu KiB, L2 %llu KiB, "
           "L3 %llu KiB; memory %.1f GiB\n",
           host.cpu_model, host.packages, host.cores, host.pus, host.numa_nodes,
           (unsigned long long)host.l1d_bytes / 1024, (unsigned long long)host.l2_bytes / 1024,
           (unsigned long long)host.l3_bytes / 1024, host.memory_bytes / 1073741824.0);
  }
  for (int i = 0; i < ranks && !json; i++) printf("%s\n", all + (size_t)i * 256);
  /* A spec that selects nothing (or a device without FP64) is an error after the listing. */
done:
  free(all);
  free(tuning);
  free(list);
  return status;
}

const cli_command cli_devices = {"devices", "list OpenCL devices and the host CPU", run, help};
