#include "predict.h"

#include <math.h>

#include "bcast.h"
#include "kernel_rate.h"

static double flop_share(hpd_routine routine)
{
  switch (routine) {
  case HPD_ROUTINE_PDSYRK:
  case HPD_ROUTINE_PDTRSM:
  case HPD_ROUTINE_PDTRMM:
    return 0.5;
  default:
    return 1.0;
  }
}

/* Seconds for bytes sent in panels of panel_bytes over comm's link (measured where it
 * was not yet, collectively), 0 where it cannot be measured. */
static double link_s(double bytes, double panel_bytes, MPI_Comm comm)
{
  if (!(bytes > 0.0))
    return 0.0;
  double rate = hpd_bcast_measure_link(comm, (size_t)panel_bytes);
  return rate > 0.0 ? bytes / rate : 0.0;
}

double hpd_predict_reference_s(const hpd_call *call, hpd_routine routine,
                               const hpd_grid *grid)
{
  int p = call->nprow, q = call->npcol;
  double share = flop_share(routine);
  /* The average process's share of the output: the busiest one holds at least that. */
  double rows = ceil((double)call->m / p), cols = ceil((double)call->n / q);
  int kb = call->k < HPD_REFERENCE_KB ? call->k : HPD_REFERENCE_KB;
  /* Of the k panels, a process holds 1/q of A's (1/p of B's) and receives the rest.  The
   * links first: measuring one is collective over its row or column. */
  double a_bytes = q > 1 ? share * 8.0 * rows * call->k * (q - 1) / q : 0.0;
  double b_bytes = p > 1 ? share * 8.0 * cols * call->k * (p - 1) / p : 0.0;
  double links_s = link_s(a_bytes, 8.0 * rows * kb, grid->row) +
                   link_s(b_bytes, 8.0 * cols * kb, grid->col);
  double s_per_flop = hpd_kernel_s_per_flop((int)rows, (int)cols, kb);
  if (!(s_per_flop > 0.0))
    return 0.0;
  return share * 2.0 * rows * cols * (double)call->k * s_per_flop + links_s;
}
