/*
 * The same call again.  A call that the dispatch rule sent to the reference because its
 * class had settled there is remembered, with every argument that its checks and its
 * route read; an identical call of the same routine on the same grid, under the same
 * strategy and dispatch mode, then goes to the reference without them.  A program that
 * repeats its small calls (an iteration's solve, a batch of equal updates) so pays the
 * reference's price plus a comparison, and no more: the checks, the locality test and the
 * class lookup cost a tenth of a microsecond or two, a percent or two of a call of order
 * 64.  Only routes that every rank of the grid took alike from the same settled class
 * are remembered, so every rank of a grid that repeats a call takes it to the
 * reference, remembered or not.
 */
#ifndef HPD_PDGEMM_REPEAT_H
#define HPD_PDGEMM_REPEAT_H

#include "dispatch.h"
#include "hpdaemon.h"

#define HPD_REPEAT_WORDS 56

typedef struct hpd_repeat_key {
  int word[HPD_REPEAT_WORDS];
  int count; /* -1: the call cannot be told from another (a descriptor of unknown type) */
  int ictxt; /* A's context */
} hpd_repeat_key;

/* A key for one call of routine: its letters, then its extents, then each matrix. */
void hpd_repeat_begin(hpd_repeat_key *key, hpd_routine routine, const char *letters,
                      int count, double alpha);
void hpd_repeat_extents(hpd_repeat_key *key, int m, int n, int k);
void hpd_repeat_matrix(hpd_repeat_key *key, int i, int j, const int *desc);

/* 1 when a call with this key went to the reference by its class's settled route on
 * the grid the key's context names now. */
int hpd_repeat_is_reference(const hpd_repeat_key *key);

/* Remembers the call's route where it is one a repeat may take again (ticket: the
 * dispatch rule's, after the call). */
void hpd_repeat_remember(const hpd_repeat_key *key, const hpd_dispatch_ticket *ticket,
                         int reason);

#endif
