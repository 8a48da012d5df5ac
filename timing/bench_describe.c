#include <stdio.h>

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
