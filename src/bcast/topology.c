#include "bcast/topology.h"

int hpd_topology_chain(int pos, int size, int *parent, int *children)
{
  *parent = pos == 0 ? -1 : pos - 1;
  if (pos + 1 >= size)
    return 0;
  children[0] = pos + 1;
  return 1;
}

int hpd_topology_binomial_rounds(int size)
{
  int rounds = 0;
  while (size > (1 << rounds))
    rounds++;
  return rounds;
}

int hpd_topology_binomial(int pos, int size, int *parent, int *children)
{
  /* pos received in the round of its lowest set bit, from pos without that bit; it then
   * sends in every later round, to pos + each smaller power of two.  The root has no
   * bit set and sends in every round. */
  int low = pos ? pos & -pos : 1 << hpd_topology_binomial_rounds(size);
  *parent = pos == 0 ? -1 : pos - low;
  int n = 0;
  /* Largest subtree first: it has the most hops still ahead of it. */
  for (int step = low >> 1; step > 0; step >>= 1)
    if (pos + step < size)
      children[n++] = pos + step;
  return n;
}

/* The first position of pos's node. */
static int node_leader(const int *node_at, int pos)
{
  while (pos > 0 && node_at[pos - 1] == node_at[pos])
    pos--;
  return pos;
}

int hpd_topology_flat(int pos, int size, const int *node_at, int *parent, int *children)
{
  int n = 0;
  if (pos == 0) {
    *parent = -1;
    /* The other nodes' first positions first: each has its node still ahead of it. */
    for (int c = 1; node_at && c < size; c++)
      if (node_at[c] != node_at[0] && node_at[c] != node_at[c - 1])
        children[n++] = c;
    for (int c = 1; c < size; c++)
      if (!node_at || node_at[c] == node_at[0])
        children[n++] = c;
    return n;
  }
  /* The root's node hears from the root (leader 0), as does each other node's first
   * position, which passes it to the rest of its node. */
  int leader = node_at ? node_leader(node_at, pos) : 0;
  *parent = leader == pos ? 0 : leader;
  if (leader != pos)
    return 0;
  for (int c = pos + 1; c < size && node_at[c] == node_at[pos]; c++)
    children[n++] = c;
  return n;
}

static int cyclic(int r, int root, int size)
{
  return (r - root + size) % size;
}

int hpd_topology_visit_order(const int *node_first, int size, int root, int me, int *visit,
                             int *scratch)
{
  if (!node_first) {
    for (int pos = 0; pos < size; pos++)
      visit[pos] = (root + pos) % size;
    return cyclic(me, root, size);
  }
  /* A counting sort on the key (node, rank), both counted cyclically from the root's:
   * nodes in the cyclic order of their lowest ranks, ranks in cyclic order within one. */
  int *count = scratch, *start = scratch + size;
  for (int k = 0; k < size; k++)
    count[k] = 0;
  int root_node = node_first[root];
  for (int r = 0; r < size; r++)
    count[cyclic(node_first[r], root_node, size)]++;
  for (int k = 0, total = 0; k < size; k++) {
    start[k] = total;
    total += count[k];
  }
  /* Ranks taken from the root on keep the within-node cyclic order. */
  int mine = 0;
  for (int i = 0; i < size; i++) {
    int r = (root + i) % size;
    int pos = start[cyclic(node_first[r], root_node, size)]++;
    visit[pos] = r;
    if (r == me)
      mine = pos;
  }
  return mine;
}
