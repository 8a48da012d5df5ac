#include "pdgemm/local.h"

#include <string.h>

/* The storage index of op(X)'s K index k on this process (which holds it). */
static int64_t k_index(const hpd_operand *x, int64_t k)
{
  return x->k0 + hpd_axis_count(&x->k, k, hpd_axis_owner(&x->k, k));
}

void hpd_local_pack_a(const hpd_operand *a, int64_t k0, int64_t w, int64_t r0, int64_t m,
                      hpd_elem *dst)
{
  if (m <= 0)
    return;
  const hpd_elem *src = a->base + a->lo + r0 + k_index(a, k0) * a->ld; /* trans = 0 here */
  for (int64_t t = 0; t < w; t++)
    memcpy(dst + t * m, src + t * a->ld, (size_t)m * sizeof *dst);
}

/* A transpose: a few columns at a time, so that each row of dst is written in runs of
 * COLUMNS entries rather than one entry per cache line (measured 2.5 times faster for a
 * 64 x 4096 panel). */
void hpd_local_pack_b(const hpd_operand *b, int64_t k0, int64_t w, int64_t c0, int64_t n,
                      hpd_elem *dst)
{
  enum { COLUMNS = 8 };
  const hpd_elem *src = b->base + k_index(b, k0) + (b->lo + c0) * b->ld; /* trans = 0 here */
  for (int64_t j0 = 0; j0 < n; j0 += COLUMNS) {
    int64_t j1 = j0 + COLUMNS < n ? j0 + COLUMNS : n;
    for (int64_t t = 0; t < w; t++) {
      hpd_elem *row = dst + t * n;
      for (int64_t j = j0; j < j1; j++)
        row[j] = src[t + j * b->ld];
    }
  }
}

const hpd_elem *hpd_local_view_a(const hpd_operand *a, int64_t k0, char *trans)
{
  int64_t k = k_index(a, k0);
  *trans = a->trans ? 'T' : 'N';
  return a->trans ? a->base + k + a->lo * a->ld : a->base + a->lo + k * a->ld;
}

const hpd_elem *hpd_local_view_b(const hpd_operand *b, int64_t k0, char *trans)
{
  int64_t k = k_index(b, k0);
  *trans = b->trans ? 'T' : 'N';
  return b->trans ? b->base + b->lo + k * b->ld : b->base + k + b->lo * b->ld;
}
