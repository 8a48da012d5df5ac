/*
 * Working space kept from call to call, for the whole process, in one place.  A large
 * call's pages cost their first-touch faults at every call where its space is made
 * afresh (alloc_large.c), so each area keeps its block for every call that needs no more
 * than it holds, and is made afresh, its pages made at once, only where a call needs
 * more.  An area that shrank to a smaller call would be made afresh at the next larger
 * one: a program alternating two sizes paid fresh pages at every call (pdgemm on 2x1,
 * orders 2048 and 1024 in turn: calls 1.4 to 2.3 times the reference's).  What an area
 * holds was within the budget when it was made.  Contents do not survive a call.
 *
 * Areas nest: a factorization's space stays in use while its panels go through level 3,
 * and level 3's while its blocks go through the engine; an area's layer is never in use
 * while a layer it encloses asks for space.  One account covers them all: where an area
 * must grow and the areas together would hold more than the budget the caller states
 * (the memory threshold's share of a process), areas of the layers inside it give theirs
 * back first, in the order below, until the account fits.  The space is the process's,
 * not a grid's: a process runs one call at a time (ScaLAPACK is not thread-safe), and
 * grids are kept for the whole run, so space kept per grid would stay held for grids no
 * longer used.
 */
#ifndef HPD_CORE_WORKSPACE_H
#define HPD_CORE_WORKSPACE_H

#include <stddef.h>

#include "core/checked.h"

/* Outermost layer first. */
typedef enum hpd_area {
  HPD_AREA_FACTOR,         /* the factorizations' panels, indices and requests */
  HPD_AREA_LEVEL3,         /* level 3's lines, spreads, wavefronts and sums */
  HPD_AREA_ENGINE_A,       /* the engine's group buffers of sub(A)'s panels */
  HPD_AREA_ENGINE_B,       /* of sub(B)'s */
  HPD_AREA_ENGINE_HANDLES, /* and the handles of their broadcasts */
  HPD_AREAS
} hpd_area;

/* bytes of area's space, or NULL where memory ran short (the area is then empty) or
 * bytes is 0.  budget: the most bytes all areas should hold together. */
HPD_CHECKED void *hpd_workspace_get(hpd_area area, size_t bytes, double budget);

/* Holds at least bytes of area's space, its pages not made where the space is new (the
 * reserve of a buffer that grows over calls: pdgemm/buffers.h); 0 where memory ran short
 * (the area is then empty).  hpd_workspace_get makes the pages of what it returns. */
HPD_CHECKED int hpd_workspace_reserve(hpd_area area, size_t bytes, double budget);

/* The first bytes of area's space whose pages are made. */
size_t hpd_workspace_made(hpd_area area);

/* Makes the pages of up to piece bytes more of area's space, toward its first bytes (no
 * further than it holds); returns the bytes made. */
size_t hpd_workspace_make_piece(hpd_area area, size_t bytes, size_t piece);

/* Frees area's space. */
void hpd_workspace_give_back(hpd_area area);

/* Bytes area holds, and all areas together. */
size_t hpd_workspace_bytes(hpd_area area);
size_t hpd_workspace_held(void);

#endif
