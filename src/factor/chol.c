#include "chol.h"

#include "../level3/local.h" /* pdgemm/ has a local.h of its own */
#include "bcast.h"
#include "lookahead.h"
#include "scalapack_api.h"
#include "summa.h"
#include "triangle.h"

/* A panel's broadcast: its rows below the diagonal block, and the dpotrf status of its
 * diagonal block (a double, so that one broadcast routine carries both). */
typedef struct slot {
  double *rows; /* where this process receives them (the owner sends from A itself) */
  double status;
  hpd_bcast handles[2];
} slot;

typedef struct state {
  const hpd_chol *c;
  int n, nb, lda, npcol, mycol;
  int64_t row0, col0; /* sub(A)'s first local row; the local columns before sub(A) here */
  hpd_axis rows, cols;
  MPI_Comm comm; /* the process row: ranked by process column */
  double *gathered; /* L's rows for this process's columns, gathered (triangle.h) */
  slot slots[2];    /* panel p travels in slots[p % 2] while panel p-1 is applied */
} state;

typedef struct panel {
  int64_t g0, g1; /* sub(A)'s columns [g0, g1) */
  int jb, owner;
} panel;

static panel panel_at(const state *s, int p)
{
  panel pn = {.g0 = (int64_t)p * s->nb};
  pn.g1 = pn.g0 + s->nb < s->n ? pn.g0 + s->nb : s->n;
  pn.jb = (int)(pn.g1 - pn.g0);
  pn.owner = hpd_axis_owner(&s->cols, pn.g0);
  return pn;
}

/* sub(A)'s entry (r, g), g one of this process's columns. */
static double *entry(const state *s, int64_t r, int64_t g)
{
  return s->c->a + s->row0 + r + (s->col0 + hpd_axis_local(&s->cols, g)) * (int64_t)s->lda;
}

/* Panel p on its owner, every earlier panel applied to it: the diagonal block's
 * factor, then the rows below solved against it.  The status is dpotrf's INFO. */
static void factor(state *s, int p)
{
  panel pn = panel_at(s, p);
  double *diag = entry(s, pn.g0, pn.g0);
  int info = 0, below = (int)(s->n - pn.g1);
  dpotrf_("L", &pn.jb, diag, &s->lda, &info);
  if (info == 0 && below > 0)
    hpd_l3_local_trsm('R', 'L', 'T', 'N', below, pn.jb, 1.0, diag, s->lda, diag + pn.jb,
                      s->lda);
  s->slots[p % 2].status = info;
}

/* Starts panel p's broadcasts, in the same order on every process.  A failed panel
 * still travels (unsolved), so that every process starts the same broadcasts. */
static void start(state *s, int p)
{
  panel pn = panel_at(s, p);
  slot *sl = &s->slots[p % 2];
  size_t below = (size_t)(s->n - pn.g1);
  int own = pn.owner == s->mycol;
  double *from = own ? entry(s, pn.g1, pn.g0) : sl->rows;
  size_t ld = own ? (size_t)s->lda : below > 0 ? below : 1;
  hpd_bcast_start_strided(from, below, (size_t)pn.jb, ld, pn.owner, s->comm,
                          &sl->handles[0]);
  hpd_bcast_start(&sl->status, 1, pn.owner, s->comm, &sl->handles[1]);
}

/* The trailing matrix after panel p: this process's share and L's rows below it. */
typedef struct trailing {
  hpd_triangle t;
  double *c;
  int mloc, nloc;
  const double *l;
  int ldl;
} trailing;

static trailing trailing_after(const state *s, int p)
{
  panel pn = panel_at(s, p);
  int64_t m = s->n - pn.g1;
  trailing tr = {.t = {.uplo = 'L', .rows = hpd_axis_from(&s->rows, pn.g1),
                       .cols = hpd_axis_from(&s->cols, pn.g1), .mycol = s->mycol,
                       .m = m, .n = m, .b_is_a = 1},
                 .mloc = (int)m};
  tr.nloc = (int)hpd_axis_count(&tr.t.cols, m, s->mycol);
  tr.c = s->c->a + s->row0 + pn.g1 +
         (s->col0 + hpd_axis_count(&s->cols, pn.g1, s->mycol)) * (int64_t)s->lda;
  int own = pn.owner == s->mycol;
  tr.l = own ? entry(s, pn.g1, pn.g0) : s->slots[p % 2].rows;
  tr.ldl = own ? s->lda : (int)(m > 0 ? m : 1);
  return tr;
}

/* C -= L * L' on the columns [c0, c1) of this process's share; the first call of a step
 * gathers L's rows for the share's columns, later ones reuse them. */
static void apply(const state *s, const trailing *tr, int jb, int64_t c0, int64_t c1,
                  int gather, const hpd_progress *progress)
{
  hpd_share_part part = {0, tr->mloc, c0, c1};
  const double *b = gather ? tr->l : s->gathered + c0;
  int ldb = gather ? tr->ldl : tr->nloc;
  hpd_triangle_update_part(&tr->t, 'N', 'T', jb, -1.0, tr->l, tr->ldl, b, ldb,
                           gather ? s->gathered : NULL, tr->c, s->lda, tr->mloc, tr->nloc,
                           &part, progress);
}

/* Step p: panel p is applied everywhere, and panel p+1 factored and sent out first. */
static void step(state *s, int p, int panels)
{
  panel pn = panel_at(s, p);
  trailing tr = trailing_after(s, p);
  if (p + 1 >= panels) {
    apply(s, &tr, pn.jb, 0, tr.nloc, 1, NULL);
    return;
  }
  int64_t lead = 0;
  if (panel_at(s, p + 1).owner == s->mycol) {
    lead = panel_at(s, p + 1).jb; /* its columns are the first of this share */
    apply(s, &tr, pn.jb, 0, lead, 1, NULL);
    factor(s, p + 1);
  }
  start(s, p + 1);
  hpd_progress progress = {hpd_factor_poll, s->slots[(p + 1) % 2].handles, HPD_POLL_FLOPS};
  apply(s, &tr, pn.jb, lead, tr.nloc, lead == 0, &progress);
}

static state state_of(const hpd_chol *c, double *space)
{
  const hpd_call *call = c->call;
  state s = {.c = c, .n = c->n, .nb = c->sub.desc[HPD_NB], .lda = c->sub.desc[HPD_LLD],
             .npcol = call->npcol, .mycol = call->mycol,
             .row0 = hpd_matrix_row0(&c->sub, 1, 0),
             .col0 = hpd_matrix_col0(&c->sub, call->npcol, call->mycol),
             .rows = hpd_matrix_rows(&c->sub, 1),
             .cols = hpd_matrix_cols(&c->sub, call->npcol), .comm = c->grid->row};
  size_t per_slot = (size_t)s.n * (size_t)s.nb;
  s.slots[0].rows = space;
  s.slots[1].rows = space + per_slot;
  s.gathered = space + 2 * per_slot;
  return s;
}

uint64_t hpd_chol_bytes(const hpd_chol *c)
{
  hpd_axis cols = hpd_matrix_cols(&c->sub, c->call->npcol);
  uint64_t nb = (uint64_t)c->sub.desc[HPD_NB];
  uint64_t entries = 2 * (uint64_t)c->n * nb + (uint64_t)hpd_axis_max_count(&cols, c->n) * nb;
  return entries * sizeof(double);
}

int hpd_chol_lower(const hpd_chol *c, double *space)
{
  state s = state_of(c, space);
  int panels = (s.n + s.nb - 1) / s.nb;
  hpd_factor_run run;
  hpd_factor_run_begin(&run);
  if (panel_at(&s, 0).owner == s.mycol)
    factor(&s, 0);
  start(&s, 0);
  int failed = 0;
  for (int p = 0; p < panels && !failed; p++) {
    panel pn = panel_at(&s, p);
    hpd_factor_run_wait(&run, s.slots[p % 2].handles, 2,
                        (size_t)(s.n - pn.g1) * (size_t)pn.jb * sizeof(double));
    int status = (int)s.slots[p % 2].status;
    if (status != 0)
      failed = (int)pn.g0 + status;
    else
      step(&s, p, panels);
  }
  hpd_factor_run_end(&run, HPD_ROUTINE_PDPOTRF, panels, hpd_chol_bytes(c));
  return failed;
}
