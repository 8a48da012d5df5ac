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

int hpd_parse_count(const char *text, int *out)
{
  if (!text)
    return -1;
  const char *s = skip_space(text);
  if (!isdigit((unsigned char)*s))
    return -1;
  char *end = NULL;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (errno != 0 || *skip_space(end) != '\0' || v > INT_MAX)
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
