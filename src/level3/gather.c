#include "level3/gather.h"

#include <stdlib.h>
#include <string.h>

#include "bcast/shared.h"
#include "core/log.h"
#include "level3/stream.h"

#define TAG 0x5900 /* no other message of hpdaemon's is in flight during a call */

size_t hpd_l3_gather_triangle(int k)
{
  return (size_t)k * (size_t)(k + 1) / 2;
}

/* G's column j holds rows [*lo, *hi) of its triangle. */
static void run_of(const hpd_l3_gather *block, int64_t j, int64_t *lo, int64_t *hi)
{
  *lo = block->g_upper ? 0 : j;
  *hi = block->g_upper ? j + 1 : block->k;
}

/* Process q's rows of G's column j: [*l0, *l1) of its own (rows_of_g). */
static void rows_held(const hpd_l3_gather *block, int q, int64_t j, int64_t *l0, int64_t *l1)
{
  int64_t lo, hi;
  run_of(block, j, &lo, &hi);
  *l0 = hpd_axis_count(&block->across, lo, q);
  *l1 = hpd_axis_count(&block->across, hi, q);
}

/* The entries of G's column j in process q's part. */
static size_t in_column(const hpd_l3_gather *block, int q, int64_t j)
{
  int64_t lo, hi;
  if (block->rows_of_g)
    rows_held(block, q, j, &lo, &hi);
  else if (hpd_axis_owner(&block->across, j) == q)
    run_of(block, j, &lo, &hi);
  else
    lo = hi = 0;
  return (size_t)(hi - lo);
}

/* The entries of G's columns [j0, j1) in process q's part. */
static size_t in_columns(const hpd_l3_gather *block, int q, int64_t j0, int64_t j1)
{
  size_t size = 0;
  for (int64_t j = j0; j < j1; j++)
    size += in_column(block, q, j);
  return size;
}

/* Where this process's entries go: packed one run after the other from dst, or each into
 * its place in G, shared with the line's other processes where shared is set. */
typedef struct sink {
  hpd_elem *dst, *g;
  int64_t k;
  hpd_shared *shared;
} sink;

/* This process's entries of G's columns [0, columns) are all written: the others may read
 * them from shared memory. */
static void written(const sink *to, int64_t columns)
{
  if (to->shared)
    hpd_shared_publish(to->shared, (uint64_t)columns);
}

/* Where the entries of G's column j from row i on, len of them, go. */
static hpd_elem *place(sink *to, int64_t i, int64_t j, int64_t len)
{
  if (to->g)
    return to->g + i + j * to->k;
  hpd_elem *run = to->dst;
  to->dst += len;
  return run;
}

/* This process's columns of G, each one's run after the other.  Where G is the
 * transpose, a column of G is a row of the local storage: read column by column, a few
 * rows at a time, so that reads run down the columns and writes stay in a few streams. */
static void pack(const hpd_l3_gathering *job, const hpd_elem *a, int64_t lda, sink *to)
{
  const hpd_l3_gather *block = job->block;
  int64_t count = hpd_axis_count(&block->across, block->k, block->me), lo, hi;
  if (block->rows_of_g) {
    /* Each column's rows, a block of the dealing at a time. */
    for (int64_t j = 0; j < block->k; j++) {
      int64_t l, i, len;
      rows_held(block, block->me, j, &lo, &hi);
      hpd_axis_runs runs = {&block->across, block->me, lo, hi};
      while (hpd_axis_next_run(&runs, &l, &i, &len))
        memcpy(place(to, i, j, len), a + l + j * lda, (size_t)len * sizeof *a);
      written(to, j + 1);
    }
    return;
  }
  if (block->g_is_a) {
    for (int64_t l = 0; l < count; l++) {
      int64_t j = hpd_axis_global(&block->across, l, block->me);
      run_of(block, j, &lo, &hi);
      memcpy(place(to, lo, j, hi - lo), a + lo + l * lda, (size_t)(hi - lo) * sizeof *a);
      written(to, j + 1);
    }
    written(to, block->k);
    return;
  }
  enum { ROWS = 16 };
  hpd_elem *run[ROWS];
  for (int64_t l0 = 0; l0 < count; l0 += ROWS) {
    int rows = count - l0 < ROWS ? (int)(count - l0) : ROWS;
    int64_t from = block->k, to_row = 0, los[ROWS], his[ROWS];
    for (int r = 0; r < rows; r++) {
      int64_t j = hpd_axis_global(&block->across, l0 + r, block->me);
      run_of(block, j, &los[r], &his[r]);
      run[r] = place(to, los[r], j, his[r] - los[r]);
      from = los[r] < from ? los[r] : from;
      to_row = his[r] > to_row ? his[r] : to_row;
    }
    for (int64_t y = from; y < to_row; y++)
      for (int r = 0; r < rows; r++)
        if (y >= los[r] && y < his[r])
          run[r][y - los[r]] = a[l0 + r + y * lda];
    written(to, hpd_axis_global(&block->across, l0 + rows - 1, block->me) + 1);
  }
  written(to, block->k);
}

/* Process q's entries of G's columns [j0, j1), arrived, into G: the part from where the
 * last unpacking stopped. */
static void unpack(hpd_l3_gathering *job, int q, int64_t j0, int64_t j1)
{
  const hpd_l3_gather *block = job->block;
  const hpd_elem *src = job->staged + job->offset[q] + job->unpacked[q];
  const hpd_elem *from = src;
  int64_t lo, hi;
  if (block->rows_of_g) {
    for (int64_t j = j0; j < j1; j++) {
      int64_t l, i, len;
      rows_held(block, q, j, &lo, &hi);
      hpd_axis_runs runs = {&block->across, q, lo, hi};
      while (hpd_axis_next_run(&runs, &l, &i, &len)) {
        memcpy(job->g + i + j * block->k, src, (size_t)len * sizeof *src);
        src += len;
      }
    }
  } else {
    int64_t l1 = hpd_axis_count(&block->across, j1, q);
    for (int64_t l = hpd_axis_count(&block->across, j0, q); l < l1; l++) {
      int64_t j = hpd_axis_global(&block->across, l, q);
      run_of(block, j, &lo, &hi);
      memcpy(job->g + lo + j * block->k, src, (size_t)(hi - lo) * sizeof *src);
      src += hi - lo;
    }
  }
  job->unpacked[q] += (size_t)(src - from);
}

static void *or_abort(void *p, const char *what)
{
  if (!p)
    hpd_fatal("no memory for %s", what);
  return p;
}

void hpd_l3_gather_share(hpd_l3_gather *block)
{
  size_t bytes = (size_t)block->k * (size_t)block->k * sizeof(hpd_elem);
  block->shared = block->nline > 1 ? hpd_shared_get(block->comm, bytes) : NULL;
}

size_t hpd_l3_gather_space(const hpd_l3_gather *block)
{
  return block->shared ? 0 : (size_t)block->k * (size_t)block->k + hpd_l3_gather_triangle(block->k);
}

void hpd_l3_gather_begin(const hpd_l3_gather *block, const hpd_elem *a, int64_t lda,
                         hpd_elem *g, hpd_elem *staged, hpd_l3_gathering *job)
{
  int nline = block->nline, me = block->me;
  *job = (hpd_l3_gathering){.block = block, .g = g, .staged = staged};
  job->offset = or_abort(malloc((size_t)(2 * nline + 1) * sizeof *job->offset),
                         "a gather's parts");
  job->unpacked = job->offset + nline + 1;
  job->offset[0] = 0;
  for (int q = 0; q < nline; q++) {
    job->offset[q + 1] = job->offset[q] + in_columns(block, q, 0, block->k);
    job->unpacked[q] = 0;
  }
  if (block->shared) {
    size_t mine = job->offset[me + 1] - job->offset[me];
    job->g = hpd_shared_begin(block->shared, HPD_L3_GATHER_AREA, (uint64_t)block->k,
                              mine * sizeof(hpd_elem));
    /* Parts that are rows of G share every page of it (shared.h). */
    if (block->rows_of_g)
      hpd_shared_make(block->shared, (size_t)block->k * (size_t)block->k * sizeof(hpd_elem));
    pack(job, a, lda, &(sink){.g = job->g, .k = block->k, .shared = block->shared});
    return;
  }
  pack(job, a, lda, &(sink){.dst = staged + job->offset[me]});
  if (nline == 1)
    return;
  /* Every part travels at once. */
  job->stream = or_abort(malloc(sizeof *job->stream), "a gather's messages");
  if (hpd_l3_stream_make(job->stream, job->offset, nline, me) != HPD_OK)
    hpd_fatal("no memory for a gather's messages");
  hpd_l3_stream_fit_link(job->stream, block->comm);
  hpd_l3_stream_start(job->stream, staged, block->comm, TAG);
}

void hpd_l3_gather_columns(hpd_l3_gathering *job, int64_t columns)
{
  const hpd_l3_gather *block = job->block;
  columns = columns < block->k ? columns : block->k;
  if (columns <= job->ready) {
    if (job->stream)
      hpd_l3_stream_poll(job->stream); /* moves what is in flight */
    return;
  }
  for (int q = 0; q < block->nline; q++) {
    size_t through = job->unpacked[q] + in_columns(block, q, job->ready, columns);
    if (block->shared) {
      if (q != block->me && through > 0)
        hpd_shared_wait(block->shared, q, (uint64_t)columns);
      continue;
    }
    if (job->stream)
      hpd_l3_stream_wait_for(job->stream, q, through);
    unpack(job, q, job->ready, columns);
  }
  job->ready = columns;
}

void hpd_l3_gather_end(hpd_l3_gathering *job)
{
  hpd_l3_gather_columns(job, job->block->k);
  if (job->stream)
    hpd_l3_stream_finish(job->stream);
}

void hpd_l3_gather_release(hpd_l3_gathering *job)
{
  if (job->block->shared)
    hpd_shared_end(job->block->shared);
  if (job->stream)
    hpd_l3_stream_free(job->stream);
  free(job->stream);
  free(job->offset);
}
