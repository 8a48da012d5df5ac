#include "kernel/kernel.h"

#include "kernel/blas.h"

void hpd_kernel_gemm(char transa, char transb, int m, int n, int k, hpd_elem alpha,
                     const hpd_elem *a, int lda, const hpd_elem *b, int ldb, hpd_elem beta,
                     hpd_elem *c, int ldc)
{
  HPD_ELEM_BLAS(gemm)(&transa, &transb, &m, &n, &k, &alpha, a, &lda, b, &ldb, &beta, c, &ldc);
}

void hpd_kernel_syrk(char uplo, char trans, int n, int k, hpd_elem alpha, const hpd_elem *a,
                     int lda, hpd_elem beta, hpd_elem *c, int ldc)
{
  HPD_ELEM_BLAS(syrk)(&uplo, &trans, &n, &k, &alpha, a, &lda, &beta, c, &ldc);
}

void hpd_kernel_syr2k(char uplo, char trans, int n, int k, hpd_elem alpha, const hpd_elem *a,
                      int lda, const hpd_elem *b, int ldb, hpd_elem beta, hpd_elem *c,
                      int ldc)
{
  HPD_ELEM_BLAS(syr2k)(&uplo, &trans, &n, &k, &alpha, a, &lda, b, &ldb, &beta, c, &ldc);
}

void hpd_kernel_symm(char side, char uplo, int m, int n, hpd_elem alpha, const hpd_elem *a,
                     int lda, const hpd_elem *b, int ldb, hpd_elem beta, hpd_elem *c,
                     int ldc)
{
  HPD_ELEM_BLAS(symm)(&side, &uplo, &m, &n, &alpha, a, &lda, b, &ldb, &beta, c, &ldc);
}

void hpd_kernel_trsm(char side, char uplo, char transa, char diag, int m, int n,
                     hpd_elem alpha, const hpd_elem *a, int lda, hpd_elem *b, int ldb)
{
  HPD_ELEM_BLAS(trsm)(&side, &uplo, &transa, &diag, &m, &n, &alpha, a, &lda, b, &ldb);
}

void hpd_kernel_trmm(char side, char uplo, char transa, char diag, int m, int n,
                     hpd_elem alpha, const hpd_elem *a, int lda, hpd_elem *b, int ldb)
{
  HPD_ELEM_BLAS(trmm)(&side, &uplo, &transa, &diag, &m, &n, &alpha, a, &lda, b, &ldb);
}

int hpd_kernel_potrf(char uplo, int n, hpd_elem *a, int lda)
{
  int info = 0;
  HPD_ELEM_BLAS(potrf)(&uplo, &n, a, &lda, &info);
  return info;
}

int hpd_kernel_getrf(int m, int n, hpd_elem *a, int lda, int *ipiv)
{
  int info = 0;
  HPD_ELEM_BLAS(getrf)(&m, &n, a, &lda, ipiv, &info);
  return info;
}

void hpd_kernel_laswp(int n, hpd_elem *a, int lda, int k1, int k2, const int *ipiv)
{
  const int incx = 1;
  HPD_ELEM_BLAS(laswp)(&n, a, &lda, &k1, &k2, ipiv, &incx);
}
