/*
 * The BLAS as the simulated programs see it: every call the library and reference
 * ScaLAPACK make reaches these (the link wraps each name, simulated/kernels.cmake), and
 * each runs the real kernel (__real_...) or, in the timing mode, charges its time
 * without computing (charge.h).  A charged kernel leaves its output as it was; where it
 * returns a value, the value is harmless (a dot product of 0, a pivot spread as partial
 * pivoting spreads them).
 */
#include <stdlib.h>

#include "charge.h"

#define WIDER(a, b) (abs(*(a)) > abs(*(b)) ? abs(*(a)) : abs(*(b)))

/* The order of a side's triangular or symmetric operand, and the other dimension. */
#define ORDER(side, m, n) ((*(side) == 'L' || *(side) == 'l') ? *(m) : *(n))
#define OTHER(side, m, n) ((*(side) == 'L' || *(side) == 'l') ? *(n) : *(m))

typedef const char *ch;
typedef const int *in;
typedef const double *cd;

void __real_dgemm_(ch, ch, in, in, in, cd, cd, in, cd, in, cd, double *, in);
void __wrap_dgemm_(ch ta, ch tb, in m, in n, in k, cd alpha, cd a, in lda, cd b, in ldb,
                   cd beta, double *c, in ldc)
{
  if (hpd_sim_charging())
    hpd_sim_charge(HPD_K_GEMM, *m, *n, *k);
  else
    __real_dgemm_(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void __real_dsymm_(ch, ch, in, in, cd, cd, in, cd, in, cd, double *, in);
void __wrap_dsymm_(ch side, ch uplo, in m, in n, cd alpha, cd a, in lda, cd b, in ldb,
                   cd beta, double *c, in ldc)
{
  if (hpd_sim_charging())
    hpd_sim_charge(HPD_K_SYMM, ORDER(side, m, n), OTHER(side, m, n), 1);
  else
    __real_dsymm_(side, uplo, m, n, alpha, a, lda, b, ldb, beta, c, ldc);
}

void __real_dsyrk_(ch, ch, in, in, cd, cd, in, cd, double *, in);
void __wrap_dsyrk_(ch uplo, ch trans, in n, in k, cd alpha, cd a, in lda, cd beta,
                   double *c, in ldc)
{
  if (hpd_sim_charging())
    hpd_sim_charge(HPD_K_SYRK, *n, *k, 1);
  else
    __real_dsyrk_(uplo, trans, n, k, alpha, a, lda, beta, c, ldc);
}

void __real_dsyr2k_(ch, ch, in, in, cd, cd, in, cd, in, cd, double *, in);
void __wrap_dsyr2k_(ch uplo, ch trans, in n, in k, cd alpha, cd a, in lda, cd b, in ldb,
                    cd beta, double *c, in ldc)
{
  if (hpd_sim_charging())
    hpd_sim_charge(HPD_K_SYR2K, *n, *k, 1);
  else
    __real_dsyr2k_(uplo, trans, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void __real_dtrmm_(ch, ch, ch, ch, in, in, cd, cd, in, double *, in);
void __wrap_dtrmm_(ch side, ch uplo, ch trans, ch diag, in m, in n, cd alpha, cd a, in lda,
                   double *b, in ldb)
{
  if (hpd_sim_charging())
    hpd_sim_charge(HPD_K_TRMM, ORDER(side, m, n), OTHER(side, m, n), 1);
  else
    __real_dtrmm_(side, uplo, trans, diag, m, n, alpha, a, lda, b, ldb);
}

void __real_dtrsm_(ch, ch, ch, ch, in, in, cd, cd, in, double *, in);
void __wrap_dtrsm_(ch side, ch uplo, ch trans, ch diag, in m, in n, cd alpha, cd a, in lda,
                   double *b, in ldb)
{
  if (hpd_sim_charging())
    hpd_sim_charge(HPD_K_TRSM, ORDER(side, m, n), OTHER(side, m, n), 1);
  else
    __real_dtrsm_(side, uplo, trans, diag, m, n, alpha, a, lda, b, ldb);
}

void __real_dgemv_(ch, in, in, cd, cd, in, cd, in, cd, double *, in);
void __wrap_dgemv_(ch trans, in m, in n, cd alpha, cd a, in lda, cd x, in incx, cd beta,
                   double *y, in incy)
{
  if (hpd_sim_charging())
    hpd_sim_charge(HPD_K_GEMV, *m, *n, 1);
  else
    __real_dgemv_(trans, m, n, alpha, a, lda, x, incx, beta, y, incy);
}

void __real_dger_(in, in, cd, cd, in, cd, in, double *, in);
void __wrap_dger_(in m, in n, cd alpha, cd x, in incx, cd y, in incy, double *a, in lda)
{
  if (hpd_sim_charging())
    hpd_sim_charge(HPD_K_GER, *m, *n, 1);
  else
    __real_dger_(m, n, alpha, x, incx, y, incy, a, lda);
}

void __real_dsymv_(ch, in, cd, cd, in, cd, in, cd, double *, in);
void __wrap_dsymv_(ch uplo, in n, cd alpha, cd a, in lda, cd x, in incx, cd beta, double *y,
                   in incy)
{
  if (hpd_sim_charging())
    hpd_sim_charge(HPD_K_SYMV, *n, 1, 1);
  else
    __real_dsymv_(uplo, n, alpha, a, lda, x, incx, beta, y, incy);
}

void __real_dsyr_(ch, in, cd, cd, in, double *, in);
void __wrap_dsyr_(ch uplo, in n, cd alpha, cd x, in incx, double *a, in lda)
{
  if (hpd_sim_charging())
    hpd_sim_charge(HPD_K_SYR, *n, 1, 1);
  else
    __real_dsyr_(uplo, n, alpha, x, incx, a, lda);
}

void __real_dsyr2_(ch, in, cd, cd, in, cd, in, double *, in);
void __wrap_dsyr2_(ch uplo, in n, cd alpha, cd x, in incx, cd y, in incy, double *a, in lda)
{
  if (hpd_sim_charging())
    hpd_sim_charge(HPD_K_SYR2, *n, 1, 1);
  else
    __real_dsyr2_(uplo, n, alpha, x, incx, y, incy, a, lda);
}

void __real_dtrmv_(ch, ch, ch, in, cd, in, double *, in);
void __wrap_dtrmv_(ch uplo, ch trans, ch diag, in n, cd a, in lda, double *x, in incx)
{
  if (hpd_sim_charging())
    hpd_sim_charge(HPD_K_TRMV, *n, 1, 1);
  else
    __real_dtrmv_(uplo, trans, diag, n, a, lda, x, incx);
}

void __real_dtrsv_(ch, ch, ch, in, cd, in, double *, in);
void __wrap_dtrsv_(ch uplo, ch trans, ch diag, in n, cd a, in lda, double *x, in incx)
{
  if (hpd_sim_charging())
    hpd_sim_charge(HPD_K_TRSV, *n, 1, 1);
  else
    __real_dtrsv_(uplo, trans, diag, n, a, lda, x, incx);
}

void __real_daxpy_(in, cd, cd, in, double *, in);
void __wrap_daxpy_(in n, cd alpha, cd x, in incx, double *y, in incy)
{
  if (hpd_sim_charging())
    hpd_sim_charge(HPD_K_AXPY, *n, WIDER(incx, incy), 1);
  else
    __real_daxpy_(n, alpha, x, incx, y, incy);
}

double __real_ddot_(in, cd, in, cd, in);
double __wrap_ddot_(in n, cd x, in incx, cd y, in incy)
{
  if (!hpd_sim_charging())
    return __real_ddot_(n, x, incx, y, incy);
  hpd_sim_charge(HPD_K_DOT, *n, WIDER(incx, incy), 1);
  return 0.0;
}

void __real_dscal_(in, cd, double *, in);
void __wrap_dscal_(in n, cd alpha, double *x, in incx)
{
  if (hpd_sim_charging())
    hpd_sim_charge(HPD_K_SCAL, *n, abs(*incx), 1);
  else
    __real_dscal_(n, alpha, x, incx);
}

void __real_dcopy_(in, cd, in, double *, in);
void __wrap_dcopy_(in n, cd x, in incx, double *y, in incy)
{
  if (hpd_sim_charging())
    hpd_sim_charge(HPD_K_COPY, *n, WIDER(incx, incy), 1);
  else
    __real_dcopy_(n, x, incx, y, incy);
}

void __real_dswap_(in, double *, in, double *, in);
void __wrap_dswap_(in n, double *x, in incx, double *y, in incy)
{
  if (hpd_sim_charging())
    hpd_sim_charge(HPD_K_SWAP, *n, WIDER(incx, incy), 1);
  else
    __real_dswap_(n, x, incx, y, incy);
}

int __real_idamax_(in, cd, in);
int __wrap_idamax_(in n, cd x, in incx)
{
  if (!hpd_sim_charging())
    return __real_idamax_(n, x, incx);
  if (*n < 1 || *incx < 1)
    return 0;
  hpd_sim_charge(HPD_K_IAMAX, *n, *incx, 1);
  return hpd_sim_pivot(1, *n, *n);
}
