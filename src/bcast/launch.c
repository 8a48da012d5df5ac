#include "bcast/launch.h"

#include "bcast/inflight.h"

void hpd_bcast_set_idle(hpd_bcast *h)
{
  h->prev = h->next = NULL;
  h->channel = NULL;
  h->kind = -1;
  h->done = 1;
  h->bytes = 0;
  h->counted = h->queued = 0;
  h->woken = 0;
}

hpd_bcast_layout hpd_layout_contiguous(size_t bytes)
{
  return (hpd_bcast_layout){.seg_bytes = bytes, .segs = 1, .stride = bytes};
}

void hpd_tree_launch(hpd_bcast *h, hpd_bcast_channel *ch, hpd_tree_shape shape, void *buf,
                     const hpd_bcast_layout *layout, size_t chunk, int root, int counted)
{
  hpd_bcast_set_idle(h);
  h->channel = ch;
  h->comm = ch->comm;
  h->tag = hpd_channel_next_tag(ch);
  hpd_tree_begin(h, shape, buf, layout, chunk, root);
  hpd_inflight_launch(h, counted);
}
