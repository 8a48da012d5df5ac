#include "summa.h"

#include "dvfs.h"
#include "energy.h"
#include "local.h"
#include "switch_rule.h"

/* Shorter columns go packed: one message each would cost more than the copy saves. */
#define HPD_COLUMN_MIN_BYTES 8192

/* A group of one panel travels column by column, and its owner sends those columns
 * straight from its share of A and multiplies from them: no packing copy on the path
 * that every other rank of the row waits on.  The ranks of a process row share mloc, so
 * they all decide alike. */
static int a_by_columns(const hpd_summa *s, int64_t g0, int64_t g1)
{
  return s->a->travels && !s->a->trans && hpd_panel_end(s->panels, g0) == g1 &&
         (size_t)s->mloc * sizeof(double) >= HPD_COLUMN_MIN_BYTES;
}

static int a_owned_here(const hpd_summa *s, int64_t g0, int64_t g1)
{
  return a_by_columns(s, g0, g1) && hpd_axis_owner(&s->a->k, g0) == s->mycol;
}

/* Starts the broadcasts of one group: the owner packs its panel into the group buffer,
 * which every rank then broadcasts in place (a one-panel group: see a_by_columns).
 * Returns the number of handles used. */
static int start_group(const hpd_summa *s, int64_t g0, int64_t g1)
{
  int used = 0;
  for (int64_t k0 = g0, k1; k0 < g1; k0 = k1) {
    k1 = hpd_panel_end(s->panels, k0);
    int64_t w = k1 - k0, off = k0 - g0;
    if (s->a->travels) {
      double *slot = s->abuf + off * s->mloc;
      int root = hpd_axis_owner(&s->a->k, k0);
      if (a_by_columns(s, g0, g1)) {
        size_t ld = (size_t)s->mloc;
        if (root == s->mycol) {
          char ta;
          slot = (double *)hpd_local_view_a(s->a, k0, &ta);
          ld = (size_t)s->a->ld;
        }
        hpd_bcast_start_strided(slot, (size_t)s->mloc, (size_t)w, ld, root, s->grid->row,
                                &s->handles[used++]);
      } else {
        if (root == s->mycol)
          hpd_local_pack_a(s->a, k0, w, s->mloc, slot);
        hpd_bcast_start(slot, (size_t)(w * s->mloc), root, s->grid->row,
                        &s->handles[used++]);
      }
    }
    if (s->b->travels) {
      double *slot = s->bbuf + off * s->nloc;
      int root = hpd_axis_owner(&s->b->k, k0);
      if (root == s->myrow)
        hpd_local_pack_b(s->b, k0, w, s->nloc, slot);
      hpd_bcast_start(slot, (size_t)(w * s->nloc), root, s->grid->col, &s->handles[used++]);
    }
  }
  return used;
}

static void multiply_group(const hpd_summa *s, int64_t g0, int64_t g1)
{
  int m = s->mloc, n = s->nloc, w = (int)(g1 - g0);
  if (m == 0 || n == 0 || w == 0)
    return;
  char ta = 'N', tb = 'T';
  const double *a = s->abuf, *b = s->bbuf;
  int lda = m, ldb = n;
  if (!s->a->travels || a_owned_here(s, g0, g1)) {
    a = hpd_local_view_a(s->a, g0, &ta);
    lda = s->a->ld;
  }
  double *gather_into = NULL;
  if (s->b->from_a) {
    b = a; /* row g: sub(C)'s column g, B transposed */
    ldb = lda;
    gather_into = s->bbuf;
  } else if (!s->b->travels) {
    b = hpd_local_view_b(s->b, g0, &tb);
    ldb = s->b->ld;
  }
  hpd_triangle_update(s->triangle, ta, tb, w, s->alpha, a, lda, b, ldb, gather_into, s->c,
                      s->ldc, m, n);
}

int hpd_summa_steps(const hpd_summa *s, int panels)
{
  return s->a->travels || s->b->travels ? panels : 0;
}

/* The strategy may switch the frequency, or hold the switch back for a short group;
 * the ledger books the time either way. */
static void enter_phase(hpd_strategy strategy, int switching, hpd_phase phase)
{
  if (switching)
    hpd_dvfs_phase(strategy, phase);
  else
    hpd_dvfs_hold(strategy);
  hpd_energy_mark((hpd_ledger_phase)phase, hpd_dvfs_current_khz());
}

/* The bytes this rank's broadcasts of one group move. */
static size_t group_bytes(const hpd_summa *s, int64_t width)
{
  int64_t per_column = (s->a->travels ? s->mloc : 0) + (s->b->travels ? s->nloc : 0);
  return (size_t)(width * per_column) * sizeof(double);
}

void hpd_summa_run(const hpd_summa *s)
{
  const hpd_panels *p = s->panels;
  /* Where nothing travels there is no communication phase to slow down for. */
  hpd_strategy strategy = s->a->travels || s->b->travels ? s->strategy : HPD_STRATEGY_NONE;
  for (int64_t g0 = 0; g0 < p->k;) {
    int64_t g1 = g0;
    for (int i = 0; i < s->ngrp && g1 < p->k; i++)
      g1 = hpd_panel_end(p, g1);
    int switching = hpd_switch_pays(strategy, group_bytes(s, g1 - g0));
    enter_phase(strategy, switching, HPD_PHASE_BROADCAST);
    int used = start_group(s, g0, g1);
    hpd_bcast_wait(s->handles, used);
    enter_phase(strategy, switching, HPD_PHASE_MULTIPLY);
    multiply_group(s, g0, g1);
    g0 = g1;
  }
  hpd_energy_mark(HPD_LEDGER_OTHER, hpd_dvfs_current_khz());
}
