#include "pblas/layout.h"

int64_t hpd_axis_count(const hpd_axis *ax, int64_t n, int p)
{
  if (n <= 0)
    return 0;
  int np = ax->nprocs;
  int dist = ((p - ax->src) % np + np) % np;
  if (n <= ax->first)
    return dist == 0 ? n : 0;
  int64_t total = dist == 0 ? ax->first : 0;
  int64_t rest = n - ax->first;                  /* indices in blocks 1, 2, ... */
  int64_t blocks = (rest + ax->nb - 1) / ax->nb; /* the last one may be partial */
  int64_t mine = dist == 0 ? np : dist;          /* p's first block after block 0 */
  if (mine > blocks)
    return total;
  int64_t owned = (blocks - mine) / np + 1;
  total += owned * ax->nb;
  if ((blocks - mine) % np == 0) /* p holds the last block: take off what it lacks */
    total -= blocks * (int64_t)ax->nb - rest;
  return total;
}

int hpd_axis_owner(const hpd_axis *ax, int64_t i)
{
  if (i < ax->first)
    return ax->src;
  return (int)((ax->src + 1 + (i - ax->first) / ax->nb) % ax->nprocs);
}

int64_t hpd_axis_local(const hpd_axis *ax, int64_t i)
{
  return hpd_axis_count(ax, i, hpd_axis_owner(ax, i));
}

int64_t hpd_axis_global(const hpd_axis *ax, int64_t j, int p)
{
  int np = ax->nprocs;
  int64_t block = ((p - ax->src) % np + np) % np; /* p's first block */
  if (block == 0) {
    if (j < ax->first)
      return j;
    j -= ax->first;
    block = np;
  }
  return ax->first + (block - 1 + (j / ax->nb) * np) * (int64_t)ax->nb + j % ax->nb;
}

int64_t hpd_axis_next_boundary(const hpd_axis *ax, int64_t i)
{
  if (i < ax->first)
    return ax->first;
  return ax->first + ((i - ax->first) / ax->nb + 1) * (int64_t)ax->nb;
}

int hpd_axis_next_run(hpd_axis_runs *r, int64_t *l, int64_t *g, int64_t *len)
{
  if (r->l >= r->end)
    return 0;
  *l = r->l;
  *g = hpd_axis_global(r->axis, r->l, r->p);
  int64_t block = hpd_axis_next_boundary(r->axis, *g) - *g;
  *len = block < r->end - r->l ? block : r->end - r->l;
  r->l += *len;
  return 1;
}

hpd_axis hpd_axis_from(const hpd_axis *ax, int64_t i0)
{
  hpd_axis sub = *ax;
  if (i0 < ax->first) {
    sub.first = (int)(ax->first - i0);
    return sub;
  }
  int64_t j = i0 - ax->first;
  sub.first = (int)(ax->nb - j % ax->nb);
  sub.src = (int)((ax->src + 1 + j / ax->nb) % ax->nprocs);
  return sub;
}

int hpd_axis_same(const hpd_axis *a, const hpd_axis *b, int64_t n)
{
  if (a->nprocs != b->nprocs)
    return 0;
  if (n <= 0 || a->nprocs == 1)
    return 1;
  if (a->src != b->src)
    return 0;
  /* Same owners follow from the same block starts below n. */
  if (a->first >= n && b->first >= n)
    return 1;
  if (a->first != b->first)
    return 0;
  if ((int64_t)a->first + a->nb >= n && (int64_t)b->first + b->nb >= n)
    return 1;
  return a->nb == b->nb;
}

int64_t hpd_axis_max_count(const hpd_axis *ax, int64_t n)
{
  int64_t most = 0;
  for (int p = 0; p < ax->nprocs; p++) {
    int64_t c = hpd_axis_count(ax, n, p);
    if (c > most)
      most = c;
  }
  return most;
}
