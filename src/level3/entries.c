/* hpd_pdtrsm, hpd_pdtrmm, hpd_pdsymm, hpd_pdsyr2k: the entry runner's three pieces for
 * each; their checks and service are level3.h's. */
#include "level3/level3.h"
#include "pblas/entry.h"
#include "pblas/reference.h"

/* pdtrsm's and pdtrmm's arguments: sub(B) is overwritten. */
typedef struct trxm_args {
  hpd_routine routine;
  char side, uplo, transa, diag;
  int m, n;
  double alpha;
  const double *a;
  int ia, ja;
  const int *desca;
  double *b;
  int ib, jb;
  const int *descb;
} trxm_args;

/* pdsymm's and pdsyr2k's: sub(C) is updated from sub(A) and sub(B).  For pdsymm the
 * letters are SIDE and UPLO and the extents M and N; for pdsyr2k UPLO and TRANS, N and
 * K. */
typedef struct sum_args {
  char first, second;
  int e1, e2;
  double alpha;
  const double *a;
  int ia, ja;
  const int *desca;
  const double *b;
  int ib, jb;
  const int *descb;
  double beta;
  double *c;
  int ic, jc;
  const int *descc;
} sum_args;

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

static const hpd_entry trsm_entry = {HPD_ROUTINE_PDTRSM, trxm_key, trxm_serve,
                                     trxm_reference};
static const hpd_entry trmm_entry = {HPD_ROUTINE_PDTRMM, trxm_key, trxm_serve,
                                     trxm_reference};

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

static void sum_key(const sum_args *x, hpd_routine routine, int m, int n, int k,
                    hpd_repeat_key *key)
{
  const char letters[] = {x->first, x->second};
  hpd_repeat_key_of(key, routine, letters, 2, x->alpha, m, n, k, x->ia, x->ja, x->desca,
                    x->ib, x->jb, x->descb, x->ic, x->jc, x->descc);
}

static void symm_key(const void *call_args, hpd_repeat_key *key)
{
  const sum_args *x = call_args;
  sum_key(x, HPD_ROUTINE_PDSYMM, x->e1, x->e2, 0, key);
}

static int symm_serve(const void *call_args, hpd_dispatch_ticket *ticket, int *done)
{
  const sum_args *x = call_args;
  hpd_l3 l3;
  int checked = hpd_l3_init_symm(&l3, x->first, x->second, x->e1, x->e2, x->alpha, x->a,
                                 x->ia, x->ja, x->desca, x->b, x->ib, x->jb, x->descb,
                                 x->beta, x->c, x->ic, x->jc, x->descc);
  return serve_checked(&l3, checked, ticket, done);
}

static void symm_reference(const void *call_args)
{
  sum_args x = *(const sum_args *)call_args;
  hpd_reference_pdsymm()(&x.first, &x.second, &x.e1, &x.e2, &x.alpha, x.a, &x.ia, &x.ja,
                         x.desca, x.b, &x.ib, &x.jb, x.descb, &x.beta, x.c, &x.ic, &x.jc,
                         x.descc);
}

void hpd_pdsymm(char side, char uplo, int m, int n, double alpha, const double *a, int ia,
                int ja, const int *desca, const double *b, int ib, int jb, const int *descb,
                double beta, double *c, int ic, int jc, const int *descc)
{
  static const hpd_entry entry = {HPD_ROUTINE_PDSYMM, symm_key, symm_serve, symm_reference};
  const sum_args x = {side, uplo, m, n, alpha, a, ia, ja, desca, b, ib, jb, descb,
                      beta, c, ic, jc, descc};
  hpd_entry_run(&entry, &x);
}

static void syr2k_key(const void *call_args, hpd_repeat_key *key)
{
  const sum_args *x = call_args;
  sum_key(x, HPD_ROUTINE_PDSYR2K, x->e1, x->e1, x->e2, key);
}

static int syr2k_serve(const void *call_args, hpd_dispatch_ticket *ticket, int *done)
{
  const sum_args *x = call_args;
  hpd_l3 l3;
  int checked = hpd_l3_init_syr2k(&l3, x->first, x->second, x->e1, x->e2, x->alpha, x->a,
                                  x->ia, x->ja, x->desca, x->b, x->ib, x->jb, x->descb,
                                  x->beta, x->c, x->ic, x->jc, x->descc);
  return serve_checked(&l3, checked, ticket, done);
}

static void syr2k_reference(const void *call_args)
{
  sum_args x = *(const sum_args *)call_args;
  hpd_reference_pdsyr2k()(&x.first, &x.second, &x.e1, &x.e2, &x.alpha, x.a, &x.ia, &x.ja,
                          x.desca, x.b, &x.ib, &x.jb, x.descb, &x.beta, x.c, &x.ic, &x.jc,
                          x.descc);
}

void hpd_pdsyr2k(char uplo, char trans, int n, int k, double alpha, const double *a, int ia,
                 int ja, const int *desca, const double *b, int ib, int jb, const int *descb,
                 double beta, double *c, int ic, int jc, const int *descc)
{
  static const hpd_entry entry = {HPD_ROUTINE_PDSYR2K, syr2k_key, syr2k_serve,
                                  syr2k_reference};
  const sum_args x = {uplo, trans, n, k, alpha, a, ia, ja, desca, b, ib, jb, descb,
                      beta, c, ic, jc, descc};
  hpd_entry_run(&entry, &x);
}
