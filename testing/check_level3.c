#include "check_level3.h"

#include <string.h>

uint64_t check_start_case(check_head *head, uint64_t seed, grid_shape g, long index)
{
  head->grid = g;
  head->index = index;
  head->order = check_grid_order(index);
  head->key = check_case_key(seed, g, index);
  return head->key;
}

uint64_t check_data_id(const check_head *head, int mat)
{
  return check_mix64(head->key ^ (uint64_t)(mat + 1));
}

int check_is(char letter, char upper)
{
  return letter == upper || letter == (char)(upper - 'A' + 'a');
}

int check_in_triangle(int upper, int i, int j)
{
  return upper ? i <= j : i >= j;
}

static double nan_with_payload(uint64_t bits)
{
  double v;
  memcpy(&v, &bits, sizeof v);
  return v;
}

double check_other_triangle_value(void)
{
  return nan_with_payload(0x7FF80000F00DF00Dull);
}

double check_unit_diagonal_value(void)
{
  return nan_with_payload(0x7FF800000D1A6000ull);
}

void check_pick_combo(long j, int npairs, int nshapes, const int *shape_order, int *pair,
                      int *shape)
{
  long apart = nshapes / npairs > 0 ? nshapes / npairs : 1;
  *pair = (int)(j % npairs);
  *shape = shape_order[(j / npairs + apart * *pair) % nshapes];
}

void check_make_alike(operand *op, int order, grid_shape g)
{
  int row_margin = op->rows - (op->i - 1) - order, col_margin = op->cols - (op->j - 1) - order;
  op->j = op->i;
  op->inb = op->imb;
  op->nb = op->mb;
  op->csrc = op->rsrc % g.npcol;
  check_size_operand(op, order, order, row_margin > 0 ? row_margin : 0,
                     col_margin > 0 ? col_margin : 0);
}

void check_layout_wide(check_head *head, operand *ops, int nmats, const int (*extent)[2],
                       int square, int alike)
{
  head->layout = alike ? "wide-alike" : "wide";
  for (int mat = 0; mat < nmats; mat++) {
    operand *op = &ops[mat];
    if (mat != square) {
      *op = (operand){.dtype = 1, .imb = 16, .inb = 16, .mb = 16, .nb = 16, .i = 4 - mat,
                      .j = 2 + mat, .lld_pad = 1};
      check_size_operand(op, extent[mat][0], extent[mat][1], 0, 3);
    } else if (alike) {
      *op = (operand){.dtype = 2, .imb = 70, .inb = 70, .mb = 80, .nb = 80,
                      .rsrc = head->grid.nprow - 1, .csrc = head->grid.npcol - 1, .i = 3,
                      .j = 3};
      check_size_operand(op, extent[mat][0], extent[mat][1], 1, 2);
    } else {
      *op = (operand){.dtype = 2, .imb = 37, .inb = 90, .mb = 80, .nb = 80,
                      .rsrc = head->grid.nprow - 1, .csrc = 0, .i = 30, .j = 3, .lld_pad = 3};
      check_size_operand(op, extent[mat][0], extent[mat][1], 1, 2);
    }
  }
}

void check_args_clear(check_args *a)
{
  memset(a, 0, sizeof *a);
}

void check_args_copy(check_args *to, const check_args *from)
{
  memcpy(to, from, sizeof *to);
}

void check_args_judge(const check_head *head, const check_args *sent,
                      const check_args *after, case_result *res)
{
  if (memcmp(sent, after, sizeof *sent) == 0)
    return;
  res->bad_inputs++;
  check_detail(head, "a letter, scalar, index or descriptor argument was modified");
}

double *check_dense_sub(uint64_t id, const operand *op, int rows, int cols)
{
  double *s = check_alloc((size_t)rows * (size_t)cols, sizeof *s);
  for (int q = 0; q < cols; q++)
    for (int r = 0; r < rows; r++)
      s[r + (size_t)q * rows] = check_entry(id, op->i - 1 + r, op->j - 1 + q);
  return s;
}
