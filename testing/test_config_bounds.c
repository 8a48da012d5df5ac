/*
 * The two bounds of the energy decisions.  HPD_SWITCH_MIN_MS, the minimum predicted
 * length of a broadcast group for which daemon switches down: read from the environment
 * (auto, or milliseconds from 0 to 1e6; a bad value warns once and leaves auto), and set
 * or read through the API (a negative value is auto, kept as -1).  HPD_MAX_SLOWDOWN, the
 * time the auto strategy may give for energy, and HPD_CALIBRATION, the time the dispatch
 * may lose calibrating: each a fraction from 0 to 1, or a percentage.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "core/config.h"
#include "hpdaemon.h"

#include "check.h"

/* Lines printed; each warning is one. */
static int lines_of(const char *text)
{
  int lines = 0;
  for (const char *p = text; *p; p++)
    lines += *p == '\n';
  return lines;
}

/* name=text, read afresh: what was said, and the value in force. */
static const char *reload_variable(const char *name, const char *text, double *value)
{
  setenv(name, text, 1);
  const char *said = capture_stderr(hpd_config_reload);
  hpd_config cfg;
  hpd_get_config(&cfg);
  if (strcmp(name, "HPD_MAX_SLOWDOWN") == 0) {
    *value = cfg.max_slowdown;
    CHECK(hpd_get_max_slowdown() == cfg.max_slowdown);
  } else if (strcmp(name, "HPD_CALIBRATION") == 0) {
    *value = cfg.calibration;
    CHECK(hpd_get_calibration() == cfg.calibration);
  } else {
    *value = cfg.switch_min_ms;
    CHECK(hpd_get_switch_min_ms() == cfg.switch_min_ms);
  }
  return said;
}

static const char *reload_with(const char *text, double *value)
{
  return reload_variable("HPD_SWITCH_MIN_MS", text, value);
}

static void test_environment(void)
{
  unsetenv("HPD_SWITCH_MIN_MS");
  CHECK(capture_stderr(hpd_config_reload)[0] == '\0');
  CHECK(hpd_get_switch_min_ms() == -1.0); /* auto by default */

  static const struct {
    const char *text;
    double value;
  } good[] = {{"auto", -1.0}, {"AUTO", -1.0}, {"0", 0.0}, {"17.5", 17.5}, {" 83 ", 83.0},
              {"1000000", 1e6}, {"1e3", 1000.0}};
  for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
    double v = 42;
    const char *said = reload_with(good[i].text, &v);
    if (said[0] || v != good[i].value)
      fprintf(stderr, "HPD_SWITCH_MIN_MS='%s': got %g, said '%s'\n", good[i].text, v, said);
    CHECK(said[0] == '\0' && v == good[i].value);
  }

  /* Each bad value: one warning naming the variable, the value and what is accepted, and
   * auto in force, whatever the last good value was. */
  static const char *bad[] = {"-1", "2e6", "1000000.5", "soon", "17.5ms", "nan", "inf"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    double v = 42;
    reload_with("17.5", &v);
    char named[64];
    snprintf(named, sizeof named, "HPD_SWITCH_MIN_MS='%s' is not valid", bad[i]);
    const char *said = reload_with(bad[i], &v);
    int ok = strstr(said, named) && strstr(said, "auto, or milliseconds from 0 to 1000000") &&
             strstr(said, "using the default: auto") && lines_of(said) == 1 && v == -1.0;
    if (!ok)
      fprintf(stderr, "HPD_SWITCH_MIN_MS='%s': got %g, said '%s'\n", bad[i], v, said);
    CHECK(ok);
  }
  unsetenv("HPD_SWITCH_MIN_MS");
  hpd_config_reload();
}

static void test_api(void)
{
  CHECK(hpd_set_switch_min_ms(17.5) == HPD_SUCCESS && hpd_get_switch_min_ms() == 17.5);
  hpd_config cfg;
  hpd_get_config(&cfg);
  CHECK(cfg.switch_min_ms == 17.5);
  CHECK(hpd_set_switch_min_ms(0) == HPD_SUCCESS && hpd_get_switch_min_ms() == 0.0);
  CHECK(hpd_set_switch_min_ms(1e6) == HPD_SUCCESS && hpd_get_switch_min_ms() == 1e6);
  /* Refused: the value in force stays. */
  CHECK(hpd_set_switch_min_ms(2e6) == HPD_ERR_INVALID && hpd_get_switch_min_ms() == 1e6);
  CHECK(hpd_set_switch_min_ms(NAN) == HPD_ERR_INVALID && hpd_get_switch_min_ms() == 1e6);
  CHECK(hpd_set_switch_min_ms(INFINITY) == HPD_ERR_INVALID && hpd_get_switch_min_ms() == 1e6);
  /* Any negative value is auto, kept as -1. */
  CHECK(hpd_set_switch_min_ms(-5) == HPD_SUCCESS && hpd_get_switch_min_ms() == -1.0);
  CHECK(hpd_set_switch_min_ms(3) == HPD_SUCCESS);
  CHECK(hpd_set_switch_min_ms(-1e-9) == HPD_SUCCESS && hpd_get_switch_min_ms() == -1.0);

  /* The API overrides the environment, which is read once. */
  setenv("HPD_SWITCH_MIN_MS", "250", 1);
  hpd_config_reload();
  CHECK(hpd_get_switch_min_ms() == 250.0);
  CHECK(hpd_set_switch_min_ms(0) == HPD_SUCCESS && hpd_get_switch_min_ms() == 0.0);
  setenv("HPD_SWITCH_MIN_MS", "auto", 1);
  CHECK(hpd_get_switch_min_ms() == 0.0);
  unsetenv("HPD_SWITCH_MIN_MS");
  hpd_config_reload();
}

/* A fraction option: its default, the texts it takes, the ones it refuses with one warning
 * naming the default, and its setter's bounds. */
typedef struct fraction_option {
  const char *name, *default_text;
  double default_value;
  int (*set)(double);
  double (*get)(void);
} fraction_option;

static void test_fraction(const fraction_option *o)
{
  unsetenv(o->name);
  hpd_config_reload();
  CHECK(o->get() == o->default_value);
  static const struct {
    const char *text;
    double value;
  } good[] = {{"0", 0.0}, {"0.1", 0.1}, {"5%", 0.05}, {" 100 % ", 1.0}, {"1", 1.0}};
  for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
    double v = 42;
    const char *said = reload_variable(o->name, good[i].text, &v);
    if (said[0] || fabs(v - good[i].value) > 1e-15)
      fprintf(stderr, "%s='%s': got %g, said '%s'\n", o->name, good[i].text, v, said);
    CHECK(said[0] == '\0' && fabs(v - good[i].value) <= 1e-15);
  }
  static const char *bad[] = {"-0.01", "1.5", "150%", "fast", "3 percent", "nan", ""};
  char using_default[64];
  snprintf(using_default, sizeof using_default, "using the default: %s", o->default_text);
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    double v = 42;
    reload_variable(o->name, "0.5", &v);
    const char *said = reload_variable(o->name, bad[i], &v);
    int ok = strstr(said, o->name) && strstr(said, "a fraction from 0 to 1") &&
             strstr(said, using_default) && lines_of(said) == 1 && v == o->default_value;
    if (!ok)
      fprintf(stderr, "%s='%s': got %g, said '%s'\n", o->name, bad[i], v, said);
    CHECK(ok);
  }
  unsetenv(o->name);
  hpd_config_reload();
  CHECK(o->set(0.25) == HPD_SUCCESS && o->get() == 0.25);
  CHECK(o->set(0) == HPD_SUCCESS && o->get() == 0.0);
  CHECK(o->set(1.01) == HPD_ERR_INVALID && o->get() == 0.0);
  CHECK(o->set(-0.1) == HPD_ERR_INVALID && o->get() == 0.0);
  CHECK(o->set(NAN) == HPD_ERR_INVALID && o->get() == 0.0);
  hpd_config_reload();
}

int main(void)
{
  test_environment();
  test_api();
  const fraction_option slowdown = {"HPD_MAX_SLOWDOWN", "0.03", 0.03, hpd_set_max_slowdown,
                                    hpd_get_max_slowdown};
  const fraction_option calibration = {"HPD_CALIBRATION", "0.02", 0.02, hpd_set_calibration,
                                       hpd_get_calibration};
  test_fraction(&slowdown);
  test_fraction(&calibration);
  printf("test_config_bounds: %d passed, %d failed\n", passed, failed);
  return failed != 0;
}
