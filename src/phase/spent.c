#include "phase/spent.h"

#include "bcast/wait.h"
#include "core/stats.h"
#include "dvfs/dvfs.h"

/* A rank whose first grid holds ranks already set up (a smaller grid came first) sets
 * itself up alone: the node checks are collectives, and they run over a grid only when
 * none of its ranks is set up yet. */
void hpd_spent_set_up(const hpd_grid *grid)
{
  if (!hpd_grid_first_use(grid))
    return;
  int mine = hpd_dvfs_ready() || hpd_energy_ready(), anyone = 0;
  hpd_wait_allreduce(&mine, &anyone, 1, MPI_INT, MPI_MAX, grid->comm);
  MPI_Comm checks = anyone ? MPI_COMM_NULL : grid->comm;
  if (!hpd_dvfs_ready())
    hpd_dvfs_setup(checks, hpd_collective_waiter());
  if (!hpd_energy_ready())
    hpd_energy_setup(checks, hpd_dvfs_current_khz(), hpd_collective_waiter());
}

void hpd_spent_start(hpd_spent *m)
{
  hpd_bcast_counters_get(&m->bcast);
  hpd_get_dvfs_totals(&m->switched);
  hpd_get_energy_sample(&m->spent);
}

void hpd_spent_record(hpd_spent *m, hpd_routine routine, hpd_strategy strategy, int steps)
{
  hpd_energy_sample spent;
  hpd_dvfs_totals switched;
  hpd_bcast_counters bcast;
  hpd_energy_sample_at_mark(&spent);
  hpd_get_dvfs_totals(&switched);
  hpd_bcast_counters_get(&bcast);
  const hpd_energy_sample *e0 = &m->spent;
  m->spent = (hpd_energy_sample){.wall_s = spent.wall_s - e0->wall_s,
                                 .cpu_s = spent.cpu_s - e0->cpu_s,
                                 .broadcast_s = spent.broadcast_s - e0->broadcast_s,
                                 .multiply_s = spent.multiply_s - e0->multiply_s,
                                 .modeled_j = spent.modeled_j - e0->modeled_j,
                                 .measured_j = spent.measured_j - e0->measured_j};
  m->switched = (hpd_dvfs_totals){.switches = switched.switches - m->switched.switches,
                                  .skipped = switched.skipped - m->switched.skipped,
                                  .held = switched.held - m->switched.held,
                                  .switch_s = switched.switch_s - m->switched.switch_s};
  m->bcast = (hpd_bcast_counters){.count = bcast.count - m->bcast.count,
                                  .bytes = bcast.bytes - m->bcast.bytes,
                                  .wall_s = bcast.wall_s - m->bcast.wall_s,
                                  .cpu_s = bcast.cpu_s - m->bcast.cpu_s,
                                  .chunk_last = bcast.chunk_last,
                                  .trials_s = bcast.trials_s - m->bcast.trials_s};
  hpd_stats_record_energy(routine, &m->spent, hpd_energy_source_now(),
                          hpd_energy_joules(&m->spent));
  hpd_stats_record_dvfs(routine, strategy, steps, &m->switched);
  hpd_stats_record_bcast(routine, m->bcast.count, m->bcast.bytes, m->bcast.wall_s,
                         m->bcast.cpu_s, m->bcast.chunk_last);
}
