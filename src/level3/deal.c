/*
 * A triangle of op(sub(A)) dealt anew.  Every entry goes once, straight from the process
 * that holds it to the one the new layout names, in one exchange over the grid: about
 * K^2 / (2 P Q) entries a process, where the block solve then moves K^2 / (2 P) of the
 * panels down its lines (Q times as many), so that a solve whose sub(A) lies across
 * sub(B)'s lines, or transposed, moves little more than one that finds it in place.
 *
 * Both ends of each pair walk the entries they share in one order, by column of
 * op(sub(A)) rising, then by row rising, so that the receiver knows every entry's place
 * without being told: each walks its own share in that order and names, segment by
 * segment, the process at the other end.
 */
#include "level3/deal.h"

#include <stdlib.h>

/* One end's walk: its own axes of op(sub(A)) and its place on them, and the other end's
 * axes, whose owners name the process at the other end (swapped: the other end's axis
 * of op(sub(A))'s rows is dealt over the grid's columns). */
typedef struct walk {
  const hpd_l3_deal *d;
  const hpd_axis *own_p, *own_q;
  int me_p, me_q;
  const hpd_axis *peer_p, *peer_q;
  int peer_swapped;
} walk;

enum { COUNT, PACK, UNPACK };

/* The walk's segments of op(sub(A))'s column q (local lq): runs of this end's rows of the
 * triangle, cut where the other end's owner changes. */
static void column(const walk *w, int64_t lq, int mode, int *counts, int *cursor,
                   hpd_elem *buf, hpd_elem *out, int64_t ld)
{
  const hpd_l3_deal *d = w->d;
  int64_t q = hpd_axis_global(w->own_q, lq, w->me_q);
  int qo = hpd_axis_owner(w->peer_q, q);
  int64_t lo = d->uplo == 'L' ? q : 0, hi = d->uplo == 'L' ? d->k : q + 1;
  hpd_axis_runs runs = {w->own_p, w->me_p, hpd_axis_count(w->own_p, lo, w->me_p),
                        hpd_axis_count(w->own_p, hi, w->me_p)};
  int64_t l, g, len;
  while (hpd_axis_next_run(&runs, &l, &g, &len)) {
    for (int64_t x = g, y; x < g + len; x = y) {
      y = hpd_axis_next_boundary(w->peer_p, x);
      y = y < g + len ? y : g + len;
      int po = hpd_axis_owner(w->peer_p, x);
      int peer = w->peer_swapped ? qo * d->npcol + po : po * d->npcol + qo;
      int64_t li = l + (x - g), n = y - x;
      if (mode == COUNT) {
        counts[peer] += (int)n;
      } else if (mode == PACK) {
        hpd_elem *to = buf + cursor[peer];
        if (d->transposed)
          for (int64_t i = 0; i < n; i++)
            to[i] = d->a[lq + (li + i) * d->lda];
        else
          for (int64_t i = 0; i < n; i++)
            to[i] = d->a[li + i + lq * d->lda];
        cursor[peer] += (int)n;
      } else {
        const hpd_elem *from = buf + cursor[peer];
        for (int64_t i = 0; i < n; i++)
          out[li + i + lq * ld] = from[i];
        cursor[peer] += (int)n;
      }
    }
  }
}

static void walk_all(const walk *w, int mode, int *counts, int *cursor, hpd_elem *buf,
                     hpd_elem *out, int64_t ld)
{
  int64_t columns = hpd_axis_count(w->own_q, w->d->k, w->me_q);
  for (int64_t lq = 0; lq < columns; lq++)
    column(w, lq, mode, counts, cursor, buf, out, ld);
}

/* The sender's end: sub(A) as it lies, seen as op(sub(A)). */
static walk sender(const hpd_l3_deal *d)
{
  int t = d->transposed;
  return (walk){.d = d, .own_p = t ? &d->from_cols : &d->from_rows,
                .own_q = t ? &d->from_rows : &d->from_cols, .me_p = t ? d->mycol : d->myrow,
                .me_q = t ? d->myrow : d->mycol, .peer_p = &d->rows, .peer_q = &d->cols};
}

static walk receiver(const hpd_l3_deal *d)
{
  int t = d->transposed;
  return (walk){.d = d, .own_p = &d->rows, .own_q = &d->cols, .me_p = d->myrow,
                .me_q = d->mycol, .peer_p = t ? &d->from_cols : &d->from_rows,
                .peer_q = t ? &d->from_rows : &d->from_cols, .peer_swapped = t};
}

static size_t most(const hpd_axis *p, const hpd_axis *q, int k)
{
  return (size_t)hpd_axis_max_count(p, k) * (size_t)hpd_axis_max_count(q, k);
}

size_t hpd_l3_deal_send_most(const hpd_l3_deal *d)
{
  return most(&d->from_rows, &d->from_cols, d->k);
}

size_t hpd_l3_deal_out_most(const hpd_l3_deal *d)
{
  return most(&d->rows, &d->cols, d->k);
}

static void offsets(const int *counts, int *displs, int n)
{
  for (int r = 0, at = 0; r < n; at += counts[r++])
    displs[r] = at;
}

hpd_status hpd_l3_deal_run(const hpd_l3_deal *d, hpd_elem *out, int64_t ld, hpd_elem *send,
                           hpd_elem *recv, MPI_Comm comm)
{
  int n = d->nprow * d->npcol;
  int *counts = calloc(5 * (size_t)n, sizeof *counts);
  if (!counts)
    return HPD_STATUS_NO_MEMORY;
  int *displs = counts + n, *theirs = displs + n, *their_displs = theirs + n;
  int *cursor = their_displs + n;
  walk out_end = sender(d), in_end = receiver(d);
  walk_all(&out_end, COUNT, counts, NULL, NULL, NULL, 0);
  walk_all(&in_end, COUNT, theirs, NULL, NULL, NULL, 0);
  offsets(counts, displs, n);
  offsets(theirs, their_displs, n);
  for (int r = 0; r < n; r++)
    cursor[r] = displs[r];
  walk_all(&out_end, PACK, NULL, cursor, send, NULL, 0);
  int sent = MPI_Alltoallv(send, counts, displs, HPD_ELEM_MPI, recv, theirs, their_displs,
                           HPD_ELEM_MPI, comm);
  for (int r = 0; r < n; r++)
    cursor[r] = their_displs[r];
  if (sent == MPI_SUCCESS)
    walk_all(&in_end, UNPACK, NULL, cursor, recv, out, ld);
  free(counts);
  return sent == MPI_SUCCESS ? HPD_OK : HPD_STATUS_UNAVAILABLE;
}
