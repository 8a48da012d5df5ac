/*
 * pdtrmm_check: the correctness sweep that judges any pdtrmm_ linked ahead of ScaLAPACK
 * (pdtrxm_check.c).
 *
 *   pdtrmm_check [--quick | --full] [--seed N] [-v] [--grids PxQ,...] [--cases N]
 *                [--case I] [hpdaemon options such as -t 0.2 or --report]
 */
#include "pdtrxm_check.h"

int main(int argc, char **argv)
{
  return check_trxm_main(0, argc, argv);
}
