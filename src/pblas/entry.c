#include "pblas/entry.h"

#include "core/clock.h"
#include "core/config.h"
#include "core/report.h"

void hpd_sum_args_key(const hpd_sum_args *x, hpd_routine routine, int m, int n, int k,
                      hpd_repeat_key *key)
{
  const char letters[] = {x->first, x->second};
  hpd_repeat_key_of(key, routine, letters, 2, x->alpha, m, n, k, x->ia, x->ja, x->desca,
                    x->ib, x->jb, x->b ? x->descb : NULL, x->ic, x->jc, x->descc);
}

int hpd_entry_served(int reason)
{
  return reason == HPD_SERVED_BY_ENGINE || reason == HPD_SERVED_DIRECT_LOCAL;
}

void hpd_entry_run(const hpd_entry *entry, const void *args)
{
  hpd_report_arm();
  double start = hpd_now();
  hpd_dispatch_ticket ticket = {0};
  int reason = HPD_FALLBACK_DISABLED, done = 0;
  if (!hpd_config_get()->disable) {
    hpd_repeat_key key;
    if (entry->key)
      entry->key(args, &key);
    if (entry->key && hpd_repeat_is_reference(&key)) {
      reason = HPD_SERVED_DIRECT_REFERENCE;
    } else {
      if (entry->serve) {
        reason = entry->serve(args, &ticket, &done);
      } else {
        reason = entry->serve_alone(args);
        done = hpd_entry_served(reason);
      }
      if (entry->key)
        hpd_repeat_remember(&key, &ticket, reason);
    }
  }
  if (!done)
    entry->reference(args);
  double seconds = hpd_now() - start;
  hpd_dispatch_learn(&ticket, seconds);
  hpd_stats_record(entry->routine, reason, seconds);
}
