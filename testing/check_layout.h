/*
 * Block-cyclic placement of one dimension of a distributed matrix, derived from the
 * descriptor's definition alone.  The correctness sweep owns this arithmetic so that
 * it judges the library with math the library did not write.
 *
 * Indices here are 0-based; descriptors and PBLAS arguments are 1-based.
 */
#ifndef HPD_CHECK_LAYOUT_H
#define HPD_CHECK_LAYOUT_H

typedef struct check_dim {
  int extent; /* global rows (or columns) of the whole matrix */
  int first;  /* size of the first block: IMB (INB), or MB (NB) for a 9-entry descriptor */
  int block;  /* MB (NB) */
  int src;    /* process row (column) holding the first block */
  int procs;  /* process rows (columns) of the grid */
} check_dim;

/* Block 0 is the possibly odd-sized first block; all later blocks have the regular size. */
static inline int check_block_of(const check_dim *d, int g)
{
  return g < d->first ? 0 : 1 + (g - d->first) / d->block;
}

static inline int check_owner(const check_dim *d, int g)
{
  return (d->src + check_block_of(d, g)) % d->procs;
}

/*
 * A process receives every procs-th block, so the blocks before block b on its owner
 * are b / procs in number; only the source process has the odd first block among them.
 */
static inline int check_local_index(const check_dim *d, int g)
{
  int b = check_block_of(d, g);
  int within = b == 0 ? g : (g - d->first) % d->block;
  int earlier = b / d->procs;
  int owner_is_src = check_owner(d, g) == d->src;
  if (earlier == 0)
    return within;
  if (owner_is_src)
    return d->first + (earlier - 1) * d->block + within;
  return earlier * d->block + within;
}

/* Counted one index at a time: the sweep prefers the obviously right to the fast. */
static inline int check_local_count(const check_dim *d, int proc)
{
  int count = 0;
  for (int g = 0; g < d->extent; g++)
    count += check_owner(d, g) == proc;
  return count;
}

#endif /* HPD_CHECK_LAYOUT_H */
