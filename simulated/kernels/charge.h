#ifndef HPD_SIM_CHARGE_H
#define HPD_SIM_CHARGE_H

#include "kernel.h"

/* 1 where this run charges kernels instead of running them: scripts/simulate's timing
 * mode, which says so with SIMULATE_KERNELS=charge and names the rate table in
 * SIMULATE_KERNEL_RATES. */
int hpd_sim_charging(void);

/* Takes the simulated time a call of this shape takes on the platform's core: its time
 * on the host (the table's rate) scaled by the platform's speed over the host's dgemm
 * peak, at the core's current P-state.  Nothing for an empty shape. */
void hpd_sim_charge(hpd_kernel kernel, double d0, double d1, double d2);

/* A pivot for a charged kernel that must name one: a row from first to last, spread as
 * partial pivoting spreads them on random matrices, and the same on every rank. */
int hpd_sim_pivot(int first, int last, int salt);

#endif
