/*
 * Block-cyclic index arithmetic (src/pblas/layout.c): for every axis shape below, every
 * global index goes to its owner's local position and back through hpd_axis_global, and
 * each process's local indices 0, 1, ... come back as its global indices in increasing
 * order, exactly hpd_axis_count of them; the runs of any range of local indices cover it
 * in order, each run consecutive globally and inside one block, as long as its block
 * allows.
 */
#include <stdio.h>

#include "pblas/layout.h"

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

/* Process p's local indices [l0, l1) walked in runs. */
static void check_runs(hpd_axis ax, int p, int64_t l0, int64_t l1)
{
  hpd_axis_runs runs = {&ax, p, l0, l1};
  int64_t l, g, len, next = l0;
  int ok = 1;
  while (hpd_axis_next_run(&runs, &l, &g, &len)) {
    int64_t end = hpd_axis_next_boundary(&ax, g);
    /* A run stops at its block's end or the range's, and not before. */
    ok &= l == next && len >= 1 && g == hpd_axis_global(&ax, l, p) &&
          g + len <= end && (g + len == end || l + len == l1) &&
          hpd_axis_global(&ax, l + len - 1, p) == g + len - 1;
    next = l + len;
  }
  ok &= next == (l1 > l0 ? l1 : l0);
  checked++;
  if (!ok) {
    failed++;
    printf("FAIL: first %d nb %d src %d np %d: process %d runs of [%lld, %lld)\n", ax.first,
           ax.nb, ax.src, ax.nprocs, p, (long long)l0, (long long)l1);
  }
}

int main(void)
{
  static const int firsts[] = {1, 3, 7, 32}, nbs[] = {1, 2, 5, 32}, nps[] = {1, 2, 3, 5};
  for (int f = 0; f < 4; f++)
    for (int b = 0; b < 4; b++)
      for (int q = 0; q < 4; q++)
        for (int src = 0; src < nps[q]; src++) {
          hpd_axis ax = {firsts[f], nbs[b], src, nps[q]};
          check_axis(ax, 203);
          for (int p = 0; p < ax.nprocs; p++) {
            int64_t count = hpd_axis_count(&ax, 203, p);
            check_runs(ax, p, 0, count);
            check_runs(ax, p, count / 3, count - count / 4);
          }
        }
  printf("layout: %d checks, %d failed\n", checked, failed);
  return failed != 0;
}
