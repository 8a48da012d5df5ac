/* hpd_pdsyrk: the entry runner's three pieces for PDSYRK. */
#include "pblas/call.h"
#include "pblas/entry.h"
#include "pblas/reference.h"
#include "pdgemm/engine.h"

typedef struct args {
  char uplo, trans;
  int n, k;
  double alpha;
  const double *a;
  int ia, ja;
  const int *desca;
  double beta;
  double *c;
  int ic, jc;
  const int *descc;
} args;

static void key(const void *call_args, hpd_repeat_key *key)
{
  const args *x = call_args;
  const char letters[] = {x->uplo, x->trans};
  hpd_repeat_key_of(key, HPD_ROUTINE_PDSYRK, letters, 2, x->alpha, x->n, x->n, x->k, x->ia,
                    x->ja, x->desca, 0, 0, NULL, x->ic, x->jc, x->descc);
}

static int serve(const void *call_args, hpd_dispatch_ticket *ticket, int *done)
{
  const args *x = call_args;
  hpd_call call;
  int reason = hpd_call_init_syrk(&call, x->uplo, x->trans, x->n, x->k, x->alpha, x->a,
                                  x->ia, x->ja, x->desca, x->beta, x->c, x->ic, x->jc,
                                  x->descc);
  if (reason == HPD_SERVED_BY_ENGINE)
    reason = hpd_pdgemm_serve(&call, HPD_ROUTINE_PDSYRK, ticket);
  *done = hpd_entry_served(reason);
  return reason;
}

static void reference(const void *call_args)
{
  args x = *(const args *)call_args;
  hpd_reference_pdsyrk()(&x.uplo, &x.trans, &x.n, &x.k, &x.alpha, x.a, &x.ia, &x.ja,
                         x.desca, &x.beta, x.c, &x.ic, &x.jc, x.descc);
}

void hpd_pdsyrk(char uplo, char trans, int n, int k, double alpha, const double *a, int ia,
                int ja, const int *desca, double beta, double *c, int ic, int jc,
                const int *descc)
{
  static const hpd_entry entry = {HPD_ROUTINE_PDSYRK, key, serve, reference};
  const args x = {uplo, trans, n, k, alpha, a, ia, ja, desca, beta, c, ic, jc, descc};
  hpd_entry_run(&entry, &x);
}
