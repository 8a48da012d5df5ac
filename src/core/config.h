/* The one configuration struct: environment first, then API calls. */
#ifndef HPD_CORE_CONFIG_H
#define HPD_CORE_CONFIG_H

#include "hpdaemon.h"

#define HPD_DEFAULT_MEM_THRESHOLD 0.2
/* Sleeping costs nothing measurable where each rank has its core (a waiting rank spins
 * first and only sleeps once nothing has arrived for a while) and frees the core where
 * ranks share one (timing/README.md). */
#define HPD_DEFAULT_WAIT HPD_WAIT_SLEEP
#define HPD_DEFAULT_WAIT_NAME "sleep"
#define HPD_DEFAULT_SYSFS_ROOT "/sys/devices/system/cpu"
#define HPD_DEFAULT_POWERCAP_ROOT "/sys/class/powercap"
#define HPD_SIM_SWITCH_US_MAX 1e6
#define HPD_SWITCH_MIN_MS_MAX 1e6
/* Energy the auto strategy may buy with time: 3% longer at most, by default. */
#define HPD_DEFAULT_MAX_SLOWDOWN 0.03
#define HPD_DEFAULT_CALIBRATION 0.02

/* The configuration in force; the environment is read on the first call only. */
const hpd_config *hpd_config_get(void);

/* Forget API overrides and read the environment again (tests only). */
void hpd_config_reload(void);

/* 1 where HPD_STRATEGY (a valid one) or hpd_set_strategy chose the strategy, 0 where it
 * is the default. */
int hpd_config_strategy_chosen(void);

/* The i-th option of the table the configuration is read from (0, 1, ...): its variable,
 * its default as documented, and its API setter.  0 past the last. */
int hpd_config_option_doc(int i, const char **name, const char **default_text,
                          const char **setter);

#endif
