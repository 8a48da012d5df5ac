#include "pdgemm/group.h"

#include "pdgemm/gathered.h"
#include "pdgemm/local.h"

/* Shorter columns go packed: one message each would cost more than the copy saves. */
#define HPD_COLUMN_MIN_BYTES 8192

/* A group of one panel travels column by column, and its owner sends those columns
 * straight from its share of A and multiplies from them: no packing copy on the path
 * that every other rank of the row waits on.  The ranks of a process row share mloc, so
 * they all decide alike. */
static int a_by_columns(const hpd_summa *s, int64_t g0, int64_t g1)
{
  return s->a->travels && !s->a->trans && !s->a2 && hpd_panel_end(s->panels, g0) == g1 &&
         (size_t)s->mloc * sizeof(hpd_elem) >= HPD_COLUMN_MIN_BYTES;
}

static int a_owned_here(const hpd_summa *s, int64_t g0, int64_t g1)
{
  return a_by_columns(s, g0, g1) && hpd_axis_owner(&s->a->k, g0) == s->mycol;
}

hpd_group hpd_group_at(const hpd_summa *s, int64_t g0, int most, int slot,
                       int64_t slot_width)
{
  hpd_group g = {.g0 = g0, .g1 = g0};
  for (int i = 0; i < most && g.g1 < s->panels->k; i++)
    g.g1 = hpd_panel_end(s->panels, g.g1);
  int64_t width = slot_width * hpd_summa_sides(s);
  g.abuf = s->abuf ? s->abuf + slot * width * s->mloc : NULL;
  g.bbuf = s->bbuf ? s->bbuf + slot * width * s->nloc : NULL;
  g.handles = s->handles + slot * (s->handles_per_panel * s->ngrp + s->handles_per_group);
  return g;
}

void hpd_group_start(const hpd_summa *s, hpd_group *grp, int only_b)
{
  /* With two slots or more, every group after the first travels while one before it
   * multiplies: a hidden batch (bcast.h). */
  int hidden = s->slots >= 2 && grp->g0 > 0;
  const hpd_bcast_how how =
      hpd_bcast_batch(hpd_grid_bcast(s->grid), hidden, s->hidden_polls);
  if (s->b->gathered) {
    hpd_gathered_start(s, grp, &how);
    return;
  }
  int64_t g0 = grp->g0, g1 = grp->g1;
  int used = 0;
  for (int64_t k0 = g0, k1; k0 < g1; k0 = k1) {
    k1 = hpd_panel_end(s->panels, k0);
    int64_t w = k1 - k0, off = k0 - g0;
    if (s->a->travels && !only_b) {
      hpd_elem *slot = grp->abuf + off * s->mloc;
      int root = hpd_axis_owner(&s->a->k, k0);
      if (a_by_columns(s, g0, g1)) {
        size_t ld = (size_t)s->mloc;
        if (root == s->mycol) {
          char ta;
          slot = (hpd_elem *)hpd_local_view_a(s->a, k0, &ta);
          ld = (size_t)s->a->ld;
        }
        hpd_bcast_started(hpd_bcast_start_strided(slot, (size_t)s->mloc, (size_t)w, ld,
                                                  root, s->grid->row, &how,
                                                  &grp->handles[used++]));
      } else {
        if (root == s->mycol)
          hpd_local_pack_a(s->a, k0, w, 0, s->mloc, slot);
        hpd_bcast_started(hpd_bcast_start(slot, (size_t)(w * s->mloc), root, s->grid->row,
                                          &how, &grp->handles[used++]));
      }
    }
    if (s->a2 && !only_b) { /* B's panel, in the second half of the group's A buffer */
      hpd_elem *slot = grp->abuf + (g1 - g0 + off) * s->mloc;
      int root = hpd_axis_owner(&s->a2->k, k0);
      if (root == s->mycol)
        hpd_local_pack_a(s->a2, k0, w, 0, s->mloc, slot);
      hpd_bcast_started(hpd_bcast_start(slot, (size_t)(w * s->mloc), root, s->grid->row,
                                        &how, &grp->handles[used++]));
    }
    if (s->b->travels) {
      hpd_elem *slot = grp->bbuf + off * s->nloc;
      int root = hpd_axis_owner(&s->b->k, k0);
      if (root == s->myrow)
        hpd_local_pack_b(s->b, k0, w, 0, s->nloc, slot);
      hpd_bcast_started(hpd_bcast_start(slot, (size_t)(w * s->nloc), root, s->grid->col,
                                        &how, &grp->handles[used++]));
    }
  }
  grp->used = used;
}

void hpd_group_multiply(const hpd_summa *s, const hpd_group *grp,
                        const hpd_progress *progress)
{
  int64_t g0 = grp->g0, g1 = grp->g1;
  int m = s->mloc, n = s->nloc, w = (int)(g1 - g0) * hpd_summa_sides(s);
  if (m == 0 || n == 0 || w == 0)
    return;
  if (s->b->gathered) {
    hpd_gathered_multiply(s, grp, HPD_GATHERED_ALL, progress);
    return;
  }
  char ta = 'N', tb = 'T';
  const hpd_elem *a = grp->abuf, *b = grp->bbuf;
  int lda = m, ldb = n;
  if (!s->a->travels || a_owned_here(s, g0, g1)) {
    a = hpd_local_view_a(s->a, g0, &ta);
    lda = s->a->ld;
  }
  hpd_elem *gather_into = NULL;
  const hpd_share_part whole = {0, m, 0, n};
  if (s->b->from_a) {
    b = a; /* row g: sub(C)'s column g, B transposed */
    ldb = lda;
    gather_into = grp->bbuf;
  } else if (!s->b->travels) {
    b = hpd_local_view_b(s->b, g0, &tb);
    ldb = s->b->ld;
  }
  /* A group whose whole multiply fits between two polls would not poll while it
   * multiplies, and the broadcasts travelling behind it would wait for its end to move
   * on (a flat broadcast's forward, a chain's next hop): it goes panel by panel, polling
   * between two.  A pair's and a gathered B's groups stay whole. */
  if (progress && !s->a2 && !s->b->from_a && hpd_panel_end(s->panels, g0) < g1 &&
      hpd_poll_strip(progress->strip_flops, 2.0 * m * w, n) >= n) {
    for (int64_t k0 = g0, k1; k0 < g1; k0 = k1) {
      k1 = hpd_panel_end(s->panels, k0);
      int64_t off = k0 - g0;
      hpd_summa_update_part(s, k0, k1, ta, tb, (int)(k1 - k0),
                            ta == 'N' ? a + off * lda : a + off, lda,
                            tb == 'T' ? b + off * ldb : b + off, ldb, NULL, &whole, NULL);
      if (k1 < g1)
        progress->poll(progress->arg);
    }
    return;
  }
  hpd_summa_update_part(s, g0, g1, ta, tb, w, a, lda, b, ldb, gather_into, &whole, progress);
}

size_t hpd_group_bytes(const hpd_summa *s, int64_t width)
{
  int64_t per_column = (s->a->travels ? s->mloc * hpd_summa_sides(s) : 0) +
                       (s->b->travels ? s->nloc : 0);
  return (size_t)(width * per_column) * sizeof(hpd_elem);
}

void hpd_group_poll(void *arg)
{
  hpd_group *grp = arg;
  hpd_bcast_test(grp->handles, grp->used);
}
