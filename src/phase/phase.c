#include "phase/phase.h"

#include "bcast/bcast.h"
#include "core/config.h"
#include "dvfs/dvfs.h"
#include "energy/energy.h"

/* The shortest broadcast phase worth its two switches, for phases that keep the core
 * busy for busy_share of their time. */
static double min_phase_s(const hpd_settings *cfg, double busy_share)
{
  if (cfg->switch_min_ms > 0.0)
    return cfg->switch_min_ms * 1e-3;
  unsigned low_khz, high_khz;
  hpd_dvfs_levels(&low_khz, &high_khz);
  return hpd_energy_break_even_s(low_khz, high_khz, busy_share);
}

int hpd_phase_pays(hpd_strategy strategy, size_t bytes)
{
  const hpd_settings *cfg = hpd_config_get();
  if (strategy != HPD_STRATEGY_DAEMON || cfg->switch_min_ms == 0.0)
    return 1;
  hpd_bcast_counters so_far;
  hpd_bcast_counters_get(&so_far);
  /* Nothing to predict from yet: switch, as the paper does, and learn the rate. */
  if (so_far.bytes == 0 || !(so_far.wall_s > 0.0))
    return 1;
  double predicted_s = (double)bytes * so_far.wall_s / (double)so_far.bytes;
  return predicted_s >= min_phase_s(cfg, so_far.cpu_s / so_far.wall_s);
}

void hpd_phase_enter(hpd_strategy strategy, int switching, hpd_phase phase)
{
  if (switching)
    hpd_dvfs_phase(strategy, phase);
  else
    hpd_dvfs_hold(strategy);
  hpd_phase_mark(phase);
}

void hpd_phase_mark(hpd_phase phase)
{
  hpd_energy_mark(phase, hpd_dvfs_current_khz());
}

hpd_strategy hpd_strategy_booked(void)
{
  hpd_strategy strategy = hpd_config_get()->strategy;
  return strategy == HPD_STRATEGY_AUTO ? HPD_STRATEGY_DAEMON : strategy;
}
