/*
 * The MPI communicators of a BLACS process grid, made once per grid and kept.
 *
 * A cache keyed on the BLACS context number would be wrong: BLACS hands the numbers of
 * freed contexts to new ones.  The key is the grid itself: its shape and its processes'
 * ranks in MPI_COMM_WORLD in row-major grid order, compared as arrays (a local call, and
 * nothing kept that belongs to a communicator BLACS may free).
 * The grid asked for last is also found, more cheaply, by its ranks in MPI_COMM_WORLD.
 * Entries are never evicted: a rank that evicted while another kept its entry would
 * disagree on whether creating the communicators (a collective) is needed, and hang.
 * Not thread-safe, like the rest of ScaLAPACK.
 */
#ifndef HPD_PBLAS_GRID_H
#define HPD_PBLAS_GRID_H

#include <mpi.h>

#include <stddef.h>

#include "bcast/bcast.h"
#include "core/checked.h"
#include "hpdaemon.h"

/* What other modules keep per grid, one slot each: the grid's context, kept with it. */
typedef enum hpd_grid_slot {
  HPD_GRID_ROUTES,    /* the dispatch rule's classes and routes (dispatch.c) */
  HPD_GRID_SCHEDULES, /* what the auto strategy has seen of each schedule (schedule.c) */
  HPD_GRID_BCAST,     /* how the call in progress starts its broadcasts (hpd_grid_bcast) */
  HPD_GRID_BUFFERS,   /* the group buffers' pages the grid has made (pdgemm/buffers.c) */
  HPD_GRID_SPARE,     /* what the call in progress may spend for later calls (below) */
  HPD_GRID_SLOTS
} hpd_grid_slot;

typedef struct hpd_grid {
  int nprow, npcol;
  int *world_ranks; /* the key: the grid's processes, row-major */
  MPI_Comm comm;   /* all of the grid */
  MPI_Comm row;    /* my process row, ranked by process column */
  MPI_Comm col;    /* my process column, ranked by process row */
  MPI_Comm col_up; /* the same ranked from the last process row up (hpd_grid_col_up) */
  MPI_Comm row_left; /* my process row ranked from its last column (hpd_grid_row_left) */
  /* Node memory per grid rank: the least, over the grid's nodes, of the node's memory
   * over the number of the grid's ranks on it.  Identical on every rank. */
  double mem_per_rank;
  int nodes; /* the nodes the grid's processes are on: the same on every rank */
  /* The nodes whose network links the grid's processes share (hpd_node_map's links):
   * nodes natively; under the simulator, whose cores are hosts of their own, the
   * platform's.  The same on every rank. */
  int link_nodes;
  int used; /* an engine call has run on the grid */
  void *context[HPD_GRID_SLOTS]; /* the other modules' state: hpd_grid_state's */
} hpd_grid;

/*
 * The communicators for the grid of ictxt, where this process is (myrow, mycol).
 * Collective over the grid the first time a grid is seen.  NULL when the grid's
 * communicator cannot be derived from BLACS (the caller falls back).
 */
const hpd_grid *hpd_grid_get(int ictxt, int nprow, int npcol, int myrow, int mycol);

/* The grid's process column of this process ranked from its last process row up, made
 * at the first request (collective over the column then): a broadcast down it visits the
 * rows in falling order, as a solve that runs up the column needs its solutions to. */
MPI_Comm hpd_grid_col_up(const hpd_grid *grid);
/* The same for this process's row, ranked from its last process column. */
MPI_Comm hpd_grid_row_left(const hpd_grid *grid);

/* The most bytes of working space a process of grid should hold, for one call and kept
 * between calls together: the memory threshold's share of its node's memory. */
double hpd_grid_budget(const hpd_grid *grid);

/* The strategy the engine runs pdgemm and pdsyrk under on grid: HPD_STRATEGY where the
 * user chose one; otherwise daemon on one node and auto where the grid spans several
 * (the same on every rank of the grid). */
hpd_strategy hpd_grid_strategy(const hpd_grid *grid);

/* The grid's state in one slot: bytes (the same at every request), zeroed at the first,
 * the same block after.  The program stops, saying why, where memory runs short for it:
 * a rank that went on without it would decide apart from the rest of its grid. */
void *hpd_grid_state(const hpd_grid *grid, hpd_grid_slot slot, size_t bytes);

/* How the call in progress on grid starts its broadcasts on the grid's communicators:
 * the dispatch holds tuning for a call whose route is still being decided (dispatch.h),
 * the factorizations for all of theirs (factor/lookahead.h), and every call nested in
 * one on the same grid starts its broadcasts under that hold; a call on another grid has
 * its own.  Never a batch: those are made per group (hpd_bcast_batch). */
hpd_bcast_how *hpd_grid_bcast(const hpd_grid *grid);

/* What the calls in progress on grid may spend on work that only later calls gain from
 * (the group buffers' pages made ahead, pdgemm/buffers.h).  The dispatch sets it around
 * each call it sends to the engine (dispatch.h); a call nested in another on the same
 * grid spends within the outer one's. */
typedef struct hpd_grid_spare {
  int depth;    /* calls in progress that set it */
  double until; /* this process's clock (core/clock.h); 0: nothing to spare */
} hpd_grid_spare;

hpd_grid_spare *hpd_grid_spare_of(const hpd_grid *grid);

/* 1 the first time it is asked for this grid, then 0: the same answer on every rank of
 * the grid, since all of them take part in each of its calls. */
HPD_CHECKED int hpd_grid_first_use(const hpd_grid *grid);

#endif
