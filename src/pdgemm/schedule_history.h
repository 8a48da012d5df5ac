/*
 * What a grid's calls have shown of the daemon and overlap schedules (schedule.h), per
 * size class, as rates and ratios.  Each follows its observations from below: a faster
 * one is taken at once, a slower one moves it a quarter of the way.  One-time costs
 * (first-touch page faults; what the chunk trials of a new message size took is left
 * out before, engine.c) then cannot make a schedule look slow for good, while a link or core that really slows
 * down is followed within a few calls.  Kept in the grid itself, so that every rank of
 * the grid has it exactly when the others do.
 */
#ifndef HPD_PDGEMM_SCHEDULE_HISTORY_H
#define HPD_PDGEMM_SCHEDULE_HISTORY_H

/* Classes of m * n * k by factors of 4: 4^39 is far beyond any memory. */
#define HPD_SCHEDULE_CLASSES 40

typedef struct hpd_daemon_seen {
  double bcast_s_per_byte;    /* this rank's broadcast phases, waits included */
  double bcast_busy;          /* the CPU share of its broadcast calls */
  double multiply_s_per_flop; /* its multiply phases */
  double wall_over_phases;    /* the whole call over the two phases */
} hpd_daemon_seen;

typedef struct hpd_overlap_seen {
  double wall_over_base;      /* the whole call over max(T_b, T_m) from the daemon figures;
                               * 0 until a call had both */
  double busy;                /* its CPU share */
  double multiply_s_per_flop; /* its multiply phases, the waits for data left out */
  /* A call that ran before any daemon figures, kept until they exist to be set against
   * them: its wall time, bytes and flops (0 seconds when there is none). */
  double unset_wall_s, unset_bytes, unset_flops;
} hpd_overlap_seen;

/* A schedule taken this many predicted calls in a row is put to the test: the other one
 * runs once, so that its figures cannot go stale (the first call of a grid, which learns
 * daemon, also pays one-time costs).  Each test that confirms the choice doubles the
 * gap, up to the largest; a change of choice starts it again.  The other schedule runs
 * only where it is predicted within HPD_SCHEDULE_PROBE_WITHIN of the one taken: one
 * predicted further off would need figures wrong by that much to win, and the test
 * would cost that much of a call. */
#define HPD_SCHEDULE_PROBE_FIRST 4
#define HPD_SCHEDULE_PROBE_LAST 256
#define HPD_SCHEDULE_PROBE_WITHIN 0.25

typedef struct hpd_schedule_history {
  int daemon_calls[HPD_SCHEDULE_CLASSES], overlap_calls[HPD_SCHEDULE_CLASSES];
  int taken_last[HPD_SCHEDULE_CLASSES];  /* 0 daemon, 1 overlap */
  int streak[HPD_SCHEDULE_CLASSES];      /* predicted calls in a row that took it */
  int probe_gap[HPD_SCHEDULE_CLASSES];   /* 0 until the first predicted call */
  /* 1 where daemon's figures are the model's, not yet a daemon call's */
  int daemon_modeled[HPD_SCHEDULE_CLASSES];
  hpd_daemon_seen daemon[HPD_SCHEDULE_CLASSES];
  hpd_overlap_seen overlap[HPD_SCHEDULE_CLASSES];
} hpd_schedule_history;

#endif
