/*
 * The energy driver's own pdgemm_, pdsyrk_ and pdtrsm_: every call, the driver's and those
 * pdgetrf_ and pdpotrf_ make inside ScaLAPACK, goes through hpdaemon and then has its
 * frequency switches checked against the strategy's identity.
 */
#ifndef HPD_TESTING_ENERGY_DRIVER_CHECK_H
#define HPD_TESTING_ENERGY_DRIVER_CHECK_H

#include <stdint.h>

/* Starts a run: the largest N_grp is tracked from here. */
void ed_check_begin_run(void);
/* The largest N_grp of the engine calls since ed_check_begin_run (0 if none). */
int ed_check_ngrp_max(void);
/* Engine calls checked, and those that broke an identity, on this rank so far. */
uint64_t ed_check_calls(void);
uint64_t ed_check_failures(void);

/* Switch requests (switches + skipped + held) the strategy promises for one call, worked
 * out here rather than by the library, so that a wrong count cannot agree with itself. */
long ed_expected_switches(int strategy, int steps, int ngrp);

#endif
