#include "bcast/idle.h"

#include <sched.h>
#include <time.h>

#include "bcast/bcast.h"
#include "core/clock.h"

/* What a sleep takes beyond what it asked for, and what a yield takes, learned from
 * those taken (one thread calls the broadcasts, bcast.h), starting from guesses. */
static double sleep_overrun_s = HPD_IDLE_OVERRUN_GUESS_S;
static double yield_cost_s = 0.0;
static int cores_shared;   /* this job's ranks outnumber the cores of the node */
static unsigned withheld;  /* give-ups not made because they cost too much */

void hpd_bcast_set_cores_shared(int shared)
{
  cores_shared = shared;
}

/* A running mean that rises fast and falls slowly: once the cores are busy with other
 * work, a rank that gives its core up gets it back a scheduler slice later (milliseconds),
 * and it must learn that within a wait or two, not after dozens of late wake-ups. */
static void learn(double *mean, double seen)
{
  if (seen < 0.0)
    seen = 0.0;
  *mean += (seen - *mean) * (seen > *mean ? HPD_IDLE_LEARN_UP : HPD_IDLE_LEARN_DOWN);
}

/* Whether giving the core up for what it is learned to cost keeps the data from being
 * noticed later than allowed.  Where this job's own ranks share cores the core is handed
 * to a rank that may be the sender, so it is always given up.  Now and then a give-up
 * that does not pay is made anyway, to notice when the machine is quiet again. */
static int give_up_pays(double cost, double allowed)
{
  if (cores_shared || cost <= allowed)
    return 1;
  return ++withheld % HPD_IDLE_PROBE_EVERY == 0;
}

static void timed_yield(void)
{
  double before = hpd_now();
  sched_yield();
  learn(&yield_cost_s, hpd_now() - before);
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
    if (give_up_pays(yield_cost_s, late > HPD_IDLE_YIELD_FREE_S ? late : HPD_IDLE_YIELD_FREE_S))
      timed_yield();
    return;
  }
  double pause = late < HPD_IDLE_MAX_PAUSE_S ? late : HPD_IDLE_MAX_PAUSE_S;
  double ask = pause - sleep_overrun_s;
  if (ask < HPD_IDLE_LEAST_ASK_S)
    ask = HPD_IDLE_LEAST_ASK_S; /* a machine whose overrun is above the cap still sleeps */
  struct timespec asked = {0, (long)(ask * 1e9)};
  nanosleep(&asked, NULL);
  learn(&sleep_overrun_s, hpd_now() - now - ask);
}
