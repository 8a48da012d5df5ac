/* hpd_pdgemm: the entry runner's three pieces for PDGEMM. */
#include "pblas/call.h"
#include "pblas/entry.h"
#include "pblas/reference.h"
#include "pdgemm/engine.h"

typedef struct args {
  char transa, transb;
  int m, n, k;
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
} args;

static void key(const void *call_args, hpd_repeat_key *key)
{
  const args *x = call_args;
  const char letters[] = {x->transa, x->transb};
  hpd_repeat_key_of(key, HPD_ROUTINE_PDGEMM, letters, 2, x->alpha, x->m, x->n, x->k, x->ia,
                    x->ja, x->desca, x->ib, x->jb, x->descb, x->ic, x->jc, x->descc);
}

static int serve(const void *call_args, hpd_dispatch_ticket *ticket, int *done)
{
  const args *x = call_args;
  hpd_call call;
  int reason = hpd_call_init(&call, x->transa, x->transb, x->m, x->n, x->k, x->alpha, x->a,
                             x->ia, x->ja, x->desca, x->b, x->ib, x->jb, x->descb, x->beta,
                             x->c, x->ic, x->jc, x->descc);
  if (reason == HPD_SERVED_BY_ENGINE)
    reason = hpd_pdgemm_serve(&call, HPD_ROUTINE_PDGEMM, ticket);
  *done = hpd_entry_served(reason);
  return reason;
}

static void reference(const void *call_args)
{
  args x = *(const args *)call_args;
  hpd_reference_pdgemm()(&x.transa, &x.transb, &x.m, &x.n, &x.k, &x.alpha, x.a, &x.ia, &x.ja,
                         x.desca, x.b, &x.ib, &x.jb, x.descb, &x.beta, x.c, &x.ic, &x.jc,
                         x.descc);
}

void hpd_pdgemm(char transa, char transb, int m, int n, int k, double alpha,
                const double *a, int ia, int ja, const int *desca,
                const double *b, int ib, int jb, const int *descb,
                double beta, double *c, int ic, int jc, const int *descc)
{
  static const hpd_entry entry = {HPD_ROUTINE_PDGEMM, key, serve, reference};
  const args x = {transa, transb, m, n, k, alpha, a, ia, ja, desca, b, ib, jb, descb,
                  beta, c, ic, jc, descc};
  hpd_entry_run(&entry, &x);
}
