#include "pdgemm/ngrp.h"

#include "kernel/elem.h"

uint64_t hpd_ngrp_bytes(int ngrp, int64_t mloc_max, int64_t nloc_max, int kb)
{
  return (uint64_t)ngrp * sizeof(hpd_elem) *
         ((uint64_t)mloc_max * (uint64_t)kb + (uint64_t)kb * (uint64_t)nloc_max);
}

int hpd_ngrp_choose(int forced, double budget, int64_t mloc_max, int64_t nloc_max, int kb,
                    int panels)
{
  if (panels < 1)
    return 1;
  if (forced > 0)
    return forced < panels ? forced : panels;
  double per_panel = (double)hpd_ngrp_bytes(1, mloc_max, nloc_max, kb);
  double fit = per_panel > 0 ? budget / per_panel : (double)panels;
  int ngrp = fit >= (double)panels ? panels : fit < 1.0 ? 1 : (int)fit;
  int pow2 = 1;
  while (pow2 <= ngrp / 2)
    pow2 *= 2;
  return pow2;
}

int hpd_ngrp_overlap(int forced, int mem_ngrp, int widest, int panels, int ahead,
                     int *slots)
{
  if (forced > 0) {
    int ngrp = forced < panels ? forced : panels;
    int groups = (panels + ngrp - 1) / ngrp;
    *slots = groups < 2 ? 1 : groups <= ahead ? groups : ahead + 1;
    return ngrp;
  }
  if (mem_ngrp < 2 || panels < 2) {
    *slots = 1;
    return mem_ngrp;
  }
  if (mem_ngrp < ahead + 1)
    ahead = 1;
  int wide = widest > 0 ? (HPD_OVERLAP_COLUMNS + widest - 1) / widest : 1;
  int fit = mem_ngrp / (ahead + 1);
  *slots = ahead + 1;
  return fit < wide ? fit : wide;
}
