/* The download into pinned host memory (core/pinned.c, hdg_solution_pin;
 * HDGCL_PINNED=on|off, default on GPUs only): the same u, q, u* bit for bit
 * as into malloc'd memory, over two solves of one solver (the mapping stays),
 * and a bad value of the variable is refused. */
#include "hdg_test.h"

static void compare(const char *mesh, const char *problem, const char *order) {
  hdgcl_context ctx = test_device();
  solved a = solve_with_env(ctx, "HDGCL_PINNED", "off", mesh, problem, order, NULL);
  solved b = solve_with_env(ctx, "HDGCL_PINNED", "on", mesh, problem, order, NULL);
  CHECK_MSG(!a.status && !b.status, "%s %s p=%s", mesh, problem, order);
  if (!a.status && !b.status) {
    CHECK_OK(hdgcl_solver_solve(b.solver)); /* again into the same mapped arrays */
    const double *ua, *qa, *sa, *ub, *qb, *sb;
    CHECK_OK(hdgcl_solver_solution(a.solver, &ua, &qa, &sa, NULL));
    CHECK_OK(hdgcl_solver_solution(b.solver, &ub, &qb, &sb, NULL));
    const hdgcl_result *r = a.result;
    size_t ne = (size_t)r->num_elements;
    size_t np = (size_t)r->element_dofs / 3 / ne; /* 2D scalar: (1 + dim) np per element */
    CHECK_MSG(memcmp(ua, ub, ne * np * 8) == 0, "%s: u differs", mesh);
    CHECK_MSG(memcmp(qa, qb, ne * 2 * np * 8) == 0, "%s: q differs", mesh);
    CHECK_MSG(memcmp(sa, sb, ne * np * 8) == 0, "%s: u* differs", mesh); /* np1 > np values */
    CHECK_MSG(b.result->l2_u == r->l2_u && b.result->l2_ustar == r->l2_ustar,
              "%s: errors differ (%.6e, %.6e)", mesh, b.result->l2_u, r->l2_u);
    printf("%s %s p=%s: pinned and malloc'd downloads equal (L2(u) %.3e)\n", mesh, problem, order,
           r->l2_u);
  }
  solved_destroy(&a);
  solved_destroy(&b);
  solved c = solve_with_env(ctx, "HDGCL_PINNED", "maybe", mesh, problem, order, NULL);
  CHECK_MSG(c.status == HDGCL_ERROR_ARGUMENT && strstr(hdgcl_last_error(), "HDGCL_PINNED"),
            "HDGCL_PINNED=maybe: status %d", c.status);
  solved_destroy(&c);
  hdgcl_context_destroy(&ctx);
}

int main(void) {
  compare("square:4", "helmholtz-sin", "3");
  CHECK_DONE();
}
