/*
 * The k-panels of the outer-product loop.  A panel must lie inside one block of every
 * operand that is broadcast, so that one process column owns its A part and one process
 * row its B part; panels are therefore cut at the block starts of A's columns (when A
 * travels along process rows), at those of B's rows (when B travels along process
 * columns), and every kb indices.  Cutting at the union of both block structures avoids
 * any least-common-multiple blocking: mismatched block sizes just give some narrower
 * panels, which the grouping merges into one wide multiply anyway.
 * Panels are computed on the fly, from descriptor data only, so all ranks agree.
 */
#ifndef HPD_PDGEMM_PANELS_H
#define HPD_PDGEMM_PANELS_H

#include <stdint.h>

#include "core/checked.h"
#include "pblas/layout.h"

typedef struct hpd_panels {
  int64_t k;              /* the K extent */
  const hpd_axis *a_cuts; /* A's K layout when A is broadcast, else NULL */
  const hpd_axis *b_cuts; /* B's K layout when B is broadcast, else NULL */
  int64_t kb;             /* the widest panel allowed */
} hpd_panels;

/* Where the panel starting at k0 (< k) ends. */
int64_t hpd_panel_end(const hpd_panels *p, int64_t k0);

/* The number of panels, and the width of the widest. */
HPD_CHECKED int hpd_panel_count(const hpd_panels *p, int *widest);

/* The widest sum of widths of ngrp consecutive panels, wherever a group starts: the
 * overlap schedule's groups do not start at multiples of ngrp (summa.c). */
int64_t hpd_group_widest(const hpd_panels *p, int ngrp);

#endif
