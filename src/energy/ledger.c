#include "energy/ledger.h"

#include <string.h>
#include <time.h>

#include "core/clock.h"

static struct {
  int started;
  hpd_phase phase;
  unsigned khz;
  double wall0, cpu0;
  hpd_ledger totals;
} ledger;

/* The process's CPU time, not the thread's: BLAS threads computing for this rank draw
 * power too. */
static double process_cpu_now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static hpd_phase_time *level(hpd_ledger *l, unsigned khz)
{
  for (int i = 0; i < l->levels; i++)
    if (l->at[i].khz == khz)
      return &l->at[i];
  if (l->levels == HPD_MODEL_MAX_LEVELS)
    return &l->at[l->levels - 1]; /* more frequencies than a model has levels: lump */
  hpd_phase_time *t = &l->at[l->levels++];
  t->khz = khz;
  return t;
}

/* Adds the running segment to totals; busy is CPU time, idle the rest of the wall time
 * (none when several threads computed). */
static void close_segment(hpd_ledger *totals, double wall, double cpu)
{
  double dwall = wall - ledger.wall0, dcpu = cpu - ledger.cpu0;
  totals->wall_s[ledger.phase] += dwall;
  totals->cpu_s[ledger.phase] += dcpu;
  hpd_phase_time *t = level(totals, ledger.khz);
  t->busy_s += dcpu;
  t->idle_s += dwall > dcpu ? dwall - dcpu : 0.0;
}

void hpd_ledger_mark(hpd_phase phase, unsigned khz)
{
  double wall = hpd_now(), cpu = process_cpu_now();
  if (ledger.started)
    close_segment(&ledger.totals, wall, cpu);
  ledger.started = 1;
  ledger.phase = phase;
  ledger.khz = khz;
  ledger.wall0 = wall;
  ledger.cpu0 = cpu;
}

void hpd_ledger_read(hpd_ledger *out)
{
  *out = ledger.totals;
  if (ledger.started)
    close_segment(out, hpd_now(), process_cpu_now());
}

void hpd_ledger_read_at_mark(hpd_ledger *out)
{
  *out = ledger.totals;
}
