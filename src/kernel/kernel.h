/*
 * The typed kernels: the local operations every algorithm of the library runs, on arrays
 * of the family's element (elem.h), with BLAS semantics (column-major, leading dimensions,
 * operation letters in either case) and arguments by value.  The algorithms call these and
 * never a BLAS symbol, so a family's kernels are the one place that knows which BLAS
 * serves it.
 */
#ifndef HPD_KERNEL_KERNEL_H
#define HPD_KERNEL_KERNEL_H

#include "kernel/elem.h"

/* C := alpha op(A) op(B) + beta C, C m x n, the inner dimension k. */
void hpd_kernel_gemm(char transa, char transb, int m, int n, int k, hpd_elem alpha,
                     const hpd_elem *a, int lda, const hpd_elem *b, int ldb, hpd_elem beta,
                     hpd_elem *c, int ldc);
/* The uplo triangle of C := alpha op(A) op(A)^T + beta C, C n x n. */
void hpd_kernel_syrk(char uplo, char trans, int n, int k, hpd_elem alpha, const hpd_elem *a,
                     int lda, hpd_elem beta, hpd_elem *c, int ldc);
/* The uplo triangle of C := alpha (op(A) op(B)^T + op(B) op(A)^T) + beta C. */
void hpd_kernel_syr2k(char uplo, char trans, int n, int k, hpd_elem alpha, const hpd_elem *a,
                      int lda, const hpd_elem *b, int ldb, hpd_elem beta, hpd_elem *c,
                      int ldc);
/* C := alpha A B + beta C (side L) or alpha B A + beta C (side R), A symmetric. */
void hpd_kernel_symm(char side, char uplo, int m, int n, hpd_elem alpha, const hpd_elem *a,
                     int lda, const hpd_elem *b, int ldb, hpd_elem beta, hpd_elem *c,
                     int ldc);
/* B := alpha op(A)^-1 B or alpha B op(A)^-1, A triangular, B m x n. */
void hpd_kernel_trsm(char side, char uplo, char transa, char diag, int m, int n,
                     hpd_elem alpha, const hpd_elem *a, int lda, hpd_elem *b, int ldb);
/* B := alpha op(A) B or alpha B op(A), A triangular, B m x n. */
void hpd_kernel_trmm(char side, char uplo, char transa, char diag, int m, int n,
                     hpd_elem alpha, const hpd_elem *a, int lda, hpd_elem *b, int ldb);
/* The Cholesky factor of A's uplo triangle in place; LAPACK's INFO (0, or the order of
 * the leading minor that is not positive definite). */
int hpd_kernel_potrf(char uplo, int n, hpd_elem *a, int lda);
/* A = P L U in place, partial pivoting, ipiv 1-based; LAPACK's INFO. */
int hpd_kernel_getrf(int m, int n, hpd_elem *a, int lda, int *ipiv);
/* Rows k1..k2 (1-based) of A's n columns interchanged as ipiv says, in LAPACK's order. */
void hpd_kernel_laswp(int n, hpd_elem *a, int lda, int k1, int k2, const int *ipiv);

#endif
