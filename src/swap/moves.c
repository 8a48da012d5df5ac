#include "swap/moves.h"

#include <stdlib.h>

/* Open addressing over the lines touched so far: line -> the line whose content it now
 * holds.  A line never touched holds its own. */
typedef struct table {
  int64_t *line, *holds; /* line -1: an empty slot */
  uint64_t mask;
} table;

static uint64_t slot_of(const table *t, int64_t line)
{
  uint64_t i = ((uint64_t)line * 0x9E3779B97F4A7C15ull) & t->mask;
  while (t->line[i] != -1 && t->line[i] != line)
    i = (i + 1) & t->mask;
  return i;
}

static int64_t holds(const table *t, int64_t line)
{
  uint64_t i = slot_of(t, line);
  return t->line[i] == -1 ? line : t->holds[i];
}

static void set(table *t, int64_t line, int64_t content)
{
  uint64_t i = slot_of(t, line);
  t->line[i] = line;
  t->holds[i] = content;
}

/* A half-full table at most: count interchanges touch at most 2 * count lines. */
static uint64_t slots_for(int64_t count)
{
  uint64_t slots = 16;
  while (slots < 4 * (uint64_t)count)
    slots *= 2;
  return slots;
}

size_t hpd_swap_moves_work(int64_t count)
{
  return 2 * (size_t)slots_for(count);
}

int64_t hpd_swap_moves(const int *piv, int k1, int k2, int64_t *work, hpd_move *moves)
{
  if (k2 < k1)
    return 0;
  int64_t count = (int64_t)k2 - k1 + 1;
  uint64_t slots = slots_for(count);
  table t = {work, work + slots, slots - 1};
  for (uint64_t i = 0; i < slots; i++)
    t.line[i] = -1;
  for (int64_t s = 0; s < count; s++) {
    int64_t i = k1 - 1 + s, p = (int64_t)piv[s] - 1;
    if (p == i)
      continue;
    int64_t content_i = holds(&t, i);
    set(&t, i, holds(&t, p));
    set(&t, p, content_i);
  }
  int64_t moved = 0;
  for (uint64_t i = 0; i < slots; i++)
    if (t.line[i] != -1 && t.holds[i] != t.line[i])
      moves[moved++] = (hpd_move){t.line[i], t.holds[i]};
  return moved;
}
