#include "energy_driver_check.h"

#include <mpi.h>
#include <stdio.h>

#include "hpdaemon.h"
#include "scalapack.h"

/* Enough to see what went wrong without burying the table under repeats. */
#define FAILURES_SHOWN 5

static struct {
  uint64_t calls, failures;
  int ngrp_max;
} seen;

void ed_check_begin_run(void)
{
  seen.ngrp_max = 0;
}

int ed_check_ngrp_max(void)
{
  return seen.ngrp_max;
}

uint64_t ed_check_calls(void)
{
  return seen.calls;
}

uint64_t ed_check_failures(void)
{
  return seen.failures;
}

long ed_expected_switches(int strategy, int steps, int ngrp)
{
  switch (strategy) {
  case HPD_STRATEGY_BASIC:
    return 2L * steps;
  case HPD_STRATEGY_DAEMON:
    return ngrp > 0 ? 2L * ((steps + ngrp - 1) / ngrp) : -1;
  default:
    return 0;
  }
}

static void report_failure(const char *what, long got, long want, const hpd_routine_stats *s)
{
  if (++seen.failures > FAILURES_SHOWN)
    return;
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  fprintf(stderr,
          "energy_driver: rank %d: engine call %llu: %s is %ld, expected %ld "
          "(strategy %s, steps %d, N_grp %d)\n",
          rank, (unsigned long long)seen.calls, what, got, want,
          hpd_strategy_name(s->strategy_last), s->steps_last, s->ngrp_last);
}

/* Checks one engine call from the statistics before and after it.  A call with nothing to
 * multiply returns before the panel loop and leaves the per-call figures of the previous
 * call in place: for it only the running totals say that no switch was asked for. */
static void check_call(int strategy, int trivial, const hpd_routine_stats *before,
                       const hpd_routine_stats *after)
{
  seen.calls++;
  long held = (long)(after->dvfs_held - before->dvfs_held);
  long requested = (long)(after->dvfs_switches - before->dvfs_switches) +
                   (long)(after->dvfs_skipped - before->dvfs_skipped) + held;
  if (trivial) {
    if (requested != 0)
      report_failure("switches of a call with nothing to multiply", requested, 0, after);
    return;
  }
  if (after->ngrp_last > seen.ngrp_max)
    seen.ngrp_max = after->ngrp_last;
  /* auto runs daemon or overlap, and each call then keeps that schedule's identity. */
  int took_a_schedule = after->strategy_last == HPD_STRATEGY_DAEMON ||
                        after->strategy_last == HPD_STRATEGY_OVERLAP;
  if (strategy == HPD_STRATEGY_AUTO && took_a_schedule)
    strategy = after->strategy_last;
  if (after->strategy_last != strategy)
    report_failure("the strategy recorded", after->strategy_last, strategy, after);
  long want = ed_expected_switches(strategy, after->steps_last, after->ngrp_last);
  if ((long)after->switches_last != want)
    report_failure("switches + skipped + held", (long)after->switches_last, want, after);
  /* The switch rule is daemon's alone: basic is the paper's baseline. */
  if (strategy != HPD_STRATEGY_DAEMON && held != 0)
    report_failure("requests held back outside daemon", held, 0, after);
  /* The per-call figure and the running totals are kept apart; they must agree. */
  if (requested != (long)after->switches_last)
    report_failure("the change of the switch totals", requested, (long)after->switches_last,
                   after);
}

/* Checks the call of routine just made, from the statistics taken before it. */
static void check_served(hpd_routine routine, int strategy, int trivial, const hpd_stats *before)
{
  hpd_stats after;
  hpd_get_stats(&after);
  const hpd_routine_stats *was = &before->routine[routine], *is = &after.routine[routine];
  if (is->engine_calls == was->engine_calls)
    return; /* the reference served it: no strategy applies */
  check_call(strategy, trivial, was, is);
}

void pdgemm_(const char *transa, const char *transb, const int *m, const int *n, const int *k,
             const double *alpha, const double *a, const int *ia, const int *ja,
             const int *desca, const double *b, const int *ib, const int *jb,
             const int *descb, const double *beta, double *c, const int *ic, const int *jc,
             const int *descc)
{
  hpd_stats before;
  int strategy = hpd_get_strategy();
  hpd_get_stats(&before);
  hpd_pdgemm(*transa, *transb, *m, *n, *k, *alpha, a, *ia, *ja, desca, b, *ib, *jb, descb,
             *beta, c, *ic, *jc, descc);
  check_served(HPD_ROUTINE_PDGEMM, strategy, *m == 0 || *n == 0 || *k == 0 || *alpha == 0.0,
               &before);
}

void pdsyrk_(const char *uplo, const char *trans, const int *n, const int *k,
             const double *alpha, const double *a, const int *ia, const int *ja,
             const int *desca, const double *beta, double *c, const int *ic, const int *jc,
             const int *descc)
{
  hpd_stats before;
  int strategy = hpd_get_strategy();
  hpd_get_stats(&before);
  hpd_pdsyrk(*uplo, *trans, *n, *k, *alpha, a, *ia, *ja, desca, *beta, c, *ic, *jc, descc);
  check_served(HPD_ROUTINE_PDSYRK, strategy, *n == 0 || *k == 0 || *alpha == 0.0, &before);
}

/* The factorizations' solves are single diagonal blocks, each served in one step on its
 * line of the grid (src/level3/line.c): one identity per call, as for pdgemm_. */
void pdtrsm_(const char *side, const char *uplo, const char *transa, const char *diag,
             const int *m, const int *n, const double *alpha, const double *a, const int *ia,
             const int *ja, const int *desca, double *b, const int *ib, const int *jb,
             const int *descb)
{
  hpd_stats before;
  int strategy = hpd_get_strategy();
  hpd_get_stats(&before);
  hpd_pdtrsm(*side, *uplo, *transa, *diag, *m, *n, *alpha, a, *ia, *ja, desca, b, *ib, *jb,
             descb);
  check_served(HPD_ROUTINE_PDTRSM, strategy, *m == 0 || *n == 0 || *alpha == 0.0, &before);
}

/* Cholesky's lower factor on one process row is served whole, with a look-ahead: one
 * broadcast step per panel, every one waited for (src/factor/chol.c), so the call keeps
 * the identity of one panel per group. */
void pdpotrf_(const char *uplo, const int *n, double *a, const int *ia, const int *ja,
              const int *desca, int *info)
{
  hpd_stats before;
  int strategy = hpd_get_strategy();
  hpd_get_stats(&before);
  hpd_pdpotrf(*uplo, *n, a, *ia, *ja, desca, info);
  check_served(HPD_ROUTINE_PDPOTRF, strategy, *n == 0, &before);
}

/* LU on one process row is served whole, with a look-ahead, as Cholesky is above. */
void pdgetrf_(const int *m, const int *n, double *a, const int *ia, const int *ja,
              const int *desca, int *ipiv, int *info)
{
  hpd_stats before;
  int strategy = hpd_get_strategy();
  hpd_get_stats(&before);
  hpd_pdgetrf(*m, *n, a, *ia, *ja, desca, ipiv, info);
  check_served(HPD_ROUTINE_PDGETRF, strategy, *m == 0 || *n == 0, &before);
}
