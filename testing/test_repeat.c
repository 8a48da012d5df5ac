/*
 * A repeated call on 3 ranks: a call that the dispatch rule has sent to the reference by
 * a settled route is remembered (src/pblas/repeat.h), and the memory must never route a
 * repeat where the rule itself would not:
 *  - repeats of a settled pdgemm and pdtrsm go to the reference, with its results;
 *  - the same arguments under another strategy, under HPD_DISPATCH=engine, or with
 *    alpha = 0 reach the engine;
 *  - a context number that BLACS hands out again for a grid of other processes, where
 *    rank 0 has the same coordinates and descriptors as before, is a new grid: every
 *    rank of it asks the dispatch, which gives the new grid's class the route rank 0
 *    settled for this shape (the reference) through one broadcast over the grid (a
 *    memory that trusted the context number would send rank 0 alone past that
 *    broadcast, and the grid would hang).
 * Prints "N passed, N failed".
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dist_data.h"
#include "hpdaemon.h"
#include "route_count.h"
#include "scalapack.h"

#define ORDER 192 /* made slow on purpose: it settles on the reference */
#define NB 32

static int passed, failed, rank;

/* Agreement over all ranks.  A rank that waits sleeps: the rank outside a grid would
 * otherwise spin on one of the two cores while the grid's ranks time their calls. */
static int all_of(int mine)
{
  int all = 0, done = 0;
  MPI_Request request;
  MPI_Iallreduce(&mine, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD, &request);
  while (MPI_Test(&request, &done, MPI_STATUS_IGNORE), !done)
    nanosleep(&(struct timespec){.tv_nsec = 200000}, NULL);
  return all;
}

static void check(int ok, const char *what)
{
  int all = all_of(ok);
  if (rank == 0)
    printf("%s: %s\n", all ? "ok" : "FAIL", what);
  all ? passed++ : failed++;
}

typedef struct matrices {
  int desc[9], lld, nloc, member;
  double *a, *b, *c, *expected;
} matrices;

/* The grid of the given world ranks in one process row; the caller's matrices on it. */
static void make(matrices *x, int *context, const int *members)
{
  int system, zero = 0, order = ORDER, nb = NB, info, one = 1, two = 2;
  Cblacs_get(0, 0, &system);
  *context = system;
  Cblacs_gridmap(context, (int *)members, 1, 1, 2);
  *x = (matrices){.member = rank == members[0] || rank == members[1]};
  if (!x->member)
    return;
  int nprow, npcol, myrow, mycol;
  Cblacs_gridinfo(*context, &nprow, &npcol, &myrow, &mycol);
  int mloc = numroc_(&order, &nb, &myrow, &zero, &one);
  x->nloc = numroc_(&order, &nb, &mycol, &zero, &two);
  x->lld = mloc > 1 ? mloc : 1;
  descinit_(x->desc, &order, &order, &nb, &nb, &zero, &zero, context, &x->lld, &info);
  size_t elems = (size_t)x->lld * (size_t)x->nloc;
  x->a = malloc(elems * sizeof(double));
  x->b = malloc(elems * sizeof(double));
  x->c = malloc(elems * sizeof(double));
  x->expected = malloc(elems * sizeof(double));
  for (int j = 0; j < x->nloc; j++)
    for (int i = 0; i < mloc; i++) {
      int64_t gj = dist_global_index(j, NB, mycol, 2);
      /* A: well conditioned for the solves; B and C: anything */
      x->a[i + (size_t)j * x->lld] = (i == gj ? 4.0 : 0.0) + 0.01 * dist_element(1, i, gj);
      x->b[i + (size_t)j * x->lld] = dist_element(2, i, gj);
      x->c[i + (size_t)j * x->lld] = dist_element(3, i, gj);
    }
  memcpy(x->expected, x->c, elems * sizeof(double));
}

static void release(matrices *x)
{
  free(x->a), free(x->b), free(x->c), free(x->expected);
}

/* The same call on c (hpdaemon, as configured) and on expected (the reference). */
static void gemm(matrices *x, double alpha)
{
  int n = ORDER, one = 1;
  double beta = 0.5;
  if (!x->member)
    return;
  pdgemm_("N", "N", &n, &n, &n, &alpha, x->a, &one, &one, x->desc, x->b, &one, &one, x->desc,
          &beta, x->c, &one, &one, x->desc);
  hpd_set_disable(1);
  pdgemm_("N", "N", &n, &n, &n, &alpha, x->a, &one, &one, x->desc, x->b, &one, &one, x->desc,
          &beta, x->expected, &one, &one, x->desc);
  hpd_set_disable(0);
}

/* A solve with one right-hand side: the engine's gather of sub(A) and its frequency
 * switches cannot win it. */
static void trsm(matrices *x)
{
  int n = ORDER, one = 1;
  double alpha = 0.5;
  if (!x->member)
    return;
  pdtrsm_("L", "L", "N", "N", &n, &one, &alpha, x->a, &one, &one, x->desc, x->c, &one, &one,
          x->desc);
  hpd_set_disable(1);
  pdtrsm_("L", "L", "N", "N", &n, &one, &alpha, x->a, &one, &one, x->desc, x->expected, &one,
          &one, x->desc);
  hpd_set_disable(0);
}

static int same_result(const matrices *x)
{
  for (size_t e = 0; x->member && e < (size_t)x->lld * (size_t)x->nloc; e++)
    if (fabs(x->c[e] - x->expected[e]) > 1e-12 * (1.0 + fabs(x->expected[e])))
      return 0;
  return 1;
}

typedef struct counts {
  uint64_t engine, direct;
} counts;

static counts of(hpd_routine routine)
{
  return (counts){route_count(routine, ROUTE_ENGINE),
                  route_count(routine, ROUTE_DIRECT_REFERENCE)};
}

/* For the grid's members: engine and direct calls since before, as expected. */
static int moved(const matrices *x, counts before, hpd_routine routine, uint64_t engine,
                 uint64_t direct)
{
  counts now = of(routine);
  return !x->member ||
         (now.engine - before.engine == engine && now.direct - before.direct == direct);
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 3) {
    if (rank == 0)
      fprintf(stderr, "test_repeat: run on 3 ranks\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  /* Engine calls made slow on purpose: 3 ms per switch, two per panel. */
  hpd_set_dvfs(HPD_DVFS_SIM);
  hpd_set_sim_switch_us(3000);
  hpd_set_strategy(HPD_STRATEGY_BASIC);
  hpd_set_switch_min_ms(0);

  int first_grid[2] = {0, 1}, context;
  matrices x;
  make(&x, &context, first_grid);
  /* Calibration takes a few calls (more where the timings come out close); six direct
   * calls in a row are longer than any run of reference calls in it, so the class has
   * settled on the reference. */
  int in_a_row = 0;
  for (int call = 0; call < 60 && in_a_row < 6; call++) {
    counts g = of(HPD_ROUTINE_PDGEMM), t = of(HPD_ROUTINE_PDTRSM);
    gemm(&x, 0.75), trsm(&x);
    int direct =
        moved(&x, g, HPD_ROUTINE_PDGEMM, 0, 1) && moved(&x, t, HPD_ROUTINE_PDTRSM, 0, 1);
    in_a_row = all_of(direct) ? in_a_row + 1 : 0;
  }
  check(in_a_row == 6, "calls made slow on purpose settle on the reference");
  counts g0 = of(HPD_ROUTINE_PDGEMM), t0 = of(HPD_ROUTINE_PDTRSM);
  for (int call = 0; call < 4; call++)
    gemm(&x, 0.75), trsm(&x);
  check(moved(&x, g0, HPD_ROUTINE_PDGEMM, 0, 4) && moved(&x, t0, HPD_ROUTINE_PDTRSM, 0, 4),
        "repeats of a call settled on the reference go there, pdgemm and pdtrsm");
  check(same_result(&x), "with the reference's results");

  g0 = of(HPD_ROUTINE_PDGEMM);
  hpd_set_strategy(HPD_STRATEGY_NONE);
  gemm(&x, 0.75);
  hpd_set_strategy(HPD_STRATEGY_BASIC);
  check(moved(&x, g0, HPD_ROUTINE_PDGEMM, 1, 0),
        "the same arguments under another strategy calibrate again, from an engine call");
  g0 = of(HPD_ROUTINE_PDGEMM);
  hpd_set_dispatch(HPD_DISPATCH_ENGINE);
  gemm(&x, 0.75);
  hpd_set_dispatch(HPD_DISPATCH_AUTO);
  check(moved(&x, g0, HPD_ROUTINE_PDGEMM, 1, 0), "HPD_DISPATCH=engine takes a repeat too");
  g0 = of(HPD_ROUTINE_PDGEMM);
  gemm(&x, 0.0);
  gemm(&x, 0.75);
  check(moved(&x, g0, HPD_ROUTINE_PDGEMM, 1, 1),
        "alpha = 0 is the engine's scaling; the settled call after it the reference's");
  check(same_result(&x), "results unchanged");
  release(&x);
  if (x.member)
    Cblacs_gridexit(context);

  /* Rank 0 gets its context number back, for ranks 0 and 2, at the same coordinates. */
  int second_grid[2] = {0, 2}, again;
  make(&x, &again, second_grid);
  if (all_of(rank != 0 || again == context)) {
    g0 = of(HPD_ROUTINE_PDGEMM);
    gemm(&x, 0.75);
    check(moved(&x, g0, HPD_ROUTINE_PDGEMM, 0, 1),
          "a context number reused for other processes is a new grid: every rank of it "
          "takes the route kept for its shape");
    check(same_result(&x), "with the reference's result");
  } else if (rank == 0) {
    printf("skipped: BLACS gave the second grid another context number\n");
  }
  release(&x);
  if (x.member)
    Cblacs_gridexit(again);

  if (rank == 0)
    printf("%d passed, %d failed\n", passed, failed);
  Cblacs_exit(1);
  MPI_Finalize();
  return failed ? 1 : 0;
}
