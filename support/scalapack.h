/* The BLACS and ScaLAPACK entry points the tests and benchmarks call; ScaLAPACK ships no
 * C header. */
#ifndef HPD_SUPPORT_SCALAPACK_H
#define HPD_SUPPORT_SCALAPACK_H

void Cblacs_pinfo(int *rank, int *nprocs);
void Cblacs_get(int context, int what, int *value);
void Cblacs_gridinit(int *context, const char *order, int nprow, int npcol);
void Cblacs_gridmap(int *context, int *usermap, int ldumap, int nprow, int npcol);
void Cblacs_gridinfo(int context, int *nprow, int *npcol, int *myrow, int *mycol);
void Cblacs_gridexit(int context);
void Cblacs_exit(int keep_mpi);
int numroc_(const int *n, const int *nb, const int *iproc, const int *isrcproc,
            const int *nprocs);
void descinit_(int *desc, const int *m, const int *n, const int *mb, const int *nb,
               const int *irsrc, const int *icsrc, const int *ictxt, const int *lld,
               int *info);
void infog2l_(const int *grindx, const int *gcindx, const int *desc, const int *nprow,
              const int *npcol, const int *myrow, const int *mycol, int *lrindx, int *lcindx,
              int *rsrc, int *csrc);
void pdlaswp_(const char *direc, const char *rowcol, const int *n, double *a, const int *ia,
              const int *ja, const int *desca, const int *k1, const int *k2, const int *ipiv);
void pdgemm_(const char *transa, const char *transb, const int *m, const int *n, const int *k,
             const double *alpha, const double *a, const int *ia, const int *ja,
             const int *desca, const double *b, const int *ib, const int *jb,
             const int *descb, const double *beta, double *c, const int *ic, const int *jc,
             const int *descc);
void dgemm_(const char *transa, const char *transb, const int *m, const int *n, const int *k,
            const double *alpha, const double *a, const int *lda, const double *b,
            const int *ldb, const double *beta, double *c, const int *ldc);
void pdsyrk_(const char *uplo, const char *trans, const int *n, const int *k,
             const double *alpha, const double *a, const int *ia, const int *ja,
             const int *desca, const double *beta, double *c, const int *ic, const int *jc,
             const int *descc);
void pdtrsm_(const char *side, const char *uplo, const char *transa, const char *diag,
             const int *m, const int *n, const double *alpha, const double *a, const int *ia,
             const int *ja, const int *desca, double *b, const int *ib, const int *jb,
             const int *descb);
void pdtrmm_(const char *side, const char *uplo, const char *transa, const char *diag,
             const int *m, const int *n, const double *alpha, const double *a, const int *ia,
             const int *ja, const int *desca, double *b, const int *ib, const int *jb,
             const int *descb);
void pdsymm_(const char *side, const char *uplo, const int *m, const int *n,
             const double *alpha, const double *a, const int *ia, const int *ja,
             const int *desca, const double *b, const int *ib, const int *jb,
             const int *descb, const double *beta, double *c, const int *ic, const int *jc,
             const int *descc);
void pdsyr2k_(const char *uplo, const char *trans, const int *n, const int *k,
              const double *alpha, const double *a, const int *ia, const int *ja,
              const int *desca, const double *b, const int *ib, const int *jb,
              const int *descb, const double *beta, double *c, const int *ic, const int *jc,
              const int *descc);
void pdgetrf_(const int *m, const int *n, double *a, const int *ia, const int *ja,
              const int *desca, int *ipiv, int *info);
void pdpotrf_(const char *uplo, const int *n, double *a, const int *ia, const int *ja,
              const int *desca, int *info);
void pdlauum_(const char *uplo, const int *n, double *a, const int *ia, const int *ja,
              const int *desca);

#endif
