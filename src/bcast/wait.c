#include "wait.h"

#include "config.h"
#include "counters.h"
#include "idle.h"
#include "inflight.h"

static int all_done(const hpd_bcast *handles, int n)
{
  for (int i = 0; i < n; i++)
    if (!handles[i].done)
      return 0;
  return 1;
}

void hpd_bcast_drive(hpd_bcast *handles, int n)
{
  hpd_idle idle;
  int moved = hpd_inflight_sweep();
  if (all_done(handles, n))
    return;
  hpd_call_blocks();
  hpd_idle_begin(&idle, hpd_config_get()->wait);
  for (;;) {
    hpd_idle_step(&idle, moved);
    moved = hpd_inflight_sweep();
    if (all_done(handles, n))
      return;
  }
}

void hpd_wait_request(MPI_Request *request)
{
  hpd_idle idle;
  hpd_call_blocks();
  hpd_idle_begin(&idle, hpd_config_get()->wait);
  for (;;) {
    int moved = hpd_inflight_sweep(), flag = 0;
    MPI_Test(request, &flag, MPI_STATUS_IGNORE);
    if (flag)
      return;
    hpd_idle_step(&idle, moved);
  }
}

int hpd_bcast_test(hpd_bcast *handles, int n)
{
  hpd_call_begin();
  hpd_inflight_sweep();
  int done = all_done(handles, n);
  hpd_call_end();
  return done;
}

void hpd_bcast_wait(hpd_bcast *handles, int n)
{
  hpd_call_begin();
  hpd_bcast_drive(handles, n);
  hpd_call_end();
}

int hpd_bcast_has(const hpd_bcast *h, size_t bytes)
{
  if (h->done || bytes == 0)
    return 1;
  if (h->kind != HPD_BCAST_PIPELINE && h->kind != HPD_BCAST_BINOMIAL)
    return 0;
  /* Chunks arrive in order, per_seg to a segment, the last of each possibly short. */
  size_t segs = h->received / h->per_seg, within = h->received % h->per_seg;
  size_t arrived = segs * h->layout.seg_bytes + within * h->chunk;
  return arrived >= bytes || h->received == h->chunks;
}

void hpd_bcast_wait_for(hpd_bcast *h, size_t bytes)
{
  if (hpd_bcast_has(h, bytes))
    return;
  hpd_call_begin();
  int moved = hpd_inflight_sweep();
  if (!hpd_bcast_has(h, bytes)) {
    hpd_idle idle;
    hpd_call_blocks();
    hpd_idle_begin(&idle, hpd_config_get()->wait);
    do {
      hpd_idle_step(&idle, moved);
      moved = hpd_inflight_sweep();
    } while (!hpd_bcast_has(h, bytes));
  }
  hpd_call_end();
}
