/*
 * The first calls of a size, against the reference (`--first-calls` of bench_pdgemm,
 * bench_level3 and bench_factor; timing/run_cluster.sh --quick gathers them).
 *
 * hpdaemon's first calls of a class size its buffers and tune its broadcasts, and its
 * dispatch decides the class's route from them (dispatch.h), so an application that makes
 * a few calls of a size sees other figures than the steady state.  A process times
 * the first and second calls of ONE side cold (`hpd` or `ref`): the other side's calls
 * would warm what the two share (the reference runs inside hpdaemon's calibration, the
 * heap, BLACS's buffers), so the reference's cold calls come from a process of their
 * own, and run_cluster.sh runs the two processes back to back, alternating which goes
 * first.  Both start alike: an 8 MiB exchange each way and a small local dgemm warm the
 * MPI connection and the BLAS, which neither side owns.  After its two calls a process
 * times the other side's first call (in the CSV: how much the cold side warmed it).  The
 * `hpd` process then calls hpdaemon until two calls in a row take the same route, and
 * times rounds of one call per side, alternating which goes first; their per-round
 * ratio is the steady state.  Every time is the slowest rank's, from a barrier.
 */
#ifndef HPD_SUPPORT_BENCH_FIRST_H
#define HPD_SUPPORT_BENCH_FIRST_H

#include <stdio.h>

/* One collective call of the row's problem, through the reference when reference is
 * nonzero (hpd_set_disable(1)), else through hpdaemon: the slowest rank's seconds from a
 * barrier before it. */
typedef double (*bench_first_call)(void *problem, int reference);

typedef struct bench_first_row {
  const char *routine; /* "pdgemm", ... */
  const char *letters; /* the routine's letters: "NN", "LLNU", "L", ... */
  int n, nb, p, q;
} bench_first_row;

/* Route words (bench_first_timed) fit this many bytes. */
#define BENCH_FIRST_WORD 32

/* What neither side owns, warmed before a process's first timed call (see above). */
void bench_first_warm(void);

/* One call timed; through hpdaemon, its route word (E, R, L, F, or served/reached) goes
 * into word, "-" for the reference. */
double bench_first_timed(bench_first_call call, void *problem, int reference, char *word);

/* "hpd" or "ref" into *reference (0 or 1); 0, or -1 for anything else. */
int bench_first_parse(const char *text, int *reference);

/* The usage line of the option, for the programs' help. */
extern const char bench_first_usage[];

/* -r's rounds against the option: 0 rounds (no settling, no steady state) only where the
 * first calls are timed (reference >= 0, as bench_first_parse leaves it, -1 without
 * the option).  0, or -1 with the reason in err. */
int bench_first_rounds_check(int reference, int rounds, char *err, size_t errlen);

/* Runs the protocol above (collective), the cold side being the reference when
 * reference is nonzero; rank 0 prints one line and appends one row to csv_path (NULL:
 * none), and each of the first three calls' figure on standard error as it ends (a
 * simulated call of a large order runs for hours).  Leaves hpdaemon enabled. */
void bench_first_run(const bench_first_row *row, int reference, int rounds,
                     bench_first_call call, void *problem, const char *csv_path);

#endif
