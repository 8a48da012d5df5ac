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
 * Sizes the buffers for slots groups of ngrp panels, halving ngrp on the whole grid while any
 * rank cannot (with one warning per job).  Buffers kept from an earlier call are reused
 * when their size fits (core/workspace.h).  `ready` is 0 when this rank already lacks
 * something else it needs (its temporaries): then every rank gives up at once.
 * Returns the agreed N_grp, or 0 when the call cannot be served for lack of memory
 * (then nothing stays allocated).  Collective over comm.
 */
HPD_CHECKED int hpd_buffers_agree(hpd_buffers *bufs, int ngrp, int ready, MPI_Comm comm);

/* Bytes this rank holds in group buffers. */
size_t hpd_buffers_bytes(void);

/* Gives the buffers' space back. */
void hpd_buffers_free(hpd_buffers *bufs);

#endif
