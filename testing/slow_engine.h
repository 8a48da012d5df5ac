/* The dispatch tests' engine, made slow on purpose: the sim backend emulates switches of
 * 3 ms, and basic switches twice per broadcast step, however short. */
#ifndef HPD_TESTING_SLOW_ENGINE_H
#define HPD_TESTING_SLOW_ENGINE_H

#include "hpdaemon.h"

static inline void slow_engine_on_purpose(void)
{
  hpd_set_dvfs(HPD_DVFS_SIM);
  hpd_set_sim_switch_us(3000);
  hpd_set_strategy(HPD_STRATEGY_BASIC);
  hpd_set_switch_min_ms(0);
}

#endif
