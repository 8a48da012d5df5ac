#include "pdgemm/summa_pieces.h"

#include "pdgemm/gathered.h"
#include "pdgemm/local.h"
#include "phase/phase.h"

/* Pieces kept in flight at once: the next one is always queued behind the one arriving,
 * and no more, so that the link carries them in order. */
#define IN_FLIGHT 2

typedef struct pieces {
  const hpd_summa *s;
  hpd_group *grp, *next;
  int split_a;       /* 1: A's panels by rows; 0: B's by columns */
  int64_t extent;    /* rows (A) or columns (B) of this process's share that are cut */
  int64_t width;     /* the group's columns */
  int panels;        /* panels in the group */
  int whole;         /* handles of B's whole panels, ahead of the pieces' */
  int count, started, done;
  int bottom_up;     /* pieces visited from the last one back */
  int next_started;
} pieces;

static void piece_range(const pieces *pc, int p, int64_t *lo, int64_t *hi)
{
  int q = pc->bottom_up ? pc->count - 1 - p : p;
  int64_t size = (pc->extent + pc->count - 1) / pc->count;
  *lo = q * size < pc->extent ? q * size : pc->extent;
  *hi = *lo + size < pc->extent ? *lo + size : pc->extent;
}

/* Where piece p lies: a packed (hi-lo) x width block, its panels side by side. */
static hpd_elem *piece_block(const pieces *pc, int p)
{
  int64_t lo, hi;
  piece_range(pc, p, &lo, &hi);
  hpd_elem *buf = pc->split_a ? pc->grp->abuf : pc->grp->bbuf;
  return buf + lo * pc->width;
}

static hpd_bcast *piece_handles(const pieces *pc, int p)
{
  return pc->grp->handles + pc->whole + p * pc->panels;
}

static void start_piece(pieces *pc, int p)
{
  const hpd_summa *s = pc->s;
  int64_t lo, hi;
  piece_range(pc, p, &lo, &hi);
  hpd_elem *block = piece_block(pc, p);
  hpd_bcast *h = piece_handles(pc, p);
  /* Started while others travel, at a different moment on each rank: no chunk trials
   * here (they are collective and would time a shared link); an untuned size class
   * takes the provisional chunk. */
  hpd_bcast_how how = *hpd_grid_bcast(s->grid);
  how.hold_tuning |= p >= IN_FLIGHT;
  int used = 0;
  for (int64_t k0 = pc->grp->g0, k1; k0 < pc->grp->g1; k0 = k1) {
    k1 = hpd_panel_end(s->panels, k0);
    int64_t w = k1 - k0;
    hpd_elem *dst = block + (k0 - pc->grp->g0) * (hi - lo);
    if (pc->split_a) {
      int root = hpd_axis_owner(&s->a->k, k0);
      if (root == s->mycol)
        hpd_local_pack_a(s->a, k0, w, lo, hi - lo, dst);
      hpd_bcast_started(hpd_bcast_start(dst, (size_t)(w * (hi - lo)), root, s->grid->row,
                                        &how, &h[used++]));
    } else {
      int root = hpd_axis_owner(&s->b->k, k0);
      if (root == s->myrow)
        hpd_local_pack_b(s->b, k0, w, lo, hi - lo, dst);
      hpd_bcast_started(hpd_bcast_start(dst, (size_t)(w * (hi - lo)), root, s->grid->col,
                                        &how, &h[used++]));
    }
  }
}

/* Keeps IN_FLIGHT pieces started ahead of those complete; once all are complete, starts
 * the next group. */
static void feed(pieces *pc)
{
  while (pc->started < pc->count && pc->started < pc->done + IN_FLIGHT)
    start_piece(pc, pc->started++);
  if (pc->done == pc->count && pc->next && !pc->next_started) {
    hpd_group_start(pc->s, pc->next, 0);
    pc->next_started = 1;
  }
}

static void poll_pieces(void *arg)
{
  pieces *pc = arg;
  while (pc->done < pc->started && hpd_bcast_test(piece_handles(pc, pc->done), pc->panels))
    pc->done++;
  feed(pc);
  if (pc->next_started)
    hpd_bcast_test(pc->next->handles, pc->next->used);
}

static void wait_piece(pieces *pc, int p)
{
  while (pc->done <= p) {
    hpd_bcast_wait(piece_handles(pc, pc->done), pc->panels);
    pc->done++;
    feed(pc);
  }
}

/* pdsyrk on one process row: B's rows for the columns of sub(C) whose global index is
 * one of piece p's rows, from the piece into the group's B buffer (nloc x width). */
static void gather_piece(const pieces *pc, int p)
{
  const hpd_summa *s = pc->s;
  int64_t lo, hi;
  piece_range(pc, p, &lo, &hi);
  const hpd_elem *block = piece_block(pc, p);
  for (int64_t j = 0; j < s->nloc; j++) {
    int64_t g = hpd_axis_global(&s->triangle->cols, j, s->mycol);
    if (g < lo || g >= hi)
      continue;
    for (int64_t t = 0; t < pc->width; t++)
      pc->grp->bbuf[j + t * s->nloc] = block[(g - lo) + t * (hi - lo)];
  }
}

static void multiply_piece(pieces *pc, int p, const hpd_progress *progress)
{
  const hpd_summa *s = pc->s;
  int64_t lo, hi;
  piece_range(pc, p, &lo, &hi);
  const hpd_elem *block = piece_block(pc, p);
  int w = (int)pc->width, ld = (int)(hi - lo);
  char ta = 'N', tb = 'T';
  if (pc->split_a) {
    const hpd_elem *b = pc->grp->bbuf;
    int ldb = s->nloc;
    if (s->b->from_a)
      gather_piece(pc, p);
    else if (!s->b->travels) {
      b = hpd_local_view_b(s->b, pc->grp->g0, &tb);
      ldb = s->b->ld;
    }
    hpd_share_part part = {lo, hi, 0, s->nloc};
    hpd_summa_update_part(s, pc->grp->g0, pc->grp->g1, ta, tb, w, block, ld, b, ldb, NULL,
                          &part, progress);
  } else {
    const hpd_elem *a = hpd_local_view_a(s->a, pc->grp->g0, &ta);
    hpd_share_part part = {0, s->mloc, lo, hi};
    hpd_summa_update_part(s, pc->grp->g0, pc->grp->g1, ta, tb, w, a, s->a->ld, block, ld,
                          NULL, &part, progress);
  }
}

/* The owner of a one-panel group's travelling operand, when the other one is local
 * too: it has everything it multiplies. */
static int owns_everything(const pieces *pc)
{
  const hpd_summa *s = pc->s;
  if (hpd_panel_end(s->panels, pc->grp->g0) != pc->grp->g1 || s->b->from_a)
    return 0;
  if (pc->split_a)
    return !s->b->travels && hpd_axis_owner(&s->a->k, pc->grp->g0) == s->mycol;
  return hpd_axis_owner(&s->b->k, pc->grp->g0) == s->myrow;
}

static void multiply_own(const pieces *pc, const hpd_progress *progress)
{
  const hpd_summa *s = pc->s;
  char ta, tb;
  const hpd_elem *a = hpd_local_view_a(s->a, pc->grp->g0, &ta);
  const hpd_elem *b = hpd_local_view_b(s->b, pc->grp->g0, &tb);
  hpd_triangle_update(s->triangle, ta, tb, (int)pc->width, s->alpha, a, s->a->ld, b,
                      s->b->ld, NULL, s->c, s->ldc, s->mloc, s->nloc, progress);
}

/* A gathered group needs no pieces: the columns whose B rows are local multiply while
 * the other process rows' rows travel. */
static void gathered_run(const hpd_summa *s, hpd_group *grp, hpd_group *next)
{
  hpd_phase_mark(HPD_PHASE_BROADCAST);
  hpd_group_start(s, grp, 0);
  hpd_phase_mark(HPD_PHASE_MULTIPLY);
  hpd_progress progress = {hpd_group_poll, grp, HPD_POLL_FLOPS};
  hpd_gathered_multiply(s, grp, HPD_GATHERED_OWN, &progress);
  hpd_phase_mark(HPD_PHASE_BROADCAST);
  hpd_bcast_wait(grp->handles, grp->used);
  if (next)
    hpd_group_start(s, next, 0);
  hpd_phase_mark(HPD_PHASE_MULTIPLY);
  progress.arg = next;
  hpd_gathered_multiply(s, grp, HPD_GATHERED_OTHERS, next ? &progress : NULL);
}

int hpd_pieces_fit(const hpd_summa *s, int64_t extent)
{
  int64_t fit = extent / HPD_PIECE_EXTENT;
  return fit < 1 ? 1 : fit > s->pieces ? s->pieces : (int)fit;
}

void hpd_pieces_run(const hpd_summa *s, hpd_group *grp, hpd_group *next)
{
  if (s->b->gathered) {
    gathered_run(s, grp, next);
    return;
  }
  pieces pc = {.s = s, .grp = grp, .next = next, .split_a = s->a->travels,
               .width = grp->g1 - grp->g0};
  for (int64_t k0 = grp->g0; k0 < grp->g1; k0 = hpd_panel_end(s->panels, k0))
    pc.panels++;
  pc.extent = pc.split_a ? s->mloc : s->nloc;
  pc.count = hpd_pieces_fit(s, pc.extent);
  pc.bottom_up = s->b->from_a && s->triangle->uplo == 'U';
  if (pc.split_a && s->b->travels) {
    hpd_group_start(s, grp, 1);
    pc.whole = grp->used;
  }
  hpd_progress progress = {poll_pieces, &pc, HPD_POLL_FLOPS};

  hpd_phase_mark(HPD_PHASE_BROADCAST);
  feed(&pc);
  if (owns_everything(&pc)) {
    hpd_phase_mark(HPD_PHASE_MULTIPLY);
    multiply_own(&pc, &progress);
    hpd_phase_mark(HPD_PHASE_BROADCAST);
    wait_piece(&pc, pc.count - 1);
  } else {
    hpd_bcast_wait(grp->handles, pc.whole);
    for (int p = 0; p < pc.count; p++) {
      if (p > 0 && pc.done <= p)
        hpd_phase_mark(HPD_PHASE_BROADCAST);
      wait_piece(&pc, p);
      hpd_phase_mark(HPD_PHASE_MULTIPLY);
      multiply_piece(&pc, p, &progress);
    }
  }
  feed(&pc); /* the next group, if the last piece completed only in the last wait */
  grp->used = pc.whole + pc.count * pc.panels;
}
