/*
 * The README's option table against the table the configuration is read from
 * (src/core/config.c): the same variables, each with the same default and the same API
 * setter, and every setter declared in hpdaemon.h.  Fails on any difference, so that an
 * option added, renamed or given a new default in one place and not the other is caught.
 *
 * usage: test_options_doc README.md include/hpdaemon.h
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/config.h"

#define MAX_ROWS 64
#define CELL 512

typedef struct row {
  char name[CELL], default_text[CELL], setter[CELL];
  int matched;
} row;

static int checks, failed;

static void check(int ok, const char *what, const char *name)
{
  checks++;
  if (!ok) {
    failed++;
    fprintf(stderr, "options_doc: %s: %s\n", name, what);
  }
}

static char *read_all(const char *path)
{
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "options_doc: cannot open %s\n", path);
    exit(1);
  }
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *text = malloc((size_t)size + 1);
  if (!text || fread(text, 1, (size_t)size, f) != (size_t)size) {
    fprintf(stderr, "options_doc: cannot read %s\n", path);
    exit(1);
  }
  text[size] = '\0';
  fclose(f);
  return text;
}

/* A cell without its backticks and outer blanks. */
static void plain(const char *from, size_t len, char *to)
{
  size_t n = 0;
  for (size_t i = 0; i < len && n + 1 < CELL; i++)
    if (from[i] != '`')
      to[n++] = from[i];
  to[n] = '\0';
  char *start = to;
  while (*start == ' ')
    start++;
  memmove(to, start, strlen(start) + 1);
  for (n = strlen(to); n > 0 && to[n - 1] == ' '; n--)
    to[n - 1] = '\0';
}

/* The first `quoted` word of a cell. */
static void first_quoted(const char *from, size_t len, char *to)
{
  to[0] = '\0';
  const char *open = memchr(from, '`', len);
  if (!open)
    return;
  const char *close = memchr(open + 1, '`', len - (size_t)(open + 1 - from));
  if (!close || close - open - 1 >= CELL)
    return;
  memcpy(to, open + 1, (size_t)(close - open - 1));
  to[close - open - 1] = '\0';
}

/* The rows of the table under "| variable | default | values | API |". */
static int read_rows(char *readme, row *rows)
{
  char *at = strstr(readme, "| variable | default | values | API |");
  if (!at)
    return -1;
  int count = 0;
  for (char *line = strchr(at, '\n'); line && line[1] == '|'; line = strchr(line + 1, '\n')) {
    char *start = line + 1, *end = strchr(start, '\n');
    if (!end)
      end = start + strlen(start);
    if (strncmp(start, "| `HPD_", 7) != 0)
      continue; /* the separator row */
    const char *cells[5];
    size_t lens[5];
    int n = 0;
    for (char *c = start + 1; n < 5 && c < end; n++) {
      char *bar = memchr(c, '|', (size_t)(end - c));
      if (!bar)
        break;
      cells[n] = c, lens[n] = (size_t)(bar - c);
      c = bar + 1;
    }
    if (n < 4 || count == MAX_ROWS)
      return -1;
    row *r = &rows[count++];
    plain(cells[0], lens[0], r->name);
    plain(cells[1], lens[1], r->default_text);
    first_quoted(cells[3], lens[3], r->setter);
    r->matched = 0;
  }
  return count;
}

int main(int argc, char **argv)
{
  if (argc != 3) {
    fprintf(stderr, "usage: test_options_doc README.md hpdaemon.h\n");
    return 2;
  }
  char *readme = read_all(argv[1]), *header = read_all(argv[2]);
  row rows[MAX_ROWS];
  int count = read_rows(readme, rows);
  check(count > 0, "the README has no option table that this test can read", argv[1]);
  const char *name, *default_text, *setter;
  for (int i = 0; hpd_config_option_doc(i, &name, &default_text, &setter); i++) {
    row *r = NULL;
    for (int j = 0; j < count; j++)
      if (strcmp(rows[j].name, name) == 0)
        r = &rows[j];
    check(r != NULL, "not in the README's option table", name);
    if (!r)
      continue;
    r->matched = 1;
    if (strcmp(r->default_text, default_text) != 0)
      fprintf(stderr, "options_doc: %s: README default '%s', configuration '%s'\n", name,
              r->default_text, default_text);
    check(strcmp(r->default_text, default_text) == 0, "defaults differ", name);
    if (strcmp(r->setter, setter) != 0)
      fprintf(stderr, "options_doc: %s: README setter '%s', configuration '%s'\n", name,
              r->setter, setter);
    check(strcmp(r->setter, setter) == 0, "setters differ", name);
    char declared[CELL + 1];
    snprintf(declared, sizeof declared, "%s(", setter);
    check(strstr(header, declared) != NULL, "setter not declared in hpdaemon.h", name);
  }
  for (int j = 0; j < count; j++)
    check(rows[j].matched, "in the README but not an option of the configuration",
          rows[j].name);
  printf("options_doc: %d checks, %d failed\n", checks, failed);
  free(readme);
  free(header);
  return failed != 0;
}
