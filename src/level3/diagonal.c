/*
 * One diagonal block of pdtrsm, pdtrmm or pdsymm by hpdaemon itself, where the layout
 * allows it: the block of sub(A) lies on one process, and the part of sub(B) (and sub(C))
 * it meets lies on that process's row (SIDE 'L') or column ('R').  This is how LU and
 * Cholesky call pdtrsm (one block of U or L against a block row or column), and how
 * inversion calls pdtrmm.  The owner's block travels along its row (column) in the
 * engine's broadcast, and each process there updates its own columns (rows) with one
 * local BLAS call; nobody else takes part, so the rest of the grid is not held up.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bcast.h"
#include "blocked.h"
#include "direct.h"
#include "log.h"
#include "scalapack_api.h"

/* The block's buffer, kept from call to call (diagonal blocks are small and many). */
static double *block_buffer(size_t count)
{
  static double *kept;
  static size_t kept_count;
  if (count <= kept_count)
    return kept;
  double *grown = realloc(kept, count * sizeof *grown);
  if (!grown) {
    /* Every process of the row has already taken this path from descriptor data alone:
     * none can turn back to the reference now. */
    fprintf(stderr, "hpdaemon: error: no memory for a %zu-entry diagonal block (rank %d)\n",
            count, hpd_world_rank());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  kept_count = count;
  return kept = grown;
}

/* 1 where the layout lets this block be served here. */
static int fits(const hpd_l3_run *run, const hpd_matrix *a, const hpd_matrix *b,
                const hpd_matrix *c, int k, int *root)
{
  const hpd_l3 *l3 = run->l3;
  const hpd_call *call = &l3->call;
  int ar, ac;
  if (hpd_direct_owner(call, a, k, k, &ar, &ac) != 0)
    return 0;
  int left = l3->side == 'L';
  hpd_axis bk = left ? hpd_matrix_rows(b, call->nprow) : hpd_matrix_cols(b, call->npcol);
  if (hpd_direct_axis_owner(bk, k) != (left ? ar : ac))
    return 0;
  if (l3->routine == HPD_ROUTINE_PDSYMM) {
    hpd_axis ck = left ? hpd_matrix_rows(c, call->nprow) : hpd_matrix_cols(c, call->npcol);
    hpd_axis bw = left ? hpd_matrix_cols(b, call->npcol) : hpd_matrix_rows(b, call->nprow);
    hpd_axis cw = left ? hpd_matrix_cols(c, call->npcol) : hpd_matrix_rows(c, call->nprow);
    if (!hpd_axis_same(&bk, &ck, k) || !hpd_axis_same(&bw, &cw, left ? call->n : call->m))
      return 0;
  }
  *root = left ? ac : ar;
  return 1;
}

int hpd_l3_diagonal(hpd_l3_run *run, const hpd_matrix *a, const hpd_matrix *b,
                    const hpd_matrix *c, int k, double alpha, double beta)
{
  const hpd_l3 *l3 = run->l3;
  const hpd_call *call = &l3->call;
  int root;
  if (!fits(run, a, b, c, k, &root))
    return -1;
  int left = l3->side == 'L';
  hpd_axis bk = left ? hpd_matrix_rows(b, call->nprow) : hpd_matrix_cols(b, call->npcol);
  if ((left ? call->myrow : call->mycol) != bk.src)
    return 0; /* not on the block's row (column) */
  hpd_axis bw = left ? hpd_matrix_cols(b, call->npcol) : hpd_matrix_rows(b, call->nprow);
  int width = (int)hpd_axis_count(&bw, left ? call->n : call->m,
                                  left ? call->mycol : call->myrow);
  MPI_Comm line = left ? run->grid->row : run->grid->col;
  int me = left ? call->mycol : call->myrow, ld = k;
  double *block = block_buffer((size_t)k * (size_t)k);
  if (me == root) {
    const double *mine = hpd_direct_origin(call, a, call->a);
    for (int j = 0; j < k; j++)
      memcpy(block + (size_t)j * k, mine + (size_t)j * a->desc[HPD_LLD],
             (size_t)k * sizeof *block);
  }
  if ((left ? call->npcol : call->nprow) > 1) {
    hpd_bcast handle;
    hpd_bcast_start(block, (size_t)k * (size_t)k, root, line, &handle);
    hpd_bcast_wait(&handle, 1);
  }
  if (width == 0)
    return 0;
  int m = left ? k : width, n = left ? width : k;
  double *bx = hpd_direct_origin(call, b, l3->routine == HPD_ROUTINE_PDSYMM ? call->b : call->c);
  const int *ldb = &b->desc[HPD_LLD];
  switch (l3->routine) {
  case HPD_ROUTINE_PDTRSM:
    dtrsm_(&l3->side, &call->uplo, &call->transa, &l3->diag, &m, &n, &alpha, block, &ld, bx,
           ldb);
    break;
  case HPD_ROUTINE_PDTRMM:
    dtrmm_(&l3->side, &call->uplo, &call->transa, &l3->diag, &m, &n, &alpha, block, &ld, bx,
           ldb);
    break;
  default:
    dsymm_(&l3->side, &call->uplo, &m, &n, &alpha, block, &ld, bx, ldb, &beta,
           hpd_direct_origin(call, c, call->c), &c->desc[HPD_LLD]);
    break;
  }
  return 0;
}
