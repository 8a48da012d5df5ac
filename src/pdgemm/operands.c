#include "pdgemm/operands.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/*
 * The panel width hpdaemon picks where it chooses the K layout itself (both operands
 * redistributed): A's K block size rounded up to a multiple of at least 256.  256 is the
 * K depth of OpenBLAS's packed dgemm blocks on the x86-64 kernels, so one panel already
 * feeds a full-rate multiply even before grouping, and a small NB (32) costs no more
 * than a large one; keeping a multiple of the caller's block size keeps the caller's
 * message count when its blocks are larger.
 */
#define HPD_KB_TARGET 256

static int64_t kb_auto(const hpd_call *call)
{
  int nb = call->transa == 'N' ? call->A.desc[HPD_NB] : call->A.desc[HPD_MB];
  return ((int64_t)(HPD_KB_TARGET + nb - 1) / nb) * nb;
}

/* sub(x) (A, or a pair's B) read in place as op(A) is. */
static void a_in_place(const hpd_call *call, const hpd_elem *base, const hpd_matrix *x,
                       hpd_operand *a)
{
  a->base = base;
  a->ld = x->desc[HPD_LLD];
  if (call->transa == 'N') {
    a->lo = hpd_matrix_row0(x, call->nprow, call->myrow);
    a->k = hpd_matrix_cols(x, call->npcol);
    a->k0 = hpd_matrix_col0(x, call->npcol, call->mycol);
  } else { /* 1x1 grid: A's columns are op(A)'s rows, A's rows its K */
    a->trans = 1;
    a->lo = x->j;
    a->k = hpd_matrix_rows(x, 1);
    a->k0 = x->i;
  }
}

static void b_in_place(const hpd_call *call, hpd_operand *b)
{
  b->base = call->b;
  b->ld = call->B.desc[HPD_LLD];
  if (call->transb == 'N') {
    b->lo = hpd_matrix_col0(&call->B, call->npcol, call->mycol);
    b->k = hpd_matrix_rows(&call->B, call->nprow);
    b->k0 = hpd_matrix_row0(&call->B, call->nprow, call->myrow);
  } else { /* one process column (a 1x1 grid, or gathered): B's columns are all here */
    b->trans = 1;
    b->rows = hpd_matrix_rows(&call->B, call->nprow);
    b->lo = hpd_matrix_row0(&call->B, call->nprow, call->myrow);
    b->k = hpd_matrix_cols(&call->B, 1);
    b->k0 = hpd_matrix_col0(&call->B, 1, 0);
  }
}

/* A rows x cols temporary laid out by the axes r and c, in this process's share. */
static void temporary(const hpd_call *call, hpd_axis r, int64_t rows, hpd_axis c,
                      int64_t cols, hpd_axis kax, hpd_operand *x)
{
  int64_t cloc = hpd_axis_count(&c, cols, call->mycol);
  hpd_desc_of_axes(call, &r, rows, &c, cols, x->desc);
  x->copy = 1;
  x->ld = x->desc[HPD_LLD];
  x->k = kax;
  x->temp_bytes = (size_t)x->ld * (size_t)cloc * sizeof(hpd_elem);
}

/* op(sub(A)) as an M x K matrix with sub(C)'s row layout and columns laid out by kax. */
static void a_temporary(const hpd_call *call, hpd_axis kax, hpd_operand *a)
{
  temporary(call, hpd_matrix_rows(&call->C, call->nprow), call->m, kax, call->k, kax, a);
}

/* op(sub(B)) as a K x N matrix with rows laid out by kax and sub(C)'s column layout. */
static void b_temporary(const hpd_call *call, hpd_axis kax, hpd_operand *b)
{
  temporary(call, kax, call->k, hpd_matrix_cols(&call->C, call->npcol), call->n, kax, b);
}

/* A temporary's K layout: the other operand's block starts when that one is broadcast in
 * place (so no extra cuts), else plain kb-wide blocks. */
static hpd_axis temp_k(const hpd_operand *other, int other_in_place, int64_t kb, int nprocs)
{
  hpd_axis kax = {(int)kb, (int)kb, 0, nprocs};
  if (other_in_place && other->travels) {
    kax.first = other->k.first;
    kax.nb = other->k.nb;
  }
  return kax;
}

void hpd_operands_plan(const hpd_call *call, int kb_forced, hpd_operand *a, hpd_operand *b,
                       int64_t *kb)
{
  memset(a, 0, sizeof *a);
  memset(b, 0, sizeof *b);
  int single = call->nprow == 1 && call->npcol == 1;
  hpd_axis crows = hpd_matrix_rows(&call->C, call->nprow);
  hpd_axis ccols = hpd_matrix_cols(&call->C, call->npcol);
  hpd_axis arows = hpd_matrix_rows(&call->A, call->nprow);
  hpd_axis bcols = hpd_matrix_cols(&call->B, call->npcol);
  int a_here = single || (call->transa == 'N' && hpd_axis_same(&arows, &crows, call->m));
  int b_here = single || (call->transb == 'N' && hpd_axis_same(&bcols, &ccols, call->n));
  a->travels = call->npcol > 1;
  b->travels = call->nprow > 1;
  if (a_here)
    a_in_place(call, call->a, &call->A, a);
  b->from_a = (call->b_is_a || call->pair) && call->transa == 'N' && call->nprow == 1 &&
              a->travels;
  b->gathered = call->transb == 'T' && call->npcol == 1 && b->travels;
  if (b->from_a)
    b_here = 1; /* nothing to place: the loop reads A */
  else if (b_here || b->gathered) {
    b_in_place(call, b); /* gathered: read in place, its rows travel (gathered.h) */
    b_here = 1;
  }

  int64_t width = kb_forced > 0 ? kb_forced : kb_auto(call);
  if (width > INT_MAX)
    width = INT_MAX;
  if (!a_here)
    a_temporary(call, temp_k(b, b_here && !b->gathered, width, call->npcol), a);
  if (!b_here)
    b_temporary(call, temp_k(a, a_here, width, call->nprow), b);
  /* Where the caller's blocks already cut the panels, they are the panels, unless
   * HPD_KB asks for narrower ones. */
  int blocks_cut = (a_here && a->travels) || (b_here && b->travels && !b->gathered);
  *kb = kb_forced > 0 ? kb_forced : blocks_cut ? INT_MAX : width;
}

hpd_status hpd_operands_plan_pair(const hpd_call *call, const hpd_operand *b,
                                  hpd_operand *a2)
{
  memset(a2, 0, sizeof *a2);
  if (!call->pair)
    return HPD_OK;
  if (!b->from_a)
    return HPD_STATUS_INVALID;
  a_in_place(call, call->b, &call->B, a2);
  a2->travels = 1;
  return HPD_OK;
}

hpd_status hpd_operand_alloc(hpd_operand *x)
{
  if (!x->copy)
    return HPD_OK;
  /* Zeroed so that nothing uninitialized can ever reach C, whatever pdgeadd_ reads. */
  x->temp = calloc(x->temp_bytes ? x->temp_bytes : 1, 1);
  x->base = x->temp;
  return x->temp ? HPD_OK : HPD_STATUS_NO_MEMORY;
}

void hpd_operands_fill(const hpd_call *call, hpd_operand *a, hpd_operand *b)
{
  const hpd_elem one = 1.0, zero = 0.0;
  const int first = 1;
  if (a->copy) {
    int ia = call->A.i + 1, ja = call->A.j + 1;
    HPD_ELEM_PBLAS(geadd)(&call->transa, &call->m, &call->k, &one, call->a, &ia, &ja,
                          call->A.desc, &zero, a->temp, &first, &first, a->desc);
  }
  if (b->copy) {
    int ib = call->B.i + 1, jb = call->B.j + 1;
    HPD_ELEM_PBLAS(geadd)(&call->transb, &call->k, &call->n, &one, call->b, &ib, &jb,
                          call->B.desc, &zero, b->temp, &first, &first, b->desc);
  }
}

void hpd_operand_free(hpd_operand *x)
{
  free(x->temp);
  x->temp = NULL;
}
