#include "pblas/predict.h"

#include <math.h>

#include "bcast/bcast.h"
#include "pblas/kernel_rate.h"
#include "pblas/pblas_trsm.h"

/* The bytes of one element of the matrices the reference moves. */
#define ELEM_BYTES ((double)sizeof(hpd_elem))

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

/* Seconds for bytes sent in whole panels of panel_bytes over comm's link, as PBLAS's
 * ring broadcasts send them (measured where it was not yet, collectively), 0 where it
 * cannot be measured. */
static double link_s(double bytes, double panel_bytes, MPI_Comm comm, const hpd_grid *grid)
{
  if (!(bytes > 0.0))
    return 0.0;
  double rate = hpd_bcast_whole_rate(comm, (size_t)panel_bytes, hpd_grid_bcast(grid));
  return rate > 0.0 ? bytes / rate : 0.0;
}

/* Whether PBLAS solves call with its inner-product algorithm from the left on one
 * process row (1 x Q, pblas_trsm.h). */
static int inner_solve(const hpd_call *call, hpd_routine routine)
{
  int left = call->transb == 'N';
  return routine == HPD_ROUTINE_PDTRSM && left && call->nprow == 1 && call->npcol > 1 &&
         hpd_pblas_trsm_inner(call);
}

/* Whether PBLAS's pdtrsm or pdtrmm moves sub(B)'s rows whole down the column: from the
 * left with TRANSA 'N' on P x 1, every solved (multiplied) block of rows goes to the
 * other processes, M N (P-1)/P entries each, not the triangle's half that the flops are
 * (the reference's times at two link rates, timing/README.md).  The bound then follows
 * PBLAS's algorithm: its flops and that traffic, one after the other. */
static int rows_whole(const hpd_call *call, hpd_routine routine)
{
  int left = call->transb == 'N';
  return (routine == HPD_ROUTINE_PDTRSM || routine == HPD_ROUTINE_PDTRMM) && left &&
         call->transa == 'N' && call->npcol == 1 && call->nprow > 1;
}

/* How many panels of the call's size PBLAS moves along the grid's rows (down = 0) or
 * down its columns (down = 1) per panel of k: one, but two for pdsyr2k, whose A and B
 * panels both travel each way, and two for pdsymm along the line of sub(B)'s panels
 * (the process column for SIDE 'L', the row for 'R'), where PBLAS's form on one line
 * combines each step's partial products of the transposed panel over that line before
 * the next step (PB_CpsymmAB, which pdsymm_'s estimates choose on every line). */
static double operands_along(const hpd_call *call, hpd_routine routine, int down)
{
  if (routine == HPD_ROUTINE_PDSYR2K)
    return 2.0;
  int left = call->transb == 'N';
  if (routine == HPD_ROUTINE_PDSYMM && left == down)
    return 2.0;
  return 1.0;
}

hpd_reference_plan hpd_predict_plan(const hpd_call *call, hpd_routine routine)
{
  int p = call->nprow, q = call->npcol;
  double share = flop_share(routine);
  /* The average process's share of the output: the busiest one holds at least that. */
  double rows = ceil((double)call->m / p), cols = ceil((double)call->n / q);
  int kb = call->k < HPD_REFERENCE_KB ? call->k : HPD_REFERENCE_KB;
  hpd_reference_plan plan = {.rows = (int)rows, .cols = (int)cols, .kb = kb,
                             .flops = share * 2.0 * rows * cols * (double)call->k};
  if (inner_solve(call, routine)) {
    /* PBLAS's inner-product solve from the left on one process row (1 x Q): each step
     * combines the partial sums of a block of B's rows, in all of B's columns, on the
     * process that holds the step's diagonal block, solves it there and sends it back,
     * and the next step needs it: that process's link carries the block in and then
     * out, step after step, 2 M N doubles in all, and no step's work hides it.  Nor
     * does it hide the work: PB_CptrsmB's step updates and combines the next block, then
     * updates the rest of its share, and only then solves the next block, so each
     * step's messages wait for the update of the process that solves it.  The bound is
     * then the flops and that traffic, one after the other.  The algorithm's other cases
     * keep the general bound until their traffic is checked against the reference as
     * this one was (timing/README.md). */
    plan.row_bytes = 2.0 * ELEM_BYTES * (double)call->m * (double)call->n;
    plan.row_panel = ELEM_BYTES * (double)call->n * kb;
    return plan;
  }
  /* Of the k panels, a process holds 1/q of A's (1/p of B's) and receives the rest. */
  double b_share = rows_whole(call, routine) ? 1.0 : share;
  double along_rows = share * operands_along(call, routine, 0);
  double down_cols = b_share * operands_along(call, routine, 1);
  plan.row_bytes = q > 1 ? along_rows * ELEM_BYTES * rows * call->k * (q - 1) / q : 0.0;
  plan.row_panel = ELEM_BYTES * rows * kb;
  plan.col_bytes = p > 1 ? down_cols * ELEM_BYTES * cols * call->k * (p - 1) / p : 0.0;
  plan.col_panel = ELEM_BYTES * cols * kb;
  return plan;
}

double hpd_predict_compute_s(const hpd_reference_plan *plan, int may_time)
{
  return plan->flops * hpd_kernel_s_per_flop(plan->rows, plan->cols, plan->kb, may_time);
}

double hpd_predict_compute_cost_s(const hpd_reference_plan *plan, double s_per_flop)
{
  return hpd_kernel_timing_s(plan->rows, plan->cols, plan->kb, s_per_flop);
}

void hpd_predict_measure_links(const hpd_reference_plan *plan, const hpd_grid *grid)
{
  link_s(plan->row_bytes, plan->row_panel, grid->row, grid);
  link_s(plan->col_bytes, plan->col_panel, grid->col, grid);
}

double hpd_predict_links_s(const hpd_reference_plan *plan, const hpd_grid *grid)
{
  return link_s(plan->row_bytes, plan->row_panel, grid->row, grid) +
         link_s(plan->col_bytes, plan->col_panel, grid->col, grid);
}

double hpd_predict_bound_s(const hpd_reference_plan *plan, double compute_s,
                           const hpd_grid *grid)
{
  /* Every rank measures its links, whatever its kernel rate: measuring one is
   * collective over its row or column. */
  double links = hpd_predict_links_s(plan, grid);
  return compute_s > 0.0 ? compute_s + links : 0.0;
}

double hpd_predict_reference_s(const hpd_call *call, hpd_routine routine,
                               const hpd_grid *grid)
{
  hpd_reference_plan plan = hpd_predict_plan(call, routine);
  return hpd_predict_bound_s(&plan, hpd_predict_compute_s(&plan, 1), grid);
}

double hpd_predict_margin(const hpd_call *call, hpd_routine routine)
{
  if ((call->nprow > 1 && call->npcol > 1) || routine == HPD_ROUTINE_PDGETRF ||
      routine == HPD_ROUTINE_PDPOTRF)
    return INFINITY;
  /* pdsymm follows where the line is the one along which it combines (operands_along). */
  int symm_combines = routine == HPD_ROUTINE_PDSYMM &&
                      operands_along(call, routine, call->npcol == 1) > 1.0;
  int follows = routine == HPD_ROUTINE_PDGEMM || routine == HPD_ROUTINE_PDSYRK ||
                routine == HPD_ROUTINE_PDSYR2K || symm_combines || inner_solve(call, routine) ||
                rows_whole(call, routine);
  return follows ? 1.0 : 1.25;
}
