#include "bcast/tree.h"

#include "bcast/request.h"
#include "bcast/topology.h"
#include "hpdaemon.h"

static int chunk_len(const hpd_bcast *h, size_t i)
{
  size_t left = h->layout.seg_bytes - (i % h->per_seg) * h->chunk;
  return (int)(left < h->chunk ? left : h->chunk);
}

static unsigned char *chunk_at(const hpd_bcast *h, size_t i)
{
  return h->buf + (i / h->per_seg) * h->layout.stride + (i % h->per_seg) * h->chunk;
}

/* A request complete: where the completed ones were harvested (tree.h), a live one is
 * pending. */
static int request_done(MPI_Request *request, int harvested)
{
  return harvested ? *request == MPI_REQUEST_NULL : hpd_request_done(request);
}

/* Chunks in order: a later one cannot complete its receive before an earlier one. */
static int complete_receives(hpd_bcast *h, int harvested)
{
  int moved = 0;
  while (h->received < h->recv_posted) {
    if (!request_done(&h->recv[h->received % HPD_BCAST_WINDOW], harvested))
      break;
    h->received++;
    moved = 1;
  }
  return moved;
}

/* A chunk is sent when it reached every child; a completed request turns null, and a
 * null one reads as complete. */
static int chunk_sent(MPI_Request *slot, int nchildren, int harvested)
{
  for (int c = 0; c < nchildren; c++)
    if (!request_done(&slot[c], harvested))
      return 0;
  return 1;
}

static int complete_sends(hpd_bcast *h, int harvested)
{
  if (h->serial && h->next_child < h->nchildren)
    return 0; /* a child still waits for its send to be posted */
  int moved = 0;
  while (h->sent < h->send_posted) {
    if (!chunk_sent(h->send[h->sent % HPD_BCAST_WINDOW], h->nchildren, harvested))
      break;
    h->sent++;
    moved = 1;
  }
  return moved;
}

/* Under the simulator a small send completes as it is posted, and waits unmatched until
 * its receiver posts the receive, on one list of every rank's such sends that the
 * simulator walks at each message it delivers: a root whose window never fills would
 * post its whole message at once, and 64 ranks' chunks made that list thousands long.
 * A synchronous send completes when its chunk has arrived, so the window bounds what a
 * rank has posted, as it bounds the receives; the chunks move as before, since a
 * transfer starts only when its receive is posted either way. */
static void send_chunk(const hpd_bcast *h, size_t i, int child, MPI_Request *request)
{
#ifdef HPD_SIMULATED
  MPI_Issend(chunk_at(h, i), chunk_len(h, i), MPI_BYTE, child, h->tag, h->comm, request);
#else
  MPI_Isend(chunk_at(h, i), chunk_len(h, i), MPI_BYTE, child, h->tag, h->comm, request);
#endif
}

/* A whole message down a binomial tree across nodes goes to the children one after
 * another, the largest subtree first, each send posted once the one before it is
 * complete: posted at once, the sends share the sender's link and each child has the
 * message only when all have it, so a level takes its fan-out's time and the tree the sum
 * of its levels' (a column of 16 nodes whose 32 ranks each broadcast along their own
 * column: 4 + 3 + 2 + 1 link times where one after another the last leaf has it in 4).
 * On one node the children copy the message themselves, at once where the sends are
 * posted together, and a send posted only once the one before it is seen complete waits
 * for the sender's next call into MPI (4 ranks on one node: 16 to 256 KiB took 15 to 25%
 * longer one child after another). */
static int post_serial(hpd_bcast *h, int harvested)
{
  int moved = 0;
  MPI_Request *slot = h->send[0];
  while (h->received == 1 && h->next_child < h->nchildren &&
         (h->next_child == 0 || request_done(&slot[h->next_child - 1], harvested))) {
    send_chunk(h, 0, h->children[h->next_child], &slot[h->next_child]);
    h->next_child++;
    moved = 1;
  }
  h->send_posted = h->next_child > 0; /* the sends posted are pending from the first on */
  return moved;
}

/* Every chunk that has arrived goes on to the children, as far as the window allows. */
static int post_sends(hpd_bcast *h, int harvested)
{
  if (h->serial)
    return post_serial(h, harvested);
  int moved = 0;
  while (h->nchildren > 0 && h->send_posted < h->received &&
         h->send_posted - h->sent < h->window) {
    size_t i = h->send_posted++;
    MPI_Request *slot = h->send[i % HPD_BCAST_WINDOW];
    for (int c = 0; c < h->nchildren; c++)
      send_chunk(h, i, h->children[c], &slot[c]);
    moved = 1;
  }
  return moved;
}

/* Receives posted before their data comes save MPI a copy through its unexpected
 * queue, and let a forwarding rank receive chunk i+1 while it sends chunk i. */
static int post_receives(hpd_bcast *h)
{
  int moved = 0;
  while (h->recv_posted < h->chunks && h->recv_posted - h->received < h->window) {
    size_t i = h->recv_posted++;
    MPI_Irecv(chunk_at(h, i), chunk_len(h, i), MPI_BYTE, h->parent, h->tag, h->comm,
              &h->recv[i % HPD_BCAST_WINDOW]);
    moved = 1;
  }
  return moved;
}

int hpd_tree_advance(hpd_bcast *h, int harvested)
{
  int moved = 0, again;
  do {
    again = complete_receives(h, harvested);
    again |= post_sends(h, harvested);
    again |= post_receives(h);
    again |= complete_sends(h, harvested);
    moved |= again;
  } while (again);
  size_t must_send = h->nchildren > 0 ? h->chunks : 0;
  h->done = h->received == h->chunks && h->sent == must_send;
  return moved;
}

/* The node of each position of the visit order, in the scratch behind it (topology.h);
 * NULL on one node. */
static const int *flat_nodes(const hpd_bcast_channel *ch, const int *visit)
{
  if (!visit)
    return NULL;
  int *node_at = ch->visit + ch->size;
  for (int pos = 0; pos < ch->size; pos++)
    node_at[pos] = ch->node_first[visit[pos]];
  return node_at;
}

void hpd_tree_begin(hpd_bcast *h, hpd_tree_shape shape, void *buf,
                    const hpd_bcast_layout *layout, size_t chunk, int root)
{
  hpd_bcast_channel *ch = h->channel;
  h->kind = shape == HPD_TREE_CHAIN ? HPD_BCAST_PIPELINE : HPD_BCAST_BINOMIAL;
  h->buf = buf;
  h->layout = *layout;
  h->bytes = layout->seg_bytes * layout->segs;
  h->chunk = chunk < layout->seg_bytes ? chunk : layout->seg_bytes;
  h->per_seg = (layout->seg_bytes + h->chunk - 1) / h->chunk;
  h->chunks = h->per_seg * layout->segs;
  size_t window = HPD_BCAST_IN_FLIGHT / h->chunk;
  h->window = window < 2 ? 2 : window > HPD_BCAST_WINDOW ? HPD_BCAST_WINDOW : window;
  /* On one node the visit order is the ranks from the root on: no table needed. */
  int *visit = ch->visit;
  int pos = visit ? hpd_topology_visit_order(ch->node_first, ch->size, root, ch->rank, visit,
                                             visit + ch->size)
                  : (ch->rank - root + ch->size) % ch->size;
  if (shape == HPD_TREE_CHAIN)
    h->nchildren = hpd_topology_chain(pos, ch->size, &h->parent, h->children);
  else if (shape == HPD_TREE_FLAT)
    h->nchildren = hpd_topology_flat(pos, ch->size, flat_nodes(ch, visit), &h->parent,
                                     h->children);
  else
    h->nchildren = hpd_topology_binomial(pos, ch->size, &h->parent, h->children);
  /* Positions back to ranks. */
  if (h->parent >= 0)
    h->parent = visit ? visit[h->parent] : (h->parent + root) % ch->size;
  for (int i = 0; i < h->nchildren; i++)
    h->children[i] = visit ? visit[h->children[i]] : (h->children[i] + root) % ch->size;
  h->serial = shape == HPD_TREE_BINOMIAL && h->chunks == 1 && ch->hosts >= 2;
  h->next_child = 0;
  for (int c = 0; c < h->nchildren; c++)
    h->send[0][c] = MPI_REQUEST_NULL; /* unposted: nothing pending (inflight.c) */
  h->recv_posted = h->send_posted = h->sent = 0;
  /* The root has every chunk from the start; the others post their first receives. */
  h->received = h->recv_posted = h->parent < 0 ? h->chunks : 0;
  h->done = 0;
}
