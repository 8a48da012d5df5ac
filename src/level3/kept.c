/* Level 3's working space, kept from call to call (kept.h). */
#include <stdlib.h>

#include "kept.h"

double *hpd_l3_kept(size_t count)
{
  static double *kept;
  static size_t kept_count;
  if (count <= kept_count && kept_count <= 2 * count)
    return kept;
  free(kept);
  kept = NULL;
  kept_count = 0;
  if (count == 0 || !(kept = malloc(count * sizeof *kept)))
    return NULL;
  kept_count = count;
  return kept;
}
