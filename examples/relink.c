/*
 * A ScaLAPACK program linked with hpdaemon: C := A * B with pdgemm_, then A X = C solved
 * with pdgetrf_ and pdgetrs_, so X must come back as B.  pdgetrf_ calls pdgemm_ inside
 * ScaLAPACK for its trailing updates; linked first, hpdaemon serves those calls too.
 *
 *   mpicc.mpich relink.c $(pkg-config --cflags --libs hpdaemon) -lm -o relink
 *   mpiexec.mpich -n 2 ./relink [-t VALUE] [--report[=SPEC]] [N [NB]]
 *
 * Exits with 0 only if X matches B and hpdaemon's engine served pdgemm_ on every rank.
 */
#include <math.h>
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include <hpdaemon.h>

/* ScaLAPACK ships no C header: the few entry points used here. */
void Cblacs_get(int context, int what, int *value);
void Cblacs_gridinit(int *context, const char *order, int nprow, int npcol);
void Cblacs_gridinfo(int context, int *nprow, int *npcol, int *myrow, int *mycol);
void Cblacs_gridexit(int context);
int numroc_(const int *n, const int *nb, const int *iproc, const int *isrcproc,
            const int *nprocs);
void descinit_(int *desc, const int *m, const int *n, const int *mb, const int *nb,
               const int *irsrc, const int *icsrc, const int *ictxt, const int *lld,
               int *info);
void pdgemm_(const char *transa, const char *transb, const int *m, const int *n, const int *k,
             const double *alpha, const double *a, const int *ia, const int *ja,
             const int *desca, const double *b, const int *ib, const int *jb,
             const int *descb, const double *beta, double *c, const int *ic, const int *jc,
             const int *descc);
void pdgetrf_(const int *m, const int *n, double *a, const int *ia, const int *ja,
              const int *desca, int *ipiv, int *info);
/* pdgetrs_ is Fortran: the length of its character argument follows the others. */
void pdgetrs_(const char *trans, const int *n, const int *nrhs, const double *a,
              const int *ia, const int *ja, const int *desca, const int *ipiv, double *b,
              const int *ib, const int *jb, const int *descb, int *info, size_t trans_len);

/* Global 0-based index of local index k in a block-cyclic dimension whose first block
 * is on process 0. */
static int global_index(int k, int nb, int myproc, int nprocs)
{
  return (k / nb * nprocs + myproc) * nb + k % nb;
}

/* Strongly diagonally dominant, so LU needs no pivoting to be accurate and X must match
 * B to round-off; not symmetric, so a transposed operand would show. */
static double a_entry(int i, int j, int n)
{
  return (i == j ? n : 0.0) + 1.0 / (1.0 + i + 2.0 * j);
}

static double b_entry(int i, int j)
{
  return (double)((3 * i + 7 * j) % 17) - 8.0;
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  /* After MPI_Init, which may rewrite argv: takes -t and --report out of it. */
  if (hpd_parse_args(&argc, &argv) != HPD_SUCCESS) {
    MPI_Finalize();
    return 2;
  }
  int n = argc > 1 ? atoi(argv[1]) : 256;
  int nb = argc > 2 ? atoi(argv[2]) : 32;
  if (n < 1 || nb < 1) {
    MPI_Finalize();
    return 2;
  }

  /* The squarest grid nprow x npcol with nprow <= npcol. */
  int nprocs, nprow, npcol, myrow, mycol, ctxt;
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  for (nprow = (int)sqrt((double)nprocs); nprocs % nprow; nprow--)
    ;
  Cblacs_get(0, 0, &ctxt);
  Cblacs_gridinit(&ctxt, "Row", nprow, nprocs / nprow);
  Cblacs_gridinfo(ctxt, &nprow, &npcol, &myrow, &mycol);

  const int zero = 0, one = 1;
  int mloc = numroc_(&n, &nb, &myrow, &zero, &nprow);
  int nloc = numroc_(&n, &nb, &mycol, &zero, &npcol);
  int lld = mloc > 1 ? mloc : 1, info, desc[9];
  descinit_(desc, &n, &n, &nb, &nb, &zero, &zero, &ctxt, &lld, &info);
  size_t len = (size_t)lld * (nloc > 0 ? nloc : 1);
  double *a = malloc(sizeof(double) * len);
  double *b = malloc(sizeof(double) * len);
  double *c = malloc(sizeof(double) * len);
  int *ipiv = malloc(sizeof(int) * (mloc + nb));
  for (int j = 0; j < nloc; j++)
    for (int i = 0; i < mloc; i++) {
      int gi = global_index(i, nb, myrow, nprow), gj = global_index(j, nb, mycol, npcol);
      a[i + (size_t)j * lld] = a_entry(gi, gj, n);
      b[i + (size_t)j * lld] = b_entry(gi, gj);
    }

  const double alpha = 1.0, beta = 0.0;
  pdgemm_("N", "N", &n, &n, &n, &alpha, a, &one, &one, desc, b, &one, &one, desc, &beta, c,
          &one, &one, desc);
  pdgetrf_(&n, &n, a, &one, &one, desc, ipiv, &info);
  if (info == 0)
    pdgetrs_("N", &n, &n, a, &one, &one, desc, ipiv, c, &one, &one, desc, &info, 1);

  /* Every rank knows B's entries, so each compares its own part of X. */
  double err = info == 0 ? 0.0 : INFINITY, bmax = 0.0;
  for (int j = 0; j < nloc; j++)
    for (int i = 0; i < mloc; i++) {
      double x = c[i + (size_t)j * lld], want = b[i + (size_t)j * lld];
      err = fmax(err, fabs(x - want));
      bmax = fmax(bmax, fabs(want));
    }
  double local[2] = {err, bmax}, global[2];
  MPI_Allreduce(local, global, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  const double tolerance = 1e-12;
  int solved = global[0] <= tolerance * global[1];

  /* Linked after ScaLAPACK, or disabled, hpdaemon would leave every call to the
   * reference and the answer would still be right: only its counters tell. */
  hpd_stats stats;
  hpd_get_stats(&stats);
  const hpd_routine_stats *gemm = &stats.routine[HPD_ROUTINE_PDGEMM];
  int served = gemm->engine_calls > 0, all_served;
  MPI_Allreduce(&served, &all_served, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);

  if (myrow == 0 && mycol == 0) {
    printf("grid %d x %d, N = %d, NB = %d, memory threshold %g\n", nprow, npcol, n, nb,
           hpd_get_mem_threshold());
    printf("solve: info %d, max |X - B| / max |B| = %.2e (tolerance %.0e): %s\n", info,
           global[0] / global[1], tolerance, solved ? "passed" : "FAILED");
    printf("pdgemm on rank 0: %llu calls, %llu served by hpdaemon's engine, "
           "%llu by the reference: %s\n",
           (unsigned long long)gemm->calls, (unsigned long long)gemm->engine_calls,
           (unsigned long long)gemm->fallback_calls, all_served ? "passed" : "FAILED");
    printf("%d passed, %d failed\n", solved + all_served, 2 - solved - all_served);
  }

  free(a), free(b), free(c), free(ipiv);
  Cblacs_gridexit(ctxt);
  MPI_Finalize();
  return solved && all_served ? 0 : 1;
}
