/*
 * The reference's time for a call, from below.  PBLAS runs every level-3 routine as a
 * loop of rank-32 updates of the output (pilaenv's width), each after blocking
 * broadcasts of the operands' panels along the grid's rows and columns: nothing overlaps.
 * So no reference call can take less than its flops at this process's measured rate for
 * rank-32 updates of its share of the output (kernel_rate.h), plus the panel bytes this
 * process receives at the fastest rate its row and column links have shown for messages
 * at least as long as PBLAS's panels (hpd_bcast_measure_link, which tunes the panels'
 * size class on a link that has not shown one).  The routine's flops are counted as a fraction of a multiply of
 * the output's order by call->k: 1 for pdgemm, pdsymm and pdsyr2k (two products on one
 * triangle), 1/2 for pdsyrk, pdtrsm and pdtrmm (one triangle).  A link not yet measured
 * counts as free, which keeps the figure a bound.
 */
#ifndef HPD_PDGEMM_PREDICT_H
#define HPD_PDGEMM_PREDICT_H

#include "call.h"
#include "grid.h"
#include "hpdaemon.h"

/* PBLAS's rank-k update width (pilaenv). */
#define HPD_REFERENCE_KB 32

/* This process's lower bound on the reference's seconds for call (checked, not local),
 * on grid; 0 where its rate cannot be measured.  Collective over the grid's rows and
 * columns where a link must be measured: every rank of the grid calls it together. */
double hpd_predict_reference_s(const hpd_call *call, hpd_routine routine,
                               const hpd_grid *grid);

#endif
