/* The reference PBLAS routines that hpdaemon's own definitions hide. */
#ifndef HPD_PBLAS_REFERENCE_H
#define HPD_PBLAS_REFERENCE_H

#include "kernel/elem.h"

typedef void (*hpd_pdgemm_fn)(const char *transa, const char *transb, const int *m,
                              const int *n, const int *k, const hpd_elem *alpha,
                              const hpd_elem *a, const int *ia, const int *ja, const int *desca,
                              const hpd_elem *b, const int *ib, const int *jb, const int *descb,
                              const hpd_elem *beta, hpd_elem *c, const int *ic, const int *jc,
                              const int *descc);

typedef void (*hpd_pdsyrk_fn)(const char *uplo, const char *trans, const int *n,
                              const int *k, const hpd_elem *alpha, const hpd_elem *a,
                              const int *ia, const int *ja, const int *desca,
                              const hpd_elem *beta, hpd_elem *c, const int *ic, const int *jc,
                              const int *descc);

/* pdtrsm_ and pdtrmm_ share one signature. */
typedef void (*hpd_pdtrxm_fn)(const char *side, const char *uplo, const char *transa,
                              const char *diag, const int *m, const int *n,
                              const hpd_elem *alpha, const hpd_elem *a, const int *ia,
                              const int *ja, const int *desca, hpd_elem *b, const int *ib,
                              const int *jb, const int *descb);

typedef void (*hpd_pdsymm_fn)(const char *side, const char *uplo, const int *m, const int *n,
                              const hpd_elem *alpha, const hpd_elem *a, const int *ia,
                              const int *ja, const int *desca, const hpd_elem *b,
                              const int *ib, const int *jb, const int *descb,
                              const hpd_elem *beta, hpd_elem *c, const int *ic, const int *jc,
                              const int *descc);

typedef void (*hpd_pdsyr2k_fn)(const char *uplo, const char *trans, const int *n,
                               const int *k, const hpd_elem *alpha, const hpd_elem *a,
                               const int *ia, const int *ja, const int *desca,
                               const hpd_elem *b, const int *ib, const int *jb,
                               const int *descb, const hpd_elem *beta, hpd_elem *c,
                               const int *ic, const int *jc, const int *descc);

typedef void (*hpd_pdlaswp_fn)(const char *direc, const char *rowcol, const int *n,
                               hpd_elem *a, const int *ia, const int *ja, const int *desca,
                               const int *k1, const int *k2, const int *ipiv);

typedef void (*hpd_pdpotrf_fn)(const char *uplo, const int *n, hpd_elem *a, const int *ia,
                               const int *ja, const int *desca, int *info);

typedef void (*hpd_pdgetrf_fn)(const int *m, const int *n, hpd_elem *a, const int *ia,
                               const int *ja, const int *desca, int *ipiv, int *info);

/* The next pdgemm_ (pdsyrk_, ...) after hpdaemon's in the lookup order (ScaLAPACK's).  Never NULL:
 * without one the job cannot go on, so it stops with a message. */
hpd_pdgemm_fn hpd_reference_pdgemm(void);
hpd_pdsyrk_fn hpd_reference_pdsyrk(void);
hpd_pdtrxm_fn hpd_reference_pdtrsm(void);
hpd_pdtrxm_fn hpd_reference_pdtrmm(void);
hpd_pdsymm_fn hpd_reference_pdsymm(void);
hpd_pdsyr2k_fn hpd_reference_pdsyr2k(void);
hpd_pdlaswp_fn hpd_reference_pdlaswp(void); /* ScaLAPACK's, not PBLAS's */
hpd_pdpotrf_fn hpd_reference_pdpotrf(void); /* ScaLAPACK's */
hpd_pdgetrf_fn hpd_reference_pdgetrf(void); /* ScaLAPACK's */

#endif
