#include "level3/pieces.h"

#include "core/stats.h"
#include "pblas/reference.h"
#include "pdgemm/engine.h"
#include "phase/spent.h"
#include "phase/phase.h"

hpd_matrix hpd_l3_sub(const hpd_matrix *x, int di, int dj)
{
  hpd_matrix sub = *x;
  sub.i += di;
  sub.j += dj;
  return sub;
}

int hpd_l3_split(const hpd_l3 *l3, const hpd_matrix *a, int k)
{
  hpd_axis rows = hpd_matrix_rows(a, l3->call.nprow);
  int64_t boundary = rows.first;
  if (boundary >= k)
    return 0;
  int64_t half = k / 2;
  if (half > boundary)
    boundary += (half - boundary + rows.nb / 2) / rows.nb * rows.nb;
  if (boundary >= k)
    boundary -= rows.nb;
  return (int)boundary;
}

/* The call's grid position, for a piece. */
static hpd_call piece_of(const hpd_l3_run *run)
{
  const hpd_call *whole = &run->l3->call;
  return (hpd_call){.ictxt = whole->ictxt, .nprow = whole->nprow, .npcol = whole->npcol,
                    .myrow = whole->myrow, .mycol = whole->mycol,
                    .zeros_in = run->zeros_in, .zeros_uplo = run->zeros_uplo};
}

void hpd_l3_multiply(hpd_l3_run *run, char ta, char tb, int m, int n, int k, hpd_elem alpha,
                     const hpd_elem *a, const hpd_matrix *am, const hpd_elem *b,
                     const hpd_matrix *bm, hpd_elem beta, hpd_elem *c, const hpd_matrix *cm)
{
  if (m == 0 || n == 0)
    return;
  hpd_call piece = piece_of(run);
  piece.transa = ta, piece.transb = tb;
  piece.m = m, piece.n = n, piece.k = k;
  piece.alpha = alpha, piece.beta = beta;
  piece.a = a, piece.b = b, piece.c = c;
  piece.A = *am, piece.B = *bm, piece.C = *cm;
  int verdict = hpd_engine_serve(&piece, run->l3->routine, run->grid);
  if (verdict == HPD_SERVED_BY_ENGINE)
    return;
  if (run->reason == HPD_SERVED_BY_ENGINE)
    run->reason = verdict;
  int ia = am->i + 1, ja = am->j + 1, ib = bm->i + 1, jb = bm->j + 1, ic = cm->i + 1,
      jc = cm->j + 1;
  hpd_reference_pdgemm()(&ta, &tb, &m, &n, &k, &alpha, a, &ia, &ja, am->desc, b, &ib, &jb,
                         bm->desc, &beta, c, &ic, &jc, cm->desc);
}

void hpd_l3_scale(hpd_l3_run *run, int m, int n, hpd_elem beta, hpd_elem *c,
                  const hpd_matrix *cm)
{
  hpd_l3_multiply(run, 'N', 'N', m, n, 0, 0.0, c, cm, c, cm, beta, c, cm);
}

void hpd_l3_overlapped(const hpd_l3_run *run, uint64_t bytes_held, void (*work)(void *),
                       void *arg)
{
  hpd_routine routine = run->l3->routine;
  hpd_spent_set_up(run->grid);
  hpd_spent spent;
  hpd_spent_start(&spent);
  hpd_phase_enter(HPD_STRATEGY_NONE, 0, HPD_PHASE_MULTIPLY);
  work(arg);
  hpd_phase_mark(HPD_PHASE_OTHER);
  hpd_spent_record(&spent, routine, hpd_strategy_booked(), 0);
  hpd_stats_record_grouping(routine, 1, 1, bytes_held, bytes_held);
}
