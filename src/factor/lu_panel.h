/*
 * One panel of LU on a 2-D grid, factored by the process column that holds it: jb
 * columns, their rows dealt over the column's processes.  The panel's top jb rows (the
 * rows the pivots end up in) are kept on every process of the column, so that each one
 * can form the solves and updates between columns itself; the rest stay where they are.
 * Each column of the panel then costs one reduction over the column's processes, which
 * finds the pivot and brings its row along; the updates run recursively, as LAPACK's
 * dgetrf2 does, mostly in gemm.
 */
#ifndef HPD_FACTOR_LU_PANEL_H
#define HPD_FACTOR_LU_PANEL_H

#include <mpi.h>
#include <stdint.h>

#include "kernel/elem.h"
#include "pblas/layout.h"

/* The reduction that finds a column's pivot, made once per factorization for panels of
 * up to nb columns: MPI's datatype and operation for a candidate. */
typedef struct hpd_lu_pivot_search {
  MPI_Datatype candidate;
  MPI_Op op;
  int nb;
} hpd_lu_pivot_search;

void hpd_lu_pivot_search_open(hpd_lu_pivot_search *search, int nb);
void hpd_lu_pivot_search_close(hpd_lu_pivot_search *search);

typedef struct hpd_lu_panel {
  int jb;
  int64_t g0;       /* the panel's first row, in sub(A)'s rows */
  hpd_elem *top;    /* its rows g0 .. g0+jb-1, jb x jb, the same on every process */
  hpd_elem *below;  /* this process's rows after those, nbelow x jb, leading dimension ld */
  int64_t nbelow, below_l0; /* their count, and the first one's local index on the axis */
  int ld;
  const hpd_axis *rows; /* sub(A)'s rows over the column's processes */
  int me;           /* this process's position on that axis */
  MPI_Comm comm;    /* the process column, ranked by position */
  const hpd_lu_pivot_search *search; /* opened for jb columns or more */
  hpd_elem *scratch; /* hpd_lu_panel_scratch(search->nb) elements */
  int *piv;         /* out: each column's pivot row, 0-based in sub(A)'s rows */
} hpd_lu_panel;

/* The scratch elements a panel of up to nb columns needs. */
int64_t hpd_lu_panel_scratch(int nb);

/*
 * Factors the panel in place, top and below, with PDGETF2's choices: each column's pivot
 * is the entry of largest magnitude, a tie going to the lowest process row and then to
 * the first row it holds (PDAMAX's combine), the diagonal row where every candidate is
 * zero, and a zero pivot neither swapped nor scaled by.  Collective over comm.  Returns
 * the first column (1-based) whose pivot is zero, or 0.
 */
int hpd_lu_panel_factor(const hpd_lu_panel *pp);

#endif
