/* Convergence rates on the device: observed L2 rates of u and q within 0.2
 * of p+1 and of the postprocessed u* within 0.3 of p+2, for p = 1..8 on
 * helmholtz-sin, and for low orders on the Neumann and kappa-jump problems. */
#include "hdg_test.h"

typedef struct rate_case {
  const char *problem;
  int order;
  int n0; /* coarsest mesh square:n0, then 2 n0, 4 n0 */
} rate_case;

int main(void) {
  hdgcl_context ctx = test_device();
  const rate_case cases[] = {
      {"helmholtz-sin", 1, 8}, {"helmholtz-sin", 2, 8}, {"helmholtz-sin", 3, 4},
      {"helmholtz-sin", 4, 4}, {"helmholtz-sin", 5, 4}, {"helmholtz-sin", 6, 2},
      {"helmholtz-sin", 7, 2}, {"helmholtz-sin", 8, 2}, {"poisson-mixed", 1, 4},
      {"poisson-mixed", 2, 4}, {"poisson-mixed", 4, 2}, {"kappa-jump", 1, 4},
      {"kappa-jump", 3, 2}};
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    const rate_case *rc = &cases[c];
    double e[3][3], h[3];
    int ok = 1;
    char order[8];
    snprintf(order, sizeof order, "%d", rc->order);
    for (int level = 0; level < 3; level++) {
      char mesh[64];
      snprintf(mesh, sizeof mesh, "square:%d", rc->n0 << level);
      solved s = solve_with(ctx, mesh, "problem", rc->problem, "order", order, "rtol", "1e-14",
                            NULL);
      if (s.status) {
        ok = 0;
        check_failures++;
        solved_destroy(&s);
        break;
      }
      e[level][0] = s.result->l2_u;
      e[level][1] = s.result->l2_q;
      e[level][2] = s.result->l2_ustar;
      h[level] = s.result->h;
      solved_destroy(&s);
    }
    if (!ok) continue;
    int p = rc->order;
    double rate[3];
    for (int k = 0; k < 3; k++) rate[k] = log(e[1][k] / e[2][k]) / log(h[1] / h[2]);
    printf("%-14s p=%d square:%d..%d  rates u %.2f q %.2f u* %.2f  (finest %.2e %.2e %.2e)\n",
           rc->problem, p, rc->n0, rc->n0 * 4, rate[0], rate[1], rate[2], e[2][0], e[2][1], e[2][2]);
    CHECK_MSG(fabs(rate[0] - (p + 1)) <= 0.2, "%s p=%d: u rate %.2f", rc->problem, p, rate[0]);
    CHECK_MSG(fabs(rate[1] - (p + 1)) <= 0.2, "%s p=%d: q rate %.2f", rc->problem, p, rate[1]);
    CHECK_MSG(fabs(rate[2] - (p + 2)) <= 0.3, "%s p=%d: u* rate %.2f", rc->problem, p, rate[2]);
  }
  hdgcl_context_destroy(&ctx);
  CHECK_DONE();
}
