/*
 * One group that travels in pieces.  Where no multiply hides a group's broadcasts (the
 * only group of LU's and Cholesky's trailing updates, or the first group of any call)
 * the overlap schedule cuts the travelling operand along sub(C): A's panels by rows when
 * A travels, else B's by columns, into pieces of at least HPD_PIECE_EXTENT rows or
 * columns, each a separate broadcast of a packed block.  Pieces are started two ahead
 * in a fixed order, so that on a link the first arrives first rather than all of them
 * together, and each rank multiplies its part of sub(C) for a piece as soon as that
 * piece has arrived, while the next ones travel: the call takes about the larger of
 * its broadcast and multiply times, not their sum.
 *
 * The owner of a one-panel group's travelling operand needs nothing from anyone: it
 * multiplies its whole share from its own storage and moves the pieces between strips.
 * For pdsyrk on one process row (B's rows gathered from A's panels) the rows of B a
 * piece of C needs come from that piece and those before it, upper triangles taking
 * the pieces from the bottom up.
 */
#ifndef HPD_PDGEMM_SUMMA_PIECES_H
#define HPD_PDGEMM_SUMMA_PIECES_H

#include "pdgemm/group.h"

/* The most pieces a group travels in, and the fewest rows (or columns) of a piece: a
 * multiply narrower than this runs well below the core's rate, and a piece smaller than
 * 64 columns' worth of it is mostly per-message cost on a network. */
#define HPD_PIECES_MAX 8
#define HPD_PIECE_EXTENT 256

/* The pieces a group travels in where its travelling operand spans extent rows (A) or
 * columns (B) of this process's share: 1 where it travels whole. */
HPD_CHECKED int hpd_pieces_fit(const hpd_summa *s, int64_t extent);

/* Broadcasts and multiplies the group grp (slot as hpd_group_at gives it); next, when
 * not NULL, is started once this group's broadcasts have all completed on this rank,
 * and kept moving by the multiplies after that.  Books waits as broadcast time and the
 * rest as multiply time in the energy ledger.  Collective over the grid. */
void hpd_pieces_run(const hpd_summa *s, hpd_group *grp, hpd_group *next);

#endif
