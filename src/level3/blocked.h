/* The forms of pdtrsm, pdtrmm, pdsymm and pdsyr2k (level3.h). */
#ifndef HPD_LEVEL3_BLOCKED_H
#define HPD_LEVEL3_BLOCKED_H

#include "core/checked.h"
#include "kernel/elem.h"
#include "level3/pieces.h"

/* Each serves its whole checked call (alpha != 0, extents >= 1) on the grid of run. */
void hpd_l3_trxm(hpd_l3_run *run);
void hpd_l3_symm(hpd_l3_run *run);
/* An order-k block of sub(A) against the part of sub(B) it meets (pdtrsm, pdtrmm: b, c
 * unused; pdsymm: b and c are sub(B)'s and sub(C)'s parts, laid out alike), served on a
 * line of the grid, as laid out or turned (line.c), where the layout and the memory
 * threshold allow: HPD_OK, or a failure (nothing done, on every rank alike) where they
 * do not: HPD_STATUS_DECLINED for the layout, HPD_STATUS_NO_MEMORY for the memory. */
HPD_CHECKED hpd_status hpd_l3_line(hpd_l3_run *run, const hpd_matrix *a,
                                   const hpd_matrix *b, const hpd_matrix *c, int k,
                                   hpd_elem alpha, hpd_elem beta);
/* Returns HPD_OK, or HPD_STATUS_DECLINED where the engine refused the first half: sub(C)
 * is then untouched and run->reason says why. */
HPD_CHECKED hpd_status hpd_l3_syr2k(hpd_l3_run *run);
/* Whether a call from the left with TRANSA 'N' on P x 1 is served where sub(B)'s rows
 * lie (spread.c, trsm_wave.c) instead of turned (line.c): where the turned form's block
 * would not lie in shared memory, sub(A)'s rows are dealt as sub(C)'s, and the call moves
 * no more that way; *rows is then their axis. */
HPD_CHECKED int hpd_l3_rows_stay(const hpd_l3_run *run, hpd_axis *rows);
/* pdtrmm from the left with TRANSA 'N', or pdsymm from the left, on P x 1 by sub(B)
 * spread down the column (spread.c): HPD_OK when served, a failure (nothing done, on
 * every rank alike) where the layout, the bytes it moves (HPD_STATUS_DECLINED) or the
 * memory threshold (HPD_STATUS_NO_MEMORY) do not allow it. */
HPD_CHECKED hpd_status hpd_l3_spread(hpd_l3_run *run);
/* pdtrsm from the left with TRANSA 'N' on P x 1, solved where sub(B)'s rows lie, slab by
 * slab of columns as a wavefront (trsm_wave.c): HPD_OK when served, a failure (nothing
 * done, on every rank alike) where the layout, the bytes it moves (HPD_STATUS_DECLINED)
 * or the memory threshold (HPD_STATUS_NO_MEMORY) do not allow it. */
HPD_CHECKED hpd_status hpd_l3_trsm_wave(hpd_l3_run *run);
/* pdtrsm on a 2-D grid, block by block with a look-ahead (trsm_grid.c), sub(A) read in
 * place or dealt anew (deal.c): HPD_OK when served, a failure (nothing done, on every
 * rank alike) where the call (HPD_STATUS_DECLINED) or the memory threshold
 * (HPD_STATUS_NO_MEMORY) does not allow it. */
HPD_CHECKED hpd_status hpd_l3_trsm_grid(hpd_l3_run *run);
/* Whether hpd_l3_trsm_grid takes the call on grid (NULL: none) within the memory
 * threshold, moving no more than a solve that moves sub(B) alone would, by a margin
 * (trsm_grid.c): the same on every rank of the grid. */
int hpd_l3_trsm_grid_fits(const hpd_l3 *l3, const hpd_grid *grid);
/* pdtrmm or pdsymm on a 2-D grid as multiplies of sub(A)'s triangle made whole in a copy
 * (whole.c): HPD_OK when served, a failure (nothing done, on every rank alike) where the
 * routine or grid (HPD_STATUS_DECLINED) or the memory threshold (HPD_STATUS_NO_MEMORY)
 * does not allow it. */
HPD_CHECKED hpd_status hpd_l3_whole(hpd_l3_run *run);
/* pdsyr2k on one process row with TRANS 'N' where N < 4 K, by each process's sums over
 * its share of K (syr2k_sums.c): HPD_OK when served, a failure (nothing done, on every
 * rank alike) where the layout (HPD_STATUS_DECLINED) or the memory threshold
 * (HPD_STATUS_NO_MEMORY) does not allow it. */
HPD_CHECKED hpd_status hpd_l3_syr2k_sums(hpd_l3_run *run);

#endif
