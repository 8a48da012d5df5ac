/*
 * What the blocked routines are made of: sub-matrices of a call's operands, the split of
 * sub(A)'s order at a block boundary, and the multiplies the engine serves for them.
 */
#ifndef HPD_LEVEL3_PIECES_H
#define HPD_LEVEL3_PIECES_H

#include "core/checked.h"
#include "kernel/elem.h"
#include "level3/level3.h"

/* One blocked call under way. */
typedef struct hpd_l3_run {
  const hpd_l3 *l3;
  const hpd_grid *grid;
  int reason;     /* HPD_SERVED_BY_ENGINE, or why a piece went to the reference pdgemm */
  /* The zeros the multiplies' operands hold (call.h): 0, or the whole form's triangle
   * (whole.c). */
  char zeros_in, zeros_uplo;
} hpd_l3_run;

/* x's sub-matrix starting di rows and dj columns further. */
hpd_matrix hpd_l3_sub(const hpd_matrix *x, int di, int dj);

/* Where to halve the order k of sub(A) from its 0-based first index (row i, column j):
 * the block boundary nearest k/2 on sub(A)'s rows, so that both halves, and the pieces
 * of B and C cut alike, stay aligned with their blocks.  0 where the k indices lie in
 * one block: a diagonal block, not split. */
HPD_CHECKED int hpd_l3_split(const hpd_l3 *l3, const hpd_matrix *a, int k);

/* sub(c) := alpha * op(sub(a)) * op(sub(b)) + beta * sub(c), m x n x k, on the engine
 * (pdgemm's semantics); the reference pdgemm where the engine refuses. */
void hpd_l3_multiply(hpd_l3_run *run, char ta, char tb, int m, int n, int k, hpd_elem alpha,
                     const hpd_elem *a, const hpd_matrix *am, const hpd_elem *b,
                     const hpd_matrix *bm, hpd_elem beta, hpd_elem *c, const hpd_matrix *cm);

/* sub(c) := beta * sub(c) (m x n), a local step; beta = 0 writes zeros without reading. */
void hpd_l3_scale(hpd_l3_run *run, int m, int n, hpd_elem beta, hpd_elem *c,
                  const hpd_matrix *cm);

/* Runs work(arg), whose messages travel under its multiplies (syr2k_sums.c,
 * spread.c, trsm_wave.c), as one piece of the call: at the multiply frequency throughout, with
 * no broadcast step, booked under the routine with bytes_held of working space. */
void hpd_l3_overlapped(const hpd_l3_run *run, uint64_t bytes_held, void (*work)(void *),
                       void *arg);

#endif
