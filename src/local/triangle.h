/*
 * The local updates of sub(C) restricted to one triangle, for pdsyrk: only the entries
 * (i, j) of sub(C) with i <= j (upper) or i >= j (lower), counted from sub(C)'s first
 * row and column, may be read or written.  A process's share of sub(C) meets the
 * diagonal in scattered blocks, so each local column knows its triangle by the number
 * of its local rows above the diagonal, which the block-cyclic layout gives directly.
 * With uplo 0 the whole share is updated, as pdgemm does.
 */
#ifndef HPD_LOCAL_TRIANGLE_H
#define HPD_LOCAL_TRIANGLE_H

#include <stdint.h>

#include "kernel/elem.h"
#include "pblas/layout.h"

typedef struct hpd_triangle {
  char uplo;        /* 'U', 'L', or 0 for the whole of sub(C) */
  hpd_axis rows;    /* sub(C)'s rows from its first row on */
  hpd_axis cols;    /* sub(C)'s columns from its first column on */
  int myrow, mycol; /* this process */
  int64_t m, n;     /* sub(C)'s extent */
  int b_is_a;       /* op(b) is op(a)': a diagonal block is one dsyrk (pdsyrk) */
  /* pdsyr2k's pair (call.h): op(a) is [A B], w columns, A's w/2 first, and op(b) is
   * [B A]' (gathered with its halves swapped), so that op(a) * op(b) = A B' + B A' and a
   * diagonal block is one dsyr2k. */
  int pair;
} hpd_triangle;

/* C := beta*C on the triangle of this process's share (mloc x nloc, leading dimension
 * ldc); beta = 0 writes zeros without reading, beta = 1 touches nothing. */
void hpd_triangle_scale(const hpd_triangle *t, hpd_elem *c, int ldc, int64_t mloc,
                        int64_t nloc, hpd_elem beta);

/* What an update calls between strips of columns, so that broadcasts in flight keep
 * moving while the core multiplies (the overlap schedule): poll(arg) after every strip
 * of about strip_flops operations (and at least 64 columns). */
typedef struct hpd_progress {
  void (*poll)(void *arg);
  void *arg;
  double strip_flops;
} hpd_progress;

/*
 * C += alpha * op(a) * op(b) on the triangle of this process's share, where op(a) is
 * mloc x w (ta 'N': a is mloc x w; 'T': w x mloc) and op(b) is w x nloc (tb 'T': b is
 * nloc x w; 'N': w x nloc), as dgemm takes them.  With gather_into (uplo only, tb 'T'),
 * b's row for a column is the column's global index in sub(C), not its local one: the
 * rows are gathered in local order into gather_into (nloc x w), so that one multiply
 * spans several blocks of columns.  progress may be NULL: one pass, nothing called.
 */
void hpd_triangle_update(const hpd_triangle *t, char ta, char tb, int w, hpd_elem alpha,
                         const hpd_elem *a, int lda, const hpd_elem *b, int ldb,
                         hpd_elem *gather_into, hpd_elem *c, int ldc, int mloc, int nloc,
                         const hpd_progress *progress);

/* A part of this process's share: local rows [r0, r1), local columns [c0, c1). */
typedef struct hpd_share_part {
  int64_t r0, r1, c0, c1;
} hpd_share_part;

/* hpd_triangle_update on one part of the share only, where a starts at the part's first
 * row (op(a)'s row r0 is a's row 0) and b at its first column, as a group that travels
 * in pieces (summa_pieces.h) holds them; gather_into, if given, still reads b whole. */
void hpd_triangle_update_part(const hpd_triangle *t, char ta, char tb, int w, hpd_elem alpha,
                              const hpd_elem *a, int lda, const hpd_elem *b, int ldb,
                              hpd_elem *gather_into, hpd_elem *c, int ldc, int mloc, int nloc,
                              const hpd_share_part *part, const hpd_progress *progress);

#endif
