#include "bench_common.h"


#include <stdlib.h>
#include <string.h>

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

const char *bench_option_value(int argc, char **argv, int *i, const char *name)
{
  size_t len = strlen(name);
  if (strncmp(argv[*i], name, len) != 0)
    return NULL;
  if (argv[*i][len] == '=')
    return argv[*i] + len + 1;
  if (argv[*i][len] != '\0' || *i + 1 >= argc)
    return NULL;
  return argv[++*i];
}
