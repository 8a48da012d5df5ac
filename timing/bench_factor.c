/*
 * bench_factor: ScaLAPACK's LU (pdgetrf_) and Cholesky (pdpotrf_) with hpdaemon
 * underneath against the same calls on reference ScaLAPACK, in one run, on one grid.
 *
 * Both sides factor the very same matrix in the very same arrays; hpd_set_disable(1) is
 * what sends the factorization's pdgemm_ and pdsyrk_ calls to the reference.  The sides
 * alternate, and which goes first flips every repetition, so other load on the machine
 * lands on both alike.  Each side's factors are checked once, as ScaLAPACK's testers
 * check theirs.  Columns: timing/README.md.
 */
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
#include "factor_measure.h"
#include "factor_problem.h"
#include "factor_residual.h"
#include "hpdaemon.h"
#include "scalapack.h"

typedef struct options {
  int n[MAX_LIST], n_count;
  int nb[MAX_LIST], nb_count;
  int factors[FD_FACTORS], factor_count;
  char uplo;
  int strategies[HPD_STRATEGIES], strategy_count;
  int p, q, reps;
  int first;      /* --first-calls: 0 hpd, 1 ref; -1 without it */
  int interleave; /* --interleave: the same, the orders' calls in turn */
  const char *csv;
} options;

typedef struct row {
  fd_factor factor;
  char uplo;
  int n, nb, strategy;
  bench_spread hpd, ref;
  /* The median of the per-pair ratios ref/hpd: a pair runs back to back, so drift in the
   * machine's load between pairs cancels out.  ratio_lo..ratio_hi is the median's
   * confidence interval at ratio_level (0: too few pairs for 95%). */
  double ratio, ratio_lo, ratio_hi, ratio_level;
  double hpd_j, ref_j;       /* medians, all ranks, in the job's energy source */
  double calls[FD_ROUTINES], engine[FD_ROUTINES]; /* per hpdaemon call: pdgemm, pdsyrk,
                                                     pdpotrf, pdgetrf */
  double switches, skipped, held; /* per hpdaemon call, most of any rank */
  fd_residual resid_hpd, resid_ref;
  int info;
  int identity_ok; /* every hpdaemon factorization's switch requests fit the strategy */
} row;

/* ---- options ---------------------------------------------------------------------- */

static void usage(FILE *out)
{
  fprintf(out,
          "usage: bench_factor [-n N[,N...]] [-b NB[,NB...]] [-p P -q Q] [-r REPS]\n"
          "                    [-f lu|chol|both] [-u L|U] [-s STRATEGY[,...]|all]\n"
          "                    [--first-calls hpd|ref] [--interleave hpd|ref] [--csv PATH]\n"
          "                    [hpdaemon options]\n"
          "  -n         matrix orders (default 4096)\n"
          "  -b         block sizes (default 32,64)\n"
          "  -p, -q     process grid, P*Q must equal the number of ranks (default 1x2)\n"
          "  -r         timed factorizations per side and row (default 9; 6 or more give the\n"
          "             ratio its 95%% interval)\n"
          "  -f         LU (pdgetrf_), Cholesky (pdpotrf_) or both (default both)\n"
          "  -u         Cholesky's triangle (default L)\n"
          "  -s         hpdaemon's strategies, one row each: a comma list of none, basic,\n"
          "             daemon, overlap, auto, or all (default: the one in force,\n"
          "             HPD_STRATEGY or daemon)\n"
          "  --csv      append one line per row to PATH (header when PATH is empty)\n"
          "%s%s"
          "             (with one factorization, -f lu or chol)\n"
          "  hpdaemon options (-t FRACTION, --report[=SPEC]) are applied to its engine.\n",
          bench_first_usage, bench_interleave_usage);
}


static int parse_factors(const char *text, options *o)
{
  int lu = !strcmp(text, "lu") || !strcmp(text, "both");
  int chol = !strcmp(text, "chol") || !strcmp(text, "both");
  o->factor_count = 0;
  if (lu)
    o->factors[o->factor_count++] = FD_LU;
  if (chol)
    o->factors[o->factor_count++] = FD_CHOL;
  return o->factor_count ? 0 : -1;
}

static int parse_uplo(const char *text, options *o)
{
  if (strlen(text) != 1 || !strchr("LlUu", text[0]))
    return -1;
  o->uplo = text[0] == 'l' || text[0] == 'L' ? 'L' : 'U';
  return 0;
}

/* Returns 0 to run, 1 after --help, -1 on an error (message in err). */
static int parse_options(int argc, char **argv, options *o, char *err, size_t errlen)
{
  memset(o, 0, sizeof *o);
  o->n[0] = 4096, o->n_count = 1;
  o->nb[0] = 32, o->nb[1] = 64, o->nb_count = 2;
  o->p = 1, o->q = 2, o->reps = 9, o->uplo = 'L', o->first = -1, o->interleave = -1;
  o->strategies[0] = hpd_get_strategy(), o->strategy_count = 1;
  parse_factors("both", o);
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
    else if ((v = bench_option_value(argc, argv, &i, "-f")))
      bad = parse_factors(v, o);
    else if ((v = bench_option_value(argc, argv, &i, "-u")))
      bad = parse_uplo(v, o);
    else if ((v = bench_option_value(argc, argv, &i, "-s")))
      bad = bench_parse_strategies(v, o->strategies, &o->strategy_count);
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
  if (bench_interleave_check(o->interleave, o->first, o->n_count, o->nb_count, o->reps, err,
                             errlen))
    return -1;
  if (o->interleave >= 0 && o->factor_count != 1) {
    snprintf(err, errlen, "--interleave takes one factorization (-f lu or -f chol)");
    return -1;
  }
  return bench_first_rounds_check(o->first, o->reps, err, errlen);
}

/* ---- measuring -------------------------------------------------------------------- */

enum side { SIDE_HPD, SIDE_REF };

static void side_call(enum side side, fd_problem *pb, const fd_grid *g, fd_run *run)
{
  hpd_set_disable(side == SIDE_REF);
  fd_measure(pb, g, run);
}

/* One call per side first: set-up (hpdaemon's first call sets DVFS and energy up, so it
 * goes first), grid communicators, first-touch page faults.  Their factors are checked. */
static void warm_up(fd_problem *pb, const fd_grid *g, row *w)
{
  fd_run ignored;
  side_call(SIDE_HPD, pb, g, &ignored);
  w->resid_hpd = fd_residual_check(pb, g);
  w->info = ignored.info;
  w->identity_ok = ignored.identity_ok;
  side_call(SIDE_REF, pb, g, &ignored);
  w->resid_ref = fd_residual_check(pb, g);
  w->info = w->info ? w->info : ignored.info;
}

static void measure(fd_problem *pb, const fd_grid *g, int reps, row *w)
{
  double *t = malloc(5 * (size_t)reps * sizeof *t);
  if (!t)
    MPI_Abort(MPI_COMM_WORLD, 1);
  double *t_ref = t + reps, *j_hpd = t + 2 * reps, *j_ref = t + 3 * reps;
  double *pair = t + 4 * reps;
  for (int r = 0; r < reps; r++) {
    fd_run hpd, ref;
    if (r % 2 == 0) {
      side_call(SIDE_HPD, pb, g, &hpd);
      side_call(SIDE_REF, pb, g, &ref);
    } else {
      side_call(SIDE_REF, pb, g, &ref);
      side_call(SIDE_HPD, pb, g, &hpd);
    }
    t[r] = hpd.time_s, t_ref[r] = ref.time_s;
    pair[r] = ref.time_s / hpd.time_s;
    j_hpd[r] = hpd.energy_j, j_ref[r] = ref.energy_j;
    for (int k = 0; k < FD_ROUTINES; k++)
      w->calls[k] += (double)hpd.calls[k] / reps, w->engine[k] += (double)hpd.engine[k] / reps;
    w->switches += (double)hpd.switches / reps;
    w->skipped += (double)hpd.skipped / reps;
    w->held += (double)hpd.held / reps;
    w->identity_ok &= hpd.identity_ok;
    if (!w->info)
      w->info = hpd.info ? hpd.info : ref.info;
  }
  w->hpd = bench_spread_of(t, reps);
  w->ref = bench_spread_of(t_ref, reps);
  w->ratio = bench_median(pair, reps);
  w->ratio_level = bench_median_interval(pair, reps, &w->ratio_lo, &w->ratio_hi);
  w->hpd_j = bench_median(j_hpd, reps);
  w->ref_j = bench_median(j_ref, reps);
  free(t);
}

/* ---- output ----------------------------------------------------------------------- */

static double gflops(const row *w, double seconds)
{
  double n = w->n, flops = w->factor == FD_LU ? 2.0 / 3.0 * n * n * n : n * n * n / 3.0;
  return flops / seconds * 1e-9;
}

/* Where the kernels compute nothing (the simulated timing mode) the factors, INFO and
 * residuals mean nothing either: only the switch identities are checked. */
static int row_passes(const row *w)
{
  if (!bench_results_computed())
    return w->identity_ok;
  return !w->info && w->identity_ok && fd_residual_passes(&w->resid_hpd) &&
         fd_residual_passes(&w->resid_ref);
}

static const char *row_verdict(const row *w)
{
  if (!row_passes(w))
    return "FAIL";
  return bench_results_computed() ? "ok" : "-";
}

static void print_header(const options *o, int ranks)
{
  hpd_dvfs_info dvfs;
  hpd_energy_info energy;
  hpd_get_dvfs_info(&dvfs);
  hpd_get_energy_info(&energy);
  printf("# bench_factor: hpdaemon %s vs reference ScaLAPACK, grid %dx%d (%d ranks), %d timed "
         "factorization(s) per side, BLAS kernels %s, %d BLAS thread(s) per rank, threshold "
         "%g\n", HPD_VERSION_STRING, o->p, o->q, ranks, o->reps, openblas_get_corename(),
         openblas_get_num_threads(), hpd_get_mem_threshold());
  char rule[48];
  printf("# DVFS: %s backend (%s), switch min %s; energy: %s", hpd_dvfs_name(dvfs.backend),
         bench_dvfs_how(dvfs.backend, dvfs.applied), bench_switch_rule(rule, sizeof rule),
         hpd_energy_source_name(energy.source));
  if (energy.source == HPD_SOURCE_MODELED)
    printf(" (the power model's figures, %s, not measurements)", energy.model);
  printf("\n# pdgemm, pdsyrk, factor (the row's pdgetrf or pdpotrf itself): per hpdaemon "
         "factorization, calls served by its engine / calls "
         "that reached it; switches, held (requests daemon's switch rule held back): per "
         "factorization, most of any rank; ref/hpd: median of the ratios of back-to-back pairs, "
         "ratio_CI: that median's confidence interval of 95%% or more (- below 6 pairs); "
         "hpd_J, ref_J: medians, all ranks\n");
  printf("%-7s %-4s %5s %4s %-5s %-8s %8s %-17s %8s %-17s %7s %-13s %8s %8s %9s %9s %7s %8s "
         "%6s %9s %9s %-8s %9s %9s %s\n", "factor", "uplo", "N", "NB", "grid", "strategy",
         "ref_s", "ref_min..max", "hpd_s", "hpd_min..max", "ref/hpd", "ratio_CI", "ref_GF/s",
         "hpd_GF/s", "pdgemm", "pdsyrk", "factor", "switches", "held", "hpd_J", "ref_J", "source", "resid_hpd", "resid_ref",
         "check");
  fflush(stdout);
}

static void print_row(const options *o, const row *w, int source)
{
  char rs[32], hs[32], ci[32] = "-", gemm[32], syrk[32], potrf[32], grid[32], hj[32] = "-", rj[32] = "-";
  snprintf(grid, sizeof grid, "%dx%d", o->p, o->q);
  if (w->ratio_level > 0)
    snprintf(ci, sizeof ci, "%.3f..%.3f", w->ratio_lo, w->ratio_hi);
  snprintf(rs, sizeof rs, "%.3f..%.3f", w->ref.min, w->ref.max);
  snprintf(hs, sizeof hs, "%.3f..%.3f", w->hpd.min, w->hpd.max);
  snprintf(gemm, sizeof gemm, "%.0f/%.0f", w->engine[0], w->calls[0]);
  snprintf(syrk, sizeof syrk, "%.0f/%.0f", w->engine[1], w->calls[1]);
  int own = w->factor == FD_LU ? 3 : 2; /* the factorization routine itself */
  snprintf(potrf, sizeof potrf, "%.0f/%.0f", w->engine[own], w->calls[own]);
  if (source != HPD_SOURCE_NONE) {
    snprintf(hj, sizeof hj, "%.2f", w->hpd_j);
    snprintf(rj, sizeof rj, "%.2f", w->ref_j);
  }
  printf("%-7s %-4c %5d %4d %-5s %-8s %8.3f %-17s %8.3f %-17s %7.3f %-13s %8.2f %8.2f %9s "
         "%9s %7s %8.0f %6.0f %9s %9s %-8s %9.3g %9.3g %s\n",
         fd_factor_name(w->factor), w->uplo, w->n, w->nb, grid,
         hpd_strategy_name(w->strategy), w->ref.median, rs, w->hpd.median, hs,
         w->ratio, ci, gflops(w, w->ref.median), gflops(w, w->hpd.median),
         gemm, syrk, potrf, w->switches, w->held, hj, rj, hpd_energy_source_name(source), w->resid_hpd.inf,
         w->resid_ref.inf, row_verdict(w));
  fflush(stdout);
}

static void append_csv(const options *o, const row *w, int source)
{
  FILE *f = fopen(o->csv, "a");
  if (!f) {
    fprintf(stderr, "bench_factor: cannot append to %s\n", o->csv);
    return;
  }
  if (ftell(f) == 0)
    fprintf(f, "factor,uplo,n,nb,p,q,strategy,reps,ref_median_s,ref_min_s,ref_max_s,"
               "hpd_median_s,hpd_min_s,hpd_max_s,ratio_ref_over_hpd,ref_gflops,hpd_gflops,"
               "pdgemm_engine,pdgemm_calls,pdsyrk_engine,pdsyrk_calls,switches,skipped,held,"
               "hpd_energy_j,ref_energy_j,energy_source,resid_hpd_inf,resid_hpd_one,"
               "resid_ref_inf,resid_ref_one,check,ratio_ci_lo,ratio_ci_hi,ratio_ci_level,"
               "pdpotrf_engine,pdpotrf_calls,pdgetrf_engine,pdgetrf_calls\n");
  fprintf(f, "%s,%c,%d,%d,%d,%d,%s,%d,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.4f,%.3f,%.3f,"
             "%.1f,%.1f,%.1f,%.1f,%.1f,%.1f,%.1f,%.4f,%.4f,%s,%.4g,%.4g,%.4g,%.4g,%s,"
             "%.4f,%.4f,%.4f,%.1f,%.1f,%.1f,%.1f\n",
          fd_factor_name(w->factor), w->uplo, w->n, w->nb, o->p, o->q,
          hpd_strategy_name(w->strategy), o->reps, w->ref.median, w->ref.min, w->ref.max,
          w->hpd.median, w->hpd.min, w->hpd.max, w->ratio,
          gflops(w, w->ref.median), gflops(w, w->hpd.median), w->engine[0], w->calls[0],
          w->engine[1], w->calls[1], w->switches, w->skipped, w->held, w->hpd_j, w->ref_j,
          hpd_energy_source_name(source), w->resid_hpd.inf, w->resid_hpd.one,
          w->resid_ref.inf, w->resid_ref.one, row_verdict(w), w->ratio_lo,
          w->ratio_hi, w->ratio_level, w->engine[2], w->calls[2], w->engine[3], w->calls[3]);
  fclose(f);
}

/* ---- driver ----------------------------------------------------------------------- */

typedef struct first_problem {
  fd_problem *pb;
  const fd_grid *g;
  int info; /* the first nonzero info of any call */
} first_problem;

static double first_call(void *problem, int reference)
{
  first_problem *f = problem;
  fd_run run;
  side_call(reference ? SIDE_REF : SIDE_HPD, f->pb, f->g, &run);
  f->info = f->info ? f->info : run.info;
  return run.time_s;
}

/* --first-calls: a row of bench_first.h, under the strategy in force; 1 when every
 * factorization succeeded. */
static int run_first(const options *o, const fd_grid *g, fd_problem *pb)
{
  first_problem f = {pb, g, 0};
  char letters[2] = {pb->factor == FD_CHOL ? pb->uplo : '-', '\0'};
  bench_first_row row = {fd_factor_name(pb->factor), letters, pb->n, pb->nb, o->p, o->q};
  bench_first_run(&row, o->first, o->reps, first_call, &f, o->csv);
  if (f.info && g->rank == 0)
    fprintf(stderr, "bench_factor: %s N=%d NB=%d: info %d\n", row.routine, pb->n, pb->nb,
            f.info);
  return !f.info;
}

/* --interleave: the orders' problems, made before the first call; 1 when every
 * factorization succeeded. */
static int run_interleaved(const options *o, const fd_grid *g)
{
  fd_problem pb[MAX_LIST];
  first_problem f[MAX_LIST];
  void *each[MAX_LIST];
  for (int i = 0; i < o->n_count; i++) {
    fd_problem_setup(&pb[i], (fd_factor)o->factors[0], o->n[i], o->nb[0], g);
    pb[i].uplo = pb[i].factor == FD_CHOL ? o->uplo : pb[i].uplo;
    f[i] = (first_problem){&pb[i], g, 0};
    each[i] = &f[i];
  }
  char letters[2] = {pb[0].factor == FD_CHOL ? pb[0].uplo : '-', '\0'};
  bench_interleave_row row = {fd_factor_name(pb[0].factor), letters, o->nb[0], o->p, o->q};
  bench_interleave_run(&row, o->interleave, o->reps, o->n_count, o->n, first_call, each,
                       o->csv);
  int info = 0;
  for (int i = 0; i < o->n_count; i++) {
    info = info ? info : f[i].info;
    fd_problem_free(&pb[i]);
  }
  if (info && g->rank == 0)
    fprintf(stderr, "bench_factor: %s: info %d\n", row.routine, info);
  return !info;
}

/* Returns 1 when the row's checks pass. */
static int run_row(const options *o, const fd_grid *g, fd_problem *pb, int strategy,
                   int *header_printed)
{
  if (g->rank == 0) {
    fprintf(stderr, "bench_factor: %s %c N=%d NB=%d grid %dx%d %s: warm-up, then %d timed "
            "factorization(s) per side\n", fd_factor_name(pb->factor), pb->uplo, pb->n,
            pb->nb, o->p, o->q, hpd_strategy_name(strategy), o->reps);
    fflush(stderr);
  }
  hpd_set_strategy((hpd_strategy)strategy);
  row w = {.factor = pb->factor, .uplo = pb->uplo, .n = pb->n, .nb = pb->nb,
           .strategy = strategy};
  warm_up(pb, g, &w);
  measure(pb, g, o->reps, &w);
  int source = fd_energy_source();
  if (g->rank != 0)
    return row_passes(&w);
  if (!*header_printed) /* after the first hpdaemon call: DVFS and energy are set up */
    print_header(o, g->size), *header_printed = 1;
  if (!row_passes(&w))
    fprintf(stderr, "bench_factor: %s %c N=%d NB=%d: check failed: info %d, resid_hpd %.3g "
            "(1-norm %.3g), resid_ref %.3g (1-norm %.3g), bound %g, switch requests %s\n",
            fd_factor_name(w.factor), w.uplo, w.n, w.nb, w.info, w.resid_hpd.inf,
            w.resid_hpd.one, w.resid_ref.inf, w.resid_ref.one, FD_RESID_THRESHOLD,
            w.identity_ok ? "as the strategy promises" : "NOT AS THE STRATEGY PROMISES");
  if (w.calls[0] + w.calls[1] + w.calls[2] + w.calls[3] == 0)
    fprintf(stderr, "bench_factor: no pdgemm_, pdsyrk_, pdpotrf_ or pdgetrf_ call reached "
            "hpdaemon: the "
            "factorization is not linked against it, both sides are the reference\n");
  print_row(o, &w, source);
  if (o->csv)
    append_csv(o, &w, source);
  return row_passes(&w);
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
  int early = bench_options_verdict("bench_factor", parsed, err, usage);
  if (early >= 0)
    return early;
  fd_grid g;
  if (fd_grid_open(o.p, o.q, &g) != 0)
    return bench_grid_refused("bench_factor", o.p, o.q);
  /* Each side sets its own; a report at MPI_Finalize should show what the user set. */
  int user_disable = hpd_get_disable();
  hpd_strategy user_strategy = hpd_get_strategy();
  int failed = 0, header_printed = 0;
  if (o.interleave >= 0)
    failed += !run_interleaved(&o, &g);
  for (int i = 0; o.interleave < 0 && i < o.n_count; i++)
    for (int j = 0; j < o.nb_count; j++)
      for (int f = 0; f < o.factor_count; f++) {
        fd_problem pb;
        fd_problem_setup(&pb, (fd_factor)o.factors[f], o.n[i], o.nb[j], &g);
        if (pb.factor == FD_CHOL)
          pb.uplo = o.uplo;
        if (o.first >= 0)
          failed += !run_first(&o, &g, &pb);
        for (int s = 0; o.first < 0 && s < o.strategy_count; s++)
          failed += !run_row(&o, &g, &pb, o.strategies[s], &header_printed);
        fd_problem_free(&pb);
      }
  hpd_set_disable(user_disable);
  hpd_set_strategy(user_strategy);
  Cblacs_gridexit(g.context);
  MPI_Finalize();
  return failed ? 1 : 0;
}
