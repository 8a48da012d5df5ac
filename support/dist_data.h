/*
 * Distributed test matrices shared by the drivers and benchmarks: an entry depends on its
 * global position only, so every grid and block size works on the same matrices.
 */
#ifndef HPD_SUPPORT_DIST_DATA_H
#define HPD_SUPPORT_DIST_DATA_H

#include <stdint.h>

/* Global index of local index l in a block-cyclic dimension whose first block is on
 * process 0. */
static inline int64_t dist_global_index(int l, int nb, int iproc, int nprocs)
{
  return ((int64_t)(l / nb) * nprocs + iproc) * nb + l % nb;
}

/* The same where the first block is on process src and this is process me. */
static inline int64_t dist_global_of(int l, int nb, int src, int me, int nprocs)
{
  return dist_global_index(l, nb, (me - src + nprocs) % nprocs, nprocs);
}

/* A value in [-0.5, 0.5) from a 64-bit mix of (matrix, gi, gj). */
static inline double dist_element(uint64_t matrix, int64_t gi, int64_t gj)
{
  uint64_t x = matrix * 0x9E3779B97F4A7C15ull ^ ((uint64_t)gi << 32 | (uint32_t)gj);
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  x ^= x >> 31;
  return (double)(x >> 11) * 0x1.0p-53 - 0.5;
}

/* One of count choices, [0, count), from the same mix. */
static inline int dist_choice(uint64_t matrix, int64_t gi, int64_t gj, int count)
{
  int k = (int)((dist_element(matrix, gi, gj) + 0.5) * count);
  return k < count ? k : count - 1;
}

#endif
