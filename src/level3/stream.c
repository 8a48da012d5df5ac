#include "level3/stream.h"

#include <limits.h>
#include <stdlib.h>

#include "bcast/bcast.h"
#include "bcast/request.h"

/* The least message, in elements: what the request arrays are sized for. */
#define LEAST_COUNT (HPD_L3_MESSAGE_BYTES / sizeof(hpd_elem))

static size_t messages_of(size_t count, size_t message)
{
  return (count + message - 1) / message;
}

static size_t messages(const hpd_l3_stream *st, size_t count)
{
  return messages_of(count, st->message);
}

static size_t sent_messages(const hpd_l3_stream *st)
{
  return messages(st, st->part[st->me + 1] - st->part[st->me]) * (size_t)(st->p - 1);
}

/* Lays out the stream's counts for part in arrays already large enough. */
static void lay_out(hpd_l3_stream *st, const size_t *part)
{
  st->part = part;
  st->polled = 0;
  size_t total = 0;
  for (int q = 0; q < st->p; q++) {
    st->first[q] = total;
    total += q == st->me ? 0 : messages(st, part[q + 1] - part[q]);
  }
  st->first[st->p] = st->received = total;
}

/* The requests for part: every message received, every message sent, and one spare. */
static size_t request_count(const size_t *part, int p, int me)
{
  size_t n = 1;
  for (int q = 0; q < p; q++)
    n += messages_of(part[q + 1] - part[q], LEAST_COUNT) * (size_t)(q == me ? p - 1 : 1);
  return n;
}

/* The first indices lead the block, so that both arrays are aligned. */
static size_t bytes_for(size_t requests, int p)
{
  return ((size_t)p + 1) * sizeof(size_t) + requests * sizeof(MPI_Request);
}

size_t hpd_l3_stream_bytes_most(size_t most, int p)
{
  return bytes_for(1 + 2 * messages_of(most, LEAST_COUNT) * (size_t)(p - 1), p);
}

void hpd_l3_stream_place(hpd_l3_stream *st, const size_t *part, int p, int me, void *memory)
{
  *st = (hpd_l3_stream){.p = p, .me = me, .first = memory, .message = LEAST_COUNT};
  st->req = (MPI_Request *)(st->first + p + 1);
  lay_out(st, part);
}

void hpd_l3_stream_renew(hpd_l3_stream *st, const size_t *part)
{
  lay_out(st, part);
}

hpd_status hpd_l3_stream_make(hpd_l3_stream *st, const size_t *part, int p, int me)
{
  void *memory = malloc(bytes_for(request_count(part, p, me), p));
  if (!memory) {
    *st = (hpd_l3_stream){0};
    return HPD_STATUS_NO_MEMORY;
  }
  hpd_l3_stream_place(st, part, p, me, memory);
  return HPD_OK;
}

void hpd_l3_stream_fit_link(hpd_l3_stream *st, MPI_Comm comm)
{
  double fit = hpd_bcast_link_rate_fastest(comm) * HPD_L3_MESSAGE_S / sizeof(hpd_elem);
  st->message = fit > (double)LEAST_COUNT && fit < (double)INT_MAX ? (size_t)fit : LEAST_COUNT;
  lay_out(st, st->part);
}

void hpd_l3_stream_start(hpd_l3_stream *st, hpd_elem *base, MPI_Comm comm, int tag)
{
  const size_t *part = st->part;
  size_t message = st->message;
  int me = st->me, p = st->p;
  st->base = base;
  size_t r = 0;
  for (int q = 0; q < p; q++)
    for (size_t at = part[q]; q != me && at < part[q + 1]; at += message) {
      size_t left = part[q + 1] - at;
      MPI_Irecv(base + at, (int)(left < message ? left : message), HPD_ELEM_MPI, q, tag, comm,
                &st->req[r++]);
    }
  /* Each process sends to the ones after it first, so that the parts leave the column's
   * processes in different orders. */
  for (int i = 1; i < p; i++) {
    int q = (me + i) % p;
    for (size_t at = part[me]; at < part[me + 1]; at += message) {
      size_t left = part[me + 1] - at;
      MPI_Isend(base + at, (int)(left < message ? left : message), HPD_ELEM_MPI, q, tag, comm,
                &st->req[r++]);
    }
  }
}

void hpd_l3_stream_wait_for(hpd_l3_stream *st, int q, size_t through)
{
  if (q == st->me || through == 0)
    return;
  size_t last = st->first[q] + messages(st, through);
  for (size_t r = st->first[q]; r < last; r++)
    MPI_Wait(&st->req[r], MPI_STATUS_IGNORE);
}

void hpd_l3_stream_poll(hpd_l3_stream *st)
{
  int done = 1;
  while (done && st->polled < st->received)
    if ((done = hpd_request_done(&st->req[st->polled])))
      st->polled++;
}

void hpd_l3_stream_finish(hpd_l3_stream *st)
{
  size_t total = st->received + sent_messages(st);
  for (size_t r = 0; r < total; r++)
    MPI_Wait(&st->req[r], MPI_STATUS_IGNORE);
}

void hpd_l3_stream_free(hpd_l3_stream *st)
{
  free(st->first); /* req lies in the same block */
  st->req = NULL;
  st->first = NULL;
}
