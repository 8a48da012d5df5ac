#include "pdgemm/summa.h"

#include "pdgemm/group.h"
#include "pdgemm/summa_pieces.h"
#include "phase/phase.h"

/* Group after group, each broadcast (at low frequency where the strategy switches) and
 * then multiplied; under the overlap schedule each travels in pieces instead. */
static void run_in_turn(const hpd_summa *s, hpd_strategy strategy)
{
  for (int64_t g0 = 0; g0 < s->panels->k;) {
    hpd_group grp = hpd_group_at(s, g0, s->ngrp, 0, 0);
    g0 = grp.g1;
    if (strategy == HPD_STRATEGY_OVERLAP && !s->a2) {
      hpd_pieces_run(s, &grp, NULL);
      continue;
    }
    int switching = hpd_phase_pays(strategy, hpd_group_bytes(s, grp.g1 - grp.g0));
    hpd_phase_enter(strategy, switching, HPD_PHASE_BROADCAST);
    hpd_group_start(s, &grp, 0);
    hpd_bcast_wait(grp.handles, grp.used);
    hpd_phase_enter(strategy, switching, HPD_PHASE_MULTIPLY);
    hpd_group_multiply(s, &grp, NULL);
  }
}

/* The panels of the overlap schedule's next group, at most.  The first group's
 * broadcasts are the call's exposed start, since nothing multiplies while they travel;
 * where its operand is too short to travel in pieces that overlap them with its
 * multiply, the start is cut along K instead: the first group holds one panel, and each
 * group after it at most twice the one before, up to N_grp, since a group travels while
 * the one before it multiplies.  Narrower groups multiply at a lower rate, so a start
 * that pieces already overlap stays at N_grp. */
static int next_most(const hpd_summa *s, int *most)
{
  int now = *most;
  *most = now < s->ngrp / 2 ? 2 * now : s->ngrp;
  return now;
}

/* Slots in turn: while group g multiplies from one, the groups after it travel into the
 * others (as many as slots - 1); the first group, which nothing hides, travels in
 * pieces.  The ledger books the waits for data as broadcast time and the rest as
 * multiply time, both at the frequency in force. */
static void run_overlapped(const hpd_summa *s)
{
  int64_t slot_width = hpd_group_widest(s->panels, s->ngrp);
  int ahead = s->slots - 1; /* groups travelling while one multiplies */
  hpd_group queue[HPD_SLOTS_MAX];
  int count = 0, slot = 0; /* queue[0..count): started, not multiplied; slot: the next's */
  int64_t next_g0 = 0;
  int most = s->a2 || s->b->gathered || hpd_pieces_fit(s, s->cut_max) < 2 ? 1 : s->ngrp;
  hpd_group now = hpd_group_at(s, next_g0, next_most(s, &most), slot, slot_width);
  next_g0 = now.g1;
  slot = (slot + 1) % s->slots;
  if (s->a2) { /* pieces cut one operand only: the first group travels whole */
    hpd_phase_mark(HPD_PHASE_BROADCAST);
    hpd_group_start(s, &now, 0);
    queue[count++] = now;
  } else {
    hpd_group next = hpd_group_at(s, next_g0, next_most(s, &most), slot, slot_width);
    int more = next.g0 < s->panels->k;
    hpd_pieces_run(s, &now, more ? &next : NULL);
    if (more) {
      queue[count++] = next;
      next_g0 = next.g1;
      slot = (slot + 1) % s->slots;
    }
  }
  while (count > 0) {
    now = queue[0];
    for (int i = 1; i < count; i++)
      queue[i - 1] = queue[i];
    count--;
    hpd_phase_mark(HPD_PHASE_BROADCAST);
    hpd_bcast_wait(now.handles, now.used);
    while (count < ahead && next_g0 < s->panels->k) {
      hpd_group later = hpd_group_at(s, next_g0, next_most(s, &most), slot, slot_width);
      hpd_group_start(s, &later, 0);
      queue[count++] = later;
      next_g0 = later.g1;
      slot = (slot + 1) % s->slots;
    }
    hpd_phase_mark(HPD_PHASE_MULTIPLY);
    /* Polling the group travelling next moves every broadcast in flight. */
    hpd_progress progress = {hpd_group_poll, &queue[0], HPD_POLL_FLOPS};
    hpd_group_multiply(s, &now, count > 0 ? &progress : NULL);
  }
}

void hpd_summa_run(const hpd_summa *s)
{
  /* Where nothing travels there is no communication phase to slow down for. */
  int travels = s->a->travels || s->b->travels;
  hpd_strategy strategy = travels ? s->strategy : HPD_STRATEGY_NONE;
  if (travels && s->slots >= 2)
    run_overlapped(s);
  else
    run_in_turn(s, strategy);
  hpd_phase_mark(HPD_PHASE_OTHER);
}
