/*
 * pdsyrk on one process column with TRANS 'N' (Cholesky's lower trailing update on a
 * P x 1 grid): B = A', so the row of B for sub(C)'s column g is op(A)'s row g, and
 * every process row holds some of those rows.  Each process row broadcasts its own rows
 * of the group's panels to the others, so the panel moves as an allgather: every link
 * carries each row once, where redistributing B first (pdgeadd) and then broadcasting it
 * whole would carry it up to three times.
 *
 * A group's B buffer holds, one after the other, the rows of every other process row,
 * each as a count_r x width block (its panels side by side, so one leading dimension
 * spans the group).  The multiply then runs over sub(C)'s columns block by block of
 * op(A)'s row layout, taking each block's B rows where they lie: this process's own
 * rows straight from A, the others' from their block of the buffer.  So the columns
 * whose rows are local can be multiplied while the others still travel.
 */
#ifndef HPD_PDGEMM_GATHERED_H
#define HPD_PDGEMM_GATHERED_H

#include "group.h"

/* Starts the group's broadcasts: one per panel and process row, rooted there. */
void hpd_gathered_start(const hpd_summa *s, hpd_group *grp);

/* Which of sub(C)'s columns a multiply takes: those whose B rows this process holds,
 * those that travel to it, or all. */
typedef enum { HPD_GATHERED_OWN, HPD_GATHERED_OTHERS, HPD_GATHERED_ALL } hpd_gathered_part;

/* Multiplies the group (whose broadcasts the part needs have completed); progress may be
 * NULL, else it is also polled between blocks of columns. */
void hpd_gathered_multiply(const hpd_summa *s, const hpd_group *grp, hpd_gathered_part part,
                           const hpd_progress *progress);

#endif
