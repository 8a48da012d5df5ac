/* The factorization driver's table: one row per factorization and strategy. */
#ifndef HPD_TESTING_FACTOR_DRIVER_TABLE_H
#define HPD_TESTING_FACTOR_DRIVER_TABLE_H

#include <stdint.h>

#include "factor_measure.h"
#include "factor_driver_options.h"
#include "factor_residual.h"

typedef struct fd_row {
  fd_variant variant;
  int strategy;
  int runs;
  double time_s[FD_MAX_REPS], energy_j[FD_MAX_REPS];
  uint64_t calls[FD_ROUTINES], engine[FD_ROUTINES], switches, skipped, held; /* summed over runs */
  int info;            /* the first nonzero info of any run */
  int identity_ok;     /* the switch requests fit the strategy in every run */
  fd_residual worst;   /* over runs */
} fd_row;

void fd_row_init(fd_row *row, fd_variant variant, int strategy);
void fd_row_add(fd_row *row, const fd_run *run, const fd_residual *resid);
/* Residuals within the threshold, guards intact, info 0 and the switch requests fitting
 * the strategy in every run. */
int fd_row_passes(const fd_row *row);

/* Rank 0 only. */
void fd_print_header(const fd_options *o, int ranks);
void fd_print_row(const fd_row *row, int source);

#endif
