/*
 * The overlap schedule's pieces (src/pdgemm/summa_pieces.h) on matrices large enough to
 * be cut: pdgemm_ under every TRANS pair and pdsyrk_ under both triangles and TRANS,
 * one panel and several, on the grid given as P Q, against the reference ScaLAPACK in
 * the same run (hpd_set_disable).  A one-panel call must have been cut (more broadcasts
 * than panels times travelling operands), or the test proves nothing.
 * Usage: test_pieces P Q (run with HPD_STRATEGY=overlap, HPD_DISPATCH=engine).
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "dist_matrix.h"
#include "hpdaemon.h"
#include "scalapack.h"

enum { NB = 64, MAXDIM = 1100 };

static dist_grid grid;
static dist_tally tally;

static uint64_t broadcasts(hpd_routine routine)
{
  hpd_stats s;
  hpd_get_stats(&s);
  return s.routine[routine].bcast_count;
}

static void judge(const char *what, double worst, int k)
{
  dist_judge(&tally, what, worst, 1e-13 * k);
}

/* C (m x n from (ic, 1)) := 0.5 op(A) op(B) - 0.25 C, by the engine and the reference. */
static void gemm_case(char ta, char tb, int m, int n, int k, int ic, int *cut)
{
  const int one = 1;
  const double alpha = 0.5, beta = -0.25;
  dist a = ta == 'N' ? dist_new(&grid, m, k, 1) : dist_new(&grid, k, m, 1);
  dist b = tb == 'N' ? dist_new(&grid, k, n, 2) : dist_new(&grid, n, k, 2);
  dist c = dist_new(&grid, m + ic - 1, n, 3);
  double *ref = dist_copy(&c);
  hpd_set_disable(1);
  pdgemm_(&ta, &tb, &m, &n, &k, &alpha, a.data, &one, &one, a.desc, b.data, &one, &one,
          b.desc, &beta, ref, &ic, &one, c.desc);
  hpd_set_disable(0);
  uint64_t before = broadcasts(HPD_ROUTINE_PDGEMM);
  pdgemm_(&ta, &tb, &m, &n, &k, &alpha, a.data, &one, &one, a.desc, b.data, &one, &one,
          b.desc, &beta, c.data, &ic, &one, c.desc);
  int travelling = (grid.npcol > 1) + (grid.nprow > 1);
  if (k <= NB && broadcasts(HPD_ROUTINE_PDGEMM) - before > (uint64_t)travelling)
    *cut = 1;
  char what[64];
  snprintf(what, sizeof what, "pdgemm %c%c m=%d n=%d k=%d ic=%d", ta, tb, m, n, k, ic);
  judge(what, dist_worst_difference(&c, ref), k);
  free(a.data), free(b.data), free(c.data), free(ref);
}

static void syrk_case(char uplo, char trans, int n, int k)
{
  const int one = 1;
  const double alpha = -1.0, beta = 0.5;
  dist a = trans == 'N' ? dist_new(&grid, n, k, 4) : dist_new(&grid, k, n, 4);
  dist c = dist_new(&grid, n, n, 5);
  double *ref = dist_copy(&c);
  hpd_set_disable(1);
  pdsyrk_(&uplo, &trans, &n, &k, &alpha, a.data, &one, &one, a.desc, &beta, ref, &one, &one,
          c.desc);
  hpd_set_disable(0);
  pdsyrk_(&uplo, &trans, &n, &k, &alpha, a.data, &one, &one, a.desc, &beta, c.data, &one,
          &one, c.desc);
  char what[64];
  snprintf(what, sizeof what, "pdsyrk %c%c n=%d k=%d", uplo, trans, n, k);
  judge(what, dist_worst_difference(&c, ref), k);
  free(a.data), free(c.data), free(ref);
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  grid = dist_grid_open(argc, argv, "test_pieces", NB);

  int cut = 0;
  const char trans[] = "NT";
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++) {
      gemm_case(trans[i], trans[j], MAXDIM, MAXDIM - 100, NB, 1, &cut);
      gemm_case(trans[i], trans[j], MAXDIM - 37, 900, 3 * NB + 11, 1, &cut);
    }
  gemm_case('N', 'N', 1000, 1000, NB, 45, &cut); /* sub(C) starts inside a block */
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++) {
      syrk_case("UL"[i], trans[j], MAXDIM, NB);
      syrk_case("UL"[i], trans[j], MAXDIM - 50, 2 * NB + 5);
    }
  int cut_anywhere;
  MPI_Allreduce(&cut, &cut_anywhere, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (!cut_anywhere) {
    tally.failed++;
    if (grid.myrow == 0 && grid.mycol == 0)
      printf("FAILED: no one-panel call travelled in pieces\n");
  }
  if (grid.myrow == 0 && grid.mycol == 0)
    printf("pieces %dx%d: %d checks, %d failed\n", grid.nprow, grid.npcol, tally.checked + 1,
           tally.failed);
  Cblacs_gridexit(grid.ctxt);
  MPI_Finalize();
  return tally.failed != 0;
}
