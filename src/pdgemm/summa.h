/*
 * The outer-product loop (SUMMA), grouped: ngrp k-panels are broadcast together, A's
 * along process rows and B's along process columns, all in flight at once; then one
 * local dgemm of the group's whole width updates C.  A factor that does not travel
 * (a single process column for A, a single process row for B) is read in place.  A
 * group of one panel of A (every call of LU's and Cholesky's trailing updates) goes out
 * from its owner's own columns, unpacked, and the owner multiplies from them.
 *
 * With two slots (the overlap schedule) group g+1's broadcasts start before group g's
 * multiply, which polls them between strips of its columns so that they keep moving;
 * nothing switches the frequency.  A group that nothing hides (the first, or every one
 * where groups run in turn under that schedule) travels in pieces instead, each
 * multiplied as soon as it has arrived (summa_pieces.h); a pair's group travels whole.
 */
#ifndef HPD_PDGEMM_SUMMA_H
#define HPD_PDGEMM_SUMMA_H

#include "pdgemm/loop.h"

/* C += alpha * op(A) * op(B); collective over the grid.  Ends on an energy mark (phase
 * other), so hpd_energy_sample_at_mark then gives the sample at the loop's end. */
void hpd_summa_run(const hpd_summa *s);

#endif
