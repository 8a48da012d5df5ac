#include "tune_table.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "channel.h"
#include "config.h"
#include "log.h"

#define HEADER "hpdaemon-tune 3"
#define HEADER_V2 "hpdaemon-tune 2" /* no rate column: the rate unknown */
#define HEADER_V1 "hpdaemon-tune 1" /* no hosts column either: every entry on one host */
#define MAX_ENTRIES 256

typedef struct entry {
  int ranks, hosts, cls;
  uint64_t chunk;
  double rate; /* bytes per second, 0 = unknown */
} entry;

static entry table[MAX_ENTRIES];
static int entries;
static char loaded_path[HPD_PATH_MAX]; /* the file whose entries are in the table */

static entry *find(int ranks, int hosts, int cls)
{
  for (int i = 0; i < entries; i++)
    if (table[i].ranks == ranks && table[i].hosts == hosts && table[i].cls == cls)
      return &table[i];
  return NULL;
}

static void put(entry value)
{
  entry *e = find(value.ranks, value.hosts, value.cls);
  if (!e && entries < MAX_ENTRIES)
    e = &table[entries++];
  if (e)
    *e = value;
}

/* One entry line of a file of the given version into *e; 0 or -1. */
static int parse_entry(const char *line, int version, entry *e)
{
  uint64_t ranks, hosts = 1, lo, hi, chunk;
  double rate = 0.0;
  int end = 0, fields;
  if (version == 1)
    fields = sscanf(line, "%" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %n", &ranks, &lo,
                    &hi, &chunk, &end) + 2;
  else if (version == 2)
    fields = sscanf(line, "%" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %n",
                    &ranks, &hosts, &lo, &hi, &chunk, &end) + 1;
  else
    fields = sscanf(line,
                    "%" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %lf %n",
                    &ranks, &hosts, &lo, &hi, &chunk, &rate, &end);
  if (fields != 6 || line[end] != '\0')
    return -1;
  if (ranks < 1 || ranks > INT32_MAX || hosts < 1 || hosts > ranks || lo == 0 ||
      (lo & (lo - 1)) != 0 || lo > UINT64_MAX / 2 || hi != 2 * lo - 1 || chunk < 1 ||
      chunk > HPD_CHUNK_MAX || !(rate >= 0.0 && rate < 1e15))
    return -1;
  *e = (entry){(int)ranks, (int)hosts, hpd_size_class(lo), chunk, rate};
  return 0;
}

/* The entries of f into found[]; 0, or the number of the first bad line. */
static int read_entries(FILE *f, entry *found, int *count)
{
  char line[256];
  int number = 0, header_seen = 0, version = 3;
  *count = 0;
  while (fgets(line, sizeof line, f)) {
    number++;
    line[strcspn(line, "\r\n")] = '\0';
    if (line[0] == '#' || line[0] == '\0')
      continue;
    if (!header_seen) {
      version = strcmp(line, HEADER_V1) == 0   ? 1
                : strcmp(line, HEADER_V2) == 0 ? 2
                : strcmp(line, HEADER) == 0    ? 3
                                               : 0;
      if (!version)
        return number;
      header_seen = 1;
      continue;
    }
    if (*count == MAX_ENTRIES || parse_entry(line, version, &found[*count]) != 0)
      return number;
    (*count)++;
  }
  return header_seen ? 0 : number + 1;
}

static void load(const char *path)
{
  snprintf(loaded_path, sizeof loaded_path, "%s", path);
  FILE *f = fopen(path, "r");
  if (!f) {
    hpd_warn("HPD_TUNE_FILE=%s cannot be read (%s): ignored; chunk sizes are measured "
             "and saved there",
             path, strerror(errno));
    return;
  }
  static entry found[MAX_ENTRIES];
  int count = 0, bad = read_entries(f, found, &count);
  int failed = ferror(f);
  fclose(f);
  if (bad || failed) {
    if (failed && !bad)
      hpd_warn("HPD_TUNE_FILE=%s cannot be read (a read error): ignored", path);
    else
      hpd_warn("HPD_TUNE_FILE=%s is not a valid tuning file (line %d): ignored; expected "
               "'" HEADER "', then lines 'RANKS HOSTS MIN_BYTES MAX_BYTES CHUNK_BYTES "
               "RATE'",
               path, bad);
    return;
  }
  /* What this process measured itself is newer than the file. */
  for (int i = 0; i < count; i++)
    if (!find(found[i].ranks, found[i].hosts, found[i].cls))
      put(found[i]);
}

static void save(const char *path)
{
  static int warned;
  char temp[HPD_PATH_MAX + 32];
  snprintf(temp, sizeof temp, "%s.%ld.tmp", path, (long)getpid());
  FILE *f = fopen(temp, "w");
  int ok = f != NULL;
  if (ok) {
    fprintf(f, HEADER "\n# ranks hosts min_bytes max_bytes chunk_bytes rate_bytes_per_s\n");
    for (int i = 0; i < entries; i++) {
      uint64_t lo = (uint64_t)1 << table[i].cls;
      fprintf(f, "%d %d %" PRIu64 " %" PRIu64 " %" PRIu64 " %.6g\n", table[i].ranks,
              table[i].hosts, lo, 2 * lo - 1, table[i].chunk, table[i].rate);
    }
    ok = fclose(f) == 0 && rename(temp, path) == 0;
  }
  if (!ok) {
    if (!warned++)
      hpd_warn("cannot save tuned chunk sizes to HPD_TUNE_FILE=%s: %s", path,
               strerror(errno));
    unlink(temp);
  }
}

uint64_t hpd_tune_table_lookup(int ranks, int hosts, int cls, double *rate)
{
  const char *path = hpd_config_get()->tune_file;
  if (path[0] && strcmp(path, loaded_path) != 0)
    load(path);
  entry *e = find(ranks, hosts, cls);
  *rate = e ? e->rate : 0.0;
  return e ? e->chunk : 0;
}

void hpd_tune_table_store(int ranks, int hosts, int cls, uint64_t chunk, double rate)
{
  put((entry){ranks, hosts, cls, chunk, rate});
  const char *path = hpd_config_get()->tune_file;
  if (path[0])
    save(path);
}

void hpd_tune_table_forget(void)
{
  entries = 0;
  loaded_path[0] = '\0';
}
