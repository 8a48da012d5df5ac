/* hpd_pdsyrk: decides who serves a call, and accounts for it. */
#include "clock.h"
#include "config.h"
#include "engine.h"
#include "reference.h"
#include "report.h"
#include "stats.h"

void hpd_pdsyrk(char uplo, char trans, int n, int k, double alpha, const double *a, int ia,
                int ja, const int *desca, double beta, double *c, int ic, int jc,
                const int *descc)
{
  hpd_report_arm();
  double start = hpd_now();
  int reason = HPD_FALLBACK_DISABLED;
  if (!hpd_config_get()->disable)
    reason = hpd_engine_pdsyrk(uplo, trans, n, k, alpha, a, ia, ja, desca, beta, c, ic, jc,
                               descc);
  if (reason != HPD_SERVED_BY_ENGINE)
    hpd_reference_pdsyrk()(&uplo, &trans, &n, &k, &alpha, a, &ia, &ja, desca, &beta, c, &ic,
                           &jc, descc);
  hpd_stats_record(HPD_ROUTINE_PDSYRK, reason, hpd_now() - start);
}
