/*
 * The process's kept working space (src/core/workspace.c): an area keeps its block for
 * every call that asks for no more than it holds, and is made afresh where one asks for
 * more; where an area grows past the budget the layers inside it give their space back,
 * in order, until the account fits, and never those around it; a block is written and
 * read whole (its pages are made); a reserve holds space whose pages are made in pieces.
 */
#include <stdio.h>
#include <string.h>

#include "core/workspace.h"

static int checks, failed;

static void check(int ok, const char *what)
{
  checks++;
  if (!ok) {
    failed++;
    fprintf(stderr, "test_workspace: failed: %s\n", what);
  }
}

#define MIB ((size_t)1 << 20)

static int usable(void *block, size_t bytes)
{
  if (!block)
    return 0;
  memset(block, 0x5a, bytes);
  const unsigned char *b = block;
  return b[0] == 0x5a && b[bytes - 1] == 0x5a;
}

int main(void)
{
  const double plenty = 1e15;
  void *l3 = hpd_workspace_get(HPD_AREA_LEVEL3, 8 * MIB, plenty);
  check(usable(l3, 8 * MIB), "level 3's area is made and usable");
  check(hpd_workspace_get(HPD_AREA_LEVEL3, 5 * MIB, plenty) == l3,
        "a smaller call keeps the block");
  check(hpd_workspace_bytes(HPD_AREA_LEVEL3) == 8 * MIB, "the area holds what it made");
  check(hpd_workspace_get(HPD_AREA_LEVEL3, 1 * MIB, plenty) == l3 &&
            hpd_workspace_bytes(HPD_AREA_LEVEL3) == 8 * MIB,
        "a much smaller call keeps the block too: the next larger one would pay afresh");
  check(hpd_workspace_get(HPD_AREA_LEVEL3, 0, plenty) == NULL &&
            hpd_workspace_bytes(HPD_AREA_LEVEL3) == 8 * MIB,
        "asking for nothing gets nothing and keeps the block");
  void *l3_more = hpd_workspace_get(HPD_AREA_LEVEL3, 9 * MIB, plenty);
  check(usable(l3_more, 9 * MIB) && hpd_workspace_bytes(HPD_AREA_LEVEL3) == 9 * MIB,
        "a call that needs more makes the area afresh");

  void *a = hpd_workspace_get(HPD_AREA_ENGINE_A, 6 * MIB, plenty);
  void *b = hpd_workspace_get(HPD_AREA_ENGINE_B, 2 * MIB, plenty);
  check(usable(a, 6 * MIB) && usable(b, 2 * MIB), "the engine's areas are made");
  check(hpd_workspace_held() == 17 * MIB, "the account sums the areas");

  /* The engine, innermost, grows past the budget: nothing around it is given back. */
  void *bigger_a = hpd_workspace_get(HPD_AREA_ENGINE_A, 13 * MIB, 10.0 * MIB);
  check(usable(bigger_a, 13 * MIB), "the innermost area grows past the budget");
  check(hpd_workspace_bytes(HPD_AREA_LEVEL3) == 9 * MIB,
        "an enclosing layer keeps its space");
  check(hpd_workspace_bytes(HPD_AREA_ENGINE_B) == 2 * MIB,
        "an area of the same layer keeps its space");

  /* Level 3 grows past the budget: the engine's areas, inside it, give theirs back, in
   * order, until the account fits. */
  void *l3_big = hpd_workspace_get(HPD_AREA_LEVEL3, 10 * MIB, 13.0 * MIB);
  check(usable(l3_big, 10 * MIB), "level 3 grows");
  check(hpd_workspace_bytes(HPD_AREA_ENGINE_A) == 0,
        "a layer inside the growing one gave its space back");
  check(hpd_workspace_bytes(HPD_AREA_ENGINE_B) == 2 * MIB,
        "no more was given back than the budget needed");
  check(hpd_workspace_held() == 12 * MIB, "the account follows");
  l3_big = hpd_workspace_get(HPD_AREA_LEVEL3, 20 * MIB, 12.0 * MIB);
  check(usable(l3_big, 20 * MIB) && hpd_workspace_bytes(HPD_AREA_ENGINE_B) == 0,
        "past the budget even alone, it leaves nothing inside it held");

  /* Within the budget nothing is given back. */
  a = hpd_workspace_get(HPD_AREA_ENGINE_A, 1 * MIB, plenty);
  void *factor = hpd_workspace_get(HPD_AREA_FACTOR, 4 * MIB, 30.0 * MIB);
  check(usable(factor, 4 * MIB), "the factorizations' area is made");
  check(hpd_workspace_bytes(HPD_AREA_LEVEL3) == 20 * MIB &&
            hpd_workspace_bytes(HPD_AREA_ENGINE_A) == 1 * MIB,
        "within the budget the inner layers keep their space");

  /* A reserve holds space whose pages are made piece by piece, and kept as it grows. */
  hpd_workspace_give_back(HPD_AREA_ENGINE_B);
  check(hpd_workspace_reserve(HPD_AREA_ENGINE_B, 8 * MIB, plenty) &&
            hpd_workspace_bytes(HPD_AREA_ENGINE_B) == 8 * MIB &&
            hpd_workspace_made(HPD_AREA_ENGINE_B) == 0,
        "a reserve holds the space and makes no page");
  check(hpd_workspace_make_piece(HPD_AREA_ENGINE_B, 8 * MIB, 3 * MIB) == 3 * MIB &&
            hpd_workspace_make_piece(HPD_AREA_ENGINE_B, 8 * MIB, 3 * MIB) == 6 * MIB &&
            hpd_workspace_make_piece(HPD_AREA_ENGINE_B, 8 * MIB, 3 * MIB) == 8 * MIB &&
            hpd_workspace_make_piece(HPD_AREA_ENGINE_B, 8 * MIB, 3 * MIB) == 8 * MIB,
        "pieces make the pages in order, up to what is asked and no further");
  void *reserved = hpd_workspace_get(HPD_AREA_ENGINE_B, 4 * MIB, plenty);
  check(usable(reserved, 4 * MIB) && hpd_workspace_made(HPD_AREA_ENGINE_B) == 8 * MIB,
        "a call within the reserve takes its block as made");
  check(hpd_workspace_reserve(HPD_AREA_ENGINE_B, 6 * MIB, plenty) &&
            hpd_workspace_get(HPD_AREA_ENGINE_B, 6 * MIB, plenty) == reserved,
        "a smaller reserve keeps the block and its pages");
  check(hpd_workspace_make_piece(HPD_AREA_ENGINE_B, 20 * MIB, 64 * MIB) == 8 * MIB,
        "pieces make no more than the area holds");

  hpd_workspace_give_back(HPD_AREA_FACTOR);
  check(hpd_workspace_bytes(HPD_AREA_FACTOR) == 0, "an area given back holds nothing");
  for (int i = 0; i < HPD_AREAS; i++)
    hpd_workspace_give_back((hpd_area)i);
  check(hpd_workspace_held() == 0, "everything given back");

  printf("test_workspace: %d passed, %d failed\n", checks - failed, failed);
  return failed != 0;
}
