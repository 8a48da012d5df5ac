#ifndef HPD_POLL_H
#define HPD_POLL_H

/*
 * How a long local multiply is cut so that messages in flight keep moving: MPI moves
 * them only inside MPI calls, so the multiply runs in strips of columns with a poll
 * between two strips.
 */

#include <stdint.h>

/* Operations between two polls: a few milliseconds of a core's multiply, short against
 * a chunk's time on a network link. */
#define HPD_POLL_FLOPS 1.5e8

/* The narrowest strip.  Each strip is one BLAS call, which packs the operand that every
 * strip shares (the panel) again: below about 256 columns that repacking costs 5 to 13%
 * of the multiply, more than the polls it allows win on a link. */
#define HPD_POLL_MIN_STRIP 256

/* Columns per strip for columns columns of flops_per_column operations each, polled every
 * poll_flops operations (HPD_POLL_FLOPS but in tests): all of them where they fit. */
static inline int64_t hpd_poll_strip(double poll_flops, double flops_per_column,
                                     int64_t columns)
{
  double fit = flops_per_column > 0.0 ? poll_flops / flops_per_column : (double)columns;
  if (fit >= (double)columns)
    return columns > 0 ? columns : 1;
  return fit < HPD_POLL_MIN_STRIP ? HPD_POLL_MIN_STRIP : (int64_t)fit;
}

#endif
