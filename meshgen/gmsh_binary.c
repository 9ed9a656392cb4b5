/* Binary fields of Gmsh 4.1 binary files (see gmsh_binary.h). */
#include "gmsh_binary.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "core/error.h"

int gmsh_binary_error(const gmsh_input *in, const char *fmt, ...) {
  char message[640];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(message, sizeof message, fmt, ap);
  va_end(ap);
  return gmsh_error(in, HDGCL_ERROR_FORMAT, "%s: %s", in->section ? in->section : "$MeshFormat",
                    message);
}

int gmsh_binary_start(gmsh_input *in) {
  int32_t one;
  in->binary = true;
  in->position = in->offset;
  if (fread(&one, sizeof one, 1, in->file) != 1)
    return gmsh_binary_error(in, "file ends before the binary int 1 (the endianness check)");
  in->offset += sizeof one;
  if (one == 0x01000000)
    return gmsh_binary_error(in,
                             "the file was written on a machine of the other byte order "
                             "(big-endian); save it as ASCII there (gmsh -format msh41 with "
                             "Mesh.Binary = 0)");
  if (one != 1)
    return gmsh_binary_error(in, "expected the binary int 1 (the endianness check), found %d",
                             (int)one);
  HDGCL_TRY(gmsh_next_line(in, "the end of the endianness check", NULL));
  if (in->line[0])
    return gmsh_binary_error(in, "unexpected '%.20s' after the endianness check", in->line);
  return HDGCL_SUCCESS;
}

int gmsh_binary_need(gmsh_input *in, const char *what, uint64_t count, int64_t each) {
  if (in->size < 0) return HDGCL_SUCCESS;
  int64_t left = in->size - in->offset;
  if (left < 0) left = 0;
  if (count <= (uint64_t)(left / each)) return HDGCL_SUCCESS;
  return gmsh_binary_error(in,
                           "%llu %s need at least %llu bytes but only %lld are left in the file "
                           "(a wrong count, or a truncated file)",
                           (unsigned long long)count, what,
                           count > (uint64_t)INT64_MAX / (uint64_t)each
                               ? (unsigned long long)UINT64_MAX
                               : (unsigned long long)(count * (uint64_t)each),
                           (long long)left);
}

int gmsh_binary_read(gmsh_input *in, const char *what, void *data, size_t bytes) {
  in->position = in->offset;
  size_t got = fread(data, 1, bytes, in->file);
  if (got == bytes) {
    in->offset += (int64_t)bytes;
    return HDGCL_SUCCESS;
  }
  if (ferror(in->file))
    return gmsh_error(in, HDGCL_ERROR_IO, "read error: %s", strerror(errno ? errno : EIO));
  in->position += (int64_t)got;
  return gmsh_binary_error(in, "unexpected end of file reading %s (truncated file?)", what);
}

static int out_of_range(gmsh_input *in, const char *what, unsigned long long x, bool is_signed,
                        int64_t min, int64_t max) {
  char value[32];
  if (is_signed)
    snprintf(value, sizeof value, "%lld", (long long)x);
  else
    snprintf(value, sizeof value, "%llu", x);
  return gmsh_binary_error(in, "%s %s out of range [%lld, %lld]", what, value, (long long)min,
                           (long long)max);
}

int gmsh_binary_int(gmsh_input *in, const char *what, int64_t min, int64_t max, int64_t *value) {
  int32_t x;
  HDGCL_TRY(gmsh_binary_read(in, what, &x, sizeof x));
  if (x < min || x > max) return out_of_range(in, what, (unsigned long long)x, true, min, max);
  *value = x;
  return HDGCL_SUCCESS;
}

int gmsh_binary_size(gmsh_input *in, const char *what, int64_t min, int64_t max, int64_t *value) {
  uint64_t x;
  HDGCL_TRY(gmsh_binary_read(in, what, &x, sizeof x));
  if (x > (uint64_t)INT64_MAX || (int64_t)x < min || (int64_t)x > max)
    return out_of_range(in, what, x, false, min, max);
  *value = (int64_t)x;
  return HDGCL_SUCCESS;
}

int gmsh_binary_reals(gmsh_input *in, const char *what, double *x, size_t n) {
  HDGCL_TRY(gmsh_binary_read(in, what, x, n * sizeof *x));
  for (size_t i = 0; i < n; i++)
    if (!isfinite(x[i])) {
      in->position += (int64_t)(i * sizeof *x);
      return gmsh_binary_error(in, "%s %g is not a finite number", what, x[i]);
    }
  return HDGCL_SUCCESS;
}

int gmsh_binary_end(gmsh_input *in, const char *end) {
  bool eof;
  HDGCL_TRY(gmsh_next_raw_line(in, end, &eof));
  if (eof)
    return gmsh_binary_error(in, "unexpected end of file (expected a newline, then %s)", end);
  if (in->line[0] || in->offset - in->position > 2) /* "\n" or "\r\n" */
    return gmsh_binary_error(in,
                             "%lld more bytes after the binary data, where %s belongs (the "
                             "counts do not match the data?)",
                             (long long)(in->offset - in->position - 1), end);
  return gmsh_expect_line(in, end);
}
