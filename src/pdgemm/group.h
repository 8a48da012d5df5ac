/*
 * One group of panels of the SUMMA loop (summa.h): which panels, the slot of buffers it
 * travels in, how it travels whole and how it is multiplied once it has arrived.  The
 * schedules (summa.c) and the piecewise group (summa_pieces.h) are built from these.
 */
#ifndef HPD_PDGEMM_GROUP_H
#define HPD_PDGEMM_GROUP_H

#include <stddef.h>
#include <stdint.h>

#include "pdgemm/loop.h"

/* The group of up to most (<= s->ngrp) panels from g0, in the given slot of slot_width
 * columns. */
hpd_group hpd_group_at(const hpd_summa *s, int64_t g0, int most, int slot,
                       int64_t slot_width);

/* Starts the broadcasts of the whole group: the owner packs its panel into the group
 * buffer, which every rank then broadcasts in place (a one-panel group of A goes out
 * from its owner's own columns instead).  With only_b, B's panels alone. */
void hpd_group_start(const hpd_summa *s, hpd_group *grp, int only_b);

/* Multiplies a group that has arrived whole; progress may be NULL. */
void hpd_group_multiply(const hpd_summa *s, const hpd_group *grp,
                        const hpd_progress *progress);

/* The bytes this rank's broadcasts of a group of width columns move. */
size_t hpd_group_bytes(const hpd_summa *s, int64_t width);

/* A progress callback that keeps a group's broadcasts moving (arg: the hpd_group). */
void hpd_group_poll(void *arg);

#endif
