#include "dvfs/dvfs.h"

#include <errno.h>
#include <string.h>

#include "core/abi.h"
#include "core/clock.h"
#include "core/config.h"
#include "core/log.h"
#include "dvfs/state.h"

hpd_dvfs_state hpd_dvfs = {.current_phase = -1};

void hpd_dvfs_setup(MPI_Comm comm, hpd_wait_fn wait)
{
  if (hpd_dvfs.ready)
    return;
  hpd_dvfs_choose(hpd_config_get(), comm, wait);
  hpd_dvfs.ready = 1;
}

int hpd_dvfs_ready(void)
{
  return hpd_dvfs.ready;
}

int hpd_dvfs_group_panels(hpd_strategy strategy, int ngrp)
{
  return strategy == HPD_STRATEGY_BASIC ? 1 : ngrp;
}

/* A refused write turns scaling off for the job: the multiply must go on, and a
 * half-applied state is worse than none. */
static void give_up(int error, unsigned khz)
{
  hpd_warn("DVFS: setting %u kHz through %s was refused (%s); frequency scaling is off "
           "for the rest of the job",
           khz, hpd_dvfs_name(hpd_dvfs.info.backend), strerror(error));
  hpd_dvfs.backend->restore();
  hpd_dvfs.backend = NULL;
  hpd_dvfs.info.applied = 0;
}

static int enter(hpd_phase phase)
{
  if (!hpd_dvfs.ready)
    hpd_dvfs_setup(MPI_COMM_NULL, NULL);
  unsigned khz = phase == HPD_PHASE_BROADCAST ? hpd_dvfs.info.low_khz : hpd_dvfs.info.high_khz;
  /* Without a backend the frequencies are unknown (0): the phase alone tells. */
  if ((int)phase == hpd_dvfs.current_phase || (khz && khz == hpd_dvfs.current_khz)) {
    hpd_dvfs.totals.skipped++;
    return 0;
  }
  double start = hpd_now();
  if (hpd_dvfs.backend) {
    int error = hpd_dvfs.backend->set(khz, phase);
    if (error)
      give_up(error, khz);
  }
  hpd_dvfs.current_khz = khz;
  hpd_dvfs.current_phase = (int)phase;
  hpd_dvfs.totals.switches++;
  hpd_dvfs.totals.switch_s += hpd_now() - start;
  return 1;
}

/* Overlap keeps the core busy multiplying while the network works: nothing to lower
 * the frequency for. */
static int switches(hpd_strategy strategy)
{
  return strategy == HPD_STRATEGY_BASIC || strategy == HPD_STRATEGY_DAEMON;
}

int hpd_dvfs_phase(hpd_strategy strategy, hpd_phase phase)
{
  return switches(strategy) ? enter(phase) : 0;
}

void hpd_dvfs_hold(hpd_strategy strategy)
{
  if (switches(strategy))
    hpd_dvfs.totals.held++;
}

int hpd_dvfs_enter(hpd_phase phase)
{
  if (phase != HPD_PHASE_BROADCAST && phase != HPD_PHASE_MULTIPLY)
    return HPD_ERR_INVALID;
  return enter(phase);
}

void hpd_dvfs_levels(unsigned *low_khz, unsigned *high_khz)
{
  *low_khz = hpd_dvfs.info.low_khz;
  *high_khz = hpd_dvfs.info.high_khz;
}

unsigned hpd_dvfs_current_khz(void)
{
  return hpd_dvfs.current_khz ? hpd_dvfs.current_khz : hpd_dvfs.info.high_khz;
}

void hpd_dvfs_restore(void)
{
  if (hpd_dvfs.backend)
    hpd_dvfs.backend->restore();
}

int hpd_get_dvfs_info_sized(hpd_dvfs_info *out, size_t size)
{
  int status = hpd_abi_check("hpd_get_dvfs_info", out, size, sizeof *out);
  if (status != HPD_SUCCESS)
    return status;
  *out = hpd_dvfs.info;
  return HPD_SUCCESS;
}

int hpd_get_dvfs_totals_sized(hpd_dvfs_totals *out, size_t size)
{
  int status = hpd_abi_check("hpd_get_dvfs_totals", out, size, sizeof *out);
  if (status != HPD_SUCCESS)
    return status;
  *out = hpd_dvfs.totals;
  return HPD_SUCCESS;
}
