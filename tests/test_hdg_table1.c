/* Paper 000 Table 1 on the 40x40 mesh (helmholtz-sin, tau = 1), p = 1..9.
 * The paper's errors grow again from p = 6 (1.4e-8 up to 1.2e-7 at p = 9).
 * Ours must decrease with p until they reach the round-off floor of the trace
 * system (eps * cond(K): a few 1e-11 here, independent of the CG tolerance)
 * and stay under it: no growth. */
#include "hdg_test.h"

#define ROUNDOFF_FLOOR 5e-11

int main(void) {
  hdgcl_context ctx = test_device();
  double prev = INFINITY;
  printf("order  L2(u)        Linf(u)      L2(u*)       iterations\n");
  for (int p = 1; p <= 9; p++) {
    char order[8];
    snprintf(order, sizeof order, "%d", p);
    solved s = solve_with(ctx, "square:40", "problem", "helmholtz-sin", "order", order, "rtol",
                          "1e-14", "maxit", "100000", NULL);
    CHECK(s.status == 0);
    if (s.status) break;
    double e = s.result->l2_u;
    printf("%5d  %.5e  %.5e  %.5e  %d\n", p, e, s.result->linf_u, s.result->l2_ustar,
           s.result->iterations);
    CHECK_MSG(e < prev || e < ROUNDOFF_FLOOR, "p=%d: L2 error %.3e grows (p-1: %.3e)", p, e, prev);
    CHECK_MSG(p < 6 || e < ROUNDOFF_FLOOR, "p=%d: L2 error %.3e above the round-off floor", p, e);
    prev = e;
    solved_destroy(&s);
  }
  hdgcl_context_destroy(&ctx);
  CHECK_DONE();
}
