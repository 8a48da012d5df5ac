#include "pdgemm/buffers.h"

#include <stdatomic.h>
#include <stdlib.h>

#include "core/alloc_large.h"
#include "core/log.h"

/* Sizes one buffer for len elements, made by alloc; 0 or -1 (the old one is kept).  A
 * buffer kept from an earlier call is reused while it is not more than twice what this
 * call needs, so that memory held between calls stays within what the threshold allows
 * now. */
static int fit(void **buf, size_t *have, size_t len, size_t size, void *(*alloc)(size_t))
{
  if (len <= *have && *have <= 2 * len)
    return 0;
  free(*buf);
  *buf = NULL;
  *have = 0;
  if (len == 0)
    return 0;
  *buf = alloc(len * size);
  if (!*buf)
    return -1;
  *have = len;
  return 0;
}

/* This rank's buffers for its slots of ngrp panels; 0 or -1. */
static int provide(hpd_buffers *bufs, int ngrp)
{
  size_t width = (size_t)hpd_group_widest(bufs->panels, ngrp) * (size_t)bufs->slots *
                 (size_t)bufs->sides;
  size_t a_len = bufs->a_travels ? (size_t)bufs->mloc * width : 0;
  size_t b_len = bufs->b_travels || bufs->b_gathers ? (size_t)bufs->nloc * width : 0;
  size_t h_len = ((size_t)bufs->handles_per_panel * (size_t)ngrp +
                  (size_t)bufs->handles_per_group) * (size_t)bufs->slots;
  /* The handles are the process's own (alloc_large.h): the simulator's timing mode would
   * fold a large block of them onto every rank's. */
  if (fit((void **)&bufs->a, &bufs->a_len, a_len, sizeof(double), hpd_alloc_large_kept) != 0 ||
      fit((void **)&bufs->b, &bufs->b_len, b_len, sizeof(double), hpd_alloc_large_kept) != 0 ||
      fit((void **)&bufs->handles, &bufs->handles_len, h_len, sizeof(hpd_bcast),
          hpd_alloc_large_own) != 0)
    return -1;
  return 0;
}

int hpd_buffers_agree(hpd_buffers *bufs, int ngrp, int ready, MPI_Comm comm)
{
  static atomic_int warned;
  int wanted = ngrp, short_somewhere = 0;
  for (;;) {
    int ok = ready && ngrp >= 1 && provide(bufs, ngrp) == 0;
    /* MIN of {what this rank can do, -what it proposes, ready, able}: every rank
     * proposed the same and every rank is able exactly when the first two agree. */
    int mine[4] = {ok ? ngrp : ngrp / 2, -ngrp, ready, ok}, all[4];
    MPI_Allreduce(mine, all, 4, MPI_INT, MPI_MIN, comm);
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

size_t hpd_buffers_bytes(const hpd_buffers *bufs)
{
  return bufs->a_len * sizeof(double) + bufs->b_len * sizeof(double) +
         bufs->handles_len * sizeof(hpd_bcast);
}

void hpd_buffers_free(hpd_buffers *bufs)
{
  free(bufs->a);
  free(bufs->b);
  free(bufs->handles);
  bufs->a = bufs->b = NULL;
  bufs->handles = NULL;
  bufs->a_len = bufs->b_len = bufs->handles_len = 0;
}
