#include "factor_measure.h"

#include <mpi.h>
#include <string.h>

#include "bench_common.h"
#include "hpdaemon.h"

static const hpd_routine ROUTINES[FD_ROUTINES] = {HPD_ROUTINE_PDGEMM, HPD_ROUTINE_PDSYRK,
                                                  HPD_ROUTINE_PDPOTRF, HPD_ROUTINE_PDGETRF};

int fd_energy_source(void)
{
  hpd_energy_info info;
  hpd_get_energy_info(&info);
  return info.source;
}

/* Whether requests over steps broadcast steps fit the strategy (factor_measure.h). */
static int requests_fit(int strategy, uint64_t requests, uint64_t held, uint64_t steps)
{
  switch (strategy) {
  case HPD_STRATEGY_BASIC:
    return held == 0 && requests == 2 * steps;
  case HPD_STRATEGY_DAEMON:
    return requests % 2 == 0 && (steps == 0 ? requests == 0 : requests >= 2 &&
                                                               requests <= 2 * steps);
  case HPD_STRATEGY_AUTO: /* daemon's calls as above, overlap's none */
    return requests % 2 == 0 && requests <= 2 * steps;
  default:
    return requests == 0;
  }
}

/* Differences of the counters, not a reset: a report at MPI_Finalize then covers the
 * whole run, as a user of the library would see it. */
void fd_measure(fd_problem *pb, const fd_grid *g, fd_run *out)
{
  fd_generate(pb, g);
  hpd_stats s0, s1;
  hpd_energy_sample e0, e1;
  hpd_get_stats(&s0);
  MPI_Barrier(MPI_COMM_WORLD);
  hpd_get_energy_sample(&e0);
  double start = MPI_Wtime();
  int info = fd_factorize(pb);
  double wall = MPI_Wtime() - start;
  hpd_get_energy_sample(&e1);
  hpd_get_stats(&s1);

  hpd_energy_sample all;
  bench_energy_spent_all(&e0, &e1, &all);
  /* Most of any rank: calls, switches, skipped, held, whether info was set, whether the
   * requests broke the strategy's identity; fewest: engine calls. */
  enum { SWITCHES = FD_ROUTINES, SKIPPED, HELD, FAILED, UNFIT, FIGURES };
  uint64_t most_in[FIGURES] = {0}, most[FIGURES], fewest_in[FD_ROUTINES],
           fewest[FD_ROUTINES], steps = 0;
  for (int r = 0; r < FD_ROUTINES; r++) {
    const hpd_routine_stats *a = &s0.routine[ROUTINES[r]], *b = &s1.routine[ROUTINES[r]];
    most_in[r] = b->calls - a->calls;
    fewest_in[r] = b->engine_calls - a->engine_calls;
    most_in[SWITCHES] += b->dvfs_switches - a->dvfs_switches;
    most_in[SKIPPED] += b->dvfs_skipped - a->dvfs_skipped;
    most_in[HELD] += b->dvfs_held - a->dvfs_held;
    steps += b->steps_total - a->steps_total;
  }
  most_in[FAILED] = info != 0;
  most_in[UNFIT] = !requests_fit(hpd_get_strategy(), most_in[SWITCHES] + most_in[SKIPPED] +
                                 most_in[HELD], most_in[HELD], steps);
  MPI_Allreduce(most_in, most, FIGURES, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(fewest_in, fewest, FD_ROUTINES, MPI_UINT64_T, MPI_MIN, MPI_COMM_WORLD);
  double slowest;
  MPI_Allreduce(&wall, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  /* Any rank's nonzero info says the factorization failed; rank 0 reports the value. */
  int first_info = info;
  MPI_Bcast(&first_info, 1, MPI_INT, 0, MPI_COMM_WORLD);

  memset(out, 0, sizeof *out);
  out->time_s = slowest;
  for (int r = 0; r < FD_ROUTINES; r++)
    out->calls[r] = most[r], out->engine[r] = fewest[r];
  out->switches = most[SWITCHES];
  out->skipped = most[SKIPPED];
  out->held = most[HELD];
  out->identity_ok = !most[UNFIT];
  out->energy_j = fd_energy_source() >= HPD_SOURCE_MEASURED ? all.measured_j : all.modeled_j;
  out->cpu_s = all.cpu_s;
  out->info = most[FAILED] ? (first_info ? first_info : -1) : 0;
}

