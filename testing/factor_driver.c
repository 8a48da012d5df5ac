/*
 * factor_driver: ScaLAPACK's LU (pdgetrf_) and Cholesky (pdpotrf_, either triangle) with
 * hpdaemon underneath, under each switching strategy.
 *
 *   factor_driver [-t FRACTION] [-s STRATEGY[,...]|all] [-f lu|chol|both]
 *                 [-u L|U|both] [-n N] [-b NB] [-p P -q Q] [-r REPS] [--report[=SPEC]]
 *
 * The factorizations reach hpdaemon through their own pdgemm_ and pdsyrk_ calls, as an
 * unchanged application's would.  Every run's factors are checked the way ScaLAPACK's
 * testers check theirs (factor_residual.h), and each row reports the calls the
 * engine served, the switches and the energy.  Exits 1 when a check fails.
 */
#include <mpi.h>
#include <stdio.h>

#include "factor_measure.h"
#include "factor_driver_options.h"
#include "factor_problem.h"
#include "factor_residual.h"
#include "factor_driver_table.h"
#include "hpdaemon.h"
#include "scalapack.h"

static void progress(const fd_grid *g, const fd_options *o, const fd_row *row, int index,
                     int total, int rep)
{
  if (g->rank != 0)
    return;
  fprintf(stderr, "factor_driver: %s %c %s %d/%d (rep %d/%d), N=%d NB=%d grid %dx%d\n",
          fd_factor_name(row->variant.factor), row->variant.uplo,
          hpd_strategy_name(row->strategy), index, total, rep, o->reps, o->n, o->nb, o->p,
          o->q);
  fflush(stderr);
}

/* First calls pay for set-up: DVFS and energy accounting, grid communicators, chunk
 * tuning, first-touch page faults.  No row should carry it. */
static void warm_up(const fd_options *o, const fd_grid *g, fd_problem pb[FD_FACTORS])
{
  if (g->rank == 0) {
    fprintf(stderr, "factor_driver: warm-up\n");
    fflush(stderr);
  }
  hpd_set_strategy(HPD_STRATEGY_NONE);
  for (int f = 0; f < FD_FACTORS; f++)
    if (pb[f].a) {
      fd_run ignored;
      pb[f].uplo = f == FD_CHOL ? o->variants[o->variant_count - 1].uplo : '-';
      fd_measure(&pb[f], g, &ignored);
    }
}

/* Strategies interleave within each repetition, so slow drift of a shared machine
 * spreads over all of them instead of landing on one. */
static void run_rows(const fd_options *o, const fd_grid *g, fd_problem pb[FD_FACTORS],
                     fd_row rows[FD_MAX_VARIANTS][HPD_STRATEGIES])
{
  int total = o->variant_count * o->strategy_count;
  for (int v = 0; v < o->variant_count; v++)
    for (int s = 0; s < o->strategy_count; s++)
      fd_row_init(&rows[v][s], o->variants[v], o->strategies[s]);
  for (int rep = 1; rep <= o->reps; rep++) {
    int index = 0;
    for (int v = 0; v < o->variant_count; v++)
      for (int s = 0; s < o->strategy_count; s++) {
        fd_row *row = &rows[v][s];
        fd_problem *p = &pb[row->variant.factor];
        progress(g, o, row, ++index, total, rep);
        hpd_set_strategy((hpd_strategy)row->strategy);
        p->uplo = row->variant.uplo;
        fd_run run;
        fd_measure(p, g, &run);
        fd_residual resid = fd_residual_check(p, g);
        fd_row_add(row, &run, &resid);
      }
  }
}

/* Rank 0 prints; returns the number of failed rows on every rank. */
static int verdict(const fd_options *o, const fd_grid *g, fd_row rows[FD_MAX_VARIANTS][HPD_STRATEGIES])
{
  int failed = 0, count = 0;
  fd_residual worst = {0, 0, 1};
  for (int v = 0; v < o->variant_count; v++)
    for (int s = 0; s < o->strategy_count; s++) {
      const fd_row *row = &rows[v][s];
      count++;
      worst = fd_residual_worst(&worst, &row->worst);
      if (fd_row_passes(row))
        continue;
      failed++;
      if (g->rank == 0)
        fprintf(stderr, "factor_driver: %s %c %s failed: resid_I %.3g, resid_1 %.3g (bound "
                "%g), info %d, guard zones %s, switch requests %s\n",
                fd_factor_name(row->variant.factor), row->variant.uplo,
                hpd_strategy_name(row->strategy), row->worst.inf, row->worst.one,
                FD_RESID_THRESHOLD, row->info, row->worst.guards_ok ? "intact" : "OVERWRITTEN",
                row->identity_ok ? "as promised" : "NOT AS THE STRATEGY PROMISES");
    }
  if (g->rank == 0) {
    if (!failed)
      printf("factor_driver: residuals ok: %d row(s), worst resid_I %.3g, resid_1 %.3g "
             "(threshold %g)\n", count, worst.inf, worst.one, FD_RESID_THRESHOLD);
    else
      printf("factor_driver: residuals FAILED in %d of %d row(s)\n", failed, count);
    fflush(stdout);
  }
  return failed;
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int parsed_hpd = hpd_parse_args(&argc, &argv), rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  fd_options o;
  char err[256] = "";
  int parsed =
      parsed_hpd == HPD_SUCCESS ? fd_parse_options(argc, argv, &o, err, sizeof err) : -1;
  if (parsed != 0) {
    if (rank == 0 && err[0])
      fprintf(stderr, "factor_driver: %s\n", err);
    if (rank == 0)
      fd_usage(parsed > 0 ? stdout : stderr);
    MPI_Finalize();
    return parsed > 0 ? 0 : 2;
  }
  fd_grid g;
  if (fd_grid_open(o.p, o.q, &g) != 0) {
    if (rank == 0)
      fprintf(stderr, "factor_driver: grid %dx%d needs exactly %ld ranks, started with %d "
              "(set -p and -q so that P*Q is the number of ranks)\n",
              o.p, o.q, (long)o.p * o.q, g.size);
    MPI_Finalize();
    return 2;
  }
  /* A report at MPI_Finalize should show the strategy the user chose, not the last row's. */
  hpd_strategy user_strategy = hpd_get_strategy();
  fd_problem pb[FD_FACTORS] = {{0}};
  for (int v = 0; v < o.variant_count; v++)
    if (!pb[o.variants[v].factor].a)
      fd_problem_setup(&pb[o.variants[v].factor], o.variants[v].factor, o.n, o.nb, &g);
  warm_up(&o, &g, pb);

  static fd_row rows[FD_MAX_VARIANTS][HPD_STRATEGIES];
  run_rows(&o, &g, pb, rows);
  if (rank == 0) {
    int source = fd_energy_source();
    fd_print_header(&o, g.size);
    for (int v = 0; v < o.variant_count; v++)
      for (int s = 0; s < o.strategy_count; s++)
        fd_print_row(&rows[v][s], source);
    fflush(stdout);
  }
  int failed = verdict(&o, &g, rows);
  hpd_set_strategy(user_strategy);
  for (int f = 0; f < FD_FACTORS; f++)
    if (pb[f].a)
      fd_problem_free(&pb[f]);
  Cblacs_gridexit(g.context);
  MPI_Finalize();
  return failed ? 1 : 0;
}
