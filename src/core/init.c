/* What hpdaemon does when it is loaded, before the program's main. */
#include "core/config.h"
#include "core/report.h"

/* Reading the configuration here makes a bad HPD_* value visible at start, and arming
 * the report here writes it even for a run that never calls a hpdaemon routine. */
__attribute__((constructor)) static void hpd_on_load(void)
{
  hpd_config_get();
  hpd_report_arm();
}
