/*
 * The PBLAS entry points with their Fortran ABI: every argument by reference, and the
 * hidden character lengths that Fortran callers append are never read.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/log.h"
#include "hpdaemon.h"

#ifdef HPD_SIMULATED
/* Linked statically into each simulated program: a program that defines an entry point
 * itself (the energy driver checks every call that way, as a preloaded wrapper would)
 * takes its own, as it would over a shared hpdaemon. */
#define HPD_EXPORT __attribute__((visibility("default"), weak))
#else
#define HPD_EXPORT __attribute__((visibility("default")))
#endif

/* Defined under a local name and exported as an alias: inside this library, the address
 * of the exported name is itself looked up at run time and would be another library's
 * pdgemm_ when that one comes first, while the local name's address is always ours. */
static void pdgemm_entry(const char *transa, const char *transb, const int *m, const int *n,
                         const int *k, const double *alpha, const double *a, const int *ia,
                         const int *ja, const int *desca, const double *b, const int *ib,
                         const int *jb, const int *descb, const double *beta, double *c,
                         const int *ic, const int *jc, const int *descc)
{
  hpd_pdgemm(*transa, *transb, *m, *n, *k, *alpha, a, *ia, *ja, desca, b, *ib, *jb, descb,
             *beta, c, *ic, *jc, descc);
}

HPD_EXPORT void pdgemm_(const char *transa, const char *transb, const int *m, const int *n,
                        const int *k, const double *alpha, const double *a, const int *ia,
                        const int *ja, const int *desca, const double *b, const int *ib,
                        const int *jb, const int *descb, const double *beta, double *c,
                        const int *ic, const int *jc, const int *descc)
    __attribute__((alias("pdgemm_entry")));

HPD_EXPORT void pdsyrk_(const char *uplo, const char *trans, const int *n, const int *k,
                        const double *alpha, const double *a, const int *ia, const int *ja,
                        const int *desca, const double *beta, double *c, const int *ic,
                        const int *jc, const int *descc)
{
  hpd_pdsyrk(*uplo, *trans, *n, *k, *alpha, a, *ia, *ja, desca, *beta, c, *ic, *jc, descc);
}

HPD_EXPORT void pdtrsm_(const char *side, const char *uplo, const char *transa,
                        const char *diag, const int *m, const int *n, const double *alpha,
                        const double *a, const int *ia, const int *ja, const int *desca,
                        double *b, const int *ib, const int *jb, const int *descb)
{
  hpd_pdtrsm(*side, *uplo, *transa, *diag, *m, *n, *alpha, a, *ia, *ja, desca, b, *ib, *jb,
             descb);
}

HPD_EXPORT void pdtrmm_(const char *side, const char *uplo, const char *transa,
                        const char *diag, const int *m, const int *n, const double *alpha,
                        const double *a, const int *ia, const int *ja, const int *desca,
                        double *b, const int *ib, const int *jb, const int *descb)
{
  hpd_pdtrmm(*side, *uplo, *transa, *diag, *m, *n, *alpha, a, *ia, *ja, desca, b, *ib, *jb,
             descb);
}

HPD_EXPORT void pdsymm_(const char *side, const char *uplo, const int *m, const int *n,
                        const double *alpha, const double *a, const int *ia, const int *ja,
                        const int *desca, const double *b, const int *ib, const int *jb,
                        const int *descb, const double *beta, double *c, const int *ic,
                        const int *jc, const int *descc)
{
  hpd_pdsymm(*side, *uplo, *m, *n, *alpha, a, *ia, *ja, desca, b, *ib, *jb, descb, *beta, c,
             *ic, *jc, descc);
}

HPD_EXPORT void pdsyr2k_(const char *uplo, const char *trans, const int *n, const int *k,
                         const double *alpha, const double *a, const int *ia, const int *ja,
                         const int *desca, const double *b, const int *ib, const int *jb,
                         const int *descb, const double *beta, double *c, const int *ic,
                         const int *jc, const int *descc)
{
  hpd_pdsyr2k(*uplo, *trans, *n, *k, *alpha, a, *ia, *ja, desca, b, *ib, *jb, descb, *beta, c,
              *ic, *jc, descc);
}

/* ScaLAPACK's, not PBLAS's: LU's pivoting, applied by pdgetrf_ to each panel's sides. */
HPD_EXPORT void pdlaswp_(const char *direc, const char *rowcol, const int *n, double *a,
                         const int *ia, const int *ja, const int *desca, const int *k1,
                         const int *k2, const int *ipiv)
{
  hpd_pdlaswp(*direc, *rowcol, *n, a, *ia, *ja, desca, *k1, *k2, ipiv);
}

/* ScaLAPACK's Cholesky factorization. */
HPD_EXPORT void pdpotrf_(const char *uplo, const int *n, double *a, const int *ia,
                         const int *ja, const int *desca, int *info)
{
  hpd_pdpotrf(*uplo, *n, a, *ia, *ja, desca, info);
}

/* ScaLAPACK's LU factorization. */
HPD_EXPORT void pdgetrf_(const int *m, const int *n, double *a, const int *ia, const int *ja,
                         const int *desca, int *ipiv, int *info)
{
  hpd_pdgetrf(*m, *n, a, *ia, *ja, desca, ipiv, info);
}

#ifndef HPD_SIMULATED /* there the program links ScaLAPACK's renamed copy itself */
/* A program linked with ScaLAPACK ahead of hpdaemon binds pdgemm_ to ScaLAPACK, and
 * hpdaemon would silently do nothing: say so once, at load time. */
__attribute__((constructor)) static void check_lookup_order(void)
{
  void *bound = dlsym(RTLD_DEFAULT, "pdgemm_");
  if (!bound || bound == (void *)pdgemm_entry)
    return;
  Dl_info where = {0};
  dladdr(bound, &where);
  /* A program that defines pdgemm_ itself wraps hpdaemon's on purpose (the energy
   * driver checks every call that way). */
  char exe[4096], *bound_path = where.dli_fname ? realpath(where.dli_fname, NULL) : NULL;
  ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
  int own = bound_path && len > 0 && (exe[len] = '\0', strcmp(bound_path, exe) == 0);
  free(bound_path);
  if (own)
    return;
  hpd_warn("pdgemm_ resolves to %s, not to hpdaemon: put -lhpdaemon before ScaLAPACK on "
           "the link line, or preload it (hpdaemon-run)",
           where.dli_fname ? where.dli_fname : "another library");
}
#endif
