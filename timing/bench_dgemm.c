/*
 * bench_dgemm: the physical limit for bench_pdgemm.  One process multiplies square
 * matrices with the local dgemm_ on as many BLAS threads as OPENBLAS_NUM_THREADS allows;
 * run on the cores the pdgemm ranks use, its rate is the most a distributed multiply on
 * those cores can reach, and pdgemm efficiency is measured against it.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_common.h"
#include "bench_sample.h"
#include "scalapack.h"



typedef struct options {
  int n[MAX_LIST], n_count, reps;
  const char *csv;
} options;

static void usage(FILE *out)
{
  fprintf(out, "usage: bench_dgemm [-n N[,N...]] [-r REPS] [--csv PATH]\n"
               "  -n     square matrix orders (default 2048,4096)\n"
               "  -r     timed calls per order (default 5)\n"
               "  --csv  append one line per order to PATH (header when PATH is empty)\n"
               "  BLAS threads come from OPENBLAS_NUM_THREADS.\n");
}

/* Returns 0 to run, 1 after --help, -1 on an error. */
static int parse_options(int argc, char **argv, options *o)
{
  *o = (options){.n = {2048, 4096}, .n_count = 2, .reps = 5};
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i];
    int count;
    if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0)
      return 1;
    if (i + 1 >= argc) {
      fprintf(stderr, "bench_dgemm: unknown option or missing value: %s\n", arg);
      return -1;
    }
    const char *v = argv[++i];
    int bad;
    if (strcmp(arg, "-n") == 0)
      bad = bench_parse_int_list(v, o->n, &o->n_count);
    else if (strcmp(arg, "-r") == 0)
      bad = bench_parse_int_list(v, &o->reps, &count) || count != 1;
    else if (strcmp(arg, "--csv") == 0)
      bad = (o->csv = v)[0] == '\0';
    else {
      fprintf(stderr, "bench_dgemm: unknown option: %s\n", arg);
      return -1;
    }
    if (bad) {
      fprintf(stderr, "bench_dgemm: option %s: bad value '%s'\n", arg, v);
      return -1;
    }
  }
  return 0;
}

static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void fill(double *m, size_t count, uint64_t seed)
{
  uint64_t x = seed * 0x9E3779B97F4A7C15ull + 1;
  for (size_t i = 0; i < count; i++) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    m[i] = (double)(x >> 11) * 0x1.0p-53 - 0.5;
  }
}

static double timed_dgemm(int n, const double *a, const double *b, double *c)
{
  const char notrans = 'N';
  const double alpha = 1.0, beta = 0.0;
  double start = now();
  dgemm_(&notrans, &notrans, &n, &n, &n, &alpha, a, &n, b, &n, &beta, c, &n);
  return now() - start;
}

static double gflops(int n, double seconds)
{
  return 2.0 * n * (double)n * (double)n / seconds * 1e-9;
}

static void append_csv(const char *path, int n, int reps, bench_spread t)
{
  FILE *f = fopen(path, "a");
  if (!f) {
    fprintf(stderr, "bench_dgemm: cannot append to %s\n", path);
    return;
  }
  if (ftell(f) == 0)
    fprintf(f, "n,threads,reps,median_s,min_s,max_s,gflops,gflops_best\n");
  fprintf(f, "%d,%d,%d,%.6f,%.6f,%.6f,%.3f,%.3f\n", n, openblas_get_num_threads(), reps,
          t.median, t.min, t.max, gflops(n, t.median), gflops(n, t.min));
  fclose(f);
}

/* Returns 0, or -1 when the matrices do not fit in memory. */
static int bench_order(const options *o, int n)
{
  size_t elems = (size_t)n * (size_t)n;
  double *a = malloc(elems * sizeof *a), *b = malloc(elems * sizeof *b);
  double *c = calloc(elems, sizeof *c), *times = malloc((size_t)o->reps * sizeof *times);
  int status = a && b && c && times ? 0 : -1;
  if (status == 0) {
    fill(a, elems, 1);
    fill(b, elems, 2);
    timed_dgemm(n, a, b, c); /* page faults and thread start-up belong to no repetition */
    for (int r = 0; r < o->reps; r++)
      times[r] = timed_dgemm(n, a, b, c);
    bench_spread t = bench_spread_of(times, o->reps);
    char range[48];
    snprintf(range, sizeof range, "%.4f..%.4f", t.min, t.max);
    printf("%6d %9.4f %-21s %9.2f %9.2f\n", n, t.median, range, gflops(n, t.median),
           gflops(n, t.min));
    fflush(stdout);
    if (o->csv)
      append_csv(o->csv, n, o->reps, t);
  } else {
    fprintf(stderr, "bench_dgemm: out of memory at N=%d\n", n);
  }
  free(a), free(b), free(c), free(times);
  return status;
}

int main(int argc, char **argv)
{
  options o;
  int parsed = parse_options(argc, argv, &o);
  if (parsed != 0) {
    usage(parsed > 0 ? stdout : stderr);
    return parsed > 0 ? 0 : 2;
  }
  printf("# bench_dgemm: local dgemm, 1 process, %d BLAS thread(s), BLAS kernels %s, "
         "%d timed calls per N\n",
         openblas_get_num_threads(), openblas_get_corename(), o.reps);
  printf("%6s %9s %-21s %9s %9s\n", "N", "median_s", "min..max_s", "GFLOP/s", "best_GF/s");
  int status = 0;
  for (int i = 0; i < o.n_count; i++) {
    fprintf(stderr, "bench_dgemm: N=%d\n", o.n[i]);
    status |= bench_order(&o, o.n[i]);
  }
  return status ? 1 : 0;
}
