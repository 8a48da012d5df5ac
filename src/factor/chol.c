#include "factor/chol.h"

#include <string.h>

#include "bcast/bcast.h"
#include "factor/lookahead.h"
#include "kernel/kernel.h"
#include "level3/local.h"
#include "local/triangle.h"
#include "pblas/poll.h"
#include "pblas/scalapack_api.h"

/* The lower factor on a 1 x Q grid and the upper one on a P x 1 grid are one algorithm,
 * transposed: the panels are dealt over the grid's line along one dimension ("across":
 * columns for 'L', rows for 'U'), and every process holds the other one whole
 * ("along").  Panel p is then sub(A)'s block of indices [g0, g1) across, and its part
 * from g1 on along is L's rows below the diagonal block ('L') or U's columns right of it
 * ('U').  Every process receives that part as L's rows, rest x jb: U's is transposed by
 * its owner, so that both triangles read their panels alike.
 *
 * The update runs two panels at a time (chol.h): panels 2k and 2k+1 ("pair k") land side
 * by side in one buffer, pairs[k % 2], whose rows start at panel 2k's g1 and whose
 * leading dimension is its rest; panel 2k+1's part sits nb rows down and nb columns
 * over, so that from row nb on the buffer is both panels' rows beside each other, the
 * operand of a multiply of depth 2 nb. */

/* A panel's part travels in pieces of consecutive rows (of L), cut at multiples of the
 * call's span, so that the owner of the next panel can bring its block up to date,
 * factor it and send its first rows while the rest of this panel still travels: over a
 * link, a panel sent whole kept the link busy one way at a time (panel p from its owner,
 * then panel p+1 back once p had all arrived), and the next panel's owner idle until
 * then.  The same boundaries cut every panel, so that each of the next panel's pieces
 * needs this panel's pieces up to the same one.  A span is at least SPAN_BYTES of a
 * panel's width, and the pieces of one panel at most MAX_PIECES: each piece is a
 * broadcast of its own, whose messages cost their handshakes where the link is fast
 * (timing/notes/2026-11-29.md, "Cholesky's panels in pieces"). */
#define SPAN_BYTES ((int64_t)512 << 10)
#define MAX_PIECES 16

/* A panel's broadcasts: the dpotrf status of its diagonal block (an element, so that one
 * broadcast routine carries it), first, then its part's pieces. */
typedef struct slot {
  hpd_elem status;
  int pieces;
  hpd_bcast handles[1 + MAX_PIECES];
} slot;

typedef struct state {
  const hpd_chol *c;
  int upper, n, panels;
  int64_t span; /* where pieces are cut: at multiples of it, along */
  hpd_chol_line ln; /* rows across for 'U', columns for 'L' */
  hpd_elem *pairs[2]; /* pair k's parts in pairs[k % 2] */
  hpd_elem *gathered; /* a pair's rows for this process's indices across */
  slot slots[4];    /* panel p's in slots[p % 4]: two pairs are alive at a time */
} state;

typedef hpd_chol_panel panel;

static panel panel_at(const state *s, int p)
{
  return hpd_chol_panel_at(&s->ln, s->n, p);
}

/* sub(A)'s entry at index `along` along and `across` across, the latter one of this
 * process's. */
static hpd_elem *entry(const state *s, int64_t along, int64_t across)
{
  int64_t here = hpd_axis_local(&s->ln.across, across);
  int64_t r = s->upper ? here : along, c = s->upper ? along : here;
  return s->c->a + s->ln.row0 + r + (s->ln.col0 + c) * (int64_t)s->ln.lda;
}

/* Where panel p's part lives (rest x jb) and its leading dimension: the pair's. */
static hpd_elem *part_of(const state *s, int p, int *ld)
{
  int64_t rest = s->n - panel_at(s, p - p % 2).g1;
  *ld = rest > 0 ? (int)rest : 1;
  return s->pairs[p / 2 % 2] + (p % 2) * (s->ln.nb + (int64_t)s->ln.nb * *ld);
}

/* Copies rows [r0, r1) of panel p's part from A (at beyond: L's rest x jb rows, or U's
 * jb x rest columns, transposed here) to where its pair keeps it. */
static void keep(const state *s, int p, const hpd_elem *beyond, int64_t r0, int64_t r1,
                 int jb)
{
  int ld;
  hpd_elem *part = part_of(s, p, &ld) + r0;
  int64_t rest = r1 - r0;
  if (!s->upper) {
    for (int k = 0; k < jb; k++)
      memcpy(part + k * (int64_t)ld, beyond + r0 + k * (int64_t)s->ln.lda,
             (size_t)rest * sizeof *part);
    return;
  }
  beyond += r0 * (int64_t)s->ln.lda;
  /* U's columns are read in tiles of TILE, which stay in the first-level cache while
   * each of the tile's rows of part is written: element by element along U's columns,
   * every write of part touched a cache line of its own. */
  enum { TILE = 16 };
  for (int64_t r0 = 0; r0 < rest; r0 += TILE) {
    int64_t r1 = r0 + TILE < rest ? r0 + TILE : rest;
    for (int k = 0; k < jb; k++)
      for (int64_t r = r0; r < r1; r++)
        part[r + k * (int64_t)ld] = beyond[k + r * (int64_t)s->ln.lda];
  }
}

/* Piece j of panel p: rows [*r0, *r1) of its part, counted from its g1; the count of
 * pieces where r0 and r1 are NULL. */
static int piece_rows(const state *s, int p, int j, int64_t *r0, int64_t *r1)
{
  int64_t g1 = panel_at(s, p).g1, first_cut = (g1 / s->span + 1) * s->span;
  int count = g1 < s->n ? (int)((s->n - first_cut + s->span - 1) / s->span) + 1 : 0;
  if (r0) {
    int64_t from = j == 0 ? g1 : first_cut + (j - 1) * s->span, to = first_cut + j * s->span;
    *r0 = from - g1;
    *r1 = (to < s->n ? to : s->n) - g1;
  }
  return count;
}

/* Panel p on its owner, every earlier panel applied to its diagonal block: the block's
 * factor, and its status for the broadcast (dpotrf's INFO: a failed panel still travels,
 * unsolved). */
static void factor_diagonal(state *s, int p)
{
  panel pn = panel_at(s, p);
  int info = hpd_kernel_potrf(s->upper ? 'U' : 'L', pn.jb, entry(s, pn.g0, pn.g0), s->ln.lda);
  s->slots[p % 4].status = info;
}

/* Rows [r0, r1) of panel p's part on its owner, every earlier panel applied to them:
 * solved against the diagonal block's factor (unless it failed) and kept for the
 * broadcast. */
static void solve_rows(state *s, int p, int64_t r0, int64_t r1)
{
  panel pn = panel_at(s, p);
  hpd_elem *diag = entry(s, pn.g0, pn.g0), *beyond = entry(s, pn.g1 + r0, pn.g0);
  int rows = (int)(r1 - r0);
  if (s->slots[p % 4].status == 0 && rows > 0) {
    if (s->upper)
      hpd_l3_local_trsm('L', 'U', 'T', 'N', pn.jb, rows, 1.0, diag, s->ln.lda, beyond,
                        s->ln.lda);
    else
      hpd_l3_local_trsm('R', 'L', 'T', 'N', rows, pn.jb, 1.0, diag, s->ln.lda, beyond,
                        s->ln.lda);
  }
  keep(s, p, entry(s, pn.g1, pn.g0), r0, r1, pn.jb);
}

/* Panel p's broadcasts, in the same order on every process: its status, then each piece
 * (the owner's once solved). */
static void start_status(state *s, int p)
{
  panel pn = panel_at(s, p);
  slot *sl = &s->slots[p % 4];
  sl->pieces = piece_rows(s, p, 0, NULL, NULL);
  hpd_bcast_started(hpd_bcast_start(&sl->status, 1, pn.owner, s->ln.comm,
                                    hpd_grid_bcast(s->c->grid), &sl->handles[0]));
}

static void start_piece(state *s, int p, int j)
{
  panel pn = panel_at(s, p);
  int ld;
  int64_t r0, r1;
  piece_rows(s, p, j, &r0, &r1);
  hpd_elem *part = part_of(s, p, &ld);
  hpd_bcast_started(hpd_bcast_start_strided(part + r0, (size_t)(r1 - r0),
                                            (size_t)pn.jb, (size_t)ld, pn.owner, s->ln.comm,
                                            hpd_grid_bcast(s->c->grid),
                                            &s->slots[p % 4].handles[1 + j]));
}

static void start_all(state *s, int p)
{
  start_status(s, p);
  for (int j = 0; j < s->slots[p % 4].pieces; j++)
    start_piece(s, p, j);
}

/* Panel p whole on its owner, where no panel came before. */
static void factor_first(state *s, int p)
{
  factor_diagonal(s, p);
  start_status(s, p);
  for (int j = 0; j < s->slots[p % 4].pieces; j++) {
    int64_t r0, r1;
    piece_rows(s, p, j, &r0, &r1);
    solve_rows(s, p, r0, r1);
    start_piece(s, p, j);
  }
}

/* Moves a slot's broadcasts (a progress callback, triangle.h). */
static void poll_slot(void *arg)
{
  slot *sl = arg;
  hpd_bcast_test(sl->handles, 1 + sl->pieces);
}

/* The trailing matrix after panel p: this process's share of it. */
typedef struct trailing {
  hpd_triangle t;
  hpd_elem *c;
  int mloc, nloc, mine; /* mine: this process's indices across */
} trailing;

static trailing trailing_after(const state *s, int p)
{
  panel pn = panel_at(s, p);
  int64_t m = s->n - pn.g1;
  hpd_axis across = hpd_axis_from(&s->ln.across, pn.g1);
  hpd_axis along = hpd_axis_from(&s->ln.along, pn.g1);
  trailing tr = {.t = {.uplo = s->upper ? 'U' : 'L', .rows = s->upper ? across : along,
                       .cols = s->upper ? along : across, .m = m, .n = m, .b_is_a = 1}};
  *(s->upper ? &tr.t.myrow : &tr.t.mycol) = s->ln.me;
  tr.mine = (int)hpd_axis_count(&across, m, s->ln.me);
  tr.mloc = s->upper ? tr.mine : (int)m;
  tr.nloc = s->upper ? (int)m : tr.mine;
  int64_t before = hpd_axis_count(&s->ln.across, pn.g1, s->ln.me);
  tr.c = s->c->a + s->ln.row0 + (s->upper ? before : pn.g1) +
         (s->ln.col0 + (s->upper ? pn.g1 : before)) * (int64_t)s->ln.lda;
  return tr;
}

/* The trailing matrix's axis across: its rows ('U') or columns ('L'). */
static const hpd_axis *across_in(const state *s, const trailing *tr)
{
  return s->upper ? &tr->t.rows : &tr->t.cols;
}

/* Panels' rows from a trailing matrix's first index on, side by side: L (m x width). */
typedef struct operand {
  const hpd_elem *l;
  int ld, width;
} operand;

/* Panel p alone, for the trailing matrix after p. */
static operand panel_operand(const state *s, int p)
{
  operand op = {.width = panel_at(s, p).jb};
  op.l = part_of(s, p, &op.ld);
  return op;
}

/* Pair k's panels, for the trailing matrix after its second; width nb takes the first
 * panel alone. */
static operand pair_operand(const state *s, int k, int width)
{
  operand op = {.width = width};
  op.l = part_of(s, 2 * k, &op.ld) + s->ln.nb;
  return op;
}

/* The operand's rows for this process's indices across, in local order (mine x width). */
static void gather(const state *s, const trailing *tr, const operand *op)
{
  hpd_axis_runs runs = {across_in(s, tr), s->ln.me, 0, tr->mine};
  int64_t l, g, len;
  while (hpd_axis_next_run(&runs, &l, &g, &len))
    for (int k = 0; k < op->width; k++)
      memcpy(s->gathered + l + (int64_t)k * tr->mine, op->l + g + (int64_t)k * op->ld,
             (size_t)len * sizeof(hpd_elem));
}

/* The trailing update on this process's indices across [i0, i1): C -= L L' on columns
 * ('L') or on rows ('U', where L is U').  `mine` holds L's rows for those indices from
 * i0 on, ld_mine apart: the gathered ones, or L itself where the range starts the
 * trailing matrix and is one block. */
static void apply_along(const state *s, const trailing *tr, const operand *op,
                        const hpd_elem *mine, int ld_mine, int64_t i0, int64_t i1, int64_t a0,
                        int64_t a1, const hpd_progress *progress)
{
  if (i0 >= i1 || a0 >= a1)
    return;
  hpd_share_part part = s->upper ? (hpd_share_part){i0, i1, a0, a1}
                                 : (hpd_share_part){a0, a1, i0, i1};
  const hpd_elem *a = s->upper ? mine : op->l + a0, *b = s->upper ? op->l + a0 : mine;
  int lda = s->upper ? ld_mine : op->ld, ldb = s->upper ? op->ld : ld_mine;
  hpd_triangle_update_part(&tr->t, 'N', 'T', op->width, -1.0, a, lda, b, ldb, NULL, tr->c,
                           s->ln.lda, tr->mloc, tr->nloc, &part, progress);
}

/* The same on every index along: the trailing matrix's whole rows ('U') or columns. */
static void apply(const state *s, const trailing *tr, const operand *op, const hpd_elem *mine,
                  int ld_mine, int64_t i0, int64_t i1, const hpd_progress *progress)
{
  apply_along(s, tr, op, mine, ld_mine, i0, i1, 0, tr->t.m, progress);
}

/* The triangle's entries on this process's indices across [i0, i1) of a trailing
 * matrix. */
static double entries(const state *s, const trailing *tr, int64_t i0, int64_t i1)
{
  hpd_axis_runs runs = {across_in(s, tr), s->ln.me, i0, i1};
  int64_t l, g, len;
  double sum = 0;
  while (hpd_axis_next_run(&runs, &l, &g, &len))
    sum += (double)len * (double)(tr->t.m - g) - 0.5 * (double)len * (double)(len - 1);
  return sum;
}

/* What the owner of panel q does before sending it, in multiply flops: its block's
 * update by width w, then its solve (counted 1.5 times: slower than a multiply). */
static double lead_flops(const state *s, int q, int w)
{
  panel pn = panel_at(s, q);
  double rows = (double)(s->n - pn.g0), jb = pn.jb;
  return 2.0 * w * jb * rows + 1.5 * (rows - jb) * jb * jb;
}

/* Where a pair's update of this process's share after its second panel p divides between
 * step p and step p+1: the first local index of the second half.  The halves are chosen
 * so that each step has the same work here, counting what a step does before its window
 * (the owner of the panel it sends applies and factors it first), with the block after
 * next always in the first half, since step p+1 factors it. */
static int64_t second_half(const state *s, const trailing *tr, int p)
{
  int64_t lead = 0, m = tr->t.m;
  double per_entry = 2.0 * (s->ln.nb + panel_at(s, p).jb), before = 0, after = 0;
  if (p + 1 < s->panels && panel_at(s, p + 1).owner == s->ln.me) {
    lead = panel_at(s, p + 1).jb;
    before = lead_flops(s, p + 1, s->ln.nb + panel_at(s, p).jb);
  }
  if (p + 2 < s->panels && panel_at(s, p + 2).owner == s->ln.me)
    after = lead_flops(s, p + 2, panel_at(s, p + 1).jb);
  int64_t next_block = 2 * (int64_t)s->ln.nb < m ? 2 * (int64_t)s->ln.nb : m;
  int64_t lo = hpd_axis_count(across_in(s, tr), next_block, s->ln.me), hi = tr->mine;
  lo = lo > lead ? lo : lead;
  while (lo < hi) { /* the first x whose first half outweighs its second */
    int64_t x = lo + (hi - lo) / 2;
    double first = per_entry * entries(s, tr, lead, x) + before;
    if (first >= per_entry * entries(s, tr, x, tr->mine) + after)
      hi = x;
    else
      lo = x + 1;
  }
  return lo;
}

/* At even step p, the second half of the pair before it (panels p-2 and p-1). */
static void finish_pair(const state *s, int p, const hpd_progress *progress)
{
  trailing pair = trailing_after(s, p - 1);
  operand op = pair_operand(s, p / 2 - 1, s->ln.nb + panel_at(s, p - 1).jb);
  int64_t i0 = second_half(s, &pair, p - 1);
  apply(s, &pair, &op, s->gathered + i0, pair.mine, i0, pair.mine, progress);
}

/* What step p applies first: at odd p the pair it completes (k = p / 2), at even p panel p
 * alone, which begins pair k. */
static operand lead_operand(const state *s, int p)
{
  return p % 2 ? pair_operand(s, p / 2, s->ln.nb + panel_at(s, p).jb) : panel_operand(s, p);
}

/*
 * Step p on the owner of panel p+1, which needs from panel p only its block's share:
 * panel p's pieces as they arrive, each applied to the rows of that block it covers; the
 * block's diagonal factored once the first piece is in, and each piece of panel p+1
 * solved and sent as soon as panel p's pieces cover its rows.  Returns panel p's status:
 * where it failed, nothing of panel p+1 is done and panel p's later pieces may still be
 * travelling.
 */
static int lead(state *s, int p, hpd_factor_run *run)
{
  slot *in = &s->slots[p % 4];
  int jb = panel_at(s, p + 1).jb, out = 0, sent = 0;
  trailing tr = trailing_after(s, p);
  operand op = lead_operand(s, p);
  for (int j = 0; j < in->pieces; j++) {
    int64_t r0, r1;
    piece_rows(s, p, j, &r0, &r1);
    hpd_factor_run_wait(run, &in->handles[j == 0 ? 0 : 1 + j], j == 0 ? 2 : 1,
                        (size_t)(r1 - r0) * (size_t)panel_at(s, p).jb * sizeof(hpd_elem));
    if (j == 0 && in->status != 0)
      return (int)in->status;
    apply_along(s, &tr, &op, op.l, op.ld, 0, jb, r0, r1, NULL);
    if (j == 0) {
      factor_diagonal(s, p + 1);
      start_status(s, p + 1);
      out = s->slots[(p + 1) % 4].pieces;
    }
    for (int64_t q0, q1; sent < out; sent++) { /* q's rows are jb below p's */
      piece_rows(s, p + 1, sent, &q0, &q1);
      if (q1 + jb > r1)
        break;
      solve_rows(s, p + 1, q0, q1);
      start_piece(s, p + 1, sent);
    }
  }
  return 0;
}

/*
 * The rest of step p, once panel p is in everywhere and panel p+1's broadcasts have
 * started: odd p applies the pair it completes to the first half of the rest of this
 * process's share, even p the pair before to the second half, while panel p+1 travels.
 */
static void step(state *s, int p)
{
  trailing tr = trailing_after(s, p);
  int next = p + 1 < s->panels;
  int64_t lead = next && panel_at(s, p + 1).owner == s->ln.me ? panel_at(s, p + 1).jb : 0;
  hpd_progress progress = {poll_slot, &s->slots[(p + 1) % 4], HPD_POLL_FLOPS};
  if (p % 2) {
    operand op = lead_operand(s, p);
    gather(s, &tr, &op);
    apply(s, &tr, &op, s->gathered + lead, tr.mine, lead, second_half(s, &tr, p),
          next ? &progress : NULL);
  } else if (p >= 2) {
    finish_pair(s, p, next ? &progress : NULL);
  }
}

/* Panel p failed: what the panels before it still owe the trailing matrix after it,
 * so that PDPOTRF's state is left (every earlier panel applied to everything).  Even p:
 * pair p/2-1's second half; odd p: panel p-1, which so far reached panel p's block only. */
static void settle(state *s, int p)
{
  if (p % 2 == 0) {
    if (p >= 2)
      finish_pair(s, p, NULL);
    return;
  }
  trailing tr = trailing_after(s, p);
  operand first = pair_operand(s, p / 2, s->ln.nb);
  gather(s, &tr, &first);
  apply(s, &tr, &first, s->gathered, tr.mine, 0, tr.mine, NULL);
}

static state state_of(const hpd_chol *c, hpd_elem *space)
{
  state s = {.c = c, .upper = c->upper, .n = c->n, .ln = hpd_chol_line_of(c, c->upper)};
  s.panels = (s.n + s.ln.nb - 1) / s.ln.nb;
  int64_t blocks = s.panels, nb = s.ln.nb;
  int64_t least = SPAN_BYTES / ((int64_t)sizeof(hpd_elem) * nb * nb) * nb;
  int64_t fewest = (blocks + MAX_PIECES - 2) / (MAX_PIECES - 1) * nb;
  s.span = least > fewest ? least : fewest;
  s.span = s.span > nb ? s.span : nb;
  size_t per_pair = 2 * (size_t)s.n * (size_t)s.ln.nb;
  s.pairs[0] = space;
  s.pairs[1] = space + per_pair;
  s.gathered = space + 2 * per_pair;
  return s;
}

uint64_t hpd_chol_bytes(const hpd_chol *c)
{
  hpd_axis across = hpd_chol_across(c, c->upper);
  uint64_t nb = (uint64_t)c->sub.desc[HPD_NB];
  uint64_t most = (uint64_t)hpd_axis_max_count(&across, c->n);
  uint64_t entries = 4 * (uint64_t)c->n * nb + most * 2 * nb;
  return entries * sizeof(hpd_elem);
}

int hpd_chol_factor(const hpd_chol *c, hpd_elem *space)
{
  state s = state_of(c, space);
  hpd_factor_run run;
  hpd_factor_run_begin(&run);
  if (panel_at(&s, 0).owner == s.ln.me)
    factor_first(&s, 0);
  else
    start_all(&s, 0);
  int failed = 0;
  for (int p = 0; p < s.panels && !failed; p++) {
    panel pn = panel_at(&s, p);
    slot *sl = &s.slots[p % 4];
    int next = p + 1 < s.panels, status;
    if (next && panel_at(&s, p + 1).owner == s.ln.me) {
      status = lead(&s, p, &run);
      if (status != 0)
        hpd_bcast_wait(sl->handles, 1 + sl->pieces);
    } else {
      /* The status first, so that panel p+1's receives are posted before panel p's pieces
       * are waited for: the root's own sends of p complete only once the link has carried
       * them, where MPI buffers nothing, and p+1 would not leave its owner before. */
      hpd_bcast_wait(sl->handles, 1);
      status = (int)sl->status;
      if (status == 0 && next)
        start_all(&s, p + 1);
      hpd_factor_run_wait(&run, sl->handles + 1, sl->pieces,
                          (size_t)(s.n - pn.g1) * (size_t)pn.jb * sizeof(hpd_elem));
    }
    if (status != 0) {
      settle(&s, p);
      failed = (int)pn.g0 + status;
    } else {
      step(&s, p);
    }
  }
  hpd_factor_run_end(&run, HPD_ROUTINE_PDPOTRF, s.panels, hpd_chol_bytes(c));
  return failed;
}
