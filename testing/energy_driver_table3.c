#include "energy_driver_table3.h"

#include <math.h>
#include <mpi.h>
#include <stdio.h>

#include "hpdaemon.h"
#include "node_memory.h"
#include "scalapack.h"

#define MAX_ROWS 40
#define MIB (1024.0 * 1024.0)

typedef struct t3_row {
  double threshold, time_s;
  int ngrp, panels;
  uint64_t model, observed; /* bytes per rank, largest over ranks */
  int64_t rss_growth;
} t3_row;

/* Group sizes step at powers of two; a threshold half a step above each one keeps the
 * step it aims at even if the node's memory is read slightly differently.  The ladder
 * ends at the largest power of two within the panel count (N_grp cannot go beyond it),
 * then comes the run's own threshold. */
static int ladder(double one_panel, int panels, double own, double *out)
{
  int count = 0;
  for (double groups = 1; count < MAX_ROWS - 1; groups *= 2) {
    double t = 1.5 * groups * one_panel;
    if (t > 1.0)
      break;
    out[count++] = t;
    if (groups * 2 > panels)
      break;
  }
  if (count == 0 || own > out[count - 1] * 1.01)
    out[count++] = own;
  return count;
}

/* A one-element multiply needs one element of buffers, so the engine lets go of those
 * the previous row kept: the next row's growth is then its own. */
static void release_kept_buffers(ed_problem *pb)
{
  const int one = 1;
  const double alpha = 1.0, beta = 0.0;
  pdgemm_("N", "N", &one, &one, &one, &alpha, pb->a, &one, &one, pb->desc, pb->b, &one, &one,
          pb->desc, &beta, pb->c, &one, &one, pb->desc);
}

static t3_row run_row(ed_problem *pb, double threshold)
{
  hpd_set_mem_threshold(threshold);
  release_kept_buffers(pb);
  hpd_reset_stats();
  MPI_Barrier(MPI_COMM_WORLD);
  uint64_t rss0 = ed_resident_bytes();
  double start = MPI_Wtime();
  ed_multiply(pb);
  double wall = MPI_Wtime() - start;
  int64_t growth = (int64_t)ed_resident_bytes() - (int64_t)rss0;
  hpd_stats all;
  hpd_get_stats(&all);
  const hpd_routine_stats *s = &all.routine[HPD_ROUTINE_PDGEMM];
  /* The largest figure of any rank: the memory a node must hold. */
  int64_t mine[5] = {s->ngrp_last, s->panels_last, (int64_t)s->extra_bytes_model_max,
                     (int64_t)s->extra_bytes_observed_max, growth};
  int64_t most[5];
  double slowest;
  MPI_Allreduce(mine, most, 5, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(&wall, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return (t3_row){threshold, slowest, (int)most[0], (int)most[1], (uint64_t)most[2],
                  (uint64_t)most[3], most[4]};
}

static void print_intro(const ed_options *o, uint64_t node, int per_node, uint64_t panel_bytes,
                        int panels, const double *t, int count)
{
  double one_panel = (double)panel_bytes * per_node / (double)node;
  printf("\n# Table 3: N_grp and extra memory per threshold (pdgemm N=%d NB=%d, strategy "
         "daemon, one call per row)\n", o->n, o->nb);
  printf("# node memory %.1f GiB shared by %d rank(s); one panel's group buffers are "
         "%.2f MiB per rank (model), %.2g of the node: N_grp = 2^k needs a threshold of "
         "about %.2g x 2^k,\n", (double)node / (MIB * 1024), per_node,
         (double)panel_bytes / MIB, one_panel, one_panel);
  if (one_panel * panels < 0.01)
    printf("# so on a node this large every one of the %d panels fits already at %.2g: "
           "thresholds far below the default are needed to see small groups\n",
           panels, one_panel * panels);
  printf("# thresholds used:");
  for (int i = 0; i < count; i++)
    printf(" %.3g", t[i]);
  printf("\n%10s %6s %6s %16s %19s %15s %8s\n", "threshold", "N_grp", "panels",
         "extra_MiB_model", "extra_MiB_observed", "RSS_growth_MiB", "time_s");
}

void ed_table3(const ed_options *o, const ed_grid *g, ed_problem *pb, uint64_t panel_bytes,
               int panels)
{
  uint64_t node = hpd_node_memory_bytes();
  int per_node = ranks_per_node();
  int unread = node == 0 || node == UINT64_MAX; /* the library's "no figure, no limit" */
  if (unread || panel_bytes == 0 || panels < 1) {
    if (g->rank == 0)
      printf("\n# Table 3 skipped: %s\n", unread ? "the node's memory cannot be read"
                                                : "the engine served no multiply");
    return;
  }
  double thresholds[MAX_ROWS];
  int count = ladder((double)panel_bytes * per_node / (double)node, panels, o->threshold,
                     thresholds);
  if (g->rank == 0) {
    print_intro(o, node, per_node, panel_bytes, panels, thresholds, count);
    fflush(stdout);
  }
  int strategy = hpd_get_strategy();
  hpd_set_strategy(HPD_STRATEGY_DAEMON);
  for (int i = 0; i < count; i++) {
    if (g->rank == 0) {
      fprintf(stderr, "energy_driver: table 3 row %d/%d, threshold %.3g\n", i + 1, count,
              thresholds[i]);
      fflush(stderr);
    }
    t3_row r = run_row(pb, thresholds[i]);
    if (g->rank == 0) {
      printf("%10.3g %6d %6d %16.2f %19.2f %15.2f %8.4f\n", r.threshold, r.ngrp, r.panels,
             (double)r.model / MIB, (double)r.observed / MIB, (double)r.rss_growth / MIB,
             r.time_s);
      fflush(stdout);
    }
  }
  if (g->rank == 0)
    printf("# model: the threshold formula's buffers for A's and B's panels; observed: the "
           "buffers really allocated (an operand that does not travel needs none); RSS "
           "growth: /proc/self/statm across the call (malloc may reuse resident pages, so "
           "a small buffer can show none); each the largest of any rank\n");
  hpd_set_strategy((hpd_strategy)strategy);
  hpd_set_mem_threshold(o->threshold);
}
