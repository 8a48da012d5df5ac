#include "chol.h"

#include <string.h>

#include "../level3/local.h" /* pdgemm/ has a local.h of its own */
#include "bcast.h"
#include "lookahead.h"
#include "scalapack_api.h"
#include "summa.h"
#include "triangle.h"

/* The lower factor on a 1 x Q grid and the upper one on a P x 1 grid are one algorithm,
 * transposed: the panels are dealt over the grid's line along one dimension ("across":
 * columns for 'L', rows for 'U'), and every process holds the other one whole
 * ("along").  Panel p is then sub(A)'s block of indices [g0, g1) across, and its part
 * from g1 on along is L's rows below the diagonal block ('L') or U's columns right of it
 * ('U'). */

/* A panel's broadcast: that part, and the dpotrf status of its diagonal block (a double,
 * so that one broadcast routine carries both). */
typedef struct slot {
  double *part; /* where this process receives it (the owner sends from A itself) */
  double status;
  hpd_bcast handles[2];
} slot;

typedef struct state {
  const hpd_chol *c;
  int upper, n, nb, lda, me;
  int64_t row0, col0; /* sub(A)'s first entry in the local array */
  hpd_axis across, along;
  MPI_Comm comm;    /* the grid's line, ranked by position across */
  double *gathered; /* the panel's part for this process's indices across (triangle.h) */
  slot slots[2];    /* panel p travels in slots[p % 2] while panel p-1 is applied */
} state;

typedef struct panel {
  int64_t g0, g1; /* sub(A)'s indices [g0, g1) across */
  int jb, owner;
} panel;

static panel panel_at(const state *s, int p)
{
  panel pn = {.g0 = (int64_t)p * s->nb};
  pn.g1 = pn.g0 + s->nb < s->n ? pn.g0 + s->nb : s->n;
  pn.jb = (int)(pn.g1 - pn.g0);
  pn.owner = hpd_axis_owner(&s->across, pn.g0);
  return pn;
}

/* sub(A)'s entry at index `along` along and `across` across, the latter one of this
 * process's. */
static double *entry(const state *s, int64_t along, int64_t across)
{
  int64_t here = hpd_axis_local(&s->across, across);
  int64_t r = s->upper ? here : along, c = s->upper ? along : here;
  return s->c->a + s->row0 + r + (s->col0 + c) * (int64_t)s->lda;
}

/* Panel p on its owner, every earlier panel applied to it: the diagonal block's
 * factor, then its part beyond solved against it.  The status is dpotrf's INFO. */
static void factor(state *s, int p)
{
  panel pn = panel_at(s, p);
  double *diag = entry(s, pn.g0, pn.g0), *beyond = entry(s, pn.g1, pn.g0);
  int info = 0, rest = (int)(s->n - pn.g1);
  dpotrf_(s->upper ? "U" : "L", &pn.jb, diag, &s->lda, &info);
  if (info == 0 && rest > 0) {
    if (s->upper)
      hpd_l3_local_trsm('L', 'U', 'T', 'N', pn.jb, rest, 1.0, diag, s->lda, beyond, s->lda);
    else
      hpd_l3_local_trsm('R', 'L', 'T', 'N', rest, pn.jb, 1.0, diag, s->lda, beyond, s->lda);
  }
  s->slots[p % 2].status = info;
}

/* The panel's part as this process reads it: L's rows from A on their owner, else where
 * they were received (packed, rest x jb); U's columns always packed (jb x rest), since
 * their runs in A are only jb long, and a broadcast's chunks never cross a run. */
static const double *part_of(const state *s, int p, int *ld)
{
  panel pn = panel_at(s, p);
  int rest = (int)(s->n - pn.g1);
  if (s->upper) {
    *ld = pn.jb;
    return s->slots[p % 2].part;
  }
  if (pn.owner == s->me) {
    *ld = s->lda;
    return entry(s, pn.g1, pn.g0);
  }
  *ld = rest > 0 ? rest : 1;
  return s->slots[p % 2].part;
}

/* Starts panel p's broadcasts, in the same order on every process.  A failed panel
 * still travels (unsolved), so that every process starts the same broadcasts. */
static void start(state *s, int p)
{
  panel pn = panel_at(s, p);
  slot *sl = &s->slots[p % 2];
  size_t rest = (size_t)(s->n - pn.g1);
  if (s->upper) {
    if (pn.owner == s->me) {
      const double *from = entry(s, pn.g1, pn.g0);
      for (size_t j = 0; j < rest; j++)
        memcpy(sl->part + j * pn.jb, from + j * s->lda, (size_t)pn.jb * sizeof(double));
    }
    hpd_bcast_start(sl->part, rest * (size_t)pn.jb, pn.owner, s->comm, &sl->handles[0]);
  } else {
    int ld;
    double *from = (double *)part_of(s, p, &ld);
    hpd_bcast_start_strided(from, rest, (size_t)pn.jb, (size_t)ld, pn.owner, s->comm,
                            &sl->handles[0]);
  }
  hpd_bcast_start(&sl->status, 1, pn.owner, s->comm, &sl->handles[1]);
}

/* The trailing matrix after panel p: this process's share, and the panel's part. */
typedef struct trailing {
  hpd_triangle t;
  double *c;
  int mloc, nloc, mine; /* mine: this process's indices across */
  const double *part;
  int ld;
} trailing;

static trailing trailing_after(const state *s, int p)
{
  panel pn = panel_at(s, p);
  int64_t m = s->n - pn.g1;
  hpd_axis across = hpd_axis_from(&s->across, pn.g1);
  hpd_axis along = hpd_axis_from(&s->along, pn.g1);
  trailing tr = {.t = {.uplo = s->upper ? 'U' : 'L', .rows = s->upper ? across : along,
                       .cols = s->upper ? along : across, .m = m, .n = m, .b_is_a = 1}};
  *(s->upper ? &tr.t.myrow : &tr.t.mycol) = s->me;
  tr.mine = (int)hpd_axis_count(&across, m, s->me);
  tr.mloc = s->upper ? tr.mine : (int)m;
  tr.nloc = s->upper ? (int)m : tr.mine;
  int64_t before = hpd_axis_count(&s->across, pn.g1, s->me);
  tr.c = s->c->a + s->row0 + (s->upper ? before : pn.g1) +
         (s->col0 + (s->upper ? pn.g1 : before)) * (int64_t)s->lda;
  tr.part = part_of(s, p, &tr.ld);
  return tr;
}

/* U's columns for this process's rows, jb x mine (the upper case's op(A); the lower
 * case's op(B) is gathered by the update itself). */
static void gather_columns(const state *s, const trailing *tr, int jb)
{
  for (int i = 0; i < tr->mine; i++) {
    int64_t g = hpd_axis_global(&tr->t.rows, i, s->me);
    memcpy(s->gathered + (int64_t)i * jb, tr->part + g * tr->ld,
           (size_t)jb * sizeof(double));
  }
}

/* The trailing update on this process's indices across [i0, i1): C -= L * L' on columns,
 * or C -= U' * U on rows.  The first call of a step gathers the panel's part for the
 * share, later ones reuse it. */
static void apply(const state *s, const trailing *tr, int jb, int64_t i0, int64_t i1,
                  int gather, const hpd_progress *progress)
{
  if (s->upper) {
    if (gather)
      gather_columns(s, tr, jb);
    hpd_share_part part = {i0, i1, 0, tr->nloc};
    hpd_triangle_update_part(&tr->t, 'T', 'N', jb, -1.0, s->gathered + i0 * jb, jb,
                             tr->part, tr->ld, NULL, tr->c, s->lda, tr->mloc, tr->nloc,
                             &part, progress);
    return;
  }
  hpd_share_part part = {0, tr->mloc, i0, i1};
  const double *b = gather ? tr->part : s->gathered + i0;
  int ldb = gather ? tr->ld : tr->nloc;
  hpd_triangle_update_part(&tr->t, 'N', 'T', jb, -1.0, tr->part, tr->ld, b, ldb,
                           gather ? s->gathered : NULL, tr->c, s->lda, tr->mloc, tr->nloc,
                           &part, progress);
}

/* Step p: panel p is applied everywhere, and panel p+1 factored and sent out first. */
static void step(state *s, int p, int panels)
{
  panel pn = panel_at(s, p);
  trailing tr = trailing_after(s, p);
  if (p + 1 >= panels) {
    apply(s, &tr, pn.jb, 0, tr.mine, 1, NULL);
    return;
  }
  int64_t lead = 0;
  if (panel_at(s, p + 1).owner == s->me) {
    lead = panel_at(s, p + 1).jb; /* its indices are the first of this share */
    apply(s, &tr, pn.jb, 0, lead, 1, NULL);
    factor(s, p + 1);
  }
  start(s, p + 1);
  hpd_progress progress = {hpd_factor_poll, s->slots[(p + 1) % 2].handles, HPD_POLL_FLOPS};
  apply(s, &tr, pn.jb, lead, tr.mine, lead == 0, &progress);
}

static hpd_axis across_of(const hpd_chol *c)
{
  return c->upper ? hpd_matrix_rows(&c->sub, c->call->nprow)
                  : hpd_matrix_cols(&c->sub, c->call->npcol);
}

static state state_of(const hpd_chol *c, double *space)
{
  const hpd_call *call = c->call;
  int up = c->upper;
  state s = {.c = c, .upper = up, .n = c->n, .nb = c->sub.desc[HPD_NB],
             .lda = c->sub.desc[HPD_LLD], .me = up ? call->myrow : call->mycol,
             .row0 = hpd_matrix_row0(&c->sub, call->nprow, call->myrow),
             .col0 = hpd_matrix_col0(&c->sub, call->npcol, call->mycol),
             .across = across_of(c),
             .along = up ? hpd_matrix_cols(&c->sub, 1) : hpd_matrix_rows(&c->sub, 1),
             .comm = up ? c->grid->col : c->grid->row};
  size_t per_slot = (size_t)s.n * (size_t)s.nb;
  s.slots[0].part = space;
  s.slots[1].part = space + per_slot;
  s.gathered = space + 2 * per_slot;
  return s;
}

uint64_t hpd_chol_bytes(const hpd_chol *c)
{
  hpd_axis across = across_of(c);
  uint64_t nb = (uint64_t)c->sub.desc[HPD_NB];
  uint64_t most = (uint64_t)hpd_axis_max_count(&across, c->n);
  uint64_t entries = 2 * (uint64_t)c->n * nb + most * nb;
  return entries * sizeof(double);
}

int hpd_chol_factor(const hpd_chol *c, double *space)
{
  state s = state_of(c, space);
  int panels = (s.n + s.nb - 1) / s.nb;
  hpd_factor_run run;
  hpd_factor_run_begin(&run);
  if (panel_at(&s, 0).owner == s.me)
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
