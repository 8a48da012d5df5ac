/*
 * A triangle of op(sub(A)) dealt anew over the grid (deal.c), for pdtrsm's block solve
 * where sub(A) does not lie as the solve reads it: transposed (TRANSA 'T' or 'C'), or
 * dealt unlike sub(B).
 */
#ifndef HPD_LEVEL3_DEAL_H
#define HPD_LEVEL3_DEAL_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#include "core/checked.h"
#include "core/status.h"
#include "kernel/elem.h"
#include "pblas/layout.h"

typedef struct hpd_l3_deal {
  int k;                 /* op(sub(A)) is k x k */
  char uplo;             /* its triangle dealt ('L' or 'U'), the diagonal with it */
  int transposed;        /* op(sub(A)) = sub(A)' */
  hpd_axis from_rows, from_cols; /* sub(A)'s axes, as it lies */
  const hpd_elem *a;     /* this process's share of sub(A), from its first local entry */
  int64_t lda;
  hpd_axis rows, cols;   /* op(sub(A))'s axes in the new layout */
  int nprow, npcol, myrow, mycol;
} hpd_l3_deal;

/* The most entries that a process sends, and the most entries of op(sub(A)) that the
 * new layout gives one process (all that it receives): bounds from the axes alone, the
 * same on every process. */
size_t hpd_l3_deal_send_most(const hpd_l3_deal *d);
size_t hpd_l3_deal_out_most(const hpd_l3_deal *d);

/* Every entry of the triangle into out (this process's share of the new layout, leading
 * dimension ld), through send and recv (hpd_l3_deal_send_most and _out_most entries,
 * both at most INT_MAX: MPI counts them in an int).  The other triangle of out is left
 * as it was.  Collective over comm, the grid's communicator in row-major order. */
HPD_CHECKED hpd_status hpd_l3_deal_run(const hpd_l3_deal *d, hpd_elem *out, int64_t ld,
                                       hpd_elem *send, hpd_elem *recv, MPI_Comm comm);

#endif
