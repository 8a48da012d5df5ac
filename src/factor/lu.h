/*
 * LU with partial pivoting on one process row (a 1 x Q grid), with a look-ahead of one
 * panel, as chol.h does for Cholesky.  Every row is on every process, so a panel is
 * factored by LAPACK's dgetrf on its owner and its interchanges are local copies
 * everywhere: where ScaLAPACK's PDGETF2 pivots column by column with BLAS-2 updates and
 * PDLASWP swaps row by row, here a panel travels once with its pivots, and each process
 * applies the interchanges, the solve for its block of U and the update of its columns
 * itself.  The owner of panel p+1 updates and factors that panel first, so that no
 * process waits for a panel's factorization.
 */
#ifndef HPD_FACTOR_LU_H
#define HPD_FACTOR_LU_H

#include "core/checked.h"
#include "kernel/elem.h"
#include "pblas/call.h"
#include "pblas/grid.h"

/* sub(A) = A(IA:IA+M-1, JA:JA+N-1), its first row and column on a block boundary, on a
 * 1 x Q grid (or P x 1, turned); ipiv is PDGETRF's (this process's, tied to A's rows). */
typedef struct hpd_lu {
  int m, n;
  hpd_elem *a;
  int *ipiv;
  hpd_matrix sub;
  const hpd_call *call;
  MPI_Comm line; /* the grid's line, ranked by position along it */
  const hpd_grid *grid; /* on a 2-D grid (lu_grid.c) */
  const hpd_bcast_how *bcast; /* how its broadcasts start: the grid's (hpd_grid_bcast) */
  /* Called, where set, at step p on every process once panel p+1's broadcast has
   * started: the rows of the panels before p are final by then. */
  void (*at_step)(void *arg, int p);
  void *hook_arg;
  uint64_t booked; /* the call's buffers as the report shows them; 0: hpd_lu_bytes */
} hpd_lu;

/* The bytes of buffers a call needs on every process, the same figure on each. */
uint64_t hpd_lu_bytes(const hpd_lu *f);

/* Factors sub(A) = P * L * U in place, the pivots in ipiv as PDGETRF leaves them on every
 * process; collective over the grid, `space` holding hpd_lu_bytes.  Returns PDGETRF's
 * INFO: 0, or k > 0 where U(k, k) is exactly zero (the factorization is completed).
 * Frequency phases and energy are booked under pdgetrf. */
HPD_CHECKED int hpd_lu_factor(const hpd_lu *f, hpd_elem *space);

/* The same on a P x 1 grid (lu_turned.c), whose processes are on `nodes` nodes: sub(A)
 * is dealt again by columns over the column's processes, factored as on 1 x P, and dealt
 * back; `space` holds hpd_lu_turned_bytes, the turned copy of sub(A) among them. */
uint64_t hpd_lu_turned_bytes(const hpd_lu *f);
HPD_CHECKED int hpd_lu_turned_factor(const hpd_lu *f, int nodes, hpd_elem *space);

/* The same on a 2-D grid (P x Q, both above 1; lu_grid.c), with f->grid set. */
uint64_t hpd_lu_grid_bytes(const hpd_lu *f);
HPD_CHECKED int hpd_lu_grid_factor(const hpd_lu *f, hpd_elem *space);

#endif
