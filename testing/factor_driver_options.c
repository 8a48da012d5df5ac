#include "factor_driver_options.h"

#include <stdlib.h>
#include <string.h>

#include "bench_common.h"
#include "factor_residual.h"
#include "hpdaemon.h"

void fd_usage(FILE *out)
{
  fprintf(out,
          "usage: factor_driver [-t FRACTION] [-s STRATEGY[,...]|all] [-f lu|chol|both]\n"
          "                     [-u L|U|both] [-n N] [-b NB] [-p P -q Q] [-r REPS]\n"
          "                     [--report[=SPEC]]\n"
          "  -t        memory threshold for the grouping buffers, in (0,1] (default 0.2)\n"
          "  -s        strategies, one row each: a comma list of none, basic, daemon, overlap,\n"
          "            auto, or all (default all)\n"
          "  -f        factorizations: LU (pdgetrf_), Cholesky (pdpotrf_) or both (default)\n"
          "  -u        Cholesky's triangle: L, U or both (default both)\n"
          "  -n, -b    matrix order and block size (default 1024, 32)\n"
          "  -p, -q    process grid; P*Q must equal the number of ranks (default 1x2)\n"
          "  -r        runs per row, interleaved; medians shown (default 1, at most %d)\n"
          "Every run's factors are checked as ScaLAPACK's testers check them: the residual\n"
          "||A - rebuilt|| / (||A|| N eps) must be at most %g.\n"
          "Exits 1 if a residual fails or a factorization reports info != 0; 2 on a bad "
          "option.\n", FD_MAX_REPS, FD_RESID_THRESHOLD);
}

static int parse_int(const char *name, const char *text, int low, int high, int *out,
                     char *err, size_t len)
{
  char *end;
  long v = strtol(text, &end, 10);
  if (end != text && !*end && v >= low && v <= high) {
    *out = (int)v;
    return 0;
  }
  snprintf(err, len, "%s: expected an integer from %d to %d, got '%s'", name, low, high, text);
  return -1;
}

/* Bits: 1 = LU, 2 = Cholesky. */
static int parse_factors(const char *text)
{
  return !strcmp(text, "lu") ? 1 : !strcmp(text, "chol") ? 2 : !strcmp(text, "both") ? 3 : 0;
}

/* Bits: 1 = L, 2 = U. */
static int parse_triangles(const char *text)
{
  if (!strcmp(text, "both"))
    return 3;
  if (!strcmp(text, "L") || !strcmp(text, "l"))
    return 1;
  if (!strcmp(text, "U") || !strcmp(text, "u"))
    return 2;
  return 0;
}

static void build_variants(int factors, int triangles, fd_options *o)
{
  o->variant_count = 0;
  if (factors & 1)
    o->variants[o->variant_count++] = (fd_variant){FD_LU, '-'};
  if (factors & 2) {
    if (triangles & 1)
      o->variants[o->variant_count++] = (fd_variant){FD_CHOL, 'L'};
    if (triangles & 2)
      o->variants[o->variant_count++] = (fd_variant){FD_CHOL, 'U'};
  }
}

/* Options taking a value: named so that a missing value gets its own message. */
static const char *const VALUED[] = {"-s", "-f", "-u", "-n", "-b", "-p", "-q", "-r"};

int fd_parse_options(int argc, char **argv, fd_options *o, char *err, size_t len)
{
  *o = (fd_options){.n = 1024, .nb = 32, .p = 1, .q = 2, .reps = 1,
                    .threshold = hpd_get_mem_threshold()};
  bench_parse_strategies("all", o->strategies, &o->strategy_count);
  int factors = 3, triangles = 3;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v;
    int bad = 0;
    if (!strcmp(a, "-h") || !strcmp(a, "--help"))
      return 1;
    if (!strcmp(a, "--")) /* hpd_parse_args leaves it in place */
      continue;
    if ((v = bench_option_value(argc, argv, &i, "-s"))) {
      if ((bad = bench_parse_strategies(v, o->strategies, &o->strategy_count) != 0))
        snprintf(err, len, "-s: unknown strategy '%s' (expected none, basic, daemon or all)",
                 v);
    } else if ((v = bench_option_value(argc, argv, &i, "-f"))) {
      if ((bad = !(factors = parse_factors(v))))
        snprintf(err, len, "-f: unknown factorization '%s' (expected lu, chol or both)", v);
    } else if ((v = bench_option_value(argc, argv, &i, "-u"))) {
      if ((bad = !(triangles = parse_triangles(v))))
        snprintf(err, len, "-u: unknown triangle '%s' (expected L, U or both)", v);
    } else if ((v = bench_option_value(argc, argv, &i, "-n")))
      bad = parse_int("-n", v, 1, 1000000, &o->n, err, len);
    else if ((v = bench_option_value(argc, argv, &i, "-b")))
      bad = parse_int("-b", v, 1, 1000000, &o->nb, err, len);
    else if ((v = bench_option_value(argc, argv, &i, "-p")))
      bad = parse_int("-p", v, 1, 4096, &o->p, err, len);
    else if ((v = bench_option_value(argc, argv, &i, "-q")))
      bad = parse_int("-q", v, 1, 4096, &o->q, err, len);
    else if ((v = bench_option_value(argc, argv, &i, "-r")))
      bad = parse_int("-r", v, 1, FD_MAX_REPS, &o->reps, err, len);
    else {
      for (size_t k = 0; k < sizeof VALUED / sizeof VALUED[0]; k++)
        if (!strcmp(a, VALUED[k])) {
          snprintf(err, len, "%s: missing value", a);
          return -1;
        }
      snprintf(err, len, "unknown option '%s'", a);
      return -1;
    }
    if (bad)
      return -1;
  }
  build_variants(factors, triangles, o);
  return 0;
}
