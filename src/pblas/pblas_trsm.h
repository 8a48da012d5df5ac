/*
 * Which algorithm PBLAS's pdtrsm takes for a call: pdtrsm_ estimates the traffic of its
 * outer-product algorithm (PB_CptrsmAB: A's panels and B's travel, as in a multiply) and
 * of its inner-product one (PB_CptrsmB: A stays where it is; each step's partial sums of
 * a block of B's rows are combined on one process, solved there and sent back) from the
 * extents, the block sizes and the grid's shape, and takes the outer product unless it is
 * estimated to move more than twice as much.  On a 1 x Q grid with the solve on the left
 * it takes the inner product: its steps then wait on each other across the row.
 */
#ifndef HPD_PBLAS_PBLAS_TRSM_H
#define HPD_PBLAS_PBLAS_TRSM_H

#include "core/checked.h"
#include "pblas/call.h"

/* 1 where PBLAS solves call (as level3/ checks a pdtrsm call: call->C is B,
 * call->transb 'N' for the left side, 'T' for the right) by its inner-product
 * algorithm, 0 where by its outer-product one. */
HPD_CHECKED int hpd_pblas_trsm_inner(const hpd_call *call);

#endif
