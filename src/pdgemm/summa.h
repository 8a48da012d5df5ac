/*
 * The outer-product loop (SUMMA), grouped: ngrp k-panels are broadcast together, A's
 * along process rows and B's along process columns, all in flight at once; then one
 * local dgemm of the group's whole width updates C.  A factor that does not travel
 * (a single process column for A, a single process row for B) is read in place.  A
 * group of one panel of A (every call of LU's and Cholesky's trailing updates) goes out
 * from its owner's own columns, unpacked, and the owner multiplies from them.
 *
 * With two slots (the overlap schedule) group g+1's broadcasts start before group g's
 * multiply, which polls them between strips of its columns so that they keep moving;
 * nothing switches the frequency.  A group that nothing hides (the first, or every one
 * where groups run in turn under that schedule) travels in pieces instead, each
 * multiplied as soon as it has arrived (summa_pieces.h); a pair's group travels whole.
 */
#ifndef HPD_PDGEMM_SUMMA_H
#define HPD_PDGEMM_SUMMA_H

#include <stdint.h>

#include "bcast/bcast.h"
#include "hpdaemon.h"
#include "pblas/grid.h"
#include "pblas/poll.h"
#include "pdgemm/operands.h"
#include "pdgemm/panels.h"
#include "pdgemm/triangle.h"

typedef struct hpd_summa {
  const hpd_grid *grid;
  int myrow, mycol;
  const hpd_operand *a, *b;
  /* A pair's B (call.h), whose panels travel beside A's; NULL for any other call.  A
   * group's buffers then hold both: [A B] in abuf, [B A]'s rows gathered in bbuf. */
  const hpd_operand *a2;
  const hpd_panels *panels;
  int ngrp;
  int slots; /* groups in flight at once: 1, or 2 (overlap) */
  int pieces; /* the most pieces a group travels in: 1, or HPD_PIECES_MAX (overlap) */
  /* Broadcasts a group's handles hold: per panel 1 + pieces (a whole panel of each
   * operand, or its pieces); per group one per block of rows where B is gathered. */
  int handles_per_panel, handles_per_group;
  hpd_strategy strategy; /* a phase switch before each group's broadcasts and multiply */
  double alpha;
  double *c; /* this process's share of sub(C), mloc x nloc */
  int ldc, mloc, nloc;
  const hpd_triangle *triangle; /* the part of sub(C) to update */
  /* Group buffers, per slot: abuf mloc x width, bbuf nloc x width (B transposed, or
   * B's rows gathered from A's panels where B is read from them, or sub(B)'s rows in
   * global order where B is gathered), handles for handles_per_panel * ngrp +
   * handles_per_group broadcasts,
   * slot after slot; unused ones may be NULL. */
  double *abuf, *bbuf;
  hpd_bcast *handles;
} hpd_summa;

/* Operands a group's A buffer holds side by side: 2 for a pair, else 1. */
int hpd_summa_sides(const hpd_summa *s);

/* Broadcast steps of a run over panels panels: 0 when no operand travels. */
int hpd_summa_steps(const hpd_summa *s, int panels);

/* C += alpha * op(A) * op(B); collective over the grid.  Ends on an energy mark (phase
 * other), so hpd_energy_sample_at_mark then gives the sample at the loop's end. */
void hpd_summa_run(const hpd_summa *s);

#endif
