/*
 * pdtrsm_, pdtrmm_ and pdsymm_ served on one line of the grid (src/level3/line.c), on
 * matrices large enough for the local solve to be halved (order above its leaf of 128)
 * and for the block of sub(A) to be spread over the line: every letter combination, on
 * the grid given as P Q, against the reference ScaLAPACK in the same run
 * (hpd_set_disable).  sub(A) also starts off a block corner (IA = JA = 2).  On a 1 x Q
 * grid a left-side call lies on one line as laid out and a right-side one is turned
 * (turn.c), on P x 1 the other way round; either way the call must have made no more
 * broadcasts than the line has processes, or the test proves nothing.
 * Usage: test_line P Q (run with HPD_DISPATCH=engine).
 */
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "dist_data.h"
#include "dist_matrix.h"
#include "hpdaemon.h"
#include "scalapack.h"

enum { NB = 32, ORDER = 300, WIDTH = 77 };

static dist_grid grid;
static dist_tally tally;

/* A matrix for sub(A) = A(ia:ia+k-1, ia:ia+k-1): diagonal entries in [2.5, 3.5), the rest
 * divided by the order, so that solves are well conditioned. */
static dist triangular_operand(int k, int ia)
{
  dist a = dist_new(&grid, k + ia - 1, k + ia - 1, 11);
  for (int j = 0; j < a.nloc; j++)
    for (int i = 0; i < a.lld; i++) {
      int64_t gi = dist_global_index(i, NB, grid.myrow, grid.nprow);
      int64_t gj = dist_global_index(j, NB, grid.mycol, grid.npcol);
      double *x = &a.data[i + (size_t)j * a.lld];
      *x = gi == gj ? *x + 3.0 : *x / k;
    }
  return a;
}

static uint64_t broadcasts(hpd_routine routine)
{
  hpd_stats s;
  hpd_get_stats(&s);
  return s.routine[routine].bcast_count;
}

static void check_line(hpd_routine routine, uint64_t before, const char *what)
{
  int lines = grid.nprow * grid.npcol;
  uint64_t made = broadcasts(routine) - before;
  if (made > (uint64_t)lines) {
    tally.failed++;
    if (grid.myrow == 0 && grid.mycol == 0)
      printf("FAILED %s: %llu broadcasts, not served on one line\n", what,
             (unsigned long long)made);
  }
}

static void trxm_case(int solve, char side, char uplo, char trans, char diag, int ia)
{
  const int one = 1, k = ORDER, m = side == 'L' ? k : WIDTH, n = side == 'L' ? WIDTH : k;
  const double alpha = solve ? 1.5 : -0.75;
  dist a = triangular_operand(k, ia);
  dist b = dist_new(&grid, m, n, 12);
  double *ref = dist_copy(&b);
  void (*fn)(const char *, const char *, const char *, const char *, const int *,
             const int *, const double *, const double *, const int *, const int *,
             const int *, double *, const int *, const int *, const int *) =
      solve ? pdtrsm_ : pdtrmm_;
  hpd_routine routine = solve ? HPD_ROUTINE_PDTRSM : HPD_ROUTINE_PDTRMM;
  hpd_set_disable(1);
  fn(&side, &uplo, &trans, &diag, &m, &n, &alpha, a.data, &ia, &ia, a.desc, ref, &one, &one,
     b.desc);
  hpd_set_disable(0);
  uint64_t before = broadcasts(routine);
  fn(&side, &uplo, &trans, &diag, &m, &n, &alpha, a.data, &ia, &ia, a.desc, b.data, &one,
     &one, b.desc);
  char what[64];
  snprintf(what, sizeof what, "%s %c%c%c%c ia=%d", solve ? "pdtrsm" : "pdtrmm", side, uplo,
           trans, diag, ia);
  dist_judge(&tally, what, dist_worst_difference(&b, ref), 1e-13 * k);
  check_line(routine, before, what);
  free(a.data), free(b.data), free(ref);
}

static void symm_case(char side, char uplo, int ia)
{
  const int one = 1, k = ORDER, m = side == 'L' ? k : WIDTH, n = side == 'L' ? WIDTH : k;
  const double alpha = 0.5, beta = -0.25;
  dist a = triangular_operand(k, ia);
  dist b = dist_new(&grid, m, n, 13);
  dist c = dist_new(&grid, m, n, 14);
  double *ref = dist_copy(&c);
  hpd_set_disable(1);
  pdsymm_(&side, &uplo, &m, &n, &alpha, a.data, &ia, &ia, a.desc, b.data, &one, &one, b.desc,
          &beta, ref, &one, &one, c.desc);
  hpd_set_disable(0);
  uint64_t before = broadcasts(HPD_ROUTINE_PDSYMM);
  pdsymm_(&side, &uplo, &m, &n, &alpha, a.data, &ia, &ia, a.desc, b.data, &one, &one, b.desc,
          &beta, c.data, &one, &one, c.desc);
  char what[64];
  snprintf(what, sizeof what, "pdsymm %c%c ia=%d", side, uplo, ia);
  dist_judge(&tally, what, dist_worst_difference(&c, ref), 1e-13 * k);
  check_line(HPD_ROUTINE_PDSYMM, before, what);
  free(a.data), free(b.data), free(c.data), free(ref);
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  grid = dist_grid_open(argc, argv, "test_line", NB);
  const char *letters = "LRULNTNU";
  for (int ia = 1; ia <= 2; ia++)
    for (int s = 0; s < 2; s++)
      for (int u = 2; u < 4; u++) {
        for (int t = 4; t < 6; t++)
          for (int d = 6; d < 8; d++)
            for (int solve = 0; solve < 2; solve++)
              trxm_case(solve, letters[s], letters[u], letters[t], letters[d], ia);
        symm_case(letters[s], letters[u], ia);
      }
  if (grid.myrow == 0 && grid.mycol == 0)
    printf("line %dx%d: %d checks, %d failed\n", grid.nprow, grid.npcol, tally.checked,
           tally.failed);
  Cblacs_gridexit(grid.ctxt);
  MPI_Finalize();
  return tally.failed != 0;
}
