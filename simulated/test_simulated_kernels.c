/*
 * test_simulated_kernels: the timing mode's kernels charge each call the time its shape
 * takes by the rate table, and compute nothing.
 *
 * The test writes a table whose rate grows as the square of each kernel's first dimension
 * (linear in the logarithms, so that interpolation between the grid's shapes is exact;
 * not linear, so that no two dimensions of a call could be swapped unseen),
 * then charges calls on the grid, between its points and beyond its end, and checks the
 * simulated time of each against flops x peak / rate / the core's speed.  A kernel
 * charged under another family's rates, or by the wrong dimension (a right-side solve's
 * order is N), is off by far more than the tolerance.  Also checked: outputs untouched, an
 * LU's pivots in range, the core's P-state scales the charge, and a table that lacks a
 * shape is refused.
 */
#include <math.h>
#include <mpi.h>
#include <simgrid/host.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "charge.h"
#include "level3/small_trsm.h"
#include "rates.h"

void dgemm_(const char *, const char *, const int *, const int *, const int *, const double *,
            const double *, const int *, const double *, const int *, const double *,
            double *, const int *);
void dtrsm_(const char *, const char *, const char *, const char *, const int *, const int *,
            const double *, const double *, const int *, double *, const int *);
void dgetrf_(const int *, const int *, double *, const int *, int *, int *);
double ddot_(const int *, const double *, const int *, const double *, const int *);

#define TOLERANCE 1e-9

static int failures;

static void check(int ok, const char *what, double got, double want)
{
  if (ok)
    return;
  failures++;
  printf("FAIL: %s: %.9g, expected %.9g\n", what, got, want);
}

/* The table's rate: its family's base times the square of the first dimension, which
 * stops growing at the grid's end. */
static double base(hpd_kernel k)
{
  return k == HPD_K_SMALL_TRSM ? 3e6 : k == HPD_K_TRSM ? 2e6 : 1e6;
}

static double table_rate(hpd_kernel k, double first)
{
  const hpd_kernel_axis *axis = &hpd_kernel_table[k].axis[0];
  double top = axis->points[axis->count - 1];
  double d = first < top ? first : top;
  return base(k) * d * d;
}

static void write_table(const char *path, int skip_last)
{
  FILE *f = fopen(path, "w");
  fprintf(f, "# a test table\ncpu none\n");
  for (int k = 0; k < HPD_KERNELS; k++)
    for (int s = 0; s < hpd_kernel_shapes(k); s++) {
      if (skip_last && k == HPD_KERNELS - 1 && s == hpd_kernel_shapes(k) - 1)
        continue;
      double dim[HPD_KERNEL_MAX_DIMS];
      hpd_kernel_shape(k, s, dim);
      fprintf(f, "%s", hpd_kernel_table[k].name);
      for (int d = 0; d < hpd_kernel_table[k].dims; d++)
        fprintf(f, " %d", (int)dim[d]);
      fprintf(f, " %.17g\n", table_rate(k, dim[0]));
    }
  fclose(f);
}

/* The simulated seconds a call of this shape must take at the core's current speed. */
static double expected(hpd_kernel k, double d0, double d1, double d2)
{
  double dim[HPD_KERNEL_MAX_DIMS] = {d0, d1, d2};
  double peak = table_rate(HPD_K_GEMM, 1e9);
  return hpd_kernel_flops(k, dim) * peak / table_rate(k, d0) / sg_host_get_speed(sg_host_self());
}

/* Each MPI_Wtime takes a little simulated time itself: measured, then taken off. */
static void timed(const char *what, double want, void (*call)(void *), void *arg)
{
  double start = MPI_Wtime(), own = MPI_Wtime() - start;
  start = MPI_Wtime();
  call(arg);
  double got = MPI_Wtime() - start - own;
  check(fabs(got - want) <= TOLERANCE * want, what, got, want);
}

typedef struct shape {
  int m, n, k;
  char side;
  double *c;
} shape;

static void gemm(void *arg)
{
  shape *s = arg;
  double one = 1;
  dgemm_("N", "N", &s->m, &s->n, &s->k, &one, s->c, &s->m, s->c, &s->k, &one, s->c, &s->m);
}

static void trsm(void *arg)
{
  shape *s = arg;
  double one = 1;
  dtrsm_(&s->side, "L", "N", "N", &s->m, &s->n, &one, s->c, &s->m, s->c, &s->m);
}

static void small_trsm(void *arg)
{
  shape *s = arg;
  hpd_small_trsm(s->side, 'L', 'N', 'N', s->m, s->n, 1.0, s->c, s->m, s->c, s->m);
}

static void factor(double *c)
{
  int m = 300, n = 64, info = -1, pivots[64];
  dgetrf_(&m, &n, c, &m, pivots, &info);
  check(info == 0, "the charged LU's INFO", info, 0);
  for (int i = 0; i < n; i++)
    if (pivots[i] < i + 1 || pivots[i] > m) {
      check(0, "a charged LU's pivot in its range", pivots[i], i + 1);
      break;
    }
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  char path[] = "/tmp/hpd_rates_XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0) {
    perror("mkstemp");
    return 2;
  }
  close(fd);
  write_table(path, 1);
  hpd_rate_table refused;
  char err[512] = "";
  check(hpd_rates_load(path, &refused, err, sizeof err) == -1 && strstr(err, "dlaswp"),
        "a table without one of dlaswp's shapes is refused", 0, -1);
  write_table(path, 0);
  setenv("SIMULATE_KERNELS", "charge", 1);
  setenv("SIMULATE_KERNEL_RATES", path, 1);
  check(hpd_sim_charging() == 1, "the timing mode on", hpd_sim_charging(), 1);

  double *c = calloc(6000 * 64, sizeof *c);
  shape s = {64, 256, 32, 'L', c};
  timed("dgemm on the grid", expected(HPD_K_GEMM, 64, 256, 32), gemm, &s);
  s.m = 100; /* between 64 and 128 */
  timed("dgemm between the grid's shapes", expected(HPD_K_GEMM, 100, 256, 32), gemm, &s);
  s.m = 5000;
  timed("dgemm beyond the grid", expected(HPD_K_GEMM, 5000, 256, 32), gemm, &s);
  s = (shape){10, 96, 0, 'R', c};
  timed("a right-side dtrsm, by its order N", expected(HPD_K_TRSM, 96, 10, 1), trsm, &s);
  s = (shape){40, 300, 0, 'L', c};
  timed("a left-side dtrsm, by its order M", expected(HPD_K_TRSM, 40, 300, 1), trsm, &s);
  timed("the library's small solve, by its own rates", expected(HPD_K_SMALL_TRSM, 40, 300, 1),
        small_trsm, &s);
  int untouched = 1;
  for (int i = 0; i < 6000 * 64; i++)
    untouched &= c[i] == 0;
  check(untouched, "the charged kernels' outputs untouched", untouched, 1);
  factor(c);
  int n = 1000, one = 1;
  check(ddot_(&n, c, &one, c, &one) == 0, "a charged dot product", 1, 0);

  unsigned long fastest = sg_host_get_pstate(sg_host_self());
  sg_host_set_pstate(sg_host_self(), sg_host_get_nb_pstates(sg_host_self()) - 1);
  s = (shape){64, 256, 32, 'L', c};
  timed("dgemm at the slowest P-state", expected(HPD_K_GEMM, 64, 256, 32), gemm, &s);
  sg_host_set_pstate(sg_host_self(), fastest);
  unlink(path);
  free(c);
  printf("test_simulated_kernels: %s (%d failures)\n", failures ? "FAIL" : "ok", failures);
  MPI_Finalize();
  return failures ? 1 : 0;
}
