/*
 * pdsyr2k as two triangle updates of sub(C) on the engine, one per product:
 *   C := alpha * op(A) * op(B)' + beta * C, then C := alpha * op(B) * op(A)' + C,
 * each restricted to the triangle UPLO, so that each is one grouped loop over the whole
 * of K.  Unlike pdsyrk, op(B) is not op(A)', so the triangle's diagonal blocks are
 * computed as rectangles whose other half is thrown away (triangle.h, b_is_a = 0).
 *
 * Where K lies along the grid's one line, each process's sums over its share of K
 * travel instead of the panels, when fewer (syr2k_sums.c).  Otherwise, on one process
 * row with TRANS 'N' both products are one loop (the pair, call.h): there op(B)' would
 * be transposed across the row into a temporary for each product (a tenth of the call
 * at N = K = 4096 on 1x2), while B's panels can travel beside A's as they lie; both
 * products then share each multiply, twice as deep, and a diagonal block is one dsyr2k.
 */
#include <stdlib.h>

#include "bcast/wait.h"
#include "core/log.h"
#include "core/stats.h"
#include "kernel/elem.h"
#include "level3/blocked.h"
#include "pblas/reference.h"
#include "pblas/scalapack_api.h"
#include "pdgemm/engine.h"

/* One product onto the triangle, by the engine. */
static int half(hpd_l3_run *run, int swap, hpd_elem beta)
{
  hpd_call piece = run->l3->call;
  piece.beta = beta;
  piece.b_is_a = 0;
  if (swap) {
    piece.a = run->l3->call.b, piece.A = run->l3->call.B;
    piece.b = run->l3->call.a, piece.B = run->l3->call.A;
  }
  return hpd_engine_serve(&piece, run->l3->routine, run->grid);
}

/* The second product by the reference pdgemm, where the engine refused it after serving
 * the first: into a scratch matrix laid out like sub(C), whose triangle is then added. */
static void second_by_reference(hpd_l3_run *run)
{
  const hpd_call *call = &run->l3->call;
  hpd_axis rows = hpd_matrix_rows(&call->C, call->nprow);
  hpd_axis cols = hpd_matrix_cols(&call->C, call->npcol);
  int64_t mloc = hpd_axis_count(&rows, call->n, call->myrow);
  int64_t nloc = hpd_axis_count(&cols, call->n, call->mycol);
  int ld = mloc > 1 ? (int)mloc : 1;
  hpd_elem *scratch = malloc((size_t)ld * (size_t)(nloc > 0 ? nloc : 1) * sizeof *scratch);
  int mine = scratch ? 0 : 1, anyone = 0;
  hpd_wait_allreduce(&mine, &anyone, 1, MPI_INT, MPI_MAX, run->grid->comm);
  if (anyone)
    hpd_fatal("pdsyr2k: no memory for its second product (%lld x %lld elements here)",
              (long long)mloc, (long long)nloc);
  hpd_matrix s = {.desc = {HPD_BLOCK_CYCLIC_2D_INB, call->ictxt, call->n, call->n,
                           rows.first, cols.first, rows.nb, cols.nb, rows.src, cols.src, ld}};
  int n = call->n, k = call->k, one = 1;
  hpd_elem zero = 0.0;
  int ib = call->B.i + 1, jb = call->B.j + 1, ia = call->A.i + 1, ja = call->A.j + 1;
  hpd_reference_pdgemm()(&call->transa, &call->transb, &n, &n, &k, &call->alpha, call->b, &ib,
                         &jb, call->B.desc, call->a, &ia, &ja, call->A.desc, &zero, scratch,
                         &one, &one, s.desc);
  hpd_elem *c = call->c + hpd_matrix_row0(&call->C, call->nprow, call->myrow) +
              hpd_matrix_col0(&call->C, call->npcol, call->mycol) *
                  (int64_t)call->C.desc[HPD_LLD];
  for (int64_t j = 0; j < nloc; j++) {
    int64_t gj = hpd_axis_global(&cols, j, call->mycol);
    for (int64_t i = 0; i < mloc; i++) {
      int64_t gi = hpd_axis_global(&rows, i, call->myrow);
      if (call->uplo == 'U' ? gi <= gj : gi >= gj)
        c[i + j * call->C.desc[HPD_LLD]] += scratch[i + j * ld];
    }
  }
  free(scratch);
}

/* Both products in one loop where the grid allows it: 1 if tried (its verdict in
 * *verdict), 0 if not. */
static int pair(hpd_l3_run *run, int *verdict)
{
  const hpd_call *call = &run->l3->call;
  if (call->nprow != 1 || call->npcol < 2 || call->transa != 'N')
    return 0;
  hpd_call both = *call;
  both.b_is_a = 0;
  both.pair = 1;
  *verdict = hpd_engine_serve(&both, run->l3->routine, run->grid);
  return 1;
}

hpd_status hpd_l3_syr2k(hpd_l3_run *run)
{
  int verdict;
  if (hpd_l3_syr2k_sums(run) == HPD_OK)
    return HPD_OK;
  if (pair(run, &verdict)) {
    if (verdict == HPD_SERVED_BY_ENGINE)
      return HPD_OK;
    run->reason = verdict;
    return HPD_STATUS_DECLINED;
  }
  verdict = half(run, 0, run->l3->call.beta);
  if (verdict != HPD_SERVED_BY_ENGINE) {
    run->reason = verdict;
    return HPD_STATUS_DECLINED;
  }
  verdict = half(run, 1, 1.0);
  if (verdict == HPD_SERVED_BY_ENGINE)
    return HPD_OK;
  run->reason = verdict;
  second_by_reference(run);
  return HPD_OK;
}
