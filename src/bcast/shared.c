#include "bcast/shared.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "bcast/channel.h"
#include "bcast/counters.h"
#include "bcast/idle.h"
#include "bcast/inflight.h"
#include "bcast/wait.h"
#include "core/alloc_large.h"
#include "core/config.h"
#include "core/costs.h"
#include "core/log.h"

/* The head of each rank's segment, a cache line of its own, written by that rank only:
 * how far it has published, counted over all exchanges (each exchange's steps after the
 * last one's, so that one word says both which exchange and how far), and the last
 * exchange it finished reading.  Rank 0's segment holds the two areas after its head. */
#define HEAD_BYTES 64
typedef struct head {
  _Atomic uint64_t published, done;
  _Atomic uint64_t synced; /* hpd_shared_sync calls */
} head;

_Static_assert(sizeof(head) <= HEAD_BYTES, "a head fits its cache line");

struct hpd_shared {
  MPI_Win win;
  MPI_Comm comm; /* the channel's, probed while waiting (enter_mpi) */
  int rank, size, broken;
  size_t area_bytes;     /* each of the two areas */
  uint64_t exchange;     /* exchanges begun, the same count on every rank */
  uint64_t steps_before; /* the steps of the exchanges before this one */
  uint64_t span;         /* this exchange's steps */
  uint64_t syncs;        /* hpd_shared_sync calls, the same count on every rank */
  uint64_t last_in[2];   /* the exchange each area held last (0: none yet) */
  size_t made[2];        /* how many leading bytes of each area hpd_shared_make made */
  unsigned char **base;  /* each rank's segment, as mapped here */
};

static head *head_of(const hpd_shared *shared, int q)
{
  return (head *)shared->base[q];
}

static hpd_elem *area_of(const hpd_shared *shared, int which)
{
  return (hpd_elem *)(shared->base[0] + HEAD_BYTES + (size_t)which * shared->area_bytes);
}

/* MPI moves a message only while a process at one end of it is inside MPI: a large
 * message that ScaLAPACK or the program sent before this call waits for its sender to
 * enter MPI again.  A rank that waits here on memory alone, with no broadcast of its
 * own in flight to test, would never enter it, and the rank it waits for may itself be
 * waiting on that message (a 4x2 grid whose reference calls and exchanges alternate
 * did hang so).  A probe that finds nothing drives MPI's progress, in MPICH and in
 * Open MPI alike, but one on MPI_COMM_SELF did not in MPICH: it probes the line's. */
static void enter_mpi(MPI_Comm comm)
{
  int found = 0;
  MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &found, MPI_STATUS_IGNORE);
}

/* Waits, under the wait policy and stepping the broadcasts in flight, until *count
 * reaches at least target. */
static void wait_for(const hpd_shared *shared, _Atomic uint64_t *count, uint64_t target)
{
  if (atomic_load_explicit(count, memory_order_acquire) >= target)
    return;
  hpd_call_begin();
  hpd_call_blocks();
  hpd_idle idle;
  hpd_idle_begin(&idle, hpd_config_get()->wait);
  while (atomic_load_explicit(count, memory_order_acquire) < target) {
    int moved = hpd_inflight_sweep();
    if (!moved)
      enter_mpi(shared->comm);
    hpd_idle_step(&idle, moved);
  }
  hpd_call_end();
}

static void forget_window(hpd_shared *shared)
{
  if (!shared->base)
    return;
  MPI_Win_free(&shared->win);
  free(shared->base);
  shared->base = NULL;
}

/* A window with areas of at least bytes: HPD_OK, or a failure on every rank alike where
 * some rank could not make it. */
static hpd_status make_window(hpd_shared *shared, MPI_Comm comm, size_t bytes)
{
  size_t area = (bytes + HEAD_BYTES - 1) / HEAD_BYTES * HEAD_BYTES;
  if (area < 2 * shared->area_bytes)
    area = 2 * shared->area_bytes; /* areas that keep growing are not reallocated often */
  size_t segment = HEAD_BYTES + (shared->rank == 0 ? 2 * area : 0);
  MPI_Errhandler handler;
  MPI_Comm_get_errhandler(comm, &handler);
  MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  void *mine = NULL;
  /* The segments lie one after the other: placing each apart (MPI's "noncontiguous"
   * hint) cost 8 ms more for 64 MiB as the window was made, and spared nothing of the
   * first writes' cost after it; here one segment holds all the areas anyway. */
  int made = MPI_Win_allocate_shared((MPI_Aint)segment, 1, MPI_INFO_NULL, comm, &mine,
                                     &shared->win) == MPI_SUCCESS;
  MPI_Comm_set_errhandler(comm, handler);
  MPI_Errhandler_free(&handler);
  shared->base = made ? malloc((size_t)shared->size * sizeof *shared->base) : NULL;
  int ok = shared->base != NULL, all = 0;
  hpd_wait_allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, comm);
  if (!all) {
    if (made)
      MPI_Win_free(&shared->win);
    free(shared->base);
    shared->base = NULL;
    return HPD_STATUS_UNAVAILABLE;
  }
  for (int q = 0; q < shared->size; q++) {
    MPI_Aint size;
    int unit;
    MPI_Win_shared_query(shared->win, q, &size, &unit, &shared->base[q]);
  }
  shared->area_bytes = area;
  shared->exchange = 0;
  shared->steps_before = shared->span = shared->syncs = 0;
  shared->last_in[0] = shared->last_in[1] = 0;
  shared->made[0] = shared->made[1] = 0;
  head *own = head_of(shared, shared->rank);
  atomic_init(&own->published, 0);
  atomic_init(&own->done, 0);
  atomic_init(&own->synced, 0);
  hpd_wait_barrier(comm); /* no rank reads a head before its owner has set it */
  return HPD_OK;
}

/* The channel's hook for freeing its exchange with it. */
static void free_attached(void *shared)
{
  hpd_shared_free(shared);
}

hpd_shared *hpd_shared_get(MPI_Comm comm, size_t bytes)
{
#ifdef HPD_SIMULATED
  /* Under the simulator this exchange gave wrong results on hosts of several ranks: its
   * ranks run in turn, switching only inside MPI calls, and its shared windows are not
   * the memory the exchange's atomics assume.  Lines on one host exchange messages
   * instead, which it times over the host's loopback link. */
  (void)comm, (void)bytes;
  return NULL;
#endif
  if (hpd_config_get()->bcast != HPD_BCAST_PIPELINE)
    return NULL;
  hpd_bcast_channel *ch = hpd_channel_get(comm);
  if (ch->size < 2 || ch->hosts != 1 || !atomic_is_lock_free(&(_Atomic uint64_t){0}))
    return NULL;
  hpd_shared *shared = ch->shared;
  if (!shared) {
    if (!(shared = calloc(1, sizeof *shared)))
      hpd_fatal("no memory for a line's shared exchange"); /* the others would wait */
    shared->comm = ch->comm;
    shared->rank = ch->rank;
    shared->size = ch->size;
    ch->shared = shared;
    ch->free_shared = free_attached;
  }
  if (shared->broken)
    return NULL;
  if (shared->base && bytes <= shared->area_bytes)
    return shared;
  /* Every rank gets here together: each finished reading the last exchange before
   * beginning this one, and freeing the window waits for all. */
  if (shared->base) {
    hpd_wait_barrier(ch->comm);
    forget_window(shared);
  }
  double cost = hpd_cost_begin(HPD_COST_BUFFERS);
  hpd_status made = make_window(shared, ch->comm, bytes);
  hpd_cost_end(HPD_COST_BUFFERS, cost);
  if (made != HPD_OK) {
    shared->broken = 1;
    hpd_warn("no shared memory window for the exchanges on a line of the grid: using "
             "broadcasts instead");
    return NULL;
  }
  return shared;
}

hpd_elem *hpd_shared_begin(hpd_shared *shared, int which, uint64_t span, size_t bytes)
{
  uint64_t exchange = ++shared->exchange;
  shared->steps_before += shared->span;
  shared->span = span;
  hpd_counters_add_start(bytes);
  /* Every other rank must have finished with what this area held last. */
  uint64_t last = shared->last_in[which];
  for (int q = 0; last > 0 && q < shared->size; q++)
    if (q != shared->rank)
      wait_for(shared, &head_of(shared, q)->done, last);
  shared->last_in[which] = exchange;
  return area_of(shared, which);
}

void hpd_shared_publish(hpd_shared *shared, uint64_t upto)
{
  atomic_store_explicit(&head_of(shared, shared->rank)->published,
                        shared->steps_before + upto, memory_order_release);
}

void hpd_shared_wait(hpd_shared *shared, int q, uint64_t upto)
{
  wait_for(shared, &head_of(shared, q)->published, shared->steps_before + upto);
}

void hpd_shared_end(hpd_shared *shared)
{
  atomic_store_explicit(&head_of(shared, shared->rank)->done, shared->exchange,
                        memory_order_release);
}

void hpd_shared_sync(hpd_shared *shared)
{
  uint64_t syncs = ++shared->syncs;
  atomic_store_explicit(&head_of(shared, shared->rank)->synced, syncs, memory_order_release);
  for (int q = 0; q < shared->size; q++)
    if (q != shared->rank)
      wait_for(shared, &head_of(shared, q)->synced, syncs);
}

/* Below this many pages an area is left to its first touches: the ranks' sync costs about
 * what making them at once would save. */
#define MAKE_MIN_PAGES 64

void hpd_shared_make(hpd_shared *shared, size_t bytes)
{
  int half = shared->last_in[1] == shared->exchange; /* this exchange's area */
  if (bytes > shared->area_bytes)
    bytes = shared->area_bytes;
  size_t made = shared->made[half];
  long page_size = sysconf(_SC_PAGESIZE);
  size_t page = page_size > 0 ? (size_t)page_size : 4096;
  if (bytes <= made || (bytes - made) / page < MAKE_MIN_PAGES)
    return;
  shared->made[half] = bytes;
  double cost = hpd_cost_begin(HPD_COST_BUFFERS);
  /* Whole pages: those it shares with the head or the other area are made alike, which
   * changes no byte of them. */
  uintptr_t area = (uintptr_t)area_of(shared, half);
  uintptr_t lo = (area + made) / page * page, hi = (area + bytes + page - 1) / page * page;
  size_t pages = (hi - lo) / page;
  int size = shared->size;
  for (int pass = 0; pass < 2; pass++) {
    for (int q = 0; q < size; q++) {
      size_t first = pages * (size_t)q / (size_t)size, last = pages * (size_t)(q + 1) / (size_t)size;
      int own = q == shared->rank;
      if (own == (pass == 0) && last > first)
        hpd_alloc_large_populate((void *)(lo + first * page), (last - first) * page, own);
    }
    if (pass == 0)
      hpd_shared_sync(shared); /* every slice is allocated before it is mapped */
  }
  hpd_cost_end(HPD_COST_BUFFERS, cost);
}

void hpd_shared_free(hpd_shared *shared)
{
  if (!shared)
    return;
  forget_window(shared);
  free(shared);
}
