#include "lookahead.h"

#include <stdlib.h>

#include "config.h"
#include "dvfs.h"
#include "energy.h"
#include "log.h"
#include "stats.h"
#include "switch_rule.h"

int hpd_factor_buffers(uint64_t bytes, const hpd_grid *grid, double *stack,
                       const char *routine, double **space)
{
  *space = NULL;
  if ((double)bytes > hpd_config_get()->mem_threshold * grid->mem_per_rank)
    return HPD_FALLBACK_NO_MEMORY;
  if (bytes <= HPD_FACTOR_STACK_BYTES) {
    *space = stack;
    return HPD_SERVED_BY_ENGINE;
  }
  *space = malloc(bytes);
  int have = *space != NULL, all = 0;
  MPI_Allreduce(&have, &all, 1, MPI_INT, MPI_LAND, grid->comm);
  if (all)
    return HPD_SERVED_BY_ENGINE;
  free(*space);
  *space = NULL;
  static int warned;
  if (!warned++)
    hpd_warn("%s: no memory for the panels' buffers (%llu bytes); the reference factors "
             "the matrix",
             routine, (unsigned long long)bytes);
  return HPD_FALLBACK_NO_MEMORY;
}

void hpd_factor_run_begin(hpd_factor_run *run)
{
  run->strategy = hpd_strategy_booked();
  run->phases = run->strategy == HPD_STRATEGY_OVERLAP ? HPD_STRATEGY_NONE : run->strategy;
  run->steps = 0;
  hpd_spent_start(&run->spent);
  hpd_energy_mark(HPD_LEDGER_MULTIPLY, hpd_dvfs_current_khz());
}

void hpd_factor_run_wait(hpd_factor_run *run, hpd_bcast *handles, int n, size_t bytes)
{
  int switching = hpd_switch_pays(run->strategy, bytes);
  hpd_switch_enter(run->phases, switching, HPD_PHASE_BROADCAST);
  hpd_bcast_wait(handles, n);
  hpd_switch_enter(run->phases, switching, HPD_PHASE_MULTIPLY);
  run->steps++;
}

void hpd_factor_run_end(hpd_factor_run *run, hpd_routine routine, int panels,
                        uint64_t bytes)
{
  hpd_energy_mark(HPD_LEDGER_OTHER, hpd_dvfs_current_khz());
  hpd_spent_record(&run->spent, routine, run->strategy, run->steps);
  hpd_stats_record_grouping(routine, 1, panels, bytes, bytes);
}

void hpd_factor_poll(void *arg)
{
  hpd_bcast_test(arg, 2);
}
