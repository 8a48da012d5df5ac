#include "bcast/bcast.h"

#include "bcast/bcast_mpi.h"
#include "bcast/counters.h"
#include "bcast/idle.h"
#include "bcast/inflight.h"
#include "bcast/launch.h"
#include "bcast/topology.h"
#include "bcast/tune.h"
#include "core/config.h"
#include "core/log.h"

/* Tags repeat after tag_span broadcasts; one that old still in flight could take a
 * newer one's chunks.  Practically never waits: the span is at least 32768. */
static void make_room(hpd_bcast_channel *ch)
{
  if (ch->in_flight + 1 < ch->tag_span)
    return;
  hpd_idle idle;
  hpd_call_blocks();
  hpd_idle_begin(&idle, hpd_config_get()->wait);
  while (ch->in_flight + 1 >= ch->tag_span)
    hpd_idle_step(&idle, hpd_inflight_sweep());
}

/* Batches are numbered from 1 on each rank; a channel compares a start's number with the
 * last it saw, so ranks need not agree on the numbers, only on the batches. */
hpd_bcast_how hpd_bcast_batch(const hpd_bcast_how *how, int hidden, int polls)
{
  static uint64_t batches;
  hpd_bcast_how batch = how ? *how : (hpd_bcast_how){0};
  batch.batch = ++batches;
  batch.hidden = hidden;
  batch.hidden_polls = hidden && polls > 0 ? polls : 0;
  return batch;
}

int hpd_bcast_hidden_hops(int size, int polls)
{
  if (size < 2)
    return 0;
  return polls <= 0 || size - 1 <= polls ? size - 1 : hpd_topology_binomial_rounds(size);
}

uint64_t hpd_bcast_call(void)
{
  static uint64_t calls;
  return ++calls;
}

/* Channels whose broadcasts may take the flat shape: three ranks or more (two form the
 * same tree either way), and no more than one rank's sends can reach. */
static int flat_shape_fits(const hpd_bcast_channel *ch)
{
  return ch->size >= 3 && ch->size <= HPD_BCAST_MAX_CHILDREN + 1;
}

/* The copies of a flat broadcast that its root's node link carries: one per other node;
 * on one node none leave it, and the message's own time decides, as on two. */
static int flat_link_copies(const hpd_bcast_channel *ch)
{
  return ch->hosts > 1 ? ch->hosts - 1 : 1;
}

/* The shape of a hidden broadcast of bytes on ch whose receivers poll polls times while
 * it travels (bcast.h): flat where the channel's shape fits and the root's node link
 * carries its copies in under HPD_FLAT_LINK_S at the rate the channel measured for its
 * size class (tuned, or probed while tuning is held: start), the same figure on every
 * rank, so all of them take the same shape; else down the binomial tree where the
 * chain's hops outnumber the polls; else down the chain.  A class without a measured
 * rate never goes flat, and every broadcast stays on the chain while HPD_CHUNK sets the
 * pipeline's chunk. */
static hpd_hidden_shape hidden_shape(const hpd_bcast_channel *ch, size_t bytes, int polls)
{
  if (hpd_config_get()->chunk)
    return HPD_HIDDEN_CHAIN;
  double rate = ch->rate[hpd_size_class(bytes)];
  if (flat_shape_fits(ch) && rate > 0.0 &&
      flat_link_copies(ch) * (double)bytes / rate < HPD_FLAT_LINK_S)
    return HPD_HIDDEN_FLAT;
  return hpd_bcast_hidden_hops(ch->size, polls) < ch->size - 1 ? HPD_HIDDEN_TREE
                                                                : HPD_HIDDEN_CHAIN;
}

/* The shape a broadcast that is not hidden takes: flat over shared links on three nodes
 * or more (bcast.h), else the chain. */
static int shared_links_flat(const hpd_bcast_channel *ch, const hpd_bcast_how *how)
{
  return how->shared_links && !hpd_config_get()->chunk && flat_shape_fits(ch) &&
         ch->hosts >= 3;
}

hpd_hidden_shape hpd_bcast_hidden_shape(MPI_Comm comm, size_t bytes, int polls)
{
  const hpd_bcast_channel *ch = hpd_channel_find(comm);
  return ch && bytes > 0 ? hidden_shape(ch, bytes, polls) : HPD_HIDDEN_CHAIN;
}

int hpd_bcast_forwards(MPI_Comm comm)
{
  const hpd_bcast_channel *ch = hpd_channel_get(comm);
  return flat_shape_fits(ch) && ch->hosts >= 2 && ch->size > ch->hosts;
}

/* The chunk of a broadcast behind others of its batch on ch (bcast.h). */
static uint64_t batch_chunk(hpd_bcast_channel *ch, uint64_t chunk, size_t bytes,
                            const hpd_bcast_how *how)
{
  if (!how->batch || hpd_config_get()->chunk)
    return chunk;
  if (ch->batch != how->batch) {
    ch->batch = how->batch;
    ch->in_batch = 0;
  }
  if (ch->in_batch++ == 0 || chunk >= HPD_BATCH_CHUNK)
    return chunk;
  return HPD_BATCH_CHUNK < bytes ? HPD_BATCH_CHUNK : bytes;
}

/* unit: what MPI_Ibcast counts in, so that a large message of elements still fits an
 * int count. */
static uint64_t start(void *buf, const hpd_bcast_layout *layout, MPI_Datatype unit, int root,
                      hpd_bcast_channel *ch, const hpd_bcast_how *how, hpd_bcast *h)
{
  make_room(ch);
  switch (hpd_config_get()->bcast) {
  case HPD_BCAST_MPI:
    h->channel = ch;
    h->comm = ch->comm;
    hpd_ibcast_begin(h, buf, layout, unit, root);
    hpd_inflight_add(h);
    return 0;
  case HPD_BCAST_BINOMIAL:
    hpd_tree_launch(h, ch, HPD_TREE_BINOMIAL, buf, layout, HPD_CHUNK_MAX, root, 1);
    return 0;
  case HPD_BCAST_PIPELINE:
  default: {
    int delivered = 0;
    /* The flat shape needs a rate. */
    if (how->hidden && how->hold_tuning && flat_shape_fits(ch))
      hpd_tune_probe(ch, layout->seg_bytes * layout->segs, how);
    uint64_t chunk = hpd_tune_chunk(ch, buf, layout, root, how, &delivered);
    chunk = batch_chunk(ch, chunk, layout->seg_bytes * layout->segs, how);
    if (delivered)
      return chunk;
    hpd_hidden_shape shape =
        how->hidden ? hidden_shape(ch, layout->seg_bytes * layout->segs, how->hidden_polls)
                    : HPD_HIDDEN_CHAIN;
    if (shape == HPD_HIDDEN_FLAT || shared_links_flat(ch, how)) {
      hpd_tree_launch(h, ch, HPD_TREE_FLAT, buf, layout, layout->seg_bytes, root, 1);
      return 0;
    }
    if (shape == HPD_HIDDEN_TREE) {
      hpd_tree_launch(h, ch, HPD_TREE_BINOMIAL, buf, layout, HPD_CHUNK_MAX, root, 1);
      return 0;
    }
    hpd_tree_launch(h, ch, HPD_TREE_CHAIN, buf, layout, chunk, root, 1);
    return chunk;
  }
  }
}

static hpd_status start_counted(void *buf, const hpd_bcast_layout *layout,
                                MPI_Datatype unit, int root, MPI_Comm comm,
                                const hpd_bcast_how *how, hpd_bcast *h)
{
  static const hpd_bcast_how plain = {0};
  size_t bytes = layout->seg_bytes * layout->segs;
  hpd_bcast_set_idle(h);
  int size = 0;
  MPI_Comm_size(comm, &size);
  if (root < 0 || root >= size)
    return HPD_STATUS_INVALID;
  hpd_call_begin();
  /* Every rank has the same size, so all skip an empty message together, before the
   * channel: nothing collective happens for it. */
  if (bytes > 0 && size > 1)
    hpd_counters_set_chunk(
        start(buf, layout, unit, root, hpd_channel_get(comm), how ? how : &plain, h));
  hpd_counters_add_start(bytes);
  hpd_call_end();
  return HPD_OK;
}

hpd_status hpd_bcast_start(hpd_elem *buf, size_t count, int root, MPI_Comm comm,
                           const hpd_bcast_how *how, hpd_bcast *handle)
{
  if (count > HPD_BCAST_MAX_COUNT) {
    hpd_bcast_set_idle(handle);
    return HPD_STATUS_INVALID;
  }
  hpd_bcast_layout layout = hpd_layout_contiguous(count * sizeof(hpd_elem));
  return start_counted(buf, &layout, HPD_ELEM_MPI, root, comm, how, handle);
}

hpd_status hpd_bcast_start_strided(hpd_elem *buf, size_t seg_count, size_t segs, size_t ld,
                                   int root, MPI_Comm comm, const hpd_bcast_how *how,
                                   hpd_bcast *handle)
{
  if (ld < seg_count || (segs && seg_count > HPD_BCAST_MAX_COUNT / segs)) {
    hpd_bcast_set_idle(handle);
    return HPD_STATUS_INVALID;
  }
  if (segs <= 1 || seg_count == 0)
    return hpd_bcast_start(buf, seg_count * segs, root, comm, how, handle);
  hpd_bcast_layout layout = {.seg_bytes = seg_count * sizeof(hpd_elem), .segs = segs,
                             .stride = ld * sizeof(hpd_elem)};
  return start_counted(buf, &layout, HPD_ELEM_MPI, root, comm, how, handle);
}

hpd_status hpd_bcast_start_bytes(void *buf, size_t bytes, int root, MPI_Comm comm,
                                 const hpd_bcast_how *how, hpd_bcast *handle)
{
  if (bytes > HPD_BCAST_MAX_BYTES) {
    hpd_bcast_set_idle(handle);
    return HPD_STATUS_INVALID;
  }
  hpd_bcast_layout layout = hpd_layout_contiguous(bytes);
  return start_counted(buf, &layout, MPI_BYTE, root, comm, how, handle);
}

void hpd_bcast_started(int status)
{
  if (status != 0)
    hpd_fatal("a broadcast was refused: a message over the broadcasts' limit or a root "
              "outside its communicator");
}
