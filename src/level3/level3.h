/*
 * pdtrsm, pdtrmm, pdsymm and pdsyr2k on hpdaemon's broadcasts and local BLAS.  The
 * triangular and symmetric routines are served on a line of the grid where the layout
 * allows (line.c: the block of sub(A) gathered along it, one local update per process,
 * sub(B) turned across the line first where its rows are dealt over it; across nodes,
 * pdtrmm's and pdsymm's rows of sub(B) spread down the column instead, spread.c, and
 * pdtrsm solved where they lie as a wavefront, trsm_wave.c), on a 2-D grid pdtrmm and
 * pdsymm as the engine's multiplies of their triangle made whole (whole.c) and pdtrsm
 * block by block with a look-ahead (trsm_grid.c, sub(A) dealt anew where it does not lie
 * as the solve reads it, deal.c), and otherwise
 * halved at a block boundary into the engine's multiplies (engine.h) until the halves fit
 * a line, single diagonal blocks off every line going to the reference; pdsyr2k is two
 * triangle updates of sub(C), one per product, or, where K lies along the grid's one
 * line, each process's sums over its share of K sent to the owners of sub(C).  Either way the broadcasts run at the
 * broadcast frequency and the updates at the multiply frequency, with the accounting
 * under the routine's own name.
 */
#ifndef HPD_LEVEL3_LEVEL3_H
#define HPD_LEVEL3_LEVEL3_H

#include "core/checked.h"
#include "hpdaemon.h"
#include "kernel/elem.h"
#include "pblas/call.h"
#include "pblas/dispatch.h"
#include "pblas/grid.h"

/*
 * One call, checked.  call holds the operands as the engine names them: A is sub(A); for
 * pdtrsm and pdtrmm, C is sub(B), updated in place (c points at B's storage, B is unused);
 * for pdsymm and pdsyr2k, B and C are theirs.  call.m and call.n are sub(B)'s (sub(C)'s)
 * extent, call.k the order of sub(A) (pdtrsm, pdtrmm, pdsymm) or pdsyr2k's K;
 * call.transa is TRANSA (TRANS), call.uplo UPLO, call.transb stands for SIDE ('T' for
 * 'R') so that the dispatch rule (dispatch.h) keeps the sides apart.
 */
typedef struct hpd_l3 {
  hpd_call call;
  hpd_routine routine;
  char side; /* 'L' or 'R' */
  char diag; /* 'U' or 'N' */
} hpd_l3;

/* PBLAS's checks of each routine's arguments, in PBLAS's order.  HPD_SERVED_BY_ENGINE
 * when the call may be served, else the reason to hand it to the reference:
 * HPD_FALLBACK_BAD_ARGUMENT for anything PBLAS would reject. */
HPD_CHECKED int hpd_l3_init_trxm(hpd_l3 *l3, hpd_routine routine, char side, char uplo,
                                 char transa, char diag, int m, int n, hpd_elem alpha,
                                 const hpd_elem *a, int ia, int ja, const int *desca,
                                 hpd_elem *b, int ib, int jb, const int *descb);
HPD_CHECKED int hpd_l3_init_symm(hpd_l3 *l3, char side, char uplo, int m, int n,
                                 hpd_elem alpha, const hpd_elem *a, int ia, int ja,
                                 const int *desca, const hpd_elem *b, int ib, int jb,
                                 const int *descb, hpd_elem beta, hpd_elem *c, int ic, int jc,
                                 const int *descc);
HPD_CHECKED int hpd_l3_init_syr2k(hpd_l3 *l3, char uplo, char trans, int n, int k,
                                  hpd_elem alpha, const hpd_elem *a, int ia, int ja,
                                  const int *desca, const hpd_elem *b, int ib, int jb,
                                  const int *descb, hpd_elem beta, hpd_elem *c, int ic, int jc,
                                  const int *descc);

/*
 * Routes a checked call (dispatch.h) and serves it: on the engine, by one local BLAS call
 * where everything lies on one process, or not at all where the reference is predicted
 * faster or the call is one diagonal block (nothing to split).  Returns the verdict for
 * the statistics; *done is 0 when the caller must still call the reference, which then
 * finds sub(B) (sub(C)) untouched.
 */
HPD_CHECKED int hpd_l3_serve(const hpd_l3 *l3, hpd_dispatch_ticket *ticket, int *done);

#endif
