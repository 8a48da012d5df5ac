/*
 * The BLAS and LAPACK routines of the element family (elem.h), Fortran interface, declared
 * once.  Debian ships no Fortran-interface header for them; the hidden character lengths are
 * not read.  Only the typed kernels (kernel.c) and the tests that check against the BLAS
 * call these directly.
 */
#ifndef HPD_KERNEL_BLAS_H
#define HPD_KERNEL_BLAS_H

#include "kernel/elem.h"

void HPD_ELEM_BLAS(gemm)(const char *transa, const char *transb, const int *m, const int *n,
                         const int *k, const hpd_elem *alpha, const hpd_elem *a,
                         const int *lda, const hpd_elem *b, const int *ldb,
                         const hpd_elem *beta, hpd_elem *c, const int *ldc);
void HPD_ELEM_BLAS(syrk)(const char *uplo, const char *trans, const int *n, const int *k,
                         const hpd_elem *alpha, const hpd_elem *a, const int *lda,
                         const hpd_elem *beta, hpd_elem *c, const int *ldc);
void HPD_ELEM_BLAS(syr2k)(const char *uplo, const char *trans, const int *n, const int *k,
                          const hpd_elem *alpha, const hpd_elem *a, const int *lda,
                          const hpd_elem *b, const int *ldb, const hpd_elem *beta,
                          hpd_elem *c, const int *ldc);
void HPD_ELEM_BLAS(symm)(const char *side, const char *uplo, const int *m, const int *n,
                         const hpd_elem *alpha, const hpd_elem *a, const int *lda,
                         const hpd_elem *b, const int *ldb, const hpd_elem *beta,
                         hpd_elem *c, const int *ldc);
void HPD_ELEM_BLAS(trsm)(const char *side, const char *uplo, const char *transa,
                         const char *diag, const int *m, const int *n,
                         const hpd_elem *alpha, const hpd_elem *a, const int *lda,
                         hpd_elem *b, const int *ldb);
void HPD_ELEM_BLAS(trmm)(const char *side, const char *uplo, const char *transa,
                         const char *diag, const int *m, const int *n,
                         const hpd_elem *alpha, const hpd_elem *a, const int *lda,
                         hpd_elem *b, const int *ldb);
void HPD_ELEM_BLAS(potrf)(const char *uplo, const int *n, hpd_elem *a, const int *lda,
                          int *info);
void HPD_ELEM_BLAS(getrf)(const int *m, const int *n, hpd_elem *a, const int *lda, int *ipiv,
                          int *info);
void HPD_ELEM_BLAS(laswp)(const int *n, hpd_elem *a, const int *lda, const int *k1,
                          const int *k2, const int *ipiv, const int *incx);

#endif
