/* What the benchmarks share: their option lists and the BLAS they report. */
#ifndef HPD_TIMING_BENCH_COMMON_H
#define HPD_TIMING_BENCH_COMMON_H

#define MAX_LIST 32

/* "a,b,c" of positive integers up to 10^6 into out[MAX_LIST]; 0 or -1. */
int bench_parse_int_list(const char *text, int *out, int *count);

/* Printed with the rates: a comparison is only fair on the same kernels and threads. */
char *openblas_get_corename(void);
int openblas_get_num_threads(void);

#endif
