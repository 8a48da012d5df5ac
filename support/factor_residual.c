#include "factor_residual.h"

#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "factor_lapack.h"
#include "hpdaemon.h"
#include "scalapack.h"

static void *scratch(size_t count, size_t size)
{
  void *m = calloc(count ? count : 1, size);
  if (!m) {
    fprintf(stderr, "factor_driver: out of memory for the residual check\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  return m;
}

/* Which part of the factored matrix the rebuilt product covers: everything for LU, the
 * factored triangle (diagonal included) for Cholesky. */
static int in_factored_part(const fd_problem *pb, int64_t gi, int64_t gj)
{
  return pb->factor == FD_LU || (pb->uplo == 'L' ? gi >= gj : gi <= gj);
}

/*
 * For LU, row i of L*U is row rows[i] of A: pdgetrf_ swapped row k with row ipiv(k), k = 1
 * to N in turn, so replaying the swaps on the identity gives the map.  Comparing L*U
 * with the rows of A so mapped is comparing P*L*U with A, row for row, and permuting
 * rows changes neither norm.  The pivots are spread over the process rows (each process
 * column holds the same); one reduction gathers them.  Returns NULL when a pivot lies
 * outside 1..N.
 */
static int64_t *row_map(const fd_problem *pb, const fd_grid *g)
{
  int n = pb->n;
  int *mine = scratch((size_t)n, sizeof *mine), *all = scratch((size_t)n, sizeof *all);
  if (g->mycol == 0)
    for (int li = 0; li < pb->mloc; li++)
      mine[fd_global_row(pb, g, li)] = pb->ipiv[li];
  MPI_Allreduce(mine, all, n, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  int64_t *rows = scratch((size_t)n, sizeof *rows);
  for (int i = 0; i < n; i++)
    rows[i] = i;
  for (int k = 0; k < n && rows; k++) {
    if (all[k] < 1 || all[k] > n) {
      free(rows);
      rows = NULL;
      break;
    }
    int64_t t = rows[k];
    rows[k] = rows[all[k] - 1];
    rows[all[k] - 1] = t;
  }
  free(mine), free(all);
  return rows;
}

/* x := the left factor (unit lower L for LU, the Cholesky triangle), y := U for LU.
 * The factors share pb's storage; zeros fill the rest. */
static void split_factors(const fd_problem *pb, const fd_grid *g, double *x, double *y)
{
  size_t lld = (size_t)pb->desc[8];
  for (int lj = 0; lj < pb->nloc; lj++) {
    int64_t gj = fd_global_col(pb, g, lj);
    for (int li = 0; li < pb->mloc; li++) {
      int64_t gi = fd_global_row(pb, g, li);
      size_t k = (size_t)lj * lld + (size_t)li;
      double f = pb->a[k];
      if (pb->factor == FD_LU) {
        x[k] = gi > gj ? f : gi == gj ? 1.0 : 0.0;
        y[k] = gi <= gj ? f : 0.0;
      } else {
        x[k] = in_factored_part(pb, gi, gj) ? f : 0.0;
      }
    }
  }
}

/* w := L*U, L*L' or U'*U, through the reference pdgemm. */
static void rebuild(const fd_problem *pb, const double *x, const double *y, double *w)
{
  const int one = 1;
  const double alpha = 1.0, beta = 0.0;
  const char *ta = pb->factor == FD_CHOL && pb->uplo == 'U' ? "T" : "N";
  const char *tb = pb->factor == FD_CHOL && pb->uplo == 'L' ? "T" : "N";
  const double *right = pb->factor == FD_LU ? y : x;
  int disabled = hpd_get_disable();
  hpd_set_disable(1);
  pdgemm_(ta, tb, &pb->n, &pb->n, &pb->n, &alpha, x, &one, &one, pb->desc, right, &one, &one,
          pb->desc, &beta, w, &one, &one, pb->desc);
  hpd_set_disable(disabled);
}

/* w := (rebuilt where the factors are, what the factorization left elsewhere) minus the
 * original, its rows mapped for LU; x := the original, mapped alike. */
static void subtract_original(const fd_problem *pb, const fd_grid *g, const int64_t *rows,
                              double *w, double *x)
{
  size_t lld = (size_t)pb->desc[8];
  for (int lj = 0; lj < pb->nloc; lj++) {
    int64_t gj = fd_global_col(pb, g, lj);
    for (int li = 0; li < pb->mloc; li++) {
      int64_t gi = fd_global_row(pb, g, li);
      size_t k = (size_t)lj * lld + (size_t)li;
      double a = fd_original(pb, rows ? rows[gi] : gi, gj);
      w[k] = (in_factored_part(pb, gi, gj) ? w[k] : pb->a[k]) - a;
      x[k] = a;
    }
  }
}

/* ||w|| / (||x|| * N * eps) in the given norm. */
static double scaled_norm(const char *norm, const fd_problem *pb, const fd_grid *g,
                          const double *w, const double *x, double *work)
{
  const int one = 1;
  double eps = pdlamch_(&g->context, "E");
  return pdlange_(norm, &pb->n, &pb->n, w, &one, &one, pb->desc, work) /
         (pdlange_(norm, &pb->n, &pb->n, x, &one, &one, pb->desc, work) * pb->n * eps);
}

fd_residual fd_residual_check(const fd_problem *pb, const fd_grid *g)
{
  fd_residual r = {NAN, NAN, 0};
  int64_t *rows = pb->factor == FD_LU ? row_map(pb, g) : NULL;
  double *x = scratch(pb->elems, sizeof *x), *w = scratch(pb->elems, sizeof *w);
  double *y = pb->factor == FD_LU ? scratch(pb->elems, sizeof *y) : NULL;
  size_t work_len = (size_t)(pb->mloc > pb->nloc ? pb->mloc : pb->nloc) + (size_t)pb->nb;
  double *work = scratch(work_len, sizeof *work);
  /* Pivots outside 1..N leave the residual NaN: a failure. */
  if (pb->factor != FD_LU || rows) {
    split_factors(pb, g, x, y);
    rebuild(pb, x, y, w);
    subtract_original(pb, g, rows, w, x);
    r.inf = scaled_norm("I", pb, g, w, x, work);
    r.one = scaled_norm("1", pb, g, w, x, work);
  }
  int mine = fd_guards_intact(pb);
  MPI_Allreduce(&mine, &r.guards_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  free(rows), free(x), free(y), free(w), free(work);
  return r;
}

int fd_residual_passes(const fd_residual *r)
{
  return r->inf <= FD_RESID_THRESHOLD && r->one <= FD_RESID_THRESHOLD && r->guards_ok;
}

/* Written so that a NaN wins. */
static double worse(double a, double b)
{
  if (isnan(a) || isnan(b))
    return NAN;
  return a > b ? a : b;
}

fd_residual fd_residual_worst(const fd_residual *a, const fd_residual *b)
{
  return (fd_residual){.inf = worse(a->inf, b->inf), .one = worse(a->one, b->one),
                       .guards_ok = a->guards_ok && b->guards_ok};
}
