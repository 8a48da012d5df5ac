/*
 * The simulated build's meter: joules of this rank's simulated host, from the
 * simulator's host energy plugin.  Every simulated core is a host of its own
 * (simulated/platform.py), so each rank reads its own core, as a node's reader reads
 * its node.  The plugin must be on (scripts/simulate turns it on and says so in
 * SIMULATE_HOST_ENERGY=1): reading a host's energy without it aborts the simulation.
 */
#include "energy/meter.h"

#ifdef HPD_SIMULATED
#include <simgrid/host.h>
#include <simgrid/plugins/energy.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static hpd_status simulated_open(const hpd_settings *cfg, char *why, size_t why_size)
{
  (void)cfg;
  const char *on = getenv("SIMULATE_HOST_ENERGY");
  if (on && strcmp(on, "1") == 0)
    return HPD_OK;
  snprintf(why, why_size, "simulated: the simulator's host energy plugin is not on "
                          "(scripts/simulate turns it on)");
  return HPD_STATUS_UNAVAILABLE;
}

static int simulated_read(hpd_meter_reading *out)
{
  out->package_j = sg_host_get_consumed_energy(sg_host_self());
  out->dram_j = 0.0;
  return 0;
}

static void simulated_close(void)
{
}

const hpd_meter hpd_meter_simulated = {HPD_ENERGY_AUTO, HPD_SOURCE_SIMULATED, simulated_open,
                                       simulated_read, simulated_close};
#endif
