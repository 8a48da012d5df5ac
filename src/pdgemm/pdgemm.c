/* hpd_pdgemm: checks a call, has it routed and served, and accounts for it. */
#include "call.h"
#include "clock.h"
#include "config.h"
#include "dispatch.h"
#include "reference.h"
#include "repeat.h"
#include "report.h"
#include "stats.h"

void hpd_pdgemm(char transa, char transb, int m, int n, int k, double alpha,
                const double *a, int ia, int ja, const int *desca,
                const double *b, int ib, int jb, const int *descb,
                double beta, double *c, int ic, int jc, const int *descc)
{
  hpd_report_arm();
  double start = hpd_now();
  hpd_dispatch_ticket ticket = {0};
  int reason = HPD_FALLBACK_DISABLED;
  if (!hpd_config_get()->disable) {
    hpd_repeat_key key;
    const char letters[] = {transa, transb};
    hpd_repeat_key_of(&key, HPD_ROUTINE_PDGEMM, letters, 2, alpha, m, n, k, ia, ja, desca, ib,
                      jb, descb, ic, jc, descc);
    reason = HPD_SERVED_DIRECT_REFERENCE;
    if (!hpd_repeat_is_reference(&key)) {
      hpd_call call;
      reason = hpd_call_init(&call, transa, transb, m, n, k, alpha, a, ia, ja, desca, b, ib,
                             jb, descb, beta, c, ic, jc, descc);
      if (reason == HPD_SERVED_BY_ENGINE)
        reason = hpd_dispatch_serve(&call, HPD_ROUTINE_PDGEMM, &ticket);
      hpd_repeat_remember(&key, &ticket, reason);
    }
  }
  if (reason != HPD_SERVED_BY_ENGINE && reason != HPD_SERVED_DIRECT_LOCAL)
    hpd_reference_pdgemm()(&transa, &transb, &m, &n, &k, &alpha, a, &ia, &ja, desca, b, &ib,
                           &jb, descb, &beta, c, &ic, &jc, descc);
  double seconds = hpd_now() - start;
  hpd_dispatch_learn(&ticket, seconds);
  hpd_stats_record(HPD_ROUTINE_PDGEMM, reason, seconds);
}
