#include "inflight.h"

#include "bcast_mpi.h"
#include "channel.h"
#include "hpdaemon.h"
#include "tree.h"

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
  h->kind = -1;
}

int hpd_inflight_sweep(void)
{
  int moved = 0;
  for (hpd_bcast *h = head, *next; h; h = next) {
    next = h->next;
    moved |= h->kind == HPD_BCAST_MPI ? hpd_ibcast_advance(h) : hpd_tree_advance(h);
    if (h->done)
      drop(h);
  }
  return moved;
}
