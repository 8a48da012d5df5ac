/* hpd_pdgemm: the entry runner's pieces for PDGEMM. */
#include "local/direct.h"
#include "pblas/call.h"
#include "pblas/entry.h"
#include "pblas/reference.h"
#include "pdgemm/engine.h"

static void key(const void *args, hpd_repeat_key *key)
{
  const hpd_sum_args *x = args;
  hpd_sum_args_key(x, HPD_ROUTINE_PDGEMM, x->m, x->n, x->k, key);
}

static int serve(const void *args, hpd_dispatch_ticket *ticket, int *done)
{
  const hpd_sum_args *x = args;
  hpd_call call;
  int reason = hpd_call_init(&call, x->first, x->second, x->m, x->n, x->k, x->alpha, x->a,
                             x->ia, x->ja, x->desca, x->b, x->ib, x->jb, x->descb, x->beta,
                             x->c, x->ic, x->jc, x->descc);
  if (reason == HPD_SERVED_BY_ENGINE)
    reason = hpd_pdgemm_serve(&call, HPD_ROUTINE_PDGEMM, ticket);
  *done = hpd_entry_served(reason);
  return reason;
}

static void again(const void *args, const hpd_local_place *place)
{
  const hpd_sum_args *x = args;
  hpd_direct_again(0, x->first, x->second, x->m, x->n, x->k, x->alpha, x->a, x->b, x->beta,
                   x->c, place);
}

static void reference(const void *args)
{
  hpd_sum_args x = *(const hpd_sum_args *)args;
  hpd_reference_pdgemm()(&x.first, &x.second, &x.m, &x.n, &x.k, &x.alpha, x.a, &x.ia, &x.ja,
                         x.desca, x.b, &x.ib, &x.jb, x.descb, &x.beta, x.c, &x.ic, &x.jc,
                         x.descc);
}

void hpd_pdgemm(char transa, char transb, int m, int n, int k, double alpha,
                const double *a, int ia, int ja, const int *desca,
                const double *b, int ib, int jb, const int *descb,
                double beta, double *c, int ic, int jc, const int *descc)
{
  static const hpd_entry entry = {.routine = HPD_ROUTINE_PDGEMM, .key = key,
                                  .serve = serve, .reference = reference,
                                  .again = again};
  const hpd_sum_args x = {transa, transb, m, n, k, alpha, a, ia, ja, desca, b, ib, jb,
                          descb, beta, c, ic, jc, descc};
  hpd_entry_run(&entry, &x);
}
