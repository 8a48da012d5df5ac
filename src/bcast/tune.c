#include "bcast/tune.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bcast/counters.h"
#include "bcast/launch.h"
#include "bcast/tune_table.h"
#include "bcast/wait.h"
#include "core/alloc_all.h"
#include "core/clock.h"
#include "core/config.h"
#include "core/costs.h"
#include "core/log.h"

#define MAX_CANDIDATES 16


static uint64_t at_most(uint64_t chunk, size_t bytes)
{
  return chunk < bytes ? chunk : bytes;
}

/* Candidates smaller than the message, then "one chunk", as HPD_CHUNK_MAX: stored
 * that way, a later message of the class also goes whole, whatever its size.  Under the
 * sleep policy, no piece above HPD_TUNE_SLEEP_LARGEST (tune.h).  The list must be the
 * same on every rank, so wait is rank 0's policy, not this rank's. */
static int candidates(size_t bytes, uint64_t wait, uint64_t *out)
{
  uint64_t largest = wait == HPD_WAIT_SLEEP ? HPD_TUNE_SLEEP_LARGEST : HPD_TUNE_LARGEST;
  int n = 0;
  for (uint64_t c = HPD_TUNE_SMALLEST; c <= largest && c < bytes; c <<= 1)
    out[n++] = c;
  if (bytes <= largest || largest == HPD_TUNE_LARGEST)
    out[n++] = HPD_CHUNK_MAX;
  return n;
}

/*
 * Trials must see the caches as a real broadcast finds them, or they pick the wrong
 * chunk.  Between two broadcasts every rank multiplies, streaming through far more data
 * than its caches hold, and the root then packs the next panel: the receivers' buffers
 * have left their caches and the root's data sits modified in its own.  A message that
 * goes in one piece is copied straight from the root's pages into the receiver's, and
 * that copy is fast only when both are cached and clean: resending one buffer back to
 * back, a 248 KiB message took 14 us in one piece and 27 us in 8 KiB chunks, but 40 and
 * 30 us once the root had just written it and the receiver had written 4 MiB elsewhere
 * (chunks go through the transport's own buffers, which stay cached).  So before each
 * trial the receivers write through an area twice their L2 cache (at least 4 MiB), and
 * the root sends a fresh copy of its data, made after the common start as a packing
 * would be: its own scratch, never the caller's data, which may be read-only.  Where
 * either allocation fails, that rank's half of this is skipped.
 */
typedef struct trial_data {
  void *buf;
  const hpd_bcast_layout *layout;
  void *scratch; /* the root's, else NULL */
  unsigned char *evict; /* a receiver's, else NULL */
  size_t evict_bytes;
} trial_data;

#ifndef HPD_SIMULATED
static size_t evict_bytes(void)
{
  long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
  size_t least = (size_t)4 << 20;
  return l2 > 0 && 2 * (size_t)l2 > least ? 2 * (size_t)l2 : least;
}

/* The receivers' area, made at the process's first trial and kept: its contents never
 * matter, and made afresh for every trial its pages would cost every class's first call
 * their faults again (4 MiB: 6 to 10 ms where fresh memory costs 1.5 to 2.5 ms a MiB, as
 * on the guests of timing/notes/2026-12-05.md, more than the trials themselves).  NULL
 * where it cannot be made. */
static unsigned char *evict_area(size_t *bytes)
{
  static unsigned char *area;
  static size_t made;
  if (!area) {
    made = evict_bytes();
    area = malloc(made);
  }
  *bytes = area ? made : 0;
  return area;
}
#endif

/* evict: whether the receivers clear their caches before each trial (see above). */
static trial_data trial_data_new(hpd_bcast_channel *ch, void *buf,
                                 const hpd_bcast_layout *layout, int root, int evict)
{
  trial_data d = {.buf = buf, .layout = layout};
  if (ch->rank == root) {
    d.scratch = malloc(layout->seg_bytes * layout->segs);
  } else if (evict) {
#ifndef HPD_SIMULATED
    /* A simulated copy takes the platform's time whatever this machine's caches hold,
     * so under the simulator the writing would only cost the simulation. */
    d.evict = evict_area(&d.evict_bytes);
#endif
  }
  return d;
}

static void trial_data_free(trial_data *d)
{
  free(d->scratch);
}

/* What a multiply leaves in a receiver's caches: other data, modified. */
static void fill_caches(const trial_data *d)
{
  for (size_t i = 0; i < d->evict_bytes; i += 64)
    ((volatile unsigned char *)d->evict)[i] = (unsigned char)i;
}

/* reps broadcasts with the given chunk, one after another from a common start; this
 * rank's time for them.  The root's copy is timed, the same for every candidate. */
static double trials(hpd_bcast_channel *ch, const trial_data *d, int root, uint64_t chunk,
                     int reps)
{
  if (d->evict)
    fill_caches(d);
  hpd_wait_barrier(ch->comm);
  double start = hpd_now();
  for (int r = 0; r < reps; r++) {
    void *buf = d->buf;
    hpd_bcast_layout layout = *d->layout;
    if (d->scratch) {
      for (size_t s = 0; s < layout.segs; s++)
        memcpy((unsigned char *)d->scratch + s * layout.seg_bytes,
               (const unsigned char *)buf + s * layout.stride, layout.seg_bytes);
      buf = d->scratch;
      layout.stride = layout.seg_bytes; /* the root's stride may differ from the others' */
    }
    hpd_bcast h;
    hpd_tree_launch(&h, ch, HPD_TREE_CHAIN, buf, &layout, chunk, root, 0);
    hpd_bcast_drive(&h, 1);
  }
  return hpd_now() - start;
}

/* One broadcast, as trials times it. */
static double trial(hpd_bcast_channel *ch, const trial_data *d, int root, uint64_t chunk)
{
  return trials(ch, d, root, chunk, 1);
}

/* Trials of a message of bytes from rank 0 on scratch of the library's own, timed as
 * tuning (core/costs.h, the trials' counter): what the link measurements outside a real
 * broadcast share.  Collective over ch. */
typedef struct scratch_trials {
  void *scratch;
  hpd_bcast_layout layout;
  trial_data data;
  double cost, start;
} scratch_trials;

/* The scratch of a link measurement on every rank of ch, or on none (agreed): a rank
 * that ran short would otherwise stop the job, since the others are about to time
 * broadcasts with it.  Without it the measurement is not made (one warning), and the
 * channel keeps its provisional chunk and no rate, as while tuning is held. */
static void *scratch_all(hpd_bcast_channel *ch, size_t bytes)
{
  static int warned;
  void *scratch = calloc(bytes, 1);
  if (hpd_all_have(scratch != NULL, ch->comm, hpd_collective_waiter()))
    return scratch;
  free(scratch);
  if (!warned++)
    hpd_warn("not enough memory for a broadcast trial of %zu bytes on every rank: the "
             "link is not measured, and its broadcasts keep their provisional chunk",
             bytes);
  return NULL;
}

/* 1 with t begun, 0 where the scratch could not be had (scratch_all). */
static int scratch_trials_begin(scratch_trials *t, hpd_bcast_channel *ch, size_t bytes,
                                int evict)
{
  t->scratch = scratch_all(ch, bytes);
  if (!t->scratch)
    return 0;
  t->layout = hpd_layout_contiguous(bytes);
  t->cost = hpd_cost_begin(HPD_COST_TUNING);
  t->start = hpd_now();
  t->data = trial_data_new(ch, t->scratch, &t->layout, 0, evict);
  return 1;
}

static void scratch_trials_end(scratch_trials *t)
{
  trial_data_free(&t->data);
  free(t->scratch);
  hpd_counters_add_trials(hpd_now() - t->start);
  hpd_cost_end(HPD_COST_TUNING, t->cost);
}

static int rounds_last;

int hpd_tune_rounds_last(void)
{
  return rounds_last;
}

/* Each of the count figures becomes the largest any rank of ch has. */
static void slowest(hpd_bcast_channel *ch, double *figures, int count)
{
  hpd_wait_allreduce(MPI_IN_PLACE, figures, count, MPI_DOUBLE, MPI_MAX, ch->comm);
}

/* The rounds that fit in HPD_TUNE_TRIALS_S at the first round's time (tune.h). */
static int rounds_within(const double *first, int n)
{
  double round_s = 0.0;
  for (int k = 0; k < n; k++)
    round_s += first[k];
  if (!(round_s * HPD_TUNE_REPS > HPD_TUNE_TRIALS_S))
    return HPD_TUNE_REPS;
  int fit = (int)(HPD_TUNE_TRIALS_S / round_s);
  return fit < 1 ? 1 : fit;
}

static uint64_t measure(hpd_bcast_channel *ch, void *buf, const hpd_bcast_layout *layout,
                        int root, uint64_t wait, int most_rounds, double *best_s)
{
  size_t bytes = layout->seg_bytes * layout->segs;
  uint64_t cand[MAX_CANDIDATES];
  int n = candidates(bytes, wait, cand);
  double times[HPD_TUNE_REPS][MAX_CANDIDATES] = {{0}};
  double cost = hpd_cost_begin(HPD_COST_TUNING);
  double start = hpd_now();
  trial_data data = trial_data_new(ch, buf, layout, root, 1);
  /* Untimed first: the receivers' pages may not have been touched yet. */
  trial(ch, &data, root, cand[n - 1]);
  int reps = HPD_TUNE_REPS;
  for (int rep = 0; rep < reps; rep++) {
    for (int i = 0; i < n; i++) {
      /* Alternate the order, so that drift in the machine's load favours no end. */
      int k = rep % 2 ? n - 1 - i : i;
      times[rep][k] = trial(ch, &data, root, cand[k]);
    }
    if (rep == 0) {
      /* A broadcast takes as long as its slowest rank; the maximum is exact, so every
       * rank gets the same figures, takes the same number of rounds and picks the same
       * candidate below. */
      slowest(ch, times[0], n);
      reps = rounds_within(times[0], n);
      reps = reps < most_rounds ? reps : most_rounds;
    }
  }
  trial_data_free(&data);
  hpd_counters_add_trials(hpd_now() - start);
  rounds_last = reps;
  if (reps > 1)
    slowest(ch, times[1], (reps - 1) * MAX_CANDIDATES);
  hpd_cost_end(HPD_COST_TUNING, cost);
  /* Interference from other work only ever adds time, so a candidate's best time is
   * what it can do. */
  double best_of[MAX_CANDIDATES] = {0};
  int best = 0;
  for (int k = 0; k < n; k++) {
    best_of[k] = times[0][k];
    for (int rep = 1; rep < reps; rep++)
      if (times[rep][k] < best_of[k])
        best_of[k] = times[rep][k];
    if (best_of[k] < best_of[best])
      best = k;
  }
  /* Near-ties go to the largest chunk: fewer messages, and no noisy pick of a tiny one. */
  for (int k = 0; k < n; k++)
    if (best_of[k] <= best_of[best] * (1 + HPD_TUNE_TOLERANCE) && cand[k] > cand[best])
      best = k;
  *best_s = best_of[best];
  return cand[best];
}

/* The fastest rate ch measured over size class from and every longer one (0: none). */
static double fastest_from(const hpd_bcast_channel *ch, int from)
{
  double best = 0.0;
  for (int cls = from; ch && cls < HPD_SIZE_CLASSES; cls++)
    best = ch->rate[cls] > best ? ch->rate[cls] : best;
  return best;
}

/* The fastest rate ch knows for messages of bytes: over the class of bytes and every
 * longer one, and only where the class of bytes itself has been measured (0 otherwise). */
static double known_rate(const hpd_bcast_channel *ch, size_t bytes)
{
  int own = bytes ? hpd_size_class(bytes) : 0;
  return ch && ch->rate[own] > 0.0 ? fastest_from(ch, own) : 0.0;
}

double hpd_bcast_link_rate(MPI_Comm comm, size_t bytes)
{
  return known_rate(hpd_channel_find(comm), bytes);
}

double hpd_bcast_link_rate_fastest(MPI_Comm comm)
{
  const hpd_bcast_channel *ch = hpd_channel_find(comm);
  double best = fastest_from(ch, 0);
  if (ch && ch->stream_rate > best)
    best = ch->stream_rate;
  for (int cls = 0; ch && cls < HPD_SIZE_CLASSES; cls++)
    best = ch->whole_rate[cls] > best ? ch->whole_rate[cls] : best;
  return best;
}

/* hpd_bcast_measure_link's rate before its fallback to the stream rate. */
static double measured_link(MPI_Comm comm, size_t bytes, const hpd_bcast_how *how)
{
  int size = 1;
  MPI_Comm_size(comm, &size);
  if (size < 2 || bytes <= HPD_TUNE_SMALLEST || hpd_config_get()->chunk)
    return known_rate(hpd_channel_find(comm), bytes);
  hpd_bcast_channel *ch = hpd_channel_get(comm);
  double rate = known_rate(ch, bytes); /* the same on every rank of ch */
  static const hpd_bcast_how plain = {0};
  how = how ? how : &plain;
  if (rate > 0.0 || (how->hold_tuning && !how->probe_rate))
    return rate;
  if (!how->hold_tuning) {
    void *scratch = scratch_all(ch, bytes);
    if (!scratch)
      return 0.0;
    hpd_bcast_layout layout = hpd_layout_contiguous(bytes);
    int delivered = 0;
    hpd_tune_chunk(ch, scratch, &layout, 0, how, &delivered);
    free(scratch);
  }
  hpd_tune_probe(ch, bytes, how); /* where the trials were held or did not fit */
  return known_rate(ch, bytes);
}

double hpd_bcast_measure_link(MPI_Comm comm, size_t bytes, const hpd_bcast_how *how)
{
  double rate = measured_link(comm, bytes, how);
  const hpd_bcast_channel *ch = hpd_channel_find(comm);
  return rate > 0.0 || !ch ? rate : ch->stream_rate;
}

void hpd_bcast_set_stream_rate(MPI_Comm comm, double rate)
{
  hpd_bcast_channel *ch = hpd_channel_find(comm);
  if (ch)
    ch->stream_rate = rate;
}

/* A few are enough: the figure is a best time, and a slow one costs a whole message. */
#define WHOLE_TRIALS 3
/* A message that takes this long is timed well by one trial (the link's rate, not the
 * clock or the ranks' release, sets it), so a panel of 512 KiB over 1 Gbit/s costs a
 * class's first call two messages, not four.  The untimed first still goes first: it
 * touches the receivers' pages, and a link that was idle may pass it faster than its
 * rate (the emulated hosts' token bucket let 512 KiB through in 2.6 ms, not 4.2). */
#define WHOLE_LONG_S 1e-3

/* A timing of whole messages covers at least this much: a message of a few KiB crosses
 * shared memory in microseconds, less than the spread of the ranks' release from the
 * barrier that starts a trial, so timed alone it reads far below the rate at which
 * PBLAS's panels, sent one after another, cross, and the reference's bound (predict.h)
 * would exceed its calls. */
#define WHOLE_TIMED_S 200e-6

double hpd_bcast_whole_rate(MPI_Comm comm, size_t bytes, const hpd_bcast_how *how)
{
  int size = 1;
  MPI_Comm_size(comm, &size);
  if (size < 2 || bytes == 0 || (how && how->hold_tuning))
    return 0.0;
  hpd_bcast_channel *ch = hpd_channel_get(comm);
  int cls = hpd_size_class(bytes);
  if (ch->whole_rate[cls] > 0.0)
    return ch->whole_rate[cls];
  scratch_trials t;
  if (!scratch_trials_begin(&t, ch, bytes, 0))
    return 0.0;
  double first = trial(ch, &t.data, 0, HPD_CHUNK_MAX); /* untimed: the receivers' pages */
  slowest(ch, &first, 1);
  int reps = first > 0.0 && first < WHOLE_TIMED_S ? (int)ceil(WHOLE_TIMED_S / first) : 1;
  int count = first >= WHOLE_LONG_S ? 1 : WHOLE_TRIALS;
  double times[WHOLE_TRIALS];
  for (int i = 0; i < count; i++)
    times[i] = trials(ch, &t.data, 0, HPD_CHUNK_MAX, reps) / reps;
  slowest(ch, times, count);
  scratch_trials_end(&t);
  double best = times[0];
  for (int i = 1; i < count; i++)
    best = times[i] < best ? times[i] : best;
  ch->whole_rate[cls] = best > 0.0 ? (double)bytes / best : 0.0;
  return ch->whole_rate[cls];
}

/* While tuning is held (tune.h, HPD_TUNE_PROVISIONAL). */
static uint64_t provisional(const hpd_bcast_channel *ch, int cls, size_t bytes)
{
  if (ch->probed[cls])
    return ch->probed[cls];
  for (int longer = cls + 1; longer < HPD_SIZE_CLASSES; longer++)
    if (ch->chunk[longer])
      return ch->chunk[longer];
  if (ch->hosts < 2)
    return HPD_TUNE_PROVISIONAL;
  uint64_t chunk = HPD_TUNE_PROVISIONAL;
  while (chunk < HPD_TUNE_SLEEP_LARGEST && 2 * chunk * (uint64_t)ch->size <= bytes)
    chunk <<= 1;
  return chunk;
}

/* The seconds one message of bytes takes on ch at its size class's measured rate (a
 * probe's, or a whole message's), else at the line's stream rate, the same on every
 * rank; 0 where none is known. */
static double one_message_s(const hpd_bcast_channel *ch, int cls, size_t bytes)
{
  double rate = ch->rate[cls] > 0.0       ? ch->rate[cls]
                : ch->whole_rate[cls] > 0.0 ? ch->whole_rate[cls]
                                            : ch->stream_rate;
  return rate > 0.0 ? (double)bytes / rate : 0.0;
}

void hpd_tune_probe(hpd_bcast_channel *ch, size_t bytes, const hpd_bcast_how *how)
{
  if (!how->probe_rate || !(how->hold_tuning || how->trials_capped) || ch->size < 2 ||
      bytes <= HPD_TUNE_SMALLEST || hpd_config_get()->chunk || ch->stream_rate > 0.0)
    return;
  int cls = hpd_size_class(bytes);
  if (ch->chunk[cls] || ch->rate[cls] > 0.0)
    return;
  uint64_t chunk[2] = {at_most(provisional(ch, cls, bytes), bytes), HPD_CHUNK_MAX};
  int count = chunk[0] < bytes && bytes <= HPD_TUNE_SLEEP_LARGEST ? 2 : 1;
  scratch_trials t;
  if (!scratch_trials_begin(&t, ch, bytes, 1))
    return;
  trial(ch, &t.data, 0, chunk[0]); /* untimed: the receivers' pages */
  double seconds[2] = {0.0, 0.0};
  for (int i = 0; i < count; i++)
    seconds[i] = trial(ch, &t.data, 0, chunk[i]);
  slowest(ch, seconds, count);
  scratch_trials_end(&t);
  int pick = count == 2 && seconds[1] <= seconds[0] * (1 + HPD_TUNE_TOLERANCE);
  ch->probed[cls] = chunk[pick];
  ch->rate[cls] = seconds[pick] > 0.0 ? (double)bytes / seconds[pick] : 0.0;
}

/* The rounds of trials ch may run for a size class in this call: HPD_TUNE_REPS where
 * they are not capped; under a cap, as many as the call's budget left on ch covers at
 * one_message_s each (the untimed first, then n per round), measuring the rate first
 * where none is known and how allows it; 0 where not one round fits. */
static int affordable_rounds(hpd_bcast_channel *ch, const hpd_bcast_how *how, int cls,
                             size_t bytes, int n, double *each_s)
{
  *each_s = 0.0;
  if (!how->trials_capped)
    return HPD_TUNE_REPS;
  if (ch->trial_call != how->trial_call) {
    ch->trial_call = how->trial_call;
    ch->trial_budget_left = how->trial_budget_s;
  }
  if (!(one_message_s(ch, cls, bytes) > 0.0))
    hpd_tune_probe(ch, bytes, how);
  *each_s = one_message_s(ch, cls, bytes);
  if (!(*each_s > 0.0))
    return 0;
  double rounds = (ch->trial_budget_left / *each_s - 1.0) / n;
  return rounds >= HPD_TUNE_REPS ? HPD_TUNE_REPS : rounds >= 1.0 ? (int)rounds : 0;
}

uint64_t hpd_tune_chunk(hpd_bcast_channel *ch, void *buf, const hpd_bcast_layout *layout,
                        int root, const hpd_bcast_how *how, int *delivered)
{
  size_t bytes = layout->seg_bytes * layout->segs;
  *delivered = 0;
  const hpd_settings *cfg = hpd_config_get();
  if (cfg->chunk)
    return at_most(cfg->chunk, bytes);
  if (bytes <= HPD_TUNE_SMALLEST)
    return bytes; /* one chunk whatever is chosen: nothing to agree on */
  int cls = hpd_size_class(bytes);
  if (!ch->chunk[cls] && how->hold_tuning)
    return at_most(provisional(ch, cls, bytes), bytes);
  if (!ch->chunk[cls] && !ch->asked[cls]) {
    /* Rank 0's proposal (a chunk and its rate, as bits), and its wait policy: ranks may
     * wait differently, but they must time the same candidates.  Asked once a class. */
    uint64_t proposal[3] = {0, cfg->wait, 0};
    if (ch->rank == 0) {
      double rate = 0.0;
      proposal[0] = hpd_tune_table_lookup(ch->size, ch->hosts, cls, &rate);
      memcpy(&proposal[2], &rate, sizeof rate);
    }
    hpd_wait_bcast(proposal, 3, MPI_UINT64_T, 0, ch->comm);
    ch->asked[cls] = 1;
    ch->trial_wait[cls] = proposal[1];
    if (proposal[0]) {
      memcpy(&ch->rate[cls], &proposal[2], sizeof ch->rate[cls]);
      ch->chunk[cls] = proposal[0];
    }
  }
  if (!ch->chunk[cls]) {
    uint64_t cand[MAX_CANDIDATES];
    double each_s = 0.0;
    int n = candidates(bytes, ch->trial_wait[cls], cand);
    int rounds = affordable_rounds(ch, how, cls, bytes, n, &each_s);
    if (rounds == 0)
      return at_most(provisional(ch, cls, bytes), bytes);
    double best_s = 0.0;
    uint64_t chunk = measure(ch, buf, layout, root, ch->trial_wait[cls], rounds, &best_s);
    ch->trial_budget_left -= each_s * (1 + n * rounds_last);
    /* The slowest rank's best time: the same rate on every rank of the channel. */
    ch->rate[cls] = best_s > 0.0 ? (double)bytes / best_s : 0.0;
    ch->chunk[cls] = chunk;
    *delivered = 1;
    if (ch->rank == 0)
      hpd_tune_table_store(ch->size, ch->hosts, cls, chunk, ch->rate[cls]);
  }
  return at_most(ch->chunk[cls], bytes);
}
