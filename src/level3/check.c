#include <ctype.h>

#include "level3/level3.h"

static char upper(char letter)
{
  return (char)toupper((unsigned char)letter);
}

/* The operands' descriptors widened, and the grid of A's context. */
static int start(hpd_l3 *l3, hpd_routine routine, const int *desca, int ia, int ja,
                 const int *descb, int ib, int jb, const int *descc, int ic, int jc,
                 int ok[3])
{
  hpd_call *call = &l3->call;
  l3->routine = routine;
  call->A.i = ia - 1, call->A.j = ja - 1;
  ok[0] = hpd_desc_widen(desca, call->A.desc) == HPD_OK;
  ok[1] = descb ? hpd_desc_widen(descb, call->B.desc) == HPD_OK : 1;
  ok[2] = hpd_desc_widen(descc, call->C.desc) == HPD_OK;
  call->B.i = ib - 1, call->B.j = jb - 1;
  call->C.i = ic - 1, call->C.j = jc - 1;
  return hpd_call_grid(call);
}

static int side_uplo_ok(hpd_l3 *l3, char side, char uplo)
{
  l3->side = upper(side);
  l3->call.uplo = upper(uplo);
  l3->call.transb = l3->side == 'R' ? 'T' : 'N';
  return (l3->side == 'L' || l3->side == 'R') && (l3->call.uplo == 'U' || l3->call.uplo == 'L');
}

int hpd_l3_init_trxm(hpd_l3 *l3, hpd_routine routine, char side, char uplo, char transa,
                     char diag, int m, int n, hpd_elem alpha, const hpd_elem *a, int ia, int ja,
                     const int *desca, hpd_elem *b, int ib, int jb, const int *descb)
{
  *l3 = (hpd_l3){.call = {.m = m, .n = n, .alpha = alpha, .beta = 0.0, .a = a, .c = b}};
  hpd_call *call = &l3->call;
  int ok[3];
  if (!start(l3, routine, desca, ia, ja, NULL, 1, 1, descb, ib, jb, ok))
    return HPD_FALLBACK_BAD_ARGUMENT;
  l3->diag = upper(diag);
  if (!side_uplo_ok(l3, side, uplo) || !hpd_trans_letter(transa, &call->transa) ||
      (l3->diag != 'U' && l3->diag != 'N'))
    return HPD_FALLBACK_BAD_ARGUMENT;
  call->k = l3->side == 'L' ? m : n;
  if (!hpd_matrix_ok(call, call->k, call->k, call->A.i, call->A.j, call->A.desc, ok[0]) ||
      !hpd_matrix_ok(call, m, n, call->C.i, call->C.j, call->C.desc, ok[2]))
    return HPD_FALLBACK_BAD_ARGUMENT;
  call->B = call->C; /* nothing reads it; keeps the replication check below simple */
  return hpd_call_engine_serves(call);
}

int hpd_l3_init_symm(hpd_l3 *l3, char side, char uplo, int m, int n, hpd_elem alpha,
                     const hpd_elem *a, int ia, int ja, const int *desca, const hpd_elem *b,
                     int ib, int jb, const int *descb, hpd_elem beta, hpd_elem *c, int ic,
                     int jc, const int *descc)
{
  *l3 = (hpd_l3){.call = {.m = m, .n = n, .alpha = alpha, .beta = beta, .a = a, .b = b,
                          .c = c, .transa = 'N'}, .diag = 'N'};
  hpd_call *call = &l3->call;
  int ok[3];
  if (!start(l3, HPD_ROUTINE_PDSYMM, desca, ia, ja, descb, ib, jb, descc, ic, jc, ok))
    return HPD_FALLBACK_BAD_ARGUMENT;
  if (!side_uplo_ok(l3, side, uplo))
    return HPD_FALLBACK_BAD_ARGUMENT;
  call->k = l3->side == 'L' ? m : n;
  if (!hpd_matrix_ok(call, call->k, call->k, call->A.i, call->A.j, call->A.desc, ok[0]) ||
      !hpd_matrix_ok(call, m, n, call->B.i, call->B.j, call->B.desc, ok[1]) ||
      !hpd_matrix_ok(call, m, n, call->C.i, call->C.j, call->C.desc, ok[2]))
    return HPD_FALLBACK_BAD_ARGUMENT;
  return hpd_call_engine_serves(call);
}

int hpd_l3_init_syr2k(hpd_l3 *l3, char uplo, char trans, int n, int k, hpd_elem alpha,
                      const hpd_elem *a, int ia, int ja, const int *desca, const hpd_elem *b,
                      int ib, int jb, const int *descb, hpd_elem beta, hpd_elem *c, int ic,
                      int jc, const int *descc)
{
  *l3 = (hpd_l3){.call = {.m = n, .n = n, .k = k, .alpha = alpha, .beta = beta, .a = a,
                          .b = b, .c = c}, .side = 'L', .diag = 'N'};
  hpd_call *call = &l3->call;
  int ok[3];
  if (!start(l3, HPD_ROUTINE_PDSYR2K, desca, ia, ja, descb, ib, jb, descc, ic, jc, ok))
    return HPD_FALLBACK_BAD_ARGUMENT;
  call->uplo = upper(uplo);
  if ((call->uplo != 'U' && call->uplo != 'L') || !hpd_trans_letter(trans, &call->transa))
    return HPD_FALLBACK_BAD_ARGUMENT;
  call->transb = call->transa == 'N' ? 'T' : 'N';
  int rows = call->transa == 'N' ? n : k, cols = call->transa == 'N' ? k : n;
  if (!hpd_matrix_ok(call, rows, cols, call->A.i, call->A.j, call->A.desc, ok[0]) ||
      !hpd_matrix_ok(call, rows, cols, call->B.i, call->B.j, call->B.desc, ok[1]) ||
      !hpd_matrix_ok(call, n, n, call->C.i, call->C.j, call->C.desc, ok[2]))
    return HPD_FALLBACK_BAD_ARGUMENT;
  return hpd_call_engine_serves(call);
}
