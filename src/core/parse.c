#include "core/parse.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *skip_space(const char *s)
{
  while (isspace((unsigned char)*s))
    s++;
  return s;
}

hpd_status hpd_parse_percent(const char *text, double lo, double hi, double *out)
{
  if (!text)
    return HPD_STATUS_INVALID;
  const char *s = skip_space(text);
  if (*s == '\0')
    return HPD_STATUS_INVALID;
  char *end = NULL;
  errno = 0;
  double v = strtod(s, &end);
  if (end == s || errno != 0 || !isfinite(v))
    return HPD_STATUS_INVALID;
  end = (char *)skip_space(end);
  if (*end == '%') {
    v /= 100.0;
    end = (char *)skip_space(end + 1);
  }
  if (*end != '\0' || !(v >= lo) || v > hi)
    return HPD_STATUS_INVALID;
  *out = v;
  return HPD_OK;
}

hpd_status hpd_parse_fraction(const char *text, double *out)
{
  double v;
  if (hpd_parse_percent(text, 0.0, 1.0, &v) != HPD_OK || v == 0.0)
    return HPD_STATUS_INVALID;
  *out = v;
  return HPD_OK;
}

/* A run of decimal digits after optional spaces (no sign); *rest is what follows it. */
static hpd_status leading_digits(const char *text, unsigned long long *v, const char **rest)
{
  if (!text)
    return HPD_STATUS_INVALID;
  const char *s = skip_space(text);
  if (!isdigit((unsigned char)*s))
    return HPD_STATUS_INVALID;
  char *end = NULL;
  errno = 0;
  *v = strtoull(s, &end, 10);
  if (errno != 0)
    return HPD_STATUS_INVALID;
  *rest = skip_space(end);
  return HPD_OK;
}

hpd_status hpd_parse_count(const char *text, int *out)
{
  unsigned long long v;
  const char *rest;
  if (leading_digits(text, &v, &rest) != HPD_OK || *rest != '\0' || v > INT_MAX)
    return HPD_STATUS_INVALID;
  *out = (int)v;
  return HPD_OK;
}

hpd_status hpd_parse_bool(const char *text, int *out)
{
  static const char *yes[] = {"1", "yes", "true", "on"};
  static const char *no[] = {"0", "no", "false", "off"};
  if (!text)
    return HPD_STATUS_INVALID;
  for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++) {
    if (strcasecmp(text, yes[i]) == 0) {
      *out = 1;
      return HPD_OK;
    }
    if (strcasecmp(text, no[i]) == 0) {
      *out = 0;
      return HPD_OK;
    }
  }
  return HPD_STATUS_INVALID;
}

hpd_status hpd_parse_report(const char *text, hpd_report_mode *mode, char *path,
                            size_t path_size)
{
  if (!text)
    return HPD_STATUS_INVALID;
  if (strcasecmp(text, "off") == 0) {
    *mode = HPD_REPORT_OFF;
    return HPD_OK;
  }
  if (strcasecmp(text, "summary") == 0) {
    *mode = HPD_REPORT_SUMMARY;
    return HPD_OK;
  }
  if (strncasecmp(text, "json:", 5) == 0) {
    const char *p = text + 5;
    size_t len = strlen(p);
    if (len == 0 || len >= path_size)
      return HPD_STATUS_INVALID;
    memcpy(path, p, len + 1);
    *mode = HPD_REPORT_JSON;
    return HPD_OK;
  }
  return HPD_STATUS_INVALID;
}

hpd_status hpd_parse_bytes(const char *text, uint64_t max, uint64_t *out)
{
  static const struct { const char *suffix; unsigned shift; } units[] = {
      {"", 0}, {"k", 10}, {"kib", 10}, {"m", 20}, {"mib", 20}, {"g", 30}, {"gib", 30}};
  unsigned long long v;
  const char *unit;
  if (leading_digits(text, &v, &unit) != HPD_OK)
    return HPD_STATUS_INVALID;
  size_t len = strlen(unit);
  while (len > 0 && isspace((unsigned char)unit[len - 1]))
    len--;
  for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
    if (strlen(units[i].suffix) != len || strncasecmp(unit, units[i].suffix, len) != 0)
      continue;
    /* Checked before shifting, so that a huge count cannot wrap into range. */
    if (v > (max >> units[i].shift))
      return HPD_STATUS_INVALID;
    *out = (uint64_t)v << units[i].shift;
    return HPD_OK;
  }
  return HPD_STATUS_INVALID;
}

/* The index of text in names (any case), or -1. */
static int name_index(const char *text, const char *const *names, int count)
{
  if (!text)
    return -1;
  for (int i = 0; i < count; i++)
    if (strcasecmp(text, names[i]) == 0)
      return i;
  return -1;
}

static const char *const bcast_names[HPD_BCAST_ALGORITHMS] = {
    [HPD_BCAST_PIPELINE] = "pipeline", [HPD_BCAST_BINOMIAL] = "binomial",
    [HPD_BCAST_MPI] = "mpi"};
static const char *const wait_names[HPD_WAIT_POLICIES] = {
    [HPD_WAIT_SPIN] = "spin", [HPD_WAIT_YIELD] = "yield", [HPD_WAIT_SLEEP] = "sleep"};
static const char *const dvfs_names[HPD_DVFS_KINDS] = {
    [HPD_DVFS_AUTO] = "auto", [HPD_DVFS_CPUPOWER] = "cpupower", [HPD_DVFS_SYSFS] = "sysfs",
    [HPD_DVFS_SIM] = "sim", [HPD_DVFS_NONE] = "none"};
static const char *const strategy_names[HPD_STRATEGIES] = {
    [HPD_STRATEGY_NONE] = "none", [HPD_STRATEGY_BASIC] = "basic",
    [HPD_STRATEGY_DAEMON] = "daemon", [HPD_STRATEGY_OVERLAP] = "overlap",
    [HPD_STRATEGY_AUTO] = "auto"};
static const char *const energy_names[HPD_ENERGY_KINDS] = {
    [HPD_ENERGY_AUTO] = "auto", [HPD_ENERGY_POWERCAP] = "powercap",
    [HPD_ENERGY_PAPI] = "papi", [HPD_ENERGY_MODEL] = "model", [HPD_ENERGY_NONE] = "none"};
static const char *const dispatch_names[HPD_DISPATCHES] = {
    [HPD_DISPATCH_AUTO] = "auto", [HPD_DISPATCH_ENGINE] = "engine"};

static const struct name_table {
  const char *const *names;
  int count;
} name_tables[HPD_NAMES] = {
    [HPD_NAMES_BCAST] = {bcast_names, HPD_BCAST_ALGORITHMS},
    [HPD_NAMES_WAIT] = {wait_names, HPD_WAIT_POLICIES},
    [HPD_NAMES_DVFS] = {dvfs_names, HPD_DVFS_KINDS},
    [HPD_NAMES_STRATEGY] = {strategy_names, HPD_STRATEGIES},
    [HPD_NAMES_ENERGY] = {energy_names, HPD_ENERGY_KINDS},
    [HPD_NAMES_DISPATCH] = {dispatch_names, HPD_DISPATCHES},
};

hpd_status hpd_parse_name(const char *text, hpd_names table, int *out)
{
  int i = name_index(text, name_tables[table].names, name_tables[table].count);
  if (i < 0)
    return HPD_STATUS_INVALID;
  *out = i;
  return HPD_OK;
}

const char *hpd_name_of(hpd_names table, int value)
{
  return value >= 0 && value < name_tables[table].count ? name_tables[table].names[value]
                                                        : "unknown";
}

const char *hpd_bcast_algorithm_name(int algorithm)
{
  return hpd_name_of(HPD_NAMES_BCAST, algorithm);
}

const char *hpd_wait_policy_name(int policy)
{
  return hpd_name_of(HPD_NAMES_WAIT, policy);
}

const char *hpd_dispatch_name(int dispatch)
{
  return hpd_name_of(HPD_NAMES_DISPATCH, dispatch);
}

const char *hpd_dvfs_name(int kind)
{
  return hpd_name_of(HPD_NAMES_DVFS, kind);
}

const char *hpd_strategy_name(int strategy)
{
  return hpd_name_of(HPD_NAMES_STRATEGY, strategy);
}

const char *hpd_energy_name(int kind)
{
  return hpd_name_of(HPD_NAMES_ENERGY, kind);
}

/* A decimal number (fraction allowed) followed by its unit, which is required: a bare
 * "2500" could be MHz or kHz, and a wrong guess would switch to the wrong frequency. */
hpd_status hpd_parse_khz(const char *text, unsigned *out)
{
  static const struct { const char *unit; double khz; } units[] = {
      {"khz", 1.0}, {"mhz", 1e3}, {"ghz", 1e6}};
  if (!text)
    return HPD_STATUS_INVALID;
  const char *s = skip_space(text);
  if (!isdigit((unsigned char)*s) && *s != '.')
    return HPD_STATUS_INVALID;
  char *end = NULL;
  errno = 0;
  double v = strtod(s, &end);
  if (end == s || errno != 0 || !isfinite(v))
    return HPD_STATUS_INVALID;
  const char *unit = skip_space(end);
  size_t len = strlen(unit);
  while (len > 0 && isspace((unsigned char)unit[len - 1]))
    len--;
  for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
    if (strlen(units[i].unit) != len || strncasecmp(unit, units[i].unit, len) != 0)
      continue;
    double khz = v * units[i].khz;
    if (!(khz >= 1.0) || khz > 4294967295.0 || fabs(khz - nearbyint(khz)) > 1e-6 * khz)
      return HPD_STATUS_INVALID;
    *out = (unsigned)nearbyint(khz);
    return HPD_OK;
  }
  return HPD_STATUS_INVALID;
}

hpd_status hpd_parse_real(const char *text, double lo, double hi, double *out)
{
  if (!text)
    return HPD_STATUS_INVALID;
  const char *s = skip_space(text);
  if (*s == '\0')
    return HPD_STATUS_INVALID;
  char *end = NULL;
  errno = 0;
  double v = strtod(s, &end);
  if (end == s || errno != 0 || !isfinite(v) || *skip_space(end) != '\0' || v < lo || v > hi)
    return HPD_STATUS_INVALID;
  *out = v;
  return HPD_OK;
}

hpd_status hpd_parse_path(const char *text, char *path, size_t path_size)
{
  if (!text)
    return HPD_STATUS_INVALID;
  size_t len = strlen(text);
  if (len == 0 || len >= path_size)
    return HPD_STATUS_INVALID;
  memcpy(path, text, len + 1);
  return HPD_OK;
}
