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
                       int count, double alpha, int m, int n, int k, int ia, int ja,
                       const int *desca, int ib, int jb, const int *descb, int ic, int jc,
                       const int *descc);

/* 1 when a call with this key went to the reference by its class's settled route on
 * the grid the key's context names now. */
HPD_CHECKED int hpd_repeat_is_reference(const hpd_repeat_key *key);

/* Remembers the call's route where it is one a repeat may take again (ticket: the
 * dispatch rule's, after the call). */
void hpd_repeat_remember(const hpd_repeat_key *key, const hpd_dispatch_ticket *ticket,
                         int reason);

#endif
