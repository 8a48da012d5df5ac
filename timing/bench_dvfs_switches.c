/*
 * bench_dvfs_switches: what frequency switching costs on its own, against the number of
 * switches (the paper's Figure 5), through the sim backend.
 *
 * Each row times S calls of hpd_dvfs_enter that alternate the two phases, so that every
 * call is a real switch and none is skipped (the counters prove it).  sim spins for its
 * emulated transition latency, so the time per switch should sit at that latency plus
 * hpdaemon's own bookkeeping; run with --latency-us 0 to see the bookkeeping alone.
 * There is no power meter behind sim: the energy column is the paper's figure
 * (about 1 J per 10 switches) times S, a model, never a measurement.
 * Columns: timing/README.md, "DVFS overhead".
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_common.h"
#include "bench_sample.h"
#include "hpdaemon.h"

#define MAX_COUNTS 32

typedef struct options {
  long counts[MAX_COUNTS];
  int count_n, reps;
  double latency_us, joules;
  const char *csv;
} options;

typedef struct row {
  long s;
  bench_spread total;      /* seconds for all S switches, slowest rank */
  double lib_s;            /* the library's own switch time per repetition, slowest rank */
  int exact;               /* every call switched: S x reps switches, none skipped */
  uint64_t switches, skipped; /* per repetition (total / reps), most over ranks */
} row;

static void usage(FILE *out)
{
  fprintf(out,
          "usage: bench_dvfs_switches [-s S[,S...]] [-r REPS] [--latency-us US] [--joules J]\n"
          "                           [--csv PATH]\n"
          "  -s            numbers of switches per row (default 0,10,20,50,100,200,500,1000)\n"
          "  -r            repetitions per row; the median counts (default 9)\n"
          "  --latency-us  sim's emulated transition latency (default 70, the paper's)\n"
          "  --joules      modeled energy per switch (default 0.1, the paper's Figure 5)\n"
          "  --csv         append one line per row to PATH (header when PATH is empty)\n");
}

/* "a,b,c" of integers in [0, 10^7]; 0 or -1.  S = 0 is a row of its own: the timer. */
static int parse_counts(const char *text, long *out, int *n)
{
  *n = 0;
  for (const char *s = text; *s;) {
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || v < 0 || v > 10000000 || *n == MAX_COUNTS || (*end && *end != ','))
      return -1;
    out[(*n)++] = v;
    s = *end ? end + 1 : end;
  }
  return *n > 0 ? 0 : -1;
}

static int parse_double(const char *text, double lo, double hi, double *out)
{
  char *end;
  double v = strtod(text, &end);
  if (end == text || *end || !(v >= lo && v <= hi))
    return -1;
  *out = v;
  return 0;
}


/* 0 to run, 1 after --help, -1 on an error (message in err). */
static int parse_options(int argc, char **argv, options *o, char *err, size_t errlen)
{
  memset(o, 0, sizeof *o);
  parse_counts("0,10,20,50,100,200,500,1000", o->counts, &o->count_n);
  o->reps = 9, o->latency_us = 70, o->joules = 0.1;
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i], *v;
    double reps = 0;
    int bad;
    if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0)
      return 1;
    if ((v = bench_option_value(argc, argv, &i, "-s")))
      bad = parse_counts(v, o->counts, &o->count_n);
    else if ((v = bench_option_value(argc, argv, &i, "-r")))
      bad = parse_double(v, 1, 10000, &reps) || (o->reps = (int)reps) != reps;
    else if ((v = bench_option_value(argc, argv, &i, "--latency-us")))
      bad = parse_double(v, 0, 1e6, &o->latency_us);
    else if ((v = bench_option_value(argc, argv, &i, "--joules")))
      bad = parse_double(v, 0, 1e6, &o->joules);
    else if ((v = bench_option_value(argc, argv, &i, "--csv")))
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

/* The phase that is not in force: after a multiply the broadcast, and the reverse. */
static hpd_phase next_phase = HPD_PHASE_BROADCAST;

static void switch_times(long s)
{
  for (long i = 0; i < s; i++) {
    hpd_dvfs_enter(next_phase);
    next_phase = next_phase == HPD_PHASE_BROADCAST ? HPD_PHASE_MULTIPLY : HPD_PHASE_BROADCAST;
  }
}

static void measure(const options *o, long s, row *out)
{
  double *t = malloc((size_t)o->reps * sizeof *t);
  if (!t)
    MPI_Abort(MPI_COMM_WORLD, 1);
  hpd_dvfs_totals before, after;
  hpd_get_dvfs_totals(&before);
  for (int r = 0; r < o->reps; r++) {
    double start = MPI_Wtime();
    switch_times(s);
    double mine = MPI_Wtime() - start;
    MPI_Allreduce(&mine, &t[r], 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  }
  hpd_get_dvfs_totals(&after);
  double lib = (after.switch_s - before.switch_s) / o->reps;
  uint64_t mine[2] = {after.switches - before.switches, after.skipped - before.skipped};
  uint64_t most[2];
  MPI_Allreduce(mine, most, 2, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(&lib, &out->lib_s, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  out->s = s;
  out->total = bench_spread_of(t, o->reps);
  out->switches = most[0] / (uint64_t)o->reps, out->skipped = most[1] / (uint64_t)o->reps;
  int exact = mine[0] == (uint64_t)(s * o->reps) && mine[1] == 0;
  MPI_Allreduce(&exact, &out->exact, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  free(t);
}

static void print_header(const options *o, int ranks)
{
  hpd_dvfs_info info;
  hpd_get_dvfs_info(&info);
  printf("# bench_dvfs_switches: hpdaemon %s, backend %s (latency %.1f us emulated, "
         "%u -> %u kHz), %d rank(s) switching at once, %d repetitions per row, "
         "energy modeled at %.3g J per switch\n",
         HPD_VERSION_STRING, hpd_dvfs_name(info.backend), info.latency_ns * 1e-3,
         info.high_khz, info.low_khz, ranks, o->reps, o->joules);
  printf("%7s %10s %-21s %10s %10s %10s %10s %10s %8s %7s\n", "S", "total_ms",
         "min..max_ms", "model_ms", "ms/switch", "us/switch", "lib_ms", "energy_J",
         "switches", "skipped");
  fflush(stdout);
}

static void print_row(const options *o, const row *w)
{
  char span[32], per_ms[16] = "-", per_us[16] = "-";
  snprintf(span, sizeof span, "%.4f..%.4f", w->total.min * 1e3, w->total.max * 1e3);
  if (w->s > 0) {
    snprintf(per_ms, sizeof per_ms, "%.5f", w->total.median * 1e3 / w->s);
    snprintf(per_us, sizeof per_us, "%.3f", w->total.median * 1e6 / w->s);
  }
  printf("%7ld %10.4f %-21s %10.4f %10s %10s %10.4f %10.2f %8llu %7llu\n", w->s,
         w->total.median * 1e3, span, w->s * o->latency_us * 1e-3, per_ms, per_us,
         w->lib_s * 1e3, w->s * o->joules, (unsigned long long)w->switches,
         (unsigned long long)w->skipped);
  fflush(stdout);
}

static void append_csv(const options *o, const row *w)
{
  FILE *f = fopen(o->csv, "a");
  if (!f) {
    fprintf(stderr, "bench_dvfs_switches: cannot append to %s\n", o->csv);
    return;
  }
  if (ftell(f) == 0)
    fprintf(f, "latency_us,switches_per_rep,reps,median_s,min_s,max_s,model_s,"
               "s_per_switch,lib_switch_s,energy_modeled_j,switches_per_rep,skipped_per_rep\n");
  fprintf(f, "%.3f,%ld,%d,%.9f,%.9f,%.9f,%.9f,", o->latency_us, w->s, o->reps,
          w->total.median, w->total.min, w->total.max, w->s * o->latency_us * 1e-6);
  if (w->s > 0)
    fprintf(f, "%.9f,", w->total.median / w->s);
  else
    fprintf(f, ",");
  fprintf(f, "%.9f,%.4f,%llu,%llu\n", w->lib_s, w->s * o->joules,
          (unsigned long long)w->switches, (unsigned long long)w->skipped);
  fclose(f);
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  options o;
  char err[256] = "";
  int parsed = parse_options(argc, argv, &o, err, sizeof err);
  if (parsed != 0) {
    if (rank == 0 && err[0])
      fprintf(stderr, "bench_dvfs_switches: %s\n", err);
    if (rank == 0)
      usage(parsed > 0 ? stdout : stderr);
    MPI_Finalize();
    return parsed > 0 ? 0 : 2;
  }
  /* Only sim both emulates a known latency and leaves the machine's frequency alone. */
  hpd_set_dvfs(HPD_DVFS_SIM);
  hpd_set_sim_switch_us(o.latency_us);
  /* The first switch sets DVFS up (and sim's record grows on its first switches): that
   * belongs to no row. */
  switch_times(64);
  hpd_dvfs_info info;
  hpd_get_dvfs_info(&info);
  if (info.backend != HPD_DVFS_SIM) {
    if (rank == 0)
      fprintf(stderr, "bench_dvfs_switches: the sim backend did not start (%s)\n",
              hpd_dvfs_name(info.backend));
    MPI_Finalize();
    return 1;
  }
  if (rank == 0)
    print_header(&o, size);
  int status = 0;
  for (int i = 0; i < o.count_n; i++) {
    row w;
    measure(&o, o.counts[i], &w);
    if (!w.exact)
      status = 1;
    if (rank != 0)
      continue;
    print_row(&o, &w);
    if (o.csv)
      append_csv(&o, &w);
  }
  if (rank == 0 && status)
    fprintf(stderr, "bench_dvfs_switches: the counters disagree with the calls made "
            "(switches should be S x reps, skipped 0)\n");
  MPI_Finalize();
  return status;
}
