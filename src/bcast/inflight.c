#include "bcast/inflight.h"

#include <limits.h>
#include <stdlib.h>

#include "bcast/bcast_mpi.h"
#include "bcast/channel.h"
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
  return hpd_tree_advance(h);
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

int hpd_inflight_sweep(void)
{
  int moved = 0;
  for (hpd_bcast *h = head, *next; h; h = next) {
    next = h->next;
    if (h->queued) {
      if (!room(h->channel))
        continue;
      post(h);
      moved = 1;
    } else
      moved |= h->kind == HPD_BCAST_MPI ? hpd_ibcast_advance(h) : hpd_tree_advance(h);
    if (h->done)
      drop(h);
  }
  return moved;
}

/* Where each pending request lives, so that the one completed in the copy handed to
 * MPI is nulled in place: testing the stale handle later would touch a freed request. */
typedef struct pending {
  MPI_Request *copy, **where;
  int n, cap;
} pending;

static int note(pending *p, MPI_Request *r)
{
  if (*r == MPI_REQUEST_NULL)
    return 0;
  if (p->n == p->cap) {
    int cap = p->cap ? 2 * p->cap : 64;
    MPI_Request *copy = realloc(p->copy, (size_t)cap * sizeof *copy);
    if (!copy)
      return -1;
    p->copy = copy;
    MPI_Request **where = realloc(p->where, (size_t)cap * sizeof *where);
    if (!where)
      return -1;
    p->where = where;
    p->cap = cap;
  }
  p->copy[p->n] = *r;
  p->where[p->n++] = r;
  return 0;
}

static int note_tree(pending *p, hpd_bcast *h)
{
  int failed = 0;
  for (size_t i = h->received; i < h->recv_posted; i++)
    failed |= note(p, &h->recv[i % HPD_BCAST_WINDOW]);
  for (size_t i = h->sent; i < h->send_posted; i++)
    for (int c = 0; c < h->nchildren; c++)
      failed |= note(p, &h->send[i % HPD_BCAST_WINDOW][c]);
  return failed;
}

void hpd_inflight_block(MPI_Request *also)
{
  static pending p;
  p.n = 0;
  int failed = also ? note(&p, also) : 0;
  for (hpd_bcast *h = head; h; h = h->next)
    failed |= h->kind == HPD_BCAST_MPI ? note(&p, &h->request) : note_tree(&p, h);
  if (failed || p.n == 0)
    return; /* nothing pending, or no memory for the list: the caller's loop polls */
  int index = MPI_UNDEFINED;
  MPI_Waitany(p.n, p.copy, &index, MPI_STATUS_IGNORE);
  if (index != MPI_UNDEFINED)
    *p.where[index] = MPI_REQUEST_NULL;
}
