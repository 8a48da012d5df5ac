#include "pdgemm/panels.h"

int64_t hpd_panel_end(const hpd_panels *p, int64_t k0)
{
  int64_t end = k0 + p->kb < p->k ? k0 + p->kb : p->k;
  if (p->a_cuts) {
    int64_t cut = hpd_axis_next_boundary(p->a_cuts, k0);
    end = cut < end ? cut : end;
  }
  if (p->b_cuts) {
    int64_t cut = hpd_axis_next_boundary(p->b_cuts, k0);
    end = cut < end ? cut : end;
  }
  return end;
}

int hpd_panel_count(const hpd_panels *p, int *widest)
{
  int count = 0;
  int64_t most = 0;
  for (int64_t k0 = 0, k1; k0 < p->k; k0 = k1, count++) {
    k1 = hpd_panel_end(p, k0);
    if (k1 - k0 > most)
      most = k1 - k0;
  }
  *widest = (int)most;
  return count;
}

int64_t hpd_group_widest(const hpd_panels *p, int ngrp)
{
  int64_t most = 0, lo = 0, hi = 0; /* the window [lo, hi) of at most ngrp panels */
  for (int in_window = 0; hi < p->k;) {
    hi = hpd_panel_end(p, hi);
    if (++in_window > ngrp) {
      lo = hpd_panel_end(p, lo);
      in_window--;
    }
    if (hi - lo > most)
      most = hi - lo;
  }
  return most;
}
