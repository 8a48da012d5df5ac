/* hpd_pdtrsm, hpd_pdtrmm, hpd_pdsymm, hpd_pdsyr2k: the entry runner's three pieces for
 * each; their checks and service are level3.h's. */
#include "kernel/elem.h"
#include "level3/level3.h"
#include "pblas/entry.h"
#include "pblas/reference.h"

/* pdtrsm's and pdtrmm's arguments: sub(B) is overwritten. */
typedef struct trxm_args {
  hpd_routine routine;
  char side, uplo, transa, diag;
  int m, n;
  hpd_elem alpha;
  const hpd_elem *a;
  int ia, ja;
  const int *desca;
  hpd_elem *b;
  int ib, jb;
  const int *descb;
} trxm_args;

/* Serves a call that its routine's checks gave as `checked`. */
static int serve_checked(const hpd_l3 *l3, int checked, hpd_dispatch_ticket *ticket,
                         int *done)
{
  if (checked != HPD_SERVED_BY_ENGINE)
    return checked;
  return hpd_l3_serve(l3, ticket, done);
}

static void trxm_key(const void *call_args, hpd_repeat_key *key)
{
  const trxm_args *x = call_args;
  const char letters[] = {x->side, x->uplo, x->transa, x->diag};
  hpd_repeat_key_of(key, x->routine, letters, 4, x->alpha, x->m, x->n, 0, x->ia, x->ja,
                    x->desca, x->ib, x->jb, x->descb, 0, 0, NULL);
}

static int trxm_serve(const void *call_args, hpd_dispatch_ticket *ticket, int *done)
{
  const trxm_args *x = call_args;
  hpd_l3 l3;
  int checked = hpd_l3_init_trxm(&l3, x->routine, x->side, x->uplo, x->transa, x->diag,
                                 x->m, x->n, x->alpha, x->a, x->ia, x->ja, x->desca, x->b,
                                 x->ib, x->jb, x->descb);
  return serve_checked(&l3, checked, ticket, done);
}

static void trxm_reference(const void *call_args)
{
  trxm_args x = *(const trxm_args *)call_args;
  (x.routine == HPD_ROUTINE_PDTRSM ? hpd_reference_pdtrsm() : hpd_reference_pdtrmm())(
      &x.side, &x.uplo, &x.transa, &x.diag, &x.m, &x.n, &x.alpha, x.a, &x.ia, &x.ja,
      x.desca, x.b, &x.ib, &x.jb, x.descb);
}

static const hpd_entry trsm_entry = {.routine = HPD_ROUTINE_PDTRSM, .key = trxm_key,
                                     .serve = trxm_serve, .reference = trxm_reference};
static const hpd_entry trmm_entry = {.routine = HPD_ROUTINE_PDTRMM, .key = trxm_key,
                                     .serve = trxm_serve, .reference = trxm_reference};

void hpd_pdtrsm(char side, char uplo, char transa, char diag, int m, int n, double alpha,
                const double *a, int ia, int ja, const int *desca, double *b, int ib, int jb,
                const int *descb)
{
  const trxm_args x = {HPD_ROUTINE_PDTRSM, side, uplo, transa, diag, m, n, alpha,
                       a, ia, ja, desca, b, ib, jb, descb};
  hpd_entry_run(&trsm_entry, &x);
}

void hpd_pdtrmm(char side, char uplo, char transa, char diag, int m, int n, double alpha,
                const double *a, int ia, int ja, const int *desca, double *b, int ib, int jb,
                const int *descb)
{
  const trxm_args x = {HPD_ROUTINE_PDTRMM, side, uplo, transa, diag, m, n, alpha,
                       a, ia, ja, desca, b, ib, jb, descb};
  hpd_entry_run(&trmm_entry, &x);
}

static void symm_key(const void *call_args, hpd_repeat_key *key)
{
  const hpd_sum_args *x = call_args;
  hpd_sum_args_key(x, HPD_ROUTINE_PDSYMM, x->m, x->n, 0, key);
}

static int symm_serve(const void *call_args, hpd_dispatch_ticket *ticket, int *done)
{
  const hpd_sum_args *x = call_args;
  hpd_l3 l3;
  int checked = hpd_l3_init_symm(&l3, x->first, x->second, x->m, x->n, x->alpha, x->a,
                                 x->ia, x->ja, x->desca, x->b, x->ib, x->jb, x->descb,
                                 x->beta, x->c, x->ic, x->jc, x->descc);
  return serve_checked(&l3, checked, ticket, done);
}

static void symm_reference(const void *call_args)
{
  hpd_sum_args x = *(const hpd_sum_args *)call_args;
  hpd_reference_pdsymm()(&x.first, &x.second, &x.m, &x.n, &x.alpha, x.a, &x.ia, &x.ja,
                         x.desca, x.b, &x.ib, &x.jb, x.descb, &x.beta, x.c, &x.ic, &x.jc,
                         x.descc);
}

void hpd_pdsymm(char side, char uplo, int m, int n, double alpha, const double *a, int ia,
                int ja, const int *desca, const double *b, int ib, int jb, const int *descb,
                double beta, double *c, int ic, int jc, const int *descc)
{
  static const hpd_entry entry = {.routine = HPD_ROUTINE_PDSYMM, .key = symm_key,
                                  .serve = symm_serve, .reference = symm_reference};
  const hpd_sum_args x = {side, uplo, m, n, 0, alpha, a, ia, ja, desca, b, ib, jb, descb,
                          beta, c, ic, jc, descc};
  hpd_entry_run(&entry, &x);
}

static void syr2k_key(const void *call_args, hpd_repeat_key *key)
{
  const hpd_sum_args *x = call_args;
  hpd_sum_args_key(x, HPD_ROUTINE_PDSYR2K, x->n, x->n, x->k, key);
}

static int syr2k_serve(const void *call_args, hpd_dispatch_ticket *ticket, int *done)
{
  const hpd_sum_args *x = call_args;
  hpd_l3 l3;
  int checked = hpd_l3_init_syr2k(&l3, x->first, x->second, x->n, x->k, x->alpha, x->a,
                                  x->ia, x->ja, x->desca, x->b, x->ib, x->jb, x->descb,
                                  x->beta, x->c, x->ic, x->jc, x->descc);
  return serve_checked(&l3, checked, ticket, done);
}

static void syr2k_reference(const void *call_args)
{
  hpd_sum_args x = *(const hpd_sum_args *)call_args;
  hpd_reference_pdsyr2k()(&x.first, &x.second, &x.n, &x.k, &x.alpha, x.a, &x.ia, &x.ja,
                          x.desca, x.b, &x.ib, &x.jb, x.descb, &x.beta, x.c, &x.ic, &x.jc,
                          x.descc);
}

void hpd_pdsyr2k(char uplo, char trans, int n, int k, double alpha, const double *a, int ia,
                 int ja, const int *desca, const double *b, int ib, int jb, const int *descb,
                 double beta, double *c, int ic, int jc, const int *descc)
{
  static const hpd_entry entry = {.routine = HPD_ROUTINE_PDSYR2K, .key = syr2k_key,
                                  .serve = syr2k_serve, .reference = syr2k_reference};
  const hpd_sum_args x = {uplo, trans, 0, n, k, alpha, a, ia, ja, desca, b, ib, jb, descb,
                          beta, c, ic, jc, descc};
  hpd_entry_run(&entry, &x);
}
