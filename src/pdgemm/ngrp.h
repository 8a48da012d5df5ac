/*
 * How many panels travel as one group (N_grp), from the memory threshold:
 *   extra bytes per node = ranks_per_node * N_grp * element bytes * (mloc*kb + kb*nloc)
 *                        <= S_mem * T_mem,
 * with mloc/nloc the largest local sizes of sub(C) on any process (so every rank gets
 * the same answer), S_mem the node's memory or its cgroup limit if lower.
 */
#ifndef HPD_PDGEMM_NGRP_H
#define HPD_PDGEMM_NGRP_H

#include <stdint.h>

#include "core/checked.h"

/* The threshold formula's extra bytes per rank for ngrp panels of width kb. */
uint64_t hpd_ngrp_bytes(int ngrp, int64_t mloc_max, int64_t nloc_max, int kb);

/*
 * N_grp for `panels` panels of width at most kb: `forced` (HPD_NGRP) when > 0, else the
 * largest power of two that keeps hpd_ngrp_bytes within budget (the grid's,
 * hpd_grid_budget).  Always in [1, panels] (1 when panels is 0).
 */
HPD_CHECKED int hpd_ngrp_choose(int forced, double budget, int64_t mloc_max,
                                int64_t nloc_max, int kb, int panels);

/* Columns a group of the overlap schedule spans, about: wide enough for the local multiply
 * to run at its full rate, narrow enough that the first group's broadcasts, the only
 * ones nothing hides, stay a small share of the call. */
#define HPD_OVERLAP_COLUMNS 256

/*
 * Overlap's grouping, ahead (1 or 2) groups travelling while one multiplies: forced
 * (HPD_NGRP) panels each when > 0, else groups about HPD_OVERLAP_COLUMNS wide of which
 * ahead + 1 fit where mem_ngrp (hpd_ngrp_choose's answer) panels do (two where that many
 * do not).  *slots is the groups in flight at once, ahead + 1 (fewer where the call has
 * fewer groups), or 1 where fewer than two panels fit or there is only one (then groups
 * run one after the other, nothing switched).
 */
HPD_CHECKED int hpd_ngrp_overlap(int forced, int mem_ngrp, int widest, int panels, int ahead,
                                 int *slots);

#endif
