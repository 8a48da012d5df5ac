/*
 * One timed factorization and what hpdaemon says about it: the calls of pdgemm_, pdsyrk_,
 * pdpotrf_ and pdgetrf_ that reached it and those its engine served, the frequency switches, and the
 * energy of all ranks.  Shared by the factorization driver and benchmark.
 *
 * The switch requests (switches + skipped + held) are checked against the strategy on
 * every rank, from the broadcast steps of the whole factorization: none asks for none,
 * basic for exactly 2 per step and holds none back, daemon for 2 per group, so an even
 * number from 2 (one group in all) to 2 per step.  Per call the identity is exact
 * (testing/dvfs_job.c checks it so); over a factorization the groups per call are not
 * known here, hence the range.
 */
#ifndef HPD_SUPPORT_FACTOR_MEASURE_H
#define HPD_SUPPORT_FACTOR_MEASURE_H

#include <stdint.h>

#include "factor_problem.h"

/* The routines counted: [0] pdgemm, [1] pdsyrk, [2] pdpotrf, [3] pdgetrf (the last two
 * served whole on one process row, where their updates then make no pdsyrk_ or pdgemm_
 * call). */
#define FD_ROUTINES 4

typedef struct fd_run {
  double time_s;        /* from a common barrier to the slowest rank's end */
  uint64_t calls[FD_ROUTINES];  /* calls that reached hpdaemon, most of any rank */
  uint64_t engine[FD_ROUTINES]; /* of those, served by the engine: fewest of any rank */
  uint64_t switches;    /* frequency switches made, most of any rank */
  uint64_t skipped;     /* switches asked for the frequency already set, most of any rank */
  uint64_t held;        /* requests daemon's switch rule held back (HPD_SWITCH_MIN_MS), most
                           of any rank */
  int identity_ok;      /* the requests fit the strategy on every rank (above) */
  double energy_j;      /* all ranks together, in the job's source (fd_energy_source) */
  double cpu_s;         /* all ranks together */
  int info;             /* the first nonzero info of any rank, else 0 */
} fd_run;

/* Collective: regenerates the matrix (untimed), then factors it with the strategy and
 * disable setting in force. */
void fd_measure(fd_problem *pb, const fd_grid *g, fd_run *out);

/* hpd_energy_source of the job: none before the first engine call sets it up. */
int fd_energy_source(void);

#endif
