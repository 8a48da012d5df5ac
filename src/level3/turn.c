#include "level3/turn.h"

#include <stdlib.h>
#include <string.h>

/* The chunk of process q: [*lo, *hi) of the whole dimension (columns for left). */
static void chunk(const hpd_l3_turn *turn, int q, int64_t *lo, int64_t *hi)
{
  int64_t len = turn->left ? turn->n : turn->m;
  *lo = len * q / turn->nline;
  *hi = len * (q + 1) / turn->nline;
}

static int64_t spread_len(const hpd_l3_turn *turn)
{
  return turn->left ? turn->m : turn->n;
}

int hpd_l3_turn_width(const hpd_l3_turn *turn)
{
  int64_t lo, hi;
  chunk(turn, turn->me, &lo, &hi);
  return (int)(hi - lo);
}

/* The leading dimension of process q's chunk. */
static int ld_of(const hpd_l3_turn *turn, int q)
{
  int64_t lo, hi;
  chunk(turn, q, &lo, &hi);
  int64_t ld = turn->left ? turn->m : hi - lo;
  return ld > 1 ? (int)ld : 1;
}

int hpd_l3_turn_ld(const hpd_l3_turn *turn)
{
  return ld_of(turn, turn->me);
}

size_t hpd_l3_turn_chunk(const hpd_l3_turn *turn)
{
  int64_t len = turn->left ? turn->n : turn->m;
  return (size_t)((len + turn->nline - 1) / turn->nline) * (size_t)spread_len(turn);
}

size_t hpd_l3_turn_exchange(const hpd_l3_turn *turn)
{
  /* Sent: this process's part, whole.  Received: its chunk, whole. */
  size_t part = (size_t)hpd_axis_max_count(&turn->spread, spread_len(turn)) *
                (size_t)(turn->left ? turn->n : turn->m);
  size_t whole = hpd_l3_turn_chunk(turn);
  return part > whole ? part : whole;
}

/* Counts and displacements of one exchange, in entries: to (from) each process q.  They
 * fit an int: the caller checked hpd_l3_turn_exchange. */
static void plan(const hpd_l3_turn *turn, int outward, int *counts, int *displs, int *theirs,
                int *their_displs)
{
  int64_t width = hpd_l3_turn_width(turn), at_mine = 0, at_theirs = 0;
  int64_t mine = hpd_axis_count(&turn->spread, spread_len(turn), turn->me);
  for (int q = 0; q < turn->nline; q++) {
    int64_t lo, hi;
    chunk(turn, q, &lo, &hi);
    int64_t to_q = mine * (hi - lo); /* my part of q's chunk */
    int64_t from_q = hpd_axis_count(&turn->spread, spread_len(turn), q) * width;
    /* This process's own share moves directly (own_copy). */
    counts[q] = q == turn->me ? 0 : (int)(outward ? to_q : from_q);
    theirs[q] = q == turn->me ? 0 : (int)(outward ? from_q : to_q);
    displs[q] = (int)(outward ? at_mine : at_theirs);
    their_displs[q] = (int)(outward ? at_theirs : at_mine);
    at_mine += to_q;
    at_theirs += from_q;
  }
}

/* Copies between this process's part x and the exchange buffer, other processes' chunks
 * only (to_buffer: x -> buf). */
static void part_copy(const hpd_l3_turn *turn, hpd_elem *x, int ldx, hpd_elem *buf, int to_buffer)
{
  int64_t mine = hpd_axis_count(&turn->spread, spread_len(turn), turn->me);
  for (int q = 0; q < turn->nline; q++) {
    int64_t lo, hi;
    chunk(turn, q, &lo, &hi);
    if (q == turn->me)
      buf += mine * (hi - lo);
    else if (turn->left)
      for (int64_t j = lo; j < hi; j++, buf += mine) {
        hpd_elem *col = x + j * ldx;
        memcpy(to_buffer ? buf : col, to_buffer ? col : buf, (size_t)mine * sizeof *buf);
      }
    else
      for (int64_t l = 0; l < mine; l++, buf += hi - lo) {
        hpd_elem *run = x + lo + l * ldx;
        memcpy(to_buffer ? buf : run, to_buffer ? run : buf, (size_t)(hi - lo) * sizeof *buf);
      }
  }
}

/* Copies between this process's chunk t and the exchange buffer, process q's rows
 * (columns) after process q-1's, other processes' only (to_buffer: t -> buf). */
static void chunk_copy(const hpd_l3_turn *turn, hpd_elem *t, hpd_elem *buf, int to_buffer)
{
  int64_t width = hpd_l3_turn_width(turn), ld = hpd_l3_turn_ld(turn);
  for (int q = 0; q < turn->nline; q++) {
    int64_t count = hpd_axis_count(&turn->spread, spread_len(turn), q), g, l, len;
    if (q == turn->me) {
      buf += count * width;
    } else if (turn->left) {
      for (int64_t j = 0; j < width; j++) {
        hpd_axis_runs r = {&turn->spread, q, 0, count};
        while (hpd_axis_next_run(&r, &l, &g, &len)) {
          hpd_elem *at = t + g + j * ld;
          memcpy(to_buffer ? buf + l : at, to_buffer ? at : buf + l, (size_t)len * sizeof *at);
        }
        buf += count;
      }
    } else {
      hpd_axis_runs r = {&turn->spread, q, 0, count};
      while (hpd_axis_next_run(&r, &l, &g, &len)) {
        hpd_elem *at = t + g * ld, *in = buf + l * width;
        memcpy(to_buffer ? in : at, to_buffer ? at : in, (size_t)(len * width) * sizeof *at);
      }
      buf += count * width;
    }
  }
}

/* This process's rows (columns) of process q's chunk t, between x and t directly
 * (to_chunk: x -> t). */
static void own_copy(const hpd_l3_turn *turn, int q, hpd_elem *x, int ldx, hpd_elem *t,
                     int to_chunk)
{
  int64_t lo, hi, g, l, len, ld = ld_of(turn, q);
  chunk(turn, q, &lo, &hi);
  hpd_axis_runs r = {&turn->spread, turn->me, 0,
                     hpd_axis_count(&turn->spread, spread_len(turn), turn->me)};
  while (hpd_axis_next_run(&r, &l, &g, &len)) {
    if (turn->left)
      for (int64_t j = lo; j < hi; j++) {
        hpd_elem *at_x = x + l + j * ldx, *at_t = t + g + (j - lo) * ld;
        memcpy(to_chunk ? at_t : at_x, to_chunk ? at_x : at_t, (size_t)len * sizeof *x);
      }
    else
      for (int64_t c = 0; c < len; c++) {
        hpd_elem *at_x = x + lo + (l + c) * ldx, *at_t = t + (g + c) * ld;
        memcpy(to_chunk ? at_t : at_x, to_chunk ? at_x : at_t, (size_t)(hi - lo) * sizeof *x);
      }
  }
}

size_t hpd_l3_turn_area(const hpd_l3_turn *turn)
{
  return (size_t)turn->nline * hpd_l3_turn_chunk(turn);
}

size_t hpd_l3_turn_sent(const hpd_l3_turn *turn)
{
  int64_t len = turn->left ? turn->n : turn->m;
  return (size_t)hpd_axis_count(&turn->spread, spread_len(turn), turn->me) *
         (size_t)(len - hpd_l3_turn_width(turn));
}

void hpd_l3_turn_place(const hpd_l3_turn *turn, hpd_elem *x, int ldx, hpd_elem *area,
                       int to_area)
{
  size_t stride = hpd_l3_turn_chunk(turn);
  for (int q = 0; q < turn->nline; q++)
    own_copy(turn, q, x, ldx, area + (size_t)q * stride, to_area);
}

static hpd_status exchange(const hpd_l3_turn *turn, int outward, hpd_elem *send, hpd_elem *recv)
{
  int n = turn->nline;
  int *counts = malloc(4 * (size_t)n * sizeof *counts);
  if (!counts)
    return HPD_STATUS_NO_MEMORY;
  int *displs = counts + n, *theirs = displs + n, *their_displs = theirs + n;
  plan(turn, outward, counts, displs, theirs, their_displs);
  hpd_status status = MPI_Alltoallv(send, counts, displs, HPD_ELEM_MPI, recv, theirs,
                                    their_displs, HPD_ELEM_MPI, turn->comm) == MPI_SUCCESS
                          ? HPD_OK
                          : HPD_STATUS_UNAVAILABLE;
  free(counts);
  return status;
}

hpd_status hpd_l3_turn_out(const hpd_l3_turn *turn, const hpd_elem *x, int ldx, hpd_elem *t,
                           hpd_elem *send, hpd_elem *recv)
{
  part_copy(turn, (hpd_elem *)x, ldx, send, 1);
  hpd_status status = exchange(turn, 1, send, recv);
  if (status != HPD_OK)
    return status;
  chunk_copy(turn, t, recv, 0);
  own_copy(turn, turn->me, (hpd_elem *)x, ldx, t, 1);
  return HPD_OK;
}

hpd_status hpd_l3_turn_back(const hpd_l3_turn *turn, const hpd_elem *t, hpd_elem *x, int ldx,
                            hpd_elem *send, hpd_elem *recv)
{
  chunk_copy(turn, (hpd_elem *)t, send, 1);
  hpd_status status = exchange(turn, 0, send, recv);
  if (status != HPD_OK)
    return status;
  part_copy(turn, x, ldx, recv, 0);
  own_copy(turn, turn->me, x, ldx, (hpd_elem *)t, 0);
  return HPD_OK;
}
