/* Shared by the libFuzzer harnesses of tests/fuzz (README.md there). */
#ifndef HDGCL_FUZZ_COMMON_H
#define HDGCL_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hdgcl/status.h"

/* The input as a NUL-terminated string (caller frees); NULL when it holds a
 * NUL byte (text parsers take C strings, so such inputs say nothing new). */
static inline char *fuzz_string(const uint8_t *data, size_t size) {
  if (memchr(data, 0, size)) return NULL;
  char *s = malloc(size + 1);
  if (!s) abort();
  memcpy(s, data, size);
  s[size] = '\0';
  return s;
}

/* Every failure must say why: a status other than success with an empty
 * hdgcl_last_error() is a bug (call hdgcl_clear_error() before the parser). */
static inline void fuzz_check_status(int status, const char *who) {
  if (status != HDGCL_SUCCESS && hdgcl_last_error()[0] == '\0') {
    fprintf(stderr, "%s failed (status %d) without a message\n", who, status);
    abort();
  }
}

#endif
