/*
 * Preloaded into the simulator where the computation between MPI calls takes no simulated
 * time (scripts/simulate's correctness and timing modes): SMPI still reads the thread's
 * CPU clock on entering and leaving every MPI call, to time that computation, and there
 * it never uses the figure.  The read is a system call, and on a virtual machine a costly
 * one: it was half of a timing-mode run's CPU here (LU on 4x4 simulated ranks, order 4096:
 * 38.2 s of the simulator's CPU, 14.2 s with this, the same simulated times to the last
 * digit).  Here a CPU clock reads the monotonic clock, which the C library answers without
 * entering the kernel.  Nothing else of a simulated run reads those clocks: the programs'
 * own clock calls reach the simulator's clock (smpicc's macros).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <time.h>

int clock_gettime(clockid_t clock, struct timespec *out)
{
  static int (*libc_clock_gettime)(clockid_t, struct timespec *);
  if (!libc_clock_gettime)
    *(void **)&libc_clock_gettime = dlsym(RTLD_NEXT, "clock_gettime");
  if (clock == CLOCK_THREAD_CPUTIME_ID || clock == CLOCK_PROCESS_CPUTIME_ID)
    clock = CLOCK_MONOTONIC;
  return libc_clock_gettime(clock, out);
}
