/*
 * Calls that need no communication at all: every element of sub(A), sub(B) and sub(C)
 * lies on one process (any call on a 1x1 grid; a call on sub-matrices inside one block
 * elsewhere, as eigen-solvers make by the hundred).  That process does one local dgemm
 * (or dsyrk for pdsyrk), the others have nothing to do, and nobody waits for anybody.
 */
#ifndef HPD_LOCAL_DIRECT_H
#define HPD_LOCAL_DIRECT_H

#include "core/checked.h"
#include "pblas/call.h"

/* 1 when the checked call (M, N, K >= 1) lives on one process; from descriptor data only,
 * so every rank answers alike. */
HPD_CHECKED int hpd_direct_is_local(const hpd_call *call);

/* The one process holding the indices [0, extent) of ax, or -1 when they are spread over
 * several: a run inside the axis's first block, or any run on one process. */
HPD_CHECKED int hpd_direct_axis_owner(hpd_axis ax, int extent);

/* 1 when x's rows x cols sub-matrix (as stored) lies entirely on process (prow, pcol). */
HPD_CHECKED int hpd_direct_held_by(const hpd_call *call, const hpd_matrix *x, int rows,
                                   int cols, int prow, int pcol);
/* The process row and column holding all of x's rows x cols sub-matrix: 0, or -1 where
 * it is spread over several. */
HPD_CHECKED int hpd_direct_owner(const hpd_call *call, const hpd_matrix *x, int rows,
                                 int cols, int *prow, int *pcol);
/* Where x's first element sits in this process's storage. */
hpd_elem *hpd_direct_origin(const hpd_call *call, const hpd_matrix *x, const hpd_elem *base);

/* Serves such a call: the owner computes, everyone else returns; *place says which this
 * process is and where the operands start, for a repeat of the call (repeat.h). */
void hpd_direct_local(const hpd_call *call, hpd_local_place *place);

/* The same call at place, from the arrays' bases (uplo 0: dgemm, else dsyrk of sub(C)'s
 * triangle uplo with TRANS transa; b unused): what a repeat of a remembered local call
 * runs. */
void hpd_direct_again(char uplo, char transa, char transb, int m, int n, int k, hpd_elem alpha,
                      const hpd_elem *a, const hpd_elem *b, hpd_elem beta, hpd_elem *c,
                      const hpd_local_place *place);

#endif
