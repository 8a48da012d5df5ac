/* hpdaemon's own pdgemm and pdsyrk: check a call, then serve it or say why not. */
#ifndef HPD_PDGEMM_ENGINE_H
#define HPD_PDGEMM_ENGINE_H

/*
 * sub(C) := alpha*op(sub(A))*op(sub(B)) + beta*sub(C) with PBLAS semantics (indices
 * 1-based).  Returns HPD_SERVED_BY_ENGINE when done, else a hpd_fallback_reason, with
 * C untouched, for the caller to hand the call to the reference.  Every rank of the
 * grid returns the same verdict, so a fallback never leaves part of a grid in the engine.
 */
int hpd_engine_pdgemm(char transa, char transb, int m, int n, int k, double alpha,
                      const double *a, int ia, int ja, const int *desca, const double *b,
                      int ib, int jb, const int *descb, double beta, double *c, int ic,
                      int jc, const int *descc);

/* sub(C) := alpha*sub(A)*sub(A)' + beta*sub(C) (trans 'N') or alpha*sub(A)'*sub(A) +
 * beta*sub(C), on the triangle uplo of sub(C) only; the same contract otherwise. */
int hpd_engine_pdsyrk(char uplo, char trans, int n, int k, double alpha, const double *a,
                      int ia, int ja, const int *desca, double beta, double *c, int ic,
                      int jc, const int *descc);

#endif
