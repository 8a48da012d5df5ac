#include "core/job.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/node.h"

static int world_grid_made;

void hpd_job_world_grid_made(void)
{
  world_grid_made = 1;
}

const char *hpd_job_field_name(int f)
{
  static const char *names[HPD_JOB_FIELDS] = {
      "calls",        "engine_calls", "direct_calls", "fallback_calls",
      "time_total_s", "bcast_bytes",  "bcast_wall_s", "dvfs_switches",
      "cpu_s",        "energy_modeled_j", "peak_rss_bytes"};
  return f >= 0 && f < HPD_JOB_FIELDS ? names[f] : "unknown";
}

static void fields_of(const hpd_routine_stats *s, double *v)
{
  v[HPD_JOB_CALLS] = (double)s->calls;
  v[HPD_JOB_ENGINE] = (double)s->engine_calls;
  v[HPD_JOB_DIRECT] = (double)s->direct_calls;
  v[HPD_JOB_FALLBACK] = (double)s->fallback_calls;
  v[HPD_JOB_TIME_S] = s->time_total;
  v[HPD_JOB_BCAST_BYTES] = (double)s->bcast_bytes;
  v[HPD_JOB_BCAST_WALL_S] = s->bcast_wall_s;
  v[HPD_JOB_SWITCHES] = (double)s->dvfs_switches;
  v[HPD_JOB_CPU_S] = s->cpu_s;
  v[HPD_JOB_ENERGY_MODELED_J] = s->energy_modeled_j;
  v[HPD_JOB_PEAK_RSS] = (double)s->peak_rss_bytes;
}

/* Nodes, ranks per node and the first nodes' host names, at rank 0. */
static void gather_nodes(hpd_job *job, int rank)
{
  hpd_node node;
  if (hpd_node_split(MPI_COMM_WORLD, &node) != MPI_SUCCESS)
    return;
  int on_node = 1, leader = node.reader;
  MPI_Comm_size(node.comm, &on_node);
  job->nodes = node.nodes;
  hpd_node_free(&node);
  MPI_Reduce(&on_node, &job->per_node_min, 1, MPI_INT, MPI_MIN, 0, MPI_COMM_WORLD);
  MPI_Reduce(&on_node, &job->per_node_max, 1, MPI_INT, MPI_MAX, 0, MPI_COMM_WORLD);
  /* Each node's first rank names its host; the others send an empty name. */
  char mine[HPD_JOB_HOST_MAX] = "";
  if (leader) {
    char name[MPI_MAX_PROCESSOR_NAME];
    int len = 0;
    MPI_Get_processor_name(name, &len);
    snprintf(mine, sizeof mine, "%.*s", len, name);
  }
  char *all = rank == 0 ? calloc((size_t)job->ranks, HPD_JOB_HOST_MAX) : NULL;
  MPI_Gather(mine, HPD_JOB_HOST_MAX, MPI_CHAR, all, HPD_JOB_HOST_MAX, MPI_CHAR, 0,
             MPI_COMM_WORLD);
  if (!all)
    return;
  for (int r = 0; r < job->ranks && job->hosts_shown < HPD_JOB_HOSTS_SHOWN; r++)
    if (all[(size_t)r * HPD_JOB_HOST_MAX])
      memcpy(job->host[job->hosts_shown++], &all[(size_t)r * HPD_JOB_HOST_MAX],
             HPD_JOB_HOST_MAX);
  free(all);
}

void hpd_job_gather(const hpd_stats *mine, hpd_job *job)
{
  memset(job, 0, sizeof *job);
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  /* A simulated MPI reads finalized, and refuses collectives, while MPI_Finalize runs
   * the callbacks that write the report. */
  job->too_late = world_grid_made && (!initialized || finalized);
  if (!world_grid_made || !initialized || finalized)
    return;
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &job->ranks);
  gather_nodes(job, rank);
  enum { N = HPD_ROUTINES * HPD_JOB_FIELDS };
  double v[N], lo[N], hi[N], sum[N];
  for (int r = 0; r < HPD_ROUTINES; r++)
    fields_of(&mine->routine[r], &v[r * HPD_JOB_FIELDS]);
  MPI_Reduce(v, lo, N, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
  MPI_Reduce(v, hi, N, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  MPI_Reduce(v, sum, N, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  for (int r = 0; r < HPD_ROUTINES; r++)
    for (int f = 0; f < HPD_JOB_FIELDS; f++) {
      int i = r * HPD_JOB_FIELDS + f;
      job->field[r][f] = (hpd_job_field){lo[i], hi[i], sum[i]};
    }
  job->gathered = 1;
}
