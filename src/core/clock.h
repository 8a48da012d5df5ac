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

/* CPU seconds this thread has used, user and system: what a wait costs in energy where
 * no meter is available.  The thread's clock, not the process's, so that BLAS threads
 * busy elsewhere do not count. */
static inline double hpd_cpu_now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#endif
