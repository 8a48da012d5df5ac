/* One pdgemm or pdsyrk call, its arguments normalized and checked the way PBLAS checks
 * them.  A pdsyrk call is the multiply sub(A) * sub(A)' (or sub(A)' * sub(A)) restricted
 * to one triangle of sub(C): B is A, with the opposite TRANS. */
#ifndef HPD_PBLAS_CALL_H
#define HPD_PBLAS_CALL_H

#include "core/checked.h"
#include "kernel/elem.h"
#include "pblas/layout.h"
#include "pblas/scalapack_api.h"

typedef struct hpd_matrix {
  int desc[HPD_DLEN]; /* always the 11-entry form */
  int i, j;           /* 0-based first row and column of the sub-matrix */
} hpd_matrix;

/* Where a call that lives on one process runs (local/direct.h): whether this process is
 * the one, where sub(A), sub(B) and sub(C) start in its arrays, in entries, and their
 * leading dimensions. */
typedef struct hpd_local_place {
  int computes;
  int64_t a, b, c;
  int lda, ldb, ldc;
} hpd_local_place;

typedef struct hpd_call {
  char uplo;           /* pdsyrk: 'U' or 'L', the triangle of sub(C); pdgemm: 0 */
  char transa, transb; /* 'N' or 'T' ('C' is 'T' for real data) */
  int m, n, k;
  hpd_elem alpha, beta;
  const hpd_elem *a, *b;
  hpd_elem *c;
  hpd_matrix A, B, C;
  int ictxt, nprow, npcol, myrow, mycol;
  /* pdsyrk: op(B) is op(A)' (B is A): diagonal blocks of the triangle are dsyrk's, and B
   * may come from A's broadcasts.  0 for a triangle update by two different operands. */
  int b_is_a;
  /* pdsyr2k on one process row, TRANS 'N' (transa 'N', transb 'T'): both of its products,
   * C += alpha * (A * B' + B * A'), in one pass, B's panels travelling beside A's. */
  int pair;
  /* pdtrmm's and pdsymm's whole form (level3/whole.c): op(A) ('A', SIDE 'L') or op(B) ('B', SIDE
   * 'R') is square and holds zeros outside one triangle, upper ('U') or lower ('L') as
   * op() shows it, so that panels [g0, g1) of K meet only the rows (columns) of sub(C)
   * that their part of the triangle reaches, and the rest of their multiply is skipped.
   * 0 for any other call. */
  char zeros_in, zeros_uplo;
} hpd_call;

/*
 * Fills *call and checks every argument as PBLAS's pdgemm does (TRANS letters, sizes,
 * descriptors, index ranges, LLD, context).  Returns HPD_SERVED_BY_ENGINE when the
 * engine may serve the call, else the fallback reason: HPD_FALLBACK_BAD_ARGUMENT for
 * anything PBLAS would reject, so that PBLAS reports it with its own message.
 */
HPD_CHECKED int hpd_call_init(hpd_call *call, char transa, char transb, int m, int n, int k,
                              hpd_elem alpha, const hpd_elem *a, int ia, int ja,
                              const int *desca, const hpd_elem *b, int ib, int jb,
                              const int *descb, hpd_elem beta, hpd_elem *c, int ic, int jc,
                              const int *descc);

/* The same for pdsyrk's arguments (PBLAS's checks: UPLO, TRANS, sub(A) N x K or K x N,
 * sub(C) N x N). */
HPD_CHECKED int hpd_call_init_syrk(hpd_call *call, char uplo, char trans, int n, int k,
                                   hpd_elem alpha, const hpd_elem *a, int ia, int ja,
                                   const int *desca, hpd_elem beta, hpd_elem *c, int ic, int jc,
                                   const int *descc);

/* The pieces of those checks, for the other level-3 routines (level3/). */

/* PBLAS's widening of a 9-entry descriptor to the 11-entry form (a copy of an 11-entry
 * one); HPD_STATUS_INVALID for an unknown DTYPE, with only the context copied. */
HPD_CHECKED hpd_status hpd_desc_widen(const int *in, int out[HPD_DLEN]);
/* The grid of A's context, as PBLAS takes it, into call; 0 for an invalid context. */
HPD_CHECKED int hpd_call_grid(hpd_call *call);
/* 'N', or 'T' for 'T' and 'C', in either case; 0 for any other letter. */
HPD_CHECKED int hpd_trans_letter(char t, char *out);
/* PB_Cchkmat's rules for a rows x cols sub-matrix at 0-based (i, j) of descriptor d. */
HPD_CHECKED int hpd_matrix_ok(const hpd_call *call, int rows, int cols, int i, int j,
                              const int *d, int dtype_ok);
/* HPD_SERVED_BY_ENGINE, or HPD_FALLBACK_UNSUPPORTED for replicated operands. */
HPD_CHECKED int hpd_call_engine_serves(const hpd_call *call);

/* The 11-entry descriptor of a rows x cols matrix laid out by the axes r (over the process
 * rows) and c (over the columns) of call's grid, in storage of its own: its leading
 * dimension this process's rows, at least 1. */
void hpd_desc_of_axes(const hpd_call *call, const hpd_axis *r, int64_t rows, const hpd_axis *c,
                      int64_t cols, int desc[HPD_DLEN]);

/* The layout of a matrix's rows over process rows, or of its columns over process
 * columns, from its first row or column on. */
hpd_axis hpd_matrix_rows(const hpd_matrix *x, int nprow);
hpd_axis hpd_matrix_cols(const hpd_matrix *x, int npcol);

/* Where the sub-matrix's first row (column) of this process's share starts in its
 * local storage: how many of the rows (columns) before it the process holds. */
int64_t hpd_matrix_row0(const hpd_matrix *x, int nprow, int myrow);
int64_t hpd_matrix_col0(const hpd_matrix *x, int npcol, int mycol);

#endif
