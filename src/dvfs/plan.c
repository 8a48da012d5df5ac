#include "dvfs/plan.h"

#include <string.h>

#include "dvfs/sysfs_file.h"

typedef struct plan_write {
  int fd;
  int len;
  char bytes[HPD_RESTORE_VALUE_MAX];
} plan_write;

static plan_write plan[HPD_RESTORE_MAX_WRITES];
static int plan_len;

void hpd_restore_plan_clear(void)
{
  plan_len = 0;
}

hpd_status hpd_restore_add(int fd, const char *value)
{
  size_t len = strlen(value);
  if (plan_len == HPD_RESTORE_MAX_WRITES || len + 1 > sizeof plan[0].bytes)
    return HPD_STATUS_FULL;
  plan_write *w = &plan[plan_len++];
  w->fd = fd;
  memcpy(w->bytes, value, len);
  w->bytes[len] = '\n';
  w->len = (int)len + 1;
  return HPD_OK;
}

void hpd_restore_write_plan(void)
{
  for (int i = 0; i < plan_len; i++)
    (void)hpd_sysfs_put(plan[i].fd, plan[i].bytes, (size_t)plan[i].len);
}

int hpd_restore_fds(int *fds, int max)
{
  int n = 0;
  for (int i = 0; i < plan_len; i++) {
    int at = 0;
    while (at < n && fds[at] < plan[i].fd)
      at++;
    if ((at < n && fds[at] == plan[i].fd) || n == max)
      continue;
    memmove(&fds[at + 1], &fds[at], (size_t)(n - at) * sizeof fds[0]);
    fds[at] = plan[i].fd;
    n++;
  }
  return n;
}
