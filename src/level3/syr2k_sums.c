/*
 * pdsyr2k where K lies along a line of the grid: 1 x Q with TRANS 'N' (K over A's and
 * B's columns) or P x 1 with 'T' (over their rows).  Each process then holds all N of its
 * share of K's rows (columns) of A and B, so it can add its share of K to every entry of
 * the triangle alone; the triangle's columns (rows) are then summed onto the processes
 * that hold them.  What travels is every other process's sums for this process's share
 * of sub(C), (Q-1)/Q * N^2/2 entries, where the engine's multiplies move A's and B's
 * panels along the line, 2 N K (Q-1)/Q: fewer where N < 4 K, which is when this way is
 * taken.  The flops are the same: a Q-th of K's updates on the whole triangle instead of
 * all of K's on a Q-th of it, in multiplies as deep as a process's share of K.
 *
 * sub(C)'s lines (columns on 1 x Q, rows on P x 1) go in strips: a strip's sums for the
 * other processes are sent as soon as they are made, and each process adds what it
 * received for one strip while it computes the next, so the link works under the
 * multiplies.  The strips reaching furthest into the triangle go first, so the last to
 * travel is the shortest.  The multiplies keep the multiply frequency throughout: there
 * is no phase of messages alone to slow down for.
 */
#include <limits.h>
#include <stdlib.h>

#include "bcast/request.h"
#include "core/log.h"
#include "kernel/kernel.h"
#include "level3/blocked.h"
#include "level3/kept.h"
#include "local/direct.h"
#include "pblas/scalapack_api.h"

/* A strip gives each process about this many of its own lines: deep enough for the
 * multiplies to hide a strip's messages, short enough that the last one's are few. */
#define STRIP_LINES 128

#define TAG 0x5332 /* no other message of hpdaemon's is in flight during a call */

/*
 * The call in the terms of its lines.  A line of sub(C) reaches, inside the triangle,
 * from index 0 to its own (upper columns, lower rows) or from its own to N - 1 (lower
 * columns, upper rows): "low" is the second.  Both the sums sent and sub(C) hold a span
 * of lines as a matrix of (reach x lines) entries, stored line by line on 1 x Q (a
 * column of sub(C) per line) and across lines on P x 1 (a row of sub(C) per line).
 */
typedef struct sums {
  int n, kl, upper, low, turned, q, me;
  hpd_elem alpha, beta;
  const hpd_elem *a, *b;
  int lda, ldb;
  hpd_elem *c; /* sub(C)'s first entry here */
  int ldc;
  hpd_axis lines; /* sub(C)'s lines along the grid's line */
  MPI_Comm comm;
  int64_t *strips; /* nstrips + 1 line boundaries, each at a block's start */
  int nstrips;
  /* Entries here: one strip's sums for the others and from them, and the parts of A
   * and B that meet one process's lines of a strip. */
  size_t send_max, recv_max, packed_max;
  MPI_Request *req; /* both strips' under way, 4 (q - 1) */
  hpd_elem *space;  /* two strips' buffers each way, then the packed parts */
} sums;

/* One process's lines of a strip: its local lines [l0, l1), consecutive in its storage,
 * and, as its sums travel, one matrix of the reach [r0, r1) from the first line's
 * triangle to the last's (entries outside the triangle are never read). */
typedef struct span {
  int p;
  int64_t l0, l1;
  int64_t first, last; /* the first line, one past the last (global) */
  int64_t width, r0, r1;
} span;

static int64_t block_end(const sums *s, int64_t j, int64_t end)
{
  int64_t next = hpd_axis_next_boundary(&s->lines, j);
  return next < end ? next : end;
}

static span span_of(const sums *s, int t, int p)
{
  span sp = {.p = p, .l0 = hpd_axis_count(&s->lines, s->strips[t], p),
             .l1 = hpd_axis_count(&s->lines, s->strips[t + 1], p)};
  sp.width = sp.l1 - sp.l0;
  if (sp.width > 0) {
    sp.first = hpd_axis_global(&s->lines, sp.l0, p);
    sp.last = hpd_axis_global(&s->lines, sp.l1 - 1, p) + 1;
  }
  sp.r0 = s->low ? sp.first : 0;
  sp.r1 = s->low ? s->n : sp.last;
  return sp;
}

/* The span's blocks, each a run of consecutive lines (hpd_axis_next_run). */
static hpd_axis_runs blocks_of(const sums *s, const span *sp)
{
  return (hpd_axis_runs){.axis = &s->lines, .p = sp->p, .l = sp->l0, .end = sp->l1};
}

static int64_t span_count(const span *sp)
{
  return sp->width ? (sp->r1 - sp->r0) * sp->width : 0;
}

/* Where entry (reach r, line c) of a span's matrix lies, its leading dimension ldd and
 * its first reach sp->r0. */
static int64_t entry(const sums *s, const span *sp, int ldd, int64_t r, int64_t c)
{
  r -= sp->r0;
  return s->turned ? c + r * ldd : r + c * ldd;
}

/* Cuts the lines into strips at block starts: HPD_OK, or HPD_STATUS_NO_MEMORY where memory
 * ran short. */
static hpd_status cut_strips(sums *s)
{
  int64_t width = (int64_t)s->q * STRIP_LINES;
  s->strips = malloc(((size_t)(s->n / width) + 3) * sizeof *s->strips);
  if (!s->strips)
    return HPD_STATUS_NO_MEMORY;
  s->nstrips = 0;
  s->strips[0] = 0;
  for (int64_t j = 0; j < s->n;) {
    j = block_end(s, j, s->n);
    if (j - s->strips[s->nstrips] >= width || j == s->n)
      s->strips[++s->nstrips] = j;
  }
  return HPD_OK;
}

/* Sizes this process's buffers and returns the most bytes any process of the line
 * needs, from descriptor data alone (the deepest share of K stands for every process's);
 * 0 where a message would be too long for MPI's count. */
static size_t size_buffers(sums *s, int64_t kl_max)
{
  int64_t most_sent = 0, most_held = 0, widest = 0;
  for (int t = 0; t < s->nstrips; t++) {
    int64_t total = 0, mine = 0;
    for (int p = 0; p < s->q; p++) {
      span sp = span_of(s, t, p);
      int64_t count = span_count(&sp);
      total += count;
      mine = p == s->me ? count : mine;
      most_held = count > most_held ? count : most_held;
      widest = sp.width > widest ? sp.width : widest;
    }
    most_sent = total > most_sent ? total : most_sent;
    size_t send = (size_t)(total - mine), recv = (size_t)(s->q - 1) * (size_t)mine;
    s->send_max = send > s->send_max ? send : s->send_max;
    s->recv_max = recv > s->recv_max ? recv : s->recv_max;
  }
  s->packed_max = 2 * (size_t)widest * (size_t)s->kl;
  if (most_held > INT_MAX)
    return 0;
  size_t most = 2 * ((size_t)most_sent + (size_t)(s->q - 1) * (size_t)most_held) +
                2 * (size_t)widest * (size_t)kl_max;
  return most * sizeof(hpd_elem);
}

/* Moves every message under way a step: over TCP a message moves only while its ends
 * call into MPI, so the multiplies stop for a look between them. */
static void step_messages(const sums *s)
{
  for (int i = 0; i < 4 * (s->q - 1); i++)
    hpd_request_done(&s->req[i]);
}

/* Where a span's sums go (d, ldd, beta), and A's and B's parts that meet the span's
 * lines, copied together (ap, bp): w x kl on 1 x Q, kl x w on P x 1. */
typedef struct target {
  const span *sp;
  hpd_elem *d;
  int ldd;
  hpd_elem beta;
  const hpd_elem *ap, *bp;
  int w;
} target;

/* A's (B's) part that meets reach r: one of its rows on 1 x Q, a column on P x 1. */
static const hpd_elem *reach_of(const sums *s, const hpd_elem *x, int ldx, int64_t r)
{
  return s->turned ? x + r * ldx : x + r;
}

/* The leading dimension of A's (B's) packed part for w lines. */
static int packed_ld(const sums *s, int w)
{
  return s->turned ? (s->kl > 1 ? s->kl : 1) : w;
}

/* The packed part that meets the span's line c. */
static const hpd_elem *packed_at(const sums *s, const hpd_elem *x, int64_t c)
{
  return s->turned ? x + c * s->kl : x + c;
}

/* Reach [lo, hi) of the span's lines [c, c + cw):
 * d := alpha * (A B' + B A') + beta * d on 1 x Q, alpha * (A' B + B' A) + beta * d on
 * P x 1, A and B restricted to the reach and the lines. */
static void rectangle(const sums *s, const target *to, int64_t lo, int64_t hi, int64_t c,
                      int64_t cw)
{
  int h = (int)(hi - lo), width = (int)cw, kl = s->kl, ldp = packed_ld(s, to->w);
  if (h <= 0)
    return;
  hpd_elem *d = to->d + entry(s, to->sp, to->ldd, lo, c);
  const hpd_elem *a = reach_of(s, s->a, s->lda, lo), *b = reach_of(s, s->b, s->ldb, lo);
  const hpd_elem *ap = packed_at(s, to->ap, c), *bp = packed_at(s, to->bp, c);
  if (s->turned) {
    hpd_kernel_gemm('T', 'N', width, h, kl, s->alpha, ap, ldp, b, s->ldb, to->beta, d, to->ldd);
    step_messages(s);
    hpd_kernel_gemm('T', 'N', width, h, kl, s->alpha, bp, ldp, a, s->lda, 1.0, d, to->ldd);
  } else {
    hpd_kernel_gemm('N', 'T', h, width, kl, s->alpha, a, s->lda, bp, ldp, to->beta, d, to->ldd);
    step_messages(s);
    hpd_kernel_gemm('N', 'T', h, width, kl, s->alpha, b, s->ldb, ap, ldp, 1.0, d, to->ldd);
  }
  step_messages(s);
}

/* Copies x's part that meets the span's lines into packed, in the order both are
 * stored. */
static void pack(const sums *s, const span *sp, const hpd_elem *x, int ldx, hpd_elem *packed)
{
  int64_t w = sp->width;
  hpd_axis_runs r = blocks_of(s, sp);
  for (int64_t lb, j0, len; hpd_axis_next_run(&r, &lb, &j0, &len);) {
    int64_t at = lb - sp->l0;
    if (s->turned) {
      for (int64_t i = 0; i < len; i++)
        for (int64_t l = 0; l < s->kl; l++)
          packed[l + (at + i) * s->kl] = x[l + (j0 + i) * ldx];
    } else {
      for (int64_t l = 0; l < s->kl; l++)
        for (int64_t i = 0; i < len; i++)
          packed[at + i + l * w] = x[j0 + i + l * ldx];
    }
  }
}

/* This process's share of K on the triangle's part of sp's lines, into d (ldd):
 * d := alpha * (its sums) + beta * d.  A's and B's parts that meet the lines are
 * copied together first (into packed, 2 width x kl), so that the reach every line of
 * the span has is one pair of deep multiplies; then each block adds its step of the
 * staircase and its diagonal block, whose other triangle is left alone. */
static void span_sums(const sums *s, const span *sp, hpd_elem beta, hpd_elem *d, int ldd,
                      hpd_elem *packed)
{
  if (sp->width == 0)
    return;
  int w = (int)sp->width, kl = s->kl, ldp = packed_ld(s, w);
  hpd_elem *ap = packed, *bp = packed + (size_t)w * (size_t)kl;
  pack(s, sp, s->a, s->lda, ap);
  pack(s, sp, s->b, s->ldb, bp);
  target to = {.sp = sp, .d = d, .ldd = ldd, .beta = beta, .ap = ap, .bp = bp, .w = w};
  if (s->low)
    rectangle(s, &to, sp->last, s->n, 0, w);
  else
    rectangle(s, &to, 0, sp->first, 0, w);
  char uplo = s->upper ? 'U' : 'L', trans = s->turned ? 'T' : 'N';
  hpd_axis_runs r = blocks_of(s, sp);
  for (int64_t lb, j0, len; hpd_axis_next_run(&r, &lb, &j0, &len);) {
    int64_t at = lb - sp->l0, j1 = j0 + len;
    int bw = (int)len;
    if (s->low)
      rectangle(s, &to, j1, sp->last, at, bw);
    else
      rectangle(s, &to, sp->first, j0, at, bw);
    hpd_kernel_syr2k(uplo, trans, bw, kl, s->alpha, packed_at(s, ap, at), ldp,
                     packed_at(s, bp, at), ldp, beta, d + entry(s, sp, ldd, j0, at), ldd);
  }
}

/* This process's storage of sub(C) for sp's matrix: its first line at reach sp->r0. */
static hpd_elem *c_of(const sums *s, const span *sp)
{
  return s->turned ? s->c + sp->l0 + sp->r0 * (int64_t)s->ldc
                   : s->c + sp->r0 + sp->l0 * (int64_t)s->ldc;
}

/* One strip's messages: sends to the other processes, then receives from them, in one
 * array of 2 (q - 1) requests. */
typedef struct strip_io {
  MPI_Request *req;
  hpd_elem *send, *recv;
  int t; /* the strip */
} strip_io;

static void wait_all(MPI_Request *req, int n)
{
  for (int i = 0; i < n; i++)
    MPI_Wait(&req[i], MPI_STATUS_IGNORE);
}

/* The other processes, from the next one on, so that no process is everyone's first. */
static int other(const sums *s, int i)
{
  return (s->me + 1 + i) % s->q;
}

/* Strip t: the receives of the others' sums for this process's lines, then the sums for
 * each other process, each sent as soon as it is made, then this process's own lines
 * updated in place. */
static void compute_strip(const sums *s, int t, strip_io *io, hpd_elem *packed)
{
  int n1 = s->q - 1;
  io->t = t;
  span mine = span_of(s, t, s->me);
  int64_t count = span_count(&mine);
  for (int i = 0; i < n1; i++)
    MPI_Irecv(io->recv + (size_t)i * (size_t)count, (int)count, HPD_ELEM_MPI, other(s, i), TAG,
              s->comm, &io->req[n1 + i]);
  size_t at = 0;
  for (int i = 0; i < n1; i++) {
    span sp = span_of(s, t, other(s, i));
    int ld = (int)(s->turned ? sp.width : sp.r1 - sp.r0);
    span_sums(s, &sp, 0.0, io->send + at, ld > 0 ? ld : 1, packed);
    MPI_Isend(io->send + at, (int)span_count(&sp), HPD_ELEM_MPI, sp.p, TAG, s->comm, &io->req[i]);
    at += (size_t)span_count(&sp);
  }
  if (mine.width)
    span_sums(s, &mine, s->beta, c_of(s, &mine), s->ldc, packed);
}

/* c += from on the triangle's part of the block of lines [j0, j0 + bw) (the span's
 * lines from at on), in the order both are stored: reach by reach across the lines on
 * P x 1, line by line on 1 x Q. */
static void add_block(const sums *s, const span *sp, hpd_elem *c, const hpd_elem *from, int ld,
                      int64_t j0, int64_t bw, int64_t at)
{
  if (!s->turned) {
    for (int64_t i = 0; i < bw; i++) {
      int64_t lo = s->low ? j0 + i : 0, hi = s->low ? s->n : j0 + i + 1;
      hpd_elem *to = c + entry(s, sp, s->ldc, lo, at + i);
      const hpd_elem *add = from + entry(s, sp, ld, lo, at + i);
      for (int64_t r = 0; r < hi - lo; r++)
        to[r] += add[r];
    }
    return;
  }
  int64_t r0 = s->low ? j0 : 0, r1 = s->low ? s->n : j0 + bw;
  for (int64_t r = r0; r < r1; r++) {
    /* The lines whose reach holds r. */
    int64_t i0 = s->low ? 0 : (r > j0 ? r - j0 : 0);
    int64_t i1 = s->low ? (r - j0 + 1 < bw ? r - j0 + 1 : bw) : bw;
    hpd_elem *to = c + entry(s, sp, s->ldc, r, at);
    const hpd_elem *add = from + entry(s, sp, ld, r, at);
    for (int64_t i = i0; i < i1; i++)
      to[i] += add[i];
  }
}

/* Adds the others' sums for strip io->t into this process's lines, once received: the
 * triangle's entries only. */
static void add_strip(const sums *s, strip_io *io)
{
  int n1 = s->q - 1;
  wait_all(io->req + n1, n1);
  span mine = span_of(s, io->t, s->me);
  if (mine.width == 0)
    return;
  hpd_elem *c = c_of(s, &mine);
  int ld = (int)(s->turned ? mine.width : mine.r1 - mine.r0);
  for (int i = 0; i < n1; i++) {
    const hpd_elem *from = io->recv + (size_t)i * (size_t)span_count(&mine);
    hpd_axis_runs r = blocks_of(s, &mine);
    for (int64_t lb, j0, len; hpd_axis_next_run(&r, &lb, &j0, &len);)
      add_block(s, &mine, c, from, ld, j0, len, lb - mine.l0);
  }
}

/* Every strip, two under way at a time. */
static void run_strips(void *arg)
{
  const sums *s = arg;
  hpd_elem *space = s->space;
  int n1 = s->q - 1;
  strip_io io[2];
  hpd_elem *packed = space + 2 * (s->send_max + s->recv_max);
  for (int b = 0; b < 2; b++) {
    io[b].req = s->req + (size_t)b * 2 * n1;
    io[b].send = space + (size_t)b * (s->send_max + s->recv_max);
    io[b].recv = io[b].send + s->send_max;
  }
  for (int i = 0; i < 4 * n1; i++)
    s->req[i] = MPI_REQUEST_NULL;
  for (int i = 0; i < s->nstrips; i++) {
    int t = s->low ? i : s->nstrips - 1 - i;
    strip_io *now = &io[i % 2];
    /* Its buffer's sends, two strips ago, must have left. */
    wait_all(now->req, n1);
    compute_strip(s, t, now, packed);
    if (i > 0)
      add_strip(s, &io[(i - 1) % 2]);
  }
  add_strip(s, &io[(s->nstrips - 1) % 2]);
  wait_all(s->req, 4 * n1);
}

/* The call as this way sees it, where it can be taken: HPD_OK, or HPD_STATUS_DECLINED.
 * *k_axis is how K is dealt. */
static hpd_status describe(const hpd_l3_run *run, sums *s, hpd_axis *k_axis)
{
  const hpd_call *call = &run->l3->call;
  int turned = call->transa != 'N';
  int q = turned ? call->nprow : call->npcol;
  /* Fewer entries travel than the panels' where N < 4 K. */
  if ((turned ? call->npcol : call->nprow) != 1 || q < 2 || 4 * (int64_t)call->k <= call->n)
    return HPD_STATUS_DECLINED;
  hpd_axis ak = turned ? hpd_matrix_rows(&call->A, q) : hpd_matrix_cols(&call->A, q);
  hpd_axis bk = turned ? hpd_matrix_rows(&call->B, q) : hpd_matrix_cols(&call->B, q);
  if (!hpd_axis_same(&ak, &bk, call->k))
    return HPD_STATUS_DECLINED;
  int me = turned ? call->myrow : call->mycol;
  *k_axis = ak;
  *s = (sums){
      .n = call->n, .kl = (int)hpd_axis_count(&ak, call->k, me),
      .upper = call->uplo == 'U', .low = (call->uplo == 'U') == turned, .turned = turned,
      .q = q, .me = me, .alpha = call->alpha, .beta = call->beta,
      .a = hpd_direct_origin(call, &call->A, call->a), .lda = call->A.desc[HPD_LLD],
      .b = hpd_direct_origin(call, &call->B, call->b), .ldb = call->B.desc[HPD_LLD],
      .c = hpd_direct_origin(call, &call->C, call->c), .ldc = call->C.desc[HPD_LLD],
      .lines = turned ? hpd_matrix_rows(&call->C, q) : hpd_matrix_cols(&call->C, q),
      .comm = turned ? run->grid->col : run->grid->row};
  return HPD_OK;
}

hpd_status hpd_l3_syr2k_sums(hpd_l3_run *run)
{
  sums s;
  hpd_axis k_axis;
  if (describe(run, &s, &k_axis) != HPD_OK)
    return HPD_STATUS_DECLINED;
  if (cut_strips(&s) != HPD_OK)
    hpd_fatal("pdsyr2k: no memory for %d lines' strips", s.n);
  size_t need = size_buffers(&s, hpd_axis_max_count(&k_axis, run->l3->call.k));
  if (need == 0 || (double)need > hpd_grid_budget(run->grid)) {
    free(s.strips);
    return need == 0 ? HPD_STATUS_DECLINED : HPD_STATUS_NO_MEMORY;
  }
  s.space = hpd_l3_kept(2 * (s.send_max + s.recv_max) + s.packed_max, hpd_grid_budget(run->grid));
  s.req = malloc(4 * (size_t)(s.q - 1) * sizeof *s.req);
  if (!hpd_l3_kept_agreed(s.comm, need, s.space && s.req, "pdsyr2k's sums")) {
    free(s.req);
    free(s.strips);
    return HPD_STATUS_NO_MEMORY;
  }
  hpd_l3_overlapped(run, (uint64_t)need, run_strips, &s);
  free(s.req);
  free(s.strips);
  return HPD_OK;
}
