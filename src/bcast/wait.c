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
