#include "bench_common.h"

#include <stdlib.h>

int bench_parse_int_list(const char *text, int *out, int *count)
{
  *count = 0;
  for (const char *s = text; *s;) {
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || v <= 0 || v > 1000000 || *count == MAX_LIST || (*end && *end != ','))
      return -1;
    out[(*count)++] = (int)v;
    s = *end ? end + 1 : end;
  }
  return *count > 0 ? 0 : -1;
}
