/*
 * Calls that need no communication at all: every element of sub(A), sub(B) and sub(C)
 * lies on one process (any call on a 1x1 grid; a call on sub-matrices inside one block
 * elsewhere, as eigen-solvers make by the hundred).  That process does one local dgemm
 * (or dsyrk for pdsyrk), the others have nothing to do, and nobody waits for anybody.
 */
#ifndef HPD_PDGEMM_DIRECT_H
#define HPD_PDGEMM_DIRECT_H

#include "call.h"

/* 1 when the checked call (M, N, K >= 1) lives on one process; from descriptor data only,
 * so every rank answers alike. */
int hpd_direct_is_local(const hpd_call *call);

/* Serves such a call: the owner computes, everyone else returns. */
void hpd_direct_local(const hpd_call *call);

#endif
