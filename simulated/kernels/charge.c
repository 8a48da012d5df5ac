/*
 * The simulated timing mode's kernels charge their time (charge.h).  The table is read
 * by each rank once (each rank has its own copy of the program's globals); a run that
 * asked for the timing mode and has no usable table stops, since its times would mean
 * nothing.
 */
#include "charge.h"

#include <smpi/smpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rates.h"

static int mode = -1; /* unknown, 0 running, 1 charging */
static hpd_rate_table table;

int hpd_sim_charging(void)
{
  if (mode >= 0)
    return mode;
  const char *kernels = getenv("SIMULATE_KERNELS");
  mode = kernels && strcmp(kernels, "charge") == 0;
  if (!mode)
    return 0;
  const char *path = getenv("SIMULATE_KERNEL_RATES");
  char err[512];
  if (!path || hpd_rates_load(path, &table, err, sizeof err) != 0) {
    fprintf(stderr, "hpdaemon: simulated timing mode: %s\n",
            path ? err : "SIMULATE_KERNEL_RATES names no rate table");
    exit(2);
  }
  return 1;
}

void hpd_sim_charge(hpd_kernel kernel, double d0, double d1, double d2)
{
  double dim[HPD_KERNEL_MAX_DIMS] = {d0, d1, d2};
  for (int d = 0; d < hpd_kernel_table[kernel].dims; d++)
    if (!(dim[d] >= 1))
      return;
  double flops = hpd_kernel_flops(kernel, dim);
  smpi_execute_flops(flops * table.peak / hpd_rates_at(&table, kernel, dim));
}

int hpd_sim_pivot(int first, int last, int salt)
{
  unsigned h = (unsigned)first * 2654435761u ^ (unsigned)salt * 40503u;
  h ^= h >> 15;
  h *= 2246822519u;
  h ^= h >> 13;
  return first + (int)(h % (unsigned)(last - first + 1));
}
