#include "factor/lu.h"

#include "bcast/bcast.h"
#include "factor/lookahead.h"
#include "kernel/kernel.h"
#include "level3/local.h"
#include "pblas/poll.h"
#include "pblas/scalapack_api.h"

/* A panel's broadcast: its rows from the diagonal down, and dgetrf's pivots (relative
 * to the panel's first row) followed by its INFO, as elements. */
typedef struct slot {
  hpd_elem *rows;
  hpd_elem *status; /* nb + 1 */
  hpd_bcast handles[2];
} slot;

typedef struct state {
  const hpd_lu *f;
  int m, n, mn, nb, lda, mycol;
  int64_t row0, col0;
  hpd_axis cols;
  int nloc; /* this process's columns of sub(A) */
  MPI_Comm comm;
  slot slots[2];
} state;

typedef struct panel {
  int g0, g1, jb, owner;
} panel;

static panel panel_at(const state *s, int p)
{
  panel pn = {.g0 = p * s->nb};
  pn.g1 = pn.g0 + s->nb < s->mn ? pn.g0 + s->nb : s->mn;
  pn.jb = pn.g1 - pn.g0;
  pn.owner = hpd_axis_owner(&s->cols, pn.g0);
  return pn;
}

/* Local column c of this process's share of sub(A), from sub(A)'s first row. */
static hpd_elem *column(const state *s, int64_t c)
{
  return s->f->a + s->row0 + (s->col0 + c) * (int64_t)s->lda;
}

/* This process's columns of sub(A) before global column g. */
static int64_t before(const state *s, int g)
{
  return hpd_axis_count(&s->cols, g, s->mycol);
}

static void factor(state *s, int p)
{
  panel pn = panel_at(s, p);
  hpd_elem *top = column(s, before(s, pn.g0)) + pn.g0;
  int piv[pn.jb > 0 ? pn.jb : 1];
  int info = hpd_kernel_getrf(s->m - pn.g0, pn.jb, top, s->lda, piv);
  hpd_elem *status = s->slots[p % 2].status;
  for (int i = 0; i < pn.jb; i++)
    status[i] = piv[i];
  status[pn.jb] = info;
}

static void start(state *s, int p)
{
  panel pn = panel_at(s, p);
  slot *sl = &s->slots[p % 2];
  size_t rows = (size_t)(s->m - pn.g0);
  int own = pn.owner == s->mycol;
  hpd_elem *from = own ? column(s, before(s, pn.g0)) + pn.g0 : sl->rows;
  hpd_bcast_started(hpd_bcast_start_strided(from, rows, (size_t)pn.jb,
                                            own ? (size_t)s->lda : rows, pn.owner, s->comm,
                                            s->f->bcast, &sl->handles[0]));
  hpd_bcast_started(hpd_bcast_start(sl->status, (size_t)pn.jb + 1, pn.owner, s->comm,
                                    s->f->bcast, &sl->handles[1]));
}

/* Panel p as every process applies it: L's columns and the interchanges. */
typedef struct applied {
  panel pn;
  const hpd_elem *l;
  int ldl;
  int piv[]; /* relative to the panel's first row, 1-based, as dlaswp reads them */
} applied;

/* The interchanges, the block row of U and the update of the local columns [c0, c1). */
static void apply(const state *s, const applied *ap, int64_t c0, int64_t c1)
{
  int cols = (int)(c1 - c0), below = s->m - ap->pn.g1;
  if (cols <= 0)
    return;
  hpd_elem *top = column(s, c0) + ap->pn.g0;
  hpd_kernel_laswp(cols, top, s->lda, 1, ap->pn.jb, ap->piv);
  hpd_l3_local_trsm('L', 'L', 'N', 'U', ap->pn.jb, cols, 1.0, ap->l, ap->ldl, top, s->lda);
  if (below > 0)
    hpd_kernel_gemm('N', 'N', below, cols, ap->pn.jb, -1.0, ap->l + ap->pn.jb, ap->ldl, top,
                    s->lda, 1.0, top + ap->pn.jb, s->lda);
}

/* apply over [c0, c1) in strips, polling the next panel's broadcasts between them. */
static void apply_polling(const state *s, const applied *ap, int64_t c0, int64_t c1,
                          hpd_bcast *next)
{
  double per_column = 2.0 * (double)(s->m - ap->pn.g0) * ap->pn.jb;
  int64_t strip = hpd_poll_strip(HPD_POLL_FLOPS, per_column, c1 - c0);
  for (int64_t c = c0; c < c1; c += strip) {
    apply(s, ap, c, c + strip < c1 ? c + strip : c1);
    if (next && c + strip < c1)
      hpd_factor_poll(next);
  }
}

/* Step p: panel p's pivots recorded, the panel applied to every other column, and panel
 * p+1 factored and sent out first by its owner. */
static void step(state *s, int p, int panels, applied *ap)
{
  panel pn = panel_at(s, p);
  const hpd_elem *status = s->slots[p % 2].status;
  int own = pn.owner == s->mycol;
  ap->pn = pn;
  ap->l = own ? column(s, before(s, pn.g0)) + pn.g0 : s->slots[p % 2].rows;
  ap->ldl = own ? s->lda : s->m - pn.g0;
  int first_row = s->f->sub.i; /* 0-based: ipiv's local index of sub(A)'s row 0 */
  for (int i = 0; i < pn.jb; i++) {
    ap->piv[i] = (int)status[i];
    s->f->ipiv[s->row0 + pn.g0 + i] = first_row + pn.g0 + ap->piv[i];
  }
  int64_t right = before(s, pn.g1), lead = 0;
  hpd_bcast *next = NULL;
  if (p + 1 < panels) {
    if (panel_at(s, p + 1).owner == s->mycol) {
      lead = panel_at(s, p + 1).jb; /* its columns are the first on the right here */
      apply(s, ap, right, right + lead);
      factor(s, p + 1);
    }
    start(s, p + 1);
    next = s->slots[(p + 1) % 2].handles;
  }
  if (s->f->at_step)
    s->f->at_step(s->f->hook_arg, p);
  apply_polling(s, ap, right + lead, s->nloc, next);
  /* the columns on the left take the interchanges alone (L's rows) */
  int left = (int)before(s, pn.g0);
  if (left > 0)
    hpd_kernel_laswp(left, column(s, 0) + pn.g0, s->lda, 1, pn.jb, ap->piv);
}

uint64_t hpd_lu_bytes(const hpd_lu *f)
{
  uint64_t nb = (uint64_t)f->sub.desc[HPD_NB];
  return (2 * (uint64_t)f->m * nb + 2 * (nb + 1)) * sizeof(hpd_elem) +
         sizeof(applied) + nb * sizeof(int);
}

int hpd_lu_factor(const hpd_lu *f, hpd_elem *space)
{
  const hpd_call *call = f->call;
  int mn = f->m < f->n ? f->m : f->n;
  state s = {.f = f, .m = f->m, .n = f->n, .mn = mn, .nb = f->sub.desc[HPD_NB],
             .lda = f->sub.desc[HPD_LLD], .mycol = call->mycol,
             .row0 = hpd_matrix_row0(&f->sub, 1, 0),
             .col0 = hpd_matrix_col0(&f->sub, call->npcol, call->mycol),
             .cols = hpd_matrix_cols(&f->sub, call->npcol), .comm = f->line};
  s.nloc = (int)hpd_axis_count(&s.cols, s.n, s.mycol);
  size_t per_slot = (size_t)s.m * (size_t)s.nb;
  s.slots[0].rows = space;
  s.slots[1].rows = space + per_slot;
  s.slots[0].status = space + 2 * per_slot;
  s.slots[1].status = s.slots[0].status + s.nb + 1;
  applied *ap = (applied *)(s.slots[1].status + s.nb + 1);

  int panels = (mn + s.nb - 1) / s.nb;
  hpd_factor_run run;
  hpd_factor_run_begin(&run);
  if (panel_at(&s, 0).owner == s.mycol)
    factor(&s, 0);
  start(&s, 0);
  int info = 0;
  for (int p = 0; p < panels; p++) {
    panel pn = panel_at(&s, p);
    hpd_factor_run_wait(&run, s.slots[p % 2].handles, 2,
                        (size_t)(s.m - pn.g0) * (size_t)pn.jb * sizeof(hpd_elem));
    int status = (int)s.slots[p % 2].status[pn.jb];
    if (info == 0 && status > 0)
      info = pn.g0 + status;
    step(&s, p, panels, ap);
  }
  hpd_factor_run_end(&run, HPD_ROUTINE_PDGETRF, panels,
                     f->booked ? f->booked : hpd_lu_bytes(f));
  return info;
}
