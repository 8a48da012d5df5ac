#include "core/config.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/abi.h"
#include "core/log.h"
#include "core/parse.h"

static hpd_settings config;
static pthread_once_t config_once = PTHREAD_ONCE_INIT;
/* Whether HPD_STRATEGY or hpd_set_strategy chose the strategy: where neither did, the
 * engine takes it from the grid's nodes (hpd_config_strategy_chosen). */
static int strategy_chosen;

typedef hpd_status (*option_apply)(hpd_settings *cfg, const char *value);

static hpd_status apply_threshold(hpd_settings *cfg, const char *value)
{
  return hpd_parse_fraction(value, &cfg->mem_threshold);
}

static hpd_status apply_report(hpd_settings *cfg, const char *value)
{
  return hpd_parse_report(value, &cfg->report, cfg->report_path, sizeof cfg->report_path);
}

static hpd_status apply_disable(hpd_settings *cfg, const char *value)
{
  return hpd_parse_bool(value, &cfg->disable);
}

static hpd_status apply_ngrp(hpd_settings *cfg, const char *value)
{
  return hpd_parse_count(value, &cfg->ngrp);
}

static hpd_status apply_kb(hpd_settings *cfg, const char *value)
{
  return hpd_parse_count(value, &cfg->kb);
}

/* An option that names one value of an enum. */
static hpd_status apply_name(const char *value, hpd_names table, int *field)
{
  int v;
  if (hpd_parse_name(value, table, &v) != HPD_OK)
    return HPD_STATUS_INVALID;
  *field = v;
  return HPD_OK;
}

static hpd_status apply_bcast(hpd_settings *cfg, const char *value)
{
  return apply_name(value, HPD_NAMES_BCAST, (int *)&cfg->bcast);
}

static hpd_status apply_chunk(hpd_settings *cfg, const char *value)
{
  return hpd_parse_bytes(value, HPD_CHUNK_MAX, &cfg->chunk);
}

static hpd_status apply_wait(hpd_settings *cfg, const char *value)
{
  return apply_name(value, HPD_NAMES_WAIT, (int *)&cfg->wait);
}

/* A path option where empty, as "HPD_X=" leaves it, means none. */
static hpd_status apply_optional_path(char *path, size_t size, const char *value)
{
  if (!value || value[0] == '\0') {
    path[0] = '\0';
    return HPD_OK;
  }
  return hpd_parse_path(value, path, size);
}

static hpd_status apply_tune_file(hpd_settings *cfg, const char *value)
{
  return apply_optional_path(cfg->tune_file, sizeof cfg->tune_file, value);
}

static hpd_status apply_dvfs(hpd_settings *cfg, const char *value)
{
  return apply_name(value, HPD_NAMES_DVFS, (int *)&cfg->dvfs);
}

static hpd_status apply_strategy(hpd_settings *cfg, const char *value)
{
  hpd_status status = apply_name(value, HPD_NAMES_STRATEGY, (int *)&cfg->strategy);
  strategy_chosen = status == HPD_OK;
  return status;
}

static hpd_status apply_freq_low(hpd_settings *cfg, const char *value)
{
  return hpd_parse_khz(value, &cfg->freq_low_khz);
}

static hpd_status apply_freq_high(hpd_settings *cfg, const char *value)
{
  return hpd_parse_khz(value, &cfg->freq_high_khz);
}

static hpd_status apply_sysfs_root(hpd_settings *cfg, const char *value)
{
  return hpd_parse_path(value, cfg->sysfs_root, sizeof cfg->sysfs_root);
}

static hpd_status apply_sim_switch_us(hpd_settings *cfg, const char *value)
{
  return hpd_parse_real(value, 0.0, HPD_SIM_SWITCH_US_MAX, &cfg->sim_switch_us);
}

/* "auto" or milliseconds; auto is kept as a negative value. */
static hpd_status apply_switch_min_ms(hpd_settings *cfg, const char *value)
{
  if (value && strcasecmp(value, "auto") == 0) {
    cfg->switch_min_ms = -1.0;
    return HPD_OK;
  }
  return hpd_parse_real(value, 0.0, HPD_SWITCH_MIN_MS_MAX, &cfg->switch_min_ms);
}

static hpd_status apply_energy(hpd_settings *cfg, const char *value)
{
  return apply_name(value, HPD_NAMES_ENERGY, (int *)&cfg->energy);
}

static hpd_status apply_powercap_root(hpd_settings *cfg, const char *value)
{
  return hpd_parse_path(value, cfg->powercap_root, sizeof cfg->powercap_root);
}

static hpd_status apply_power_model(hpd_settings *cfg, const char *value)
{
  return apply_optional_path(cfg->power_model, sizeof cfg->power_model, value);
}

static hpd_status apply_dispatch(hpd_settings *cfg, const char *value)
{
  return apply_name(value, HPD_NAMES_DISPATCH, (int *)&cfg->dispatch);
}

static hpd_status apply_max_slowdown(hpd_settings *cfg, const char *value)
{
  return hpd_parse_percent(value, 0.0, 1.0, &cfg->max_slowdown);
}

static hpd_status apply_calibration(hpd_settings *cfg, const char *value)
{
  return hpd_parse_percent(value, 0.0, 1.0, &cfg->calibration);
}

/* Every HPD_* variable, defined here once: its parser, what the warning says is accepted,
 * its default as the README's option table and the warning name it, and its API setter.
 * test_options_doc fails where the README's table and this one differ. */
static const struct env_option {
  const char *name;
  option_apply apply;
  const char *accepted;
  const char *default_text;
  const char *setter;
} options[] = {
    {"HPD_MEM_THRESHOLD", apply_threshold, "a fraction in (0,1], such as 0.2 or 20%", "0.2",
     "hpd_set_mem_threshold"},
    {"HPD_REPORT", apply_report, "off, summary or json:PATH", "off", "hpd_set_report"},
    {"HPD_DISABLE", apply_disable, "0 or 1 (also yes/no, true/false, on/off)", "0",
     "hpd_set_disable"},
    {"HPD_NGRP", apply_ngrp, "an integer >= 1 (0 for automatic)", "0 (from the threshold)",
     "hpd_set_ngrp"},
    {"HPD_KB", apply_kb, "an integer >= 1 (0 for automatic)", "0 (from the block sizes)",
     "hpd_set_kb"},
    {"HPD_BCAST", apply_bcast, "pipeline, binomial or mpi", "pipeline", "hpd_set_bcast"},
    {"HPD_CHUNK", apply_chunk,
     "bytes from 1 to 1GiB with an optional K, KiB, M or MiB suffix (0 for tuned)",
     "0 (tuned)", "hpd_set_chunk"},
    {"HPD_WAIT", apply_wait, "spin, yield or sleep", HPD_DEFAULT_WAIT_NAME, "hpd_set_wait"},
    {"HPD_TUNE_FILE", apply_tune_file, "a path shorter than 4096 bytes, or empty for none",
     "none", "hpd_set_tune_file"},
    {"HPD_STRATEGY", apply_strategy, "none, basic, daemon, overlap or auto",
     "daemon on one node, auto across nodes", "hpd_set_strategy"},
    {"HPD_MAX_SLOWDOWN", apply_max_slowdown, "a fraction from 0 to 1, such as 0.03 or 3%",
     "0.03", "hpd_set_max_slowdown"},
    {"HPD_SWITCH_MIN_MS", apply_switch_min_ms, "auto, or milliseconds from 0 to 1000000",
     "auto", "hpd_set_switch_min_ms"},
    {"HPD_DVFS", apply_dvfs, "auto, cpupower, sysfs, sim or none", "auto", "hpd_set_dvfs"},
    {"HPD_FREQ_LOW", apply_freq_low, "a frequency with its unit: 800MHz, 1.3GHz, 800000kHz",
     "the lowest available", "hpd_set_freq_low"},
    {"HPD_FREQ_HIGH", apply_freq_high, "a frequency with its unit: 2.5GHz, 2500MHz",
     "the highest available", "hpd_set_freq_high"},
    {"HPD_SYSFS_ROOT", apply_sysfs_root, "a path shorter than 4096 bytes", HPD_DEFAULT_SYSFS_ROOT,
     "hpd_set_sysfs_root"},
    {"HPD_ENERGY", apply_energy, "auto, powercap, papi, model or none", "auto",
     "hpd_set_energy"},
    {"HPD_POWERCAP_ROOT", apply_powercap_root, "a path shorter than 4096 bytes",
     HPD_DEFAULT_POWERCAP_ROOT, "hpd_set_powercap_root"},
    {"HPD_POWER_MODEL", apply_power_model, "a path shorter than 4096 bytes, or empty",
     "the built-in model", "hpd_set_power_model"},
    {"HPD_DISPATCH", apply_dispatch, "auto or engine", "auto", "hpd_set_dispatch"},
    {"HPD_CALIBRATION", apply_calibration, "a fraction from 0 to 1, such as 0.02 or 2%",
     "0.02", "hpd_set_calibration"},
    {"HPD_SIM_SWITCH_US", apply_sim_switch_us, "microseconds from 0 to 1000000", "0",
     "hpd_set_sim_switch_us"},
};

int hpd_config_option_doc(int i, const char **name, const char **default_text,
                          const char **setter)
{
  if (i < 0 || i >= (int)(sizeof options / sizeof options[0]))
    return 0;
  *name = options[i].name;
  *default_text = options[i].default_text;
  *setter = options[i].setter;
  return 1;
}

static void set_defaults(hpd_settings *cfg)
{
  memset(cfg, 0, sizeof *cfg);
  cfg->mem_threshold = HPD_DEFAULT_MEM_THRESHOLD;
  cfg->report = HPD_REPORT_OFF;
  cfg->disable = 0;
  cfg->ngrp = 0;
  cfg->kb = 0;
  cfg->bcast = HPD_BCAST_PIPELINE;
  cfg->chunk = 0;
  cfg->wait = HPD_DEFAULT_WAIT;
  cfg->tune_file[0] = '\0';
  cfg->dvfs = HPD_DVFS_AUTO;
  cfg->strategy = HPD_STRATEGY_DAEMON;
  cfg->switch_min_ms = -1.0;
  cfg->dispatch = HPD_DISPATCH_AUTO;
  cfg->max_slowdown = HPD_DEFAULT_MAX_SLOWDOWN;
  cfg->calibration = HPD_DEFAULT_CALIBRATION;
  snprintf(cfg->sysfs_root, sizeof cfg->sysfs_root, "%s", HPD_DEFAULT_SYSFS_ROOT);
  cfg->energy = HPD_ENERGY_AUTO;
  snprintf(cfg->powercap_root, sizeof cfg->powercap_root, "%s", HPD_DEFAULT_POWERCAP_ROOT);
}

static void read_environment(void)
{
  set_defaults(&config);
  strategy_chosen = 0;
  for (size_t i = 0; i < sizeof options / sizeof options[0]; i++) {
    const char *value = getenv(options[i].name);
    if (!value)
      continue;
    if (options[i].apply(&config, value) != HPD_OK)
      hpd_warn("%s='%s' is not valid: expected %s; using the default: %s", options[i].name,
               value, options[i].accepted, options[i].default_text);
  }
}

const hpd_settings *hpd_config_get(void)
{
  pthread_once(&config_once, read_environment);
  return &config;
}

void hpd_config_reload(void)
{
  hpd_config_get();
  read_environment();
}

int hpd_get_config_sized(hpd_config *out, size_t size)
{
  int status = hpd_abi_check("hpd_get_config", out, size, sizeof *out);
  if (status != HPD_SUCCESS)
    return status;
  /* Field by field: the public struct is frozen (hpdaemon.h), the settings may grow. */
  const hpd_settings *in = hpd_config_get();
  *out = (hpd_config){0};
  out->mem_threshold = in->mem_threshold;
  out->report = in->report;
  memcpy(out->report_path, in->report_path, sizeof out->report_path);
  out->disable = in->disable;
  out->ngrp = in->ngrp;
  out->kb = in->kb;
  out->bcast = in->bcast;
  out->chunk = in->chunk;
  out->wait = in->wait;
  memcpy(out->tune_file, in->tune_file, sizeof out->tune_file);
  out->dvfs = in->dvfs;
  out->strategy = in->strategy;
  out->freq_low_khz = in->freq_low_khz;
  out->freq_high_khz = in->freq_high_khz;
  memcpy(out->sysfs_root, in->sysfs_root, sizeof out->sysfs_root);
  out->sim_switch_us = in->sim_switch_us;
  out->energy = in->energy;
  memcpy(out->powercap_root, in->powercap_root, sizeof out->powercap_root);
  memcpy(out->power_model, in->power_model, sizeof out->power_model);
  out->switch_min_ms = in->switch_min_ms;
  out->dispatch = in->dispatch;
  out->max_slowdown = in->max_slowdown;
  out->calibration = in->calibration;
  return HPD_SUCCESS;
}

int hpd_set_mem_threshold(double fraction)
{
  hpd_config_get();
  if (!(fraction > 0.0) || fraction > 1.0)
    return HPD_ERR_INVALID;
  config.mem_threshold = fraction;
  return HPD_SUCCESS;
}

double hpd_get_mem_threshold(void)
{
  return hpd_config_get()->mem_threshold;
}

int hpd_set_report(const char *spec)
{
  hpd_config_get();
  return apply_report(&config, spec) == HPD_OK ? HPD_SUCCESS : HPD_ERR_INVALID;
}

int hpd_set_disable(int disable)
{
  hpd_config_get();
  config.disable = disable != 0;
  return HPD_SUCCESS;
}

int hpd_get_disable(void)
{
  return hpd_config_get()->disable;
}

/* HPD_NGRP and HPD_KB: 0 means automatic, a negative count is refused. */
static int set_count(int *field, int value)
{
  hpd_config_get();
  if (value < 0)
    return HPD_ERR_INVALID;
  *field = value;
  return HPD_SUCCESS;
}

int hpd_set_ngrp(int ngrp)
{
  return set_count(&config.ngrp, ngrp);
}

int hpd_get_ngrp(void)
{
  return hpd_config_get()->ngrp;
}

int hpd_set_kb(int kb)
{
  return set_count(&config.kb, kb);
}

int hpd_get_kb(void)
{
  return hpd_config_get()->kb;
}

int hpd_set_bcast(hpd_bcast_algorithm algorithm)
{
  hpd_config_get();
  if ((int)algorithm < 0 || algorithm >= HPD_BCAST_ALGORITHMS)
    return HPD_ERR_INVALID;
  config.bcast = algorithm;
  return HPD_SUCCESS;
}

hpd_bcast_algorithm hpd_get_bcast(void)
{
  return hpd_config_get()->bcast;
}

int hpd_set_chunk(uint64_t bytes)
{
  hpd_config_get();
  if (bytes > HPD_CHUNK_MAX)
    return HPD_ERR_INVALID;
  config.chunk = bytes;
  return HPD_SUCCESS;
}

uint64_t hpd_get_chunk(void)
{
  return hpd_config_get()->chunk;
}

int hpd_set_wait(hpd_wait_policy policy)
{
  hpd_config_get();
  if ((int)policy < 0 || policy >= HPD_WAIT_POLICIES)
    return HPD_ERR_INVALID;
  config.wait = policy;
  return HPD_SUCCESS;
}

hpd_wait_policy hpd_get_wait(void)
{
  return hpd_config_get()->wait;
}

int hpd_set_tune_file(const char *path)
{
  hpd_config_get();
  if (!path || !*path) {
    config.tune_file[0] = '\0';
    return HPD_SUCCESS;
  }
  return hpd_parse_path(path, config.tune_file, sizeof config.tune_file) == HPD_OK
             ? HPD_SUCCESS
             : HPD_ERR_INVALID;
}

/* An enum option set through the API: in range, or refused. */
static int set_enum(int *field, int value, int count)
{
  hpd_config_get();
  if (value < 0 || value >= count)
    return HPD_ERR_INVALID;
  *field = value;
  return HPD_SUCCESS;
}

int hpd_set_dvfs(hpd_dvfs_kind kind)
{
  return set_enum((int *)&config.dvfs, (int)kind, HPD_DVFS_KINDS);
}

hpd_dvfs_kind hpd_get_dvfs(void)
{
  return hpd_config_get()->dvfs;
}

int hpd_set_strategy(hpd_strategy strategy)
{
  int status = set_enum((int *)&config.strategy, (int)strategy, HPD_STRATEGIES);
  if (status == HPD_SUCCESS)
    strategy_chosen = 1;
  return status;
}

int hpd_config_strategy_chosen(void)
{
  hpd_config_get();
  return strategy_chosen;
}

hpd_strategy hpd_get_strategy(void)
{
  return hpd_config_get()->strategy;
}

int hpd_set_freq_low(unsigned khz)
{
  hpd_config_get();
  config.freq_low_khz = khz;
  return HPD_SUCCESS;
}

int hpd_set_freq_high(unsigned khz)
{
  hpd_config_get();
  config.freq_high_khz = khz;
  return HPD_SUCCESS;
}

int hpd_set_sysfs_root(const char *path)
{
  hpd_config_get();
  return apply_sysfs_root(&config, path) == HPD_OK ? HPD_SUCCESS : HPD_ERR_INVALID;
}

int hpd_set_sim_switch_us(double us)
{
  hpd_config_get();
  if (!(us >= 0.0) || us > HPD_SIM_SWITCH_US_MAX)
    return HPD_ERR_INVALID;
  config.sim_switch_us = us;
  return HPD_SUCCESS;
}

int hpd_set_switch_min_ms(double ms)
{
  hpd_config_get();
  if (ms != ms || ms > HPD_SWITCH_MIN_MS_MAX)
    return HPD_ERR_INVALID;
  config.switch_min_ms = ms < 0.0 ? -1.0 : ms;
  return HPD_SUCCESS;
}

double hpd_get_switch_min_ms(void)
{
  return hpd_config_get()->switch_min_ms;
}

/* A fraction from 0 to 1 into *field; refused (and nothing changed) otherwise. */
static int set_fraction(double *field, double fraction)
{
  hpd_config_get();
  if (!(fraction >= 0.0) || fraction > 1.0)
    return HPD_ERR_INVALID;
  *field = fraction;
  return HPD_SUCCESS;
}

int hpd_set_max_slowdown(double fraction)
{
  return set_fraction(&config.max_slowdown, fraction);
}

double hpd_get_max_slowdown(void)
{
  return hpd_config_get()->max_slowdown;
}

int hpd_set_calibration(double fraction)
{
  return set_fraction(&config.calibration, fraction);
}

double hpd_get_calibration(void)
{
  return hpd_config_get()->calibration;
}

int hpd_set_dispatch(hpd_dispatch dispatch)
{
  return set_enum((int *)&config.dispatch, (int)dispatch, HPD_DISPATCHES);
}

hpd_dispatch hpd_get_dispatch(void)
{
  return hpd_config_get()->dispatch;
}

int hpd_set_energy(hpd_energy_kind kind)
{
  return set_enum((int *)&config.energy, (int)kind, HPD_ENERGY_KINDS);
}

hpd_energy_kind hpd_get_energy(void)
{
  return hpd_config_get()->energy;
}

int hpd_set_powercap_root(const char *path)
{
  hpd_config_get();
  return apply_powercap_root(&config, path) == HPD_OK ? HPD_SUCCESS : HPD_ERR_INVALID;
}

int hpd_set_power_model(const char *path)
{
  hpd_config_get();
  return apply_power_model(&config, path) == HPD_OK ? HPD_SUCCESS : HPD_ERR_INVALID;
}
