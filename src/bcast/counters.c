#include "bcast/counters.h"

#include "bcast/bcast.h"
#include "core/clock.h"

/* Plain statics: the broadcasts are called from one thread (bcast.h). */
static hpd_bcast_counters counters;
static struct {
  int open, cpu_read;
  double wall0, cpu0; /* cpu0: the CPU clock, less the wall time before it was read */
} call;

void hpd_counters_add_start(size_t bytes)
{
  counters.count++;
  counters.bytes += bytes;
}

void hpd_counters_add_trials(double seconds)
{
  counters.trials_s += seconds;
}

void hpd_counters_set_chunk(uint64_t chunk)
{
  counters.chunk_last = chunk;
}

void hpd_call_begin(void)
{
  call.open = 1;
  call.cpu_read = 0;
  call.wall0 = hpd_now();
}

void hpd_call_blocks(void)
{
  if (!call.open || call.cpu_read)
    return;
  call.cpu0 = hpd_cpu_now() - (hpd_now() - call.wall0);
  call.cpu_read = 1;
}

void hpd_call_end(void)
{
  double wall = hpd_now() - call.wall0;
  counters.wall_s += wall;
  counters.cpu_s += call.cpu_read ? hpd_cpu_now() - call.cpu0 : wall;
  call.open = 0;
}

void hpd_bcast_counters_get(hpd_bcast_counters *out)
{
  *out = counters;
}
