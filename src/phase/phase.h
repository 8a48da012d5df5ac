/*
 * The phases of a piece of work, as one service: entering a phase applies the strategy's
 * frequency for it (or holds the request back, counted as held), and marks the energy
 * ledger at the frequency in force from there on; work outside the strategies' phases
 * only marks the ledger.  The engine, level 3 and the factorizations enter and leave
 * their phases through here alone.
 *
 * Whether the daemon strategy switches down for a group of broadcasts.  A switch pair
 * costs the power model's switch energy twice; the low frequency saves the difference in
 * power for as long as the broadcasts last.  A group predicted shorter than the
 * break-even (or than HPD_SWITCH_MIN_MS) keeps the high frequency: its two requests are
 * held, and counted as such.  The basic strategy is the paper's baseline and always
 * switches.
 */
#ifndef HPD_PHASE_PHASE_H
#define HPD_PHASE_PHASE_H

#include <stddef.h>

#include "core/checked.h"
#include "hpdaemon.h"

/* 1 if the strategy switches around a group whose broadcasts move bytes on this rank:
 * their time is predicted at the rate (wall seconds per byte, waits included) of this
 * rank's broadcasts so far; before the first one there is no rate, and it switches. */
HPD_CHECKED int hpd_phase_pays(hpd_strategy strategy, size_t bytes);

/* Enters a phase: the strategy's frequency for it where switching (what
 * hpd_switch_pays said for the group), else the request is held back; the energy ledger
 * books the time from here on to the phase either way. */
void hpd_phase_enter(hpd_strategy strategy, int switching, hpd_phase phase);

/* Marks the ledger alone: phase (HPD_PHASE_OTHER too) from here on, at the frequency in
 * force, for work that runs under no switch of its own. */
void hpd_phase_mark(hpd_phase phase);

/* The strategy a piece of work with a single schedule is booked under (level 3's lines,
 * the look-ahead factorizations): the configured one, auto being daemon, since there is
 * nothing for auto to choose between. */
hpd_strategy hpd_strategy_booked(void);

#endif
