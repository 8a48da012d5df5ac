/*
 * pdtrsm from the left with TRANSA 'N' on a P x 1 grid, solved where the rows lie, as a
 * wavefront: sub(A)'s and sub(B)'s rows are dealt alike, so the process that holds a
 * block of rows of sub(B) holds the diagonal block that solves it and the rows of sub(A)
 * that its solution updates.  Each solved block travels to the other processes, M N
 * (P-1)/P entries received per process, as PBLAS moves, where the turned form (line.c)
 * moves as many twice and the block of sub(A) besides.
 *
 * PBLAS sends each solved block of rows whole, and the next block's owner can start only
 * when all of it has arrived: one direction of the link carries one block at a time, and
 * the solve takes as many link crossings as there are blocks.  Here the columns are cut
 * into slabs, independent problems: a block's slab leaves as soon as it is solved, and
 * its receiver brings only its own next block of that slab up to date, solves it and
 * sends it on; the rest of the updates it owes are made while nothing has arrived.
 * Slabs at different blocks are then in flight in both directions at once, and a
 * crossing costs one slab, not one block.
 */
#include <stdlib.h>

#include "bcast/request.h"
#include "core/log.h"
#include "kernel/kernel.h"
#include "level3/blocked.h"
#include "level3/kept.h"
#include "level3/local.h"
#include "level3/stream.h"
#include "local/direct.h"
#include "pblas/scalapack_api.h"

/* A slab's block of rows travels as PIECES messages of at least HPD_L3_MESSAGE_BYTES
 * (stream.h), each of which the next block's owner receives as it lands. */
#define PIECES 4

/* Four slabs: enough that both directions of a link have one in flight while the next
 * block's owner works on another.  Each slab more costs PIECES messages more per block,
 * and over TCP a message's own cost is what a narrow slab saves in crossing time
 * (timing/notes/2026-11-29.md, "pdtrsm's slabs"). */
#define SLABS 4

/* Slabs carry tags TAG, TAG + 1, ...: messages from one process in one slab arrive in
 * the order of its blocks, whatever order the slabs run in. */
#define TAG 0x5400 /* no other message of hpdaemon's is in flight during a call */

/* The rows and columns of one multiply of the owed updates: wide enough that the BLAS
 * runs near its pace, small enough that an arrival waits little for it. */
#define OWED_ROWS 256
#define OWED_COLS 256

typedef struct block {
  int64_t g, len; /* first row of sub(B) and rows */
  int64_t at;     /* the other processes' rows before it in the solve's order, in staged */
  int owner;
} block;

typedef struct pending {
  int64_t lo, hi; /* this process's rows of sub(B) */
} pending;

typedef struct wave {
  int m, n, me, upper, unit;
  hpd_elem alpha;
  const hpd_elem *a; /* this process's rows of sub(A), all its columns */
  int lda;
  hpd_elem *b; /* this process's rows of sub(B), solved in place */
  int ldb;
  hpd_axis rows; /* sub(A)'s and sub(B)'s rows down the column */
  MPI_Comm comm;
  int p, count, slabs, width; /* processes, blocks, slabs and columns per slab */
  int piece;                  /* columns per message */
  int64_t mine;               /* this process's rows */
  block *blocks;              /* in the solve's order: top down (lower), bottom up */
  int *first, *next;          /* each slab's oldest block with updates owed, next block */
  pending *owed;              /* each block's updates owed in each slab, count x slabs */
  hpd_elem *staged;           /* the other processes' blocks' solutions, slab by slab */
  MPI_Request *recv;          /* each other process's block and slab, count x slabs */
  MPI_Request *sent;
  int nsent;
} wave;

static int slab_width(const wave *w, int s)
{
  int first = s * w->width;
  return w->n - first < w->width ? w->n - first : w->width;
}

/* The number of messages of slab s, and the columns of its piece j. */
static int pieces_of(const wave *w, int s)
{
  return (slab_width(w, s) + w->piece - 1) / w->piece;
}

static int piece_width(const wave *w, int s, int j)
{
  int left = slab_width(w, s) - j * w->piece;
  return left < w->piece ? left : w->piece;
}

/* Another process's block k's solution in slab s, as staged: len x width, leading
 * dimension len. */
static hpd_elem *staged_at(const wave *w, int k, int s)
{
  const block *bk = &w->blocks[k];
  return w->staged + bk->at * w->n + (int64_t)s * w->width * bk->len;
}

static int64_t mine_before(const wave *w, int64_t g)
{
  return hpd_axis_count(&w->rows, g, w->me);
}

/* Block k's solution in slab s and its leading dimension: this process's own blocks are
 * read where they were solved, in sub(B), which no later update touches. */
static const hpd_elem *solution_at(const wave *w, int k, int s, int *ld)
{
  const block *bk = &w->blocks[k];
  if (bk->owner != w->me) {
    *ld = (int)bk->len;
    return staged_at(w, k, s);
  }
  *ld = w->ldb;
  return w->b + mine_before(w, bk->g) + (int64_t)s * w->width * w->ldb;
}

/* This process's rows that block k's solution updates: [*lo, *hi). */
static void rows_after(const wave *w, int k, int64_t *lo, int64_t *hi)
{
  const block *bk = &w->blocks[k];
  *lo = w->upper ? 0 : mine_before(w, bk->g + bk->len);
  *hi = w->upper ? mine_before(w, bk->g) : w->mine;
}

/* Rows [r0, r1) of this process's sub(B) in slabs [s, s + run) -= their columns of block k
 * in A times the block's solution (a block's slabs lie side by side, staged or not). */
static void update(const wave *w, int k, int s, int run, int64_t r0, int64_t r1)
{
  int64_t c0 = (int64_t)s * w->width, c1 = (int64_t)(s + run) * w->width;
  int rows = (int)(r1 - r0), cols = (int)((c1 < w->n ? c1 : w->n) - c0);
  int depth = (int)w->blocks[k].len;
  if (rows <= 0)
    return;
  int ld;
  const hpd_elem *x = solution_at(w, k, s, &ld);
  hpd_kernel_gemm('N', 'N', rows, cols, depth, -1.0, w->a + r0 + w->blocks[k].g * w->lda, w->lda,
                  x, ld, 1.0, w->b + r0 + c0 * w->ldb, w->ldb);
}

/* Block k's update of slabs [s, s + run), whose owed rows are the same, still owed to rows
 * [r0, r1) of this process's sub(B).  The owed rows shrink from the end nearest the
 * diagonal: that is where the next block to solve lies, and the idle work takes its rows
 * from there too. */
static void pay(wave *w, int k, int s, int run, int64_t r0, int64_t r1)
{
  pending *owed = &w->owed[(size_t)k * w->slabs + s];
  r0 = r0 > owed->lo ? r0 : owed->lo;
  r1 = r1 < owed->hi ? r1 : owed->hi;
  if (r1 <= r0)
    return;
  update(w, k, s, run, r0, r1);
  for (int i = 0; i < run; i++, owed++)
    if (w->upper)
      owed->hi = r0;
    else
      owed->lo = r1;
}

static int settled(const wave *w, int k, int s)
{
  const pending *owed = &w->owed[(size_t)k * w->slabs + s];
  return owed->lo >= owed->hi;
}

/* Slab s's blocks whose updates are owed, oldest first: [first, next) of the slab's. */
static void drop_settled(wave *w, int s)
{
  while (w->first[s] < w->next[s] && settled(w, w->first[s], s))
    w->first[s]++;
}

static void arrived(wave *w, int k, int s);

/* Block k is this process's and slab s's next: its rows get every update owed to them,
 * then it is solved and sent from where it lies. */
static void solve_own(wave *w, int k, int s)
{
  const block *bk = &w->blocks[k];
  int64_t own = mine_before(w, bk->g);
  for (int i = w->first[s]; i < w->next[s]; i++)
    pay(w, i, s, 1, own, own + bk->len);
  drop_settled(w, s);
  int len = (int)bk->len, cols = slab_width(w, s);
  hpd_elem *x = w->b + own + (int64_t)s * w->width * w->ldb;
  /* hpdaemon's own kernel: the BLAS's dtrsm runs a block this narrow at a fraction of
   * its multiply rate, and every block's solve lies on the wave's critical path. */
  hpd_l3_local_trsm('L', w->upper ? 'U' : 'L', 'N', w->unit ? 'U' : 'N', len, cols, 1.0,
                    w->a + own + bk->g * w->lda, w->lda, x, w->ldb);
  for (int j = 0; j < pieces_of(w, s); j++) {
    /* A piece is len rows of some columns of sub(B): one vector of them.  MPI keeps the
     * type alive until the sends that use it complete. */
    MPI_Datatype piece;
    MPI_Type_vector(piece_width(w, s, j), len, w->ldb, HPD_ELEM_MPI, &piece);
    MPI_Type_commit(&piece);
    for (int q = 0; q < w->p; q++)
      if (q != w->me)
        MPI_Isend(x + (int64_t)j * w->piece * w->ldb, 1, piece, q, TAG + s, w->comm,
                  &w->sent[w->nsent++]);
    MPI_Type_free(&piece);
  }
  arrived(w, k, s);
}

/* Block k's solution in slab s is staged: its update is owed, and the slab's next block,
 * where it is this process's, is solved at once. */
static void arrived(wave *w, int k, int s)
{
  pending *owed = &w->owed[(size_t)k * w->slabs + s];
  rows_after(w, k, &owed->lo, &owed->hi);
  w->next[s] = k + 1;
  if (k + 1 < w->count && w->blocks[k + 1].owner == w->me)
    solve_own(w, k + 1, s);
}

/* One piece of the owed updates, the oldest block's first, over the neighbouring slabs
 * that owe that block the same rows: 0 where none is owed. */
static int pay_some(wave *w)
{
  int best = -1;
  for (int s = 0; s < w->slabs; s++) {
    drop_settled(w, s);
    if (w->first[s] < w->next[s] && (best < 0 || w->first[s] < w->first[best]))
      best = s;
  }
  if (best < 0)
    return 0;
  int k = w->first[best];
  const pending *owed = &w->owed[(size_t)k * w->slabs + best];
  int run = 1;
  while (best + run < w->slabs && run * w->width < OWED_COLS && w->first[best + run] == k &&
         owed[run].lo == owed->lo && owed[run].hi == owed->hi)
    run++;
  if (w->upper)
    pay(w, k, best, run, owed->hi - OWED_ROWS, owed->hi);
  else
    pay(w, k, best, run, owed->lo, owed->lo + OWED_ROWS);
  return 1;
}

static void scale_mine(const wave *w)
{
  if (w->alpha == 1.0)
    return;
  for (int64_t j = 0; j < w->n; j++)
    for (int64_t i = 0; i < w->mine; i++)
      w->b[i + j * w->ldb] *= w->alpha;
}

#define NONE_YET (-1)

/* The first of the slabs' awaited blocks that has arrived: its slab, or NONE_YET (wait:
 * block until one has), or MPI_UNDEFINED where none is awaited.  A block's
 * slab counts as arrived with its last piece, the others then waited for. */
static int next_arrival(wave *w, int wait)
{
  MPI_Request *waiting = w->recv + (size_t)w->count * w->slabs * PIECES;
  for (int s = 0; s < w->slabs; s++)
    waiting[s] = w->next[s] < w->count
                     ? w->recv[((size_t)w->next[s] * w->slabs + s) * PIECES + pieces_of(w, s) - 1]
                     : MPI_REQUEST_NULL;
  int s = MPI_UNDEFINED, flag = 1;
  if (wait)
    MPI_Waitany(w->slabs, waiting, &s, MPI_STATUS_IGNORE);
  else
    flag = hpd_request_any_done(w->slabs, waiting, &s);
  if (s != MPI_UNDEFINED) {
    MPI_Request *r = &w->recv[((size_t)w->next[s] * w->slabs + s) * PIECES];
    r[pieces_of(w, s) - 1] = MPI_REQUEST_NULL;
    for (int j = 0; j < pieces_of(w, s) - 1; j++)
      MPI_Wait(&r[j], MPI_STATUS_IGNORE);
  }
  return flag ? s : NONE_YET;
}

/* Arrivals first, since each lets a block be solved and sent; the owed updates while
 * nothing has arrived. */
static void solve(void *arg)
{
  wave *w = arg;
  scale_mine(w);
  for (int k = 0; k < w->count; k++)
    for (int s = 0; s < w->slabs; s++)
      for (int j = 0; j < PIECES; j++) {
        MPI_Request *r = &w->recv[((size_t)k * w->slabs + s) * PIECES + j];
        int len = (int)w->blocks[k].len;
        *r = MPI_REQUEST_NULL;
        if (w->blocks[k].owner != w->me && j < pieces_of(w, s))
          MPI_Irecv(staged_at(w, k, s) + (int64_t)j * w->piece * len, len * piece_width(w, s, j),
                    HPD_ELEM_MPI, w->blocks[k].owner, TAG + s, w->comm, r);
      }
  for (int s = 0; s < w->slabs; s++) {
    w->first[s] = w->next[s] = 0;
    if (w->blocks[0].owner == w->me)
      solve_own(w, 0, s);
  }
  for (;;) {
    int s = next_arrival(w, 0);
    if ((s == NONE_YET || s == MPI_UNDEFINED) && pay_some(w))
      continue;
    if (s == NONE_YET)
      s = next_arrival(w, 1);
    if (s == MPI_UNDEFINED)
      break; /* nothing awaited, nothing owed */
    arrived(w, w->next[s], s);
  }
  for (int i = 0; i < w->nsent; i++)
    MPI_Wait(&w->sent[i], MPI_STATUS_IGNORE);
}

/* A slab's columns and a message's, for n columns and blocks of at most widest rows. */
static void slab_shape(int n, int widest, int *width, int *piece)
{
  int message = (int)(HPD_L3_MESSAGE_BYTES / (sizeof(hpd_elem) * (size_t)widest));
  message = message < 1 ? 1 : message;
  int w = (n + SLABS - 1) / SLABS;
  *width = w < 1 ? 1 : w;
  int per_piece = (*width + PIECES - 1) / PIECES;
  *piece = per_piece > message ? per_piece : message;
}

/* The call as this way sees it, where it can be taken: HPD_OK, or HPD_STATUS_DECLINED. */
static hpd_status describe(const hpd_l3_run *run, wave *w)
{
  const hpd_l3 *l3 = run->l3;
  const hpd_call *call = &l3->call;
  hpd_axis br;
  if (l3->routine != HPD_ROUTINE_PDTRSM || !hpd_l3_rows_stay(run, &br))
    return HPD_STATUS_DECLINED;
  int width, piece;
  int widest = br.first > br.nb ? br.first : br.nb;
  slab_shape(call->n, widest < call->m ? widest : call->m, &width, &piece);
  *w = (wave){.m = call->m, .n = call->n, .me = call->myrow, .upper = call->uplo == 'U',
              .unit = l3->diag == 'U', .alpha = call->alpha,
              .a = hpd_direct_origin(call, &call->A, call->a), .lda = call->A.desc[HPD_LLD],
              .b = hpd_direct_origin(call, &call->C, call->c), .ldb = call->C.desc[HPD_LLD],
              .rows = br, .comm = run->grid->col, .p = call->nprow,
              .slabs = (call->n + width - 1) / width, .width = width,
              .piece = piece,
              .mine = hpd_axis_count(&br, call->m, call->myrow)};
  for (int64_t g = 0; g < call->m; g = hpd_axis_next_boundary(&br, g))
    w->count++;
  return HPD_OK;
}

/* The blocks in the solve's order. */
static void list_blocks(wave *w)
{
  int k = w->upper ? w->count - 1 : 0, step = w->upper ? -1 : 1;
  for (int64_t g = 0; g < w->m; k += step) {
    int64_t end = hpd_axis_next_boundary(&w->rows, g);
    end = end < w->m ? end : w->m;
    w->blocks[k] = (block){.g = g, .len = end - g, .owner = hpd_axis_owner(&w->rows, g)};
    g = end;
  }
  int64_t at = 0;
  for (k = 0; k < w->count; k++) {
    w->blocks[k].at = at;
    if (w->blocks[k].owner != w->me)
      at += w->blocks[k].len;
  }
}

/* The other processes' rows of sub(B), as staged on this process. */
static size_t staged_count(const wave *w)
{
  return (size_t)(w->m - w->mine) * (size_t)w->n;
}

/* The most bytes any process of the column needs: every process decides from the same
 * figure whether the wave fits and whether its buffers are agreed on. */
static size_t need_of(const wave *w)
{
  int64_t fewest = w->m;
  for (int q = 0; q < w->p; q++) {
    int64_t rows = hpd_axis_count(&w->rows, w->m, q);
    fewest = rows < fewest ? rows : fewest;
  }
  return (size_t)(w->m - fewest) * (size_t)w->n * sizeof(hpd_elem) +
         (size_t)w->count * (size_t)w->slabs * (PIECES * (size_t)w->p * sizeof(MPI_Request) + sizeof(pending));
}

/* Buffers, agreed on over the column where a process could run short: HPD_OK, or
 * HPD_STATUS_NO_MEMORY. */
static hpd_status make_buffers(wave *w, size_t need, double budget)
{
  size_t items = (size_t)w->count * (size_t)w->slabs;
  size_t own = (size_t)hpd_axis_count(&w->rows, w->m, w->me) > 0 ? items : 0;
  w->staged = staged_count(w) ? hpd_l3_kept(staged_count(w), budget) : NULL;
  w->blocks = malloc((size_t)w->count * sizeof *w->blocks);
  w->first = malloc(2 * (size_t)w->slabs * sizeof *w->first);
  w->next = w->first ? w->first + w->slabs : NULL;
  w->owed = malloc(items * sizeof *w->owed);
  w->recv = malloc((items * PIECES + (size_t)w->slabs) * sizeof *w->recv);
  w->sent = malloc((own * PIECES * (size_t)(w->p - 1) + 1) * sizeof *w->sent);
  int ok = (w->staged || !staged_count(w)) && w->blocks && w->first && w->owed && w->recv &&
           w->sent;
  if (!hpd_l3_kept_agreed(w->comm, need, ok, "pdtrsm's wavefront"))
    return HPD_STATUS_NO_MEMORY;
  list_blocks(w);
  return HPD_OK;
}

static void free_buffers(wave *w)
{
  free(w->blocks);
  free(w->first);
  free(w->owed);
  free(w->recv);
  free(w->sent);
}

hpd_status hpd_l3_trsm_wave(hpd_l3_run *run)
{
  wave w;
  if (describe(run, &w) != HPD_OK)
    return HPD_STATUS_DECLINED;
  size_t need = need_of(&w);
  if ((double)need > hpd_grid_budget(run->grid))
    return HPD_STATUS_NO_MEMORY;
  hpd_status made = make_buffers(&w, need, hpd_grid_budget(run->grid));
  if (made == HPD_OK)
    hpd_l3_overlapped(run, (uint64_t)need, solve, &w);
  free_buffers(&w);
  return made;
}
