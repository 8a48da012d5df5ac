/*
 * What the look-ahead factorizations (chol.h, lu.h) share: their buffers, and the
 * booking of each panel's broadcast step.  Each waits for panel p's broadcast once, at
 * the strategy's broadcast frequency, and does everything else (factoring the next panel,
 * applying this one) at its multiply frequency: one broadcast step per panel, N_grp 1,
 * under the switch identities every engine call keeps.  Overlap's identity is no switch
 * at all, and the look-ahead is its kind of schedule.
 */
#ifndef HPD_FACTOR_LOOKAHEAD_H
#define HPD_FACTOR_LOOKAHEAD_H

#include <stddef.h>
#include <stdint.h>

#include "bcast/bcast.h"
#include "core/checked.h"
#include "hpdaemon.h"
#include "kernel/elem.h"
#include "pblas/call.h"
#include "pblas/dispatch.h"
#include "pblas/grid.h"
#include "pblas/poll.h"
#include "phase/spent.h"

/* PDGETRF's and PDPOTRF's checks (CHK1MAT's and their own) of sub(A), m x n at (ia, ja),
 * from this process's arguments, the caller checking UPLO: 1 when ScaLAPACK would accept
 * them, with call's A and grid filled in. */
HPD_CHECKED int hpd_factor_accepted(hpd_call *call, int m, int n, int ia, int ja,
                                    const int *desca);

/* A factorization on the grid with its buffers: returns its INFO. */
typedef int (*hpd_factor_fn)(void *work, const hpd_grid *grid, hpd_elem *space);

/*
 * Serves a call that one line of the grid (or a turned line) factors: the dispatch rule
 * routes it first (dispatch.h), by its class (the routine, call->uplo, the octave of
 * call->m * call->n * call->k, which the caller sets), since the look-ahead is not the
 * faster side on every line and machine: the reference takes the class where calls show
 * it faster (HPD_SERVED_DIRECT_REFERENCE, nothing done here; the entry runs it whole,
 * entry.h).  On the engine, runs fn(work, grid, space) on the call's grid
 * (looked up, collective the first time, with frequency scaling and energy set up) with
 * bytes of buffers on every process (the same figure on each): on the stack where they
 * are small, else allocated and confirmed by one allreduce over the grid.  Returns
 * HPD_SERVED_BY_ENGINE with *info set, or the reason for the reference on every process
 * alike: HPD_FALLBACK_NO_GRID, or HPD_FALLBACK_NO_MEMORY past the memory threshold or
 * where one could not allocate (one warning naming routine); the rule learns nothing
 * from such a call.
 */
HPD_CHECKED int hpd_factor_serve(const hpd_call *call, hpd_routine routine, uint64_t bytes,
                                 hpd_factor_fn fn, void *work, hpd_dispatch_ticket *ticket,
                                 int *info);

typedef struct hpd_factor_run {
  hpd_strategy strategy; /* booked */
  hpd_strategy phases;   /* switched */
  hpd_spent spent;
  int steps;
} hpd_factor_run;

/* Starts booking; what follows runs at the multiply frequency. */
void hpd_factor_run_begin(hpd_factor_run *run);

/* Waits for one panel's n broadcasts (bytes of them on this process), in the broadcast
 * phase. */
void hpd_factor_run_wait(hpd_factor_run *run, hpd_bcast *handles, int n, size_t bytes);

/* Records the run under routine: panels panels, bytes of buffers per process. */
void hpd_factor_run_end(hpd_factor_run *run, hpd_routine routine, int panels,
                        uint64_t bytes);

/* Panel p of a 2-D factorization in panels of nb: indices [g0, g1) up to end, and the
 * process row and column that hold its diagonal block (rows and cols: the indices over
 * the grid's process rows and columns). */
typedef struct hpd_grid_panel {
  int64_t g0, g1;
  int jb, owner_r, owner_c;
} hpd_grid_panel;

hpd_grid_panel hpd_grid_panel_at(int p, int nb, int64_t end, const hpd_axis *rows,
                                 const hpd_axis *cols);

/* How a 2-D factorization's broadcasts down the grid's process columns start: over
 * shared links (bcast.h), since every column sends its own at once and each of its
 * processes waits for it. */
hpd_bcast_how hpd_factor_down_columns(const hpd_grid *grid);

/* Rows per strip of a 2-D factorization's update of rows rows by width columns by a
 * panel of jb, with a poll of the broadcasts in flight between two strips
 * (hpd_poll_strip's rule, polled every HPD_FACTOR_POLL_FLOPS), and at least least rows
 * (HPD_POLL_MIN_STRIP or more).  The panels travel along the process rows on chains, and
 * each hop waits for the process it passes through to enter MPI: polled only between
 * whole pieces, a chain across a node's processes moves one hop a piece, and what it
 * carries (U's pieces, Cholesky's shares down the columns) reaches the chain's end only
 * as the step ends.  Strips of rows keep the update's shape (all of its columns, the
 * panel's width), but each strip is a multiply of its own that packs the shared operand
 * again: a 2048-row update runs about a tenth slower in strips of 256 rows than in one
 * call, a few percent slower in strips of 1024 (timing/notes/2026-12-07.md). */
#define HPD_FACTOR_POLL_FLOPS 4e6

/* The least rows of a strip of LU's update (lu_grid.c says why it can be this tall). */
#define HPD_FACTOR_LU_STRIP 1024

static inline int64_t hpd_factor_strip_rows(int64_t rows, int64_t width, int jb,
                                            int64_t least)
{
  int64_t strip = hpd_poll_strip(HPD_FACTOR_POLL_FLOPS, 2.0 * (double)width * jb, rows);
  if (strip < least)
    strip = least < rows ? least : rows;
  return strip;
}

/* A progress callback (triangle.h) that moves the two broadcasts at arg. */
void hpd_factor_poll(void *arg);

#endif
