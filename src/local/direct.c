#include "local/direct.h"

#include "kernel/kernel.h"

int hpd_direct_axis_owner(hpd_axis ax, int extent)
{
  return ax.nprocs == 1 || extent <= ax.first ? ax.src : -1;
}

int hpd_direct_held_by(const hpd_call *call, const hpd_matrix *x, int rows, int cols,
                       int prow, int pcol)
{
  return hpd_direct_axis_owner(hpd_matrix_rows(x, call->nprow), rows) == prow &&
         hpd_direct_axis_owner(hpd_matrix_cols(x, call->npcol), cols) == pcol;
}

int hpd_direct_owner(const hpd_call *call, const hpd_matrix *x, int rows, int cols,
                     int *prow, int *pcol)
{
  *prow = hpd_direct_axis_owner(hpd_matrix_rows(x, call->nprow), rows);
  *pcol = hpd_direct_axis_owner(hpd_matrix_cols(x, call->npcol), cols);
  return *prow >= 0 && *pcol >= 0 ? 0 : -1;
}

int hpd_direct_is_local(const hpd_call *call)
{
  int prow, pcol;
  if (hpd_direct_owner(call, &call->C, call->m, call->n, &prow, &pcol) != 0)
    return 0;
  int nota = call->transa == 'N', notb = call->transb == 'N';
  return hpd_direct_held_by(call, &call->A, nota ? call->m : call->k,
                            nota ? call->k : call->m, prow, pcol) &&
         hpd_direct_held_by(call, &call->B, notb ? call->k : call->n,
                            notb ? call->n : call->k, prow, pcol);
}

hpd_elem *hpd_direct_origin(const hpd_call *call, const hpd_matrix *x, const hpd_elem *base)
{
  return (hpd_elem *)base + hpd_matrix_row0(x, call->nprow, call->myrow) +
         hpd_matrix_col0(x, call->npcol, call->mycol) * (int64_t)x->desc[HPD_LLD];
}

void hpd_direct_local(const hpd_call *call, hpd_local_place *place)
{
  hpd_axis crows = hpd_matrix_rows(&call->C, call->nprow);
  hpd_axis ccols = hpd_matrix_cols(&call->C, call->npcol);
  *place = (hpd_local_place){.computes = call->myrow == crows.src && call->mycol == ccols.src};
  if (!place->computes)
    return;
  place->a = hpd_direct_origin(call, &call->A, call->a) - call->a;
  place->c = hpd_direct_origin(call, &call->C, call->c) - call->c;
  place->b = call->uplo ? 0 : hpd_direct_origin(call, &call->B, call->b) - call->b;
  place->lda = call->A.desc[HPD_LLD];
  place->ldb = call->uplo ? 1 : call->B.desc[HPD_LLD];
  place->ldc = call->C.desc[HPD_LLD];
  hpd_direct_again(call->uplo, call->transa, call->transb, call->m, call->n, call->k,
                   call->alpha, call->a, call->b, call->beta, call->c, place);
}

void hpd_direct_again(char uplo, char transa, char transb, int m, int n, int k, hpd_elem alpha,
                      const hpd_elem *a, const hpd_elem *b, hpd_elem beta, hpd_elem *c,
                      const hpd_local_place *place)
{
  if (!place->computes)
    return;
  if (uplo) {
    hpd_kernel_syrk(uplo, transa, n, k, alpha, a + place->a, place->lda, beta, c + place->c,
                    place->ldc);
    return;
  }
  hpd_kernel_gemm(transa, transb, m, n, k, alpha, a + place->a, place->lda, b + place->b,
                  place->ldb, beta, c + place->c, place->ldc);
}
