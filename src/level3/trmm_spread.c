/*
 * pdtrmm from the left with TRANSA 'N' on a P x 1 grid, with sub(B) spread along the
 * column instead of turned: sub(B)'s rows and sub(A)'s rows are dealt alike, each process
 * holds whole rows of sub(A), and a row of A * B needs only that row of A and all of B.
 * So each process sends its rows of sub(B) to the others, M N (P-1)/P entries received per
 * process, as PBLAS's own algorithm moves, where the turned form (line.c) moves as many
 * twice, in and out of the turn, and the block of sub(A) besides.  Each process then adds,
 * block of rows of B by block, as they arrive (its own first), the block's product with
 * the columns of its rows of A that meet it, into a copy of its rows of sub(B); the
 * triangle's structure makes that one multiply per block over the rows of A that the
 * block's columns reach, and one triangular multiply for the diagonal block.
 */
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "level3/blocked.h"
#include "level3/kept.h"
#include "level3/stream.h"
#include "pblas/poll.h"
#include "pblas/scalapack_api.h"
#include "pdgemm/direct.h"

typedef struct spread {
  int m, n, p, me, upper, unit;
  double alpha;
  const double *a; /* this process's rows of sub(A), all its columns */
  int lda;
  double *b; /* this process's rows of sub(B) */
  int ldb;
  hpd_axis rows; /* sub(A)'s and sub(B)'s rows down the column */
  MPI_Comm comm;
  size_t *part;   /* where each process's rows start in staged, p + 1 entries */
  double *staged; /* every process's rows of sub(B), in groups (next_group) */
  double *sums;   /* this process's rows of the product, ld = its rows */
  double *diag;   /* a diagonal block's product, nb x n at most */
  double *packed; /* A's columns for a group: its rows x (GROUP_ROWS + nb) at most */
  int64_t mine;   /* this process's rows */
  hpd_l3_stream stream; /* every process's rows of sub(B) to every other */
} spread;

/* A group's rows, the depth of its multiplies: deep enough that they run near the
 * BLAS's peak instead of reading and writing the sums once per block, few enough that
 * the first group arrives soon. */
#define GROUP_ROWS 256

#define TAG 0x5800 /* no other message of hpdaemon's is in flight during a call */

/* A group of process q's blocks of rows, consecutive in its storage: in staged its rows
 * are one (rows x n) matrix, groups one after another. */
typedef struct group {
  int q, count;
  int64_t g[GROUP_ROWS], len[GROUP_ROWS]; /* each block's first global row and rows */
  int64_t l0, rows;                       /* q's first local row, and the group's rows */
} group;

/* The next group of process q's rows from its local row *l on: 0 when none is left. */
static int next_group(const spread *s, int q, int64_t *l, group *grp)
{
  hpd_axis_runs r = {.axis = &s->rows, .p = q, .l = *l,
                     .end = hpd_axis_count(&s->rows, s->m, q)};
  *grp = (group){.q = q, .l0 = *l};
  for (int64_t lr, g, len; grp->rows < GROUP_ROWS && hpd_axis_next_run(&r, &lr, &g, &len);) {
    grp->g[grp->count] = g;
    grp->len[grp->count++] = len;
    grp->rows += len;
  }
  *l += grp->rows;
  return grp->count > 0;
}

/* This process's rows of sub(B) into its part of staged, group by group. */
static void stage_mine(const spread *s)
{
  double *to = s->staged + s->part[s->me];
  group grp;
  for (int64_t l = 0; next_group(s, s->me, &l, &grp); to += grp.rows * s->n)
    for (int64_t j = 0; j < s->n; j++)
      memcpy(to + j * grp.rows, s->b + grp.l0 + j * (int64_t)s->ldb,
             (size_t)grp.rows * sizeof *to);
}

/* This process's rows before global row g. */
static int64_t mine_before(const spread *s, int64_t g)
{
  return hpd_axis_count(&s->rows, g, s->me);
}

/* sums rows [r0, r1) += alpha * A(those rows, columns at acol, k of them, leading
 * dimension lda) * B rows (k x n at bg, leading dimension ldg). */
static void update(spread *s, int64_t r0, int64_t r1, const double *acol, int lda,
                   int k, const double *bg, int ldg)
{
  int rows = (int)(r1 - r0), lds = (int)s->mine;
  if (rows <= 0 || k <= 0)
    return;
  char no = 'N';
  double one = 1.0;
  /* In strips of columns, the messages polled between them: the transport moves them
   * only inside MPI calls, and a link left alone for a whole group's multiply runs dry. */
  int64_t strip = hpd_poll_strip(HPD_POLL_FLOPS, 2.0 * rows * k, s->n);
  for (int64_t j = 0; j < s->n; j += strip) {
    int w = (int)(s->n - j < strip ? s->n - j : strip);
    dgemm_(&no, &no, &rows, &w, &k, &s->alpha, acol, &lda, bg + j * ldg, &ldg, &one,
           s->sums + r0 + j * s->mine, &lds);
    hpd_l3_stream_poll(&s->stream);
  }
}

/* Adds the group's rows of B (bg, leading dimension grp->rows) times the columns of this
 * process's rows of A that meet them: the rows every block reaches in one multiply (A's
 * columns for the group copied side by side into packed), then each block's step of the
 * staircase, and its diagonal block where the rows are this process's own. */
static void add_group(spread *s, const group *grp, const double *bg, double *packed)
{
  int ldg = (int)grp->rows, last = grp->count - 1;
  int64_t first_g = grp->g[0], end_g = grp->g[last] + grp->len[last];
  /* Rows reached by every block: above the first (upper), below the last (lower). */
  int64_t c0 = s->upper ? 0 : mine_before(s, end_g), c1 = s->upper ? mine_before(s, first_g)
                                                                   : s->mine;
  if (c1 > c0) {
    int64_t at = 0;
    for (int b = 0; b < grp->count; at += grp->len[b++])
      for (int64_t c = 0; c < grp->len[b]; c++)
        memcpy(packed + (at + c) * (c1 - c0), s->a + c0 + (grp->g[b] + c) * s->lda,
               (size_t)(c1 - c0) * sizeof *packed);
    update(s, c0, c1, packed, (int)(c1 - c0), ldg, bg, ldg);
  }
  int64_t at = 0;
  for (int b = 0; b < grp->count; at += grp->len[b++]) {
    int64_t g = grp->g[b], len = grp->len[b];
    int64_t r0 = s->upper ? c1 : mine_before(s, g + len), r1 = s->upper ? mine_before(s, g) : c0;
    update(s, r0, r1, s->a + r0 + g * s->lda, s->lda, (int)len, bg + at, ldg);
    if (grp->q != s->me)
      continue;
    /* The diagonal block: this process's own rows [g, g + len). */
    int64_t own = mine_before(s, g);
    int k = (int)len, n = s->n;
    char side = 'L', uplo = s->upper ? 'U' : 'L', no = 'N', diag = s->unit ? 'U' : 'N';
    for (int64_t j = 0; j < n; j++)
      memcpy(s->diag + j * len, bg + at + j * ldg, (size_t)len * sizeof *s->diag);
    dtrmm_(&side, &uplo, &no, &diag, &k, &n, &s->alpha, s->a + own + g * s->lda, &s->lda,
           s->diag, &k);
    for (int64_t j = 0; j < n; j++)
      for (int64_t i = 0; i < len; i++)
        s->sums[own + i + j * s->mine] += s->diag[i + j * len];
  }
}

/* Every group of process q's rows, waiting for each to arrive (this process's own
 * are here already). */
static void add_part(spread *s, int q, double *packed)
{
  const double *bg = s->staged + s->part[q];
  group grp;
  for (int64_t l = 0; next_group(s, q, &l, &grp); bg += grp.rows * s->n) {
    size_t through = (size_t)(bg + grp.rows * s->n - (s->staged + s->part[q]));
    if (q != s->me)
      hpd_l3_stream_wait_for(&s->stream, q, through);
    add_group(s, &grp, bg, packed);
  }
}

/* The call as this way sees it, where it can be taken: 0, or -1. */
static int describe(const hpd_l3_run *run, spread *s)
{
  const hpd_l3 *l3 = run->l3;
  const hpd_call *call = &l3->call;
  hpd_axis br;
  if (l3->routine != HPD_ROUTINE_PDTRMM || !hpd_l3_rows_stay(run, &br))
    return -1;
  *s = (spread){.m = call->m, .n = call->n, .p = call->nprow, .me = call->myrow,
                .upper = call->uplo == 'U', .unit = l3->diag == 'U', .alpha = call->alpha,
                .a = hpd_direct_origin(call, &call->A, call->a), .lda = call->A.desc[HPD_LLD],
                .b = hpd_direct_origin(call, &call->C, call->c), .ldb = call->C.desc[HPD_LLD],
                .rows = br, .comm = run->grid->col,
                .mine = hpd_axis_count(&br, call->m, call->myrow)};
  return 0;
}

/* The most rows one block of the column holds. */
static size_t widest_block(const spread *s)
{
  return (size_t)(s->rows.first > s->rows.nb ? s->rows.first : s->rows.nb);
}

/* The most bytes any process needs, from descriptor data alone. */
static size_t need_of(const spread *s)
{
  size_t widest = widest_block(s);
  size_t most = (size_t)hpd_axis_max_count(&s->rows, s->m);
  return (((size_t)s->m + most + widest) * (size_t)s->n + most * (GROUP_ROWS + widest)) *
         sizeof(double);
}

/* Buffers, in the kept space (kept.h), agreed on over the column where a process could
 * run short: 0, or -1. */
static int make_buffers(spread *s, size_t need, double budget)
{
  size_t widest = widest_block(s);
  size_t mine = (size_t)(s->mine > 0 ? s->mine : 1), n = (size_t)s->n;
  size_t staged = (size_t)s->m * n, sums = mine * n, diag = widest * n;
  double *space = hpd_l3_kept(staged + sums + diag + mine * (GROUP_ROWS + widest), budget);
  s->part = malloc(((size_t)s->p + 1) * sizeof *s->part);
  int ok = space && s->part;
  if (s->part) {
    s->part[0] = 0;
    for (int q = 0; q < s->p; q++)
      s->part[q + 1] = s->part[q] + (size_t)hpd_axis_count(&s->rows, s->m, q) * n;
  }
  ok = ok && hpd_l3_stream_make(&s->stream, s->part, s->p, s->me) == 0;
  if (!hpd_l3_kept_agreed(s->comm, need, ok, "pdtrmm's spread sub(B)"))
    return -1;
  s->staged = space;
  s->sums = space + staged;
  s->diag = s->sums + sums;
  s->packed = s->diag + diag;
  memset(s->sums, 0, sums * sizeof *s->sums);
  return 0;
}

/* Spreads sub(B), adds the blocks as they come, writes the product over sub(B). */
static void serve(void *arg)
{
  spread *s = arg;
  stage_mine(s);
  hpd_l3_stream_fit_link(&s->stream, s->comm);
  hpd_l3_stream_start(&s->stream, s->staged, s->comm, TAG);
  add_part(s, s->me, s->packed);
  for (int i = 1; i < s->p; i++)
    add_part(s, (s->me + i) % s->p, s->packed);
  hpd_l3_stream_finish(&s->stream);
  for (int64_t j = 0; j < s->n; j++)
    memcpy(s->b + j * (int64_t)s->ldb, s->sums + j * s->mine, (size_t)s->mine * sizeof *s->b);
}

int hpd_l3_trmm_spread(hpd_l3_run *run)
{
  spread s;
  if (describe(run, &s) != 0)
    return -1;
  size_t need = need_of(&s);
  if ((double)need > hpd_grid_budget(run->grid))
    return -1;
  int made = make_buffers(&s, need, hpd_grid_budget(run->grid));
  if (made == 0)
    hpd_l3_overlapped(run, (uint64_t)need, serve, &s);
  hpd_l3_stream_free(&s.stream);
  free(s.part);
  return made;
}
