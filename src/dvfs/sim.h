/* The simulated backend: frequencies are only recorded, with an emulated transition. */
#ifndef HPD_DVFS_SIM_H
#define HPD_DVFS_SIM_H

#include "hpdaemon.h"

/* Records a switch to khz for phase, after spinning for the emulated latency. */
void hpd_dvfs_sim_switch(unsigned khz, hpd_phase phase);

#endif
