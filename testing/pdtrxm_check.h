/* The sweep shared by pdtrsm_check and pdtrmm_check (pdtrxm_check.c). */
#ifndef HPD_PDTRXM_CHECK_H
#define HPD_PDTRXM_CHECK_H

/* The whole program, judging pdtrsm_ where solve is set and pdtrmm_ where it is not;
 * returns the exit status. */
int check_trxm_main(int solve, int argc, char **argv);

#endif /* HPD_PDTRXM_CHECK_H */
