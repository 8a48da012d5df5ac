/* hpd_pdsyrk: checks a call, has it routed and served, and accounts for it. */
#include "call.h"
#include "clock.h"
#include "config.h"
#include "dispatch.h"
#include "reference.h"
#include "repeat.h"
#include "report.h"
#include "stats.h"

void hpd_pdsyrk(char uplo, char trans, int n, int k, double alpha, const double *a, int ia,
                int ja, const int *desca, double beta, double *c, int ic, int jc,
                const int *descc)
{
  hpd_report_arm();
  double start = hpd_now();
  hpd_dispatch_ticket ticket = {0};
  int reason = HPD_FALLBACK_DISABLED;
  if (!hpd_config_get()->disable) {
    hpd_repeat_key key;
    const char letters[] = {uplo, trans};
    hpd_repeat_key_of(&key, HPD_ROUTINE_PDSYRK, letters, 2, alpha, n, n, k, ia, ja, desca, 0,
                      0, NULL, ic, jc, descc);
    reason = HPD_SERVED_DIRECT_REFERENCE;
    if (!hpd_repeat_is_reference(&key)) {
      hpd_call call;
      reason = hpd_call_init_syrk(&call, uplo, trans, n, k, alpha, a, ia, ja, desca, beta, c,
                                  ic, jc, descc);
      if (reason == HPD_SERVED_BY_ENGINE)
        reason = hpd_dispatch_serve(&call, HPD_ROUTINE_PDSYRK, &ticket);
      hpd_repeat_remember(&key, &ticket, reason);
    }
  }
  if (reason != HPD_SERVED_BY_ENGINE && reason != HPD_SERVED_DIRECT_LOCAL)
    hpd_reference_pdsyrk()(&uplo, &trans, &n, &k, &alpha, a, &ia, &ja, desca, &beta, c, &ic,
                           &jc, descc);
  double seconds = hpd_now() - start;
  hpd_dispatch_learn(&ticket, seconds);
  hpd_stats_record(HPD_ROUTINE_PDSYRK, reason, seconds);
}
