/*
 * Block-cyclic index arithmetic along one dimension.  An axis is the layout of a run of
 * global indices 0, 1, ...: a first block of `first` indices, then blocks of `nb`,
 * dealt round-robin to `nprocs` processes starting at `src`.  A PBLAS descriptor gives
 * one axis per dimension (the first block is IMB/INB, or MB/NB for DTYPE 1), and a
 * sub-matrix starting inside a block is again an axis, with a shorter first block; so
 * offsets inside blocks and 11-entry descriptors need no special cases anywhere else.
 * Every function is local and depends only on descriptor data, which is what lets all
 * ranks take the same decisions without talking to each other.
 */
#ifndef HPD_PBLAS_LAYOUT_H
#define HPD_PBLAS_LAYOUT_H

#include <stdint.h>

#include "core/checked.h"

typedef struct hpd_axis {
  int first;  /* size of block 0, >= 1 (may exceed the extent in use) */
  int nb;     /* size of blocks 1, 2, ..., >= 1 */
  int src;    /* process holding block 0, in [0, nprocs) */
  int nprocs; /* processes the dimension is dealt over, >= 1 */
} hpd_axis;

/* How many of the indices [0, n) process p holds. */
int64_t hpd_axis_count(const hpd_axis *ax, int64_t n, int p);

/* The process holding index i. */
HPD_CHECKED int hpd_axis_owner(const hpd_axis *ax, int64_t i);

/* Where index i sits in its owner's local storage of this axis (0-based). */
int64_t hpd_axis_local(const hpd_axis *ax, int64_t i);

/* The global index of process p's local index j (the inverse of hpd_axis_local). */
int64_t hpd_axis_global(const hpd_axis *ax, int64_t j, int p);

/* The first block start after index i. */
int64_t hpd_axis_next_boundary(const hpd_axis *ax, int64_t i);

/* Process p's local indices [l, end) in runs that are consecutive globally (one block of
 * the dealing each, or what of it the range holds). */
typedef struct hpd_axis_runs {
  const hpd_axis *axis;
  int p;
  int64_t l, end;
} hpd_axis_runs;

/* The next run: its first local index *l, its global index *g and its length *len; 0
 * when none is left. */
HPD_CHECKED int hpd_axis_next_run(hpd_axis_runs *r, int64_t *l, int64_t *g, int64_t *len);

/* The axis of the indices i0, i0+1, ... renumbered from 0. */
hpd_axis hpd_axis_from(const hpd_axis *ax, int64_t i0);

/* 1 when a and b put each of the indices [0, n) on the same process at the same local
 * position, so data laid out by one can be used in place of the other. */
HPD_CHECKED int hpd_axis_same(const hpd_axis *a, const hpd_axis *b, int64_t n);

/* The most indices of [0, n) that any one process holds. */
int64_t hpd_axis_max_count(const hpd_axis *ax, int64_t n);

#endif
