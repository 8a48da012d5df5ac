/*
 * The power model's break-even (hpd_power_model_break_even_s), which daemon's switch rule
 * uses under HPD_SWITCH_MIN_MS=auto: the time a phase must spend at the low frequency to
 * save the energy of the two switches around it.  Every expected value is worked out here
 * from the built-in table's numbers as written down (the same figures test_energy_model.c
 * pins), not from the model's own lookup, so that a wrong watts or switch figure in the
 * formula cannot agree with itself.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "energy/model.h"

#include "check.h"

#define NEAR(a, b) (fabs((a) - (b)) <= 1e-12 * (1.0 + fabs(b)))

/* The built-in table: 0.8, 1.3, 1.8, 2.5 GHz; watts of one core busy and idle. */
static const unsigned KHZ[] = {800000, 1300000, 1800000, 2500000};
static const double BUSY_W[] = {7.03, 9.82, 13.36, 18.75};
static const double IDLE_W[] = {4.86, 5.55, 6.32, 7.28};
static const double SWITCH_J = 0.1;

/* 2 E_switch / (P(high) - P(low)), P mixing busy and idle watts by the busy share. */
static double expected(int low, int high, double busy)
{
  double at_high = busy * BUSY_W[high] + (1 - busy) * IDLE_W[high];
  double at_low = busy * BUSY_W[low] + (1 - busy) * IDLE_W[low];
  return 2 * SWITCH_J / (at_high - at_low);
}

static void test_builtin(void)
{
  hpd_power_model m;
  hpd_power_model_builtin(&m);
  /* The paper's pair, 0.8 and 2.5 GHz, named or as 0 (the lowest and highest level). */
  CHECK(NEAR(hpd_power_model_break_even_s(&m, KHZ[0], KHZ[3], 1.0), expected(0, 3, 1.0)));
  CHECK(NEAR(hpd_power_model_break_even_s(&m, 0, 0, 1.0), expected(0, 3, 1.0)));
  CHECK(NEAR(hpd_power_model_break_even_s(&m, 0, 0, 0.0), expected(0, 3, 0.0)));
  CHECK(NEAR(hpd_power_model_break_even_s(&m, 0, 0, 0.5), expected(0, 3, 0.5)));
  CHECK(NEAR(hpd_power_model_break_even_s(&m, KHZ[0], 0, 0.5), expected(0, 3, 0.5)));
  CHECK(NEAR(hpd_power_model_break_even_s(&m, 0, KHZ[3], 0.0), expected(0, 3, 0.0)));
  /* The figures the README quotes: about 17 ms for a busy core, about 83 ms for an idle
   * one, so that a wrong formula cannot pass with wrong words beside it. */
  CHECK(NEAR(expected(0, 3, 1.0), 0.2 / 11.72) && fabs(expected(0, 3, 1.0) - 0.0171) < 1e-4);
  CHECK(NEAR(expected(0, 3, 0.0), 0.2 / 2.42) && fabs(expected(0, 3, 0.0) - 0.0826) < 1e-4);
  /* A busy core saves more per second at the low frequency: it breaks even sooner. */
  CHECK(hpd_power_model_break_even_s(&m, 0, 0, 1.0) < hpd_power_model_break_even_s(&m, 0, 0, 0.5));
  CHECK(hpd_power_model_break_even_s(&m, 0, 0, 0.5) < hpd_power_model_break_even_s(&m, 0, 0, 0.0));
  /* Other levels of the table: 1.3 low, 1.8 high; 0 low with a named high. */
  CHECK(NEAR(hpd_power_model_break_even_s(&m, KHZ[1], KHZ[2], 1.0), expected(1, 2, 1.0)));
  CHECK(NEAR(hpd_power_model_break_even_s(&m, KHZ[1], KHZ[2], 0.25), expected(1, 2, 0.25)));
  CHECK(NEAR(hpd_power_model_break_even_s(&m, 0, KHZ[1], 0.0), expected(0, 1, 0.0)));
  /* The busy share is clamped to [0,1]. */
  CHECK(NEAR(hpd_power_model_break_even_s(&m, 0, 0, 1.7), expected(0, 3, 1.0)));
  CHECK(NEAR(hpd_power_model_break_even_s(&m, 0, 0, -0.3), expected(0, 3, 0.0)));
  /* A low frequency that is not lower saves nothing: no phase is long enough. */
  CHECK(isinf(hpd_power_model_break_even_s(&m, KHZ[2], KHZ[2], 1.0)));
  CHECK(isinf(hpd_power_model_break_even_s(&m, KHZ[3], KHZ[0], 0.5)));
  CHECK(hpd_power_model_break_even_s(&m, KHZ[3], KHZ[0], 0.5) > 0);
}

/* A model whose low level draws as much as, or more than, its high one. */
static void test_no_saving(void)
{
  hpd_power_model m;
  memset(&m, 0, sizeof m);
  m.levels = 2;
  m.khz[0] = 1000000, m.busy_w[0] = 10.0, m.idle_w[0] = 5.0;
  m.khz[1] = 2000000, m.busy_w[1] = 10.0, m.idle_w[1] = 5.0;
  m.switch_j = 0.1;
  for (double busy = 0.0; busy <= 1.0; busy += 0.25) {
    double t = hpd_power_model_break_even_s(&m, 0, 0, busy);
    CHECK(isinf(t) && t > 0);
  }
  /* A low level that idles at more watts than the high one: nothing saved while idle,
   * while busy the low level does save. */
  m.idle_w[0] = 6.0;
  CHECK(isinf(hpd_power_model_break_even_s(&m, 0, 0, 0.0)));
  m.busy_w[0] = 6.0;
  CHECK(NEAR(hpd_power_model_break_even_s(&m, 0, 0, 1.0), 2 * 0.1 / (10.0 - 6.0)));
  /* Switches that cost nothing pay at once. */
  m.switch_j = 0.0;
  CHECK(hpd_power_model_break_even_s(&m, 0, 0, 1.0) == 0.0);
}

int main(void)
{
  test_builtin();
  test_no_saving();
  printf("test_energy_break_even: %d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
