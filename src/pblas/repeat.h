/*
 * The same call again.  A call that the dispatch rule sent to the reference because its
 * class had settled there, or that lived on one process (the local route), is
 * remembered, with every argument that its checks and its route read; an identical call
 * of the same routine on the same grid, under the same strategy and dispatch mode, then
 * takes the same route without them, a local one straight to the BLAS at the place
 * remembered.  A program that repeats its small calls (an iteration's solve, a batch of
 * equal updates) so pays the reference's or the BLAS's price plus a comparison, and no
 * more: the checks, the locality test and the class lookup cost a tenth of a microsecond
 * or two, as much as a whole call of order 8, a percent or two of one of order 64.  Only
 * routes that every rank of the grid took alike are remembered (a settled class, or the
 * descriptors alone), so every rank of a grid that repeats a call takes the same route,
 * remembered or not.
 */
#ifndef HPD_PBLAS_REPEAT_H
#define HPD_PBLAS_REPEAT_H

#include "core/checked.h"
#include "hpdaemon.h"
#include "pblas/dispatch.h"

#define HPD_REPEAT_WORDS 56

typedef struct hpd_repeat_key {
  int word[HPD_REPEAT_WORDS];
  int count; /* -1: the call cannot be told from another (a descriptor of unknown type) */
  int ictxt; /* A's context */
} hpd_repeat_key;

/* The key of a call of routine: its letters (count of them), whether alpha is zero, its
 * extents, then sub(A), sub(B) and sub(C) at their 1-based offsets; descb or descc NULL
 * where the routine has no such operand. */
void hpd_repeat_key_of(hpd_repeat_key *key, hpd_routine routine, const char *letters,
                       int count, hpd_elem alpha, int m, int n, int k, int ia, int ja,
                       const int *desca, int ib, int jb, const int *descb, int ic, int jc,
                       const int *descc);

/* A repeat on the local route is timed once in this many: its multiply takes as long as
 * two clock reads, and identical calls take alike (entry.c, the statistics). */
#define HPD_REPEAT_TIMED_EVERY 16

/* The route a call with this key took, where a repeat takes it again on the grid the
 * key's context names now: HPD_ROUTE_REFERENCE (its class's settled route), or
 * HPD_ROUTE_LOCAL with *place set and *calls the repeats that this one's time stands
 * for (HPD_REPEAT_TIMED_EVERY, or 0: not timed); HPD_ROUTE_ENGINE where nothing is
 * remembered. */
HPD_CHECKED hpd_route hpd_repeat_route(const hpd_repeat_key *key, hpd_local_place *place,
                                       int *calls);

/* Remembers the call's route where it is one a repeat may take again (ticket: the
 * dispatch rule's, after the call); a local one only where `local` says the routine's
 * entry can run it again (entry.h). */
void hpd_repeat_remember(const hpd_repeat_key *key, const hpd_dispatch_ticket *ticket,
                         int reason, int local);

#endif
