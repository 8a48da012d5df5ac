#include "energy/meter.h"

#include <stdio.h>
#include <string.h>

/* Appends one meter's reason as a line of its own. */
static void add_line(char *why, size_t why_size, const char *line)
{
  size_t used = strlen(why);
  if (used + 1 >= why_size)
    return;
  snprintf(why + used, why_size - used, "%s%s", used ? "\n" : "", line);
}

const hpd_meter *hpd_meter_select(const hpd_settings *cfg, char *why, size_t why_size)
{
  static const hpd_meter *const automatic[] = {&hpd_meter_powercap, &hpd_meter_papi};
#ifdef HPD_SIMULATED
  static const hpd_meter *const simulated[] = {&hpd_meter_simulated};
#endif
  if (why_size)
    why[0] = '\0';
  const hpd_meter *const *candidates = automatic;
  size_t count = 0;
  switch (cfg->energy) {
  case HPD_ENERGY_AUTO:
#ifdef HPD_SIMULATED
    /* The machine running a simulation is not the one simulated: its meters say nothing
     * of the simulated cores. */
    candidates = simulated;
    count = 1;
#else
    count = sizeof automatic / sizeof automatic[0];
#endif
    break;
  case HPD_ENERGY_POWERCAP:
    candidates = &automatic[0];
    count = 1;
    break;
  case HPD_ENERGY_PAPI:
    candidates = &automatic[1];
    count = 1;
    break;
  default:
    return NULL;
  }
  for (size_t i = 0; i < count; i++) {
    char line[HPD_PATH_MAX + 256] = "";
    if (candidates[i]->open(cfg, line, sizeof line) == 0)
      return candidates[i];
    add_line(why, why_size, line[0] ? line : "could not be opened");
  }
  return NULL;
}
