#include "pblas/pblas_trsm.h"

#include <math.h>

/* PBLAS's weight of a combine against a broadcast in these estimates (pblas.h). */
#define COMBINE_WEIGHT 1.3

/* Rows of n in blocks of nb that the busiest of p processes holds, as PBLAS's DNROC
 * counts them. */
static double busiest_share(int n, int nb, int p)
{
  return (double)((((n + nb - 1) / nb) + p - 1) / p) * nb;
}

int hpd_pblas_trsm_inner(const hpd_call *call)
{
  int p = call->nprow, q = call->npcol;
  const int *a = call->A.desc, *b = call->C.desc;
  double across_rows = p > 1, across_cols = q > 1;
  int width = a[HPD_MB] < a[HPD_NB] ? a[HPD_MB] : a[HPD_NB];
  int left = call->transb == 'N', notran = call->transa == 'N';
  /* The solved dimension, the other one, and the grid's lines in their directions. */
  int solved = left ? call->m : call->n, other = left ? call->n : call->m;
  double along = left ? across_cols : across_rows, down = left ? across_rows : across_cols;
  double a_share = busiest_share(solved, left ? a[HPD_MB] : a[HPD_NB], left ? p : q);
  double a_other = busiest_share(solved, left ? a[HPD_NB] : a[HPD_MB], left ? q : p);
  double b_share =
      left ? busiest_share(other, b[HPD_NB], q) : busiest_share(other, b[HPD_MB], p);
  double blocks = (double)((solved + width - 1) / width) * width;
  double outer, outer_combined = INFINITY, inner;
  if (notran) {
    outer = solved * (along * a_share / 2 + down * b_share);
    inner = other * (blocks * across_rows + across_cols); /* either side, as pdtrsm_ has it */
  } else {
    double b_rows =
        left ? busiest_share(solved, b[HPD_MB], p) : busiest_share(solved, b[HPD_NB], q);
    outer_combined = solved * (along * a_share / 2 + COMBINE_WEIGHT * down * b_share);
    outer = solved * (along * a_share / 2 + down * b_share + fmax(a_other, a_share) / 2);
    inner = other * (blocks * (down + along) + fmax(a_other, b_rows));
  }
  return !(outer <= 2.0 * inner || outer_combined <= 2.0 * inner);
}
