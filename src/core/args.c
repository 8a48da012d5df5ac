/* hpd_parse_args: the command-line face of the configuration, for drivers. */
#include <ctype.h>
#include <string.h>

#include "core/config.h"
#include "core/log.h"
#include "core/parse.h"

/* Value of "-t VALUE", "-tVALUE" or "--threshold=VALUE"; *consumed counts argv slots. */
static const char *threshold_value(char **argv, int i, int argc, int *consumed)
{
  const char *arg = argv[i];
  *consumed = 1;
  if (strncmp(arg, "--threshold=", 12) == 0)
    return arg + 12;
  if (strcmp(arg, "--threshold") == 0 || strcmp(arg, "-t") == 0) {
    if (i + 1 >= argc)
      return NULL;
    *consumed = 2;
    return argv[i + 1];
  }
  return arg + 2; /* -tVALUE */
}

/* "-tVALUE" only when a number follows, so a driver's own "-trans" stays its own. */
static int is_threshold_option(const char *arg)
{
  if (strcmp(arg, "-t") == 0 || strcmp(arg, "--threshold") == 0 ||
      strncmp(arg, "--threshold=", 12) == 0)
    return 1;
  return strncmp(arg, "-t", 2) == 0 && (isdigit((unsigned char)arg[2]) || arg[2] == '.');
}

int hpd_parse_args(int *argc, char ***argv)
{
  if (!argc || !argv || !*argv)
    return HPD_ERR_INVALID;
  char **args = *argv;
  int n = *argc, kept = 1, status = HPD_SUCCESS, i = 1;
  for (; i < n; i++) {
    const char *arg = args[i];
    if (strcmp(arg, "--") == 0)
      break;
    if (is_threshold_option(arg)) {
      int consumed;
      const char *value = threshold_value(args, i, n, &consumed);
      double fraction;
      if (!value || hpd_parse_fraction(value, &fraction) != HPD_OK) {
        hpd_warn("option %s: '%s' is not valid: expected a fraction in (0,1], such as 0.2 "
                 "or 20%%",
                 arg, value ? value : "(missing)");
        status = HPD_ERR_INVALID;
      } else {
        hpd_set_mem_threshold(fraction);
      }
      i += consumed - 1;
      continue;
    }
    if (strcmp(arg, "--report") == 0 || strncmp(arg, "--report=", 9) == 0) {
      const char *spec = arg[8] == '=' ? arg + 9 : "summary";
      if (hpd_set_report(spec) != HPD_SUCCESS) {
        hpd_warn("option --report: '%s' is not valid: expected off, summary or json:PATH",
                 spec);
        status = HPD_ERR_INVALID;
      }
      continue;
    }
    args[kept++] = args[i];
  }
  for (; i < n; i++) /* "--" and what follows stay as they are */
    args[kept++] = args[i];
  args[kept] = NULL;
  *argc = kept;
  return status;
}
