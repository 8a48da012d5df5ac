/*
 * Calls of several orders in turn (`--interleave` of bench_pdgemm, bench_factor and
 * bench_level3; timing/run_interleave.sh): an application seldom repeats one size, and what hpdaemon
 * keeps from call to call (its buffers, tuned chunks, routes) must serve a program that
 * alternates sizes as well as one that repeats them.  A fresh process warms what neither
 * side owns (bench_first.h), then makes rounds of one call of each order in turn, all
 * through ONE side (`hpd` or `ref`), and times every call from a barrier (the slowest
 * rank's).  The two sides run in processes of their own, as the first calls do;
 * run_interleave.sh pairs them and prints the ratio call by call.
 */
#ifndef HPD_SUPPORT_BENCH_INTERLEAVE_H
#define HPD_SUPPORT_BENCH_INTERLEAVE_H

#include <stddef.h>

#include "bench_first.h"

typedef struct bench_interleave_row {
  const char *routine; /* "pdgemm", ... */
  const char *letters; /* the routine's letters */
  int nb, p, q;
} bench_interleave_row;

/* The usage lines of the option, for the programs' help. */
extern const char bench_interleave_usage[];

/* The option against the others: reference as bench_first_parse leaves it (-1 without
 * the option), first likewise for --first-calls, orders and blocks the counts of -n's and
 * -b's values, rounds -r's.  0, or -1 with the reason in err. */
int bench_interleave_check(int reference, int first, int orders, int blocks, int rounds,
                           char *err, size_t errlen);

/* Runs the protocol above (collective): rounds of one call of each of count orders,
 * problems[i] holding orders[i]'s, through the reference when reference is nonzero.
 * Rank 0 prints one line and appends one CSV row per call to csv_path (NULL: none).
 * Leaves hpdaemon enabled. */
void bench_interleave_run(const bench_interleave_row *row, int reference, int rounds,
                          int count, const int *orders, bench_first_call call,
                          void *const *problems, const char *csv_path);

#endif
