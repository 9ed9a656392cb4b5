/* Options database: parsing forms, typed getters, range and unknown-key errors. */
#include <string.h>

#include "check.h"
#include "hdgcl/options.h"
#include "hdgcl/solver.h"

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

  /* The solver's vocabulary has the Krylov options; a misspelt one is rejected. */
  const char *const wanted[] = {"solver", "precond", "restart", "flexible", "cheb-degree",
                                "cheb-inner", NULL};
  for (int i = 0; wanted[i]; i++) {
    bool found = false;
    for (int k = 0; hdgcl_solver_options[k]; k++) found |= strcmp(hdgcl_solver_options[k], wanted[i]) == 0;
    CHECK_MSG(found, "solver option %s missing", wanted[i]);
  }
  hdgcl_options k = NULL;
  CHECK_OK(hdgcl_options_create(&k));
  CHECK_OK(hdgcl_options_set(k, "solver", "gmres"));
  const char *const *const lists[] = {hdgcl_solver_options, NULL};
  CHECK_OK(hdgcl_options_check_known(k, lists));
  CHECK_OK(hdgcl_options_set(k, "solvr", "gmres"));
  CHECK_FAILS(hdgcl_options_check_known(k, lists), HDGCL_ERROR_ARGUMENT);
  CHECK(strstr(hdgcl_last_error(), "--solvr") != NULL);
  CHECK_OK(hdgcl_options_destroy(&k));

  char *bad[] = {"prog", "stray"};
  CHECK_FAILS(hdgcl_options_parse(o, 2, bad, 1), HDGCL_ERROR_ARGUMENT);
  CHECK_OK(hdgcl_options_destroy(&o));
  CHECK(o == NULL);
  CHECK_DONE();
}
