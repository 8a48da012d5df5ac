/* One process's dtrsm (BLAS semantics), mostly in dgemm. */
#ifndef HPD_LEVEL3_LOCAL_TRSM_H
#define HPD_LEVEL3_LOCAL_TRSM_H

void hpd_l3_local_trsm(char side, char uplo, char trans, char diag, int m, int n,
                       double alpha, const double *g, int ldg, double *b, int ldb);

#endif
