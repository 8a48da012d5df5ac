#include "pdgemm/summa.h"

#include "pdgemm/group.h"
#include "pdgemm/summa_pieces.h"
#include "phase/phase.h"

/* Group after group, each broadcast (at low frequency where the strategy switches) and
 * then multiplied; under the overlap schedule each travels in pieces instead. */
static void run_in_turn(const hpd_summa *s, hpd_strategy strategy)
{
  for (int64_t g0 = 0; g0 < s->panels->k;) {
    hpd_group grp = hpd_group_at(s, g0, 0, 0);
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

/* Two slots: while group g multiplies from one, group g+1 travels into the other; the
 * first group, which nothing hides, travels in pieces.  The ledger books the waits for
 * data as broadcast time and the rest as multiply time, both at the frequency in
 * force. */
static void run_overlapped(const hpd_summa *s)
{
  int64_t slot_width = hpd_group_widest(s->panels, s->ngrp);
  hpd_group now = hpd_group_at(s, 0, 0, slot_width);
  hpd_group next = hpd_group_at(s, now.g1, 1, slot_width);
  int more = next.g0 < s->panels->k;
  if (s->a2) { /* pieces cut one operand only: the first group travels whole */
    hpd_phase_mark(HPD_PHASE_BROADCAST);
    hpd_group_start(s, &now, 0);
    next = now;
    more = 1;
  } else
    hpd_pieces_run(s, &now, more ? &next : NULL);
  for (int slot = s->a2 ? 0 : 1; more; slot ^= 1) {
    now = next;
    hpd_phase_mark(HPD_PHASE_BROADCAST);
    hpd_bcast_wait(now.handles, now.used);
    next = hpd_group_at(s, now.g1, slot ^ 1, slot_width);
    more = next.g0 < s->panels->k;
    if (more)
      hpd_group_start(s, &next, 0);
    hpd_phase_mark(HPD_PHASE_MULTIPLY);
    hpd_progress progress = {hpd_group_poll, &next, HPD_POLL_FLOPS};
    hpd_group_multiply(s, &now, more ? &progress : NULL);
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
  hpd_phase_mark(HPD_PHASE_OTHER);
}
