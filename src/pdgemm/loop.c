#include "pdgemm/loop.h"

int hpd_summa_sides(const hpd_summa *s)
{
  return s->a2 ? 2 : 1;
}

int hpd_summa_steps(const hpd_summa *s, int panels)
{
  return s->a->travels || s->b->travels ? panels : 0;
}
