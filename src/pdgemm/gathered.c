#include "gathered.h"

#include "local.h"

/* Rows of op(A) (laid out like sub(C)'s rows) that process row r holds. */
static int64_t rows_of(const hpd_summa *s, int r)
{
  return hpd_axis_count(&s->triangle->rows, s->triangle->m, r);
}

/* Where process row r's block of the group starts in its B buffer (r is not this
 * process's row). */
static double *block_of(const hpd_summa *s, const hpd_group *grp, int r)
{
  int64_t before = 0;
  for (int q = 0; q < r; q++)
    if (q != s->myrow)
      before += rows_of(s, q);
  return grp->bbuf + before * (grp->g1 - grp->g0);
}

void hpd_gathered_start(const hpd_summa *s, hpd_group *grp)
{
  int nprow = s->triangle->rows.nprocs, used = 0;
  for (int64_t k0 = grp->g0, k1; k0 < grp->g1; k0 = k1) {
    k1 = hpd_panel_end(s->panels, k0);
    size_t w = (size_t)(k1 - k0);
    for (int r = 0; r < nprow; r++) {
      size_t rows = (size_t)rows_of(s, r), ld = rows;
      if (rows == 0)
        continue; /* the same on every rank */
      double *at;
      if (r == s->myrow) {
        char ta;
        at = (double *)hpd_local_view_a(s->a, k0, &ta);
        ld = (size_t)s->a->ld;
      } else
        at = block_of(s, grp, r) + (k0 - grp->g0) * (int64_t)rows;
      hpd_bcast_start_strided(at, rows, w, ld, r, s->grid->col,
                              &grp->handles[used++]);
    }
  }
  grp->used = used;
}

void hpd_gathered_multiply(const hpd_summa *s, const hpd_group *grp, hpd_gathered_part part,
                           const hpd_progress *progress)
{
  const hpd_axis *rows = &s->triangle->rows;
  int w = (int)(grp->g1 - grp->g0);
  if (s->mloc == 0 || w == 0)
    return;
  char ta;
  const double *a = hpd_local_view_a(s->a, grp->g0, &ta);
  for (int64_t g0 = 0, g1; g0 < s->nloc; g0 = g1) {
    g1 = hpd_axis_next_boundary(rows, g0);
    g1 = g1 < s->nloc ? g1 : s->nloc;
    int r = hpd_axis_owner(rows, g0);
    int own = r == s->myrow;
    if ((part == HPD_GATHERED_OWN && !own) || (part == HPD_GATHERED_OTHERS && own))
      continue;
    int64_t at = hpd_axis_local(rows, g0);
    const double *b = own ? a + at : block_of(s, grp, r) + at;
    int ldb = own ? s->a->ld : (int)rows_of(s, r);
    hpd_share_part cols = {0, s->mloc, g0, g1};
    hpd_triangle_update_part(s->triangle, ta, 'T', w, s->alpha, a, s->a->ld, b, ldb, NULL,
                             s->c, s->ldc, s->mloc, s->nloc, &cols, progress);
    if (progress)
      progress->poll(progress->arg);
  }
}
