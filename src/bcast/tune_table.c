#include "bcast/tune_table.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bcast/channel.h"
#include "core/config.h"
#include "core/log.h"

#define HEADER "hpdaemon-tune 4"
#define HEADER_V3 "hpdaemon-tune 3" /* no verdicts */
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

#define MAX_VERDICTS 512
#define VERDICT_WORD "route"

static const char *const route_names[HPD_TUNE_ROUTES] = {"reference", "engine", "close"};

typedef struct verdict_entry {
  char key[HPD_TUNE_KEY_MAX];
  hpd_tune_verdict verdict;
} verdict_entry;

static verdict_entry verdicts[MAX_VERDICTS];
static int verdict_count;
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

static verdict_entry *find_verdict(const char *key)
{
  for (int i = 0; i < verdict_count; i++)
    if (strcmp(verdicts[i].key, key) == 0)
      return &verdicts[i];
  return NULL;
}

/* Records, replaces or (verdict NULL) removes the verdict of key. */
static void put_verdict(const char *key, const hpd_tune_verdict *verdict)
{
  verdict_entry *e = find_verdict(key);
  if (!verdict) {
    if (e)
      *e = verdicts[--verdict_count];
    return;
  }
  if (!e && verdict_count < MAX_VERDICTS)
    e = &verdicts[verdict_count++];
  if (e) {
    snprintf(e->key, sizeof e->key, "%s", key);
    e->verdict = *verdict;
  }
}

static int valid_key(const char *key)
{
  size_t length = strlen(key);
  return length > 0 && length < HPD_TUNE_KEY_MAX && strcspn(key, " \t\r\n") == length;
}

/* "route KEY engine|reference|close ENGINE_S REFERENCE_S" into *e: HPD_OK or
 * HPD_STATUS_INVALID. */
static hpd_status parse_verdict(const char *line, verdict_entry *e)
{
  char key[HPD_TUNE_KEY_MAX + 1], route[16];
  double engine_s, reference_s;
  int end = 0;
  if (sscanf(line, VERDICT_WORD " %" HPD_TUNE_KEY_SCAN "s %15s %lf %lf %n", key, route,
             &engine_s, &reference_s, &end) != 4 || line[end] != '\0' || !valid_key(key))
    return HPD_STATUS_INVALID;
  int named = 0;
  while (named < HPD_TUNE_ROUTES && strcmp(route, route_names[named]) != 0)
    named++;
  if (named == HPD_TUNE_ROUTES)
    return HPD_STATUS_INVALID;
  if (!(engine_s > 0.0 && engine_s < 1e9 && reference_s > 0.0 && reference_s < 1e9))
    return HPD_STATUS_INVALID;
  snprintf(e->key, sizeof e->key, "%s", key);
  e->verdict = (hpd_tune_verdict){(hpd_tune_route)named, engine_s, reference_s};
  return HPD_OK;
}

/* One entry line of a file of the given version into *e: HPD_OK or HPD_STATUS_INVALID. */
static hpd_status parse_entry(const char *line, int version, entry *e)
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
    return HPD_STATUS_INVALID;
  if (ranks < 1 || ranks > INT32_MAX || hosts < 1 || hosts > ranks || lo == 0 ||
      (lo & (lo - 1)) != 0 || lo > UINT64_MAX / 2 || hi != 2 * lo - 1 || chunk < 1 ||
      chunk > HPD_CHUNK_MAX || !(rate >= 0.0 && rate < 1e15))
    return HPD_STATUS_INVALID;
  *e = (entry){(int)ranks, (int)hosts, hpd_size_class(lo), chunk, rate};
  return HPD_OK;
}

/* The entries of f into found[] and found_verdicts[]; 0, or the number of the first bad
 * line. */
static int read_entries(FILE *f, entry *found, int *count, verdict_entry *found_verdicts,
                        int *verdicts_found)
{
  char line[256];
  int number = 0, header_seen = 0, version = 4;
  *count = *verdicts_found = 0;
  while (fgets(line, sizeof line, f)) {
    number++;
    line[strcspn(line, "\r\n")] = '\0';
    if (line[0] == '#' || line[0] == '\0')
      continue;
    if (!header_seen) {
      version = strcmp(line, HEADER_V1) == 0   ? 1
                : strcmp(line, HEADER_V2) == 0 ? 2
                : strcmp(line, HEADER_V3) == 0 ? 3
                : strcmp(line, HEADER) == 0    ? 4
                                               : 0;
      if (!version)
        return number;
      header_seen = 1;
      continue;
    }
    if (version >= 4 && strncmp(line, VERDICT_WORD " ", sizeof VERDICT_WORD) == 0) {
      if (*verdicts_found == MAX_VERDICTS ||
          parse_verdict(line, &found_verdicts[*verdicts_found]) != HPD_OK)
        return number;
      (*verdicts_found)++;
      continue;
    }
    if (*count == MAX_ENTRIES || parse_entry(line, version, &found[*count]) != HPD_OK)
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
  /* What the file holds is read aside first, so that a file that turns out invalid
   * leaves the table as this process made it. */
  struct {
    entry entries[MAX_ENTRIES];
    verdict_entry verdicts[MAX_VERDICTS];
  } *in = calloc(1, sizeof *in);
  if (!in) {
    hpd_warn("HPD_TUNE_FILE=%s: no memory to read it: ignored", path);
    fclose(f);
    return;
  }
  int count = 0, verdicts_found = 0;
  int bad = read_entries(f, in->entries, &count, in->verdicts, &verdicts_found);
  int failed = ferror(f);
  fclose(f);
  if (failed && !bad) {
    hpd_warn("HPD_TUNE_FILE=%s cannot be read (a read error): ignored", path);
  } else if (bad) {
    hpd_warn("HPD_TUNE_FILE=%s is not a valid tuning file (line %d): ignored; expected "
             "'" HEADER "', then lines 'RANKS HOSTS MIN_BYTES MAX_BYTES CHUNK_BYTES "
             "RATE' and '" VERDICT_WORD " KEY engine|reference|close ENGINE_S REFERENCE_S'",
             path, bad);
  } else {
    /* What this process measured itself is newer than the file. */
    for (int i = 0; i < count; i++)
      if (!find(in->entries[i].ranks, in->entries[i].hosts, in->entries[i].cls))
        put(in->entries[i]);
    for (int i = 0; i < verdicts_found; i++)
      if (!find_verdict(in->verdicts[i].key))
        put_verdict(in->verdicts[i].key, &in->verdicts[i].verdict);
  }
  free(in);
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
    if (verdict_count)
      fprintf(f, "# " VERDICT_WORD " key route engine_s reference_s\n");
    for (int i = 0; i < verdict_count; i++)
      fprintf(f, VERDICT_WORD " %s %s %.6g %.6g\n", verdicts[i].key,
              route_names[verdicts[i].verdict.route], verdicts[i].verdict.engine_s,
              verdicts[i].verdict.reference_s);
    ok = fclose(f) == 0 && rename(temp, path) == 0;
  }
  if (!ok) {
    if (!warned++)
      hpd_warn("cannot save tuned chunk sizes to HPD_TUNE_FILE=%s: %s", path,
               strerror(errno));
    unlink(temp);
  }
}

/* The file's entries are in the table. */
static void load_if_set(void)
{
  const char *path = hpd_config_get()->tune_file;
  if (path[0] && strcmp(path, loaded_path) != 0)
    load(path);
}

static void save_if_set(void)
{
  const char *path = hpd_config_get()->tune_file;
  if (path[0])
    save(path);
}

uint64_t hpd_tune_table_lookup(int ranks, int hosts, int cls, double *rate)
{
  load_if_set();
  entry *e = find(ranks, hosts, cls);
  *rate = e ? e->rate : 0.0;
  return e ? e->chunk : 0;
}

void hpd_tune_table_store(int ranks, int hosts, int cls, uint64_t chunk, double rate)
{
  put((entry){ranks, hosts, cls, chunk, rate});
  save_if_set();
}

int hpd_tune_table_lookup_verdict(const char *key, hpd_tune_verdict *out)
{
  load_if_set();
  verdict_entry *e = find_verdict(key);
  if (e)
    *out = e->verdict;
  return e != NULL;
}

void hpd_tune_table_store_verdict(const char *key, const hpd_tune_verdict *verdict)
{
  if (!valid_key(key))
    return;
  put_verdict(key, verdict);
  save_if_set();
}

void hpd_tune_table_forget(void)
{
  entries = verdict_count = 0;
  loaded_path[0] = '\0';
}
