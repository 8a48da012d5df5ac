#include "bcast/bcast.h"
#include "core/stats.h"
#include "kernel/kernel.h"
#include "level3/blocked.h"
#include "level3/local.h"
#include "local/direct.h"
#include "pblas/scalapack_api.h"
#include "pdgemm/engine.h"

/* Every operand of the call lies on the one process holding sub(C) (sub(B)). */
static int is_local(const hpd_l3 *l3)
{
  const hpd_call *call = &l3->call;
  int prow, pcol;
  if (hpd_direct_owner(call, &call->C, call->m, call->n, &prow, &pcol) != 0)
    return 0;
  if (l3->routine == HPD_ROUTINE_PDSYR2K) {
    int rows = call->transa == 'N' ? call->n : call->k;
    int cols = call->transa == 'N' ? call->k : call->n;
    return hpd_direct_held_by(call, &call->A, rows, cols, prow, pcol) &&
           hpd_direct_held_by(call, &call->B, rows, cols, prow, pcol);
  }
  if (!hpd_direct_held_by(call, &call->A, call->k, call->k, prow, pcol))
    return 0;
  return l3->routine != HPD_ROUTINE_PDSYMM ||
         hpd_direct_held_by(call, &call->B, call->m, call->n, prow, pcol);
}

/* The owner's one BLAS call. */
static void serve_local(const hpd_l3 *l3)
{
  const hpd_call *call = &l3->call;
  hpd_axis crows = hpd_matrix_rows(&call->C, call->nprow);
  hpd_axis ccols = hpd_matrix_cols(&call->C, call->npcol);
  if (call->myrow != crows.src || call->mycol != ccols.src)
    return;
  const hpd_elem *a = hpd_direct_origin(call, &call->A, call->a);
  hpd_elem *c = hpd_direct_origin(call, &call->C, call->c);
  int lda = call->A.desc[HPD_LLD], ldc = call->C.desc[HPD_LLD];
  switch (l3->routine) {
  case HPD_ROUTINE_PDTRSM:
    hpd_l3_local_trsm(l3->side, call->uplo, call->transa, l3->diag, call->m, call->n,
                      call->alpha, a, lda, c, ldc);
    break;
  case HPD_ROUTINE_PDTRMM:
    hpd_kernel_trmm(l3->side, call->uplo, call->transa, l3->diag, call->m, call->n,
                    call->alpha, a, lda, c, ldc);
    break;
  case HPD_ROUTINE_PDSYMM:
    hpd_kernel_symm(l3->side, call->uplo, call->m, call->n, call->alpha, a, lda,
                    hpd_direct_origin(call, &call->B, call->b), call->B.desc[HPD_LLD],
                    call->beta, c, ldc);
    break;
  default:
    hpd_kernel_syr2k(call->uplo, call->transa, call->n, call->k, call->alpha, a, lda,
                     hpd_direct_origin(call, &call->B, call->b), call->B.desc[HPD_LLD],
                     call->beta, c, ldc);
    break;
  }
}

/* Nothing to multiply: sub(B) := 0 (pdtrsm, pdtrmm) or sub(C) := beta * sub(C) on its
 * triangle for pdsyr2k, as PBLAS defines alpha = 0 (K = 0); a local step. */
static int nothing_to_multiply(const hpd_l3 *l3, hpd_l3_run *run)
{
  const hpd_call *call = &l3->call;
  if (call->alpha != 0.0 && (l3->routine != HPD_ROUTINE_PDSYR2K || call->k != 0))
    return 0;
  if (l3->routine == HPD_ROUTINE_PDSYR2K) {
    hpd_call scale = *call;
    scale.k = 0;
    /* Refused only where the grid cannot be made, on every rank alike: the caller finds
     * that too and hands the call to the reference. */
    if (hpd_engine_serve(&scale, l3->routine, NULL) != HPD_SERVED_BY_ENGINE)
      return 0;
  } else
    hpd_l3_scale(run, call->m, call->n, l3->routine == HPD_ROUTINE_PDSYMM ? call->beta : 0.0,
                 call->c, &call->C);
  return 1;
}

static int serve_engine(const hpd_l3 *l3, const hpd_grid *grid, int *done)
{
  const hpd_call *call = &l3->call;
  hpd_l3_run run = {.l3 = l3, .grid = grid, .reason = HPD_SERVED_BY_ENGINE};
  *done = 1;
  if (call->myrow < 0 || call->mycol < 0 || call->m == 0 || call->n == 0 ||
      nothing_to_multiply(l3, &run))
    return HPD_SERVED_BY_ENGINE;
  if (!run.grid)
    run.grid = hpd_grid_get(call->ictxt, call->nprow, call->npcol, call->myrow, call->mycol);
  if (!run.grid) {
    *done = 0;
    return HPD_FALLBACK_NO_GRID;
  }
  if (l3->routine != HPD_ROUTINE_PDSYR2K && hpd_l3_split(l3, &call->A, call->k) == 0) {
    /* One diagonal block (LU's and Cholesky's calls): hpdaemon's where the layout allows,
     * else nothing for hpdaemon to add, and the reference takes the whole call. */
    hpd_elem beta = l3->routine == HPD_ROUTINE_PDSYMM ? call->beta : 0.0;
    const hpd_matrix *b = l3->routine == HPD_ROUTINE_PDSYMM ? &call->B : &call->C;
    if (hpd_l3_line(&run, &call->A, b, &call->C, call->k, call->alpha, beta) == HPD_OK)
      return HPD_SERVED_BY_ENGINE;
    *done = 0;
    return HPD_SERVED_DIRECT_REFERENCE;
  }
  switch (l3->routine) {
  case HPD_ROUTINE_PDTRSM:
  case HPD_ROUTINE_PDTRMM:
    hpd_l3_trxm(&run);
    break;
  case HPD_ROUTINE_PDSYMM:
    hpd_l3_symm(&run);
    break;
  default:
    if (hpd_l3_syr2k(&run) != HPD_OK)
      *done = 0;
    break;
  }
  return run.reason;
}

/* On a 2-D grid pdtrsm's engine solves block by block with a look-ahead (trsm_grid.c),
 * reading sub(A) in place or dealt anew, where its buffers fit the memory threshold, and
 * otherwise halves sub(A)'s order where it spans more than one block (trxm.c).  The block
 * solve moves sub(A)'s panels however narrow sub(B) is, where PBLAS then moves sub(B)
 * alone: a class with few right-hand sides is held as a halved one is.  Halved, sub(B)'s
 * panels then travel once per level of the halving, log2 of sub(A)'s blocks times what
 * PBLAS moves.  Halved trials lost to PBLAS in 11 of 12 simulated cases (pdtrsm, pdtrmm
 * and pdsymm of order 4096, 4x4 to 16x16: 0.18 to 0.98 of the opening call's speed), so a
 * halved pdtrsm is tried there only in a round of calibration, paid from the budget.  The
 * block solve moves pdgemm's traffic of the same order, less half of sub(A)'s panels (and
 * a Q-th of them more where sub(A) is dealt anew), and is tried as pdgemm is: at once,
 * unless the links' floor holds it (it won on InfiniBand from order 512 up, and on
 * Gigabit Ethernet lost below order 4096 where the floor did not hold it; timing/notes).
 * pdtrmm and pdsymm are served there as one and two multiplies of pdgemm's traffic
 * (whole.c), and tried as pdgemm is; pdsyr2k's trials won on the same grids, and a call
 * whose sub(A) is one diagonal block is not halved. */
static hpd_trial trial_of(const hpd_l3 *l3)
{
  const hpd_call *call = &l3->call;
  int two_d = call->nprow > 1 && call->npcol > 1;
  if (!two_d || l3->routine == HPD_ROUTINE_PDSYR2K || call->myrow < 0 || call->mycol < 0 ||
      hpd_l3_split(l3, &call->A, call->k) == 0)
    return HPD_TRIAL_AT_ONCE;
  if (l3->routine == HPD_ROUTINE_PDTRSM) {
    /* the grid the dispatch is about to ask for: made already, or made there alike */
    const hpd_grid *grid =
        hpd_grid_get(call->ictxt, call->nprow, call->npcol, call->myrow, call->mycol);
    return hpd_l3_trsm_grid_fits(l3, grid) ? HPD_TRIAL_AS_PDGEMM : HPD_TRIAL_FROM_BUDGET;
  }
  return l3->routine == HPD_ROUTINE_PDTRMM ? HPD_TRIAL_AS_PDGEMM : HPD_TRIAL_AS_TWO_PDGEMMS;
}

int hpd_l3_serve(const hpd_l3 *l3, hpd_dispatch_ticket *ticket, int *done)
{
  *done = 0;
  hpd_route route =
      hpd_dispatch_route(&l3->call, l3->routine, is_local(l3), trial_of(l3), ticket);
  if (route == HPD_ROUTE_LOCAL) {
    serve_local(l3);
    *done = 1;
    return HPD_SERVED_DIRECT_LOCAL;
  }
  if (route == HPD_ROUTE_REFERENCE)
    return HPD_SERVED_DIRECT_REFERENCE;
  hpd_dispatch_engine_begin(ticket);
  int verdict = serve_engine(l3, ticket->grid, done);
  hpd_dispatch_engine_done(ticket);
  return verdict;
}
