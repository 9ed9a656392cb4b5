/* The text of the kernel files under cl/ (.cl and .h), embedded at build time (cmake/embed_sources.cmake). */
#ifndef HDGCL_HOST_KERNEL_SOURCES_H
#define HDGCL_HOST_KERNEL_SOURCES_H

#include <stddef.h>

typedef struct hdgcl_kernel_source {
  const char *name; /* file name under cl/, e.g. "local.cl" */
  const char *text; /* NUL-terminated */
  size_t length;
} hdgcl_kernel_source;

/* Terminated by an entry with name == NULL. */
extern const hdgcl_kernel_source hdgcl_kernel_sources[];
/* The same for the tuned CLBlast parameters, the .txt files of perf/clblast/ (host/core/blas_tuning.c). */
extern const hdgcl_kernel_source hdgcl_clblast_tunings[];

#endif
