#ifndef HPD_SMALL_TRSM_H
#define HPD_SMALL_TRSM_H

#include "core/checked.h"
#include "kernel/elem.h"

/* The largest order of op(A) that hpd_small_trsm takes. */
#define HPD_SMALL_TRSM_ORDER 64

/* dtrsm's arguments and result, for an order (m for SIDE 'L', n for 'R') of at most
 * HPD_SMALL_TRSM_ORDER and alpha not 0; rounding may differ from the BLAS's in the last
 * bits (fused multiply-adds). */
void hpd_small_trsm(char side, char uplo, char trans, char diag, int m, int n, hpd_elem alpha,
                    const hpd_elem *a, int lda, hpd_elem *b, int ldb);

/* The kernel's builds, best first: the first this CPU runs is used. */
enum { HPD_SMALL_TRSM_AVX512, HPD_SMALL_TRSM_AVX2, HPD_SMALL_TRSM_BASELINE, HPD_SMALL_TRSM_BUILDS };

/* Uses build `which` from now on, so that tests reach every build this CPU runs: HPD_OK, or
 * HPD_STATUS_INVALID where the CPU or the compiler lacks it (nothing changes). */
HPD_CHECKED hpd_status hpd_small_trsm_use(int which);

#endif
