#include "swap/exchange.h"

#include <string.h>

#define TAG 0x5357 /* no other message of hpdaemon's is in flight during a call */

/* Rows are packed position by position, so that each pass reads one column of the local
 * storage; columns line by line, each one contiguous. */
static void pack(const hpd_swap_lines *l, const int64_t *local, int64_t count, hpd_elem *buf)
{
  if (l->pos_step == 1) {
    for (int64_t r = 0; r < count; r++)
      memcpy(buf + r * l->npos, l->a + local[r] * l->line_step + l->pos0,
             (size_t)l->npos * sizeof *buf);
    return;
  }
  for (int64_t t = 0; t < l->npos; t++) {
    const hpd_elem *column = l->a + (l->pos0 + t) * l->pos_step;
    for (int64_t r = 0; r < count; r++)
      buf[t * count + r] = column[local[r]];
  }
}

static void unpack(const hpd_swap_lines *l, const int64_t *local, int64_t count,
                   const hpd_elem *buf)
{
  if (l->pos_step == 1) {
    for (int64_t r = 0; r < count; r++)
      memcpy(l->a + local[r] * l->line_step + l->pos0, buf + r * l->npos,
             (size_t)l->npos * sizeof *buf);
    return;
  }
  for (int64_t t = 0; t < l->npos; t++) {
    hpd_elem *column = l->a + (l->pos0 + t) * l->pos_step;
    for (int64_t r = 0; r < count; r++)
      column[local[r]] = buf[t * count + r];
  }
}

/* The local indices, in move order, of the lines that process `from` sends to process
 * `to`: their sources where this process is `from` and sends, their destinations where
 * it receives. */
static int64_t select_lines(const hpd_swap_lines *l, const hpd_move *moves, int64_t count,
                            int from, int to, int destinations, int64_t *local)
{
  int64_t selected = 0;
  for (int64_t i = 0; i < count; i++)
    if (hpd_axis_owner(&l->axis, moves[i].from) == from &&
        hpd_axis_owner(&l->axis, moves[i].to) == to)
      local[selected++] =
          hpd_axis_local(&l->axis, destinations ? moves[i].to : moves[i].from);
  return selected;
}

int hpd_swap_sole_owner(const hpd_swap_lines *l, const int *pivots, int k1, int64_t count)
{
  int owner = hpd_axis_owner(&l->axis, k1 - 1);
  for (int64_t s = 0; s < count; s++)
    if (hpd_axis_owner(&l->axis, k1 - 1 + s) != owner ||
        hpd_axis_owner(&l->axis, pivots[s] - 1) != owner)
      return -1;
  return owner;
}

/* A few interchanges' local lines at a time, applied to each position in turn (a column
 * of rows stays in cache through all of them); their order is kept.  Columns are
 * contiguous and swapped one interchange at a time. */
enum { IN_PLACE_RUN = 64 };

void hpd_swap_in_place(const hpd_swap_lines *l, const int *pivots, int k1, int64_t count)
{
  int64_t x[IN_PLACE_RUN], y[IN_PLACE_RUN];
  for (int64_t s0 = 0; s0 < count; s0 += IN_PLACE_RUN) {
    int run = count - s0 < IN_PLACE_RUN ? (int)(count - s0) : IN_PLACE_RUN;
    for (int s = 0; s < run; s++) {
      x[s] = hpd_axis_local(&l->axis, k1 - 1 + s0 + s) * l->line_step;
      y[s] = hpd_axis_local(&l->axis, pivots[s0 + s] - 1) * l->line_step;
    }
    if (l->pos_step == 1) { /* columns: each one contiguous, swapped whole */
      for (int s = 0; s < run; s++)
        for (int64_t t = 0; t < l->npos; t++) {
          hpd_elem *at = l->a + l->pos0 + t, keep = at[x[s]];
          at[x[s]] = at[y[s]];
          at[y[s]] = keep;
        }
      continue;
    }
    for (int64_t t = 0; t < l->npos; t++) {
      hpd_elem *at = l->a + (l->pos0 + t) * l->pos_step;
      for (int s = 0; s < run; s++) {
        hpd_elem keep = at[x[s]];
        at[x[s]] = at[y[s]];
        at[y[s]] = keep;
      }
    }
  }
}

/* This process's own moves, sources listed in from and destinations in to: rows a column
 * at a time, each column's sources read before its destinations are written while it is
 * in cache; columns through the buffer. */
static void move_own(const hpd_swap_lines *l, const int64_t *from, const int64_t *to,
                     int64_t count, hpd_elem *buf)
{
  if (l->pos_step == 1) {
    pack(l, from, count, buf);
    unpack(l, to, count, buf);
    return;
  }
  for (int64_t t = 0; t < l->npos; t++) {
    hpd_elem *column = l->a + (l->pos0 + t) * l->pos_step;
    for (int64_t r = 0; r < count; r++)
      buf[r] = column[from[r]];
    for (int64_t r = 0; r < count; r++)
      column[to[r]] = buf[r];
  }
}

void hpd_swap_exchange(const hpd_swap_lines *l, const hpd_move *moves, int64_t count,
                       const hpd_swap_scratch *s)
{
  int requests = 0;
  int64_t at = 0;
  for (int q = 0; q < l->nprocs; q++) {
    int64_t lines = q == l->me ? 0 : select_lines(l, moves, count, q, l->me, 1, s->local);
    if (lines > 0)
      MPI_Irecv(s->recv + at, (int)(lines * l->npos), HPD_ELEM_MPI, q, TAG, l->comm,
                &s->requests[requests++]);
    at += lines * l->npos;
  }
  /* Every line that leaves is read before any line is written. */
  at = 0;
  for (int q = 0; q < l->nprocs; q++) {
    int64_t lines = q == l->me ? 0 : select_lines(l, moves, count, l->me, q, 0, s->local);
    pack(l, s->local, lines, s->send + at);
    if (lines > 0)
      MPI_Isend(s->send + at, (int)(lines * l->npos), HPD_ELEM_MPI, q, TAG, l->comm,
                &s->requests[requests++]);
    at += lines * l->npos;
  }
  int64_t own = select_lines(l, moves, count, l->me, l->me, 0, s->local);
  select_lines(l, moves, count, l->me, l->me, 1, s->local + own);
  move_own(l, s->local, s->local + own, own, s->send + at);
  for (int i = 0; i < requests; i++)
    hpd_waited(&s->requests[i], l->wait);
  at = 0;
  for (int q = 0; q < l->nprocs; q++) {
    int64_t lines = q == l->me ? 0 : select_lines(l, moves, count, q, l->me, 1, s->local);
    unpack(l, s->local, lines, s->recv + at);
    at += lines * l->npos;
  }
}

size_t hpd_swap_plan_carve(int64_t count, int64_t npos, int nprocs, void *block,
                           hpd_swap_plan *plan)
{
  size_t work = hpd_swap_moves_work(count), lines = 2 * (size_t)count;
  size_t data = lines * (size_t)npos;
  size_t bytes = lines * sizeof *plan->moves + 2 * data * sizeof(hpd_elem) +
                 work * sizeof *plan->work + 2 * lines * sizeof *plan->lines.local +
                 2 * (size_t)nprocs * sizeof *plan->lines.requests;
  if (block) {
    char *at = block;
    plan->moves = (hpd_move *)at, at += lines * sizeof *plan->moves;
    plan->lines.send = (hpd_elem *)at, at += data * sizeof(hpd_elem);
    plan->lines.recv = (hpd_elem *)at, at += data * sizeof(hpd_elem);
    plan->work = (int64_t *)at, at += work * sizeof *plan->work;
    plan->lines.local = (int64_t *)at, at += 2 * lines * sizeof *plan->lines.local;
    plan->lines.requests = (MPI_Request *)at;
  }
  return bytes;
}

void hpd_swap_apply(const hpd_swap_lines *l, const int *pivots, int k1, int k2,
                    const hpd_swap_plan *plan)
{
  int64_t moved = hpd_swap_moves(pivots, k1, k2, plan->work, plan->moves);
  hpd_swap_exchange(l, plan->moves, moved, &plan->lines);
}
