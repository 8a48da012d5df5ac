#ifndef HPD_SMALL_TRSM_H
#define HPD_SMALL_TRSM_H

/* The largest order of op(A) that hpd_small_trsm takes. */
#define HPD_SMALL_TRSM_ORDER 64

/* dtrsm's arguments and result, for an order (m for SIDE 'L', n for 'R') of at most
 * HPD_SMALL_TRSM_ORDER and alpha not 0; rounding may differ from the BLAS's in the last
 * bits (fused multiply-adds). */
void hpd_small_trsm(char side, char uplo, char trans, char diag, int m, int n, double alpha,
                    const double *a, int lda, double *b, int ldb);

#endif
