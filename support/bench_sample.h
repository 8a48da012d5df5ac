/*
 * What the benchmarks and drivers say about repeated measurements: the median with its
 * range, and a confidence interval for the median that assumes nothing about the
 * distribution.  The machines these run on are shared, so a single median can land on
 * either side of 1.0 by chance; the interval says whether a difference is beyond that.
 */
#ifndef HPD_SUPPORT_BENCH_SAMPLE_H
#define HPD_SUPPORT_BENCH_SAMPLE_H

typedef struct bench_spread {
  double median, min, max;
} bench_spread;

/* Median, smallest and largest of count values (all 0 for none); values is left as it
 * is. */
bench_spread bench_spread_of(const double *values, int count);

/* The median of count values (0 for none); values is left as it is. */
double bench_median(const double *values, int count);

/*
 * A confidence interval of at least 95% for the median of the population the count
 * values were drawn from, by order statistics: [x(k), x(count+1-k)] of the sorted
 * values, with k as large as the binomial tail allows.  Returns the interval's exact
 * confidence level (0.95 to 1), or 0 when count is below 6, too few for 95% (then *lo
 * and *hi are the smallest and largest value).
 */
double bench_median_interval(const double *values, int count, double *lo, double *hi);

#endif
