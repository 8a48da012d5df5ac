/*
 * A part of sub(B) (or sub(C)) turned across a line of the grid: on a P x 1 grid its rows
 * are dealt over the line and its columns are whole, so a left-side solve would depend
 * on every process in turn; turned, each process holds all rows of a contiguous chunk of
 * the columns and solves it alone.  A 1 x Q grid with SIDE 'R' likewise, rows for
 * columns.  Out and back are each one all-to-all over the line; each process's own share
 * of its chunk is copied directly.  Where the line's processes share one node, every
 * chunk lies in one shared area instead, and each process copies its rows straight into
 * their places in every chunk and back: one copy each way, where the all-to-all makes
 * four (into the exchange buffer, through the transport's, out of the buffer), and no
 * exchange buffers.
 */
#ifndef HPD_LEVEL3_TURN_H
#define HPD_LEVEL3_TURN_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#include "core/checked.h"
#include "kernel/elem.h"
#include "pblas/layout.h"

typedef struct hpd_l3_turn {
  int left;        /* rows dealt, columns chunked (SIDE 'L'); else the other way */
  int m, n;        /* the sub-matrix */
  hpd_axis spread; /* its rows (left) or columns, as dealt along the line */
  int nline, me;
  MPI_Comm comm;
} hpd_l3_turn;

/* This process's chunk: t is m x width (left, leading dimension m) or width x n
 * (leading dimension width). */
HPD_CHECKED int hpd_l3_turn_width(const hpd_l3_turn *turn);
HPD_CHECKED int hpd_l3_turn_ld(const hpd_l3_turn *turn);

/* The most entries any process sends (or receives) in one turn, for every process alike:
 * the size of each of the two exchange buffers.  The caller keeps it within an int. */
size_t hpd_l3_turn_exchange(const hpd_l3_turn *turn);
/* The most entries of any process's chunk. */
size_t hpd_l3_turn_chunk(const hpd_l3_turn *turn);

/* x (this process's part, leading dimension ldx) into t, and back.  Collective over the
 * line; send and recv have hpd_l3_turn_exchange entries each.  Returns HPD_OK, or a failure
 * where memory ran short for the exchange's counts (on this rank: the caller aborts). */
HPD_CHECKED hpd_status hpd_l3_turn_out(const hpd_l3_turn *turn, const hpd_elem *x, int ldx,
                                       hpd_elem *t, hpd_elem *send, hpd_elem *recv);
HPD_CHECKED hpd_status hpd_l3_turn_back(const hpd_l3_turn *turn, const hpd_elem *t, hpd_elem *x,
                                        int ldx, hpd_elem *send, hpd_elem *recv);

/* The entries of every process's chunk together, as they lie in a shared area: process
 * q's chunk at q * hpd_l3_turn_chunk entries, with the leading dimension that
 * hpd_l3_turn_ld gives on q. */
size_t hpd_l3_turn_area(const hpd_l3_turn *turn);

/* The entries of this process's part that lie in other processes' chunks. */
size_t hpd_l3_turn_sent(const hpd_l3_turn *turn);

/* This process's part x (leading dimension ldx) into its places in every chunk of area
 * (to_area), or back from there. */
void hpd_l3_turn_place(const hpd_l3_turn *turn, hpd_elem *x, int ldx, hpd_elem *area,
                       int to_area);

#endif
