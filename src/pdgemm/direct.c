#include "direct.h"

/* The one process row (column) holding the extent indices of x's rows (columns) from its
 * first on, or -1 when they are spread over several. */
static int single_row(const hpd_matrix *x, int extent, int nprow)
{
  hpd_axis rows = hpd_matrix_rows(x, nprow);
  return nprow == 1 || extent <= rows.first ? rows.src : -1;
}

static int single_col(const hpd_matrix *x, int extent, int npcol)
{
  hpd_axis cols = hpd_matrix_cols(x, npcol);
  return npcol == 1 || extent <= cols.first ? cols.src : -1;
}

/* x (rows x cols as stored) lies entirely on process (prow, pcol). */
static int held_by(const hpd_call *call, const hpd_matrix *x, int rows, int cols, int prow,
                   int pcol)
{
  return single_row(x, rows, call->nprow) == prow && single_col(x, cols, call->npcol) == pcol;
}

int hpd_direct_is_local(const hpd_call *call)
{
  if (call->m == 0 || call->n == 0 || call->k == 0 || call->alpha == 0.0)
    return 0; /* the engine's scaling path: already local and cheap */
  int prow = single_row(&call->C, call->m, call->nprow);
  int pcol = single_col(&call->C, call->n, call->npcol);
  if (prow < 0 || pcol < 0)
    return 0;
  int nota = call->transa == 'N', notb = call->transb == 'N';
  return held_by(call, &call->A, nota ? call->m : call->k, nota ? call->k : call->m, prow,
                 pcol) &&
         held_by(call, &call->B, notb ? call->k : call->n, notb ? call->n : call->k, prow,
                 pcol);
}

/* Where x's first element sits in this process's storage. */
static const double *local_origin(const hpd_call *call, const hpd_matrix *x, const double *base)
{
  return base + hpd_matrix_row0(x, call->nprow, call->myrow) +
         hpd_matrix_col0(x, call->npcol, call->mycol) * (int64_t)x->desc[HPD_LLD];
}

void hpd_direct_local(const hpd_call *call)
{
  hpd_axis crows = hpd_matrix_rows(&call->C, call->nprow);
  hpd_axis ccols = hpd_matrix_cols(&call->C, call->npcol);
  if (call->myrow != crows.src || call->mycol != ccols.src)
    return;
  const double *a = local_origin(call, &call->A, call->a);
  double *c = (double *)local_origin(call, &call->C, call->c);
  const int *lda = &call->A.desc[HPD_LLD], *ldc = &call->C.desc[HPD_LLD];
  if (call->uplo) {
    char uplo = call->uplo, trans = call->transa;
    dsyrk_(&uplo, &trans, &call->n, &call->k, &call->alpha, a, lda, &call->beta, c, ldc);
    return;
  }
  const double *b = local_origin(call, &call->B, call->b);
  char ta = call->transa, tb = call->transb;
  dgemm_(&ta, &tb, &call->m, &call->n, &call->k, &call->alpha, a, lda, b,
         &call->B.desc[HPD_LLD], &call->beta, c, ldc);
}
