/* Pinned (page-locked) host memory from the OpenCL runtime (pinned.c): a
 * buffer created with CL_MEM_ALLOC_HOST_PTR and mapped once for its whole
 * life.  Used as the host side of a clEnqueueReadBuffer or WriteBuffer it
 * lets NVIDIA's OpenCL move the data by DMA at the PCIe rate, where pageable
 * memory (malloc) goes through a driver staging copy (issue 31: 17 MB of u,
 * q, u* took 3 ms on the H100, which the link moves in under 1 ms).  On CPU
 * devices (PoCL) the mapping is the buffer's own memory: no copy, no cost. */
#ifndef HDGCL_HOST_CORE_PINNED_H
#define HDGCL_HOST_CORE_PINNED_H

#include <stddef.h>

#include "core/context.h"

typedef struct hdgcl_pinned {
  cl_mem mem;
  void *ptr; /* the mapped host memory, zeroed at creation */
  size_t bytes;
} hdgcl_pinned;

/* bytes (> 0) of pinned host memory, mapped for reading and writing. */
int hdgcl_pinned_create(hdgcl_context ctx, size_t bytes, const char *name, hdgcl_pinned *p);
/* Unmaps and releases (no-op on a zeroed struct), then zeroes *p. */
void hdgcl_pinned_release(hdgcl_context ctx, hdgcl_pinned *p);

#endif
