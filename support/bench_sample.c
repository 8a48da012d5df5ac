#include "bench_sample.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int compare_doubles(const void *x, const void *y)
{
  double a = *(const double *)x, b = *(const double *)y;
  return (a > b) - (a < b);
}

/* A sorted copy; the caller frees it.  A benchmark that cannot hold a copy of its own
 * timings has nothing sensible left to print. */
static double *sorted_copy(const double *values, int count)
{
  double *sorted = malloc((size_t)count * sizeof *sorted);
  if (!sorted)
    abort();
  memcpy(sorted, values, (size_t)count * sizeof *sorted);
  qsort(sorted, (size_t)count, sizeof *sorted, compare_doubles);
  return sorted;
}

static double median_of_sorted(const double *sorted, int count)
{
  return count % 2 ? sorted[count / 2] : 0.5 * (sorted[count / 2 - 1] + sorted[count / 2]);
}

bench_spread bench_spread_of(const double *values, int count)
{
  bench_spread s = {0, 0, 0};
  if (count <= 0)
    return s;
  double *sorted = sorted_copy(values, count);
  s = (bench_spread){median_of_sorted(sorted, count), sorted[0], sorted[count - 1]};
  free(sorted);
  return s;
}

double bench_median(const double *values, int count)
{
  return bench_spread_of(values, count).median;
}

/* P(X <= i) for X ~ Binomial(n, 1/2), for i = 0, 1, ..., summed in log space so that no
 * term underflows on the way for large n. */
static double binomial_half_cdf(int n, int i)
{
  double log_term = -n * log(2.0), sum = 0.0;
  for (int j = 0; j <= i; j++) {
    if (j > 0)
      log_term += log((double)(n - j + 1) / j);
    sum += exp(log_term);
  }
  return sum;
}

double bench_median_interval(const double *values, int count, double *lo, double *hi)
{
  *lo = *hi = 0.0;
  if (count <= 0)
    return 0.0;
  double *sorted = sorted_copy(values, count);
  /* [x(k), x(n+1-k)] misses the median when at most k-1 values fall on one side of it:
   * probability 2 * P(X <= k-1).  The largest k that keeps this at or below 5%. */
  int k = 0;
  double miss = 1.0;
  while (2 * (k + 1) <= count) {
    double tail = 2.0 * binomial_half_cdf(count, k);
    if (tail > 0.05)
      break;
    miss = tail;
    k++;
  }
  double level = 0.0;
  if (k == 0) {
    *lo = sorted[0], *hi = sorted[count - 1];
  } else {
    *lo = sorted[k - 1], *hi = sorted[count - k];
    level = 1.0 - miss;
  }
  free(sorted);
  return level;
}
