/*
 * pdtrmm and pdsymm from the left on a P x 1 grid, with sub(B) spread along the column
 * instead of turned: sub(B)'s rows and sub(A)'s rows are dealt alike, each process holds
 * whole rows of sub(A)'s stored triangle, and a row of A * B needs that row of A and all
 * of B.  So each process sends its rows of sub(B) to the others, M N (P-1)/P entries
 * received per process, as PBLAS's own algorithm moves, where the turned form (line.c)
 * moves as many twice, in and out of the turn, and the block of sub(A) besides.  Each
 * process then adds, block of rows of B by block, as they arrive (its own first), the
 * block's product with the columns of its rows of A that meet it, into its rows of the
 * product; the triangle's structure makes that one multiply per block over the rows of
 * A that the block's columns reach, and one triangular (symmetric) multiply for the
 * diagonal block.
 *
 * pdsymm's other triangle, A(i, j) = A(j, i) held in row j, is applied where it lies: the
 * holder of rows j multiplies their transpose by its own rows of B, alpha A(j, i)' B(j, :)
 * for every row i on the other side of j, and sends each other process the sums for its
 * rows (M N (P-1)/P entries received per process again), which it computes first, from
 * its own data alone, while sub(B)'s rows travel.
 */
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "core/messages.h"
#include "kernel/kernel.h"
#include "level3/blocked.h"
#include "level3/kept.h"
#include "level3/stream.h"
#include "local/direct.h"
#include "local/scale.h"
#include "pblas/poll.h"
#include "pblas/scalapack_api.h"

typedef struct spread {
  int m, n, p, me, upper, unit, symm;
  hpd_elem alpha, beta;
  const hpd_elem *a; /* this process's rows of sub(A), all its columns */
  int lda;
  hpd_elem *b; /* this process's rows of sub(B) */
  int ldb;
  hpd_axis rows; /* sub(A)'s and sub(B)'s rows down the column */
  MPI_Comm comm;
  size_t *part;     /* where each process's rows start in staged, p + 1 entries */
  hpd_elem *staged; /* every process's rows of sub(B), in groups (next_group) */
  hpd_elem *sums;   /* this process's rows of the product: a buffer (pdtrmm) or sub(C) */
  int lds;
  hpd_elem *diag;   /* pdtrmm: a diagonal block's product, nb x n at most */
  hpd_elem *packed; /* A's columns for a group: its rows x (group rows + nb) at most */
  int64_t mine;     /* this process's rows */
  hpd_l3_stream stream; /* every process's rows of sub(B) to every other */
  /* pdsymm: the other triangle's sums for each process's rows, to and from the others */
  hpd_elem *out, *in;
  MPI_Request *req;
  int requests;
} spread;

/* A group's rows, the depth of its multiplies: deep enough that they run near the
 * BLAS's peak instead of reading and writing the sums once per block, few enough that
 * the first group arrives soon. */
#define GROUP_ROWS 256

/* pdsymm's other triangle makes its sums in deeper groups of their rows: they come from
 * this process's own data, with no first arrival to wait for, and each strip of B that a
 * transposed multiply packs serves all the group's rows, so a deeper group pays for that
 * packing over more of them (timing/notes/2026-11-29.md, session 44). */
#define SUMS_GROUP_ROWS 512
#define MOST_GROUP_ROWS SUMS_GROUP_ROWS

#define TAG 0x5800 /* no other message of hpdaemon's is in flight during a call */
#define SUMS_TAG 0x5801

/* Process q's rows of sub(A), sub(B) and sub(C). */
static int64_t rows_of(const spread *s, int q)
{
  return hpd_axis_count(&s->rows, s->m, q);
}

/* A group of process q's blocks of rows, consecutive in its storage: in staged its rows
 * are one (rows x n) matrix, groups one after another. */
typedef struct group {
  int q, count;
  int64_t g[MOST_GROUP_ROWS], len[MOST_GROUP_ROWS]; /* each block's first row and rows */
  int64_t l0, rows;                       /* q's first local row, and the group's rows */
} group;

/* The next group of process q's rows from its local row *l on, of fewer than most rows
 * but for its last block: 0 when none is left. */
static int next_group(const spread *s, int q, int64_t *l, int most, group *grp)
{
  hpd_axis_runs r = {.axis = &s->rows, .p = q, .l = *l, .end = rows_of(s, q)};
  *grp = (group){.q = q, .l0 = *l};
  for (int64_t lr, g, len; grp->rows < most && hpd_axis_next_run(&r, &lr, &g, &len);) {
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
  hpd_elem *to = s->staged + s->part[s->me];
  group grp;
  for (int64_t l = 0; next_group(s, s->me, &l, GROUP_ROWS, &grp); to += grp.rows * s->n)
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
static void update(spread *s, int64_t r0, int64_t r1, const hpd_elem *acol, int lda,
                   int k, const hpd_elem *bg, int ldg)
{
  int rows = (int)(r1 - r0);
  if (rows <= 0 || k <= 0)
    return;
  /* In strips of columns, the messages polled between them: the transport moves them
   * only inside MPI calls, and a link left alone for a whole group's multiply runs dry. */
  int64_t strip = hpd_poll_strip(HPD_POLL_FLOPS, 2.0 * rows * k, s->n);
  for (int64_t j = 0; j < s->n; j += strip) {
    int w = (int)(s->n - j < strip ? s->n - j : strip);
    hpd_kernel_gemm('N', 'N', rows, w, k, s->alpha, acol, lda, bg + j * ldg, ldg, 1.0,
                    s->sums + r0 + j * s->lds, s->lds);
    hpd_l3_stream_poll(&s->stream);
  }
}

/* Adds the group's rows of B (bg, leading dimension grp->rows) times the columns of this
 * process's rows of A that meet them: the rows every block reaches in one multiply (A's
 * columns for the group copied side by side into packed), then each block's step of the
 * staircase, and its diagonal block where the rows are this process's own. */
static void add_group(spread *s, const group *grp, const hpd_elem *bg, hpd_elem *packed)
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
    char uplo = s->upper ? 'U' : 'L', diag = s->unit ? 'U' : 'N';
    if (s->symm) {
      hpd_kernel_symm('L', uplo, k, n, s->alpha, s->a + own + g * s->lda, s->lda, bg + at, ldg,
                      1.0, s->sums + own, s->lds);
      continue;
    }
    for (int64_t j = 0; j < n; j++)
      memcpy(s->diag + j * len, bg + at + j * ldg, (size_t)len * sizeof *s->diag);
    hpd_kernel_trmm('L', uplo, 'N', diag, k, n, s->alpha, s->a + own + g * s->lda, s->lda,
                    s->diag, k);
    for (int64_t j = 0; j < n; j++)
      for (int64_t i = 0; i < len; i++)
        s->sums[own + i + j * s->lds] += s->diag[i + j * len];
  }
}

/* Every group of process q's rows, waiting for each to arrive (this process's own
 * are here already). */
static void add_part(spread *s, int q, hpd_elem *packed)
{
  const hpd_elem *bg = s->staged + s->part[q];
  group grp;
  for (int64_t l = 0; next_group(s, q, &l, GROUP_ROWS, &grp); bg += grp.rows * s->n) {
    size_t through = (size_t)(bg + grp.rows * s->n - (s->staged + s->part[q]));
    if (q != s->me)
      hpd_l3_stream_wait_for(&s->stream, q, through);
    add_group(s, &grp, bg, packed);
  }
}

/*
 * alpha A(j, i)' B(j, :) summed over this process's rows j in [j0, j1), for the k = cols
 * rows i whose columns of A lie side by side at acol (leading dimension lda), into `to`
 * (leading dimension ldt): added where beta is 1, in place of what it holds where beta
 * is 0.
 */
static void transposed(spread *s, int64_t j0, int64_t j1, const hpd_elem *acol, int lda,
                       int cols, hpd_elem *to, int ldt, hpd_elem beta)
{
  int k = (int)(j1 - j0);
  if (k <= 0) {
    for (int64_t j = 0; beta == 0.0 && j < s->n; j++)
      memset(to + j * ldt, 0, (size_t)cols * sizeof *to);
    return;
  }
  int64_t strip = hpd_poll_strip(HPD_POLL_FLOPS, 2.0 * cols * k, s->n);
  for (int64_t j = 0; j < s->n; j += strip) {
    int w = (int)(s->n - j < strip ? s->n - j : strip);
    hpd_kernel_gemm('T', 'N', cols, w, k, s->alpha, acol, lda, s->b + j0 + j * s->ldb, s->ldb,
                    beta, to + j * ldt, ldt);
    hpd_l3_stream_poll(&s->stream);
  }
}

/*
 * pdsymm's other triangle for a group of process r's rows i, into `to` (their sums,
 * leading dimension ldt, from the group's first row; over what it holds where beta is
 * 1): alpha A(j, i)' B(j, :) over this process's rows j beyond each block of the group
 * on the stored side (below it for 'L', above for 'U'; never the block itself, whose
 * rows are r's).  The rows j beyond the whole group meet every block: one multiply with
 * the group's columns of A side by side in packed, as add_group does; then each block's
 * step of the staircase.
 */
static void other_triangle(spread *s, const group *grp, hpd_elem *to, int ldt, hpd_elem beta)
{
  int last = grp->count - 1;
  int64_t first_g = grp->g[0], end_g = grp->g[last] + grp->len[last];
  int64_t j0 = s->upper ? 0 : mine_before(s, end_g);
  int64_t j1 = s->upper ? mine_before(s, first_g) : s->mine;
  if (j1 > j0) {
    int64_t at = 0;
    for (int b = 0; b < grp->count; at += grp->len[b++])
      for (int64_t c = 0; c < grp->len[b]; c++)
        memcpy(s->packed + (at + c) * (j1 - j0), s->a + j0 + (grp->g[b] + c) * s->lda,
               (size_t)(j1 - j0) * sizeof *s->packed);
  }
  transposed(s, j0, j1, s->packed, (int)(j1 > j0 ? j1 - j0 : 1), (int)grp->rows, to, ldt,
             beta);
  int64_t at = 0;
  for (int b = 0; b < grp->count; at += grp->len[b++]) {
    int64_t g = grp->g[b], len = grp->len[b];
    int64_t r0 = s->upper ? j1 : mine_before(s, g + len), r1 = s->upper ? mine_before(s, g) : j0;
    if (r1 > r0)
      transposed(s, r0, r1, s->a + r0 + g * s->lda, s->lda, (int)len, to + at, ldt, 1.0);
  }
}

/* Where process r's part of out starts: the other processes' rows before r's, x n. */
static hpd_elem *out_part(const spread *s, int r)
{
  int64_t before = 0;
  for (int q = 0; q < r; q++)
    before += q == s->me ? 0 : rows_of(s, q);
  return s->out + before * s->n;
}

/* Where the sums from process r land in in: this process's rows x n per other process. */
static hpd_elem *in_part(const spread *s, int r)
{
  int i = r < s->me ? r : r - 1;
  return s->in + (size_t)i * (size_t)s->mine * (size_t)s->n;
}

static void post(spread *s, hpd_elem *buf, size_t count, int q, int send)
{
  hpd_post_elements(buf, count, q, send, SUMS_TAG, s->comm, s->req, &s->requests);
}

/* The other triangle's sums for every other process's rows, each sent when made, and
 * then for this process's own rows, into sub(C). */
static void other_triangles(spread *s)
{
  for (int i = 1; i < s->p; i++) {
    int r = (s->me + i) % s->p;
    hpd_elem *to = out_part(s, r);
    int ldt = (int)(rows_of(s, r) > 0 ? rows_of(s, r) : 1);
    group grp;
    for (int64_t l = 0; next_group(s, r, &l, SUMS_GROUP_ROWS, &grp);)
      other_triangle(s, &grp, to + grp.l0, ldt, 0.0);
    post(s, to, (size_t)rows_of(s, r) * (size_t)s->n, r, 1);
  }
  group grp;
  for (int64_t l = 0; next_group(s, s->me, &l, SUMS_GROUP_ROWS, &grp);)
    other_triangle(s, &grp, s->sums + grp.l0, s->lds, 1.0);
}

/* The sums the other processes made for this process's rows, added into sub(C) as each
 * process's arrive (their receives were posted first, in this order); then every send
 * is complete. */
static void add_other_triangles(spread *s)
{
  size_t count = (size_t)s->mine * (size_t)s->n;
  int per = (int)hpd_messages_for(count);
  for (int i = 1; i < s->p; i++) {
    for (int k = 0; k < per; k++)
      MPI_Wait(&s->req[(i - 1) * per + k], MPI_STATUS_IGNORE);
    const hpd_elem *from = in_part(s, (s->me + i) % s->p);
    for (int64_t j = 0; j < s->n; j++)
      for (int64_t l = 0; l < s->mine; l++)
        s->sums[l + j * s->lds] += from[l + j * s->mine];
  }
  for (int k = (s->p - 1) * per; k < s->requests; k++)
    MPI_Wait(&s->req[k], MPI_STATUS_IGNORE);
}

/* The call as this way sees it, where it can be taken: HPD_OK, or HPD_STATUS_DECLINED. */
static hpd_status describe(const hpd_l3_run *run, spread *s)
{
  const hpd_l3 *l3 = run->l3;
  const hpd_call *call = &l3->call;
  int symm = l3->routine == HPD_ROUTINE_PDSYMM;
  hpd_axis br;
  if ((!symm && l3->routine != HPD_ROUTINE_PDTRMM) || !hpd_l3_rows_stay(run, &br))
    return HPD_STATUS_DECLINED;
  const hpd_matrix *b = symm ? &call->B : &call->C;
  hpd_axis b_rows = hpd_matrix_rows(b, call->nprow);
  if (!hpd_axis_same(&b_rows, &br, call->m))
    return HPD_STATUS_DECLINED;
  *s = (spread){.m = call->m, .n = call->n, .p = call->nprow, .me = call->myrow,
                .upper = call->uplo == 'U', .unit = l3->diag == 'U', .symm = symm,
                .alpha = call->alpha, .beta = symm ? call->beta : 0.0,
                .a = hpd_direct_origin(call, &call->A, call->a), .lda = call->A.desc[HPD_LLD],
                .b = hpd_direct_origin(call, b, symm ? call->b : call->c),
                .ldb = b->desc[HPD_LLD], .rows = br, .comm = run->grid->col,
                .mine = hpd_axis_count(&br, call->m, call->myrow)};
  if (symm) {
    s->sums = hpd_direct_origin(call, &call->C, call->c);
    s->lds = call->C.desc[HPD_LLD];
  }
  return HPD_OK;
}

/* The most rows one block of the column holds. */
static size_t widest_block(const spread *s)
{
  return (size_t)(s->rows.first > s->rows.nb ? s->rows.first : s->rows.nb);
}

/* The elements of each buffer on process q. */
typedef struct sizes {
  size_t staged, sums, diag, packed, out, in;
} sizes;

static sizes sizes_on(const spread *s, int q)
{
  size_t rows = (size_t)rows_of(s, q), n = (size_t)s->n;
  size_t widest = widest_block(s), mine = rows > 0 ? rows : 1;
  size_t deepest = s->symm ? SUMS_GROUP_ROWS : GROUP_ROWS;
  sizes z = {.staged = (size_t)s->m * n, .packed = mine * (deepest + widest)};
  if (s->symm) {
    z.out = ((size_t)s->m - rows) * n;
    z.in = (size_t)(s->p - 1) * rows * n;
  } else {
    z.sums = mine * n;
    z.diag = widest * n;
  }
  return z;
}

static size_t total(sizes z)
{
  return z.staged + z.sums + z.diag + z.packed + z.out + z.in;
}

/* The most bytes any process needs, from descriptor data alone. */
static size_t need_of(const spread *s)
{
  size_t most = 0;
  for (int q = 0; q < s->p; q++) {
    size_t need = total(sizes_on(s, q));
    most = need > most ? need : most;
  }
  return most * sizeof(hpd_elem);
}

/* Buffers, in the kept space (kept.h), agreed on over the column where a process could
 * run short: HPD_OK, or HPD_STATUS_NO_MEMORY. */
static hpd_status make_buffers(spread *s, size_t need, double budget)
{
  sizes z = sizes_on(s, s->me);
  size_t n = (size_t)s->n;
  hpd_elem *space = hpd_l3_kept(total(z), budget);
  s->part = malloc(((size_t)s->p + 1) * sizeof *s->part);
  size_t messages = (size_t)s->p * (2 + hpd_messages_for((size_t)s->m * n));
  s->req = s->symm ? malloc(messages * sizeof *s->req) : NULL;
  int ok = space && s->part && (!s->symm || s->req);
  if (s->part) {
    s->part[0] = 0;
    for (int q = 0; q < s->p; q++)
      s->part[q + 1] = s->part[q] + (size_t)rows_of(s, q) * n;
  }
  ok = ok && hpd_l3_stream_make(&s->stream, s->part, s->p, s->me) == HPD_OK;
  if (!hpd_l3_kept_agreed(s->comm, need, ok, s->symm ? "pdsymm's spread sub(B)"
                                                      : "pdtrmm's spread sub(B)"))
    return HPD_STATUS_NO_MEMORY;
  s->staged = space;
  s->packed = s->staged + z.staged;
  s->out = s->packed + z.packed;
  s->in = s->out + z.out;
  if (!s->symm) {
    s->sums = s->in + z.in;
    s->lds = (int)(s->mine > 0 ? s->mine : 1);
    s->diag = s->sums + z.sums;
    memset(s->sums, 0, z.sums * sizeof *s->sums);
  }
  return HPD_OK;
}

/* Spreads sub(B), adds the blocks as they come, writes the product over sub(B) (pdtrmm)
 * or adds it into sub(C), with the other triangle's sums (pdsymm). */
static void serve(void *arg)
{
  spread *s = arg;
  stage_mine(s);
  hpd_l3_stream_fit_link(&s->stream, s->comm);
  hpd_l3_stream_start(&s->stream, s->staged, s->comm, TAG);
  if (s->symm) {
    hpd_local_scale(s->sums, s->lds, s->mine, s->n, s->beta); /* C may hold NaN at beta 0 */
    for (int i = 1; i < s->p; i++) {
      int r = (s->me + i) % s->p;
      post(s, in_part(s, r), (size_t)s->mine * (size_t)s->n, r, 0);
    }
    other_triangles(s);
  }
  add_part(s, s->me, s->packed);
  for (int i = 1; i < s->p; i++)
    add_part(s, (s->me + i) % s->p, s->packed);
  hpd_l3_stream_finish(&s->stream);
  if (s->symm) {
    add_other_triangles(s);
    return;
  }
  for (int64_t j = 0; j < s->n; j++)
    memcpy(s->b + j * (int64_t)s->ldb, s->sums + j * s->mine, (size_t)s->mine * sizeof *s->b);
}

hpd_status hpd_l3_spread(hpd_l3_run *run)
{
  spread s;
  if (describe(run, &s) != HPD_OK)
    return HPD_STATUS_DECLINED;
  size_t need = need_of(&s);
  if ((double)need > hpd_grid_budget(run->grid))
    return HPD_STATUS_NO_MEMORY;
  hpd_status made = make_buffers(&s, need, hpd_grid_budget(run->grid));
  if (made == HPD_OK)
    hpd_l3_overlapped(run, (uint64_t)need, serve, &s);
  hpd_l3_stream_free(&s.stream);
  free(s.part);
  free(s.req);
  return made;
}
