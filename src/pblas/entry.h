/*
 * The one path of every ScaLAPACK entry point that hpdaemon defines (hpd_pdgemm,
 * hpd_pdtrsm, ..., hpd_pdgetrf, hpd_pdlaswp): the report armed, the call timed, a call
 * that repeats one settled on the reference handed to it unchecked (repeat.h), the
 * routine's own checks and service, the reference where something is left for it, and
 * the statistics and the dispatch's learning from the time the whole call took.  A
 * routine supplies only what differs: its key, its service and its reference.
 */
#ifndef HPD_PBLAS_ENTRY_H
#define HPD_PBLAS_ENTRY_H

#include "core/checked.h"
#include "core/stats.h" /* the verdicts */
#include "kernel/elem.h"
#include "pblas/dispatch.h"
#include "pblas/repeat.h"

typedef struct hpd_entry {
  hpd_routine routine;
  /* Fills the call's key for remembered calls; NULL where the routine's calls are not
   * remembered (its service decides from the call alone, without the dispatch rule). */
  void (*key)(const void *args, hpd_repeat_key *key);
  /* Checks the call and serves what it can.  Returns the verdict for the statistics
   * (HPD_SERVED_* or HPD_FALLBACK_*) and sets *done to 1 where nothing is left for the
   * reference, which otherwise finds the call's output untouched.  ticket: the
   * dispatch rule's, where it routed the call. */
  int (*serve)(const void *args, hpd_dispatch_ticket *ticket, int *done);
  /* Or, where serve is NULL, a service that serves a call whole or leaves all of it to
   * the reference (no remembered calls): its verdict says which (hpd_entry_served).
   * ticket: the dispatch rule's, where the service asks it (the factorizations). */
  int (*serve_whole)(const void *args, hpd_dispatch_ticket *ticket);
  /* The installed ScaLAPACK's routine on the call's own arguments. */
  void (*reference)(const void *args);
  /* Runs a repeat of a call remembered on the local route (repeat.h) at place; NULL where
   * the routine's local calls are not remembered. */
  void (*again)(const void *args, const hpd_local_place *place);
  /* 1: where the dispatch rule routes a call to the reference, the installed routine runs
   * whole, the calls it makes to routines hpdaemon defines going straight to their
   * references (counted as direct): the factorizations, whose engine is timed against
   * exactly the library it replaces, and which a reference over hpdaemon's level 3 would
   * make slower while that level's own classes are still being learned. */
  int reference_whole;
} hpd_entry;

void hpd_entry_run(const hpd_entry *entry, const void *args);

/* The arguments of the routines that update sub(C) from sub(A) and sub(B): pdgemm
 * (TRANSA TRANSB, M N K), pdsyrk (UPLO TRANS, N K; no sub(B)), pdsymm (SIDE UPLO, M N)
 * and pdsyr2k (UPLO TRANS, N K).  Extents a routine does not take are 0. */
typedef struct hpd_sum_args {
  char first, second;
  int m, n, k;
  hpd_elem alpha;
  const hpd_elem *a;
  int ia, ja;
  const int *desca;
  const hpd_elem *b; /* NULL for pdsyrk */
  int ib, jb;
  const int *descb;
  hpd_elem beta;
  hpd_elem *c;
  int ic, jc;
  const int *descc;
} hpd_sum_args;

/* The key of such a call of routine, over the extents m, n, k its checks read. */
void hpd_sum_args_key(const hpd_sum_args *x, hpd_routine routine, int m, int n, int k,
                      hpd_repeat_key *key);

/* 1 for the verdicts of a call served here whole (by the engine, or by one local
 * kernel): what a service that leaves no part to the reference sets *done from. */
HPD_CHECKED int hpd_entry_served(int reason);

#endif
