#include "idle.h"

#include <sched.h>
#include <time.h>

#include "clock.h"

/* What a sleep takes beyond what it asked for, learned from the sleeps taken (one
 * thread calls the broadcasts, bcast.h), starting from a guess on the safe side. */
static double sleep_overrun_s = HPD_IDLE_OVERRUN_GUESS_S;

/* A running mean that follows the machine, but one sleep that ended late because the
 * core was taken away moves it by an eighth only. */
static void learn_overrun(double seen)
{
  if (seen < 0.0)
    seen = 0.0;
  sleep_overrun_s += (seen - sleep_overrun_s) * 0.125;
}

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
  double late = quiet * HPD_IDLE_PAUSE_SHARE; /* how late the data may be noticed */
  /* A sleep lasts what it asks for plus the kernel's timer slack and the wake-up, 80 us
   * or more here whatever is asked: sleeping before that fits in the lateness allowed
   * would notice the data later than the policy promises. */
  if (quiet < HPD_IDLE_SPIN_S || late < sleep_overrun_s) {
    sched_yield();
    return;
  }
  double pause = late < HPD_IDLE_MAX_PAUSE_S ? late : HPD_IDLE_MAX_PAUSE_S;
  double ask = pause - sleep_overrun_s;
  if (ask < HPD_IDLE_LEAST_ASK_S)
    ask = HPD_IDLE_LEAST_ASK_S; /* a machine whose overrun is above the cap still sleeps */
  nanosleep(&(struct timespec){0, (long)(ask * 1e9)}, NULL);
  learn_overrun(hpd_now() - now - ask);
}
