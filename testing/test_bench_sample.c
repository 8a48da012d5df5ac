/*
 * The benchmarks' sample statistics (support/bench_sample.c): medians and ranges, and the
 * order-statistic interval for a median, checked against binomial figures worked out by
 * hand and against its promise: on samples of a skewed distribution whose median is
 * known, the interval must hold that median at least as often as its level says.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "bench_sample.h"

static int failed, checked;

static void expect(int ok, const char *what, double got, double want)
{
  checked++;
  if (!ok) {
    failed++;
    printf("FAIL: %s: got %.17g, want %.17g\n", what, got, want);
  }
}

static void expect_near(const char *what, double got, double want)
{
  expect(fabs(got - want) <= 1e-12 * fabs(want) + 1e-15, what, got, want);
}

/* 1..n in a scrambled order (n coprime to 7). */
static void scrambled(double *v, int n)
{
  for (int i = 0; i < n; i++)
    v[i] = (double)((7 * i) % n + 1);
}

static void interval_case(int n, double want_lo, double want_hi, double want_level)
{
  double v[2000], lo, hi;
  scrambled(v, n);
  double level = bench_median_interval(v, n, &lo, &hi);
  char what[64];
  snprintf(what, sizeof what, "n=%d lower end", n);
  expect_near(what, lo, want_lo);
  snprintf(what, sizeof what, "n=%d upper end", n);
  expect_near(what, hi, want_hi);
  snprintf(what, sizeof what, "n=%d level", n);
  expect_near(what, level, want_level);
}

static uint64_t rng_state = 0x9E3779B97F4A7C15u;

static double uniform01(void)
{
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return ((double)(rng_state >> 11) + 0.5) / 9007199254740992.0;
}

/* Exponential samples (median ln 2): how often the interval holds the true median. */
static void coverage_case(int n, int trials)
{
  double v[64], lo, hi, level = 0;
  int held = 0;
  for (int t = 0; t < trials; t++) {
    for (int i = 0; i < n; i++)
      v[i] = -log(uniform01());
    level = bench_median_interval(v, n, &lo, &hi);
    held += lo <= log(2.0) && log(2.0) <= hi;
  }
  double seen = (double)held / trials;
  /* Four standard errors of slack for the simulation's own noise. */
  double slack = 4.0 * sqrt(level * (1 - level) / trials);
  char what[64];
  snprintf(what, sizeof what, "n=%d coverage at least the level", n);
  expect(seen >= level - slack && level >= 0.95, what, seen, level);
  /* Exact for continuous data: the coverage is the level itself, not just above it. */
  snprintf(what, sizeof what, "n=%d coverage at most the level", n);
  expect(seen <= level + slack, what, seen, level);
}

int main(void)
{
  double odd[] = {3, 1, 2}, even[] = {4, 1, 3, 2};
  bench_spread s = bench_spread_of(odd, 3);
  expect_near("odd median", s.median, 2);
  expect_near("odd min", s.min, 1);
  expect_near("odd max", s.max, 3);
  expect_near("values left as they were", odd[0], 3);
  expect_near("even median", bench_median(even, 4), 2.5);
  expect_near("no values", bench_median(even, 0), 0);

  /* n = 9: P(X <= 1) = 10/512, so [x(2), x(8)] at 1 - 20/512. */
  interval_case(9, 2, 8, 1.0 - 20.0 / 512.0);
  /* n = 15: P(X <= 3) = 576/32768, P(X <= 4) = 1941/32768 is too much. */
  interval_case(15, 4, 12, 1.0 - 2.0 * 576.0 / 32768.0);
  /* n = 6: only the range itself, at 1 - 2/64. */
  interval_case(6, 1, 6, 1.0 - 2.0 / 64.0);
  /* n = 5: the range reaches only 1 - 2/32 < 95%: no interval. */
  interval_case(5, 1, 5, 0.0);
  /* Large n, where 2^-n underflows: k near n/2 - 0.98 sqrt(n). */
  double v[2000], lo, hi;
  scrambled(v, 1999);
  double level = bench_median_interval(v, 1999, &lo, &hi);
  expect(level >= 0.95 && level < 0.96 && lo > 950 && lo < 960 && hi == 2000 - lo,
         "n=1999 interval", lo, 956);

  coverage_case(9, 20000);
  coverage_case(15, 20000);
  coverage_case(40, 20000);

  printf("bench_sample: %d checks, %d failed\n", checked, failed);
  return failed != 0;
}
