#include "factor/chol.h"

hpd_axis hpd_chol_across(const hpd_chol *c, int rows_dealt)
{
  return rows_dealt ? hpd_matrix_rows(&c->sub, c->call->nprow)
                    : hpd_matrix_cols(&c->sub, c->call->npcol);
}

hpd_chol_line hpd_chol_line_of(const hpd_chol *c, int rows_dealt)
{
  const hpd_call *call = c->call;
  const hpd_matrix *sub = &c->sub;
  return (hpd_chol_line){.me = rows_dealt ? call->myrow : call->mycol,
                         .nb = sub->desc[HPD_NB],
                         .lda = sub->desc[HPD_LLD],
                         .row0 = hpd_matrix_row0(sub, call->nprow, call->myrow),
                         .col0 = hpd_matrix_col0(sub, call->npcol, call->mycol),
                         .across = hpd_chol_across(c, rows_dealt),
                         .along =
                             rows_dealt ? hpd_matrix_cols(sub, 1) : hpd_matrix_rows(sub, 1),
                         .comm = rows_dealt ? c->grid->col : c->grid->row};
}

hpd_chol_panel hpd_chol_panel_at(const hpd_chol_line *ln, int n, int k)
{
  hpd_chol_panel pn = {.g0 = (int64_t)k * ln->nb};
  pn.g1 = pn.g0 + ln->nb < n ? pn.g0 + ln->nb : n;
  pn.jb = (int)(pn.g1 - pn.g0);
  pn.owner = hpd_axis_owner(&ln->across, pn.g0);
  return pn;
}
