/*
 * bench_dvfs_pdgemm: what the switching strategies cost a whole multiply (the paper's
 * Figure 6 and Eq. 4), through the sim backend, against reference ScaLAPACK in the run.
 *
 * One block of rows per wanted N_grp.  N_grp comes from the memory threshold, as in a
 * user's run, never from HPD_NGRP: the threshold of a block is put in the middle of the
 * range that gives N_grp (1.5 x N_grp panels' worth of the memory per rank), so that
 * rounding cannot tip it to a neighbouring power of two, and the N_grp that the library
 * reports is what the table shows.  Within a block every repetition runs none, basic,
 * daemon and the reference once each, in a balanced order, so drift lands on all four.
 * sim spins for its emulated latency per switch: basic should cost 2 x steps switches,
 * daemon 2 x ceil(steps / N_grp).  Those are the paper's counts, so the switch rule is
 * pinned to them (HPD_SWITCH_MIN_MS=0): under auto, daemon would hold back the switches
 * of groups too short to pay for them, and the figure would no longer show what switches
 * cost.  Columns: timing/README.md, "DVFS overhead".
 */
#include <float.h>
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_common.h"
#include "bench_sample.h"
#include "core/node_memory.h"
#include "dist_data.h"
#include "hpdaemon.h"
#include "scalapack.h"

#define CHECK_THRESHOLD 16.0 /* as bench_pdgemm: far above rounding, far below a bug */

enum { KIND_NONE, KIND_BASIC, KIND_DAEMON, KIND_REF, KINDS };
static const char *const kind_name[KINDS] = {"none", "basic", "daemon", "reference"};

typedef struct options {
  int n, nb, p, q, reps;
  int ngrp[MAX_LIST], ngrp_count;
  double latency_us;
  const char *csv;
} options;

typedef struct problem {
  int n, nb, desc[9], context, myrow, mycol, nprow, npcol, rank;
  size_t elems;
  double *a, *b, *c, *c_ref;
} problem;

/* What the statistics said about the timed calls of one strategy in one block. */
typedef struct seen {
  int ngrp, steps;          /* latest call, rank 0 */
  uint64_t requests;        /* switches + skipped + held of the latest call */
  uint64_t switches, skipped, held; /* all timed calls */
  double switch_s;
  int identity_ok;          /* every call on every rank */
} seen;

typedef struct result {
  double *t; /* reps seconds, in repetition order */
  double median, min, max;
  seen stats;
} result;

typedef struct block {
  int target;
  double threshold, budget_bytes, check;
  result r[KINDS];
} block;

/* ---- options ------------------------------------------------------------------------ */

static void usage(FILE *out)
{
  fprintf(out,
          "usage: bench_dvfs_pdgemm [-n N] [-b NB] [-p P -q Q] [-r REPS]\n"
          "                         [--ngrp NGRP[,NGRP...]] [--latency-us US] [--csv PATH]\n"
          "  -n            square matrix order (default 4096)\n"
          "  -b            block size (default 32)\n"
          "  -p, -q        process grid, P*Q = number of ranks (default 1x2)\n"
          "  -r            timed calls per strategy and block (default 5)\n"
          "  --ngrp        N_grp wanted, one block each, reached through the memory\n"
          "                threshold (default 1,2,4,8)\n"
          "  --latency-us  sim's emulated transition latency (default 70, the paper's)\n"
          "  --csv         append one line per row to PATH (header when PATH is empty)\n"
          "  The threshold is set per block; -t and HPD_NGRP are overridden, and\n"
          "  HPD_SWITCH_MIN_MS is 0: every group switches, as in the paper.\n");
}


static int one_int(const char *text, int *out)
{
  int count;
  return bench_parse_int_list(text, out, &count) == 0 && count == 1 ? 0 : -1;
}

static int parse_options(int argc, char **argv, options *o, char *err, size_t errlen)
{
  memset(o, 0, sizeof *o);
  o->n = 4096, o->nb = 32, o->p = 1, o->q = 2, o->reps = 5, o->latency_us = 70;
  bench_parse_int_list("1,2,4,8", o->ngrp, &o->ngrp_count);
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i], *v;
    int bad;
    if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0)
      return 1;
    if (strcmp(arg, "--") == 0)
      continue;
    if ((v = bench_option_value(argc, argv, &i, "-n")))
      bad = one_int(v, &o->n);
    else if ((v = bench_option_value(argc, argv, &i, "-b")))
      bad = one_int(v, &o->nb);
    else if ((v = bench_option_value(argc, argv, &i, "-p")))
      bad = one_int(v, &o->p);
    else if ((v = bench_option_value(argc, argv, &i, "-q")))
      bad = one_int(v, &o->q);
    else if ((v = bench_option_value(argc, argv, &i, "-r")))
      bad = one_int(v, &o->reps);
    else if ((v = bench_option_value(argc, argv, &i, "--ngrp")))
      bad = bench_parse_int_list(v, o->ngrp, &o->ngrp_count);
    else if ((v = bench_option_value(argc, argv, &i, "--latency-us"))) {
      char *end;
      o->latency_us = strtod(v, &end);
      bad = end == v || *end || !(o->latency_us >= 0 && o->latency_us <= 1e6);
    } else if ((v = bench_option_value(argc, argv, &i, "--csv")))
      bad = (o->csv = v)[0] == '\0';
    else {
      snprintf(err, errlen, "unknown option or missing value: %s", arg);
      return -1;
    }
    if (bad) {
      snprintf(err, errlen, "option %s: bad value '%s'", arg, v);
      return -1;
    }
  }
  return 0;
}

/* ---- data --------------------------------------------------------------------------- */

static double *alloc_local(size_t elems)
{
  double *m = malloc((elems ? elems : 1) * sizeof *m);
  if (!m)
    MPI_Abort(MPI_COMM_WORLD, 1);
  return m;
}

/* 0, or -1 when the grid does not match the ranks. */
static int setup_problem(const options *o, problem *pb)
{
  int size, zero = 0;
  memset(pb, 0, sizeof *pb);
  MPI_Comm_rank(MPI_COMM_WORLD, &pb->rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (o->p * o->q != size)
    return -1;
  Cblacs_get(-1, 0, &pb->context);
  Cblacs_gridinit(&pb->context, "Row", o->p, o->q);
  Cblacs_gridinfo(pb->context, &pb->nprow, &pb->npcol, &pb->myrow, &pb->mycol);
  pb->n = o->n, pb->nb = o->nb;
  int mloc = numroc_(&pb->n, &pb->nb, &pb->myrow, &zero, &pb->nprow);
  int nloc = numroc_(&pb->n, &pb->nb, &pb->mycol, &zero, &pb->npcol);
  int lld = mloc > 1 ? mloc : 1;
  int desc[9] = {1, pb->context, pb->n, pb->n, pb->nb, pb->nb, 0, 0, lld};
  memcpy(pb->desc, desc, sizeof desc);
  pb->elems = (size_t)lld * (size_t)nloc;
  pb->a = alloc_local(pb->elems), pb->b = alloc_local(pb->elems);
  pb->c = alloc_local(pb->elems), pb->c_ref = alloc_local(pb->elems);
  for (int lj = 0; lj < nloc; lj++)
    for (int li = 0; li < mloc; li++) {
      int64_t gi = dist_global_index(li, pb->nb, pb->myrow, pb->nprow);
      int64_t gj = dist_global_index(lj, pb->nb, pb->mycol, pb->npcol);
      pb->a[(size_t)lj * lld + li] = dist_element(1, gi, gj);
      pb->b[(size_t)lj * lld + li] = dist_element(2, gi, gj);
    }
  memset(pb->c, 0, pb->elems * sizeof *pb->c);
  return 0;
}

/* ---- measuring ---------------------------------------------------------------------- */

static hpd_routine_stats pdgemm_stats(void)
{
  hpd_stats all;
  hpd_get_stats(&all);
  return all.routine[HPD_ROUTINE_PDGEMM];
}

/* Eq. 4: the switch requests a call must make under each strategy. */
static uint64_t expected_requests(int kind, int steps, int ngrp)
{
  if (kind == KIND_BASIC)
    return 2 * (uint64_t)steps;
  if (kind == KIND_DAEMON)
    return 2 * (uint64_t)((steps + ngrp - 1) / (ngrp > 0 ? ngrp : 1));
  return 0;
}

/* One call, timed from a common start to the slowest rank's end; the statistics are read
 * outside the timed region. */
static double timed_call(int kind, const problem *pb, seen *s)
{
  static const hpd_strategy strategy[] = {HPD_STRATEGY_NONE, HPD_STRATEGY_BASIC,
                                          HPD_STRATEGY_DAEMON, HPD_STRATEGY_NONE};
  const char notrans = 'N';
  const int one = 1;
  const double alpha = 1.0, beta = 0.0;
  hpd_set_disable(kind == KIND_REF);
  hpd_set_strategy(strategy[kind]);
  hpd_routine_stats before = pdgemm_stats();
  MPI_Barrier(MPI_COMM_WORLD);
  double start = MPI_Wtime();
  pdgemm_(&notrans, &notrans, &pb->n, &pb->n, &pb->n, &alpha, pb->a, &one, &one, pb->desc,
          pb->b, &one, &one, pb->desc, &beta, pb->c, &one, &one, pb->desc);
  double mine = MPI_Wtime() - start, slowest;
  MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  if (kind == KIND_REF || !s)
    return slowest;
  hpd_routine_stats after = pdgemm_stats();
  int served = after.engine_calls == before.engine_calls + 1;
  s->ngrp = after.ngrp_last;
  s->steps = after.steps_last;
  s->requests = after.switches_last;
  s->switches += after.dvfs_switches - before.dvfs_switches;
  s->skipped += after.dvfs_skipped - before.dvfs_skipped;
  s->held += after.dvfs_held - before.dvfs_held;
  s->switch_s += after.dvfs_switch_s - before.dvfs_switch_s;
  /* switches_last counts held requests too; under the pinned rule there must be none. */
  int ok = served && after.strategy_last == (int)strategy[kind] &&
           after.switches_last == expected_requests(kind, after.steps_last, after.ngrp_last) &&
           after.dvfs_held == before.dvfs_held,
      all;
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  s->identity_ok &= all;
  return slowest;
}

/* max|C - C_ref| / (N eps max|C_ref|) over all ranks. */
static double compare_results(const problem *pb)
{
  double local[2] = {0, 0}, global[2];
  for (size_t i = 0; i < pb->elems; i++) {
    double d = fabs(pb->c[i] - pb->c_ref[i]), r = fabs(pb->c_ref[i]);
    if (!(d <= local[0]))
      local[0] = d;
    if (r > local[1])
      local[1] = r;
  }
  MPI_Allreduce(local, global, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return global[0] / (pb->n * DBL_EPSILON * (global[1] > 0 ? global[1] : 1.0));
}

/* Median over repetitions of t_x - t_y: the two ran side by side in each repetition, so
 * this drops the drift that separate medians keep. */
static double paired_median(const result *x, const result *y, int reps)
{
  double *d = malloc((size_t)reps * sizeof *d);
  if (!d)
    MPI_Abort(MPI_COMM_WORLD, 1);
  for (int r = 0; r < reps; r++)
    d[r] = x->t[r] - y->t[r];
  double m = bench_median(d, reps);
  free(d);
  return m;
}

/* The node's memory per rank exactly as the engine sees it for its grid (grid.c). */
static double memory_per_rank(void)
{
  MPI_Comm node;
  int on_node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  MPI_Comm_size(node, &on_node);
  MPI_Comm_free(&node);
  double mine = (double)hpd_node_memory_bytes() / on_node, least;
  MPI_Allreduce(&mine, &least, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
  return least;
}

/* The bytes one panel adds to the grouping buffers, as the engine's own model counts
 * them: one call at a threshold far too small for two panels, whose model figure is then
 * exactly one panel's.  The call also tunes the broadcasts and is checked. */
static double calibrate(problem *pb, int *panels, double *check)
{
  hpd_set_mem_threshold(1e-12);
  timed_call(KIND_REF, pb, NULL);
  memcpy(pb->c_ref, pb->c, pb->elems * sizeof *pb->c);
  hpd_reset_stats();
  timed_call(KIND_NONE, pb, NULL);
  *check = compare_results(pb);
  hpd_routine_stats s = pdgemm_stats();
  *panels = s.panels_last;
  double bytes = s.ngrp_last > 0 ? (double)s.extra_bytes_model_max / s.ngrp_last : 0, most;
  MPI_Allreduce(&bytes, &most, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return most;
}

static void run_block(const options *o, problem *pb, block *bk)
{
  hpd_set_mem_threshold(bk->threshold);
  /* Untimed: the group buffers take their size for this threshold here. */
  timed_call(KIND_DAEMON, pb, NULL);
  bk->check = compare_results(pb);
  for (int k = 0; k < KINDS; k++) {
    memset(&bk->r[k].stats, 0, sizeof bk->r[k].stats);
    bk->r[k].stats.identity_ok = 1;
    bk->r[k].t = calloc((size_t)o->reps, sizeof(double));
    if (!bk->r[k].t)
      MPI_Abort(MPI_COMM_WORLD, 1);
  }
  /* A balanced (Williams) order: over four repetitions each strategy runs first once and
   * right after each other strategy once, so neither drift nor what one call leaves
   * behind for the next lands on one strategy only.  A plain rotation would always put
   * the reference after daemon. */
  static const int order[KINDS][KINDS] = {{0, 1, 3, 2}, {1, 2, 0, 3}, {2, 3, 1, 0}, {3, 0, 2, 1}};
  for (int r = 0; r < o->reps; r++)
    for (int j = 0; j < KINDS; j++) {
      int k = order[r % KINDS][j];
      bk->r[k].t[r] = timed_call(k, pb, &bk->r[k].stats);
    }
  for (int k = 0; k < KINDS; k++) {
    bench_spread t = bench_spread_of(bk->r[k].t, o->reps);
    bk->r[k].median = t.median, bk->r[k].min = t.min, bk->r[k].max = t.max;
  }
}

/* ---- output ------------------------------------------------------------------------- */

static const char *row_format =
    "%5s %10s %9s %-9s %5s %5s %8s %7s %5s %8s %-8s %9s %8s %-17s %8s %8s %9s %9s %9s\n";

static void print_header(const options *o, int ranks, double mem_rank, double panel_bytes,
                         int panels, double check)
{
  hpd_dvfs_info info;
  hpd_get_dvfs_info(&info);
  printf("# bench_dvfs_pdgemm: hpdaemon %s, N=%d NB=%d, grid %dx%d (%d ranks), %d timed "
         "call(s) per row, BLAS kernels %s, %d BLAS thread(s) per rank\n",
         HPD_VERSION_STRING, o->n, o->nb, o->p, o->q, ranks, o->reps,
         openblas_get_corename(), openblas_get_num_threads());
  printf("# DVFS backend %s, %.1f us emulated per switch; node memory %.2f GiB, %.2f GiB "
         "per rank; one panel %.3f MiB of group buffers (%d panels); warm-up check %.3g "
         "(%s)\n",
         hpd_dvfs_name(info.backend), info.latency_ns * 1e-3, hpd_node_memory_bytes() / 1073741824.0,
         mem_rank / 1073741824.0, panel_bytes / 1048576.0, panels, check,
         check <= CHECK_THRESHOLD ? "ok" : "FAIL");
  printf(row_format, "want", "threshold", "budgetMiB", "strategy", "N_grp", "steps", "switches",
         "skipped", "held", "expected", "identity", "switch_ms", "time_s", "min..max",
         "vs_none", "paired_ms", "model_ms", "b/d", "b-d_ms");
  fflush(stdout);
}

static void print_block(const options *o, const block *bk)
{
  const result *none = &bk->r[KIND_NONE];
  for (int k = 0; k < KINDS; k++) {
    const result *x = &bk->r[k];
    const seen *s = &x->stats;
    char f[19][32];
    for (int i = 0; i < 19; i++)
      strcpy(f[i], "-");
    snprintf(f[0], 32, "%d", bk->target);
    snprintf(f[1], 32, "%.3e", bk->threshold);
    snprintf(f[2], 32, "%.2f", bk->budget_bytes / 1048576.0);
    snprintf(f[3], 32, "%s", kind_name[k]);
    if (k != KIND_REF) {
      uint64_t expected = expected_requests(k, s->steps, s->ngrp);
      snprintf(f[4], 32, "%d", s->ngrp);
      snprintf(f[5], 32, "%d", s->steps);
      snprintf(f[6], 32, "%.0f", (double)s->switches / o->reps);
      snprintf(f[7], 32, "%.0f", (double)s->skipped / o->reps);
      snprintf(f[8], 32, "%.0f", (double)s->held / o->reps);
      snprintf(f[9], 32, "%llu", (unsigned long long)expected);
      snprintf(f[10], 32, "%s", s->identity_ok ? "ok" : "FAIL");
      snprintf(f[11], 32, "%.3f", s->switch_s / o->reps * 1e3);
      snprintf(f[16], 32, "%.3f", (double)expected * o->latency_us * 1e-3);
    }
    snprintf(f[12], 32, "%.4f", x->median);
    snprintf(f[13], 32, "%.4f..%.4f", x->min, x->max);
    if (k != KIND_NONE) {
      snprintf(f[14], 32, "%+.2f%%", 100 * (x->median - none->median) / none->median);
      snprintf(f[15], 32, "%+.2f", paired_median(x, none, o->reps) * 1e3);
    }
    if (k == KIND_BASIC) {
      const result *d = &bk->r[KIND_DAEMON];
      snprintf(f[17], 32, "%+.2f%%", 100 * (x->median - d->median) / d->median);
      snprintf(f[18], 32, "%+.2f", paired_median(x, d, o->reps) * 1e3);
    }
    printf(row_format, f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8], f[9], f[10],
           f[11], f[12], f[13], f[14], f[15], f[16], f[17], f[18]);
  }
  fflush(stdout);
}

static void append_csv(const options *o, const block *bk)
{
  FILE *f = fopen(o->csv, "a");
  if (!f) {
    fprintf(stderr, "bench_dvfs_pdgemm: cannot append to %s\n", o->csv);
    return;
  }
  if (ftell(f) == 0)
    fprintf(f, "n,nb,p,q,reps,latency_us,ngrp_wanted,threshold,budget_bytes,strategy,ngrp,"
               "steps,requests_per_call,switches_per_call,skipped_per_call,held_per_call,"
               "expected_per_call,identity,switch_s_per_call,median_s,min_s,max_s,overhead_vs_none,"
               "paired_vs_none_s,model_overhead_s,overhead_basic_vs_daemon,"
               "paired_basic_vs_daemon_s,check\n");
  const result *none = &bk->r[KIND_NONE], *daemon = &bk->r[KIND_DAEMON];
  for (int k = 0; k < KINDS; k++) {
    const result *x = &bk->r[k];
    const seen *s = &x->stats;
    fprintf(f, "%d,%d,%d,%d,%d,%.3f,%d,%.6e,%.0f,%s,", o->n, o->nb, o->p, o->q, o->reps,
            o->latency_us, bk->target, bk->threshold, bk->budget_bytes, kind_name[k]);
    if (k != KIND_REF) {
      uint64_t expected = expected_requests(k, s->steps, s->ngrp);
      fprintf(f, "%d,%d,%llu,%.2f,%.2f,%.2f,%llu,%s,%.6f,", s->ngrp, s->steps,
              (unsigned long long)s->requests, (double)s->switches / o->reps,
              (double)s->skipped / o->reps, (double)s->held / o->reps,
              (unsigned long long)expected, s->identity_ok ? "ok" : "FAIL",
              s->switch_s / o->reps);
    } else {
      fprintf(f, ",,,,,,,,,");
    }
    fprintf(f, "%.6f,%.6f,%.6f,", x->median, x->min, x->max);
    if (k != KIND_NONE)
      fprintf(f, "%.5f,%.6f,", (x->median - none->median) / none->median,
              paired_median(x, none, o->reps));
    else
      fprintf(f, ",,");
    if (k != KIND_REF)
      fprintf(f, "%.6f,", (double)expected_requests(k, s->steps, s->ngrp) * o->latency_us * 1e-6);
    else
      fprintf(f, ",");
    if (k == KIND_BASIC)
      fprintf(f, "%.5f,%.6f,", (x->median - daemon->median) / daemon->median,
              paired_median(x, daemon, o->reps));
    else
      fprintf(f, ",,");
    fprintf(f, "%.3g\n", bk->check);
  }
  fclose(f);
}

/* ---- driver ------------------------------------------------------------------------- */

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int hpd_status = hpd_parse_args(&argc, &argv), rank, size;
  /* This program studies the engine itself (its grouping, broadcasts and switches), so
   * every call goes to it; which calls an application's mix sends elsewhere is
   * timing/bench_calls's subject. */
  hpd_set_dispatch(HPD_DISPATCH_ENGINE);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  options o;
  char err[256] = "";
  int parsed = hpd_status == HPD_SUCCESS ? parse_options(argc, argv, &o, err, sizeof err) : -1;
  int early = bench_options_verdict("bench_dvfs_pdgemm", parsed, err, usage);
  if (early >= 0)
    return early;
  problem pb;
  if (setup_problem(&o, &pb) != 0)
    return bench_grid_refused("bench_dvfs_pdgemm", o.p, o.q);
  if (hpd_get_ngrp() != 0 && rank == 0)
    fprintf(stderr, "bench_dvfs_pdgemm: HPD_NGRP=%d ignored: here the threshold sets N_grp\n",
            hpd_get_ngrp());
  hpd_set_ngrp(0);
  if (hpd_get_switch_min_ms() > 0 && rank == 0)
    fprintf(stderr, "bench_dvfs_pdgemm: HPD_SWITCH_MIN_MS=%g ignored: here every group "
                    "switches, as in the paper\n", hpd_get_switch_min_ms());
  hpd_set_dvfs(HPD_DVFS_SIM);
  hpd_set_sim_switch_us(o.latency_us);
  hpd_set_switch_min_ms(0);

  int panels;
  double check, mem_rank = memory_per_rank();
  double panel_bytes = calibrate(&pb, &panels, &check);
  if (rank == 0)
    print_header(&o, size, mem_rank, panel_bytes, panels, check);
  hpd_dvfs_info info;
  hpd_get_dvfs_info(&info);
  int status = check <= CHECK_THRESHOLD && info.backend == HPD_DVFS_SIM && panel_bytes > 0 ? 0 : 1;
  for (int i = 0; i < o.ngrp_count && status == 0; i++) {
    block bk = {.target = o.ngrp[i]};
    bk.budget_bytes = 1.5 * o.ngrp[i] * panel_bytes;
    bk.threshold = bk.budget_bytes / mem_rank;
    if (o.ngrp[i] > panels || bk.threshold > 1) {
      if (rank == 0)
        fprintf(stderr, "bench_dvfs_pdgemm: N_grp=%d skipped: %s\n", o.ngrp[i],
                o.ngrp[i] > panels ? "more than the panels" : "beyond the node's memory");
      continue;
    }
    if (rank == 0) {
      fprintf(stderr, "bench_dvfs_pdgemm: N_grp %d: threshold %.3e, %d repetition(s)\n",
              bk.target, bk.threshold, o.reps);
      fflush(stderr);
    }
    run_block(&o, &pb, &bk);
    for (int k = 0; k < KINDS; k++)
      if (k != KIND_REF && !bk.r[k].stats.identity_ok)
        status = 1;
    if (!(bk.check <= CHECK_THRESHOLD))
      status = 1;
    if (rank == 0) {
      print_block(&o, &bk);
      if (o.csv)
        append_csv(&o, &bk);
    }
    for (int k = 0; k < KINDS; k++)
      free(bk.r[k].t);
  }
  if (rank == 0 && status)
    fprintf(stderr, "bench_dvfs_pdgemm: a check failed (identity, result or backend)\n");
  hpd_set_disable(0);
  free(pb.a), free(pb.b), free(pb.c), free(pb.c_ref);
  Cblacs_gridexit(pb.context);
  MPI_Finalize();
  return status;
}
