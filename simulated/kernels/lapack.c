/*
 * The LAPACK kernels the simulated programs call, wrapped as the BLAS are (blas.c).  A
 * charged LU reports pivots spread as partial pivoting spreads them on random matrices,
 * so that the interchanges which follow cost what they would; a charged Cholesky
 * reports success.
 */
#include "charge.h"

void __real_dgetrf_(const int *, const int *, double *, const int *, int *, int *);
void __wrap_dgetrf_(const int *m, const int *n, double *a, const int *lda, int *ipiv,
                    int *info)
{
  if (!hpd_sim_charging()) {
    __real_dgetrf_(m, n, a, lda, ipiv, info);
    return;
  }
  *info = 0;
  if (*m < 1 || *n < 1)
    return;
  hpd_sim_charge(HPD_K_GETRF, *m, *n, 1);
  int steps = *m < *n ? *m : *n;
  for (int i = 1; i <= steps; i++)
    ipiv[i - 1] = hpd_sim_pivot(i, *m, *n);
}

void __real_dpotrf_(const char *, const int *, double *, const int *, int *);
void __wrap_dpotrf_(const char *uplo, const int *n, double *a, const int *lda, int *info)
{
  if (!hpd_sim_charging()) {
    __real_dpotrf_(uplo, n, a, lda, info);
    return;
  }
  *info = 0;
  hpd_sim_charge(HPD_K_POTRF, *n, 1, 1);
}

void __real_dlaswp_(const int *, double *, const int *, const int *, const int *,
                    const int *, const int *);
void __wrap_dlaswp_(const int *n, double *a, const int *lda, const int *k1, const int *k2,
                    const int *ipiv, const int *incx)
{
  if (hpd_sim_charging()) {
    int swaps = *k2 - *k1 + 1;
    hpd_sim_charge(HPD_K_LASWP, *n, swaps, 1);
  } else {
    __real_dlaswp_(n, a, lda, k1, k2, ipiv, incx);
  }
}
