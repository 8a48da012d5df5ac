/*
 * pdgetrf_ through hpdaemon (src/factor/) against ScaLAPACK's own in the same run, on the
 * grid given as P Q.  sub(A) is built as P * L * U with L's multipliers in {0, +-1/2,
 * +-1/4} and U's diagonal in {+-1, +-2, +-4}: at every step the pivot row is then the
 * only candidate of largest magnitude, and every quantity the factorization forms is a
 * short dyadic fraction, so that any correct summation order gives the same pivots and
 * the same factors to the bit.  A Hadamard matrix (entries +-1) ties the candidates at
 * every step, so that only PDAMAX's tie rule gives the reference's pivots (not asked of
 * the turned process column, which breaks ties as dgetrf does).  Each case compares the
 * whole local array and IPIV with the reference's, checks INFO on every process, and who
 * served the call: hpdaemon's engine on every grid of two processes or more (ScaLAPACK as
 * a direct route for two panels or fewer), LAPACK directly on one process.  A U with a
 * zero on its diagonal must give the reference's INFO and pivots with the factorization
 * completed (P * L * U equal to sub(A) to rounding where later multipliers are no longer
 * short fractions, the factors to the bit where the zero is the last diagonal entry), and
 * illegal arguments reach ScaLAPACK's error path, counted as rejected.
 * Usage: test_getrf P Q.
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

typedef struct getrf_case {
  int m_glob, n_glob, nb, rsrc, csrc; /* the whole matrix */
  int ia, ja, m, n;                   /* sub(A) */
  int zero_at;                        /* U's diagonal entry set to 0, or -1 */
  int ties; /* 1: a Hadamard matrix instead, whose candidate pivots tie at every step */
} getrf_case;

static dist_grid grid;
static dist_tally tally;

static double l_entry(int r, int k, unsigned seed)
{
  if (r == k)
    return 1.0;
  static const double multipliers[5] = {0.0, 0.5, -0.5, 0.25, -0.25};
  return multipliers[dist_choice(seed, r, k, 5)];
}

static double u_entry(int k, int j, unsigned seed, int zero_at)
{
  if (k == j) {
    static const double diagonal[6] = {1, -1, 2, -2, 4, -4};
    return k == zero_at ? 0.0 : diagonal[dist_choice(seed + 1, k, j, 6)];
  }
  return (double)dist_choice(seed + 2, k, j, 5) - 2.0;
}

static int gcd(int a, int b)
{
  while (b != 0) {
    int r = a % b;
    a = b;
    b = r;
  }
  return a;
}

/* Row i of sub(A) is row sigma(i) of L * U: a fixed shuffle of the m rows, a permutation
 * since the step shares no factor with m (repeated rows would tie the pivots). */
static int sigma(int i, int m)
{
  int step = 7;
  while (gcd(step, m) != 1)
    step += 2;
  return (int)(((int64_t)i * step + 3) % m);
}

static double a_entry(const getrf_case *c, int i, int j, unsigned seed)
{
  if (c->ties) /* Sylvester's: +-1 by the parity of the bits i and j share */
    return __builtin_parity((unsigned)(i & j)) ? -1.0 : 1.0;
  int r = sigma(i, c->m), mn = c->m < c->n ? c->m : c->n;
  double sum = 0;
  for (int k = 0; k <= r && k <= j && k < mn; k++)
    sum += l_entry(r, k, seed) * u_entry(k, j, seed, c->zero_at);
  return sum;
}

/* The route this case must take. */
static route expected_route(const getrf_case *c, int legal)
{
  int mn = c->m < c->n ? c->m : c->n;
  if (!legal)
    return ROUTE_REJECTED;
  if (mn == 0 || c->m_glob == 1)
    return ROUTE_DIRECT_REFERENCE;
  if (grid.nprow == 1 && grid.npcol == 1)
    return ROUTE_DIRECT_LOCAL;
  return mn <= 2 * c->nb ? ROUTE_DIRECT_REFERENCE : ROUTE_ENGINE;
}

/* sub(A)'s largest difference from P * L * U, with L, U and the pivots as this process
 * and the others hold them after the factorization (gathered on every process), or a
 * large figure where a pivot is out of range.  Where a zero pivot lies inside the
 * matrix, later multipliers are no longer short fractions: candidates equal in exact
 * arithmetic differ by rounding, which the grid's shape decides (ScaLAPACK's own pivots
 * for such a case differ between 1x2 and 2x1), so the factors are judged by what they
 * reproduce. */
static double plu_difference(const getrf_case *c, const dist *x, const int *ipiv,
                             unsigned seed)
{
  int m = c->m, n = c->n, mn = m < n ? m : n;
  double *lu = calloc((size_t)m * n + 1, sizeof *lu);
  double *prod = calloc((size_t)m * n + 1, sizeof *prod);
  int *piv = malloc(((size_t)m + 1) * sizeof *piv);
  for (int i = 0; i < m; i++)
    piv[i] = -1;
  for (int lj = 0; lj < x->nloc; lj++)
    for (int li = 0; li < x->lld; li++) {
      int i = (int)dist_global_of(li, c->nb, c->rsrc, grid.myrow, grid.nprow) - c->ia + 1;
      int j = (int)dist_global_of(lj, c->nb, c->csrc, grid.mycol, grid.npcol) - c->ja + 1;
      if (i >= 0 && i < m && j >= 0 && j < n)
        lu[i + (size_t)j * m] = x->data[li + (size_t)lj * x->lld];
      if (lj == 0 && i >= 0 && i < mn)
        piv[i] = ipiv[li] - c->ia; /* a row of sub(A), 0-based */
    }
  MPI_Allreduce(MPI_IN_PLACE, lu, m * n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, piv, m, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  for (int j = 0; j < n; j++)
    for (int i = 0; i < m; i++) {
      double sum = 0;
      for (int k = 0; k <= i && k <= j && k < mn; k++)
        sum += (k == i ? 1.0 : lu[i + (size_t)k * m]) * lu[k + (size_t)j * m];
      prod[i + (size_t)j * m] = sum;
    }
  double worst = 0;
  for (int i = mn - 1; i >= 0; i--) {
    if (piv[i] < i || piv[i] >= m)
      worst = 1e9;
    else
      for (int j = 0; j < n && piv[i] != i; j++) {
        double t = prod[i + (size_t)j * m];
        prod[i + (size_t)j * m] = prod[piv[i] + (size_t)j * m];
        prod[piv[i] + (size_t)j * m] = t;
      }
  }
  for (int j = 0; j < n; j++)
    for (int i = 0; i < m; i++) {
      double d = prod[i + (size_t)j * m] - a_entry(c, i, j, seed);
      worst = d < 0 ? (-d > worst ? -d : worst) : (d > worst ? d : worst);
    }
  free(lu), free(prod), free(piv);
  return worst;
}

static void run_case(const getrf_case *c, unsigned seed, int legal, int want_info)
{
  dist x = dist_new_laid(&grid, c->m_glob, c->n_glob, c->nb, c->nb, c->rsrc, c->csrc, 13);
  for (int lj = 0; lj < x.nloc; lj++)
    for (int li = 0; li < x.lld; li++) {
      int i = (int)dist_global_of(li, c->nb, c->rsrc, grid.myrow, grid.nprow) - c->ia + 1;
      int j = (int)dist_global_of(lj, c->nb, c->csrc, grid.mycol, grid.npcol) - c->ja + 1;
      if (i >= 0 && i < c->m && j >= 0 && j < c->n)
        x.data[li + (size_t)lj * x.lld] = a_entry(c, i, j, seed);
    }
  size_t bytes = dist_local_len(&x) * sizeof *x.data;
  size_t npiv = (size_t)x.lld + (size_t)c->nb;
  int *ipiv = malloc(npiv * sizeof *ipiv), *ref_ipiv = malloc(npiv * sizeof *ipiv);
  for (size_t i = 0; i < npiv; i++)
    ipiv[i] = ref_ipiv[i] = -7;
  double *reference = dist_copy(&x);
  int info = 0, ref_info = 0;
  hpd_set_disable(1);
  pdgetrf_(&c->m, &c->n, reference, &c->ia, &c->ja, x.desc, ref_ipiv, &ref_info);
  hpd_set_disable(0);
  route way = expected_route(c, legal);
  uint64_t was = route_count(HPD_ROUTINE_PDGETRF, way);
  pdgetrf_(&c->m, &c->n, x.data, &c->ia, &c->ja, x.desc, ipiv, &info);

  char name[160];
  snprintf(name, sizeof name, "%dx%d nb %d src %d,%d ia %d ja %d %dx%d zero %d", c->m_glob,
           c->n_glob, c->nb, c->rsrc, c->csrc, c->ia, c->ja, c->m, c->n, c->zero_at);
  int routed = route_count(HPD_ROUTINE_PDGETRF, way) == was + 1;
  dist_judge_flag(&tally, name, "route", !routed);
  dist_judge_flag(&tally, name, "info", info != want_info || ref_info != want_info);
  /* After a zero pivot inside the matrix, P * L * U reproduces sub(A) to rounding
   * (entries up to about 100; a wrong interchange or update differs by whole units). */
  int exact = c->zero_at < 0 || c->zero_at == (c->m < c->n ? c->m : c->n) - 1;
  /* Turned from a process column, LAPACK's dgetrf breaks a tie for the first row, where
   * PDAMAX takes the lowest process row's: the factors are then another valid P L U. */
  int turned = grid.npcol == 1 && grid.nprow > 1 && c->m <= 2 * c->n;
  if (c->ties && turned)
    exact = 0;
  if (exact) {
    dist_judge_flag(&tally, name, "the reference's factors to the bit",
                    memcmp(x.data, reference, bytes) != 0);
    dist_judge_flag(&tally, name, "the reference's pivots",
                    memcmp(ipiv, ref_ipiv, npiv * sizeof *ipiv) != 0);
  } else {
    dist_judge(&tally, name, plu_difference(c, &x, ipiv, seed), 1e-8);
  }
  free(ipiv), free(ref_ipiv), free(reference), free(x.data);
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  grid = dist_grid_open(argc, argv, "test_getrf", 1);
  int P = grid.nprow, Q = grid.npcol;
  const getrf_case cases[] = {
      {48, 48, 4, 0, 0, 1, 1, 48, 48, -1, 0},    /* square, many panels */
      {60, 52, 4, 1, 1, 9, 5, 45, 40, -1, 0},    /* off the corner, taller than wide */
      {40, 70, 8, 0, 1, 1, 9, 30, 61, -1, 0},    /* wider than tall, a partial panel */
      {200, 200, 16, 0, 1, 17, 1, 183, 170, -1, 0}, /* larger, first panel off process 0 */
      {64, 64, 8, 0, 0, 1, 1, 64, 64, 29, 0},    /* U(30, 30) = 0: INFO 30, completed */
      {64, 64, 8, 0, 0, 1, 1, 64, 64, 0, 0},
      {64, 56, 8, 0, 1, 1, 1, 64, 56, 55, 0},    /* the last: the factors still exact */
      {30, 30, 16, 0, 0, 1, 1, 30, 30, -1, 0},   /* two panels: the reference */
      {20, 20, 4, 0, 0, 1, 1, 0, 20, -1, 0},     /* M = 0 */
      {100, 40, 4, 1, 0, 5, 1, 90, 40, -1, 0},   /* over twice as tall as wide */
      {96, 96, 16, 1, 0, 17, 1, 80, 80, 40, 0},  /* U(41, 41) = 0 off the first block */
      {64, 64, 4, 0, 0, 1, 1, 64, 64, -1, 1}, /* ties: the pivots as PDAMAX breaks them */
      /* tall enough that a 2-D grid's updates run in several strips of rows each */
      {8404, 160, 32, 0, 0, 1, 1, 8404, 160, -1, 0},
  };
  unsigned seed = 1;
  int count = 0;
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    getrf_case c = cases[i];
    c.rsrc %= P;
    c.csrc %= Q;
    run_case(&c, seed++, 1, c.zero_at >= 0 ? c.zero_at + 1 : 0);
    count++;
  }
  /* illegal: IA inside a block; ScaLAPACK reports it (INFO -4) */
  getrf_case bad = {40, 40, 4, 0, 0, 2, 1, 20, 20, -1, 0};
  run_case(&bad, seed++, 0, -4);
  count++;
  if (grid.myrow == 0 && grid.mycol == 0)
    printf("getrf %dx%d: %d cases, %d checks, %d failed\n", P, Q, count, tally.checked,
           tally.failed);
  Cblacs_gridexit(grid.ctxt);
  MPI_Finalize();
  return tally.failed != 0;
}
