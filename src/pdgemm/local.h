/* Purely local steps of the multiply: packing panels into group buffers. */
#ifndef HPD_PDGEMM_LOCAL_H
#define HPD_PDGEMM_LOCAL_H

#include <stdint.h>

#include "pdgemm/operands.h"

/* Copies op(A)'s columns [k0, k0+w) of this process's rows r0 .. r0+m-1 into dst
 * (m x w, leading dimension m).  The process must own those columns. */
void hpd_local_pack_a(const hpd_operand *a, int64_t k0, int64_t w, int64_t r0, int64_t m,
                      hpd_elem *dst);

/* Copies op(B)'s rows [k0, k0+w) of this process's columns c0 .. c0+n-1 into dst
 * transposed (n x w, leading dimension n), so that each panel of a group is one
 * contiguous slice of the group buffer.  The process must own those rows. */
void hpd_local_pack_b(const hpd_operand *b, int64_t k0, int64_t w, int64_t c0, int64_t n,
                      hpd_elem *dst);

/* Where op(X)'s K index k0 sits in this process's storage, and how dgemm reads from
 * there, for an operand whose whole K extent is local. */
const hpd_elem *hpd_local_view_a(const hpd_operand *a, int64_t k0, char *trans);
const hpd_elem *hpd_local_view_b(const hpd_operand *b, int64_t k0, char *trans);

#endif
