/*
 * The whole job's figures for the report: how many nodes and ranks per node it ran on,
 * and each routine's counters over every rank (least, most, total), not rank 0's alone.
 * Gathered in MPI_Finalize, only where every rank of MPI_COMM_WORLD is known to reach
 * the gathering (a grid spanning the whole world was made): otherwise the report keeps
 * rank 0's own figures and says so.
 */
#ifndef HPD_CORE_JOB_H
#define HPD_CORE_JOB_H

#include "hpdaemon.h"

#define HPD_JOB_HOSTS_SHOWN 16
#define HPD_JOB_HOST_MAX 64

/* The counters summed over ranks, by index into hpd_job.field. */
enum {
  HPD_JOB_CALLS,
  HPD_JOB_ENGINE,
  HPD_JOB_DIRECT,
  HPD_JOB_FALLBACK,
  HPD_JOB_TIME_S,
  HPD_JOB_BCAST_BYTES,
  HPD_JOB_BCAST_WALL_S,
  HPD_JOB_SWITCHES,
  HPD_JOB_CPU_S,
  HPD_JOB_ENERGY_MODELED_J,
  HPD_JOB_PEAK_RSS,
  HPD_JOB_FIELDS
};

typedef struct hpd_job_field {
  double min, max, sum;
} hpd_job_field;

typedef struct hpd_job {
  int gathered; /* 0: only rank 0's figures exist; the rest is unset */
  int too_late;  /* a world grid was made, but MPI had shut down when the report was due */
  int ranks, nodes, per_node_min, per_node_max;
  int hosts_shown;
  char host[HPD_JOB_HOSTS_SHOWN][HPD_JOB_HOST_MAX];
  hpd_job_field field[HPD_ROUTINES][HPD_JOB_FIELDS];
} hpd_job;

/* The JSON and column name of field f. */
const char *hpd_job_field_name(int f);

/* A grid spanning every rank of MPI_COMM_WORLD exists: all ranks will gather. */
void hpd_job_world_grid_made(void);

/* Collective over MPI_COMM_WORLD where a world grid was made; job->gathered = 0 (and no
 * communication) otherwise.  The result is complete on rank 0. */
void hpd_job_gather(const hpd_stats *mine, hpd_job *job);

#endif
