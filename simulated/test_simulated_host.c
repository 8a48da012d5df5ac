/*
 * test_simulated_host: the simulated build's DVFS backend and energy meter act on this
 * rank's own simulated core, and nobody else's.
 *
 * On two simulated nodes of one core each (P-states from simulated/platform.py), rank 1
 * works for a known number of flops at its lowest frequency, then at its highest, while
 * rank 0 waits in a barrier.  Each rank reads its joules through the meter before and
 * after.  Checked: the work takes flops / speed of the P-state the backend set, so the
 * switch reached rank 1's core (and not rank 0's); rank 1's joules are its busy watts over
 * that time and rank 0's its idle watts, so each meter read its own core; the restore
 * puts the armed P-state back.  A meter that read another rank's host, or a switch that
 * moved another core, gives the other rank's figure, off by far more than the tolerance.
 */
#include <math.h>
#include <mpi.h>
#include <simgrid/host.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/config.h"
#include "dvfs/backend.h"
#include "energy/meter.h"

#define FLOPS 4e10
#define TOLERANCE 1e-3

static int failures;

static void check(int ok, const char *what, double got, double want)
{
  if (ok)
    return;
  failures++;
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  printf("FAIL rank %d: %s: %.6g, expected %.6g\n", rank, what, got, want);
}

static int near(double got, double want)
{
  return fabs(got - want) <= TOLERANCE * fabs(want);
}

/* The watts the platform gives the core at its current P-state, busy or idle (the
 * property is idle:epsilon:busy per P-state, fastest first). */
static double watts(int busy)
{
  const char *list = sg_host_get_property_value(sg_host_self(), "wattage_per_state");
  unsigned long want = sg_host_get_pstate(sg_host_self());
  const char *at = list;
  for (unsigned long p = 0; at && p < want; p++) {
    at = strchr(at, ',');
    at = at ? at + 1 : NULL;
  }
  double idle = 0, epsilon = 0, full = 0;
  if (!at || sscanf(at, "%lf:%lf:%lf", &idle, &epsilon, &full) != 3)
    return -1;
  return busy ? full : idle;
}

/* Rank 1 works FLOPS at khz, which is the platform's P-state pstate, while rank 0 waits;
 * each checks its time and joules. */
static void phase(const hpd_meter *meter, int rank, unsigned khz, unsigned long pstate)
{
  if (rank == 1)
    check(hpd_dvfs_backend_sim.set(khz, HPD_PHASE_MULTIPLY) == 0, "set", 1, 0);
  MPI_Barrier(MPI_COMM_WORLD);
  hpd_meter_reading before, after;
  meter->read(&before);
  double speed = sg_host_get_pstate_speed(sg_host_self(), pstate);
  double start = MPI_Wtime();
  if (rank == 1)
    smpi_execute_flops(FLOPS);
  MPI_Barrier(MPI_COMM_WORLD);
  double seconds = MPI_Wtime() - start;
  meter->read(&after);
  double joules = after.package_j - before.package_j;
  double busy_s = 0;
  if (rank == 1) {
    busy_s = FLOPS / speed;
    check(near(seconds, busy_s), "seconds of work at the P-state set", seconds, busy_s);
    check(near(joules, watts(1) * busy_s), "joules of the busy core", joules,
          watts(1) * busy_s);
  }
  MPI_Bcast(&busy_s, 1, MPI_DOUBLE, 1, MPI_COMM_WORLD);
  if (rank == 0)
    check(near(joules, watts(0) * busy_s), "joules of the idle core", joules,
          watts(0) * busy_s);
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 2) {
    if (rank == 0)
      printf("test_simulated_host: needs 2 ranks, has %d\n", size);
    MPI_Finalize();
    return 2;
  }
  const hpd_settings *cfg = hpd_config_get();
  char why[512] = "";
  const hpd_meter *meter = hpd_meter_select(cfg, why, sizeof why);
  check(meter && meter->source == HPD_SOURCE_SIMULATED, "the simulated meter chosen", 0, 1);
  hpd_dvfs_probe probe;
  check(hpd_dvfs_backend_sim.probe(cfg, &probe, why, sizeof why) == 0, "probe", 1, 0);
  check(hpd_dvfs_backend_sim.arm(cfg, why, sizeof why) == 0, "arm", 1, 0);
  unsigned long armed = sg_host_get_pstate(sg_host_self());
  if (meter && failures == 0) {
    /* The probe lists frequencies ascending; the platform numbers P-states fastest first. */
    phase(meter, rank, probe.available_khz[0], (unsigned long)probe.available_count - 1);
    phase(meter, rank, probe.available_khz[probe.available_count - 1], 0);
  }
  hpd_dvfs_backend_sim.restore();
  check(sg_host_get_pstate(sg_host_self()) == armed, "P-state after restore",
        (double)sg_host_get_pstate(sg_host_self()), (double)armed);
  int all = 0;
  MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("test_simulated_host: %s (%d failures)\n", all ? "FAIL" : "ok", all);
  MPI_Finalize();
  return all ? 1 : 0;
}
