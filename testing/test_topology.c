/*
 * The order broadcasts visit ranks (src/bcast/topology.c): every rank once, the root
 * first, and across hosts each host's ranks together, so a chain crosses each host's
 * link once whatever the grid's rank order; the shapes on positions, checked against
 * their definitions.
 */
#include <stdio.h>
#include <stdlib.h>

#include "bcast/topology.h"

static int failures, checks;
#define CHECK(cond)                                                                         \
  do {                                                                                      \
    checks++;                                                                               \
    if (!(cond)) {                                                                          \
      failures++;                                                                           \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);             \
    }                                                                                       \
  } while (0)

#define MAX_RANKS 12

/* Host changes along the visit order: a chain's crossings of host links. */
static int crossings(const int *node_first, const int *visit, int size)
{
  int n = 0;
  for (int pos = 1; pos < size; pos++)
    n += node_first[visit[pos]] != node_first[visit[pos - 1]];
  return n;
}

static void check_order(const int *node_first, int size, int hosts)
{
  int visit[MAX_RANKS], scratch[2 * MAX_RANKS];
  for (int root = 0; root < size; root++)
    for (int me = 0; me < size; me++) {
      int pos = hpd_topology_visit_order(node_first, size, root, me, visit, scratch);
      CHECK(visit[pos] == me);
      CHECK(visit[0] == root);
      int seen[MAX_RANKS] = {0};
      for (int i = 0; i < size; i++)
        seen[visit[i]]++;
      for (int r = 0; r < size; r++)
        CHECK(seen[r] == 1);
      if (node_first)
        CHECK(crossings(node_first, visit, size) == hosts - 1);
    }
}

/* A chain over the visit order of the rank-order chain: how many crossings. */
static int rank_order_crossings(const int *node_first, int size, int root)
{
  int visit[MAX_RANKS], scratch[2 * MAX_RANKS];
  hpd_topology_visit_order(NULL, size, root, 0, visit, scratch);
  return crossings(node_first, visit, size);
}

static void check_shapes(int size)
{
  int children[MAX_RANKS], parent, received[MAX_RANKS] = {0};
  for (int pos = 0; pos < size; pos++) {
    int n = hpd_topology_chain(pos, size, &parent, children);
    CHECK(parent == (pos ? pos - 1 : -1));
    CHECK(n == (pos + 1 < size));
    n = hpd_topology_binomial(pos, size, &parent, children);
    CHECK((parent < 0) == (pos == 0));
    for (int i = 0; i < n; i++) {
      int child_parent, grandchildren[MAX_RANKS];
      hpd_topology_binomial(children[i], size, &child_parent, grandchildren);
      CHECK(child_parent == pos);
      CHECK(children[i] > pos && children[i] < size);
      received[children[i]]++;
    }
  }
  for (int pos = 1; pos < size; pos++)
    CHECK(received[pos] == 1);
  /* Flat on one node: the root sends to every other position, which forwards nothing. */
  for (int pos = 0; pos < size; pos++) {
    int n = hpd_topology_flat(pos, size, NULL, &parent, children);
    CHECK(parent == (pos ? 0 : -1));
    CHECK(n == (pos ? 0 : size - 1));
    for (int i = 0; i < n; i++)
      CHECK(children[i] == i + 1);
  }
}

/* Flat across nodes (node_at: each position's node, a node's positions consecutive):
 * every position receives once, from the root or from its node's first position; the
 * root sends one copy to each other node, and no copy crosses between two nodes
 * other than the root's. */
static void check_flat_nodes(const int *node_at, int size)
{
  int children[MAX_RANKS], parent, from[MAX_RANKS], received[MAX_RANKS] = {0};
  for (int pos = 0; pos < size; pos++)
    from[pos] = -2;
  for (int pos = 0; pos < size; pos++) {
    int n = hpd_topology_flat(pos, size, node_at, &parent, children);
    CHECK((parent < 0) == (pos == 0));
    int crossing = 0;
    for (int i = 0; i < n; i++) {
      int child_parent, grandchildren[MAX_RANKS];
      hpd_topology_flat(children[i], size, node_at, &child_parent, grandchildren);
      CHECK(child_parent == pos);
      CHECK(children[i] > pos && children[i] < size);
      received[children[i]]++;
      from[children[i]] = pos;
      crossing += node_at[children[i]] != node_at[pos];
      CHECK(pos == 0 || node_at[children[i]] == node_at[pos]);
    }
    if (pos == 0) {
      int nodes = 1;
      for (int p = 1; p < size; p++)
        nodes += node_at[p] != node_at[p - 1];
      CHECK(crossing == nodes - 1);
    }
  }
  for (int pos = 1; pos < size; pos++) {
    CHECK(received[pos] == 1);
    CHECK(from[pos] == 0 || from[from[pos]] == 0); /* one forward at most */
  }
}

int main(void)
{
  for (int size = 1; size <= MAX_RANKS; size++) {
    check_shapes(size);
    check_order(NULL, size, 1);
  }
  /* 1x4 over 2 hosts, column-major map: ranks 0 and 2 on one host, 1 and 3 on the
   * other.  Rank order crosses 3 links; the node-aware order 1. */
  const int interleaved[] = {0, 1, 0, 1};
  check_order(interleaved, 4, 2);
  CHECK(rank_order_crossings(interleaved, 4, 0) == 3);
  /* Blocks of 2 on 3 hosts, and 3 hosts dealt cyclically over 9 ranks. */
  const int blocks[] = {0, 0, 2, 2, 4, 4};
  check_order(blocks, 6, 3);
  const int dealt[] = {0, 1, 2, 0, 1, 2, 0, 1, 2};
  check_order(dealt, 9, 3);
  CHECK(rank_order_crossings(dealt, 9, 4) == 8);
  const int two_nodes[] = {0, 0, 0, 5, 5, 5, 5}, singles[] = {0, 1, 2, 3},
            same[] = {3, 3, 3, 3, 3}, mixed[] = {0, 4, 4, 7, 7, 7, 9};
  check_flat_nodes(two_nodes, 7);
  check_flat_nodes(singles, 4);
  check_flat_nodes(same, 5);
  check_flat_nodes(mixed, 7);
  /* The root's node comes first and keeps its ranks from the root on. */
  int visit[MAX_RANKS], scratch[2 * MAX_RANKS];
  hpd_topology_visit_order(blocks, 6, 3, 0, visit, scratch);
  CHECK(visit[0] == 3 && visit[1] == 2);
  printf("test_topology: %d checks, %d passed, %d failed\n", checks, checks - failures,
         failures);
  return failures != 0;
}
