/*
 * pdtrsm, pdtrmm or pdsymm on one line of the grid, where the layout allows it: the
 * order-k block of sub(A) has its rows (SIDE 'L') or columns ('R') on one process row
 * (column), and the part of sub(B) (and sub(C)) that meets it lies on that same process
 * row (column).  Then each process there needs all of the block's triangle and nothing
 * else: the block's owners broadcast their parts of it along the line, in the engine's
 * broadcast and at the strategy's broadcast frequency, and each process of the line
 * updates its own columns (rows) of sub(B) with one local BLAS call at the multiply
 * frequency.  Nobody else takes part, so the rest of the grid is not held up.
 *
 * That is every call on a 1 x Q grid with SIDE 'L' (or P x 1 with 'R'), whose whole
 * block travels once instead of the halving's operands at every level, and LU's,
 * Cholesky's and inversion's calls on a single diagonal block.
 *
 * The gathered block G holds line g of sub(A) (column g for 'L', row g for 'R') in its
 * column g, so G is sub(A) for 'L' and its transpose for 'R'; only UPLO's triangle
 * travels and is set.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bcast.h"
#include "blocked.h"
#include "config.h"
#include "direct.h"
#include "dvfs.h"
#include "local_trsm.h"
#include "log.h"
#include "spent.h"
#include "scalapack_api.h"
#include "stats.h"
#include "switch_rule.h"

/* Buffers up to this many entries are checked on the line alone: a grid-wide agreement
 * on each of LU's diagonal blocks would cost more than the block. */
#define SMALL_BLOCK ((size_t)1 << 17)

typedef struct line_job {
  const hpd_l3_run *run;
  int left;        /* SIDE 'L' */
  int g_upper;     /* the triangle G holds */
  int k;           /* order of the block */
  hpd_axis across; /* sub(A)'s columns ('L') or rows ('R'): dealt along the line */
  int nline, me;   /* processes on the line, and this one's place on it */
  size_t *offset;  /* where each process's part starts in the staging buffer */
  double *g, *staged;
} line_job;

/* G's column g holds rows [*lo, *hi) of its triangle. */
static void run_of(const line_job *job, int64_t g, int64_t *lo, int64_t *hi)
{
  *lo = job->g_upper ? 0 : g;
  *hi = job->g_upper ? g + 1 : job->k;
}

/* The entries of G's triangle in process q's lines. */
static size_t part_size(const line_job *job, int q)
{
  size_t size = 0;
  int64_t count = hpd_axis_count(&job->across, job->k, q), lo, hi;
  for (int64_t l = 0; l < count; l++) {
    run_of(job, hpd_axis_global(&job->across, l, q), &lo, &hi);
    size += (size_t)(hi - lo);
  }
  return size;
}

/* This process's lines of sub(A), each line's run one after the other.  For 'R' a line
 * is a row of the local storage: read column by column, a few rows at a time, so that
 * reads run down the columns and writes stay in a few streams. */
static void pack(const line_job *job, const double *a, int64_t lda)
{
  double *dst = job->staged + job->offset[job->me];
  int64_t count = hpd_axis_count(&job->across, job->k, job->me), lo, hi;
  if (job->left) {
    for (int64_t l = 0; l < count; l++) {
      run_of(job, hpd_axis_global(&job->across, l, job->me), &lo, &hi);
      memcpy(dst, a + lo + l * lda, (size_t)(hi - lo) * sizeof *dst);
      dst += hi - lo;
    }
    return;
  }
  enum { ROWS = 16 };
  size_t at[ROWS];
  for (int64_t l0 = 0; l0 < count; l0 += ROWS) {
    int rows = count - l0 < ROWS ? (int)(count - l0) : ROWS;
    int64_t from = job->k, to = 0, los[ROWS], his[ROWS];
    for (int r = 0; r < rows; r++) {
      run_of(job, hpd_axis_global(&job->across, l0 + r, job->me), &los[r], &his[r]);
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
static void unpack(const line_job *job, int q)
{
  const double *src = job->staged + job->offset[q];
  int64_t count = hpd_axis_count(&job->across, job->k, q), lo, hi;
  for (int64_t l = 0; l < count; l++) {
    int64_t g = hpd_axis_global(&job->across, l, q);
    run_of(job, g, &lo, &hi);
    memcpy(job->g + lo + g * job->k, src, (size_t)(hi - lo) * sizeof *src);
    src += hi - lo;
  }
}

/* The line this block can be served on (a process row for 'L', a column for 'R'), or -1
 * where the layout does not allow it. */
static int line_of(const hpd_l3 *l3, const hpd_matrix *a, const hpd_matrix *b,
                   const hpd_matrix *c, int k)
{
  const hpd_call *call = &l3->call;
  int left = l3->side == 'L';
  hpd_axis ak = left ? hpd_matrix_rows(a, call->nprow) : hpd_matrix_cols(a, call->npcol);
  hpd_axis bk = left ? hpd_matrix_rows(b, call->nprow) : hpd_matrix_cols(b, call->npcol);
  int line = hpd_direct_axis_owner(ak, k);
  if (line < 0 || hpd_direct_axis_owner(bk, k) != line)
    return -1;
  if (l3->routine == HPD_ROUTINE_PDSYMM) {
    hpd_axis ck = left ? hpd_matrix_rows(c, call->nprow) : hpd_matrix_cols(c, call->npcol);
    hpd_axis bw = left ? hpd_matrix_cols(b, call->npcol) : hpd_matrix_rows(b, call->nprow);
    hpd_axis cw = left ? hpd_matrix_cols(c, call->npcol) : hpd_matrix_rows(c, call->nprow);
    if (!hpd_axis_same(&bk, &ck, k) || !hpd_axis_same(&bw, &cw, left ? call->n : call->m))
      return -1;
  }
  return line;
}

/* G and the staging buffer, kept from call to call while no more than twice what a call
 * needs (diagonal blocks are small and many, and a large block's pages would cost their
 * first-touch faults again at every call); NULL where memory ran short. */
static double *buffers_for(size_t count)
{
  static double *kept;
  static size_t kept_count;
  if (count <= kept_count && kept_count <= 2 * count)
    return kept;
  free(kept);
  kept_count = 0;
  if (!(kept = malloc(count * sizeof *kept)))
    return NULL;
  kept_count = count;
  return kept;
}

/* The local BLAS call on this process's columns ('L') or rows ('R') of sub(B). */
static void update(const line_job *job, const hpd_matrix *b, const hpd_matrix *c,
                   double alpha, double beta)
{
  const hpd_l3 *l3 = job->run->l3;
  const hpd_call *call = &l3->call;
  hpd_axis bw = job->left ? hpd_matrix_cols(b, call->npcol) : hpd_matrix_rows(b, call->nprow);
  int width = (int)hpd_axis_count(&bw, job->left ? call->n : call->m,
                                  job->left ? call->mycol : call->myrow);
  if (width == 0)
    return;
  int k = job->k, m = job->left ? k : width, n = job->left ? width : k;
  /* G is sub(A)' for 'R': the other triangle, transposed back in the call. */
  char uplo = job->g_upper ? 'U' : 'L';
  char trans = job->left == (call->transa == 'N') ? 'N' : 'T';
  double *bx = hpd_direct_origin(call, b, l3->routine == HPD_ROUTINE_PDSYMM ? call->b : call->c);
  const int *ldb = &b->desc[HPD_LLD];
  switch (l3->routine) {
  case HPD_ROUTINE_PDTRSM:
    hpd_l3_local_trsm(l3->side, uplo, trans, l3->diag, m, n, alpha, job->g, k, bx, *ldb);
    break;
  case HPD_ROUTINE_PDTRMM:
    dtrmm_(&l3->side, &uplo, &trans, &l3->diag, &m, &n, &alpha, job->g, &k, bx, ldb);
    break;
  default:
    dsymm_(&l3->side, &uplo, &m, &n, &alpha, job->g, &k, bx, ldb, &beta,
           hpd_direct_origin(call, c, call->c), &c->desc[HPD_LLD]);
    break;
  }
}

/* The broadcasts along the line, each part into G as it arrives. */
static void gather(const line_job *job, const double *a, int64_t lda, MPI_Comm comm)
{
  hpd_bcast *handle = job->nline > 1 ? malloc((size_t)job->nline * sizeof *handle) : NULL;
  if (job->nline > 1 && !handle) {
    fprintf(stderr, "hpdaemon: error: no memory for %d broadcast handles (rank %d)\n",
            job->nline, hpd_world_rank());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  pack(job, a, lda);
  for (int q = 0; handle && q < job->nline; q++)
    if (job->offset[q + 1] > job->offset[q])
      hpd_bcast_start(job->staged + job->offset[q], job->offset[q + 1] - job->offset[q], q,
                      comm, &handle[q]);
  for (int q = 0; q < job->nline; q++) {
    if (job->offset[q + 1] == job->offset[q])
      continue;
    if (handle)
      hpd_bcast_wait(&handle[q], 1);
    unpack(job, q);
  }
  free(handle);
}

int hpd_l3_line(hpd_l3_run *run, const hpd_matrix *a, const hpd_matrix *b,
                const hpd_matrix *c, int k, double alpha, double beta)
{
  const hpd_l3 *l3 = run->l3;
  const hpd_call *call = &l3->call;
  int line = line_of(l3, a, b, c, k);
  if (line < 0)
    return -1;
  int left = l3->side == 'L';
  line_job job = {.run = run, .left = left, .k = k,
                  .g_upper = (call->uplo == 'U') == left,
                  .across = left ? hpd_matrix_cols(a, call->npcol) : hpd_matrix_rows(a, call->nprow),
                  .nline = left ? call->npcol : call->nprow,
                  .me = left ? call->mycol : call->myrow};
  size_t triangle = (size_t)k * (size_t)(k + 1) / 2, count = (size_t)k * (size_t)k + triangle;
  /* The same figures on every rank: a block over the memory threshold is halved instead,
   * unless it is a single block (nothing to halve). */
  if ((double)count * sizeof(double) >
          hpd_config_get()->mem_threshold * run->grid->mem_per_rank &&
      hpd_l3_split(l3, a, k) != 0)
    return -1;
  hpd_spent_set_up(run->grid);
  int on_line = (left ? call->myrow : call->mycol) == line;
  double *space = on_line ? buffers_for(count) : NULL;
  if (count > SMALL_BLOCK) {
    /* Every rank of the grid learns whether the line could make its buffers. */
    int ok = !on_line || space, all = 0;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, run->grid->comm);
    if (!all) {
      static atomic_int warned;
      if (!atomic_exchange(&warned, 1))
        hpd_warn("not enough memory to gather a %d x %d block of sub(A) on one line of the "
                 "grid: halving it instead",
                 k, k);
      return -1;
    }
  } else if (on_line && !space) {
    /* Every process of the line has already taken this path from descriptor data
     * alone: none can turn back now. */
    fprintf(stderr, "hpdaemon: error: no memory for a %d x %d diagonal block (rank %d)\n",
            k, k, hpd_world_rank());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  if (!on_line)
    return 0;
  size_t offset[job.nline + 1];
  offset[0] = 0;
  for (int q = 0; q < job.nline; q++)
    offset[q + 1] = offset[q] + part_size(&job, q);
  job.offset = offset;
  job.g = space;
  job.staged = space + (size_t)k * (size_t)k;

  hpd_strategy strategy = hpd_config_get()->strategy;
  if (strategy == HPD_STRATEGY_AUTO)
    strategy = HPD_STRATEGY_DAEMON; /* one broadcast phase: nothing to choose between */
  int travels = job.nline > 1;
  size_t bytes = travels ? triangle * sizeof(double) : 0;
  int switching = travels && hpd_switch_pays(strategy, bytes);
  hpd_spent meter;
  hpd_spent_start(&meter);
  if (travels)
    hpd_switch_enter(strategy, switching, HPD_PHASE_BROADCAST);
  gather(&job, hpd_direct_origin(call, a, call->a), a->desc[HPD_LLD],
         left ? run->grid->row : run->grid->col);
  if (travels)
    hpd_switch_enter(strategy, switching, HPD_PHASE_MULTIPLY);
  else
    hpd_energy_mark(HPD_LEDGER_MULTIPLY, hpd_dvfs_current_khz());
  update(&job, b, c, alpha, beta);
  hpd_energy_mark(HPD_LEDGER_OTHER, hpd_dvfs_current_khz());
  hpd_spent_record(&meter, l3->routine, travels ? strategy : HPD_STRATEGY_NONE, travels);
  hpd_stats_record_grouping(l3->routine, 1, 1, (uint64_t)(count * sizeof(double)),
                            (uint64_t)(count * sizeof(double)));
  run->multiplies++;
  return 0;
}
