/* hpd_pdgemm: decides who serves a call, and accounts for it. */
#include "clock.h"
#include "config.h"
#include "engine.h"
#include "reference.h"
#include "report.h"
#include "stats.h"

static void call_reference(char transa, char transb, int m, int n, int k, double alpha,
                           const double *a, int ia, int ja, const int *desca,
                           const double *b, int ib, int jb, const int *descb, double beta,
                           double *c, int ic, int jc, const int *descc)
{
  hpd_reference_pdgemm()(&transa, &transb, &m, &n, &k, &alpha, a, &ia, &ja, desca, b, &ib,
                         &jb, descb, &beta, c, &ic, &jc, descc);
}

void hpd_pdgemm(char transa, char transb, int m, int n, int k, double alpha,
                const double *a, int ia, int ja, const int *desca,
                const double *b, int ib, int jb, const int *descb,
                double beta, double *c, int ic, int jc, const int *descc)
{
  hpd_report_arm();
  double start = hpd_now();
  int reason = HPD_FALLBACK_DISABLED;
  if (!hpd_config_get()->disable)
    reason = hpd_engine_pdgemm(transa, transb, m, n, k, alpha, a, ia, ja, desca, b, ib, jb,
                               descb, beta, c, ic, jc, descc);
  if (reason != HPD_SERVED_BY_ENGINE)
    call_reference(transa, transb, m, n, k, alpha, a, ia, ja, desca, b, ib, jb, descb, beta,
                   c, ic, jc, descc);
  hpd_stats_record(HPD_ROUTINE_PDGEMM, reason, hpd_now() - start);
}
