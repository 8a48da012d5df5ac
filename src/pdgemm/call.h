/* One pdgemm or pdsyrk call, its arguments normalized and checked the way PBLAS checks
 * them.  A pdsyrk call is the multiply sub(A) * sub(A)' (or sub(A)' * sub(A)) restricted
 * to one triangle of sub(C): B is A, with the opposite TRANS. */
#ifndef HPD_PDGEMM_CALL_H
#define HPD_PDGEMM_CALL_H

#include "layout.h"
#include "scalapack_api.h"

typedef struct hpd_matrix {
  int desc[HPD_DLEN]; /* always the 11-entry form */
  int i, j;           /* 0-based first row and column of the sub-matrix */
} hpd_matrix;

typedef struct hpd_call {
  char uplo;           /* pdsyrk: 'U' or 'L', the triangle of sub(C); pdgemm: 0 */
  char transa, transb; /* 'N' or 'T' ('C' is 'T' for real data) */
  int m, n, k;
  double alpha, beta;
  const double *a, *b;
  double *c;
  hpd_matrix A, B, C;
  int ictxt, nprow, npcol, myrow, mycol;
} hpd_call;

/*
 * Fills *call and checks every argument as PBLAS's pdgemm does (TRANS letters, sizes,
 * descriptors, index ranges, LLD, context).  Returns HPD_SERVED_BY_ENGINE when the
 * engine may serve the call, else the fallback reason: HPD_FALLBACK_BAD_ARGUMENT for
 * anything PBLAS would reject, so that PBLAS reports it with its own message.
 */
int hpd_call_init(hpd_call *call, char transa, char transb, int m, int n, int k,
                  double alpha, const double *a, int ia, int ja, const int *desca,
                  const double *b, int ib, int jb, const int *descb, double beta, double *c,
                  int ic, int jc, const int *descc);

/* The same for pdsyrk's arguments (PBLAS's checks: UPLO, TRANS, sub(A) N x K or K x N,
 * sub(C) N x N). */
int hpd_call_init_syrk(hpd_call *call, char uplo, char trans, int n, int k, double alpha,
                       const double *a, int ia, int ja, const int *desca, double beta,
                       double *c, int ic, int jc, const int *descc);

/* The layout of a matrix's rows over process rows, or of its columns over process
 * columns, from its first row or column on. */
hpd_axis hpd_matrix_rows(const hpd_matrix *x, int nprow);
hpd_axis hpd_matrix_cols(const hpd_matrix *x, int npcol);

/* Where the sub-matrix's first row (column) of this process's share starts in its
 * local storage: how many of the rows (columns) before it the process holds. */
int64_t hpd_matrix_row0(const hpd_matrix *x, int nprow, int myrow);
int64_t hpd_matrix_col0(const hpd_matrix *x, int npcol, int mycol);

#endif
