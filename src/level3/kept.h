/*
 * The working space of level 3's lines (line.c), spreads (spread.c), wavefronts
 * (trsm_wave.c) and sums (syr2k_sums.c): one area of the process's space kept from call
 * to call (core/workspace.h).
 */
#ifndef HPD_LEVEL3_KEPT_H
#define HPD_LEVEL3_KEPT_H

#include <mpi.h>
#include <stddef.h>

#include "core/checked.h"
#include "kernel/elem.h"

/* count elements, or NULL where memory ran short or count is 0; budget as
 * hpd_grid_budget gives it for the call's grid. */
HPD_CHECKED hpd_elem *hpd_l3_kept(size_t count, double budget);

/* Whether every process of comm has its working space (ok: this one has), where need is
 * the most bytes any of them asked for, from descriptor data: agreed on with one
 * allreduce where need is large enough that memory could run short, so that all turn to
 * another way together; below that, a process without it stops the program, saying what
 * it lacked (every process has already taken this way). */
HPD_CHECKED int hpd_l3_kept_agreed(MPI_Comm comm, size_t need, int ok, const char *what);

#endif
