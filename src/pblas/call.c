#include "pblas/call.h"

#include <ctype.h>

#include "core/stats.h"

/* PBLAS widens a 9-entry descriptor to the 11-entry form with IMB = MB, INB = NB. */
hpd_status hpd_desc_widen(const int *in, int out[HPD_DLEN])
{
  if (in[HPD_DTYPE] == HPD_BLOCK_CYCLIC_2D) {
    /* Entry by entry: a copy through a local array costs more than the rest of a
     * reference-routed call's checks, its narrow stores read back as wide loads. */
    int mb = in[4], nb = in[5];
    out[0] = HPD_BLOCK_CYCLIC_2D_INB;
    out[1] = in[1];
    out[2] = in[2];
    out[3] = in[3];
    out[4] = out[6] = mb;
    out[5] = out[7] = nb;
    out[8] = in[6];
    out[9] = in[7];
    out[10] = in[8];
    return HPD_OK;
  }
  if (in[HPD_DTYPE] == HPD_BLOCK_CYCLIC_2D_INB) {
    for (int e = 0; e < HPD_DLEN; e++)
      out[e] = in[e];
    return HPD_OK;
  }
  out[HPD_CTXT] = in[HPD_CTXT]; /* PBLAS still reads the context of an unknown type */
  return HPD_STATUS_INVALID;
}

/* Local rows (columns) as PBLAS counts them when checking LLD; a source of -1 means the
 * matrix is replicated, so every process holds all of it. */
static int64_t held(int extent, int first, int nb, int src, int nprocs, int me)
{
  if (src == -1)
    return extent;
  hpd_axis ax = {first, nb, src, nprocs};
  return hpd_axis_count(&ax, extent, me);
}

int hpd_matrix_ok(const hpd_call *call, int rows, int cols, int i, int j, const int *d,
                     int dtype_ok)
{
  if (rows < 0 || cols < 0 || i < 0 || j < 0 || !dtype_ok)
    return 0;
  if (d[HPD_CTXT] != call->ictxt)
    return 0;
  if (d[HPD_IMB] < 1 || d[HPD_INB] < 1 || d[HPD_MB] < 1 || d[HPD_NB] < 1)
    return 0;
  if (d[HPD_RSRC] < -1 || d[HPD_RSRC] >= call->nprow || d[HPD_CSRC] < -1 ||
      d[HPD_CSRC] >= call->npcol)
    return 0;
  if (rows == 0 || cols == 0)
    return d[HPD_M] >= 0 && d[HPD_N] >= 0 && d[HPD_LLD] >= 1;
  if (d[HPD_M] < 1 || d[HPD_N] < 1)
    return 0;
  if ((int64_t)i + rows > d[HPD_M] || (int64_t)j + cols > d[HPD_N])
    return 0;
  int64_t np = held(d[HPD_M], d[HPD_IMB], d[HPD_MB], d[HPD_RSRC], call->nprow, call->myrow);
  if (d[HPD_LLD] >= (np > 1 ? np : 1))
    return 1;
  int64_t nq = held(d[HPD_N], d[HPD_INB], d[HPD_NB], d[HPD_CSRC], call->npcol, call->mycol);
  return d[HPD_LLD] >= 1 && nq == 0; /* PBLAS accepts a short LLD where nothing is held */
}

int hpd_trans_letter(char t, char *out)
{
  switch (toupper((unsigned char)t)) {
  case 'N':
    *out = 'N';
    return 1;
  case 'T':
  case 'C':
    *out = 'T';
    return 1;
  default:
    return 0;
  }
}

static int replicated(const hpd_matrix *x)
{
  return x->desc[HPD_RSRC] == -1 || x->desc[HPD_CSRC] == -1;
}

int hpd_call_grid(hpd_call *call)
{
  call->ictxt = call->A.desc[HPD_CTXT];
  Cblacs_gridinfo(call->ictxt, &call->nprow, &call->npcol, &call->myrow, &call->mycol);
  return call->nprow >= 1 && call->npcol >= 1;
}

/* Replicated operands (a source of -1) are a PBLAS extension that ScaLAPACK's own
 * routines do not pass; the engine's layouts assume one owner per block. */
int hpd_call_engine_serves(const hpd_call *call)
{
  if (replicated(&call->A) || replicated(&call->B) || replicated(&call->C))
    return HPD_FALLBACK_UNSUPPORTED;
  return HPD_SERVED_BY_ENGINE;
}

int hpd_call_init(hpd_call *call, char transa, char transb, int m, int n, int k,
                  hpd_elem alpha, const hpd_elem *a, int ia, int ja, const int *desca,
                  const hpd_elem *b, int ib, int jb, const int *descb, hpd_elem beta, hpd_elem *c,
                  int ic, int jc, const int *descc)
{
  *call = (hpd_call){.m = m, .n = n, .k = k, .alpha = alpha, .beta = beta, .a = a, .b = b,
                     .c = c};
  call->A.i = ia - 1, call->A.j = ja - 1;
  call->B.i = ib - 1, call->B.j = jb - 1;
  call->C.i = ic - 1, call->C.j = jc - 1;
  int a_ok = hpd_desc_widen(desca, call->A.desc) == HPD_OK;
  int b_ok = hpd_desc_widen(descb, call->B.desc) == HPD_OK;
  int c_ok = hpd_desc_widen(descc, call->C.desc) == HPD_OK;
  if (!hpd_call_grid(call))
    return HPD_FALLBACK_BAD_ARGUMENT;
  if (!hpd_trans_letter(transa, &call->transa) || !hpd_trans_letter(transb, &call->transb))
    return HPD_FALLBACK_BAD_ARGUMENT;
  int nota = call->transa == 'N', notb = call->transb == 'N';
  if (!hpd_matrix_ok(call, nota ? m : k, nota ? k : m, call->A.i, call->A.j, call->A.desc, a_ok) ||
      !hpd_matrix_ok(call, notb ? k : n, notb ? n : k, call->B.i, call->B.j, call->B.desc, b_ok) ||
      !hpd_matrix_ok(call, m, n, call->C.i, call->C.j, call->C.desc, c_ok))
    return HPD_FALLBACK_BAD_ARGUMENT;
  return hpd_call_engine_serves(call);
}

int hpd_call_init_syrk(hpd_call *call, char uplo, char trans, int n, int k, hpd_elem alpha,
                       const hpd_elem *a, int ia, int ja, const int *desca, hpd_elem beta,
                       hpd_elem *c, int ic, int jc, const int *descc)
{
  *call = (hpd_call){.m = n, .n = n, .k = k, .alpha = alpha, .beta = beta, .a = a, .b = a,
                     .c = c};
  call->A.i = call->B.i = ia - 1, call->A.j = call->B.j = ja - 1;
  call->C.i = ic - 1, call->C.j = jc - 1;
  int a_ok = hpd_desc_widen(desca, call->A.desc) == HPD_OK;
  int c_ok = hpd_desc_widen(descc, call->C.desc) == HPD_OK;
  call->B = call->A;
  call->b_is_a = 1;
  if (!hpd_call_grid(call))
    return HPD_FALLBACK_BAD_ARGUMENT;
  call->uplo = (char)toupper((unsigned char)uplo);
  if ((call->uplo != 'U' && call->uplo != 'L') || !hpd_trans_letter(trans, &call->transa))
    return HPD_FALLBACK_BAD_ARGUMENT;
  call->transb = call->transa == 'N' ? 'T' : 'N';
  int nota = call->transa == 'N';
  if (!hpd_matrix_ok(call, nota ? n : k, nota ? k : n, call->A.i, call->A.j, call->A.desc, a_ok) ||
      !hpd_matrix_ok(call, n, n, call->C.i, call->C.j, call->C.desc, c_ok))
    return HPD_FALLBACK_BAD_ARGUMENT;
  return hpd_call_engine_serves(call);
}

hpd_axis hpd_matrix_rows(const hpd_matrix *x, int nprow)
{
  hpd_axis full = {x->desc[HPD_IMB], x->desc[HPD_MB], x->desc[HPD_RSRC], nprow};
  return hpd_axis_from(&full, x->i);
}

hpd_axis hpd_matrix_cols(const hpd_matrix *x, int npcol)
{
  hpd_axis full = {x->desc[HPD_INB], x->desc[HPD_NB], x->desc[HPD_CSRC], npcol};
  return hpd_axis_from(&full, x->j);
}

int64_t hpd_matrix_row0(const hpd_matrix *x, int nprow, int myrow)
{
  hpd_axis full = {x->desc[HPD_IMB], x->desc[HPD_MB], x->desc[HPD_RSRC], nprow};
  return hpd_axis_count(&full, x->i, myrow);
}

int64_t hpd_matrix_col0(const hpd_matrix *x, int npcol, int mycol)
{
  hpd_axis full = {x->desc[HPD_INB], x->desc[HPD_NB], x->desc[HPD_CSRC], npcol};
  return hpd_axis_count(&full, x->j, mycol);
}

void hpd_desc_of_axes(const hpd_call *call, const hpd_axis *r, int64_t rows, const hpd_axis *c,
                      int64_t cols, int desc[HPD_DLEN])
{
  int64_t rloc = hpd_axis_count(r, rows, call->myrow);
  desc[HPD_DTYPE] = HPD_BLOCK_CYCLIC_2D_INB;
  desc[HPD_CTXT] = call->ictxt;
  desc[HPD_M] = (int)rows, desc[HPD_N] = (int)cols;
  desc[HPD_IMB] = (int)(r->first < rows ? r->first : rows);
  desc[HPD_INB] = (int)(c->first < cols ? c->first : cols);
  desc[HPD_MB] = r->nb, desc[HPD_NB] = c->nb;
  desc[HPD_RSRC] = r->src, desc[HPD_CSRC] = c->src;
  desc[HPD_LLD] = rloc > 1 ? (int)rloc : 1;
}
