/*
 * pdpotrf_ through hpdaemon (src/factor/), judged against exact factors, on the grid
 * given as P Q.  sub(A) is built as L * L' from a lower triangular L of small integers
 * whose diagonal holds 1 or 2: every quantity a Cholesky factorization forms from it is
 * then an integer or an exact half, so any correct summation order gives L to the bit.
 * Each case checks the factor's triangle entry by entry, every other entry of the local
 * array untouched, INFO on every process, and who served the call: hpdaemon's look-ahead
 * for either factor on one line of the grid or on a 2-D grid (the installed ScaLAPACK, as
 * a direct route, where it has three panels or fewer), LAPACK directly on one process.  A matrix made indefinite
 * at row k must give INFO = k on every process, with everything outside the failing
 * panel's diagonal block as ScaLAPACK leaves it (the reference, run in the same test on
 * a copy).  Illegal arguments must reach ScaLAPACK's error path, counted as rejected.
 * Usage: test_potrf P Q.
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dist_data.h"
#include "dist_matrix.h"
#include "hpdaemon.h"
#include "route_count.h"
#include "scalapack.h"

typedef struct potrf_case {
  int m, n_glob, nb, rsrc, csrc; /* the whole matrix */
  char uplo;
  int ia, ja, n;                 /* sub(A) */
  int fail_at;                   /* 0-based row of sub(A) made indefinite, or -1 */
} potrf_case;

static dist_grid grid;
static dist_tally tally;

/* L's entry (i, j) of sub(A), i >= j: the diagonal 1 or 2, below it -1, 0 or 1. */
static int l_entry(int i, int j, unsigned seed)
{
  return i == j ? 1 + dist_choice(seed, i, j, 2) : dist_choice(seed, i, j, 3) - 1;
}

static double a_entry(int i, int j, unsigned seed, int fail_at)
{
  int lo = i < j ? i : j;
  int64_t sum = 0;
  for (int k = 0; k <= lo; k++)
    sum += (int64_t)l_entry(i, k, seed) * l_entry(j, k, seed);
  if (i == j && i == fail_at)
    sum -= (int64_t)l_entry(i, i, seed) * l_entry(i, i, seed); /* pivot k becomes 0 */
  return (double)sum;
}

typedef struct where {
  int in_sub, i, j; /* inside sub(A): its row and column there */
} where;

static where locate(const potrf_case *c, int li, int lj)
{
  int gi = (int)dist_global_of(li, c->nb, c->rsrc, grid.myrow, grid.nprow);
  int gj = (int)dist_global_of(lj, c->nb, c->csrc, grid.mycol, grid.npcol);
  where w = {0, gi - (c->ia - 1), gj - (c->ja - 1)};
  w.in_sub = w.i >= 0 && w.i < c->n && w.j >= 0 && w.j < c->n && gi < c->m;
  return w;
}

static int in_factor(const potrf_case *c, where w)
{
  return w.in_sub && (c->uplo == 'L' || c->uplo == 'l' ? w.i >= w.j : w.i <= w.j);
}

/* The route this case must take. */
static route expected_route(const potrf_case *c, int legal)
{
  if (!legal)
    return ROUTE_REJECTED;
  if ((grid.nprow == 1 && grid.npcol == 1) || c->n == 0)
    return ROUTE_DIRECT_LOCAL;
  return c->n <= 3 * c->nb ? ROUTE_DIRECT_REFERENCE : ROUTE_ENGINE;
}

static void run_case(const potrf_case *c, unsigned seed, int legal, int want_info)
{
  dist x = dist_new_laid(&grid, c->m, c->n_glob, c->nb, c->nb, c->rsrc, c->csrc, 11);
  for (int lj = 0; lj < x.nloc; lj++)
    for (int li = 0; li < x.lld; li++) {
      where w = locate(c, li, lj);
      if (w.in_sub)
        x.data[li + (size_t)lj * x.lld] = a_entry(w.i, w.j, seed, c->fail_at);
    }
  double *before = dist_copy(&x), *reference = dist_copy(&x);
  int ref_info = 0, info = 0;
  if (c->fail_at >= 0) {
    hpd_set_disable(1);
    pdpotrf_(&c->uplo, &c->n, reference, &c->ia, &c->ja, x.desc, &ref_info);
    hpd_set_disable(0);
  }
  route way = expected_route(c, legal);
  uint64_t was = route_count(HPD_ROUTINE_PDPOTRF, way);
  pdpotrf_(&c->uplo, &c->n, x.data, &c->ia, &c->ja, x.desc, &info);
  int routed = route_count(HPD_ROUTINE_PDPOTRF, way) == was + 1;

  char name[160];
  snprintf(name, sizeof name, "%c %dx%d nb %d src %d,%d ia %d ja %d n %d fail %d",
           c->uplo, c->m, c->n_glob, c->nb, c->rsrc, c->csrc, c->ia, c->ja, c->n,
           c->fail_at);
  dist_judge_flag(&tally, name, "route", !routed);
  dist_judge_flag(&tally, name, "info",
                  info != want_info || (c->fail_at >= 0 && ref_info != want_info));
  int wrong = 0, touched = 0;
  /* the failing panel's diagonal block: left as each implementation's own partial work */
  int p0 = c->fail_at >= 0 ? c->fail_at / c->nb * c->nb : -1;
  for (int lj = 0; lj < x.nloc; lj++)
    for (int li = 0; li < x.lld; li++) {
      size_t at = li + (size_t)lj * x.lld;
      where w = locate(c, li, lj);
      if (!legal || !in_factor(c, w)) {
        touched |= memcmp(&x.data[at], &before[at], sizeof *x.data) != 0;
        continue;
      }
      if (c->fail_at >= 0) {
        int in_block = w.i >= p0 && w.i < p0 + c->nb && w.j >= p0 && w.j < p0 + c->nb;
        wrong |= !in_block && memcmp(&x.data[at], &reference[at], sizeof *x.data) != 0;
        continue;
      }
      int lower = c->uplo == 'L' || c->uplo == 'l';
      double want = lower ? l_entry(w.i, w.j, seed) : l_entry(w.j, w.i, seed);
      wrong |= x.data[at] != want;
    }
  const char *what = c->fail_at >= 0 ? "as the reference leaves it" : "the exact factor";
  dist_judge_flag(&tally, name, what, wrong);
  dist_judge_flag(&tally, name, "entries outside the factor untouched", touched);
  free(before), free(reference), free(x.data);
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  grid = dist_grid_open(argc, argv, "test_potrf", 1);
  int P = grid.nprow, Q = grid.npcol;
  const potrf_case cases[] = {
      {40, 40, 4, 0, 0, 'L', 1, 1, 40, -1},     /* the whole matrix, many panels */
      {40, 40, 4, 0, 0, 'U', 1, 1, 40, -1},
      {45, 52, 4, 1, 1, 'L', 5, 9, 35, -1},     /* off the diagonal, a partial panel */
      {45, 52, 4, 1, 1, 'U', 5, 9, 35, -1},
      {30, 30, 16, 0, 1, 'l', 1, 17, 14, -1},   /* a single partial panel */
      {30, 30, 64, 0, 0, 'L', 1, 1, 30, -1},    /* one block for everything */
      {30, 30, 8, 0, 1, 'L', 1, 1, 25, -1},     /* four panels, the last of one column */
      {200, 200, 16, 0, 1, 'L', 17, 1, 183, -1}, /* larger, first panel off process 0 */
      {96, 96, 8, 0, 0, 'L', 1, 1, 96, 37},     /* indefinite: INFO 38, mid-panel */
      {96, 96, 8, 0, 0, 'L', 1, 1, 96, 0},      /* indefinite at the first row */
      {96, 96, 8, 0, 0, 'U', 9, 9, 88, 50},
      {96, 96, 8, 0, 0, 'L', 1, 1, 96, 60},     /* the second panel of a pair (chol.h) */
      {96, 96, 8, 0, 0, 'U', 1, 1, 96, 29},
      {20, 20, 4, 0, 0, 'L', 1, 1, 0, -1},      /* n = 0 */
      /* panels' rows in several messages each (16 KiB) */
      {320, 320, 32, 1, 1, 'L', 33, 33, 287, -1},
      {320, 320, 32, 1, 1, 'U', 33, 33, 287, -1},
      {320, 320, 32, 0, 0, 'U', 1, 1, 320, 200},
      /* on 2 x 2 and 3 x 2, a process's rows in more than one strip of the 2-D update
       * (factor/lookahead.h), a stop mid-way among them */
      {640, 640, 32, 0, 0, 'L', 1, 1, 640, -1},
      {640, 640, 32, 1, 0, 'U', 33, 33, 608, -1},
      {640, 640, 32, 0, 0, 'L', 1, 1, 640, 500},
  };
  unsigned seed = 1;
  int count = 0;
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    potrf_case c = cases[i];
    c.rsrc %= P;
    c.csrc %= Q;
    int info = c.fail_at >= 0 ? c.fail_at + 1 : 0;
    run_case(&c, seed++, 1, info);
    count++;
  }
  /* illegal: UPLO, and IA inside a block; ScaLAPACK reports them (INFO -1, -4) */
  potrf_case bad = {40, 40, 4, 0, 0, 'X', 1, 1, 20, -1};
  run_case(&bad, seed++, 0, -1);
  bad.uplo = 'L', bad.ia = 2;
  run_case(&bad, seed++, 0, -4);
  count += 2;
  if (grid.myrow == 0 && grid.mycol == 0)
    printf("potrf %dx%d: %d cases, %d checks, %d failed\n", P, Q, count, tally.checked,
           tally.failed);
  Cblacs_gridexit(grid.ctxt);
  MPI_Finalize();
  return tally.failed != 0;
}
