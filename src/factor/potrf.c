/*
 * hpd_pdpotrf: ScaLAPACK's PDPOTRF, the Cholesky factorization of a distributed
 * symmetric positive definite matrix.
 *
 * Served here: either factor on any grid of two processes or more (chol.h: a look-ahead
 * keeps every process busy, with each panel whole on one process or its rows spread over
 * a line of the grid, or over a 2-D grid) where the dispatch rule finds it faster than
 * the reference (lookahead.h), and any call on a single process (LAPACK's dpotrf on the
 * local array, counted as direct).  Anything else (a descriptor replicated over the grid,
 * a panel too large to count in an int) goes to the installed ScaLAPACK, whose PDSYRK and
 * PDTRSM calls hpdaemon still serves; so does any call PDPOTRF would reject, which it
 * then reports as ScaLAPACK does.
 *
 * The factor is not the reference's to the bit: the diagonal blocks go through LAPACK's
 * blocked dpotrf instead of PDPOTF2's column by column dot products, and the solves and
 * updates sum in another order.  It meets the same residual bound (ScaLAPACK's testers
 * check it), and INFO is PDPOTRF's: the order of the first leading minor that is not
 * positive definite, on every process.
 */
#include <ctype.h>
#include <limits.h>

#include "core/stats.h"
#include "factor/chol.h"
#include "factor/lookahead.h"
#include "kernel/kernel.h"
#include "level3/local.h"
#include "pblas/call.h"
#include "pblas/entry.h"
#include "pblas/reference.h"
#include "pblas/scalapack_api.h"

typedef struct request {
  char uplo;
  int n, ia, ja;
  hpd_elem *a;
  const int *desca;
  int *info;
} request;

/* PDPOTRF's checks: 1 when it would accept the call. */
static int accepted(const request *r, hpd_call *call)
{
  char u = (char)toupper((unsigned char)r->uplo);
  return (u == 'U' || u == 'L') &&
         hpd_factor_accepted(call, r->n, r->n, r->ia, r->ja, r->desca);
}

/* The look-ahead, once hpd_factor_serve has the grid and the buffers: chol.c where each
 * panel lies whole on one process, chol_spread.c where its rows are spread. */
static int run(void *work, const hpd_grid *grid, hpd_elem *space)
{
  hpd_chol *c = work;
  c->grid = grid;
  return hpd_chol_factor(c, space);
}

static int run_grid(void *work, const hpd_grid *grid, hpd_elem *space)
{
  hpd_chol *c = work;
  c->grid = grid;
  return hpd_chol_grid_factor(c, space);
}

static int run_spread(void *work, const hpd_grid *grid, hpd_elem *space)
{
  hpd_chol *c = work;
  c->grid = grid;
  return hpd_chol_spread_factor(c, space);
}

/* One process holds all of sub(A): factored in place panel by panel, as PDPOTRF steps
 * through it, so that a matrix that is not positive definite is left as PDPOTRF leaves
 * it (the panels before the failing one applied to everything after them).  Returns
 * INFO. */
static int factor_alone(const request *r, const hpd_call *call)
{
  int lld = call->A.desc[HPD_LLD], nb = call->A.desc[HPD_NB], n = r->n;
  int lower = toupper((unsigned char)r->uplo) == 'L';
  char u = lower ? 'L' : 'U', t = lower ? 'N' : 'T';
  hpd_elem *a = r->a + call->A.i + (int64_t)call->A.j * lld;
  for (int g0 = 0; g0 < n; g0 += nb) {
    int jb = n - g0 < nb ? n - g0 : nb, below = n - g0 - jb;
    hpd_elem *diag = a + g0 + (int64_t)g0 * lld;
    int info = hpd_kernel_potrf(u, jb, diag, lld);
    if (info != 0)
      return g0 + info;
    if (below == 0)
      break;
    hpd_elem *panel = lower ? diag + jb : diag + (int64_t)jb * lld;
    if (lower)
      hpd_l3_local_trsm('R', 'L', 'T', 'N', below, jb, 1.0, diag, lld, panel, lld);
    else
      hpd_l3_local_trsm('L', 'U', 'T', 'N', jb, below, 1.0, diag, lld, panel, lld);
    hpd_kernel_syrk(u, t, below, jb, -1.0, panel, lld, 1.0, diag + jb + (int64_t)jb * lld,
                    lld);
  }
  return 0;
}

static int serve(const void *args, hpd_dispatch_ticket *ticket)
{
  const request *r = args;
  hpd_call call = {0};
  if (!accepted(r, &call))
    return HPD_FALLBACK_BAD_ARGUMENT;
  const int *d = call.A.desc;
  if (d[HPD_RSRC] < 0 || d[HPD_CSRC] < 0)
    return HPD_FALLBACK_UNSUPPORTED;
  if (r->n == 0) {
    *r->info = 0;
    return HPD_SERVED_DIRECT_LOCAL;
  }
  if (call.nprow == 1 && call.npcol == 1) {
    *r->info = factor_alone(r, &call);
    return HPD_SERVED_DIRECT_LOCAL;
  }
  int upper = toupper((unsigned char)r->uplo) == 'U';
  if ((int64_t)r->n * d[HPD_NB] > INT_MAX)
    return HPD_FALLBACK_UNSUPPORTED;
  /* Three panels or fewer: little for a look-ahead to hide, and PDPOTRF's few messages
   * cost about as much as the look-ahead's bookkeeping (0.8 to 0.9 of the reference at
   * order 128, NB 64; 0.92 and 0.94 at 192).  Decided from the call alone, like the
   * dispatch rule's direct routes. */
  if (r->n <= 3 * d[HPD_NB])
    return HPD_SERVED_DIRECT_REFERENCE;
  call.m = call.n = call.k = r->n; /* the dispatch rule's class */
  call.uplo = upper ? 'U' : 'L';
  hpd_chol c = {.n = r->n, .upper = upper, .a = r->a, .sub = call.A, .call = &call};
  if (call.nprow != 1 && call.npcol != 1)
    return hpd_factor_serve(&call, HPD_ROUTINE_PDPOTRF, hpd_chol_grid_bytes(&c), run_grid, &c,
                            ticket, r->info);
  if (upper == (call.npcol == 1)) /* each panel whole on one process */
    return hpd_factor_serve(&call, HPD_ROUTINE_PDPOTRF, hpd_chol_bytes(&c), run, &c, ticket,
                            r->info);
  return hpd_factor_serve(&call, HPD_ROUTINE_PDPOTRF, hpd_chol_spread_bytes(&c), run_spread,
                          &c, ticket, r->info);
}

static void reference(const void *args)
{
  request r = *(const request *)args;
  hpd_reference_pdpotrf()(&r.uplo, &r.n, r.a, &r.ia, &r.ja, r.desca, r.info);
}

void hpd_pdpotrf(char uplo, int n, double *a, int ia, int ja, const int *desca, int *info)
{
  static const hpd_entry entry = {.routine = HPD_ROUTINE_PDPOTRF, .serve_whole = serve,
                                  .reference = reference, .reference_whole = 1};
  const request r = {uplo, n, ia, ja, a, desca, info};
  hpd_entry_run(&entry, &r);
}
