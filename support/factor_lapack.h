/* The ScaLAPACK routines the factorization driver and benchmark call beyond
 * support/scalapack.h; ScaLAPACK ships no C header.  Character arguments are single
 * letters, whose hidden lengths the Fortran side never reads. */
#ifndef HPD_SUPPORT_FACTOR_LAPACK_H
#define HPD_SUPPORT_FACTOR_LAPACK_H

double pdlange_(const char *norm, const int *m, const int *n, const double *a, const int *ia,
                const int *ja, const int *desca, double *work);
double pdlamch_(const int *ictxt, const char *cmach);

#endif
