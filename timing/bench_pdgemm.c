/*
 * bench_pdgemm: hpdaemon's pdgemm_ against reference ScaLAPACK, in one run, on one grid.
 *
 * Both sides are the very same pdgemm_ call on the very same arrays; hpd_set_disable(1)
 * is what sends a call to the reference.  Measuring both in one process, alternating,
 * means other load on the machine, thermal state and BLAS settings land on both sides
 * alike, so the ratio stays meaningful even when the absolute times wander.
 * Columns and targets: timing/README.md.
 */
#include <float.h>
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_common.h"
#include "bench_first.h"
#include "bench_interleave.h"
#include "bench_sample.h"
#include "hpdaemon.h"
#include "dist_data.h"
#include "scalapack.h"


/* Same bound as the stock testers' residual check: rounding differences between two
 * correct summation orders stay far below it, a wrong panel lands far above it. */
#define CHECK_THRESHOLD 16.0

typedef struct options {
  int n[MAX_LIST], n_count;
  int nb[MAX_LIST], nb_count;
  double local_gflops[MAX_LIST];
  int local_count;
  int p, q, reps;
  int first;      /* --first-calls: 0 hpd, 1 ref; -1 without it */
  int interleave; /* --interleave: the same, the orders' calls in turn */
  const char *csv;
} options;

typedef struct problem {
  int n, nb;
  int desc[9];
  size_t elems; /* per local matrix */
  double *a, *b, *c, *c_ref;
} problem;

/* What hpdaemon's statistics say about the timed hpdaemon calls of one row. */
typedef struct served {
  uint64_t calls, engine;    /* fewest over ranks */
  uint64_t fallback;         /* most over ranks */
  int ngrp, panels;          /* 0 when the engine served none of them */
  int reason;                /* most frequent fallback reason on rank 0, -1 if none */
} served;

typedef struct row {
  int n, nb;
  bench_spread hpd, ref;
  double local_gflops; /* 0 when not given */
  served stats;
  double check; /* scaled difference between the two sides' results */
  double first_s; /* the warm-up's hpdaemon call, the slowest rank's */
} row;

/* ---- options ---------------------------------------------------------------------- */

static void usage(FILE *out)
{
  fprintf(out,
          "usage: bench_pdgemm [-n N[,N...]] [-b NB[,NB...]] [-p P -q Q] [-r REPS]\n"
          "                    [--local-gflops X[,X...]] [--first-calls hpd|ref]\n"
          "                    [--interleave hpd|ref]\n"
          "                    [--csv PATH] [hpdaemon options]\n"
          "  -n             square matrix orders (default 2048,4096)\n"
          "  -b             block sizes (default 32,64,256)\n"
          "  -p, -q         process grid, P*Q must equal the number of ranks (default 1x2)\n"
          "  -r             timed calls per side and row (default 5)\n"
          "  --local-gflops local dgemm rate on the same cores: one value, or one per N;\n"
          "                 adds the efficiency column\n"
          "  --csv          append one line per row to PATH (header when PATH is empty)\n"
          "%s%s"
          "  hpdaemon options (-t FRACTION, --report[=SPEC]) are applied to its engine.\n",
          bench_first_usage, bench_interleave_usage);
}

static int parse_double_list(const char *text, double *out, int *count)
{
  *count = 0;
  for (const char *s = text; *s;) {
    char *end;
    double v = strtod(s, &end);
    if (end == s || !(v > 0) || *count == MAX_LIST || (*end && *end != ','))
      return -1;
    out[(*count)++] = v;
    s = *end ? end + 1 : end;
  }
  return *count > 0 ? 0 : -1;
}


static void set_defaults(options *o)
{
  memset(o, 0, sizeof *o);
  o->n[0] = 2048, o->n[1] = 4096, o->n_count = 2;
  o->nb[0] = 32, o->nb[1] = 64, o->nb[2] = 256, o->nb_count = 3;
  o->p = 1, o->q = 2, o->reps = 5, o->first = -1, o->interleave = -1;
}


/* Returns 0 to run, 1 after --help, -1 on an error (message in err). */
static int parse_options(int argc, char **argv, options *o, char *err, size_t errlen)
{
  set_defaults(o);
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i], *v;
    int bad;
    if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0)
      return 1;
    if (strcmp(arg, "--") == 0) /* hpd_parse_args leaves it in place */
      continue;
    if ((v = bench_option_value(argc, argv, &i, "-n")))
      bad = bench_parse_int_list(v, o->n, &o->n_count);
    else if ((v = bench_option_value(argc, argv, &i, "-b")))
      bad = bench_parse_int_list(v, o->nb, &o->nb_count);
    else if ((v = bench_option_value(argc, argv, &i, "-p")))
      bad = bench_parse_positive(v, &o->p);
    else if ((v = bench_option_value(argc, argv, &i, "-q")))
      bad = bench_parse_positive(v, &o->q);
    else if ((v = bench_option_value(argc, argv, &i, "-r")))
      bad = bench_parse_count(v, &o->reps);
    else if ((v = bench_option_value(argc, argv, &i, "--local-gflops")))
      bad = parse_double_list(v, o->local_gflops, &o->local_count);
    else if ((v = bench_option_value(argc, argv, &i, "--csv")))
      bad = (o->csv = v)[0] == '\0';
    else if ((v = bench_option_value(argc, argv, &i, "--first-calls")))
      bad = bench_first_parse(v, &o->first);
    else if ((v = bench_option_value(argc, argv, &i, "--interleave")))
      bad = bench_first_parse(v, &o->interleave);
    else {
      snprintf(err, errlen, "unknown option or missing value: %s", arg);
      return -1;
    }
    if (bad) {
      snprintf(err, errlen, "option %s: bad value '%s'", arg, v);
      return -1;
    }
  }
  if (o->local_count > 1 && o->local_count != o->n_count) {
    snprintf(err, errlen, "--local-gflops: give one value, or one per N (%d)", o->n_count);
    return -1;
  }
  if (bench_interleave_check(o->interleave, o->first, o->n_count, o->nb_count, o->reps, err,
                             errlen))
    return -1;
  return bench_first_rounds_check(o->first, o->reps, err, errlen);
}

static double local_gflops_for(const options *o, int n_index)
{
  if (o->local_count == 0)
    return 0;
  return o->local_gflops[o->local_count == 1 ? 0 : n_index];
}

/* ---- grid and data ---------------------------------------------------------------- */

static void fill(double *m, uint64_t matrix, const problem *pb, const bench_grid *g, int mloc,
                 int nloc)
{
  size_t lld = (size_t)pb->desc[8];
  for (int lj = 0; lj < nloc; lj++) {
    int gj = dist_global_index(lj, pb->nb, g->mycol, g->npcol);
    double *column = m + (size_t)lj * lld;
    for (int li = 0; li < mloc; li++)
      column[li] =
          dist_element(matrix, dist_global_index(li, pb->nb, g->myrow, g->nprow), gj);
  }
}

static double *alloc_local(size_t elems)
{
  double *m = malloc((elems ? elems : 1) * sizeof *m);
  if (!m) {
    fprintf(stderr, "bench_pdgemm: out of memory for a %zu-element local matrix\n", elems);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  return m;
}

static void setup_problem(problem *pb, int n, int nb, const bench_grid *g)
{
  int zero = 0;
  int mloc = numroc_(&n, &nb, &g->myrow, &zero, &g->nprow);
  int nloc = numroc_(&n, &nb, &g->mycol, &zero, &g->npcol);
  int lld = mloc > 1 ? mloc : 1;
  int desc[9] = {1, g->context, n, n, nb, nb, 0, 0, lld};
  pb->n = n, pb->nb = nb;
  memcpy(pb->desc, desc, sizeof desc);
  pb->elems = (size_t)lld * (size_t)nloc;
  pb->a = alloc_local(pb->elems);
  pb->b = alloc_local(pb->elems);
  pb->c = alloc_local(pb->elems);
  pb->c_ref = alloc_local(pb->elems);
  fill(pb->a, 1, pb, g, mloc, nloc);
  fill(pb->b, 2, pb, g, mloc, nloc);
  memset(pb->c, 0, pb->elems * sizeof *pb->c);
}

static void free_problem(problem *pb)
{
  free(pb->a), free(pb->b), free(pb->c), free(pb->c_ref);
}

/* ---- measuring -------------------------------------------------------------------- */

enum side { SIDE_HPD, SIDE_REF };

static void multiply(const problem *pb)
{
  const char notrans = 'N';
  const int one = 1;
  const double alpha = 1.0, beta = 0.0;
  pdgemm_(&notrans, &notrans, &pb->n, &pb->n, &pb->n, &alpha, pb->a, &one, &one, pb->desc,
          pb->b, &one, &one, pb->desc, &beta, pb->c, &one, &one, pb->desc);
}

/* This process's CPU seconds in each side's calls, and the calls: in the simulated
 * timing mode, what simulating them cost (simulator_cost). */
static double cpu_spent[2];
static int cpu_calls[2];

/* Wall time of one call as the slowest rank saw it, from a common start. */
static double timed_call(enum side side, const problem *pb)
{
  hpd_set_disable(side == SIDE_REF);
  MPI_Barrier(MPI_COMM_WORLD);
  double cpu = bench_process_cpu_s();
  double start = MPI_Wtime();
  multiply(pb);
  double mine = MPI_Wtime() - start, slowest;
  MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  cpu_spent[side] += bench_process_cpu_s() - cpu;
  cpu_calls[side]++;
  return slowest;
}

/* Under the simulator's timing mode, after a row: this machine's CPU per call of each
 * side (every simulated rank's and the simulator's), which grows with the messages in
 * flight at once far more than with the simulated time. */
static void simulator_cost(const bench_grid *g)
{
  int hpd = cpu_calls[SIDE_HPD], ref = cpu_calls[SIDE_REF];
  if (g->rank == 0 && !bench_results_computed() && hpd > 0 && ref > 0)
    printf("# simulator: %.1f s of CPU per hpdaemon call, %.1f s per reference call\n",
           cpu_spent[SIDE_HPD] / hpd, cpu_spent[SIDE_REF] / ref);
  cpu_spent[SIDE_HPD] = cpu_spent[SIDE_REF] = 0.0;
  cpu_calls[SIDE_HPD] = cpu_calls[SIDE_REF] = 0;
}

/* max|C_hpd - C_ref| / (N * eps * max|C_ref|), over all ranks. */
static double compare_results(const problem *pb)
{
  double local[2] = {0, 0}, global[2];
  for (size_t i = 0; i < pb->elems; i++) {
    double d = fabs(pb->c[i] - pb->c_ref[i]), r = fabs(pb->c_ref[i]);
    if (!(d <= local[0])) /* keeps a NaN, which a plain '>' would drop */
      local[0] = d;
    if (r > local[1])
      local[1] = r;
  }
  MPI_Allreduce(local, global, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  double scale = pb->n * DBL_EPSILON * (global[1] > 0 ? global[1] : 1.0);
  return global[0] / scale;
}

/* One call each before timing: first-touch page faults, BLACS set-up and the library's
 * lazy initialisation belong to no side's numbers.  Their results are compared, and the
 * hpdaemon call's time is kept: in the first row it is the first call on the grid's
 * communicators, which a short run pays for. */
static double warm_up(problem *pb, double *first_s)
{
  timed_call(SIDE_REF, pb);
  memcpy(pb->c_ref, pb->c, pb->elems * sizeof *pb->c);
  double mine = timed_call(SIDE_HPD, pb);
  MPI_Allreduce(&mine, first_s, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return compare_results(pb);
}

static hpd_routine_stats pdgemm_stats(void)
{
  hpd_stats all;
  hpd_get_stats(&all);
  return all.routine[HPD_ROUTINE_PDGEMM];
}

/* Adds to *seen what one call changed in the statistics. */
static void add_delta(hpd_routine_stats *seen, const hpd_routine_stats *before,
                      const hpd_routine_stats *after)
{
  seen->calls += after->calls - before->calls;
  seen->engine_calls += after->engine_calls - before->engine_calls;
  seen->fallback_calls += after->fallback_calls - before->fallback_calls;
  for (int r = 0; r < HPD_FALLBACK_REASONS; r++)
    seen->fallback_by_reason[r] += after->fallback_by_reason[r] - before->fallback_by_reason[r];
  if (after->engine_calls > before->engine_calls) {
    seen->ngrp_last = after->ngrp_last;
    seen->panels_last = after->panels_last;
  }
}

/* The statistics snapshot sits outside the timed region, so it costs neither side. */
static double timed_hpd_call(const problem *pb, hpd_routine_stats *seen)
{
  hpd_routine_stats before = pdgemm_stats();
  double t = timed_call(SIDE_HPD, pb);
  hpd_routine_stats after = pdgemm_stats();
  add_delta(seen, &before, &after);
  return t;
}

/* A rank whose engine declined a call is what a reader must see, so the row shows the
 * fewest engine calls and the most fallbacks of any rank. */
static served summarize_served(const hpd_routine_stats *seen)
{
  uint64_t mine[3] = {seen->calls, seen->engine_calls, seen->fallback_calls};
  uint64_t fewest[2], most_fallback;
  MPI_Allreduce(mine, fewest, 2, MPI_UINT64_T, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(&mine[2], &most_fallback, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
  served s = {fewest[0], fewest[1], most_fallback, seen->ngrp_last, seen->panels_last, -1};
  uint64_t most = 0;
  for (int r = 0; r < HPD_FALLBACK_REASONS; r++)
    if (seen->fallback_by_reason[r] > most)
      most = seen->fallback_by_reason[r], s.reason = r;
  return s;
}

/* The timed calls alternate sides, and which side goes first flips every repetition, so
 * neither side always runs right after the other's cache and network state. */
static void measure(problem *pb, int reps, row *out)
{
  double *hpd = malloc(2 * (size_t)reps * sizeof *hpd);
  if (!hpd)
    MPI_Abort(MPI_COMM_WORLD, 1);
  double *ref = hpd + reps;
  hpd_routine_stats seen;
  memset(&seen, 0, sizeof seen);
  for (int r = 0; r < reps; r++) {
    if (r % 2 == 0) {
      hpd[r] = timed_hpd_call(pb, &seen);
      ref[r] = timed_call(SIDE_REF, pb);
    } else {
      ref[r] = timed_call(SIDE_REF, pb);
      hpd[r] = timed_hpd_call(pb, &seen);
    }
  }
  out->stats = summarize_served(&seen);
  out->hpd = bench_spread_of(hpd, reps);
  out->ref = bench_spread_of(ref, reps);
  free(hpd);
}

/* ---- output ----------------------------------------------------------------------- */

static double gflops(int n, double seconds)
{
  return 2.0 * n * (double)n * (double)n / seconds * 1e-9;
}

/* Written so that a NaN fails. */
static const char *check_verdict(double check)
{
  if (!bench_results_computed())
    return "-";
  return check <= CHECK_THRESHOLD ? "ok" : "FAIL";
}

static void print_header(const options *o, int ranks)
{
  char kernels[128];
  printf("# bench_pdgemm: hpdaemon %s vs reference ScaLAPACK, grid %dx%d (%d ranks), "
         "%d timed call(s) per side, %s\n", HPD_VERSION_STRING, o->p, o->q, ranks, o->reps,
         bench_kernels(kernels, sizeof kernels));
  printf("# first: hpdaemon's warm-up call over the median of its timed calls (in the first "
         "row, the first call on the grid's communicators)\n");
  printf("%6s %5s %5s  %9s %-21s %8s  %9s %-21s %8s  %7s %5s  %5s %6s %6s %8s %-12s %5s "
         "%6s\n",
         "N", "NB", "grid", "hpd_s", "hpd_min..max", "hpd_GF/s", "ref_s", "ref_min..max",
         "ref_GF/s", "ref/hpd", "eff", "N_grp", "panels", "engine", "fallback", "reason",
         "check", "first");
  fflush(stdout);
}

static void print_row(const options *o, const row *w)
{
  char hs[32], rs[32], eff[16] = "-", ngrp[16] = "-", panels[16] = "-";
  snprintf(hs, sizeof hs, "%.4f..%.4f", w->hpd.min, w->hpd.max);
  snprintf(rs, sizeof rs, "%.4f..%.4f", w->ref.min, w->ref.max);
  if (w->local_gflops > 0)
    snprintf(eff, sizeof eff, "%.3f", gflops(w->n, w->hpd.median) / w->local_gflops);
  if (w->stats.ngrp > 0) {
    snprintf(ngrp, sizeof ngrp, "%d", w->stats.ngrp);
    snprintf(panels, sizeof panels, "%d", w->stats.panels);
  }
  printf("%6d %5d %2dx%-2d  %9.4f %-21s %8.2f  %9.4f %-21s %8.2f  %7.3f %5s  %5s %6s %6llu "
         "%8llu %-12s %5s %6.2f\n",
         w->n, w->nb, o->p, o->q, w->hpd.median, hs, gflops(w->n, w->hpd.median),
         w->ref.median, rs, gflops(w->n, w->ref.median), w->ref.median / w->hpd.median, eff,
         ngrp, panels, (unsigned long long)w->stats.engine,
         (unsigned long long)w->stats.fallback,
         w->stats.reason >= 0 ? hpd_fallback_reason_name(w->stats.reason) : "-",
         check_verdict(w->check), w->first_s / w->hpd.median);
  fflush(stdout);
}

static void append_csv(const options *o, const row *w)
{
  FILE *f = fopen(o->csv, "a");
  if (!f) {
    fprintf(stderr, "bench_pdgemm: cannot append to %s\n", o->csv);
    return;
  }
  if (ftell(f) == 0)
    fprintf(f, "n,nb,p,q,reps,hpd_median_s,hpd_min_s,hpd_max_s,ref_median_s,ref_min_s,"
               "ref_max_s,hpd_gflops,ref_gflops,ratio_ref_over_hpd,local_gflops,efficiency,"
               "ngrp,panels,engine_calls,fallback_calls,fallback_reason,check_resid,check,"
               "hpd_first_s\n");
  double hg = gflops(w->n, w->hpd.median);
  fprintf(f, "%d,%d,%d,%d,%d,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.3f,%.3f,%.4f,", w->n, w->nb,
          o->p, o->q, o->reps, w->hpd.median, w->hpd.min, w->hpd.max, w->ref.median,
          w->ref.min, w->ref.max, hg, gflops(w->n, w->ref.median),
          w->ref.median / w->hpd.median);
  if (w->local_gflops > 0)
    fprintf(f, "%.3f,%.4f,", w->local_gflops, hg / w->local_gflops);
  else
    fprintf(f, ",,");
  fprintf(f, "%d,%d,%llu,%llu,%s,%.3g,%s,%.6f\n", w->stats.ngrp, w->stats.panels,
          (unsigned long long)w->stats.engine, (unsigned long long)w->stats.fallback,
          w->stats.reason >= 0 ? hpd_fallback_reason_name(w->stats.reason) : "", w->check,
          check_verdict(w->check), w->first_s);
  fclose(f);
}

/* ---- driver ----------------------------------------------------------------------- */

static double first_call(void *pb, int reference)
{
  return timed_call(reference ? SIDE_REF : SIDE_HPD, pb);
}

/* --first-calls: a row of bench_first.h, under the dispatch in force. */
static void run_first(const options *o, const bench_grid *g, int n, int nb)
{
  problem pb;
  setup_problem(&pb, n, nb, g);
  bench_first_row row = {"pdgemm", "NN", n, nb, o->p, o->q};
  bench_first_run(&row, o->first, o->reps, first_call, &pb, o->csv);
  free_problem(&pb);
  simulator_cost(g);
}

/* --interleave: the orders' problems, made before the first call. */
static void run_interleaved(const options *o, const bench_grid *g)
{
  problem pb[MAX_LIST];
  void *each[MAX_LIST];
  for (int i = 0; i < o->n_count; i++) {
    setup_problem(&pb[i], o->n[i], o->nb[0], g);
    each[i] = &pb[i];
  }
  bench_interleave_row row = {"pdgemm", "NN", o->nb[0], o->p, o->q};
  bench_interleave_run(&row, o->interleave, o->reps, o->n_count, o->n, first_call, each,
                       o->csv);
  for (int i = 0; i < o->n_count; i++)
    free_problem(&pb[i]);
  simulator_cost(g);
}

static void run_row(const options *o, const bench_grid *g, int n_index, int nb)
{
  int n = o->n[n_index];
  if (g->rank == 0) {
    fprintf(stderr,
            "bench_pdgemm: N=%d NB=%d grid %dx%d: warm-up, then %d timed call(s) per side\n",
            n, nb, o->p, o->q, o->reps);
    fflush(stderr);
  }
  problem pb;
  row w = {.n = n, .nb = nb, .local_gflops = local_gflops_for(o, n_index)};
  setup_problem(&pb, n, nb, g);
  w.check = warm_up(&pb, &w.first_s);
  measure(&pb, o->reps, &w);
  free_problem(&pb);
  if (g->rank != 0)
    return;
  if (bench_results_computed() && !(w.check <= CHECK_THRESHOLD))
    fprintf(stderr, "bench_pdgemm: N=%d NB=%d: hpdaemon's result differs from the "
            "reference (scaled difference %.3g > %g)\n", n, nb, w.check, CHECK_THRESHOLD);
  if (w.stats.calls < (uint64_t)o->reps)
    fprintf(stderr, "bench_pdgemm: hpdaemon saw fewer calls than were made: pdgemm_ is not "
            "resolved to hpdaemon, both sides are the reference\n");
  print_row(o, &w);
  if (o->csv)
    append_csv(o, &w);
  simulator_cost(g);
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int hpd_status = hpd_parse_args(&argc, &argv), rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  options o;
  char err[256] = "";
  int parsed = hpd_status == HPD_SUCCESS ? parse_options(argc, argv, &o, err, sizeof err) : -1;
  int early = bench_options_verdict("bench_pdgemm", parsed, err, usage);
  if (early >= 0)
    return early;
  /* This program studies the engine itself (its grouping, broadcasts and switches), so
   * every call goes to it; which calls an application's mix sends elsewhere is
   * timing/bench_calls's subject, and --first-calls measures the dispatch in force. */
  if (o.first < 0 && o.interleave < 0)
    hpd_set_dispatch(HPD_DISPATCH_ENGINE);
  bench_grid g;
  if (bench_open_grid(o.p, o.q, &g) != 0)
    return bench_grid_refused("bench_pdgemm", o.p, o.q);
  if (rank == 0 && o.first < 0 && o.interleave < 0)
    print_header(&o, size);
  /* Each side sets its own; a report at MPI_Finalize should show what the user set. */
  int user_disable = hpd_get_disable();
  if (o.interleave >= 0)
    run_interleaved(&o, &g);
  for (int i = 0; o.interleave < 0 && i < o.n_count; i++)
    for (int j = 0; j < o.nb_count; j++)
      if (o.first < 0)
        run_row(&o, &g, i, o.nb[j]);
      else
        run_first(&o, &g, o.n[i], o.nb[j]);
  hpd_set_disable(user_disable);
  Cblacs_gridexit(g.context);
  MPI_Finalize();
  return 0;
}
