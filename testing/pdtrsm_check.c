/*
 * pdtrsm_check: the correctness sweep that judges any pdtrsm_ linked ahead of ScaLAPACK
 * (pdtrxm_check.c).
 *
 *   pdtrsm_check [--quick | --full] [--seed N] [-v] [--grids PxQ,...] [--cases N]
 *                [--case I] [hpdaemon options such as -t 0.2 or --report]
 */
#include "pdtrxm_check.h"

int main(int argc, char **argv)
{
  return check_trxm_main(1, argc, argv);
}
