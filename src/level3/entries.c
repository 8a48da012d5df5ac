/* hpd_pdtrsm, hpd_pdtrmm, hpd_pdsymm, hpd_pdsyr2k: each checks its call, has it routed and
 * served (level3.h), hands it to the reference where it was not, and accounts for it. */
#include "clock.h"
#include "config.h"
#include "level3.h"
#include "reference.h"
#include "repeat.h"
#include "report.h"
#include "stats.h"

/* A call before its routine's own checks and reference. */
typedef struct entry {
  double start;
  hpd_dispatch_ticket ticket;
  int reason, done;
} entry;

static entry entry_begin(void)
{
  hpd_report_arm();
  return (entry){.start = hpd_now(), .reason = HPD_FALLBACK_DISABLED};
}

/* 1 when the call repeats one that went to the reference by a settled route (repeat.h):
 * the reference takes it unchecked. */
static int entry_repeats(entry *e, const hpd_repeat_key *key)
{
  if (!hpd_repeat_is_reference(key))
    return 0;
  e->reason = HPD_SERVED_DIRECT_REFERENCE;
  return 1;
}

/* Serves a checked call, unless the checks said otherwise; 1 when the caller must still
 * call the reference. */
static int entry_serve(entry *e, const hpd_repeat_key *key, const hpd_l3 *l3, int checked)
{
  e->reason = checked;
  if (checked == HPD_SERVED_BY_ENGINE)
    e->reason = hpd_l3_serve(l3, &e->ticket, &e->done);
  hpd_repeat_remember(key, &e->ticket, e->reason);
  return !e->done;
}

static void entry_end(const entry *e, hpd_routine routine)
{
  double seconds = hpd_now() - e->start;
  hpd_dispatch_learn(&e->ticket, seconds);
  hpd_stats_record(routine, e->reason, seconds);
}

static int disabled(void)
{
  return hpd_config_get()->disable;
}

static void trxm(hpd_routine routine, char side, char uplo, char transa, char diag, int m,
                 int n, double alpha, const double *a, int ia, int ja, const int *desca,
                 double *b, int ib, int jb, const int *descb)
{
  entry e = entry_begin();
  hpd_l3 l3;
  hpd_repeat_key key;
  const char letters[] = {side, uplo, transa, diag};
  int reference = 1;
  if (!disabled()) {
    hpd_repeat_key_of(&key, routine, letters, 4, alpha, m, n, 0, ia, ja, desca, ib, jb, descb,
                      0, 0, NULL);
    if (!entry_repeats(&e, &key))
      reference = entry_serve(&e, &key, &l3,
                              hpd_l3_init_trxm(&l3, routine, side, uplo, transa, diag, m, n,
                                               alpha, a, ia, ja, desca, b, ib, jb, descb));
  }
  if (reference)
    (routine == HPD_ROUTINE_PDTRSM ? hpd_reference_pdtrsm() : hpd_reference_pdtrmm())(
        &side, &uplo, &transa, &diag, &m, &n, &alpha, a, &ia, &ja, desca, b, &ib, &jb, descb);
  entry_end(&e, routine);
}

void hpd_pdtrsm(char side, char uplo, char transa, char diag, int m, int n, double alpha,
                const double *a, int ia, int ja, const int *desca, double *b, int ib, int jb,
                const int *descb)
{
  trxm(HPD_ROUTINE_PDTRSM, side, uplo, transa, diag, m, n, alpha, a, ia, ja, desca, b, ib, jb,
       descb);
}

void hpd_pdtrmm(char side, char uplo, char transa, char diag, int m, int n, double alpha,
                const double *a, int ia, int ja, const int *desca, double *b, int ib, int jb,
                const int *descb)
{
  trxm(HPD_ROUTINE_PDTRMM, side, uplo, transa, diag, m, n, alpha, a, ia, ja, desca, b, ib, jb,
       descb);
}

void hpd_pdsymm(char side, char uplo, int m, int n, double alpha, const double *a, int ia,
                int ja, const int *desca, const double *b, int ib, int jb, const int *descb,
                double beta, double *c, int ic, int jc, const int *descc)
{
  entry e = entry_begin();
  hpd_l3 l3;
  hpd_repeat_key key;
  const char letters[] = {side, uplo};
  int reference = 1;
  if (!disabled()) {
    hpd_repeat_key_of(&key, HPD_ROUTINE_PDSYMM, letters, 2, alpha, m, n, 0, ia, ja, desca, ib,
                      jb, descb, ic, jc, descc);
    if (!entry_repeats(&e, &key))
      reference = entry_serve(&e, &key, &l3,
                              hpd_l3_init_symm(&l3, side, uplo, m, n, alpha, a, ia, ja, desca,
                                               b, ib, jb, descb, beta, c, ic, jc, descc));
  }
  if (reference)
    hpd_reference_pdsymm()(&side, &uplo, &m, &n, &alpha, a, &ia, &ja, desca, b, &ib, &jb,
                           descb, &beta, c, &ic, &jc, descc);
  entry_end(&e, HPD_ROUTINE_PDSYMM);
}

void hpd_pdsyr2k(char uplo, char trans, int n, int k, double alpha, const double *a, int ia,
                 int ja, const int *desca, const double *b, int ib, int jb, const int *descb,
                 double beta, double *c, int ic, int jc, const int *descc)
{
  entry e = entry_begin();
  hpd_l3 l3;
  hpd_repeat_key key;
  const char letters[] = {uplo, trans};
  int reference = 1;
  if (!disabled()) {
    hpd_repeat_key_of(&key, HPD_ROUTINE_PDSYR2K, letters, 2, alpha, n, n, k, ia, ja, desca,
                      ib, jb, descb, ic, jc, descc);
    if (!entry_repeats(&e, &key))
      reference = entry_serve(&e, &key, &l3,
                              hpd_l3_init_syr2k(&l3, uplo, trans, n, k, alpha, a, ia, ja,
                                                desca, b, ib, jb, descb, beta, c, ic, jc,
                                                descc));
  }
  if (reference)
    hpd_reference_pdsyr2k()(&uplo, &trans, &n, &k, &alpha, a, &ia, &ja, desca, b, &ib, &jb,
                            descb, &beta, c, &ic, &jc, descc);
  entry_end(&e, HPD_ROUTINE_PDSYR2K);
}
