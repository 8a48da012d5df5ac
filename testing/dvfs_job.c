/*
 * A pdgemm job for the DVFS tests, on 1 or 2 ranks:
 *   dvfs_job -n N -b NB -p P -q Q [--calls K] [--ngrp LIST] [--strategy LIST]
 *            [--crash none|segv|term|int|abrt|abort|kill] [--trace] [--expect-backend NAME]
 *            [--expect-applied 0|1] [--expect-held never|all-but-first]
 *            [--after-call COMMAND]
 * Every call is checked against the reference pdgemm on the same inputs, and its switch
 * requests (switches + skipped + held) against the strategy's identity, worked out here
 * from steps_last and ngrp_last rather than by the library's own helpers, so that a
 * wrong helper cannot agree with itself.  Only daemon may hold requests back
 * (HPD_SWITCH_MIN_MS); basic and none never do.  --expect-held pins what the switch rule
 * must do under daemon: never hold (the paper's sequence, HPD_SWITCH_MIN_MS=0), or hold
 * every group but the first one of the job's first call that broadcasts, which has no
 * broadcast rate yet to predict from (a minimum no group can reach).  LIST is comma-separated: call i takes ngrp[i % #ngrp] and
 * strategy[(i / #ngrp) % #strategy], so one job covers every pair; without the option
 * the environment's HPD_NGRP and HPD_STRATEGY stay in force.  --trace checks the
 * sim backend's record call by call and prints rank 0's.  --after-call runs COMMAND on
 * rank 0 between calls, when every rank has finished the call (DVFS_JOB_CALL holds its
 * index); it failing fails the job, which lets a test look at the frequency tree
 * mid-run.  --crash ends the job after the first call the way that is named, on one
 * rank (see crash()).
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <mpi.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hpdaemon.h"
#include "dist_data.h"
#include "scalapack.h"

#define MAX_LIST 16

typedef struct options {
  int n, nb, p, q, calls;
  int ngrp[MAX_LIST], ngrps;
  hpd_strategy strategy[MAX_LIST];
  int strategies;
  const char *crash, *expect_backend, *after_call;
  int trace, expect_applied;
  enum { HELD_ANY, HELD_NEVER, HELD_ALL_BUT_FIRST } expect_held;
} options;

static int rank, failures;

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void fail(const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "dvfs_job: rank %d: ", rank);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  failures++;
}

static void expect(long got, long want, const char *what)
{
  if (got != want)
    fail("%s is %ld, expected %ld", what, got, want);
}

static int parse_strategy(const char *name, hpd_strategy *out)
{
  for (int s = 0; s < HPD_STRATEGIES; s++)
    if (strcmp(name, hpd_strategy_name(s)) == 0) {
      *out = (hpd_strategy)s;
      return 0;
    }
  return -1;
}

/* Splits a comma list; returns its length, or -1 on a bad entry. */
static int parse_list(const char *text, int *ints, hpd_strategy *strategies)
{
  char copy[256];
  snprintf(copy, sizeof copy, "%s", text);
  int count = 0;
  for (char *save, *item = strtok_r(copy, ",", &save); item;
       item = strtok_r(NULL, ",", &save)) {
    if (count == MAX_LIST)
      return -1;
    if (ints) {
      char *end;
      long v = strtol(item, &end, 10);
      if (*end || v < 0)
        return -1;
      ints[count++] = (int)v;
    } else if (parse_strategy(item, &strategies[count++]) != 0) {
      return -1;
    }
  }
  return count ? count : -1;
}

static int parse_options(int argc, char **argv, options *o)
{
  *o = (options){.n = 256, .nb = 32, .p = 1, .q = 1, .calls = 1, .crash = "none",
                 .expect_applied = -1};
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    int used = 1;
    if (!strcmp(a, "--trace"))
      o->trace = 1, used = 0;
    else if (!v)
      return -1;
    else if (!strcmp(a, "-n"))
      o->n = atoi(v);
    else if (!strcmp(a, "-b"))
      o->nb = atoi(v);
    else if (!strcmp(a, "-p"))
      o->p = atoi(v);
    else if (!strcmp(a, "-q"))
      o->q = atoi(v);
    else if (!strcmp(a, "--calls"))
      o->calls = atoi(v);
    else if (!strcmp(a, "--ngrp"))
      o->ngrps = parse_list(v, o->ngrp, NULL);
    else if (!strcmp(a, "--strategy"))
      o->strategies = parse_list(v, NULL, o->strategy);
    else if (!strcmp(a, "--crash"))
      o->crash = v;
    else if (!strcmp(a, "--expect-backend"))
      o->expect_backend = v;
    else if (!strcmp(a, "--expect-applied"))
      o->expect_applied = atoi(v);
    else if (!strcmp(a, "--after-call"))
      o->after_call = v;
    else if (!strcmp(a, "--expect-held") && !strcmp(v, "never"))
      o->expect_held = HELD_NEVER;
    else if (!strcmp(a, "--expect-held") && !strcmp(v, "all-but-first"))
      o->expect_held = HELD_ALL_BUT_FIRST;
    else
      return -1;
    i += used;
  }
  static const char *const crashes[] = {"none", "segv",  "term", "int",
                                        "abrt", "abort", "kill"};
  int known = 0;
  for (size_t c = 0; c < sizeof crashes / sizeof crashes[0]; c++)
    known |= !strcmp(o->crash, crashes[c]);
  return o->n > 0 && o->nb > 0 && o->p > 0 && o->q > 0 && o->calls > 0 && o->ngrps >= 0 &&
                 o->strategies >= 0 && known
             ? 0
             : -1;
}

/* Entries depend on the global index only, so every grid multiplies the same matrices. */
static double entry(int which, int gi, int gj)
{
  return which == 0 ? sin(0.37 * gi + 0.11 * gj) : cos(0.23 * gi - 0.41 * gj + which);
}

typedef struct job {
  int ctxt, myrow, mycol, mloc, nloc, lld, desc[9];
  double *a, *b, *c0, *c, *ref;
  size_t len;
} job;

static void job_init(job *j, const options *o)
{
  int nprow, npcol, zero = 0, info;
  Cblacs_get(0, 0, &j->ctxt);
  Cblacs_gridinit(&j->ctxt, "R", o->p, o->q);
  Cblacs_gridinfo(j->ctxt, &nprow, &npcol, &j->myrow, &j->mycol);
  j->mloc = numroc_(&o->n, &o->nb, &j->myrow, &zero, &o->p);
  j->nloc = numroc_(&o->n, &o->nb, &j->mycol, &zero, &o->q);
  j->lld = j->mloc > 1 ? j->mloc : 1;
  descinit_(j->desc, &o->n, &o->n, &o->nb, &o->nb, &zero, &zero, &j->ctxt, &j->lld, &info);
  j->len = (size_t)j->lld * (size_t)(j->nloc > 0 ? j->nloc : 1);
  double **bufs[] = {&j->a, &j->b, &j->c0, &j->c, &j->ref};
  for (size_t k = 0; k < sizeof bufs / sizeof bufs[0]; k++)
    *bufs[k] = calloc(j->len, sizeof(double));
  for (int jj = 0; jj < j->nloc; jj++)
    for (int ii = 0; ii < j->mloc; ii++) {
      int gi = dist_global_index(ii, o->nb, j->myrow, o->p);
      int gj = dist_global_index(jj, o->nb, j->mycol, o->q);
      size_t at = (size_t)ii + (size_t)jj * (size_t)j->lld;
      j->a[at] = entry(0, gi, gj);
      j->b[at] = entry(1, gi, gj);
      j->c0[at] = entry(2, gi, gj);
    }
}

static void multiply(const job *j, int n, double *c)
{
  const int one = 1;
  const double alpha = 1.5, beta = 0.5; /* beta != 0: C must be read and scaled */
  memcpy(c, j->c0, j->len * sizeof *c);
  pdgemm_("N", "N", &n, &n, &n, &alpha, j->a, &one, &one, j->desc, j->b, &one, &one,
          j->desc, &beta, c, &one, &one, j->desc);
}

/* max |C - ref| / max |ref| over the whole grid. */
static double relative_error(const job *j)
{
  double local[2] = {0, 0}, all[2];
  for (size_t k = 0; k < j->len; k++) {
    double d = fabs(j->c[k] - j->ref[k]), r = fabs(j->ref[k]);
    local[0] = d > local[0] ? d : local[0];
    local[1] = r > local[1] ? r : local[1];
  }
  MPI_Allreduce(local, all, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return all[1] > 0 ? all[0] / all[1] : all[0];
}

/* What the strategy promises for one call: requests made or held. */
static long expected_requests(hpd_strategy s, int steps, int ngrp)
{
  if (s == HPD_STRATEGY_BASIC)
    return 2L * steps;
  if (s == HPD_STRATEGY_DAEMON)
    return ngrp > 0 ? 2L * ((steps + ngrp - 1) / ngrp) : -1;
  return 0;
}

/* The sim record of one call: alternating low (broadcast) and high (multiply), starting
 * low, one record per switch that changed the frequency, in time order. */
static size_t check_trace(size_t seen, long changed, const hpd_dvfs_info *info, int call)
{
  const hpd_switch_record *r;
  size_t count = hpd_dvfs_trace(&r);
  expect((long)(count - seen), changed, "sim records of the call");
  if (rank == 0)
    printf("trace %d:", call);
  for (size_t k = seen; k < count; k++) {
    int low = (k - seen) % 2 == 0;
    expect(r[k].khz, low ? info->low_khz : info->high_khz, "recorded kHz");
    expect(r[k].phase, low ? HPD_PHASE_BROADCAST : HPD_PHASE_MULTIPLY, "recorded phase");
    if (k > 0 && r[k].time_s < r[k - 1].time_s)
      fail("sim trace: record %zu comes before record %zu", k, k - 1);
    if (rank == 0)
      printf(" %u", r[k].khz);
  }
  if (rank == 0)
    printf("\n");
  return count;
}

static void print_info(void)
{
  hpd_dvfs_info info;
  hpd_get_dvfs_info(&info);
  if (rank != 0)
    return;
  printf("dvfs: backend %s applied %d low %u high %u domains %d driver '%s' "
         "governor '%s'\n",
         hpd_dvfs_name(info.backend), info.applied, info.low_khz, info.high_khz,
         info.domains, info.driver, info.governor);
  printf("dvfs why: %s\n", info.why);
}

/* What DVFS set-up chose, and whether switches still reach it: at the end of the job,
 * since a refusal turns them off midway. */
static void check_info(const options *o)
{
  hpd_dvfs_info info;
  hpd_get_dvfs_info(&info);
  if (o->expect_backend && strcmp(hpd_dvfs_name(info.backend), o->expect_backend) != 0)
    fail("DVFS backend is %s, expected %s", hpd_dvfs_name(info.backend), o->expect_backend);
  if (o->expect_applied >= 0)
    expect(info.applied, o->expect_applied, "DVFS applied");
}

/* Ends the job the named way, after every rank has finished the first call.  One rank
 * dies (rank 1 for abort, as MPI_Abort is usually called away from rank 0; rank 0
 * otherwise) while the others wait inside MPI, as in a real job; mpiexec then kills
 * those.  Where every rank died by itself, a slow one could be killed first anyway. */
static void crash(const char *how, int nprocs)
{
  if (failures)
    fprintf(stderr, "dvfs_job: rank %d: %d failures before --crash %s\n", rank, failures,
            how);
  fflush(stdout);
  MPI_Barrier(MPI_COMM_WORLD);
  int dies = !strcmp(how, "abort") && nprocs > 1 ? 1 : 0;
  if (rank == dies) {
    if (!strcmp(how, "segv")) {
      /* Both volatile: the compiler may drop a plain store that nothing reads. */
      volatile int *volatile nowhere = NULL;
      *nowhere = 1;
    } else if (!strcmp(how, "term")) {
      raise(SIGTERM);
    } else if (!strcmp(how, "int")) {
      raise(SIGINT);
    } else if (!strcmp(how, "abrt")) {
      abort();
    } else if (!strcmp(how, "kill")) {
      raise(SIGKILL);
    } else if (!strcmp(how, "abort")) {
      MPI_Abort(MPI_COMM_WORLD, 3);
    }
  } else {
    MPI_Barrier(MPI_COMM_WORLD);
    sleep(30);
  }
  fprintf(stderr, "dvfs_job: rank %d: still running after --crash %s\n", rank, how);
  exit(2);
}

static void after_call(const char *command, int call)
{
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    char index[16];
    snprintf(index, sizeof index, "%d", call);
    setenv("DVFS_JOB_CALL", index, 1);
    fflush(stdout);
    int status = system(command);
    if (status != 0)
      fail("--after-call command after call %d failed (status %d)", call, status);
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

/* The requests the switch rule must hold back in one call, or -1 where --expect-held
 * leaves it free.  broadcast_before: an earlier engine call of the job broadcast, so the
 * rule has a rate to predict from from the first group on. */
static long expected_held(const options *o, hpd_strategy s, long want, int broadcast_before)
{
  if (s != HPD_STRATEGY_DAEMON)
    return 0;
  if (o->expect_held == HELD_NEVER)
    return 0;
  if (o->expect_held == HELD_ALL_BUT_FIRST)
    return broadcast_before || want == 0 ? want : want - 2;
  return -1;
}

static void run_call(const job *j, const options *o, int call, size_t *traced,
                     int *broadcast_before)
{
  int per = o->ngrps ? o->ngrps : 1;
  if (o->ngrps)
    hpd_set_ngrp(o->ngrp[call % o->ngrps]);
  if (o->strategies)
    hpd_set_strategy(o->strategy[(call / per) % o->strategies]);
  int ngrp = hpd_get_ngrp();
  hpd_strategy strategy = hpd_get_strategy();
  hpd_set_disable(1);
  multiply(j, o->n, j->ref);
  hpd_set_disable(0);

  hpd_stats before, after;
  hpd_get_stats(&before);
  multiply(j, o->n, j->c);
  hpd_get_stats(&after);
  const hpd_routine_stats *s0 = &before.routine[HPD_ROUTINE_PDGEMM];
  const hpd_routine_stats *s = &after.routine[HPD_ROUTINE_PDGEMM];
  int failed_before = failures;

  double error = relative_error(j);
  if (!(error <= 1e-12))
    fail("result: relative error %.3g > 1e-12", error);
  expect((long)(s->engine_calls - s0->engine_calls), 1, "engine calls of the call");
  /* auto runs daemon or overlap, and the call then keeps that schedule's identities. */
  if (strategy == HPD_STRATEGY_AUTO &&
      (s->strategy_last == HPD_STRATEGY_DAEMON || s->strategy_last == HPD_STRATEGY_OVERLAP))
    strategy = (hpd_strategy)s->strategy_last;
  expect(s->strategy_last, strategy, "strategy_last");
  /* An operand travels exactly when the grid has more than one process row or column. */
  int travels = o->p > 1 || o->q > 1;
  expect(s->steps_last, travels ? s->panels_last : 0, "steps_last");
  if (strategy == HPD_STRATEGY_BASIC)
    expect(s->ngrp_last, 1, "ngrp_last under basic");
  else if (ngrp > 0)
    expect(s->ngrp_last, ngrp < s->panels_last ? ngrp : s->panels_last, "ngrp_last");
  long want = expected_requests(strategy, s->steps_last, s->ngrp_last);
  long changed = (long)(s->dvfs_switches - s0->dvfs_switches);
  long skipped = (long)(s->dvfs_skipped - s0->dvfs_skipped);
  long held = (long)(s->dvfs_held - s0->dvfs_held);
  expect((long)s->switches_last, want, "switches_last (switches + skipped + held)");
  expect(changed + skipped + held, want, "switches + skipped + held counted in the call");
  long want_held = expected_held(o, strategy, want, *broadcast_before);
  if (want_held >= 0)
    expect(held, want_held, "requests held back by the switch rule");
  if (held % 2)
    fail("held is %ld: a group holds both of its requests or neither", held);
  *broadcast_before |= s->steps_last > 0;
  if (o->trace) {
    hpd_dvfs_info info;
    hpd_get_dvfs_info(&info);
    if (info.backend != HPD_DVFS_SIM)
      fail("--trace needs the sim backend, not %s", hpd_dvfs_name(info.backend));
    *traced = check_trace(*traced, changed, &info, call);
    /* Each changed switch spins for the emulated latency. */
    double spent = s->dvfs_switch_s - s0->dvfs_switch_s;
    if (spent < 0.9 * (double)changed * info.latency_ns * 1e-9)
      fail("sim latency: %ld switches took %.3g s, less than their emulated latency (%u ns "
           "each)",
           changed, spent, info.latency_ns);
  }
  int ok = failures == failed_before, all_ok;
  MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  if (rank == 0)
    printf("call %d: strategy %s ngrp %d steps %d switches %llu %s (%ld changed, %ld "
           "skipped, %ld held, error %.2g)\n",
           call, hpd_strategy_name(strategy), s->ngrp_last, s->steps_last,
           (unsigned long long)s->switches_last, all_ok ? "ok" : "FAILED", changed, skipped,
           held, error);
  fflush(stdout);
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int nprocs;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  options o;
  if (parse_options(argc, argv, &o) != 0 || o.p * o.q != nprocs) {
    if (rank == 0)
      fprintf(stderr, "usage: dvfs_job -n N -b NB -p P -q Q (P*Q = ranks) [--calls K] "
                      "[--ngrp LIST] [--strategy LIST] "
                      "[--crash none|segv|term|int|abrt|abort|kill] [--trace] "
                      "[--expect-backend NAME] [--expect-applied 0|1] "
                      "[--expect-held never|all-but-first] [--after-call COMMAND]\n");
    MPI_Finalize();
    return 2;
  }
  job j;
  job_init(&j, &o);
  size_t traced = 0;
  int broadcast_before = 0;
  for (int call = 0; call < o.calls; call++) {
    run_call(&j, &o, call, &traced, &broadcast_before);
    if (call == 0)
      print_info();
    if (o.after_call)
      after_call(o.after_call, call);
    if (call == 0 && strcmp(o.crash, "none") != 0) {
      check_info(&o);
      crash(o.crash, nprocs);
    }
  }
  check_info(&o);
  int total;
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("dvfs_job: %d calls, %d failures\n", o.calls, total);
  free(j.a), free(j.b), free(j.c0), free(j.c), free(j.ref);
  Cblacs_gridexit(j.ctxt);
  MPI_Finalize();
  return total != 0;
}
