/*
 * Cholesky's factor where each panel's rows are spread over the grid's line: the lower
 * factor on one process column (P x 1) and the upper one on one process row (1 x Q),
 * chol.c's shapes transposed.  Every process then solves its own rows of a panel once
 * the diagonal block's factor reaches it, and needs every other process's rows for its
 * share of the trailing update: each panel is an exchange among all of them, not a
 * broadcast from one.  Over a link that is what a one-line grid wants: both directions
 * carry a panel at once, where a broadcast from one owner loads one direction and the
 * next panel cannot leave before the last has arrived.
 *
 * What the next steps wait for stays small.  The owner of block k+1 holds that block's
 * row of panel k: it solves it, brings its diagonal block up to date and factors it
 * before its rows of panel k leave, so the next diagonal factor travels ahead of the
 * exchange.  Every process applies panel k to the next two blocks of columns first (the
 * "lead", which needs only the exchange's first two blocks of rows), and to the rest of
 * its share (the "bulk") one step later, while the next panel's exchange travels.
 *
 * Exchanged rows travel as the level-3 streams' small messages (stream.h) and are used
 * as they land.  The whole algorithm is written for L (the lower factor, rows "across"
 * the line, columns "along" it); the upper factor is its transpose in place: U(i, j) =
 * L(j, i), rows along and columns across.
 */
#include "factor/chol.h"

#include <string.h>

#include "bcast/bcast.h"
#include "factor/lookahead.h"
#include "kernel/kernel.h"
#include "level3/local.h"
#include "level3/stream.h" /* pdgemm/ has a stream of its own */
#include "local/triangle.h"
#include "pblas/poll.h"
#include "pblas/scalapack_api.h"

#define TAG 0x5A00 /* + slot; no other message of hpdaemon's is in flight during a call */

/* The lead's blocks of columns: the next diagonal block's, and the one after it, which
 * the next step's owner factors before its own bulk is done. */
#define LEAD_BLOCKS 2

/* The bulk takes the exchange's rows in strips of this many blocks, each as soon as it
 * has landed. */
#define STRIP_BLOCKS 4

/* Panel k's exchange (in slot k % 2: two are alive at a time). */
typedef struct slot {
  hpd_elem *staged;  /* every process's rows, by process, each block len x jb */
  hpd_elem *rows;    /* the same rows in sub(A)'s order from g1 on, (n - g1) x jb */
  size_t *part;      /* process q's rows: elements [part[q], part[q + 1]) of staged */
  int64_t *unpacked; /* process q's rows already copied into rows */
  hpd_l3_stream stream;
  int live; /* started, not finished */
  int panel;
} slot;

typedef struct state {
  const hpd_chol *c;
  int upper, n, p, panels;
  hpd_chol_line ln; /* rows across for 'L', columns for 'U' */
  slot slots[2];
  hpd_elem *diags[2]; /* block k's factor in diags[k % 2] (jb x jb), then its status */
  hpd_bcast diag_handles[2];
  int diag_live[2];
} state;

typedef hpd_chol_panel panel;

static panel panel_at(const state *s, int k)
{
  return hpd_chol_panel_at(&s->ln, s->n, k);
}

/* This process's count of indices across in [0, i). */
static int64_t mine_before(const state *s, int64_t i)
{
  return hpd_axis_count(&s->ln.across, i, s->ln.me);
}

/* This process's indices across from t0 on. */
static int64_t mine_from(const state *s, int64_t t0)
{
  return hpd_axis_count(&s->ln.across, s->n, s->ln.me) - mine_before(s, t0);
}

/* This process's entries of L from local index l across and global index along on: for
 * L the rows go down the local array, for U (L') across it. */
static hpd_elem *local_entry(const state *s, int64_t l, int64_t along)
{
  int64_t r = s->upper ? along : l, c = s->upper ? l : along;
  return s->c->a + s->ln.row0 + r + (s->ln.col0 + c) * (int64_t)s->ln.lda;
}

/* This process's rows of panel k from its local index l on (L: rows x jb; U: jb x
 * columns; leading dimension lda). */
static hpd_elem *own_rows(const state *s, int k, int64_t l)
{
  return local_entry(s, l, panel_at(s, k).g0);
}

/* Owner of block k: factors it (all earlier panels applied) into its slot. */
static void factor_diag(state *s, int k)
{
  panel pn = panel_at(s, k);
  hpd_elem *d = local_entry(s, hpd_axis_local(&s->ln.across, pn.g0), pn.g0);
  hpd_elem *out = s->diags[k % 2];
  int info = hpd_kernel_potrf(s->upper ? 'U' : 'L', pn.jb, d, s->ln.lda);
  for (int j = 0; j < pn.jb; j++)
    memcpy(out + (int64_t)j * pn.jb, d + (int64_t)j * s->ln.lda,
           (size_t)pn.jb * sizeof *out);
  out[(int64_t)pn.jb * pn.jb] = info;
}

/* Starts block k's broadcast, in the same order on every process. */
static void start_diag(state *s, int k)
{
  panel pn = panel_at(s, k);
  hpd_bcast_started(hpd_bcast_start(s->diags[k % 2], (size_t)pn.jb * (size_t)pn.jb + 1,
                                    pn.owner, s->ln.comm, hpd_grid_bcast(s->c->grid),
                                    &s->diag_handles[k % 2]));
  s->diag_live[k % 2] = 1;
}

/* This process's rows of panel k below its diagonal block: L := L D^-T. */
static void solve(const state *s, int k)
{
  panel pn = panel_at(s, k);
  int64_t l0 = mine_before(s, pn.g1);
  int count = (int)mine_from(s, pn.g1);
  if (count <= 0)
    return;
  const hpd_elem *d = s->diags[k % 2];
  if (s->upper)
    hpd_l3_local_trsm('L', 'U', 'T', 'N', pn.jb, count, 1.0, d, pn.jb, own_rows(s, k, l0),
                      s->ln.lda);
  else
    hpd_l3_local_trsm('R', 'L', 'T', 'N', count, pn.jb, 1.0, d, pn.jb, own_rows(s, k, l0),
                      s->ln.lda);
}

/* Copies process q's staged blocks of panel k, its local rows [unpacked, upto) from g1
 * on (whole blocks), into the slot's rows. */
static void unpack(const state *s, int k, int q, int64_t upto)
{
  panel pn = panel_at(s, k);
  const slot *sl = &s->slots[k % 2];
  hpd_axis tr = hpd_axis_from(&s->ln.across, pn.g1);
  hpd_axis_runs runs = {&tr, q, sl->unpacked[q], upto};
  int64_t l, g, len, ld = s->n - pn.g1;
  while (hpd_axis_next_run(&runs, &l, &g, &len)) {
    const hpd_elem *from = sl->staged + sl->part[q] + l * pn.jb;
    for (int c = 0; c < pn.jb; c++)
      memcpy(sl->rows + g + c * ld, from + c * len, (size_t)len * sizeof(hpd_elem));
  }
  sl->unpacked[q] = upto;
}

/* Lays out panel k's exchange: each process's rows from g1 on. */
static void lay_out(state *s, int k)
{
  panel pn = panel_at(s, k);
  slot *sl = &s->slots[k % 2];
  hpd_axis tr = hpd_axis_from(&s->ln.across, pn.g1);
  int64_t m = s->n - pn.g1;
  sl->part[0] = 0;
  for (int q = 0; q < s->p; q++) {
    sl->part[q + 1] = sl->part[q] + (size_t)hpd_axis_count(&tr, m, q) * (size_t)pn.jb;
    sl->unpacked[q] = 0;
  }
  sl->panel = k;
}

/* Stages this process's solved rows of panel k for its exchange (and in the slot's
 * rows, where the updates read them). */
static void stage(state *s, int k)
{
  panel pn = panel_at(s, k);
  slot *sl = &s->slots[k % 2];
  lay_out(s, k);
  hpd_l3_stream_renew(&sl->stream, sl->part);
  hpd_axis tr = hpd_axis_from(&s->ln.across, pn.g1);
  int64_t l0 = mine_before(s, pn.g1), mine = mine_from(s, pn.g1);
  hpd_axis_runs runs = {&tr, s->ln.me, 0, mine};
  int64_t l, g, len;
  while (hpd_axis_next_run(&runs, &l, &g, &len)) {
    hpd_elem *to = sl->staged + sl->part[s->ln.me] + l * pn.jb;
    const hpd_elem *from = own_rows(s, k, l0 + l);
    for (int c = 0; c < pn.jb; c++)
      for (int64_t r = 0; r < len; r++)
        to[r + c * len] = s->upper ? from[c + r * s->ln.lda] : from[r + c * s->ln.lda];
  }
  unpack(s, k, s->ln.me, mine);
}

static void send(state *s, int k)
{
  slot *sl = &s->slots[k % 2];
  if (s->n == panel_at(s, k).g1)
    return;
  hpd_l3_stream_start(&sl->stream, sl->staged, s->ln.comm, TAG + k % 2);
  sl->live = 1;
}

/* Waits for panel k's rows [g1, g1 + rows) (rows on a block boundary, or all of them),
 * and copies them into the slot's rows. */
static void receive(state *s, int k, int64_t rows)
{
  panel pn = panel_at(s, k);
  slot *sl = &s->slots[k % 2];
  if (!sl->live)
    return;
  hpd_axis tr = hpd_axis_from(&s->ln.across, pn.g1);
  for (int q = 0; q < s->p; q++) {
    int64_t upto = hpd_axis_count(&tr, rows, q);
    if (q == s->ln.me || upto <= sl->unpacked[q])
      continue;
    hpd_l3_stream_wait_for(&sl->stream, q, (size_t)upto * (size_t)pn.jb);
    unpack(s, k, q, upto);
  }
}

static void finish(state *s, int k)
{
  slot *sl = &s->slots[k % 2];
  if (!sl->live || sl->panel != k)
    return;
  receive(s, k, s->n - panel_at(s, k).g1);
  hpd_l3_stream_finish(&sl->stream);
  sl->live = 0;
}

/* Moves the exchanges and the diagonal block's broadcast in flight (triangle.h). */
static void poll(void *arg)
{
  state *s = arg;
  for (int i = 0; i < 2; i++) {
    if (s->slots[i].live)
      hpd_l3_stream_poll(&s->slots[i].stream);
    if (s->diag_live[i])
      hpd_bcast_test(&s->diag_handles[i], 1);
  }
}

/*
 * Panel k's update of the trailing matrix from index t0 on (a block boundary), on this
 * process's indices across [i0, i1) and the indices along [j0, j1) of it, counted from
 * t0: C -= L L' on the factor's triangle (transposed for U), where L's rows across are
 * this process's own and its rows along are the exchange's.
 */
static void apply(const state *s, int k, int64_t t0, int64_t i0, int64_t i1, int64_t j0,
                  int64_t j1, const hpd_progress *progress)
{
  if (t0 >= s->n || i0 >= i1 || j0 >= j1)
    return;
  panel pn = panel_at(s, k);
  int64_t m = s->n - t0, before = mine_before(s, t0), mine = mine_from(s, t0);
  hpd_axis across = hpd_axis_from(&s->ln.across, t0),
           along = hpd_axis_from(&s->ln.along, t0);
  int up = s->upper;
  hpd_triangle t = {.uplo = up ? 'U' : 'L',
                    .rows = up ? along : across,
                    .cols = up ? across : along,
                    .m = m,
                    .n = m,
                    .b_is_a = 1};
  *(up ? &t.mycol : &t.myrow) = s->ln.me;
  hpd_elem *c = local_entry(s, before, t0);
  int ldr = (int)(s->n - pn.g1);
  const hpd_elem *exchanged = s->slots[k % 2].rows + (t0 - pn.g1) + j0;
  const hpd_elem *own = own_rows(s, k, before + i0);
  hpd_share_part part =
      up ? (hpd_share_part){j0, j1, i0, i1} : (hpd_share_part){i0, i1, j0, j1};
  if (up)
    hpd_triangle_update_part(&t, 'N', 'N', pn.jb, -1.0, exchanged, ldr, own, s->ln.lda,
                             NULL, c, s->ln.lda, (int)m, (int)mine, &part, progress);
  else
    hpd_triangle_update_part(&t, 'N', 'T', pn.jb, -1.0, own, s->ln.lda, exchanged, ldr,
                             NULL, c, s->ln.lda, (int)mine, (int)m, &part, progress);
}

/* Owner of block k+1: panel k applied to that block, which it then factors. */
static void factor_next(state *s, int k)
{
  panel pn = panel_at(s, k), next = panel_at(s, k + 1);
  apply(s, k, pn.g1, 0, next.jb, 0, next.jb, NULL);
  factor_diag(s, k + 1);
}

/* Panel k on the lead's blocks of columns, all but the block that factor_next did. */
static void lead(state *s, int k)
{
  panel pn = panel_at(s, k);
  int64_t m = s->n - pn.g1, width = (int64_t)LEAD_BLOCKS * s->ln.nb;
  width = width < m ? width : m;
  receive(s, k, width);
  int64_t skip = 0;
  if (k + 1 < s->panels && panel_at(s, k + 1).owner == s->ln.me)
    skip = panel_at(s, k + 1).jb;
  apply(s, k, pn.g1, skip, mine_from(s, pn.g1), 0, width, NULL);
}

/* Panel k on the rest of this process's share, strip by strip as its rows land. */
static void bulk(state *s, int k)
{
  panel pn = panel_at(s, k);
  int64_t t0 = pn.g1 + (int64_t)LEAD_BLOCKS * s->ln.nb,
          strip = (int64_t)STRIP_BLOCKS * s->ln.nb;
  hpd_progress progress = {poll, s, HPD_POLL_FLOPS};
  for (int64_t j0 = 0; t0 + j0 < s->n; j0 += strip) {
    int64_t j1 = t0 + j0 + strip < s->n ? j0 + strip : s->n - t0;
    receive(s, k, t0 - pn.g1 + j1);
    apply(s, k, t0, 0, mine_from(s, t0), j0, j1, &progress);
  }
  finish(s, k);
}

typedef struct sizes {
  size_t panel, diag, part, stream_bytes; /* panel, diag, part: elements */
} sizes;

/* A slot's buffers, the same figures on every process. */
static sizes sizes_of(const hpd_chol *c)
{
  hpd_axis across = hpd_chol_across(c, !c->upper);
  int p = across.nprocs;
  size_t nb = (size_t)c->sub.desc[HPD_NB];
  size_t most = (size_t)hpd_axis_max_count(&across, c->n) * nb; /* panel 0's part */
  sizes z = {.panel = (size_t)c->n * nb, .diag = nb * nb + 1, .part = 2 * (size_t)p + 1};
  z.stream_bytes = hpd_l3_stream_bytes_most(most, p);
  return z;
}

uint64_t hpd_chol_spread_bytes(const hpd_chol *c)
{
  sizes z = sizes_of(c);
  size_t elements = 2 * (2 * z.panel + z.diag + z.part);
  return elements * sizeof(hpd_elem) + 2 * (z.stream_bytes + sizeof(hpd_elem));
}

static state state_of(const hpd_chol *c, hpd_elem *space)
{
  state s = {.c = c, .upper = c->upper, .n = c->n, .ln = hpd_chol_line_of(c, !c->upper)};
  s.p = s.ln.across.nprocs;
  s.panels = (s.n + s.ln.nb - 1) / s.ln.nb;
  sizes z = sizes_of(c);
  hpd_elem *at = space;
  for (int i = 0; i < 2; i++) {
    slot *sl = &s.slots[i];
    sl->staged = at, at += z.panel;
    sl->rows = at, at += z.panel;
    s.diags[i] = at, at += z.diag;
    sl->part = (size_t *)at;
    sl->unpacked = (int64_t *)(sl->part + s.p + 1), at += z.part;
  }
  /* Panel 0's exchange is the largest: both streams are laid out for it. */
  lay_out(&s, 0);
  for (int i = 0; i < 2; i++) {
    hpd_l3_stream_place(&s.slots[i].stream, s.slots[0].part, s.p, s.ln.me, at);
    at += (z.stream_bytes + sizeof(hpd_elem) - 1) / sizeof(hpd_elem);
  }
  return s;
}

int hpd_chol_spread_factor(const hpd_chol *c, hpd_elem *space)
{
  state s = state_of(c, space);
  hpd_factor_run run;
  hpd_factor_run_begin(&run);
  if (panel_at(&s, 0).owner == s.ln.me)
    factor_diag(&s, 0);
  start_diag(&s, 0);
  int failed = 0;
  for (int k = 0; k < s.panels; k++) {
    panel pn = panel_at(&s, k);
    hpd_factor_run_wait(&run, &s.diag_handles[k % 2], 1,
                        ((size_t)pn.jb * (size_t)pn.jb + 1) * sizeof(hpd_elem));
    s.diag_live[k % 2] = 0;
    int status = (int)s.diags[k % 2][(int64_t)pn.jb * pn.jb];
    if (status != 0) { /* PDPOTRF's state: every earlier panel applied everywhere */
      if (k > 0)
        bulk(&s, k - 1);
      failed = (int)pn.g0 + status;
      break;
    }
    solve(&s, k);
    stage(&s, k);
    if (k + 1 < s.panels) {
      if (panel_at(&s, k + 1).owner == s.ln.me)
        factor_next(&s, k);
      start_diag(&s, k + 1);
    }
    send(&s, k);
    if (k > 0)
      bulk(&s, k - 1);
    lead(&s, k);
  }
  for (int i = 0; i < 2; i++)
    finish(&s, s.slots[i].panel);
  hpd_factor_run_end(&run, HPD_ROUTINE_PDPOTRF, s.panels, hpd_chol_spread_bytes(c));
  return failed;
}
