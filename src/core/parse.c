#include "parse.h"

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

int hpd_parse_fraction(const char *text, double *out)
{
  if (!text)
    return -1;
  const char *s = skip_space(text);
  if (*s == '\0')
    return -1;
  char *end = NULL;
  errno = 0;
  double v = strtod(s, &end);
  if (end == s || errno != 0 || !isfinite(v))
    return -1;
  end = (char *)skip_space(end);
  if (*end == '%') {
    v /= 100.0;
    end = (char *)skip_space(end + 1);
  }
  if (*end != '\0' || !(v > 0.0) || v > 1.0)
    return -1;
  *out = v;
  return 0;
}

/* A run of decimal digits after optional spaces (no sign); *rest is what follows it. */
static int leading_digits(const char *text, unsigned long long *v, const char **rest)
{
  if (!text)
    return -1;
  const char *s = skip_space(text);
  if (!isdigit((unsigned char)*s))
    return -1;
  char *end = NULL;
  errno = 0;
  *v = strtoull(s, &end, 10);
  if (errno != 0)
    return -1;
  *rest = skip_space(end);
  return 0;
}

int hpd_parse_count(const char *text, int *out)
{
  unsigned long long v;
  const char *rest;
  if (leading_digits(text, &v, &rest) != 0 || *rest != '\0' || v > INT_MAX)
    return -1;
  *out = (int)v;
  return 0;
}

int hpd_parse_bool(const char *text, int *out)
{
  static const char *yes[] = {"1", "yes", "true", "on"};
  static const char *no[] = {"0", "no", "false", "off"};
  if (!text)
    return -1;
  for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++) {
    if (strcasecmp(text, yes[i]) == 0) {
      *out = 1;
      return 0;
    }
    if (strcasecmp(text, no[i]) == 0) {
      *out = 0;
      return 0;
    }
  }
  return -1;
}

int hpd_parse_report(const char *text, hpd_report_mode *mode, char *path, size_t path_size)
{
  if (!text)
    return -1;
  if (strcasecmp(text, "off") == 0) {
    *mode = HPD_REPORT_OFF;
    return 0;
  }
  if (strcasecmp(text, "summary") == 0) {
    *mode = HPD_REPORT_SUMMARY;
    return 0;
  }
  if (strncasecmp(text, "json:", 5) == 0) {
    const char *p = text + 5;
    size_t len = strlen(p);
    if (len == 0 || len >= path_size)
      return -1;
    memcpy(path, p, len + 1);
    *mode = HPD_REPORT_JSON;
    return 0;
  }
  return -1;
}

int hpd_parse_bytes(const char *text, uint64_t max, uint64_t *out)
{
  static const struct { const char *suffix; unsigned shift; } units[] = {
      {"", 0}, {"k", 10}, {"kib", 10}, {"m", 20}, {"mib", 20}, {"g", 30}, {"gib", 30}};
  unsigned long long v;
  const char *unit;
  if (leading_digits(text, &v, &unit) != 0)
    return -1;
  size_t len = strlen(unit);
  while (len > 0 && isspace((unsigned char)unit[len - 1]))
    len--;
  for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
    if (strlen(units[i].suffix) != len || strncasecmp(unit, units[i].suffix, len) != 0)
      continue;
    /* Checked before shifting, so that a huge count cannot wrap into range. */
    if (v > (max >> units[i].shift))
      return -1;
    *out = (uint64_t)v << units[i].shift;
    return 0;
  }
  return -1;
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

int hpd_parse_bcast(const char *text, hpd_bcast_algorithm *out)
{
  int i = name_index(text, bcast_names, HPD_BCAST_ALGORITHMS);
  if (i < 0)
    return -1;
  *out = (hpd_bcast_algorithm)i;
  return 0;
}

int hpd_parse_wait(const char *text, hpd_wait_policy *out)
{
  int i = name_index(text, wait_names, HPD_WAIT_POLICIES);
  if (i < 0)
    return -1;
  *out = (hpd_wait_policy)i;
  return 0;
}

const char *hpd_bcast_algorithm_name(int algorithm)
{
  return algorithm >= 0 && algorithm < HPD_BCAST_ALGORITHMS ? bcast_names[algorithm]
                                                           : "unknown";
}

const char *hpd_wait_policy_name(int policy)
{
  return policy >= 0 && policy < HPD_WAIT_POLICIES ? wait_names[policy] : "unknown";
}

int hpd_parse_path(const char *text, char *path, size_t path_size)
{
  if (!text)
    return -1;
  size_t len = strlen(text);
  if (len == 0 || len >= path_size)
    return -1;
  memcpy(path, text, len + 1);
  return 0;
}
