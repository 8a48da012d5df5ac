/*
 * What a run of interchanges does to the lines (rows or columns) of a matrix, worked out
 * from the pivots alone: which lines end up holding which line's old content.  Every
 * process of a line of the grid reads the same pivots (PDLASWP's precondition), so each
 * one derives the same moves in the same order, and the data can then travel in one
 * message per pair of processes rather than one exchange per interchange.
 */
#ifndef HPD_SWAP_MOVES_H
#define HPD_SWAP_MOVES_H

#include <stddef.h>
#include <stdint.h>

typedef struct hpd_move {
  int64_t to, from; /* 0-based global lines: `to` ends up holding what `from` held */
} hpd_move;

/* The entries of work that hpd_swap_moves needs for `count` interchanges. */
size_t hpd_swap_moves_work(int64_t count);

/*
 * The interchanges (i, piv[i - k1]) for i = k1..k2 in that order, all indices 1-based as
 * PDLASWP takes them.  Writes the lines whose
 * content changes into moves (room for 2 * (k2 - k1 + 1)) and returns their count; the
 * same pivots give the same moves in the same order on every process.
 */
int64_t hpd_swap_moves(const int *piv, int k1, int k2, int64_t *work, hpd_move *moves);

#endif
