/* The model file: README.md has the format. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/parse.h"
#include "energy/model.h"

#define MAX_WATTS 1e4
#define MAX_SWITCH_J 1e3
#define MAX_SWITCH_US 1e6

typedef struct parser {
  const char *path;
  int line;
  char *why;
  size_t why_size;
} parser;

static hpd_status bad(parser *p, const char *message)
{
  snprintf(p->why, p->why_size, "%s:%d: %s", p->path, p->line, message);
  return HPD_STATUS_INVALID;
}

/* "800000" is in kHz; "800MHz", "2.5GHz" carry their unit. */
static hpd_status parse_frequency(const char *text, unsigned *khz)
{
  if (text[strspn(text, "0123456789")] == '\0') {
    int v = 0;
    if (hpd_parse_count(text, &v) != HPD_OK || v == 0)
      return HPD_STATUS_INVALID;
    *khz = (unsigned)v;
    return HPD_OK;
  }
  return hpd_parse_khz(text, khz);
}

static int parse_level(parser *p, hpd_power_model *m, char **fields, int count)
{
  if (count != 4)
    return bad(p, "expected 'level KHZ BUSY_WATTS IDLE_WATTS'");
  unsigned khz = 0;
  double busy = 0, idle = 0;
  if (parse_frequency(fields[1], &khz) != HPD_OK)
    return bad(p, "the frequency is not a whole number of kHz above 0 (or 800MHz, 2.5GHz)");
  if (hpd_parse_real(fields[2], 0, MAX_WATTS, &busy) != HPD_OK ||
      hpd_parse_real(fields[3], 0, MAX_WATTS, &idle) != HPD_OK)
    return bad(p, "watts must be numbers from 0 to 10000");
  for (int i = 0; i < m->levels; i++)
    if (m->khz[i] == khz)
      return bad(p, "this frequency already has a level");
  if (m->levels == HPD_MODEL_MAX_LEVELS)
    return bad(p, "more than 16 levels");
  /* Kept ascending: insertion, the tables being tiny. */
  int i = m->levels++;
  for (; i > 0 && m->khz[i - 1] > khz; i--) {
    m->khz[i] = m->khz[i - 1];
    m->busy_w[i] = m->busy_w[i - 1];
    m->idle_w[i] = m->idle_w[i - 1];
  }
  m->khz[i] = khz;
  m->busy_w[i] = busy;
  m->idle_w[i] = idle;
  return 0;
}

static int parse_scalar(parser *p, char **fields, int count, double max, double *out,
                        int *seen)
{
  char message[128];
  if (*seen) {
    snprintf(message, sizeof message, "'%s' given twice", fields[0]);
    return bad(p, message);
  }
  if (count != 2 || hpd_parse_real(fields[1], 0, max, out) != HPD_OK) {
    snprintf(message, sizeof message, "expected '%s' and a number from 0 to %g", fields[0],
             max);
    return bad(p, message);
  }
  *seen = 1;
  return 0;
}

/* One line without its comment; HPD_OK or HPD_STATUS_INVALID. */
static int parse_line(parser *p, char *text, hpd_power_model *m, int seen[2])
{
  char *fields[8], *save = NULL;
  int count = 0;
  static const char blanks[] = " \t\r\n";
  for (char *f = strtok_r(text, blanks, &save); f; f = strtok_r(NULL, blanks, &save)) {
    if (count == 8)
      return bad(p, "too many fields");
    fields[count++] = f;
  }
  if (count == 0)
    return 0;
  if (strcmp(fields[0], "level") == 0)
    return parse_level(p, m, fields, count);
  if (strcmp(fields[0], "switch_joules") == 0)
    return parse_scalar(p, fields, count, MAX_SWITCH_J, &m->switch_j, &seen[0]);
  if (strcmp(fields[0], "switch_us") == 0)
    return parse_scalar(p, fields, count, MAX_SWITCH_US, &m->switch_us, &seen[1]);
  char message[160];
  snprintf(message, sizeof message,
           "unknown keyword '%.64s' (expected level, switch_joules or switch_us)",
           fields[0]);
  return bad(p, message);
}

hpd_status hpd_power_model_load(const char *path, hpd_power_model *m, char *why,
                                size_t why_size)
{
  FILE *f = fopen(path, "r");
  if (!f) {
    snprintf(why, why_size, "%s: %s", path, strerror(errno));
    return HPD_STATUS_INVALID;
  }
  parser p = {path, 0, why, why_size};
  hpd_power_model model;
  /* The switch cost defaults to the paper's, the only one measured. */
  hpd_power_model_builtin(&model);
  model.levels = 0;
  int seen[2] = {0, 0}, rc = 0;
  char text[1024];
  while (rc == 0 && fgets(text, sizeof text, f)) {
    p.line++;
    size_t len = strlen(text);
    if (len == sizeof text - 1 && text[len - 1] != '\n' && !feof(f)) {
      rc = bad(&p, "line longer than 1022 characters");
      break;
    }
    char *hash = strchr(text, '#');
    if (hash)
      *hash = '\0';
    rc = parse_line(&p, text, &model, seen);
  }
  if (rc == 0 && ferror(f)) {
    snprintf(why, why_size, "%s: read error", path);
    rc = -1;
  }
  fclose(f);
  if (rc == 0 && model.levels == 0) {
    snprintf(why, why_size, "%s: no 'level' line", path);
    rc = -1;
  }
  if (rc != 0)
    return HPD_STATUS_INVALID;
  snprintf(model.source, sizeof model.source, "%s", path);
  *m = model;
  return HPD_OK;
}
