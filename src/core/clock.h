#ifndef HPD_CORE_CLOCK_H
#define HPD_CORE_CLOCK_H

#include <time.h>

/* Wall seconds on a monotonic clock; usable before MPI_Init and after MPI_Finalize. */
static inline double hpd_now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#endif
