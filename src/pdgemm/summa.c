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

/* One group of panels [g0, g1) and the slot of buffers it travels in. */
typedef struct group {
  int64_t g0, g1;
  double *abuf, *bbuf;
  hpd_bcast *handles;
  int used; /* handles started */
} group;

static group group_at(const hpd_summa *s, int64_t g0, int slot, int64_t slot_width)
{
  group g = {.g0 = g0, .g1 = g0};
  for (int i = 0; i < s->ngrp && g.g1 < s->panels->k; i++)
    g.g1 = hpd_panel_end(s->panels, g.g1);
  g.abuf = s->abuf ? s->abuf + slot * slot_width * s->mloc : NULL;
  g.bbuf = s->bbuf ? s->bbuf + slot * slot_width * s->nloc : NULL;
  g.handles = s->handles + slot * 2 * s->ngrp;
  return g;
}

/* Starts the broadcasts of one group: the owner packs its panel into the group buffer,
 * which every rank then broadcasts in place (a one-panel group: see a_by_columns). */
static void start_group(const hpd_summa *s, group *grp)
{
  int64_t g0 = grp->g0, g1 = grp->g1;
  int used = 0;
  for (int64_t k0 = g0, k1; k0 < g1; k0 = k1) {
    k1 = hpd_panel_end(s->panels, k0);
    int64_t w = k1 - k0, off = k0 - g0;
    if (s->a->travels) {
      double *slot = grp->abuf + off * s->mloc;
      int root = hpd_axis_owner(&s->a->k, k0);
      if (a_by_columns(s, g0, g1)) {
        size_t ld = (size_t)s->mloc;
        if (root == s->mycol) {
          char ta;
          slot = (double *)hpd_local_view_a(s->a, k0, &ta);
          ld = (size_t)s->a->ld;
        }
        hpd_bcast_start_strided(slot, (size_t)s->mloc, (size_t)w, ld, root, s->grid->row,
                                &grp->handles[used++]);
      } else {
        if (root == s->mycol)
          hpd_local_pack_a(s->a, k0, w, s->mloc, slot);
        hpd_bcast_start(slot, (size_t)(w * s->mloc), root, s->grid->row,
                        &grp->handles[used++]);
      }
    }
    if (s->b->travels) {
      double *slot = grp->bbuf + off * s->nloc;
      int root = hpd_axis_owner(&s->b->k, k0);
      if (root == s->myrow)
        hpd_local_pack_b(s->b, k0, w, s->nloc, slot);
      hpd_bcast_start(slot, (size_t)(w * s->nloc), root, s->grid->col, &grp->handles[used++]);
    }
  }
  grp->used = used;
}

static void multiply_group(const hpd_summa *s, const group *grp, const hpd_progress *progress)
{
  int64_t g0 = grp->g0, g1 = grp->g1;
  int m = s->mloc, n = s->nloc, w = (int)(g1 - g0);
  if (m == 0 || n == 0 || w == 0)
    return;
  char ta = 'N', tb = 'T';
  const double *a = grp->abuf, *b = grp->bbuf;
  int lda = m, ldb = n;
  if (!s->a->travels || a_owned_here(s, g0, g1)) {
    a = hpd_local_view_a(s->a, g0, &ta);
    lda = s->a->ld;
  }
  double *gather_into = NULL;
  if (s->b->from_a) {
    b = a; /* row g: sub(C)'s column g, B transposed */
    ldb = lda;
    gather_into = grp->bbuf;
  } else if (!s->b->travels) {
    b = hpd_local_view_b(s->b, g0, &tb);
    ldb = s->b->ld;
  }
  hpd_triangle_update(s->triangle, ta, tb, w, s->alpha, a, lda, b, ldb, gather_into, s->c,
                      s->ldc, m, n, progress);
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

/* Operations between two polls of the next group's broadcasts: a few milliseconds of a
 * core's multiply, short against a chunk's time on a network link. */
#define HPD_POLL_FLOPS 1.5e8

static void poll_group(void *arg)
{
  group *next = arg;
  hpd_bcast_test(next->handles, next->used);
}

/* Group after group, each broadcast (at low frequency where the strategy switches) and
 * then multiplied. */
static void run_in_turn(const hpd_summa *s, hpd_strategy strategy)
{
  for (int64_t g0 = 0; g0 < s->panels->k;) {
    group grp = group_at(s, g0, 0, 0);
    int switching = hpd_switch_pays(strategy, group_bytes(s, grp.g1 - grp.g0));
    enter_phase(strategy, switching, HPD_PHASE_BROADCAST);
    start_group(s, &grp);
    hpd_bcast_wait(grp.handles, grp.used);
    enter_phase(strategy, switching, HPD_PHASE_MULTIPLY);
    multiply_group(s, &grp, NULL);
    g0 = grp.g1;
  }
}

/* Two slots: while group g multiplies from one, group g+1 travels into the other.  The
 * ledger books the waits for data as broadcast time and the rest as multiply time, both
 * at the frequency in force. */
static void run_overlapped(const hpd_summa *s)
{
  int64_t slot_width = hpd_group_widest(s->panels, s->ngrp);
  hpd_energy_mark(HPD_LEDGER_BROADCAST, hpd_dvfs_current_khz());
  group now = group_at(s, 0, 0, slot_width);
  start_group(s, &now);
  for (int slot = 0;;) {
    hpd_bcast_wait(now.handles, now.used);
    group next = group_at(s, now.g1, slot ^ 1, slot_width);
    if (next.g0 < s->panels->k)
      start_group(s, &next);
    hpd_energy_mark(HPD_LEDGER_MULTIPLY, hpd_dvfs_current_khz());
    hpd_progress progress = {poll_group, &next, HPD_POLL_FLOPS};
    multiply_group(s, &now, next.used ? &progress : NULL);
    if (next.g0 >= s->panels->k)
      break;
    hpd_energy_mark(HPD_LEDGER_BROADCAST, hpd_dvfs_current_khz());
    now = next;
    slot ^= 1;
  }
}

void hpd_summa_run(const hpd_summa *s)
{
  /* Where nothing travels there is no communication phase to slow down for. */
  int travels = s->a->travels || s->b->travels;
  hpd_strategy strategy = travels ? s->strategy : HPD_STRATEGY_NONE;
  if (travels && s->slots == 2)
    run_overlapped(s);
  else
    run_in_turn(s, strategy);
  hpd_energy_mark(HPD_LEDGER_OTHER, hpd_dvfs_current_khz());
}
