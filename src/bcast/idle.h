/*
 * What a waiting rank does between two looks at its broadcasts (HPD_WAIT).
 *
 * spin:  look again at once.  Lowest latency; the core stays busy for the whole wait,
 *        and on an oversubscribed node the rank that would send the data may be the
 *        one waiting for that core.
 * yield: offer the core to another runnable process after each look.  Costs one system
 *        call where nobody else wants the core, hands it over where somebody does.
 * sleep: look again at once while data keeps arriving (offering the core after each
 *        look, as yield does, so that a rank sharing the core is not held up); once
 *        nothing has moved for a short while, sleep in pauses of a sixteenth of the time
 *        waited so far, up to a cap.  The core idles for most of a long wait, and the
 *        data is noticed at most a sixteenth late: doubling pauses would make a 2 ms
 *        wait a 4 ms one.  A sleep overruns what it asks for by the kernel's timer slack
 *        and the wake-up (about 80 us on the development machine, for any request up to
 *        that), so the policy learns the overrun from its own sleeps, asks for that much
 *        less, and keeps looking until a sixteenth of the wait covers it: waits shorter
 *        than about 16 overruns (1.3 ms there) are spent as under yield, and where a
 *        yield is learned to give the core away for long (other jobs), as under spin.
 *        A sleeping rank does not drive MPI, so a message that needs many protocol
 *        steps (one large piece) crawls: this policy suits the chunked pipeline, whose every chunk counts as
 *        movement (tune.h keeps its chunks small enough under this policy).
 */
#ifndef HPD_BCAST_IDLE_H
#define HPD_BCAST_IDLE_H

#include "hpdaemon.h"

/* How long nothing must move before the sleep policy sleeps, the share of the quiet
 * time so far that one pause may take, and the longest pause.  Each sleep costs some
 * CPU to enter and leave (about 20 us on a virtual machine), so pauses must not stay
 * short: the number of sleeps grows only with the logarithm of the wait.  But a rank
 * wakes up to a pause late, and in a factorization it waits for the panel's owner on
 * the critical path once per panel: a sixteenth of the wait, at most 250 us, kept LU and
 * Cholesky at NB = 32 within noise of spinning, where a quarter and 1 ms cost them 4%. */
#define HPD_IDLE_SPIN_S 50e-6
#define HPD_IDLE_PAUSE_SHARE 0.0625
#define HPD_IDLE_MAX_PAUSE_S 250e-6
/* The overrun assumed before the first sleep has been timed, and the least a sleep asks
 * for (a request of 0 may return at once). */
#define HPD_IDLE_OVERRUN_GUESS_S 100e-6
#define HPD_IDLE_LEAST_ASK_S 1e-6
/* Busy cores.  With other jobs running, a yield or a sleep gives the core away for a
 * scheduler slice (3 to 20 ms seen here at load 3 to 7), so short calls took five times
 * the reference's time.  A yield costs about a microsecond where nobody else wants the
 * core; one learned to cost more than this, and more than the lateness allowed, is not
 * made: the rank looks again at once, as spin does (unless this job's own ranks share
 * the cores, where the core must go to them).  Learning: up by half, down by an eighth;
 * one withheld give-up in 64 is made anyway, to learn when the cores are free again. */
#define HPD_IDLE_YIELD_FREE_S 20e-6
#define HPD_IDLE_LEARN_UP 0.5
#define HPD_IDLE_LEARN_DOWN 0.125
#define HPD_IDLE_PROBE_EVERY 64

typedef struct hpd_idle {
  hpd_wait_policy policy;
  double quiet_since; /* when something last moved */
} hpd_idle;

void hpd_idle_begin(hpd_idle *idle, hpd_wait_policy policy);

/* Called after each look; moved says whether it found anything new. */
void hpd_idle_step(hpd_idle *idle, int moved);

#endif
