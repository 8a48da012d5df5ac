/*
 * The group buffers, and the agreement on N_grp.  Allocation is local and can fail on
 * some ranks only; a rank that went on alone would leave the others waiting in a
 * broadcast.  So every attempt ends in one allreduce over the grid, and all ranks take
 * the same decision from its result: go on, halve N_grp and try again, or give up.
 */
#ifndef HPD_PDGEMM_BUFFERS_H
#define HPD_PDGEMM_BUFFERS_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#include "bcast/bcast.h"
#include "core/checked.h"
#include "kernel/elem.h"
#include "pblas/grid.h"
#include "pdgemm/panels.h"

typedef struct hpd_buffers {
  /* What the loop needs: which factors travel, this process's share of sub(C). */
  const hpd_panels *panels;
  int a_travels, b_travels;
  int b_gathers; /* B's rows are gathered from A's panels (pdsyrk on one process row) */
  int sides;     /* operands per A buffer: 2 for pdsyr2k's pair (summa.h), else 1 */
  int64_t mloc, nloc;
  int slots; /* groups in flight at once: 1, or 2 for the overlap schedule */
  int handles_per_panel; /* broadcasts a panel may need (summa.h) */
  int handles_per_group; /* and a group, besides its panels' */
  double budget;         /* the most bytes the process's kept space should hold */
  /* Where they lie: areas of the process's kept space (core/workspace.h). */
  hpd_elem *a, *b;
  hpd_bcast *handles;
} hpd_buffers;

/*
 * The group buffers grow over a program's calls instead of at once.  A fresh page costs
 * its first write (alloc_large.h), and the threshold's group of all the panels of a
 * large call on one node is a sixth of that call's time in fresh pages, while the
 * engine's lead there is its grouped multiply's tenth, which groups of a few hundred
 * columns already have.  So a call groups no more panels than the pages the grid has made
 * hold (at least the groups its schedule has in flight at once, HPD_OVERLAP_COLUMNS wide
 * each: one for daemon, two for overlap and auto, one multiplying and one ahead; made in
 * the call), and after its multiply pays forward: it makes and writes pages toward the
 * threshold's group for HPD_GROWTH_SHARE of its own time, the margin by which the engine
 * must beat the reference to settle a class (pblas/dispatch.c), and no longer than the
 * grid's spare allows (pblas/grid.h): only a call of a class settled on the engine pays,
 * and only until the reference's figure has passed since it began, so that a call that
 * pays is no slower than the reference's.  The threshold's N_grp is reached over a few
 * calls of a size.  Only under HPD_DISPATCH=auto with N_grp from the threshold:
 * HPD_NGRP and the engine's studies (HPD_DISPATCH=engine) group as the method says from
 * the first call, and so does the simulator, whose pages take no time.
 */
#define HPD_GROWTH_SHARE 0.05

typedef struct hpd_growth {
  int grows;              /* the buffers may grow over calls (above) */
  int target;             /* the threshold's N_grp */
  int ngrp;               /* this call's: what the grid's made pages hold */
  int capped;             /* ngrp < target on some rank of the grid (after the agreement) */
  int64_t a_rows, b_rows; /* a panel column's rows in each buffer, 0 where not needed */
  int64_t columns;        /* a panel's columns */
} hpd_growth;

/* This call's N_grp within the threshold's target, from the pages the grid has made for
 * panels of columns columns, whose buffers hold a_rows and b_rows rows (0: not needed;
 * the grid's largest shares, so that every rank takes the same figures), and groups_at_once
 * groups of HPD_OVERLAP_COLUMNS columns at least.  Where it is below the target, the
 * target's space is held (its pages made as they are used). */
hpd_growth hpd_buffers_growth(const hpd_grid *grid, int target, int64_t a_rows,
                              int64_t b_rows, int64_t columns, double budget,
                              int groups_at_once);

/* After the multiply of a call that has taken call_s so far, where growth.capped: makes
 * pages toward the target's buffers for as long as the share and the grid's spare allow,
 * then agrees with the grid on what is made.  Collective, where the grid has anything to
 * spare (the same answer on every rank). */
void hpd_buffers_pay_forward(const hpd_grid *grid, const hpd_growth *growth, double call_s,
                             double budget);

/*
 * Sizes the buffers for slots groups of ngrp panels, halving ngrp on the whole grid while any
 * rank cannot (with one warning per job).  Buffers kept from an earlier call are reused
 * when their size fits (core/workspace.h).  `ready` is 0 when this rank already lacks
 * something else it needs (its temporaries): then every rank gives up at once.
 * Returns the agreed N_grp, or 0 when the call cannot be served for lack of memory
 * (then nothing stays allocated).  Sets growth->capped where any rank's call was capped
 * below its target.  Collective over comm.
 */
HPD_CHECKED int hpd_buffers_agree(hpd_buffers *bufs, int ngrp, int ready, MPI_Comm comm,
                                  hpd_growth *growth);

/* Bytes this rank holds in group buffers. */
size_t hpd_buffers_bytes(void);

/* Gives the buffers' space back. */
void hpd_buffers_free(hpd_buffers *bufs);

#endif
