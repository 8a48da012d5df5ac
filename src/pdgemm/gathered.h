/*
 * op(B) = B' on one process column (pdsyrk with TRANS 'N', pdsyr2k's halves,
 * pdgemm with TRANSB 'T'): sub(C)'s column g needs row g of sub(B), whole along
 * K, and every process row holds some of those rows while each holds all of K.
 * So each block of sub(B)'s rows is broadcast from its owner straight to its
 * place in the group's B buffer: every link carries each row once, where
 * redistributing B first (pdgeadd) and then broadcasting it whole would carry
 * it up to three times.
 *
 * The group's B buffer is op(B) over the group's K, width x n, column g for
 * sub(C)'s column g: each block of rows is one contiguous message there, which
 * the owner transposes into place before sending.  One triangle update then
 * spans all of sub(C)'s columns, so that op(A) is packed once per halving level
 * rather than once per block of columns.  The overlap schedule instead
 * multiplies the columns whose rows are local while the others still travel.
 */
#ifndef HPD_PDGEMM_GATHERED_H
#define HPD_PDGEMM_GATHERED_H

#include "core/checked.h"
#include "pdgemm/loop.h"

/* Broadcasts a group needs: one per block of sub(B)'s n rows. */
HPD_CHECKED int hpd_gathered_blocks(const hpd_axis *rows, int64_t n);

/* Puts this process's own blocks of rows into the group's buffer and starts the
 * group's broadcasts, one per block, rooted at its owner. */
void hpd_gathered_start(const hpd_summa *s, hpd_group *grp, const hpd_bcast_how *how);

/* Which of sub(C)'s columns a multiply takes: those whose B rows this process
 * holds, those that travel to it, or all. */
typedef enum { HPD_GATHERED_OWN, HPD_GATHERED_OTHERS, HPD_GATHERED_ALL } hpd_gathered_part;

/* Multiplies the group (whose broadcasts the part needs have completed);
 * progress may be NULL, else it is also polled between blocks of columns. */
void hpd_gathered_multiply(const hpd_summa *s, const hpd_group *grp, hpd_gathered_part part,
                           const hpd_progress *progress);

#endif
