#include "topology.h"

static int absolute(int relative, int root, int size)
{
  return (relative + root) % size;
}

int hpd_topology_chain(int rank, int root, int size, int *parent, int *children)
{
  int r = (rank - root + size) % size;
  *parent = r == 0 ? -1 : absolute(r - 1, root, size);
  if (r + 1 >= size)
    return 0;
  children[0] = absolute(r + 1, root, size);
  return 1;
}

int hpd_topology_binomial(int rank, int root, int size, int *parent, int *children)
{
  int r = (rank - root + size) % size;
  /* r received in the round of its lowest set bit, from r without that bit; it then
   * sends in every later round, to r + each smaller power of two.  The root has no bit
   * set and sends in every round. */
  int low = r & -r;
  if (r == 0) {
    low = 1;
    while (low < size)
      low <<= 1;
  }
  *parent = r == 0 ? -1 : absolute(r - low, root, size);
  int n = 0;
  /* Largest subtree first: it has the most hops still ahead of it. */
  for (int step = low >> 1; step > 0; step >>= 1)
    if (r + step < size)
      children[n++] = absolute(r + step, root, size);
  return n;
}
