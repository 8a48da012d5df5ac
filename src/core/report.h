/* The end-of-run report (HPD_REPORT): a table or JSON from rank 0 at MPI_Finalize. */
#ifndef HPD_CORE_REPORT_H
#define HPD_CORE_REPORT_H

#include <stdio.h>

#include "core/config.h"
#include "core/job.h"
#include "hpdaemon.h"

/* Makes sure the report is written at MPI_Finalize (or at exit, if MPI never
 * finalizes).  Cheap after the first call; a no-op while the report is off. */
void hpd_report_arm(void);

void hpd_report_write_summary(FILE *out, const hpd_stats *stats, const hpd_settings *cfg,
                              const hpd_job *job);
void hpd_report_write_json(FILE *out, const hpd_stats *stats, const hpd_settings *cfg,
                           const hpd_job *job);

#endif
