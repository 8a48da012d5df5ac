/* The factorization driver's command line. */
#ifndef HPD_TESTING_FACTOR_DRIVER_OPTIONS_H
#define HPD_TESTING_FACTOR_DRIVER_OPTIONS_H

#include <stddef.h>
#include <stdio.h>

#include "factor_problem.h"
#include "hpdaemon.h"

#define FD_MAX_REPS 100
#define FD_MAX_VARIANTS 3

/* One factorization the table has rows for: LU, or Cholesky of one triangle. */
typedef struct fd_variant {
  fd_factor factor;
  char uplo; /* 'L' or 'U' for Cholesky, '-' for LU */
} fd_variant;

typedef struct fd_options {
  fd_variant variants[FD_MAX_VARIANTS];
  int variant_count;
  int strategies[HPD_STRATEGIES], strategy_count; /* hpd_strategy values, in table order */
  int n, nb, p, q, reps;
  double threshold; /* in force (-t, taken by hpd_parse_args, else the default) */
} fd_options;

/* Returns 0 to run, 1 after -h, -1 with a message in err. */
int fd_parse_options(int argc, char **argv, fd_options *o, char *err, size_t len);
void fd_usage(FILE *out);

#endif
