#include "gather.h"

#include <stdlib.h>
#include <string.h>

#include "bcast.h"
#include "log.h"

typedef struct gathering {
  const hpd_l3_gather *block;
  const size_t *offset; /* where each process's part starts in staged */
  double *g, *staged;
} gathering;

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

/* The entries of G's triangle in process q's columns (rows) of G. */
static size_t part_size(const hpd_l3_gather *block, int q)
{
  size_t size = 0;
  int64_t count = hpd_axis_count(&block->across, block->k, q), lo, hi;
  if (block->rows_of_g) {
    for (int64_t j = 0; j < block->k; j++) {
      rows_held(block, q, j, &lo, &hi);
      size += (size_t)(hi - lo);
    }
    return size;
  }
  for (int64_t l = 0; l < count; l++) {
    run_of(block, hpd_axis_global(&block->across, l, q), &lo, &hi);
    size += (size_t)(hi - lo);
  }
  return size;
}

/* This process's columns of G, each one's run after the other.  Where G is the
 * transpose, a column of G is a row of the local storage: read column by column, a few
 * rows at a time, so that reads run down the columns and writes stay in a few streams. */
static void pack(const gathering *job, const double *a, int64_t lda)
{
  const hpd_l3_gather *block = job->block;
  double *dst = job->staged + job->offset[block->me];
  int64_t count = hpd_axis_count(&block->across, block->k, block->me), lo, hi;
  if (block->rows_of_g) {
    for (int64_t j = 0; j < block->k; j++) {
      rows_held(block, block->me, j, &lo, &hi);
      memcpy(dst, a + lo + j * lda, (size_t)(hi - lo) * sizeof *dst);
      dst += hi - lo;
    }
    return;
  }
  if (block->g_is_a) {
    for (int64_t l = 0; l < count; l++) {
      run_of(block, hpd_axis_global(&block->across, l, block->me), &lo, &hi);
      memcpy(dst, a + lo + l * lda, (size_t)(hi - lo) * sizeof *dst);
      dst += hi - lo;
    }
    return;
  }
  enum { ROWS = 16 };
  size_t at[ROWS];
  for (int64_t l0 = 0; l0 < count; l0 += ROWS) {
    int rows = count - l0 < ROWS ? (int)(count - l0) : ROWS;
    int64_t from = block->k, to = 0, los[ROWS], his[ROWS];
    for (int r = 0; r < rows; r++) {
      run_of(block, hpd_axis_global(&block->across, l0 + r, block->me), &los[r], &his[r]);
      at[r] = (size_t)(dst - job->staged);
      dst += his[r] - los[r];
      from = los[r] < from ? los[r] : from;
      to = his[r] > to ? his[r] : to;
    }
    for (int64_t y = from; y < to; y++)
      for (int r = 0; r < rows; r++)
        if (y >= los[r] && y < his[r])
          job->staged[at[r] + (size_t)(y - los[r])] = a[l0 + r + y * lda];
  }
}

/* Process q's part, arrived, into G. */
static void unpack(const gathering *job, int q)
{
  const hpd_l3_gather *block = job->block;
  const double *src = job->staged + job->offset[q];
  int64_t count = hpd_axis_count(&block->across, block->k, q), lo, hi;
  if (block->rows_of_g) {
    /* Each column's rows, a block of the dealing at a time. */
    for (int64_t j = 0; j < block->k; j++) {
      int64_t l, i, len;
      rows_held(block, q, j, &lo, &hi);
      hpd_axis_runs runs = {&block->across, q, lo, hi};
      while (hpd_axis_next_run(&runs, &l, &i, &len)) {
        memcpy(job->g + i + j * block->k, src, (size_t)len * sizeof *src);
        src += len;
      }
    }
    return;
  }
  for (int64_t l = 0; l < count; l++) {
    int64_t j = hpd_axis_global(&block->across, l, q);
    run_of(block, j, &lo, &hi);
    memcpy(job->g + lo + j * block->k, src, (size_t)(hi - lo) * sizeof *src);
    src += hi - lo;
  }
}

static void *or_abort(void *p, const char *what)
{
  if (!p)
    hpd_fatal("no memory for %s", what);
  return p;
}

void hpd_l3_gather_block(const hpd_l3_gather *block, const double *a, int64_t lda,
                         double *g, double *staged)
{
  int nline = block->nline;
  size_t *offset = or_abort(malloc((size_t)(nline + 1) * sizeof *offset), "a gather's parts");
  hpd_bcast *handle =
      nline > 1 ? or_abort(malloc((size_t)nline * sizeof *handle), "broadcast handles") : NULL;
  offset[0] = 0;
  for (int q = 0; q < nline; q++)
    offset[q + 1] = offset[q] + part_size(block, q);
  gathering job = {block, offset, g, staged};
  pack(&job, a, lda);
  /* Every part travels at once, each arriving part is unpacked while the next ones
   * travel. */
  for (int q = 0; handle && q < nline; q++)
    if (offset[q + 1] > offset[q])
      hpd_bcast_start(staged + offset[q], offset[q + 1] - offset[q], q, block->comm,
                      &handle[q]);
  for (int q = 0; q < nline; q++) {
    if (offset[q + 1] == offset[q])
      continue;
    if (handle)
      hpd_bcast_wait(&handle[q], 1);
    unpack(&job, q);
  }
  free(handle);
  free(offset);
}
