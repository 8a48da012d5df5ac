#include "factor/lu_panel.h"

#include <math.h>
#include <string.h>

#include "bcast/wait.h"
#include "kernel/kernel.h"

/* A candidate for a column's pivot, as elements: its magnitude, the position of the
 * process that holds it, its row of sub(A), then that row's jb entries in the panel. */
enum { MAGNITUDE, HOLDER, ROW, ENTRIES };

/* The better of two candidates into inout: the larger magnitude, else the lower holder
 * (PDAMAX's tree keeps the lower process row's on a tie).  Every process holds a
 * different position, so the choice is a total order and the reduction's grouping does
 * not matter. */
static void better(void *in, void *inout, int *len, MPI_Datatype *type)
{
  int bytes;
  MPI_Type_size(*type, &bytes);
  size_t width = (size_t)bytes / sizeof(hpd_elem);
  const hpd_elem *a = in;
  hpd_elem *b = inout;
  for (int i = 0; i < *len; i++, a += width, b += width)
    if (a[MAGNITUDE] > b[MAGNITUDE] ||
        (a[MAGNITUDE] == b[MAGNITUDE] && a[HOLDER] < b[HOLDER]))
      memcpy(b, a, width * sizeof(hpd_elem));
}

int64_t hpd_lu_panel_scratch(int nb)
{
  return 2 * (ENTRIES + (int64_t)nb);
}

void hpd_lu_pivot_search_open(hpd_lu_pivot_search *search, int nb)
{
  search->nb = nb;
  MPI_Type_contiguous(ENTRIES + nb, HPD_ELEM_MPI, &search->candidate);
  MPI_Type_commit(&search->candidate);
  MPI_Op_create(better, 1, &search->op);
}

void hpd_lu_pivot_search_close(hpd_lu_pivot_search *search)
{
  MPI_Op_free(&search->op);
  MPI_Type_free(&search->candidate);
}

typedef struct pass {
  const hpd_lu_panel *pp;
  int info;
} pass;

static hpd_elem *top_at(const hpd_lu_panel *pp, int r, int c)
{
  return pp->top + r + (int64_t)c * pp->jb;
}

/* Column c's pivot: this process's candidate (the first of its rows of largest
 * magnitude: the top rows from c on count as the holder of the top's), reduced over the
 * column; its row is swapped with row c, and the column below scaled. */
static void pivot(pass *ps, int c)
{
  const hpd_lu_panel *pp = ps->pp;
  int jb = pp->jb;
  /* a candidate is search->nb entries wide; a narrower last panel leaves the tail unused */
  hpd_elem *mine = pp->scratch, *best = pp->scratch + ENTRIES + pp->search->nb;
  int holds_top = hpd_axis_owner(pp->rows, pp->g0) == pp->me;
  int64_t at = -1; /* -1 - r: top row r; i >= 0: below row i */
  hpd_elem largest = -1.0;
  if (holds_top)
    for (int r = c; r < jb; r++)
      if (fabs(*top_at(pp, r, c)) > largest)
        largest = fabs(*top_at(pp, r, c)), at = -1 - r;
  for (int64_t i = 0; i < pp->nbelow; i++)
    if (fabs(pp->below[i + c * (int64_t)pp->ld]) > largest)
      largest = fabs(pp->below[i + c * (int64_t)pp->ld]), at = i;
  mine[MAGNITUDE] = largest;
  mine[HOLDER] = pp->me;
  mine[ROW] = -1.0; /* no rows here: a candidate that loses to any other */
  if (at < 0 && largest >= 0.0) {
    int r = (int)(-1 - at);
    mine[ROW] = (hpd_elem)(pp->g0 + r);
    for (int k = 0; k < jb; k++)
      mine[ENTRIES + k] = *top_at(pp, r, k);
  } else if (at >= 0) {
    mine[ROW] = (hpd_elem)hpd_axis_global(pp->rows, pp->below_l0 + at, pp->me);
    for (int k = 0; k < jb; k++)
      mine[ENTRIES + k] = pp->below[at + k * (int64_t)pp->ld];
  }
  hpd_wait_allreduce(mine, best, 1, pp->search->candidate, pp->search->op, pp->comm);
  hpd_elem value = best[ENTRIES + c];
  if (value == 0.0) { /* every candidate zero: the diagonal row, nothing moves */
    pp->piv[c] = (int)(pp->g0 + c);
    if (ps->info == 0)
      ps->info = c + 1;
    return;
  }
  int64_t row = (int64_t)best[ROW];
  pp->piv[c] = (int)row;
  if (row != pp->g0 + c) { /* row c's old content goes where the pivot was */
    hpd_elem *old = mine; /* the candidate is spent */
    for (int k = 0; k < jb; k++)
      old[k] = *top_at(pp, c, k);
    if (row < pp->g0 + jb)
      for (int k = 0; k < jb; k++)
        *top_at(pp, (int)(row - pp->g0), k) = old[k];
    else if (hpd_axis_owner(pp->rows, row) == pp->me)
      for (int k = 0; k < jb; k++)
        pp->below[hpd_axis_local(pp->rows, row) - pp->below_l0 + k * (int64_t)pp->ld] = old[k];
    for (int k = 0; k < jb; k++)
      *top_at(pp, c, k) = best[ENTRIES + k];
  }
  hpd_elem scale = 1.0 / value; /* PDGETF2 scales by the reciprocal */
  for (int r = c + 1; r < jb; r++)
    *top_at(pp, r, c) *= scale;
  for (int64_t i = 0; i < pp->nbelow; i++)
    pp->below[i + c * (int64_t)pp->ld] *= scale;
}

/* Columns [c0, c1) of the panel, every column before c0 applied to them: the left half,
 * then the right half solved and updated against it (rows below the top too), then the
 * right half.  Every pivot's swap moves whole rows of the panel, so both halves see it. */
static void factor(pass *ps, int c0, int c1)
{
  if (c1 - c0 == 1) {
    pivot(ps, c0);
    return;
  }
  const hpd_lu_panel *pp = ps->pp;
  int jb = pp->jb, h = (c1 - c0) / 2, c2 = c0 + h, w = c1 - c2;
  factor(ps, c0, c2);
  hpd_kernel_trsm('L', 'L', 'N', 'U', h, w, 1.0, top_at(pp, c0, c0), jb, top_at(pp, c0, c2),
                  jb);
  if (jb > c2)
    hpd_kernel_gemm('N', 'N', jb - c2, w, h, -1.0, top_at(pp, c2, c0), jb, top_at(pp, c0, c2),
                    jb, 1.0, top_at(pp, c2, c2), jb);
  if (pp->nbelow > 0)
    hpd_kernel_gemm('N', 'N', (int)pp->nbelow, w, h, -1.0, pp->below + c0 * (int64_t)pp->ld,
                    pp->ld, top_at(pp, c0, c2), jb, 1.0, pp->below + c2 * (int64_t)pp->ld,
                    pp->ld);
  factor(ps, c2, c1);
}

int hpd_lu_panel_factor(const hpd_lu_panel *pp)
{
  pass ps = {.pp = pp};
  factor(&ps, 0, pp->jb);
  return ps.info;
}
