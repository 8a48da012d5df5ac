#include "bcast/channel.h"

#include <stdlib.h>

#include "bcast/wait.h"
#include "core/costs.h"
#include "core/node.h"

static int keyval = MPI_KEYVAL_INVALID;

/* Runs when the caller frees its communicator (or MPI finalizes MPI_COMM_SELF). */
static int forget(MPI_Comm comm, int key, void *value, void *extra)
{
  (void)comm, (void)key, (void)extra;
  hpd_bcast_channel *ch = value;
  if (ch->free_shared)
    ch->free_shared(ch->shared);
  MPI_Comm_free(&ch->comm);
  free(ch->node_first);
  free(ch->visit);
  free(ch);
  return MPI_SUCCESS;
}

static uint64_t tag_span(void)
{
  int *ub = NULL, flag = 0;
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &flag);
  /* The standard promises at least 32767. */
  return flag && ub && *ub >= 32767 ? (uint64_t)*ub + 1 : 32768;
}

/* Which ranks share a node's link, so that broadcasts cross each host's link once.
 * Collective over the channel. */
static void learn_nodes(hpd_bcast_channel *ch)
{
  ch->node_first = malloc((size_t)ch->size * sizeof *ch->node_first);
  ch->visit = malloc((size_t)ch->size * 3 * sizeof *ch->visit); /* order + scratch */
  if (!ch->node_first || !ch->visit)
    abort(); /* the other ranks wait in the gather below */
  ch->hosts = hpd_node_map(ch->comm, 1, 0.0, NULL, ch->node_first, hpd_collective_waiter());
  if (ch->hosts <= 1) {
    ch->hosts = 1; /* one node: the visit order is the ranks from the root on */
    free(ch->node_first);
    free(ch->visit);
    ch->node_first = ch->visit = NULL;
  }
}

hpd_bcast_channel *hpd_channel_find(MPI_Comm comm)
{
  hpd_bcast_channel *ch = NULL;
  int found = 0;
  if (keyval != MPI_KEYVAL_INVALID && comm != MPI_COMM_NULL)
    MPI_Comm_get_attr(comm, keyval, &ch, &found);
  return found ? ch : NULL;
}

hpd_bcast_channel *hpd_channel_get(MPI_Comm comm)
{
  if (keyval == MPI_KEYVAL_INVALID)
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, forget, &keyval, NULL);
  hpd_bcast_channel *ch = NULL;
  int found = 0;
  MPI_Comm_get_attr(comm, keyval, &ch, &found);
  if (found)
    return ch;
  ch = calloc(1, sizeof *ch);
  if (!ch)
    abort(); /* the other ranks are about to wait for this one in the duplication */
  double cost = hpd_cost_begin(HPD_COST_SETUP);
  hpd_wait_dup(comm, &ch->comm);
  MPI_Comm_rank(ch->comm, &ch->rank);
  MPI_Comm_size(ch->comm, &ch->size);
  ch->tag_span = tag_span();
  learn_nodes(ch);
  MPI_Comm_set_attr(comm, keyval, ch);
  hpd_cost_end(HPD_COST_SETUP, cost);
  return ch;
}

int hpd_channel_next_tag(hpd_bcast_channel *ch)
{
  return (int)(ch->started++ % ch->tag_span);
}

int hpd_size_class(uint64_t bytes)
{
  int c = 0;
  while (bytes >>= 1)
    c++;
  return c;
}
