/*
 * When the group buffers cannot be allocated, N_grp halves until they can, with one
 * warning for the job's one node, and the result is still right.  The address-space limit is set just above what
 * the process already uses, so that only small groups fit.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "hpdaemon.h"
#include "mapped.h"
#include "scalapack.h"

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, nprocs, ctxt, nprow, npcol, myrow, mycol;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  Cblacs_get(0, 0, &ctxt);
  Cblacs_gridinit(&ctxt, "R", 1, nprocs);
  Cblacs_gridinfo(ctxt, &nprow, &npcol, &myrow, &mycol);

  const int n = 1024, nb = 32, zero = 0, one = 1;
  int mloc = numroc_(&n, &nb, &myrow, &zero, &nprow);
  int nloc = numroc_(&n, &nb, &mycol, &zero, &npcol);
  int lld = mloc > 1 ? mloc : 1, info, desc[9];
  descinit_(desc, &n, &n, &nb, &nb, &zero, &zero, &ctxt, &lld, &info);
  size_t len = (size_t)lld * (size_t)(nloc > 0 ? nloc : 1);
  double *a = malloc(len * sizeof *a), *b = malloc(len * sizeof *b);
  double *c = malloc(len * sizeof *c), *ref = malloc(len * sizeof *ref);
  for (size_t i = 0; i < len; i++) {
    a[i] = sin(0.1 * (double)i + rank);
    b[i] = cos(0.3 * (double)i - rank);
  }
  const double alpha = 1.0, beta = 0.0;
  /* The reference result, and a first engine call with room to spare: afterwards the
   * libraries' own buffers exist and only hpdaemon's group buffers still need memory. */
  hpd_set_disable(1);
  pdgemm_("N", "N", &n, &n, &n, &alpha, a, &one, &one, desc, b, &one, &one, desc, &beta, ref,
          &one, &one, desc);
  hpd_set_disable(0);
  hpd_set_ngrp(1);
  pdgemm_("N", "N", &n, &n, &n, &alpha, a, &one, &one, desc, b, &one, &one, desc, &beta, c,
          &one, &one, desc);

  /* All 32 panels of A would need mloc x n doubles (8 MiB); leave room for about 1 MiB. */
  hpd_set_ngrp(0);
  hpd_set_mem_threshold(1.0);
  char said_path[] = "/tmp/hpd-memory-halving-XXXXXX";
  int said = mkstemp(said_path), saved_stderr = dup(2);
  unlink(said_path);
  dup2(said, 2);
  struct rlimit limit = {(rlim_t)(mapped_bytes() + (3 << 20)), RLIM_INFINITY};
  setrlimit(RLIMIT_AS, &limit);
  for (int twice = 0; twice < 2; twice++) /* the warning comes once per job */
    pdgemm_("N", "N", &n, &n, &n, &alpha, a, &one, &one, desc, b, &one, &one, desc, &beta,
            c, &one, &one, desc);
  limit.rlim_cur = RLIM_INFINITY;
  setrlimit(RLIMIT_AS, &limit);
  fflush(stderr);
  dup2(saved_stderr, 2);
  char text[4096] = "";
  ssize_t got = pread(said, text, sizeof text - 1, 0);
  text[got > 0 ? got : 0] = '\0';
  close(said);
  fputs(text, stderr);
  /* One warning per node, from whichever rank of it got there first. */
  int warnings = 0, warnings_on_node;
  for (const char *w = text; (w = strstr(w, "not enough memory for pdgemm's group buffers"));
       w++)
    warnings++;
  MPI_Allreduce(&warnings, &warnings_on_node, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  int warned_once = warnings_on_node == 1;

  hpd_stats s;
  hpd_get_stats(&s);
  const hpd_routine_stats *g = &s.routine[HPD_ROUTINE_PDGEMM];
  double worst = 0;
  for (int j = 0; j < nloc; j++)
    for (int i = 0; i < mloc; i++) {
      double d = fabs(c[i + (size_t)j * lld] - ref[i + (size_t)j * lld]);
      worst = d > worst ? d : worst;
    }
  /* The first call went to the reference on purpose ("disabled"); no other fallback. */
  int ok[4] = {g->engine_calls == 3 &&
                   g->fallback_calls == g->fallback_by_reason[HPD_FALLBACK_DISABLED],
               g->ngrp_last >= 1 && g->ngrp_last < g->panels_last, worst < 1e-9,
               warned_once};
  int all[4];
  MPI_Allreduce(ok, all, 4, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  if (rank == 0) {
    printf("memory halving: N_grp %d of %d panels, %llu engine calls, worst difference %.3g\n",
           g->ngrp_last, g->panels_last, (unsigned long long)g->engine_calls, worst);
    int passed = all[0] + all[1] + all[2] + all[3];
    printf("%d passed, %d failed\n", passed, 4 - passed);
  }
  free(a), free(b), free(c), free(ref);
  Cblacs_gridexit(ctxt);
  MPI_Finalize();
  return !(all[0] && all[1] && all[2] && all[3]);
}
