/*
 * The moves of moves.h carried out on a distributed matrix, within one line of the grid
 * (a process column for row interchanges, a process row for column ones): every line
 * that changes is read before any is written, the lines one process sends another travel
 * as one message, and a process's own moves are copies.
 */
#ifndef HPD_SWAP_EXCHANGE_H
#define HPD_SWAP_EXCHANGE_H

#include <mpi.h>

#include "core/checked.h"
#include "core/waited.h"
#include "kernel/elem.h"
#include "pblas/layout.h"
#include "swap/moves.h"

/* The lines being permuted, as this process holds them. */
typedef struct hpd_swap_lines {
  hpd_elem *a;
  int64_t line_step, pos_step; /* rows: 1 and LLD; columns: LLD and 1 */
  hpd_axis axis;               /* the lines over the processes of comm */
  int64_t pos0, npos;          /* this process's positions: first local index, count */
  MPI_Comm comm;               /* ranked like the axis's processes */
  int me, nprocs;
  /* How the exchange waits for its messages (NULL: MPI_Wait): a rank that spins inside
   * MPI holds the core that a rank it waits for may need. */
  hpd_wait_fn wait;
} hpd_swap_lines;

/* Scratch for hpd_swap_exchange: twice `moves` entries of line indices, data for `moves`
 * lines each way, and a request per process each way. */
typedef struct hpd_swap_scratch {
  int64_t *local;
  hpd_elem *send, *recv;
  MPI_Request *requests;
} hpd_swap_scratch;

/* The one process of comm that holds every line of the interchanges (i, pivots[i - k1])
 * for i = k1 .. k1 + count - 1 (1-based), or -1 where several do: the same answer on
 * every process, from the pivots and the layout alone. */
HPD_CHECKED int hpd_swap_sole_owner(const hpd_swap_lines *l, const int *pivots, int k1,
                                    int64_t count);

/* Those interchanges in their order on that owner, in place: no message, nothing to
 * allocate. */
void hpd_swap_in_place(const hpd_swap_lines *l, const int *pivots, int k1, int64_t count);

void hpd_swap_exchange(const hpd_swap_lines *l, const hpd_move *moves, int64_t count,
                       const hpd_swap_scratch *s);

/* What a run of up to `count` interchanges needs, lines holding up to npos positions on
 * each of nprocs processes: the moves' table, the moves and the exchange's scratch. */
typedef struct hpd_swap_plan {
  int64_t *work;
  hpd_move *moves;
  hpd_swap_scratch lines;
} hpd_swap_plan;

/* The bytes of such a plan; with a block (aligned for any element), its pieces carved
 * from it into plan. */
size_t hpd_swap_plan_carve(int64_t count, int64_t npos, int nprocs, void *block,
                           hpd_swap_plan *plan);

/* The interchanges (i, pivots[i - k1]) for i = k1..k2 (1-based) on the lines, through
 * the plan's buffers (carved for k2 - k1 + 1 interchanges or more): moves, then one
 * exchange.  Collective over l->comm, every process with the same pivots. */
void hpd_swap_apply(const hpd_swap_lines *l, const int *pivots, int k1, int k2,
                    const hpd_swap_plan *plan);

#endif
