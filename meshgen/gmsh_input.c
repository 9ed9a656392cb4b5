/* Line-by-line reading of Gmsh files (see gmsh_input.h). */
#include "gmsh_input.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "core/error.h"

gmsh_input gmsh_input_on(FILE *file, const char *path) {
  gmsh_input in = {.file = file, .path = path, .cursor = "", .size = -1};
  /* the size bounds the counts of binary sections before anything is allocated */
  off_t start = file ? ftello(file) : -1;
  if (start >= 0 && fseeko(file, 0, SEEK_END) == 0) {
    off_t end = ftello(file);
    if (fseeko(file, start, SEEK_SET) == 0 && end >= start) in.size = (int64_t)(end - start);
  }
  if (file) clearerr(file);
  return in;
}

int gmsh_input_open(gmsh_input *in, const char *path) {
  *in = gmsh_input_on(NULL, path);
  FILE *file = fopen(path, "rb");
  if (!file) return hdgcl_error(HDGCL_ERROR_IO, "cannot open '%s': %s", path, strerror(errno));
  *in = gmsh_input_on(file, path);
  return HDGCL_SUCCESS;
}

void gmsh_input_close(gmsh_input *in) {
  if (in->file) fclose(in->file);
  free(in->line);
  in->file = NULL;
  in->line = NULL;
}

int gmsh_error(const gmsh_input *in, int status, const char *fmt, ...) {
  char message[768];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(message, sizeof message, fmt, ap);
  va_end(ap);
  if (in->line_no > 0 && in->binary)
    return hdgcl_error(status, "%s: byte %lld: %s", in->path, (long long)in->position, message);
  if (in->line_no > 0) return hdgcl_error(status, "%s:%ld: %s", in->path, in->line_no, message);
  return hdgcl_error(status, "%s: %s", in->path, message);
}

static bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

long gmsh_position(const gmsh_input *in) { return in->binary ? (long)in->position : in->line_no; }

static int next_line(gmsh_input *in, const char *expected, bool *eof, bool raw) {
  if (eof) *eof = false;
  errno = 0;
  ssize_t length = getline(&in->line, &in->capacity, in->file);
  if (length < 0) {
    if (ferror(in->file))
      return gmsh_error(in, HDGCL_ERROR_IO, "read error: %s", strerror(errno ? errno : EIO));
    if (eof) {
      *eof = true;
      return HDGCL_SUCCESS;
    }
    return gmsh_error(in, HDGCL_ERROR_FORMAT, "unexpected end of file (expected %s)", expected);
  }
  in->line_no++;
  in->position = in->offset;
  in->offset += length;
  if ((size_t)length != strlen(in->line)) {
    if (raw)
      length = 0, in->line[0] = '\0';
    else
      return gmsh_error(in, HDGCL_ERROR_FORMAT, "NUL byte in a text line (%s)",
                        in->binary ? "binary data where a text line belongs: a count that does "
                                     "not match the data?"
                                   : "a binary file whose $MeshFormat line says ASCII (file "
                                     "type 0)?");
  }
  while (length > 0 && is_blank(in->line[length - 1])) in->line[--length] = '\0';
  in->cursor = in->line;
  return HDGCL_SUCCESS;
}

int gmsh_next_line(gmsh_input *in, const char *expected, bool *eof) {
  return next_line(in, expected, eof, false);
}

int gmsh_next_raw_line(gmsh_input *in, const char *expected, bool *eof) {
  return next_line(in, expected, eof, true);
}

bool gmsh_line_is(const gmsh_input *in, const char *text) {
  const char *s = in->line;
  while (is_blank(*s)) s++;
  return strcmp(s, text) == 0; /* trailing blanks were stripped by gmsh_next_line */
}

/* The first n characters of s (at most 40, "..." marking a cut) for messages. */
enum { EXCERPT_SIZE = 44 };
static const char *excerpt(const char *s, size_t n, char buf[EXCERPT_SIZE]) {
  if (n <= 40) {
    memcpy(buf, s, n);
    buf[n] = '\0';
  } else {
    memcpy(buf, s, 37);
    memcpy(buf + 37, "...", 4);
  }
  return buf;
}

int gmsh_expect_line(gmsh_input *in, const char *text) {
  HDGCL_TRY(gmsh_next_line(in, text, NULL));
  if (gmsh_line_is(in, text)) return HDGCL_SUCCESS;
  char buf[EXCERPT_SIZE];
  return gmsh_error(in, HDGCL_ERROR_FORMAT, "expected %s, found '%s'%s", text,
                    excerpt(in->line, strlen(in->line), buf),
                    in->line[0] == '$' ? "" : " (more entries than the section declares?)");
}

/* The next token: *start and its length; 0 at the end of the line. */
static size_t next_token(gmsh_input *in, const char **start) {
  const char *s = in->cursor;
  while (is_blank(*s)) s++;
  const char *e = s;
  while (*e && !is_blank(*e)) e++;
  *start = s;
  in->cursor = e;
  return (size_t)(e - s);
}

static int missing_token(const gmsh_input *in, const char *what, const char *token, size_t n) {
  if (n == 0) return gmsh_error(in, HDGCL_ERROR_FORMAT, "missing %s (line ends early)", what);
  char buf[EXCERPT_SIZE];
  return gmsh_error(in, HDGCL_ERROR_FORMAT, "expected %s, found '%s'%s", what,
                    excerpt(token, n, buf),
                    token[0] == '$' ? " (section ends before the count it declares)" : "");
}

int gmsh_int(gmsh_input *in, const char *what, int64_t min, int64_t max, int64_t *value) {
  const char *token;
  size_t n = next_token(in, &token);
  char *end;
  errno = 0;
  long long x = n ? strtoll(token, &end, 10) : 0;
  if (n == 0 || end != token + n) return missing_token(in, what, token, n);
  if (!errno && x >= min && x <= max) {
    *value = x;
    return HDGCL_SUCCESS;
  }
  char buf[EXCERPT_SIZE];
  return gmsh_error(in, HDGCL_ERROR_FORMAT, "%s %s out of range [%lld, %lld]", what,
                    excerpt(token, n, buf), (long long)min, (long long)max);
}

int gmsh_real(gmsh_input *in, const char *what, double *value) {
  const char *token;
  size_t n = next_token(in, &token);
  char *end;
  errno = 0;
  double x = n ? strtod(token, &end) : 0;
  if (n == 0 || end != token + n) return missing_token(in, what, token, n);
  char buf[EXCERPT_SIZE];
  if (!isfinite(x) || (errno == ERANGE && fabs(x) > 1))
    return gmsh_error(in, HDGCL_ERROR_FORMAT, "%s %s is not a finite number", what,
                      excerpt(token, n, buf));
  *value = x;
  return HDGCL_SUCCESS;
}

int gmsh_word(gmsh_input *in, const char *what, char *buf, size_t size) {
  const char *token;
  size_t n = next_token(in, &token);
  if (n == 0) return missing_token(in, what, token, n);
  snprintf(buf, size, "%.*s", (int)n, token);
  return HDGCL_SUCCESS;
}

int gmsh_end_of_line(gmsh_input *in, const char *what) {
  const char *token;
  size_t n = next_token(in, &token);
  if (n == 0) return HDGCL_SUCCESS;
  char buf[EXCERPT_SIZE];
  return gmsh_error(in, HDGCL_ERROR_FORMAT, "unexpected '%s' after %s", excerpt(token, n, buf),
                    what);
}
