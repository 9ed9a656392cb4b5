/* Options database: parsing forms, typed getters, range and unknown-key errors. */
#include <string.h>

#include "check.h"
#include "hdgcl/options.h"

int main(void) {
  hdgcl_options o = NULL;
  CHECK_OK(hdgcl_options_create(&o));
  char *argv[] = {"prog", "--order", "3", "--tau=2.5", "--no-cache", "--precond", "jacobi",
                  "--flag"};
  CHECK_OK(hdgcl_options_parse(o, 8, argv, 1));
  int p;
  CHECK_OK(hdgcl_options_get_int(o, "order", 1, 0, 10, &p));
  CHECK(p == 3);
  double tau;
  CHECK_OK(hdgcl_options_get_real(o, "tau", 1.0, 0.0, 1e300, &tau));
  CHECK(tau == 2.5);
  bool nc, fl, absent;
  CHECK_OK(hdgcl_options_get_bool(o, "no-cache", false, &nc));
  CHECK(nc);
  CHECK_OK(hdgcl_options_get_bool(o, "flag", false, &fl));
  CHECK(fl);
  CHECK_OK(hdgcl_options_get_bool(o, "absent", false, &absent));
  CHECK(!absent);
  const char *const choices[] = {"none", "jacobi", "block-jacobi", NULL};
  int c;
  CHECK_OK(hdgcl_options_get_choice(o, "precond", choices, 0, &c));
  CHECK(c == 1);
  CHECK_OK(hdgcl_options_check_unused(o));

  /* Errors name the option and the value. */
  CHECK_OK(hdgcl_options_set(o, "order", "11"));
  CHECK_FAILS(hdgcl_options_get_int(o, "order", 1, 0, 10, &p), HDGCL_ERROR_ARGUMENT);
  CHECK(strstr(hdgcl_last_error(), "--order 11") != NULL);
  CHECK_OK(hdgcl_options_set(o, "order", "3x"));
  CHECK_FAILS(hdgcl_options_get_int(o, "order", 1, 0, 10, &p), HDGCL_ERROR_ARGUMENT);
  CHECK_OK(hdgcl_options_set(o, "tau", "nan"));
  CHECK_FAILS(hdgcl_options_get_real(o, "tau", 1, 0, 1e300, &tau), HDGCL_ERROR_ARGUMENT);
  CHECK_OK(hdgcl_options_set(o, "precond", "ilu"));
  CHECK_FAILS(hdgcl_options_get_choice(o, "precond", choices, 0, &c), HDGCL_ERROR_ARGUMENT);
  CHECK(strstr(hdgcl_last_error(), "none|jacobi|block-jacobi") != NULL);
  CHECK_OK(hdgcl_options_set(o, "ordr", "2"));
  CHECK_FAILS(hdgcl_options_check_unused(o), HDGCL_ERROR_ARGUMENT);
  CHECK(strstr(hdgcl_last_error(), "--ordr") != NULL);

  char *bad[] = {"prog", "stray"};
  CHECK_FAILS(hdgcl_options_parse(o, 2, bad, 1), HDGCL_ERROR_ARGUMENT);
  CHECK_OK(hdgcl_options_destroy(&o));
  CHECK(o == NULL);
  CHECK_DONE();
}
