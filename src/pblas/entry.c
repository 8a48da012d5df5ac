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

/* The depth of reference calls running whole (hpd_entry.reference_whole). */
static int inside_whole;

void hpd_entry_run(const hpd_entry *entry, const void *args)
{
  hpd_report_arm();
  if (inside_whole > 0) {
    double start = hpd_now();
    entry->reference(args);
    hpd_stats_record(entry->routine, HPD_SERVED_DIRECT_REFERENCE, hpd_now() - start, 1);
    return;
  }
  hpd_dispatch_ticket ticket = {0};
  int reason = HPD_FALLBACK_DISABLED, done = 0, calls = 1;
  hpd_repeat_key key;
  hpd_local_place place;
  hpd_route remembered = HPD_ROUTE_ENGINE;
  int disabled = hpd_config_get()->disable;
  if (!disabled && entry->key) {
    entry->key(args, &key);
    remembered = hpd_repeat_route(&key, &place, &calls);
    if (remembered == HPD_ROUTE_LOCAL && !entry->again)
      remembered = HPD_ROUTE_ENGINE; /* remembered only where it can run again */
  }
  if (remembered == HPD_ROUTE_LOCAL && calls == 0) {
    entry->again(args, &place); /* untimed: a later repeat's time stands for it */
    hpd_stats_record(entry->routine, HPD_SERVED_DIRECT_LOCAL, 0.0, 0);
    return;
  }
  double start = hpd_now();
  if (remembered == HPD_ROUTE_REFERENCE) {
    reason = HPD_SERVED_DIRECT_REFERENCE;
  } else if (remembered == HPD_ROUTE_LOCAL) {
    entry->again(args, &place);
    reason = HPD_SERVED_DIRECT_LOCAL;
    done = 1;
  } else if (!disabled) {
    if (entry->serve) {
      reason = entry->serve(args, &ticket, &done);
    } else {
      reason = entry->serve_whole(args, &ticket);
      done = hpd_entry_served(reason);
    }
    if (entry->key)
      hpd_repeat_remember(&key, &ticket, reason, entry->again != NULL);
  }
  if (!done) {
    int whole = entry->reference_whole && ticket.cls && ticket.route == HPD_ROUTE_REFERENCE;
    inside_whole += whole;
    entry->reference(args);
    inside_whole -= whole;
  }
  double seconds = hpd_now() - start;
  hpd_dispatch_learn(&ticket, seconds);
  hpd_stats_record(entry->routine, reason, seconds, calls);
}
