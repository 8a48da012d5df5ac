#include "pdgemm/loop.h"

static int64_t larger(int64_t x, int64_t y)
{
  return x > y ? x : y;
}

static int64_t smaller(int64_t x, int64_t y)
{
  return x < y ? x : y;
}

int hpd_summa_sides(const hpd_summa *s)
{
  return s->a2 ? 2 : 1;
}

int hpd_summa_steps(const hpd_summa *s, int panels)
{
  return s->a->travels || s->b->travels ? panels : 0;
}

/* Rows (zeros in op(A)) or columns (in op(B)) [lo, hi) of sub(C), by global index,
 * against K's indices [g0 + off, g0 + off + w) of the group's panels. */
static void update_band(const hpd_summa *s, int64_t lo, int64_t hi, int64_t off, int w,
                        char ta, char tb, const hpd_elem *a, int lda, const hpd_elem *b,
                        int ldb, const hpd_share_part *part, const hpd_progress *progress)
{
  const hpd_triangle *t = s->triangle;
  hpd_share_part p = *part;
  int64_t dr = 0, dc = 0;
  if (s->zeros_in == 'A') {
    p.r0 = larger(p.r0, hpd_axis_count(&t->rows, lo, s->myrow));
    p.r1 = smaller(p.r1, hpd_axis_count(&t->rows, hi, s->myrow));
    dr = p.r0 - part->r0;
  } else {
    p.c0 = larger(p.c0, hpd_axis_count(&t->cols, lo, s->mycol));
    p.c1 = smaller(p.c1, hpd_axis_count(&t->cols, hi, s->mycol));
    dc = p.c0 - part->c0;
  }
  if (p.r0 >= p.r1 || p.c0 >= p.c1)
    return;
  a += ta == 'N' ? dr + off * lda : dr * lda + off;
  b += tb == 'T' ? dc + off * ldb : dc * ldb + off;
  hpd_triangle_update_part(t, ta, tb, w, s->alpha, a, lda, b, ldb, NULL, s->c, s->ldc,
                           s->mloc, s->nloc, &p, progress);
}

/* op(A)'s row i meets K's index g where i <= g (upper) or i >= g (lower), op(B)'s column
 * j where g <= j (upper) or g >= j (lower): a row (column) before the group (after it)
 * meets all of its panels, one inside the group the panels from its own to the last
 * (from the first to its own), and one after it (before it) none.  So the update goes
 * band by band, each against the panels it meets, and skips only zeros but within the
 * diagonal blocks. */
void hpd_summa_update_part(const hpd_summa *s, int64_t g0, int64_t g1, char ta, char tb, int w,
                           const hpd_elem *a, int lda, const hpd_elem *b, int ldb,
                           hpd_elem *gather_into, const hpd_share_part *part,
                           const hpd_progress *progress)
{
  if (!s->zeros_in) {
    hpd_triangle_update_part(s->triangle, ta, tb, w, s->alpha, a, lda, b, ldb, gather_into,
                             s->c, s->ldc, s->mloc, s->nloc, part, progress);
    return;
  }
  int to_last = (s->zeros_in == 'A') == (s->zeros_uplo == 'U');
  int64_t extent = s->zeros_in == 'A' ? s->triangle->m : s->triangle->n;
  if (to_last)
    update_band(s, 0, g0, 0, w, ta, tb, a, lda, b, ldb, part, progress);
  else
    update_band(s, g1, extent, 0, w, ta, tb, a, lda, b, ldb, part, progress);
  for (int64_t k0 = g0, k1; k0 < g1; k0 = k1) {
    k1 = hpd_panel_end(s->panels, k0);
    if (to_last)
      update_band(s, k0, k1, k0 - g0, (int)(g1 - k0), ta, tb, a, lda, b, ldb, part, progress);
    else
      update_band(s, k0, k1, 0, (int)(k1 - g0), ta, tb, a, lda, b, ldb, part, progress);
  }
}
