/*
 * Block-cyclic index arithmetic (src/pdgemm/layout.c): for every axis shape below, every
 * global index goes to its owner's local position and back through hpd_axis_global, and
 * each process's local indices 0, 1, ... come back as its global indices in increasing
 * order, exactly hpd_axis_count of them.
 */
#include <stdio.h>

#include "layout.h"

static int failed, checked;

static void check_axis(hpd_axis ax, int64_t n)
{
  for (int64_t i = 0; i < n; i++) {
    int p = hpd_axis_owner(&ax, i);
    checked++;
    if (hpd_axis_global(&ax, hpd_axis_local(&ax, i), p) != i) {
      failed++;
      printf("FAIL: first %d nb %d src %d np %d: index %lld does not come back\n", ax.first,
             ax.nb, ax.src, ax.nprocs, (long long)i);
    }
  }
  for (int p = 0; p < ax.nprocs; p++) {
    int64_t count = hpd_axis_count(&ax, n, p), previous = -1;
    for (int64_t j = 0; j < count; j++) {
      int64_t g = hpd_axis_global(&ax, j, p);
      checked++;
      if (g <= previous || g >= n || hpd_axis_owner(&ax, g) != p) {
        failed++;
        printf("FAIL: first %d nb %d src %d np %d: process %d local %lld gives %lld\n",
               ax.first, ax.nb, ax.src, ax.nprocs, p, (long long)j, (long long)g);
      }
      previous = g;
    }
  }
}

int main(void)
{
  static const int firsts[] = {1, 3, 7, 32}, nbs[] = {1, 2, 5, 32}, nps[] = {1, 2, 3, 5};
  for (int f = 0; f < 4; f++)
    for (int b = 0; b < 4; b++)
      for (int q = 0; q < 4; q++)
        for (int src = 0; src < nps[q]; src++)
          check_axis((hpd_axis){firsts[f], nbs[b], src, nps[q]}, 203);
  printf("layout: %d checks, %d failed\n", checked, failed);
  return failed != 0;
}
