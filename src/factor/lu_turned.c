/*
 * LU on one process column (P x 1), turned: sub(A) is dealt again over the same
 * processes by blocks of columns, factored there as on a 1 x P grid (lu.c), and dealt
 * back.  On P x 1 a panel's rows are spread: PDGETF2 searches each column's pivot over
 * the column's processes and PDLASWP exchanges rows between them, a few messages per
 * column, and over a link their latency outweighs the factorization's work.  Turned,
 * every row is on every process: a panel travels once with its pivots.  The turn costs
 * two exchanges of (P-1)/P of the matrix, both directions of every link at once.
 */
#include "lu.h"

#include <stdint.h>
#include <string.h>

/* Messages of at most this many doubles: MPI counts are ints. */
#define MOST_PER_MESSAGE ((size_t)1 << 26)

#define TAG 0x5B00 /* no other message of hpdaemon's is in flight during a call */

typedef struct turn {
  const hpd_lu *f;
  int m, n, nb, p, me;
  hpd_axis rows;    /* sub(A)'s rows as dealt over the column */
  hpd_axis cols;    /* sub(A)'s columns as the turned matrix deals them */
  double *a;        /* sub(A)'s first local entry */
  int lda;
  double *turned;   /* the turned share: every row, this process's columns; ld m */
  double *out, *in; /* exchange buffers */
  size_t *out_at, *in_at; /* p + 1: process q's part of each */
} turn;

/* Process q's rows (columns) of sub(A). */
static int64_t rows_of(const turn *t, int q)
{
  return hpd_axis_count(&t->rows, t->m, q);
}

static int64_t cols_of(const turn *t, int q)
{
  return hpd_axis_count(&t->cols, t->n, q);
}

/* Process q's part sent, this process's rows x q's columns, and received, q's rows x
 * this process's columns (or the reverse, going back). */
static void lay_out(turn *t, int back)
{
  t->out_at[0] = t->in_at[0] = 0;
  for (int q = 0; q < t->p; q++) {
    int other = q != t->me;
    size_t out = (size_t)rows_of(t, back ? q : t->me) * (size_t)cols_of(t, back ? t->me : q);
    size_t in = (size_t)rows_of(t, back ? t->me : q) * (size_t)cols_of(t, back ? q : t->me);
    t->out_at[q + 1] = t->out_at[q] + (other ? out : 0);
    t->in_at[q + 1] = t->in_at[q] + (other ? in : 0);
  }
}

/* The rows x columns block between sub(A)'s share (rows `mine`) and the turned share
 * (columns `mine`), for the pair (row owner r, column owner c), copied one way: to the
 * turned share (forward) or back.  packed: the block, rows of r x columns of c, ld rows
 * of r; NULL where both are this process (copied directly). */
static void copy_block(const turn *t, int r, int c, double *packed, int forward)
{
  int64_t mr = rows_of(t, r), nc = cols_of(t, c);
  hpd_axis_runs col_runs = {&t->cols, c, 0, nc};
  int64_t lc, gc, clen;
  while (hpd_axis_next_run(&col_runs, &lc, &gc, &clen)) {
    for (int64_t j = 0; j < clen; j++) {
      /* the column as sub(A)'s share holds it (on r) and as the turned share does (on c) */
      double *own = r == t->me ? t->a + (gc + j) * (int64_t)t->lda : NULL;
      double *turned = c == t->me ? t->turned + (lc + j) * (int64_t)t->m : NULL;
      double *pack = packed ? packed + (lc + j) * mr : NULL;
      if (own && turned) {
        hpd_axis_runs row_runs = {&t->rows, r, 0, mr};
        int64_t lr, gr, rlen;
        while (hpd_axis_next_run(&row_runs, &lr, &gr, &rlen))
          memcpy(forward ? turned + gr : own + lr, forward ? own + lr : turned + gr,
                 (size_t)rlen * sizeof(double));
      } else if (own) {
        memcpy(forward ? pack : own, forward ? own : pack, (size_t)mr * sizeof(double));
      } else {
        hpd_axis_runs row_runs = {&t->rows, r, 0, mr};
        int64_t lr, gr, rlen;
        while (hpd_axis_next_run(&row_runs, &lr, &gr, &rlen))
          memcpy(forward ? turned + gr : pack + lr, forward ? pack + lr : turned + gr,
                 (size_t)rlen * sizeof(double));
      }
    }
  }
}

static void post(double *buf, size_t count, int q, int send, MPI_Comm comm, MPI_Request *req,
                 int *n)
{
  for (size_t at = 0; at < count; at += MOST_PER_MESSAGE) {
    int len = (int)(count - at < MOST_PER_MESSAGE ? count - at : MOST_PER_MESSAGE);
    if (send)
      MPI_Isend(buf + at, len, MPI_DOUBLE, q, TAG, comm, &req[(*n)++]);
    else
      MPI_Irecv(buf + at, len, MPI_DOUBLE, q, TAG, comm, &req[(*n)++]);
  }
}

/* Deals sub(A) into the turned share (forward) or back: every pair of processes
 * exchanges its blocks at once, and this process's own block is copied meanwhile. */
static void exchange(turn *t, MPI_Comm comm, int forward, MPI_Request *req)
{
  double *out = t->out, *in = t->in;
  if (!forward) { /* back: what comes in is this process's rows */
    t->out = in;
    t->in = out;
  }
  lay_out(t, !forward);
  int n = 0;
  for (int q = 0; q < t->p; q++)
    if (q != t->me)
      post(t->in + t->in_at[q], t->in_at[q + 1] - t->in_at[q], q, 0, comm, req, &n);
  for (int i = 1; i < t->p; i++) {
    int q = (t->me + i) % t->p;
    double *part = t->out + t->out_at[q];
    if (forward)
      copy_block(t, t->me, q, part, 1);
    else
      copy_block(t, q, t->me, part, 0);
    post(part, t->out_at[q + 1] - t->out_at[q], q, 1, comm, req, &n);
  }
  copy_block(t, t->me, t->me, NULL, forward);
  for (int i = 0; i < n; i++)
    MPI_Wait(&req[i], MPI_STATUS_IGNORE);
  for (int q = 0; q < t->p; q++)
    if (q != t->me) {
      if (forward)
        copy_block(t, q, t->me, t->in + t->in_at[q], 1);
      else
        copy_block(t, t->me, q, t->in + t->in_at[q], 0);
    }
  t->out = out;
  t->in = in;
}

/* The counts a call's buffers are cut from, the same on every process. */
typedef struct sizes {
  size_t turned, exchange, lu, requests; /* turned, exchange, lu: doubles */
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
  hpd_lu t = {.m = f->m, .n = f->n, .sub = f->sub, .call = call};
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
  size_t m = (size_t)f->m, n = (size_t)f->n;
  size_t most_rows = (size_t)hpd_axis_max_count(&rows, f->m);
  size_t most_cols = (size_t)hpd_axis_max_count(&cols, f->n);
  hpd_call call;
  hpd_lu t = turned_problem(f, &call);
  sizes z = {.turned = m * most_cols, .exchange = most_rows * n + m * most_cols,
             .lu = (hpd_lu_bytes(&t) + sizeof(double) - 1) / sizeof(double)};
  size_t largest = most_rows * n > m * most_cols ? most_rows * n : m * most_cols;
  z.requests = 2 * (size_t)(rows.nprocs - 1) * (1 + largest / MOST_PER_MESSAGE);
  return z;
}

uint64_t hpd_lu_turned_bytes(const hpd_lu *f)
{
  sizes z = sizes_of(f);
  int p = rows_axis(f).nprocs;
  size_t work = z.exchange > z.lu ? z.exchange : z.lu;
  return (z.turned + work) * sizeof(double) + ((size_t)f->m + 1) / 2 * sizeof(double) +
         2 * ((size_t)p + 1) * sizeof(size_t) + z.requests * sizeof(MPI_Request);
}

int hpd_lu_turned_factor(const hpd_lu *f, double *space)
{
  sizes z = sizes_of(f);
  const hpd_call *call = f->call;
  turn t = {.f = f, .m = f->m, .n = f->n, .nb = f->sub.desc[HPD_NB],
            .rows = rows_axis(f), .cols = cols_axis(f), .me = call->myrow,
            .lda = f->sub.desc[HPD_LLD]};
  t.p = t.rows.nprocs;
  t.a = f->a + hpd_matrix_row0(&f->sub, call->nprow, call->myrow) +
        (int64_t)f->sub.j * t.lda; /* one process column: every column is here */
  size_t work = z.exchange > z.lu ? z.exchange : z.lu;
  t.turned = space;
  t.out = space + z.turned; /* this process's rows x every column */
  t.in = t.out + (size_t)hpd_axis_max_count(&t.rows, t.m) * (size_t)t.n;
  int *pivots = (int *)(space + z.turned + work);
  t.out_at = (size_t *)(pivots + t.m + (t.m & 1));
  t.in_at = t.out_at + t.p + 1;
  MPI_Request *req = (MPI_Request *)(t.in_at + t.p + 1);

  exchange(&t, f->line, 1, req);
  hpd_call turned_call;
  hpd_lu turned = turned_problem(f, &turned_call);
  turned.a = t.turned;
  turned.ipiv = pivots;
  turned.line = f->line;
  int info = hpd_lu_factor(&turned, space + z.turned);
  exchange(&t, f->line, 0, req);

  /* PDGETRF's IPIV: tied to A's rows, global rows of A.  PDGETF2 writes each panel's
   * pivots on every process of the column, from the local index of the first row it
   * holds at or after the panel's first: its own rows hold their pivots at the end, and
   * the entries past them the last panel's that it does not hold. */
  int mn = t.m < t.n ? t.m : t.n;
  int64_t row0 = hpd_matrix_row0(&f->sub, call->nprow, call->myrow);
  for (int g0 = 0; g0 < mn; g0 += t.nb) {
    int64_t at = row0 + hpd_axis_count(&t.rows, g0, t.me);
    for (int i = g0; i < mn && i < g0 + t.nb; i++)
      f->ipiv[at + i - g0] = pivots[i] + f->sub.i;
  }
  return info;
}
