/*
 * hpd_pdgetrf: ScaLAPACK's PDGETRF, the LU factorization with partial pivoting of a
 * distributed matrix.
 *
 * Served here, where the dispatch rule finds it faster than the reference (lookahead.h):
 * any call of more than two panels on one process row (lu.h: panels need no message to
 * factor or to pivot, and a look-ahead keeps every process busy), the same turned from
 * one process column where sub(A) is at most twice as tall as wide (lu_turned.c), and
 * every other grid of two processes or more through the 2-D look-ahead (lu_grid.c);
 * any call on a single process as LAPACK's dgetrf, counted as direct.  Two panels or one
 * go to the installed ScaLAPACK as a direct route (pdpotrf's rule keeps three:
 * ScaLAPACK's LU panel is slower than its Cholesky one).  What still goes to it as a
 * fallback: a descriptor replicated over the grid and a panel too large to count in an
 * int.  Calls PDGETRF would reject go to it too, which reports them as ScaLAPACK does.
 *
 * The factors are not the reference's to the bit: on a line the panel is factored by
 * dgetrf, and on a 2-D grid recursively (lu_panel.h), whose updates sum in another order
 * than PDGETF2's, so that where two candidate pivots of a column differ only by rounding
 * the choice may differ too.  Exact ties go as PDGETF2 breaks them, but on a turned
 * process column, where dgetrf takes the first row and PDAMAX the lowest process row's.
 * Both are a valid P * L * U with the same residual bound; INFO is PDGETRF's (the first
 * exactly zero diagonal entry of U, the factorization completed), and IPIV holds global
 * row indices where PDGETRF leaves them, on every process.
 */
#include <limits.h>

#include "core/stats.h"
#include "factor/lookahead.h"
#include "factor/lu.h"
#include "kernel/kernel.h"
#include "pblas/call.h"
#include "pblas/entry.h"
#include "pblas/reference.h"
#include "pblas/scalapack_api.h"

typedef struct request {
  int m, n, ia, ja;
  hpd_elem *a;
  const int *desca;
  int *ipiv, *info;
} request;

/* The look-ahead, once hpd_factor_serve has the grid and the buffers: on the process
 * row, or turned from the process column. */
static int run(void *work, const hpd_grid *grid, hpd_elem *space)
{
  hpd_lu *f = work;
  f->line = grid->row;
  f->bcast = hpd_grid_bcast(grid);
  return hpd_lu_factor(f, space);
}

static int run_turned(void *work, const hpd_grid *grid, hpd_elem *space)
{
  hpd_lu *f = work;
  f->line = grid->col;
  f->bcast = hpd_grid_bcast(grid);
  return hpd_lu_turned_factor(f, grid->nodes, space);
}

static int run_grid(void *work, const hpd_grid *grid, hpd_elem *space)
{
  hpd_lu *f = work;
  f->grid = grid;
  f->bcast = hpd_grid_bcast(grid);
  return hpd_lu_grid_factor(f, space);
}

static int serve(const void *args, hpd_dispatch_ticket *ticket)
{
  const request *r = args;
  hpd_call call = {0};
  if (!hpd_factor_accepted(&call, r->m, r->n, r->ia, r->ja, r->desca))
    return HPD_FALLBACK_BAD_ARGUMENT;
  const int *d = call.A.desc;
  if (d[HPD_RSRC] < 0 || d[HPD_CSRC] < 0)
    return HPD_FALLBACK_UNSUPPORTED;
  int mn = r->m < r->n ? r->m : r->n;
  /* PDGETRF's quick returns (a global matrix of one row sets IPIV(1) only) */
  if (d[HPD_M] == 1 || mn == 0)
    return HPD_SERVED_DIRECT_REFERENCE;
  if (call.nprow == 1 && call.npcol == 1) {
    int lld = d[HPD_LLD];
    int *ipiv = r->ipiv + call.A.i;
    *r->info = hpd_kernel_getrf(r->m, r->n, r->a + call.A.i + (int64_t)call.A.j * lld, lld, ipiv);
    for (int i = 0; i < mn; i++)
      ipiv[i] += call.A.i; /* rows of A, not of sub(A) */
    return HPD_SERVED_DIRECT_LOCAL;
  }
  /* Turned from a process column only where sub(A) is at most twice as tall as wide:
   * taller, most of the work is in panels that one process would factor alone. */
  int turned = call.npcol == 1 && r->m <= 2 * (int64_t)r->n;
  if ((int64_t)r->m * d[HPD_NB] > INT_MAX)
    return HPD_FALLBACK_UNSUPPORTED;
  if (mn <= 2 * d[HPD_NB]) /* little for a look-ahead to hide (potrf.c) */
    return HPD_SERVED_DIRECT_REFERENCE;
  call.m = r->m; /* the dispatch rule's class */
  call.n = r->n;
  call.k = mn;
  hpd_lu f = {.m = r->m, .n = r->n, .a = r->a, .ipiv = r->ipiv, .sub = call.A,
              .call = &call};
  if (turned)
    return hpd_factor_serve(&call, HPD_ROUTINE_PDGETRF, hpd_lu_turned_bytes(&f), run_turned,
                            &f, ticket, r->info);
  if (call.nprow != 1)
    return hpd_factor_serve(&call, HPD_ROUTINE_PDGETRF, hpd_lu_grid_bytes(&f), run_grid, &f,
                            ticket, r->info);
  return hpd_factor_serve(&call, HPD_ROUTINE_PDGETRF, hpd_lu_bytes(&f), run, &f, ticket,
                          r->info);
}

static void reference(const void *args)
{
  request r = *(const request *)args;
  hpd_reference_pdgetrf()(&r.m, &r.n, r.a, &r.ia, &r.ja, r.desca, r.ipiv, r.info);
}

void hpd_pdgetrf(int m, int n, double *a, int ia, int ja, const int *desca, int *ipiv,
                 int *info)
{
  static const hpd_entry entry = {.routine = HPD_ROUTINE_PDGETRF, .serve_whole = serve,
                                  .reference = reference, .reference_whole = 1};
  const request r = {m, n, ia, ja, a, desca, ipiv, info};
  hpd_entry_run(&entry, &r);
}
