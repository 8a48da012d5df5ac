#include "pdgemm/buffers.h"

#include <stdatomic.h>

#include "bcast/wait.h"
#include "core/costs.h"
#include "core/log.h"
#include "core/workspace.h"

/* This rank's buffers for its slots of ngrp panels: HPD_OK, or HPD_STATUS_NO_MEMORY. */
static hpd_status provide(hpd_buffers *bufs, int ngrp)
{
  size_t width = (size_t)hpd_group_widest(bufs->panels, ngrp) * (size_t)bufs->slots *
                 (size_t)bufs->sides;
  size_t a_len = bufs->a_travels ? (size_t)bufs->mloc * width : 0;
  size_t b_len = bufs->b_travels || bufs->b_gathers ? (size_t)bufs->nloc * width : 0;
  size_t h_len = ((size_t)bufs->handles_per_panel * (size_t)ngrp +
                  (size_t)bufs->handles_per_group) * (size_t)bufs->slots;
  bufs->a = hpd_workspace_get(HPD_AREA_ENGINE_A, a_len * sizeof(hpd_elem), bufs->budget);
  bufs->b = hpd_workspace_get(HPD_AREA_ENGINE_B, b_len * sizeof(hpd_elem), bufs->budget);
  bufs->handles =
      hpd_workspace_get(HPD_AREA_ENGINE_HANDLES, h_len * sizeof(hpd_bcast), bufs->budget);
  return (a_len && !bufs->a) || (b_len && !bufs->b) || (h_len && !bufs->handles)
             ? HPD_STATUS_NO_MEMORY
             : HPD_OK;
}

int hpd_buffers_agree(hpd_buffers *bufs, int ngrp, int ready, MPI_Comm comm)
{
  static atomic_int warned;
  int wanted = ngrp, short_somewhere = 0;
  for (;;) {
    int ok = ready && ngrp >= 1 && provide(bufs, ngrp) == HPD_OK;
    /* MIN of {what this rank can do, -what it proposes, ready, able}: every rank
     * proposed the same and every rank is able exactly when the first two agree. */
    int mine[4] = {ok ? ngrp : ngrp / 2, -ngrp, ready, ok}, all[4];
    double cost = hpd_cost_begin(HPD_COST_AGREEMENT);
    hpd_wait_allreduce(mine, all, 4, MPI_INT, MPI_MIN, comm);
    hpd_cost_end(HPD_COST_AGREEMENT, cost);
    if (!all[2] || all[0] < 1) {
      hpd_buffers_free(bufs);
      return 0;
    }
    if (all[3] && all[0] == -all[1]) {
      if (short_somewhere && !atomic_exchange(&warned, 1))
        hpd_warn("not enough memory for pdgemm's group buffers of %d panels: using groups "
                 "of %d (lower HPD_MEM_THRESHOLD or set HPD_NGRP to avoid this)",
                 wanted, ngrp);
      return ngrp;
    }
    if (!all[3]) {
      /* Memory ran short somewhere, maybe on this node: give back the larger buffers
       * before the next, smaller, try. */
      short_somewhere = 1;
      hpd_buffers_free(bufs);
    }
    ngrp = all[0];
  }
}

size_t hpd_buffers_bytes(void)
{
  return hpd_workspace_bytes(HPD_AREA_ENGINE_A) + hpd_workspace_bytes(HPD_AREA_ENGINE_B) +
         hpd_workspace_bytes(HPD_AREA_ENGINE_HANDLES);
}

void hpd_buffers_free(hpd_buffers *bufs)
{
  hpd_workspace_give_back(HPD_AREA_ENGINE_A);
  hpd_workspace_give_back(HPD_AREA_ENGINE_B);
  hpd_workspace_give_back(HPD_AREA_ENGINE_HANDLES);
  bufs->a = bufs->b = NULL;
  bufs->handles = NULL;
}
