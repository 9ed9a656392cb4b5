/* The host CPU as hwloc sees it: model, packages, cores, PUs, NUMA nodes,
 * cache sizes and memory. */
#include <hwloc.h>
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "hdgcl/device.h"

static uint64_t cache_size(hwloc_topology_t topo, hwloc_obj_type_t type) {
  hwloc_obj_t obj = hwloc_get_obj_by_type(topo, type, 0);
  return obj && obj->attr ? obj->attr->cache.size : 0;
}

int hdgcl_host_info_get(hdgcl_host_info *info) {
  memset(info, 0, sizeof *info);
  hwloc_topology_t topo;
  if (hwloc_topology_init(&topo) != 0) return hdgcl_error(HDGCL_ERROR_INTERNAL, "hwloc_topology_init failed");
  if (hwloc_topology_load(topo) != 0) {
    hwloc_topology_destroy(topo);
    return hdgcl_error(HDGCL_ERROR_INTERNAL, "hwloc_topology_load failed");
  }
  info->packages = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PACKAGE);
  info->cores = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
  info->pus = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
  info->numa_nodes = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_NUMANODE);
  info->l1d_bytes = cache_size(topo, HWLOC_OBJ_L1CACHE);
  info->l2_bytes = cache_size(topo, HWLOC_OBJ_L2CACHE);
  info->l3_bytes = cache_size(topo, HWLOC_OBJ_L3CACHE);
  hwloc_obj_t root = hwloc_get_root_obj(topo);
  info->memory_bytes = root ? root->total_memory : 0;
  hwloc_obj_t pkg = hwloc_get_obj_by_type(topo, HWLOC_OBJ_PACKAGE, 0);
  const char *model = pkg ? hwloc_obj_get_info_by_name(pkg, "CPUModel") : NULL;
  if (!model && root) model = hwloc_obj_get_info_by_name(root, "CPUModel");
  snprintf(info->cpu_model, sizeof info->cpu_model, "%s", model ? model : "unknown");
  hwloc_topology_destroy(topo);
  return HDGCL_SUCCESS;
}
