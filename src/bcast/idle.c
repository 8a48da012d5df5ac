#include "idle.h"

#include <sched.h>
#include <time.h>

#include "clock.h"

void hpd_idle_begin(hpd_idle *idle, hpd_wait_policy policy)
{
  idle->policy = policy;
  idle->quiet_since = policy == HPD_WAIT_SLEEP ? hpd_now() : 0.0;
}

void hpd_idle_step(hpd_idle *idle, int moved)
{
  switch (idle->policy) {
  case HPD_WAIT_SPIN:
    return;
  case HPD_WAIT_YIELD:
    if (!moved)
      sched_yield();
    return;
  case HPD_WAIT_SLEEP:
  default:
    break;
  }
  double now = hpd_now();
  if (moved) {
    /* Data is flowing: the next chunk is likely close, so go back to spinning. */
    idle->quiet_since = now;
    return;
  }
  double quiet = now - idle->quiet_since;
  if (quiet < HPD_IDLE_SPIN_S) {
    sched_yield();
    return;
  }
  double pause = quiet * HPD_IDLE_PAUSE_SHARE;
  if (pause > HPD_IDLE_MAX_PAUSE_S)
    pause = HPD_IDLE_MAX_PAUSE_S;
  nanosleep(&(struct timespec){0, (long)(pause * 1e9)}, NULL);
}
