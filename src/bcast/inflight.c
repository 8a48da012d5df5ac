#include "bcast/inflight.h"

#include <limits.h>
#include <stdlib.h>

#include "bcast/bcast_mpi.h"
#include "bcast/channel.h"
#include "bcast/request.h"
#include "bcast/tree.h"
#include "hpdaemon.h"

/* In the order they were started: every rank started them in that order, so stepping
 * the oldest first serves first what the other ranks are most likely waiting for. */
static hpd_bcast *head, *tail;

void hpd_inflight_add(hpd_bcast *h)
{
  h->next = NULL;
  h->prev = tail;
  if (tail)
    tail->next = h;
  else
    head = h;
  tail = h;
  h->channel->in_flight++;
}

int hpd_bcast_in_flight(void)
{
  return head != NULL;
}

int hpd_inflight_posted_max(const hpd_bcast_channel *ch)
{
#ifdef HPD_SIMULATED
  return HPD_BCAST_POSTED_PER_RANK * ch->size;
#else
  (void)ch;
  return INT_MAX;
#endif
}

static int room(const hpd_bcast_channel *ch)
{
  return ch->posted < hpd_inflight_posted_max(ch);
}

/* Takes a place among h's channel's posted broadcasts where h counts, and posts what
 * it can. */
static int post(hpd_bcast *h)
{
  h->queued = 0;
  h->channel->posted += h->counted;
  return hpd_tree_advance(h, 0);
}

static void release(hpd_bcast *h)
{
  h->channel->posted -= h->counted;
  h->counted = 0;
}

void hpd_inflight_launch(hpd_bcast *h, int counted)
{
  h->counted = counted;
  if (counted && !room(h->channel)) {
    h->queued = 1;
    hpd_inflight_add(h);
    return;
  }
  post(h);
  if (!h->done) {
    hpd_inflight_add(h);
    return;
  }
  release(h);
  h->kind = -1;
}

static void drop(hpd_bcast *h)
{
  if (h->prev)
    h->prev->next = h->next;
  else
    head = h->next;
  if (h->next)
    h->next->prev = h->prev;
  else
    tail = h->prev;
  h->prev = h->next = NULL;
  h->channel->in_flight--;
  release(h);
  h->kind = -1;
}

/* Where each pending request lives, so that the one completed in the copy handed to
 * MPI is nulled in place: testing the stale handle later would touch a freed request.
 * The copy has room for one more, the simulated poll's own (request.h). */
typedef struct pending {
  MPI_Request *copy, **where;
  hpd_bcast **owner; /* NULL for a request of no broadcast */
  int n, cap;
} pending;

static hpd_status note(pending *p, MPI_Request *r, hpd_bcast *owner)
{
  if (*r == MPI_REQUEST_NULL)
    return HPD_OK;
  if (p->n + 1 >= p->cap) {
    int cap = p->cap ? 2 * p->cap : 64;
    MPI_Request *copy = realloc(p->copy, (size_t)cap * sizeof *copy);
    if (!copy)
      return HPD_STATUS_NO_MEMORY;
    p->copy = copy;
    MPI_Request **where = realloc(p->where, (size_t)cap * sizeof *where);
    if (!where)
      return HPD_STATUS_NO_MEMORY;
    p->where = where;
    hpd_bcast **owners = realloc(p->owner, (size_t)cap * sizeof *owners);
    if (!owners)
      return HPD_STATUS_NO_MEMORY;
    p->owner = owners;
    p->cap = cap;
  }
  p->copy[p->n] = *r;
  p->owner[p->n] = owner;
  p->where[p->n++] = r;
  return HPD_OK;
}

static int note_tree(pending *p, hpd_bcast *h)
{
  int failed = 0;
  for (size_t i = h->received; i < h->recv_posted; i++)
    failed |= note(p, &h->recv[i % HPD_BCAST_WINDOW], h);
  for (size_t i = h->sent; i < h->send_posted; i++)
    for (int c = 0; c < h->nchildren; c++)
      failed |= note(p, &h->send[i % HPD_BCAST_WINDOW][c], h);
  return failed;
}

/* The pending requests of every posted broadcast in flight, and *also where not NULL;
 * HPD_STATUS_NO_MEMORY where the list could not be made. */
static hpd_status note_all(pending *p, MPI_Request *also)
{
  p->n = 0;
  int failed = also ? note(p, also, NULL) : 0;
  for (hpd_bcast *h = head; h; h = h->next)
    if (!h->queued)
      failed |= h->kind == HPD_BCAST_MPI ? note(p, &h->request, h) : note_tree(p, h);
  return failed ? HPD_STATUS_NO_MEMORY : HPD_OK;
}

/* The request at index of p completed: null where it lives, its broadcast to step. */
static void completed(const pending *p, int index)
{
  *p->where[index] = MPI_REQUEST_NULL;
  if (p->owner[index])
    p->owner[index]->woken = 1;
}

static pending listed;

#ifdef HPD_SIMULATED
/* Under the simulator every MPI call costs the simulator a timing of the rank and a
 * look through its messages, so one poll of all the pending requests at once, repeated
 * while it finds one complete, replaces a test of each request of each broadcast: with
 * a channel of 16 ranks and four posted broadcasts per rank, a sweep tested hundreds
 * (order 4096 on 16 x 16 ranks: 281 s of the simulator's CPU per call).  Only the
 * broadcasts whose requests completed are stepped then, since nothing else moves a
 * tree broadcast.  Returns the requests found complete, or -1 where the list could not
 * be made (the sweep then tests every request, as natively). */
static int harvest(void)
{
  if (note_all(&listed, NULL) != HPD_OK)
    return -1;
  int found = 0;
  for (int index; listed.n > 0 && (index = hpd_sim_request_any_of(listed.n, listed.copy)) >= 0;
       found++)
    completed(&listed, index);
  return found;
}
#endif

static int step(hpd_bcast *h, int harvested)
{
  h->woken = 0;
  return h->kind == HPD_BCAST_MPI ? hpd_ibcast_advance(h) : hpd_tree_advance(h, harvested);
}

int hpd_inflight_sweep(void)
{
  int found = -1;
#ifdef HPD_SIMULATED
  found = harvest();
#endif
  int moved = found > 0;
  for (hpd_bcast *h = head, *next; h; h = next) {
    next = h->next;
    if (h->queued) {
      if (!room(h->channel))
        continue;
      post(h);
      moved = 1;
    } else if (found < 0 || h->woken)
      moved |= step(h, found >= 0);
    if (h->done)
      drop(h);
  }
  return moved;
}

void hpd_inflight_block(MPI_Request *also)
{
  if (note_all(&listed, also) != HPD_OK || listed.n == 0)
    return; /* nothing pending, or no memory for the list: the caller's loop polls */
  int index = MPI_UNDEFINED;
  MPI_Waitany(listed.n, listed.copy, &index, MPI_STATUS_IGNORE);
  if (index != MPI_UNDEFINED)
    completed(&listed, index);
}
