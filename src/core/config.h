/* The one configuration: environment first, then API calls. */
#ifndef HPD_CORE_CONFIG_H
#define HPD_CORE_CONFIG_H

#include "core/checked.h"
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

/* The configuration in force, every option: the public struct hpd_config is the part of
 * it that the binary interface fixed (hpdaemon.h), and options added since are here
 * alone, read through their own hpd_get_* calls. */
typedef struct hpd_settings {
  double mem_threshold;  /* HPD_MEM_THRESHOLD: fraction of node memory, in (0,1] */
  hpd_report_mode report;
  char report_path[HPD_PATH_MAX]; /* for HPD_REPORT_JSON */
  int disable;           /* HPD_DISABLE: 1 = every call goes to the reference pdgemm */
  int ngrp;              /* HPD_NGRP: panels broadcast per group; 0 = from mem_threshold */
  int kb;                /* HPD_KB: largest panel width; 0 = from the block sizes */
  hpd_bcast_algorithm bcast; /* HPD_BCAST */
  uint64_t chunk;        /* HPD_CHUNK: bytes per pipeline chunk; 0 = tuned */
  hpd_wait_policy wait;  /* HPD_WAIT */
  char tune_file[HPD_PATH_MAX]; /* HPD_TUNE_FILE: where tuned chunks are kept; "" = nowhere */
  hpd_dvfs_kind dvfs;    /* HPD_DVFS */
  hpd_strategy strategy; /* HPD_STRATEGY */
  unsigned freq_low_khz;  /* HPD_FREQ_LOW; 0 = the lowest available */
  unsigned freq_high_khz; /* HPD_FREQ_HIGH; 0 = the highest available */
  char sysfs_root[HPD_PATH_MAX]; /* HPD_SYSFS_ROOT: the cpufreq tree of the sysfs backend */
  double sim_switch_us;  /* HPD_SIM_SWITCH_US: emulated transition latency of sim */
  hpd_energy_kind energy; /* HPD_ENERGY */
  char powercap_root[HPD_PATH_MAX]; /* HPD_POWERCAP_ROOT */
  char power_model[HPD_PATH_MAX];   /* HPD_POWER_MODEL: model parameters; "" = built in */
  /* HPD_SWITCH_MIN_MS: the daemon strategy switches down for a group only if its
   * broadcasts are predicted to last at least this long; negative = auto (the power
   * model's break-even), 0 = always, as in the paper. */
  double switch_min_ms;
  hpd_dispatch dispatch; /* HPD_DISPATCH */
  /* HPD_MAX_SLOWDOWN: how much longer than the faster schedule the auto strategy lets a
   * call's predicted time be for the sake of less predicted energy, as a fraction. */
  double max_slowdown;
  /* HPD_CALIBRATION: the share of a grid's time in a routine that the dispatch may lose
   * timing close classes on both sides, as a fraction; 0 never calibrates. */
  double calibration;
} hpd_settings;

/* The configuration in force; the environment is read on the first call only. */
const hpd_settings *hpd_config_get(void);

/* Forget API overrides and read the environment again (tests only). */
void hpd_config_reload(void);

/* 1 where HPD_STRATEGY (a valid one) or hpd_set_strategy chose the strategy, 0 where it
 * is the default. */
HPD_CHECKED int hpd_config_strategy_chosen(void);

/* The i-th option of the table the configuration is read from (0, 1, ...): its variable,
 * its default as documented, and its API setter.  0 past the last. */
HPD_CHECKED int hpd_config_option_doc(int i, const char **name, const char **default_text,
                                      const char **setter);

#endif
