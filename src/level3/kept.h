/*
 * The working space of level 3's lines (line.c) and spreads (trmm_spread.c), kept from
 * call to call while it is no more than twice what a call needs: diagonal blocks are
 * small and many, and a large call's pages would cost their first-touch faults again at
 * every call (a spread pdtrmm of order 2048 on 2x1 spent 45 of its 163 ms in them).  One
 * call uses it at a time; contents do not survive a call.
 */
#ifndef HPD_LEVEL3_KEPT_H
#define HPD_LEVEL3_KEPT_H

#include <stddef.h>

/* count doubles, or NULL where memory ran short or count is 0. */
double *hpd_l3_kept(size_t count);

#endif
