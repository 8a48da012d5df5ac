/*
 * LU on one process column (P x 1), turned: sub(A) is dealt again over the same
 * processes by blocks of columns, factored there as on a 1 x P grid (lu.c), and dealt
 * back.  On P x 1 a panel's rows are spread: PDGETF2 searches each column's pivot over
 * the column's processes and PDLASWP exchanges rows between them, a few messages per
 * column, and over a link their latency outweighs the factorization's work.  Turned,
 * every row is on every process: a panel travels once with its pivots.  The turn costs
 * two exchanges of (P-1)/P of the matrix, both directions of every link at once.
 */
#include "factor/lu.h"

#include <stdint.h>
#include <string.h>

#include "core/messages.h"

#define TAG 0x5B00 /* no other message of hpdaemon's is in flight during a call */

typedef struct turn {
  int m, n, nb, p, me;
  hpd_axis rows; /* sub(A)'s rows as dealt over the column */
  hpd_axis cols; /* sub(A)'s columns as the turned matrix deals them */
  hpd_elem *a;   /* sub(A)'s first local entry */
  int lda;
  hpd_elem *turned;   /* the turned share: every row, this process's columns; ld m */
  hpd_elem *out, *in; /* exchange buffers */
  size_t *in_at;      /* p + 1: process q's part of in */
  MPI_Comm comm;
  MPI_Request *req;
  int requests;         /* posted, in req */
  int row_blocks, sent; /* sub(A)'s blocks of rows; those sent back so far */
} turn;

/* Process q's rows of sub(A) before row g, and its turned columns. */
static int64_t rows_of(const turn *t, int q, int64_t g)
{
  return hpd_axis_count(&t->rows, g, q);
}

static int64_t cols_of(const turn *t, int q)
{
  return hpd_axis_count(&t->cols, t->n, q);
}

/*
 * Copies the entries of sub(A) in rows [g0, g1) that process r holds and columns that
 * process c holds in the turned share, one way: from sub(A)'s share to the turned one
 * (forward) or back.  Where r or c is another process, packed holds them, r's rows x c's
 * columns with leading dimension r's row count, as sent or received.
 */
static void copy_block(const turn *t, int r, int c, int64_t g0, int64_t g1, hpd_elem *packed,
                       int forward)
{
  int64_t l0 = rows_of(t, r, g0), mr = rows_of(t, r, g1) - l0;
  hpd_axis_runs col_runs = {&t->cols, c, 0, cols_of(t, c)};
  int64_t lc, gc, clen;
  while (hpd_axis_next_run(&col_runs, &lc, &gc, &clen)) {
    for (int64_t j = 0; j < clen; j++) {
      hpd_elem *own = r == t->me ? t->a + (gc + j) * (int64_t)t->lda : NULL;
      hpd_elem *turned = c == t->me ? t->turned + (lc + j) * (int64_t)t->m : NULL;
      hpd_elem *pack = packed ? packed + (lc + j) * mr - l0 : NULL; /* by local row */
      if (own && !turned) {
        memcpy(forward ? pack + l0 : own + l0, forward ? own + l0 : pack + l0,
               (size_t)mr * sizeof(hpd_elem));
        continue;
      }
      hpd_elem *from_rows = own ? own : pack; /* indexed by r's local row */
      hpd_axis_runs row_runs = {&t->rows, r, l0, l0 + mr};
      int64_t lr, gr, rlen;
      while (hpd_axis_next_run(&row_runs, &lr, &gr, &rlen))
        memcpy(forward ? turned + gr : from_rows + lr,
               forward ? from_rows + lr : turned + gr, (size_t)rlen * sizeof(hpd_elem));
    }
  }
}

static void post(turn *t, hpd_elem *buf, size_t count, int q, int send)
{
  hpd_post_elements(buf, count, q, send, TAG, t->comm, t->req, &t->requests);
}

static void wait_all(turn *t)
{
  for (int i = 0; i < t->requests; i++)
    MPI_Wait(&t->req[i], MPI_STATUS_IGNORE);
  t->requests = 0;
}

/* Deals sub(A) into the turned share: every pair of processes exchanges its blocks at
 * once, and this process's own block is copied meanwhile. */
static void deal(turn *t)
{
  size_t mine = (size_t)rows_of(t, t->me, t->m);
  size_t in = 0;
  for (int q = 0; q < t->p; q++) {
    t->in_at[q] = in;
    in += q == t->me ? 0 : (size_t)rows_of(t, q, t->m) * (size_t)cols_of(t, t->me);
    if (q != t->me)
      post(t, t->in + t->in_at[q], in - t->in_at[q], q, 0);
  }
  size_t out = 0;
  for (int i = 1; i < t->p; i++) {
    int q = (t->me + i) % t->p;
    size_t count = mine * (size_t)cols_of(t, q);
    copy_block(t, t->me, q, 0, t->m, t->out + out, 1);
    post(t, t->out + out, count, q, 1);
    out += count;
  }
  copy_block(t, t->me, t->me, 0, t->m, NULL, 1);
  wait_all(t);
  for (int q = 0; q < t->p; q++)
    if (q != t->me)
      copy_block(t, q, t->me, 0, t->m, t->in + t->in_at[q], 1);
}

/* Block of rows b of sub(A): its rows and its owner in sub(A)'s dealing. */
static int64_t block_start(const turn *t, int b)
{
  int64_t g = (int64_t)b * t->nb;
  return g < t->m ? g : t->m;
}

static int block_owner(const turn *t, int b)
{
  return hpd_axis_owner(&t->rows, block_start(t, b));
}

/* Going back, each block of rows travels from every process to its owner on its own,
 * in order; the receives for this process's blocks are posted at once. */
static void receive_back(turn *t)
{
  size_t in = 0;
  for (int q = 0; q < t->p; q++) {
    t->in_at[q] = in;
    if (q == t->me)
      continue;
    size_t cols = (size_t)cols_of(t, q);
    for (int b = 0; b < t->row_blocks; b++)
      if (block_owner(t, b) == t->me) {
        size_t count = (size_t)(block_start(t, b + 1) - block_start(t, b)) * cols;
        post(t, t->in + in, count, q, 0);
        in += count;
      }
  }
}

/* Sends this process's turned columns of blocks of rows [sent, upto) to their owners. */
static void send_back(turn *t, int upto)
{
  size_t cols = (size_t)cols_of(t, t->me);
  for (; t->sent < upto; t->sent++) {
    int b = t->sent, owner = block_owner(t, b);
    if (owner == t->me)
      continue;
    int64_t g0 = block_start(t, b), g1 = block_start(t, b + 1);
    hpd_elem *part = t->out + (size_t)g0 * cols;
    copy_block(t, owner, t->me, g0, g1, part, 0);
    post(t, part, (size_t)(g1 - g0) * cols, owner, 1);
  }
}

/*
 * lu.c's hook at step p, once panel p+1's broadcast has left its owner: blocks of rows
 * before p are final (later panels interchange only rows from theirs on), and block
 * p+1-P is owned by that panel's owner, so it travels against the broadcast, on the
 * direction of the link the factorization leaves idle.
 */
static void at_step(void *arg, int p)
{
  turn *t = arg;
  int b = p + 1 - t->p;
  if (b >= 0)
    send_back(t, b + 1);
}

/* The rest of the blocks of rows, once the factorization is done; then every block
 * received goes where it belongs. */
static void finish_back(turn *t)
{
  send_back(t, t->row_blocks);
  copy_block(t, t->me, t->me, 0, t->m, NULL, 0);
  wait_all(t);
  for (int q = 0; q < t->p; q++) {
    if (q == t->me)
      continue;
    size_t cols = (size_t)cols_of(t, q), at = t->in_at[q];
    for (int b = 0; b < t->row_blocks; b++)
      if (block_owner(t, b) == t->me) {
        int64_t g0 = block_start(t, b), g1 = block_start(t, b + 1);
        copy_block(t, t->me, q, g0, g1, t->in + at, 0);
        at += (size_t)(g1 - g0) * cols;
      }
  }
}

/* The counts a call's buffers are cut from, the same on every process. */
typedef struct sizes {
  size_t turned, exchange, lu, requests; /* turned, exchange, lu: elements */
} sizes;

static hpd_axis rows_axis(const hpd_lu *f)
{
  return hpd_matrix_rows(&f->sub, f->call->nprow);
}

/* The turned columns: block b on the owner of sub(A)'s block of rows b, so that the
 * diagonal blocks stay where they are. */
static hpd_axis cols_axis(const hpd_lu *f)
{
  hpd_axis rows = rows_axis(f);
  int nb = f->sub.desc[HPD_NB];
  return (hpd_axis){nb, nb, rows.src, rows.nprocs};
}

static hpd_lu turned_problem(const hpd_lu *f, hpd_call *call)
{
  hpd_axis cols = cols_axis(f);
  *call = (hpd_call){.nprow = 1, .npcol = cols.nprocs, .mycol = f->call->myrow};
  hpd_lu t = {.m = f->m, .n = f->n, .sub = f->sub, .call = call, .bcast = f->bcast};
  int *d = t.sub.desc, nb = d[HPD_NB];
  d[HPD_M] = f->m, d[HPD_N] = f->n;
  d[HPD_IMB] = d[HPD_MB] = d[HPD_INB] = d[HPD_NB] = nb;
  d[HPD_RSRC] = 0, d[HPD_CSRC] = cols.src;
  d[HPD_LLD] = f->m > 1 ? f->m : 1;
  t.sub.i = t.sub.j = 0;
  return t;
}

static sizes sizes_of(const hpd_lu *f)
{
  hpd_axis rows = rows_axis(f), cols = cols_axis(f);
  size_t m = (size_t)f->m, n = (size_t)f->n, nb = (size_t)f->sub.desc[HPD_NB];
  size_t most_rows = (size_t)hpd_axis_max_count(&rows, f->m);
  size_t most_cols = (size_t)hpd_axis_max_count(&cols, f->n);
  hpd_call call;
  hpd_lu t = turned_problem(f, &call);
  size_t largest = most_rows * n > m * most_cols ? most_rows * n : m * most_cols;
  sizes z = {.turned = m * most_cols,
             .exchange = 2 * largest,
             .lu = (hpd_lu_bytes(&t) + sizeof(hpd_elem) - 1) / sizeof(hpd_elem)};
  size_t p = (size_t)rows.nprocs, blocks = (m + nb - 1) / nb;
  z.requests = 2 * (p - 1) * hpd_messages_for(largest) + blocks * p * hpd_messages_for(nb * n);
  return z;
}

uint64_t hpd_lu_turned_bytes(const hpd_lu *f)
{
  sizes z = sizes_of(f);
  int p = rows_axis(f).nprocs;
  return (z.turned + z.exchange + z.lu) * sizeof(hpd_elem) +
         ((size_t)f->m + 1) / 2 * (2 * sizeof(int)) + ((size_t)p + 1) * sizeof(size_t) +
         z.requests * sizeof(MPI_Request);
}

int hpd_lu_turned_factor(const hpd_lu *f, int nodes, hpd_elem *space)
{
  sizes z = sizes_of(f);
  const hpd_call *call = f->call;
  turn t = {.m = f->m,
            .n = f->n,
            .nb = f->sub.desc[HPD_NB],
            .rows = rows_axis(f),
            .cols = cols_axis(f),
            .me = call->myrow,
            .lda = f->sub.desc[HPD_LLD],
            .comm = f->line};
  t.p = t.rows.nprocs;
  t.row_blocks = (t.m + t.nb - 1) / t.nb;
  t.a = f->a + hpd_matrix_row0(&f->sub, call->nprow, call->myrow) +
        (int64_t)f->sub.j * t.lda; /* one process column: every column is here */
  hpd_elem *at = space;
  t.turned = at, at += z.turned;
  t.out = at, at += z.exchange / 2;
  t.in = at, at += z.exchange / 2;
  hpd_elem *lu_space = at;
  at += z.lu;
  int *pivots = (int *)at;
  t.in_at = (size_t *)(pivots + t.m + (t.m & 1));
  t.req = (MPI_Request *)(t.in_at + t.p + 1);

  deal(&t);
  receive_back(&t);
  hpd_call turned_call;
  hpd_lu turned = turned_problem(f, &turned_call);
  turned.a = t.turned;
  turned.ipiv = pivots;
  turned.line = f->line;
  turned.booked = hpd_lu_turned_bytes(f);
  /* Within a node the blocks going back would be copied by the cores that factor: they
   * go back at the end. */
  if (nodes > 1) {
    turned.at_step = at_step;
    turned.hook_arg = &t;
  }
  int info = hpd_lu_factor(&turned, lu_space);
  finish_back(&t);

  /* PDGETRF's IPIV: tied to A's rows, global rows of A.  PDGETF2 writes each panel's
   * pivots on every process of the column, from the local index of the first row it
   * holds at or after the panel's first: its own rows hold their pivots at the end, and
   * the entries past them the last panel's that it does not hold. */
  int mn = t.m < t.n ? t.m : t.n;
  int64_t row0 = hpd_matrix_row0(&f->sub, call->nprow, call->myrow);
  for (int g0 = 0; g0 < mn; g0 += t.nb) {
    int64_t first = row0 + hpd_axis_count(&t.rows, g0, t.me);
    for (int i = g0; i < mn && i < g0 + t.nb; i++)
      f->ipiv[first + i - g0] = pivots[i] + f->sub.i;
  }
  return info;
}
