/* What a trace solve reports to its caller: the outcome and counters of the
 * solve stage, and each relative residual through a callback. */
#ifndef HDGCL_HOST_SOLVE_STATS_H
#define HDGCL_HOST_SOLVE_STATS_H

typedef struct solve_stats {
  int iterations;
  double residual;         /* ||r|| / ||b|| at the end */
  double precond_seconds;  /* preconditioner setup */
  double eig_min, eig_max; /* Chebyshev's eigenvalue interval (0: none) */
  double flops, bytes;     /* work of the stage, counted from the algorithms */
} solve_stats;

/* Receives the relative residual after each iteration (the first is 1);
 * record NULL: none is kept. */
typedef struct residual_history {
  int (*record)(void *owner, double relres);
  void *owner;
} residual_history;

#endif
