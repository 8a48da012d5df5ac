/*
 * energy_driver: the energy accounting of hpdaemon's strategies on pdgemm, LU and
 * Cholesky.
 *
 *   energy_driver [-t FRACTION] [-s STRATEGY[,...]|all] [-n N] [-b NB] [-p P -q Q]
 *                 [-r REPS] [--table3 | --no-table3] [--csv PATH] [--report[=SPEC]] [-h]
 *
 * Every strategy runs the same pdgemm (C = A * B), the same LU (pdgetrf_: hpdaemon's own
 * look-ahead on one process row, else ScaLAPACK's with pdtrsm_ for each block row of U
 * and pdgemm_ for the trailing updates) and the same Cholesky (pdpotrf_ 'L': likewise,
 * else pdtrsm_ for each panel and pdsyrk_ for the trailing updates), and gets one row of
 * time, switches, energy and memory over all of hpdaemon's routines; daemon's savings
 * against basic and none follow.  The program defines pdgemm_, pdsyrk_, pdtrsm_,
 * pdpotrf_ and pdgetrf_ itself
 * (energy_driver_check.c), so every call, inside the factorizations too, has its
 * switch count checked against the strategy's identity; one broken identity fails the
 * run.  Table 3 then shows how N_grp and the extra memory follow the threshold.
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "energy_driver_check.h"
#include "energy_driver_data.h"
#include "energy_driver_report.h"
#include "energy_driver_table3.h"
#include "bench_common.h"
#include "hpdaemon.h"
#include "scalapack.h"

/* The bench's bound for pdgemm: rounding between two correct summation orders stays far
 * below it.  LU's factors carry the rounding of every update before them, hence more. */
#define GEMM_CHECK 16.0
#define FACTOR_CHECK 256.0

/* ---- options ---------------------------------------------------------------------- */

static void usage(FILE *out)
{
  fprintf(out,
          "usage: energy_driver [-t FRACTION] [-s STRATEGY[,...]|all] [-n N] [-b NB]\n"
          "                     [-p P -q Q] [-r REPS] [--table3|--no-table3] [--csv PATH]\n"
          "                     [--report[=SPEC]]\n"
          "  -t        memory threshold for the grouping buffers, in (0,1] (default 0.2)\n"
          "  -s        strategies to compare: a comma list of none, basic, daemon, overlap,\n"
          "            auto, or all (default all)\n"
          "  -n, -b    matrix order and block size (default 2048, 32)\n"
          "  -p, -q    process grid; P*Q must equal the number of ranks (default 1x2)\n"
          "  -r        runs per routine and strategy, interleaved; medians shown (default 1,\n"
          "            at most 100)\n"
          "  --table3  N_grp and extra memory over a ladder of thresholds (default on)\n"
          "  --csv     append the main table's rows to PATH\n"
          "Exits 1 if a switch identity fails, a result differs from the reference or\n"
          "pdgetrf_ fails; 2 on a bad option.\n");
}

/* An integer option's value in [low, high]; 0, or -1 with a message in err. */
static int parse_int(const char *name, const char *text, int low, int high, int *out,
                     char *err, size_t len)
{
  char *end;
  long v = text ? strtol(text, &end, 10) : 0;
  if (text && end != text && !*end && v >= low && v <= high) {
    *out = (int)v;
    return 0;
  }
  snprintf(err, len, "%s: expected an integer from %d to %d, got '%s'", name, low, high,
           text ? text : "nothing");
  return -1;
}

/* Returns 0 to run, 1 after -h, -1 with a message in err. */
static int parse_options(int argc, char **argv, ed_options *o, char *err, size_t len)
{
  *o = (ed_options){.n = 2048, .nb = 32, .p = 1, .q = 2, .reps = 1, .table3 = 1,
                    .threshold = hpd_get_mem_threshold()};
  bench_parse_strategies("all", o->strategies, &o->strategy_count);
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    int bad = 0, used = 1;
    if (!strcmp(a, "-h") || !strcmp(a, "--help"))
      return 1;
    else if (!strcmp(a, "--table3") || !strcmp(a, "--no-table3"))
      o->table3 = a[2] == 't', used = 0;
    else if (!strcmp(a, "--"))
      used = 0; /* hpd_parse_args leaves it in place */
    else if (!strcmp(a, "-s")) {
      if (!v || bench_parse_strategies(v, o->strategies, &o->strategy_count) != 0) {
        snprintf(err, len, "-s: unknown strategy '%s' (expected none, basic, daemon or all)",
                 v ? v : "");
        return -1;
      }
    } else if (!strcmp(a, "-n"))
      bad = parse_int(a, v, 1, 1000000, &o->n, err, len);
    else if (!strcmp(a, "-b"))
      bad = parse_int(a, v, 1, 1000000, &o->nb, err, len);
    else if (!strcmp(a, "-p"))
      bad = parse_int(a, v, 1, 4096, &o->p, err, len);
    else if (!strcmp(a, "-q"))
      bad = parse_int(a, v, 1, 4096, &o->q, err, len);
    else if (!strcmp(a, "-r"))
      bad = parse_int(a, v, 1, ED_MAX_REPS, &o->reps, err, len);
    else if (!strcmp(a, "--csv")) {
      if ((bad = !v || !*v))
        snprintf(err, len, "--csv: expected a file name");
      o->csv = v;
    } else {
      snprintf(err, len, "unknown option '%s'", a);
      return -1;
    }
    if (bad)
      return -1;
    i += used;
  }
  return 0;
}

/* ---- measuring -------------------------------------------------------------------- */

static int energy_source(void)
{
  hpd_energy_info info;
  hpd_get_energy_info(&info);
  return info.source;
}

/* What run r computes, and where the reference's result of it is kept. */
static double *result_of(ed_problem *pb, int r)
{
  return r == ED_GEMM ? pb->c : r == ED_LU ? pb->lu : pb->llt;
}

static double *reference_of(ed_problem *pb, int r)
{
  return r == ED_GEMM ? pb->c_ref : r == ED_LU ? pb->lu_ref : pb->llt_ref;
}

/* One run of a routine with the strategy and disable setting in force, added to *f.
 * ref: the reference's result to compare with, or NULL. */
static void run_once(int r, ed_problem *pb, const ed_grid *g, const double *ref,
                     ed_figures *f)
{
  if (r == ED_LU)
    ed_lu_regenerate(pb, g);
  else if (r == ED_LLT)
    ed_llt_regenerate(pb, g);
  hpd_reset_stats();
  ed_check_begin_run();
  MPI_Barrier(MPI_COMM_WORLD);
  hpd_energy_sample e0, e1;
  hpd_get_energy_sample(&e0);
  double start = MPI_Wtime();
  int info = 0;
  if (r == ED_GEMM)
    ed_multiply(pb);
  else
    info = r == ED_LU ? ed_factor(pb) : ed_cholesky(pb);
  double wall = MPI_Wtime() - start;
  hpd_get_energy_sample(&e1);

  hpd_energy_sample all;
  bench_energy_spent_all(&e0, &e1, &all);
  hpd_stats stats;
  hpd_get_stats(&stats);
  /* Switches add up over the routines the run called; memory is the largest of any. */
  uint64_t local[8] = {0, 0, (uint64_t)ed_check_ngrp_max(), 0, 0, 0, (uint64_t)(info != 0), 0};
  for (int routine = 0; routine < HPD_ROUTINES; routine++) {
    const hpd_routine_stats *s = &stats.routine[routine];
    local[0] += s->dvfs_switches;
    local[1] += s->dvfs_skipped;
    local[7] += s->dvfs_held;
    local[3] = s->extra_bytes_model_max > local[3] ? s->extra_bytes_model_max : local[3];
    local[4] = s->extra_bytes_observed_max > local[4] ? s->extra_bytes_observed_max : local[4];
    local[5] = s->peak_rss_bytes > local[5] ? s->peak_rss_bytes : local[5];
  }
  uint64_t most[8];
  double slowest;
  MPI_Allreduce(local, most, 8, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(&wall, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);

  f->time_s[f->runs] = slowest;
  f->energy_j[f->runs] = energy_source() >= HPD_SOURCE_MEASURED ? all.measured_j
                                                                : all.modeled_j;
  f->cpu_s[f->runs] = all.cpu_s;
  f->runs++;
  f->switches += most[0];
  f->skipped += most[1];
  f->held += most[7];
  f->ngrp = (int)most[2] > f->ngrp ? (int)most[2] : f->ngrp;
  f->model = most[3] > f->model ? most[3] : f->model;
  f->observed = most[4] > f->observed ? most[4] : f->observed;
  f->peak_rss = most[5] > f->peak_rss ? most[5] : f->peak_rss;
  if (most[6] && !f->info)
    f->info = info ? info : -1;
  if (ref) {
    double d = ed_scaled_difference(result_of(pb, r), ref, pb->elems, pb->n);
    if (!(d <= f->check))
      f->check = d;
  }
}

static void progress(const ed_grid *g, const char *what, const char *how, int index, int total,
                     int rep, int reps, const ed_options *o)
{
  if (g->rank != 0)
    return;
  fprintf(stderr, "energy_driver: %s %s %d/%d (rep %d/%d), N=%d NB=%d grid %dx%d\n", what,
          how, index, total, rep, reps, o->n, o->nb, o->p, o->q);
  fflush(stderr);
}

/* First calls pay for set-up: DVFS and energy accounting, grid communicators, chunk
 * tuning for every message size, first-touch page faults.  No row should carry it. */
static void warm_up(ed_problem *pb, const ed_grid *g, uint64_t *panel_bytes, int *panels)
{
  if (g->rank == 0) {
    fprintf(stderr, "energy_driver: warm-up (pdgemm, pdgetrf, pdpotrf)\n");
    fflush(stderr);
  }
  ed_figures ignored = {0};
  hpd_set_strategy(HPD_STRATEGY_NONE);
  run_once(ED_GEMM, pb, g, NULL, &ignored);
  hpd_stats s;
  hpd_get_stats(&s);
  const hpd_routine_stats *r = &s.routine[HPD_ROUTINE_PDGEMM];
  *panel_bytes = r->ngrp_last > 0 ? r->extra_bytes_model_max / (uint64_t)r->ngrp_last : 0;
  *panels = r->panels_last;
  run_once(ED_LU, pb, g, NULL, &ignored);
  run_once(ED_LLT, pb, g, NULL, &ignored);
}

/* ---- driver ----------------------------------------------------------------------- */

/* The reference's results are what every strategy's are compared with. */
static void run_reference(const ed_options *o, const ed_grid *g, ed_problem *pb,
                          ed_figures ref[ED_ROUTINES])
{
  int disabled = hpd_get_disable();
  hpd_set_disable(1);
  for (int rep = 1; rep <= o->reps; rep++)
    for (int r = 0; r < ED_ROUTINES; r++) {
      progress(g, ed_routine_name(r), "reference", r + 1, ED_ROUTINES, rep, o->reps, o);
      run_once(r, pb, g, NULL, &ref[r]);
    }
  hpd_set_disable(disabled);
  for (int r = 0; r < ED_ROUTINES; r++)
    memcpy(reference_of(pb, r), result_of(pb, r), pb->elems * sizeof(double));
}

/* The strategies interleave within each repetition, so slow drift of a shared machine
 * spreads over all of them instead of landing on one. */
static void run_strategies(const ed_options *o, const ed_grid *g, ed_problem *pb,
                           ed_figures rows[ED_ROUTINES][HPD_STRATEGIES])
{
  int total = ED_ROUTINES * o->strategy_count, index = 0;
  for (int rep = 1; rep <= o->reps; rep++, index = 0)
    for (int r = 0; r < ED_ROUTINES; r++)
      for (int i = 0; i < o->strategy_count; i++) {
        int s = o->strategies[i];
        progress(g, ed_routine_name(r), hpd_strategy_name(s), ++index, total, rep, o->reps, o);
        hpd_set_strategy((hpd_strategy)s);
        run_once(r, pb, g, reference_of(pb, r), &rows[r][s]);
      }
}

/* Returns the number of problems found (rank 0 prints them). */
static int verdict(const ed_options *o, const ed_grid *g,
                   ed_figures rows[ED_ROUTINES][HPD_STRATEGIES])
{
  int problems = 0, stopped = 0;
  for (int i = 0; i < o->strategy_count; i++) {
    int s = o->strategies[i];
    const ed_figures *gemm = &rows[ED_GEMM][s], *lu = &rows[ED_LU][s], *llt = &rows[ED_LLT][s];
    if (!bench_results_computed()) { /* the simulated timing mode computes nothing */
      /* A factorization that stops early there timed only its start: said, not counted
       * as a problem (its matrix is the rank's own, so its pivots are as generated). */
      if ((lu->info || llt->info) && !stopped++ && g->rank == 0)
        fprintf(stderr, "energy_driver: %s stopped early (info %d) in the simulated timing "
                "mode, whose kernels compute nothing: its rows time that start only\n",
                lu->info ? "pdgetrf" : "pdpotrf", lu->info ? lu->info : llt->info);
      continue;
    }
    if (!(gemm->check <= GEMM_CHECK) || !(lu->check <= FACTOR_CHECK) || lu->info ||
        !(llt->check <= FACTOR_CHECK) || llt->info) {
      problems++;
      if (g->rank == 0)
        fprintf(stderr, "energy_driver: strategy %s: pdgemm differs from the reference by "
                "%.3g (bound %g), pdgetrf by %.3g and pdpotrf by %.3g (bound %g), info %d "
                "and %d\n",
                hpd_strategy_name(s), gemm->check, GEMM_CHECK, lu->check, llt->check,
                FACTOR_CHECK, lu->info, llt->info);
    }
  }
  uint64_t mine[2] = {ed_check_calls(), ed_check_failures()}, all[2];
  MPI_Allreduce(mine, all, 2, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
  uint64_t failures_total;
  MPI_Allreduce(&mine[1], &failures_total, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
  if (g->rank == 0) {
    if (failures_total == 0)
      printf("energy_driver: identities ok (%llu calls checked)\n",
             (unsigned long long)all[0]);
    else
      printf("energy_driver: identities FAILED: %llu failure(s) over all ranks in %llu "
             "calls checked\n", (unsigned long long)failures_total,
             (unsigned long long)all[0]);
  }
  return problems + (failures_total != 0) + (all[0] == 0);
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int parsed_hpd = hpd_parse_args(&argc, &argv), rank;
  /* This program studies the engine itself (its grouping, broadcasts and switches), so
   * every call goes to it; which calls an application's mix sends elsewhere is
   * timing/bench_calls's subject. */
  hpd_set_dispatch(HPD_DISPATCH_ENGINE);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  ed_options o;
  char err[256] = "";
  int parsed = parsed_hpd == HPD_SUCCESS ? parse_options(argc, argv, &o, err, sizeof err) : -1;
  if (parsed != 0) {
    if (rank == 0 && err[0])
      fprintf(stderr, "energy_driver: %s\n", err);
    if (rank == 0)
      usage(parsed > 0 ? stdout : stderr);
    MPI_Finalize();
    return parsed > 0 ? 0 : 2;
  }
  ed_grid g;
  if (ed_grid_open(&o, &g) != 0) {
    if (rank == 0)
      fprintf(stderr, "energy_driver: grid %dx%d needs exactly %ld ranks, started with %d "
              "(set -p and -q so that P*Q is the number of ranks)\n",
              o.p, o.q, (long)o.p * o.q, g.size);
    MPI_Finalize();
    return 2;
  }
  /* A report at MPI_Finalize should show the strategy the user chose, not the last row's. */
  hpd_strategy user_strategy = hpd_get_strategy();
  ed_problem pb;
  ed_problem_setup(&pb, o.n, o.nb, &g);
  uint64_t panel_bytes;
  int panels;
  warm_up(&pb, &g, &panel_bytes, &panels);

  ed_figures ref[ED_ROUTINES] = {{0}}, rows[ED_ROUTINES][HPD_STRATEGIES] = {{{0}}};
  run_reference(&o, &g, &pb, ref);
  run_strategies(&o, &g, &pb, rows);
  int source = energy_source();
  if (rank == 0) {
    ed_print_header(&o, &g);
    for (int r = 0; r < ED_ROUTINES; r++)
      for (int i = 0; i < o.strategy_count; i++) {
        ed_print_row(r, o.strategies[i], &rows[r][o.strategies[i]], source);
        if (o.csv)
          ed_append_csv(&o, r, o.strategies[i], &rows[r][o.strategies[i]], source);
      }
    ed_print_savings(&o, rows, source);
    ed_print_reference(ref, source);
    fflush(stdout);
  }
  if (o.table3)
    ed_table3(&o, &g, &pb, panel_bytes, panels);
  hpd_set_strategy(user_strategy);
  hpd_config cfg;
  hpd_get_config(&cfg);
  if (rank == 0 && cfg.report != HPD_REPORT_OFF)
    printf("# hpdaemon's report at exit covers the last run only: the driver resets the "
           "statistics before each run\n");
  int problems = verdict(&o, &g, rows);
  if (rank == 0)
    fflush(stdout);
  ed_problem_free(&pb);
  Cblacs_gridexit(g.context);
  MPI_Finalize();
  return problems ? 1 : 0;
}
