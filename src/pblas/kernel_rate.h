/*
 * This process's local multiply rate for a shape, the fastest of its class's first few
 * timings: the seconds per flop of one dgemm that adds a rows x kb by kb x cols product into
 * a rows x cols block.  The dispatch's model of the reference (predict.h) reads it at
 * kb = 32, the width of PBLAS's rank-kb updates, whose rate is bound by streaming the
 * block through memory once per update, far below dgemm's rate for wide products.
 */
#ifndef HPD_PBLAS_KERNEL_RATE_H
#define HPD_PBLAS_KERNEL_RATE_H

/* Seconds per flop; rows, cols, kb >= 1.  The first few requests of a class (the octaves
 * of rows and cols below 256, every longer extent one class, and kb) each time a few
 * dgemm calls on scratch of that shape and keep the fastest figure, unless may_time is
 * 0; later ones read it.  0 where nothing is kept (the scratch could not be had, or no
 * request could time it). */
double hpd_kernel_s_per_flop(int rows, int cols, int kb, int may_time);

/* The seconds the next request of the class would spend timing it, predicted at
 * s_per_flop (the class's own figure where it has one); 0 where it would time nothing. */
double hpd_kernel_timing_s(int rows, int cols, int kb, double s_per_flop);

/* The flops the next request of the class would spend timing it (its products, not the
 * repeats that stretch a tiny one to TIMED_S); 0 where it would time nothing. */
double hpd_kernel_timing_flops(int rows, int cols, int kb);

/* Forgets every kept figure, so that the next requests time their classes again: for a
 * test that suspects a timing taken while the core was busy elsewhere. */
void hpd_kernel_rate_forget(void);

#endif
