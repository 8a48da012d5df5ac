/* The DVFS state of this rank, shared by set-up and switching. */
#ifndef HPD_DVFS_STATE_H
#define HPD_DVFS_STATE_H

#include <mpi.h>

#include "core/waited.h"
#include "dvfs/backend.h"

typedef struct hpd_dvfs_state {
  int ready;
  const hpd_dvfs_backend *backend; /* NULL: switches are counted, never applied */
  hpd_dvfs_info info;
  unsigned current_khz;            /* 0 until the first switch: the original state */
  int current_phase;               /* -1 until the first switch */
  hpd_dvfs_totals totals;
} hpd_dvfs_state;

extern hpd_dvfs_state hpd_dvfs;

/* Picks, checks and arms a backend; comm may be MPI_COMM_NULL (no sharing check), and its
 * collectives wait through wait. */
void hpd_dvfs_choose(const hpd_settings *cfg, MPI_Comm comm, hpd_wait_fn wait);

#endif
