/* Minimal test helpers: each CHECK that fails prints file:line and the
 * expression, and the test's exit status is the number of failures. */
#ifndef HDGCL_TESTS_CHECK_H
#define HDGCL_TESTS_CHECK_H

#include <math.h>
#include <stdio.h>

#include "hdgcl/status.h"

static int check_failures = 0;

#define CHECK(cond)                                                                              \
  do {                                                                                           \
    if (!(cond)) {                                                                               \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);                   \
      check_failures++;                                                                          \
    }                                                                                            \
  } while (0)

#define CHECK_MSG(cond, ...)                                                                     \
  do {                                                                                           \
    if (!(cond)) {                                                                               \
      fprintf(stderr, "%s:%d: CHECK failed: %s: ", __FILE__, __LINE__, #cond);                   \
      fprintf(stderr, __VA_ARGS__);                                                              \
      fputc('\n', stderr);                                                                       \
      check_failures++;                                                                          \
    }                                                                                            \
  } while (0)

/* A call returning an hdgcl status that must succeed. */
#define CHECK_OK(call)                                                                           \
  do {                                                                                           \
    int check_status_ = (call);                                                                  \
    if (check_status_ != HDGCL_SUCCESS) {                                                        \
      fprintf(stderr, "%s:%d: %s returned %s: %s\n", __FILE__, __LINE__, #call,                  \
              hdgcl_status_name(check_status_), hdgcl_last_error());                             \
      check_failures++;                                                                          \
    }                                                                                            \
  } while (0)

/* A call that must fail with the given status. */
#define CHECK_FAILS(call, status)                                                                \
  do {                                                                                           \
    int check_status_ = (call);                                                                  \
    if (check_status_ != (status)) {                                                             \
      fprintf(stderr, "%s:%d: %s returned %s, expected %s (%s)\n", __FILE__, __LINE__, #call,    \
              hdgcl_status_name(check_status_), hdgcl_status_name(status), hdgcl_last_error());   \
      check_failures++;                                                                          \
    }                                                                                            \
  } while (0)

#define CHECK_NEAR(a, b, tol)                                                                    \
  do {                                                                                           \
    double check_a_ = (a), check_b_ = (b);                                                       \
    if (!(fabs(check_a_ - check_b_) <= (tol))) {                                                 \
      fprintf(stderr, "%s:%d: CHECK_NEAR failed: %s = %.17g, %s = %.17g, tol %g\n", __FILE__,    \
              __LINE__, #a, check_a_, #b, check_b_, (double)(tol));                              \
      check_failures++;                                                                          \
    }                                                                                            \
  } while (0)

#define CHECK_DONE()                                                                             \
  do {                                                                                           \
    if (check_failures) fprintf(stderr, "%d check(s) failed\n", check_failures);                 \
    return check_failures ? 1 : 0;                                                               \
  } while (0)

#endif
