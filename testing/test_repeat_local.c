/*
 * Repeats of calls that live on one process (the local route, src/pblas/repeat.h) on 2
 * ranks: a remembered local call goes straight to the BLAS at the place remembered, so
 * every repeat must give the reference's result to the bit, whatever the arrays, alpha
 * and beta of the repeat, and count as a local call; a change of operand, offset or
 * dispatch mode must not reuse the place.
 *  - pdgemm of order 8 on a 1x1 grid (rank 0), 40 repeats with new arrays each time;
 *  - pdgemm on a 1x2 grid inside one block of process column 1 (rank 1 computes, rank 0
 *    returns at once), at two offsets in turn;
 *  - pdsyrk on the 1x1 grid, both triangles in turn (against the call before it: the
 *    reference's triangle is not one dsyrk, and agrees to rounding only);
 *  - alpha = 0 (the engine's scaling) and HPD_DISPATCH=engine between repeats.
 * Prints "N passed, N failed".
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dist_data.h"
#include "hpdaemon.h"
#include "route_count.h"
#include "scalapack.h"

#define LLD 40
#define COLS 80 /* a 1x2 grid's blocks of 40 columns */

static int passed, failed, rank;

static void check(int ok, const char *what)
{
  int all = 0;
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (rank == 0)
    printf("%s: %s\n", all ? "ok" : "FAIL", what);
  all ? passed++ : failed++;
}

/* Fresh local arrays of LLD x COLS, filled from seed. */
static double *array(int seed)
{
  double *x = malloc((size_t)LLD * COLS * sizeof *x);
  for (int e = 0; e < LLD * COLS; e++)
    x[e] = dist_element((uint64_t)seed, e % LLD, e / LLD);
  return x;
}

/* One call on fresh arrays, hpdaemon's and the reference's; 1 where C agrees to the bit. */
static int one_gemm(const int *desc, int n, int ia, int ja, double alpha, double beta,
                    int seed)
{
  double *a = array(seed), *b = array(seed + 1), *c = array(seed + 2), *ref = array(seed + 2);
  pdgemm_("N", "T", &n, &n, &n, &alpha, a, &ia, &ja, desc, b, &ia, &ja, desc, &beta, c, &ia,
          &ja, desc);
  hpd_set_disable(1);
  pdgemm_("N", "T", &n, &n, &n, &alpha, a, &ia, &ja, desc, b, &ia, &ja, desc, &beta, ref,
          &ia, &ja, desc);
  hpd_set_disable(0);
  int same = memcmp(c, ref, (size_t)LLD * COLS * sizeof *c) == 0;
  free(a), free(b), free(c), free(ref);
  return same;
}

/* A call twice on copies of the same arrays, the second a repeat; 1 where the two agree
 * to the bit and the reference agrees to rounding (its triangle is not one dsyrk). */
static int one_syrk(const int *desc, const char *uplo, int n, double beta, int seed)
{
  double *a = array(seed), *c = array(seed + 2), *again = array(seed + 2),
         *ref = array(seed + 2);
  double alpha = 0.75;
  int one = 1;
  pdsyrk_(uplo, "T", &n, &n, &alpha, a, &one, &one, desc, &beta, c, &one, &one, desc);
  pdsyrk_(uplo, "T", &n, &n, &alpha, a, &one, &one, desc, &beta, again, &one, &one, desc);
  hpd_set_disable(1);
  pdsyrk_(uplo, "T", &n, &n, &alpha, a, &one, &one, desc, &beta, ref, &one, &one, desc);
  hpd_set_disable(0);
  int same = memcmp(c, again, (size_t)LLD * COLS * sizeof *c) == 0;
  for (int e = 0; e < LLD * COLS; e++)
    same &= fabs(c[e] - ref[e]) <= 1e-14 * (1.0 + fabs(ref[e]));
  free(a), free(c), free(again), free(ref);
  return same;
}

static uint64_t count(hpd_routine routine, route which)
{
  return route_count(routine, which);
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int size, zero = 0, info, m = LLD, cols = COLS, nb = 40, all_cols = 2 * COLS;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 2) {
    if (rank == 0)
      fprintf(stderr, "test_repeat_local: run on 2 ranks\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  int single, line, desc[9], line_desc[9];
  Cblacs_get(0, 0, &single);
  Cblacs_gridinit(&single, "Row", 1, 1); /* rank 0 alone */
  Cblacs_get(0, 0, &line);
  Cblacs_gridinit(&line, "Row", 1, 2);
  int ok = 1;
  if (rank == 0) {
    descinit_(desc, &m, &cols, &nb, &nb, &zero, &zero, &single, &m, &info);
    uint64_t local = count(HPD_ROUTINE_PDGEMM, ROUTE_DIRECT_LOCAL);
    for (int r = 0; r < 40; r++)
      ok &= one_gemm(desc, 8, 1 + r % 3, 2, r % 2 ? 1.5 : -0.5, r % 4 ? 0.25 : 0.0, 10 * r);
    ok &= count(HPD_ROUTINE_PDGEMM, ROUTE_DIRECT_LOCAL) - local == 40;
  }
  check(ok, "40 repeats of order 8 on 1x1, three offsets, new arrays: the reference's C, "
            "each a local call");
  ok = 1;
  if (rank == 0) {
    for (int r = 0; r < 6; r++)
      ok &= one_syrk(desc, r % 2 ? "L" : "U", 12, r % 3 ? 1.0 : 0.0, 100 + 10 * r);
  }
  check(ok, "pdsyrk repeated on 1x1, both triangles in turn: the first call's C to the "
            "bit, the reference's to rounding");
  ok = 1;
  if (rank == 0) {
    uint64_t engine = count(HPD_ROUTINE_PDGEMM, ROUTE_ENGINE);
    ok &= one_gemm(desc, 8, 1, 1, 1.0, 0.5, 500) && one_gemm(desc, 8, 1, 1, 0.0, 0.5, 510);
    hpd_set_dispatch(HPD_DISPATCH_ENGINE);
    ok &= one_gemm(desc, 8, 1, 1, 1.0, 0.5, 520);
    hpd_set_dispatch(HPD_DISPATCH_AUTO);
    ok &= one_gemm(desc, 8, 1, 1, 1.0, 0.5, 530);
    ok &= count(HPD_ROUTINE_PDGEMM, ROUTE_ENGINE) - engine == 2;
  }
  check(ok, "alpha = 0 and HPD_DISPATCH=engine between repeats reach the engine");
  descinit_(line_desc, &m, &all_cols, &nb, &nb, &zero, &zero, &line, &m, &info);
  uint64_t local = count(HPD_ROUTINE_PDGEMM, ROUTE_DIRECT_LOCAL);
  ok = 1;
  for (int r = 0; r < 20; r++) /* columns 41.. lie in process column 1's block */
    ok &= one_gemm(line_desc, 16, 1 + 8 * (r % 2), 41 + 8 * (r % 2), 1.0, 0.5, 700 + 10 * r);
  ok &= count(HPD_ROUTINE_PDGEMM, ROUTE_DIRECT_LOCAL) - local == 20;
  check(ok, "20 repeats inside one block of a 1x2 grid at two offsets: the reference's C "
            "on both ranks, each a local call");
  if (rank == 0)
    printf("%d passed, %d failed\n", passed, failed);
  MPI_Finalize();
  return failed != 0;
}
