#include "core/kept.h"

#include <stdlib.h>

#include "core/alloc_large.h"

void *hpd_kept_get(hpd_kept *pool, size_t bytes)
{
  if (bytes <= pool->bytes && pool->bytes <= 2 * bytes)
    return pool->block;
  free(pool->block);
  pool->block = NULL;
  pool->bytes = 0;
  if (bytes == 0)
    return NULL;
  void *block = pool->own ? hpd_alloc_large_own(bytes) : hpd_alloc_large_kept(bytes);
  if (!block)
    return NULL;
  if (pool->own)
    hpd_alloc_large_touch(block, bytes); /* as hpd_alloc_large_kept does */
  pool->block = block;
  pool->bytes = bytes;
  return block;
}
