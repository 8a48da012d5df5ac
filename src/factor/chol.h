/*
 * Cholesky's factor on one line of the grid, with a look-ahead of one panel: the lower
 * factor on one process row (1 x Q), the upper one on one process column (P x 1).  There
 * every panel of sub(A) lies on one process, whole: its factorization is LAPACK's dpotrf
 * on the diagonal block and a local triangular solve beside it, with no message at all.
 * ScaLAPACK's PDPOTRF still runs it between two trailing updates, so the other processes
 * wait for it at every step.  Here the owner of panel p+1 first brings its own block up
 * to date, factors it and starts its broadcast, and only then updates the rest of its
 * share; the others meanwhile update theirs.  The broadcast travels under those updates,
 * and no process waits for a panel's factorization.  Panels travel in pieces of rows
 * (chol.c), and the owner of panel p+1 works through panel p's as they arrive, sending
 * panel p+1's as they are ready, so that both ways of a link carry a panel at once.
 *
 * The updates take two panels at a time (depth 2 NB, about 12% faster in dgemm than NB):
 * the pair of panels 2k and 2k+1 is applied to the trailing matrix in two parts, the first
 * in step 2k+1 and the rest in step 2k+2, while panel 2k+2 alone brings only the block of
 * panel 2k+3 up to date before it is factored.
 */
#ifndef HPD_FACTOR_CHOL_H
#define HPD_FACTOR_CHOL_H

#include "core/checked.h"
#include "kernel/elem.h"
#include "pblas/call.h"
#include "pblas/grid.h"

/* sub(A) = A(IA:IA+N-1, JA:JA+N-1), its first row and column on a block boundary, on one
 * line of the grid; its lower triangle (upper 0) or upper one (upper 1) is replaced by
 * its factor. */
typedef struct hpd_chol {
  int n, upper;
  hpd_elem *a;      /* the local array */
  hpd_matrix sub;   /* sub(A) */
  const hpd_call *call; /* grid position */
  const hpd_grid *grid;
} hpd_chol;

/* Where this process stands on the grid's line, the panels' indices dealt "across" it
 * (rows where rows_dealt, else columns) and the other dimension held whole "along". */
typedef struct hpd_chol_line {
  int me, nb, lda;
  int64_t row0, col0; /* sub(A)'s first entry in the local array */
  hpd_axis across, along;
  MPI_Comm comm; /* the grid's line, ranked by position across */
} hpd_chol_line;

/* The line, once c->grid is set; the axis across alone, before. */
hpd_chol_line hpd_chol_line_of(const hpd_chol *c, int rows_dealt);
hpd_axis hpd_chol_across(const hpd_chol *c, int rows_dealt);

/* Panel k: sub(A)'s indices [g0, g1) across, and the owner of its diagonal block. */
typedef struct hpd_chol_panel {
  int64_t g0, g1;
  int jb, owner;
} hpd_chol_panel;

hpd_chol_panel hpd_chol_panel_at(const hpd_chol_line *ln, int n, int k);

/* The bytes of buffers a call needs on every process, the same figure on each. */
uint64_t hpd_chol_bytes(const hpd_chol *c);

/*
 * Factors sub(A), the lower factor on a 1 x Q grid or the upper one on a P x 1 grid;
 * collective over the grid, every process with its buffers (`space`,
 * hpd_chol_bytes of them).  Returns 0, or k > 0 where the leading minor of order k is
 * not positive definite: as in PDPOTRF, the panels before the failing one are factored
 * and applied to the whole trailing matrix, and the factorization stops there.  Frequency
 * phases and energy are booked under pdpotrf.
 */
HPD_CHECKED int hpd_chol_factor(const hpd_chol *c, hpd_elem *space);

/* The same for the lower factor on a P x 1 grid or the upper one on a 1 x Q grid, where
 * each panel's rows are spread over the line (chol_spread.c). */
uint64_t hpd_chol_spread_bytes(const hpd_chol *c);
HPD_CHECKED int hpd_chol_spread_factor(const hpd_chol *c, hpd_elem *space);

/* The same on a 2-D grid (P x Q, both above 1), either factor (chol_grid.c). */
uint64_t hpd_chol_grid_bytes(const hpd_chol *c);
HPD_CHECKED int hpd_chol_grid_factor(const hpd_chol *c, hpd_elem *space);

#endif
