#include "pdgemm/gathered.h"

#include "pdgemm/local.h"

int hpd_gathered_blocks(const hpd_axis *rows, int64_t n)
{
  int blocks = 0;
  for (int64_t g = 0; g < n; g = hpd_axis_next_boundary(rows, g))
    blocks++;
  return blocks;
}

/* The end of the block of sub(B)'s rows that starts at g0, within sub(C)'s n columns. */
static int64_t block_end(const hpd_summa *s, int64_t g0)
{
  int64_t g1 = hpd_axis_next_boundary(&s->b->rows, g0);
  return g1 < s->nloc ? g1 : s->nloc;
}

/* Rows [g0, g0+rows) of sub(B), K [k0, k0+w), which this process owns, into dst
 * as their transpose (w x rows, leading dimension w): one contiguous message,
 * and columns of op(B) as the multiply reads them.  By tiles, so that neither
 * side is walked one entry per cache line. */
static void place_own_rows(const hpd_operand *b, int64_t g0, int64_t rows, int64_t k0,
                           int64_t w, hpd_elem *dst)
{
  enum { TILE = 8 };
  char tb;
  const hpd_elem *src = hpd_local_view_b(b, k0, &tb) + hpd_axis_local(&b->rows, g0);
  for (int64_t t0 = 0; t0 < w; t0 += TILE) {
    int64_t t1 = t0 + TILE < w ? t0 + TILE : w;
    for (int64_t j = 0; j < rows; j++)
      for (int64_t t = t0; t < t1; t++)
        dst[t + j * w] = src[j + t * b->ld];
  }
}

void hpd_gathered_start(const hpd_summa *s, hpd_group *grp, const hpd_bcast_how *how)
{
  const hpd_operand *b = s->b;
  int64_t w = grp->g1 - grp->g0;
  int used = 0;
  for (int64_t g0 = 0, g1; g0 < s->nloc; g0 = g1) {
    g1 = block_end(s, g0);
    int root = hpd_axis_owner(&b->rows, g0);
    hpd_elem *place = grp->bbuf + g0 * w;
    if (root == s->myrow)
      place_own_rows(b, g0, g1 - g0, grp->g0, w, place);
    hpd_bcast_started(hpd_bcast_start(place, (size_t)((g1 - g0) * w), root, s->grid->col,
                                      how, &grp->handles[used++]));
  }
  grp->used = used;
}

void hpd_gathered_multiply(const hpd_summa *s, const hpd_group *grp, hpd_gathered_part part,
                           const hpd_progress *progress)
{
  int w = (int)(grp->g1 - grp->g0);
  if (s->mloc == 0 || w == 0)
    return;
  char ta;
  const hpd_elem *a = hpd_local_view_a(s->a, grp->g0, &ta);
  if (part == HPD_GATHERED_ALL) {
    hpd_triangle_update(s->triangle, ta, 'N', w, s->alpha, a, s->a->ld, grp->bbuf, w, NULL,
                        s->c, s->ldc, s->mloc, s->nloc, progress);
    return;
  }
  for (int64_t g0 = 0, g1; g0 < s->nloc; g0 = g1) {
    g1 = block_end(s, g0);
    int own = hpd_axis_owner(&s->b->rows, g0) == s->myrow;
    if ((part == HPD_GATHERED_OWN) != own)
      continue;
    hpd_share_part cols = {0, s->mloc, g0, g1};
    hpd_triangle_update_part(s->triangle, ta, 'N', w, s->alpha, a, s->a->ld,
                             grp->bbuf + g0 * w, w, NULL, s->c, s->ldc, s->mloc, s->nloc,
                             &cols, progress);
    if (progress)
      progress->poll(progress->arg);
  }
}
