#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "bench_common.h"
#include "hpdaemon.h"

/* Under sim the model books broadcasts at the low frequency while the core really ran at
 * full speed: the reader must know the times are not those of a slowed clock. */
const char *bench_dvfs_how(int backend, int applied)
{
  return backend == HPD_DVFS_SIM    ? "switches recorded, the clock unchanged"
         : backend == HPD_DVFS_NONE ? "switches counted only"
         : applied                  ? "applied"
                                    : "not applied";
}

const char *bench_switch_rule(char *text, size_t size)
{
  double ms = hpd_get_switch_min_ms();
  if (ms < 0)
    snprintf(text, size, "auto (the power model's break-even)");
  else
    snprintf(text, size, "%g ms", ms);
  return text;
}

int bench_parse_strategies(const char *text, int *out, int *count)
{
  if (strcmp(text, "all") == 0) {
    for (int s = 0; s < HPD_STRATEGIES; s++)
      out[s] = s;
    *count = HPD_STRATEGIES;
    return 0;
  }
  int found = 0;
  for (const char *item = text; *item; item += *item == ',') {
    size_t len = strcspn(item, ",");
    int named = -1;
    for (int s = 0; s < HPD_STRATEGIES; s++)
      if (len == strlen(hpd_strategy_name(s)) && strncmp(item, hpd_strategy_name(s), len) == 0)
        named = s;
    for (int i = 0; i < found; i++)
      if (out[i] == named)
        named = -1; /* each strategy once */
    if (named < 0 || found == HPD_STRATEGIES)
      return -1;
    out[found++] = named;
    item += len;
  }
  if (found == 0)
    return -1;
  *count = found;
  return 0;
}

void bench_energy_spent_all(const hpd_energy_sample *before, const hpd_energy_sample *after,
                            hpd_energy_sample *all)
{
  hpd_energy_sample mine = {.wall_s = after->wall_s - before->wall_s,
                            .cpu_s = after->cpu_s - before->cpu_s,
                            .broadcast_s = after->broadcast_s - before->broadcast_s,
                            .multiply_s = after->multiply_s - before->multiply_s,
                            .modeled_j = after->modeled_j - before->modeled_j,
                            .measured_j = after->measured_j - before->measured_j,
                            .switches = after->switches - before->switches};
  hpd_sum_energy_sample((int)MPI_Comm_c2f(MPI_COMM_WORLD), &mine, all);
}
