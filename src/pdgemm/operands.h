/*
 * op(sub(A)) and op(sub(B)) as the panel loop reads them on this process.
 *
 * The loop needs op(sub(A))'s rows laid out exactly like sub(C)'s rows, and
 * op(sub(B))'s columns like sub(C)'s columns; along K any block-cyclic layout will do
 * (see panels.h).  An operand that already has that layout is read where it lies: with
 * TRANS = 'N' this is the common case, and always the case of pdgetrf's trailing update.
 * Any other operand is first redistributed, by PBLAS's pdgeadd_ (beta = 0, so a copy or
 * transposition between any two alignments), into a temporary with the needed layout.
 * On a 1x1 grid everything is local, so a transposed operand is read in place too.
 * pdsyrk's B (A under the opposite TRANS) is planned the same way, except with TRANS 'N'
 * on one process row, where it comes from A's group buffer (from_a below).  On one process
 * column any op(B) = B' (pdsyrk's and pdsyr2k's TRANS 'N', pdgemm's TRANSB 'T') is
 * gathered: every process row sends its rows of B to the others (gathered.h).
 */
#ifndef HPD_PDGEMM_OPERANDS_H
#define HPD_PDGEMM_OPERANDS_H

#include <stddef.h>
#include <stdint.h>

#include "core/checked.h"
#include "pblas/call.h"
#include "pblas/layout.h"

typedef struct hpd_operand {
  const hpd_elem *base; /* local storage: the caller's array, or temp */
  int ld;
  int trans;   /* 1: storage holds op(X) transposed (1x1 grids, and B gathered) */
  int64_t lo;  /* storage index of the first row (A) / column (B) of sub(C)'s share */
  hpd_axis k;  /* the K dimension: over process columns for A, process rows for B */
  int64_t k0;  /* storage index of K index 0 on this process's layout of k */
  int travels; /* 1: panels are broadcast (more than one process along k) */
  /* pdsyrk on one process row, TRANS 'N': B = A', and A's broadcast panels already hold,
   * on every process, the rows of A for all of sub(C)'s columns; B's panel is read from
   * A's group buffer, row g for sub(C)'s column g, and nothing else moves. */
  int from_a;
  /* op(B) = B' on one process column: B's rows gathered from every process row
   * (gathered.h), read in place (trans 1: the storage holds B), K whole everywhere. */
  int gathered;
  hpd_axis rows; /* trans B: sub(B)'s rows over the process rows */
  /* A temporary, when the operand has to be redistributed. */
  int copy;
  int desc[HPD_DLEN];
  hpd_elem *temp;
  size_t temp_bytes;
} hpd_operand;

/*
 * Decides, for both operands, whether to read in place or through a temporary, and
 * their K layouts; *kb is the widest panel: kb_forced when > 0, else no limit where a
 * broadcast operand's blocks set the panels, else a width derived from A's K blocks.
 * Depends on descriptor data only: the same on every rank.
 */
void hpd_operands_plan(const hpd_call *call, int kb_forced, hpd_operand *a, hpd_operand *b,
                       int64_t *kb);

/* A pair's (call.h) second operand: sub(B) read in place as op(A) is, its panels broadcast
 * beside A's, while b (planned above) comes from the group buffer.  HPD_OK, with *a2
 * zeroed where the call is no pair; HPD_STATUS_INVALID where a pair cannot be served so. */
HPD_CHECKED hpd_status hpd_operands_plan_pair(const hpd_call *call, const hpd_operand *b,
                                              hpd_operand *a2);

/* Allocates a planned temporary (local; nothing to do without one): HPD_OK, or
 * HPD_STATUS_NO_MEMORY. */
HPD_CHECKED hpd_status hpd_operand_alloc(hpd_operand *x);

/* Fills the temporaries of a and b: pdgeadd_, collective over the grid. */
void hpd_operands_fill(const hpd_call *call, hpd_operand *a, hpd_operand *b);

void hpd_operand_free(hpd_operand *x);

#endif
