/*
 * The types of the engine's loop (summa.h): one call's loop as the engine plans it, and
 * one group of its panels.  The schedules (summa.c), the groups (group.c), the piecewise
 * group (summa_pieces.c) and the gathered B (gathered.c) all work on these, so they live
 * apart from every one of them.
 */
#ifndef HPD_PDGEMM_LOOP_H
#define HPD_PDGEMM_LOOP_H

#include <stdint.h>

#include "bcast/bcast.h"
#include "core/checked.h"
#include "hpdaemon.h"
#include "local/triangle.h"
#include "pblas/grid.h"
#include "pblas/poll.h"
#include "pdgemm/operands.h"
#include "pdgemm/panels.h"

/* Groups in flight at once under overlap, at most: one multiplying, two travelling
 * (ngrp.h). */
#define HPD_SLOTS_MAX 3

typedef struct hpd_summa {
  const hpd_grid *grid;
  int myrow, mycol;
  const hpd_operand *a, *b;
  /* A pair's B (call.h), whose panels travel beside A's; NULL for any other call.  A
   * group's buffers then hold both: [A B] in abuf, [B A]'s rows gathered in bbuf. */
  const hpd_operand *a2;
  const hpd_panels *panels;
  int ngrp;
  int slots; /* groups in flight at once: 1, or 2 to HPD_SLOTS_MAX (overlap) */
  int pieces; /* the most pieces a group travels in: 1, or HPD_PIECES_MAX (overlap) */
  /* Broadcasts a group's handles hold: per panel 1 + pieces (a whole panel of each
   * operand, or its pieces); per group one per block of rows where B is gathered. */
  int handles_per_panel, handles_per_group;
  hpd_strategy strategy; /* a phase switch before each group's broadcasts and multiply */
  hpd_elem alpha;
  hpd_elem *c; /* this process's share of sub(C), mloc x nloc */
  int ldc, mloc, nloc;
  /* The largest share's rows where A travels, else its columns, on any process: where
   * the grid must cut alike (summa.c), the same figure on every rank. */
  int64_t cut_max;
  /* The polls of a whole group's multiply on the largest share (hpd_bcast_batch): the
   * same figure on every rank. */
  int hidden_polls;
  const hpd_triangle *triangle; /* the part of sub(C) to update */
  char zeros_in, zeros_uplo;    /* the call's (call.h) */
  /* Group buffers, per slot: abuf mloc x width, bbuf nloc x width (B transposed, or
   * B's rows gathered from A's panels where B is read from them, or sub(B)'s rows in
   * global order where B is gathered), handles for handles_per_panel * ngrp +
   * handles_per_group broadcasts,
   * slot after slot; unused ones may be NULL. */
  hpd_elem *abuf, *bbuf;
  hpd_bcast *handles;
} hpd_summa;

/* Operands a group's A buffer holds side by side: 2 for a pair, else 1. */
HPD_CHECKED int hpd_summa_sides(const hpd_summa *s);

/* Broadcast steps of a run over panels panels: 0 when no operand travels. */
HPD_CHECKED int hpd_summa_steps(const hpd_summa *s, int panels);

/* hpd_triangle_update_part (triangle.h) of panels [g0, g1), w columns, on the part of the
 * share they meet: part, narrowed where op(A) or op(B) holds zeros (call.h); a starts at
 * part's first row and b at its first column, as there. */
void hpd_summa_update_part(const hpd_summa *s, int64_t g0, int64_t g1, char ta, char tb, int w,
                           const hpd_elem *a, int lda, const hpd_elem *b, int ldb,
                           hpd_elem *gather_into, const hpd_share_part *part,
                           const hpd_progress *progress);

/* One group of panels of the loop (group.h). */
typedef struct hpd_group {
  int64_t g0, g1; /* panels [g0, g1) of K */
  hpd_elem *abuf, *bbuf;
  hpd_bcast *handles;
  int used; /* handles started */
} hpd_group;

#endif
