#include "energy/model.h"

#include <math.h>
#include <stdio.h>

/* Per core, from P = S * V / 1.3 V + k * f * V^2 with S = 6.0 W and k chosen so that four
 * busy cores at 2.5 GHz and 1.3 V draw the 75 W the Opteron 2380 is rated for; an idle
 * core keeps S and a tenth of the dynamic term.  The voltages are assumed; README.md
 * has the derivation.  Rounded to 0.01 W. */
static const struct {
  unsigned khz;
  double busy_w, idle_w;
} builtin[] = {
    {800000, 7.03, 4.86},   /* 1.0 V */
    {1300000, 9.82, 5.55},  /* 1.1 V */
    {1800000, 13.36, 6.32}, /* 1.2 V */
    {2500000, 18.75, 7.28}, /* 1.3 V */
};

void hpd_power_model_builtin(hpd_power_model *m)
{
  int n = (int)(sizeof builtin / sizeof builtin[0]);
  m->levels = n;
  for (int i = 0; i < n; i++) {
    m->khz[i] = builtin[i].khz;
    m->busy_w[i] = builtin[i].busy_w;
    m->idle_w[i] = builtin[i].idle_w;
  }
  /* The paper measured about 70 us and 0.1 J per switch on this cluster. */
  m->switch_j = 0.1;
  m->switch_us = 70.0;
  snprintf(m->source, sizeof m->source,
           "built-in: AMD Opteron 2380 (HP-DAEMON paper's cluster), assumed voltages");
}

double hpd_power_model_watts(const hpd_power_model *m, unsigned khz, int busy)
{
  const double *w = busy ? m->busy_w : m->idle_w;
  int last = m->levels - 1;
  if (m->levels <= 0)
    return 0.0;
  if (khz <= m->khz[0])
    return w[0];
  if (khz >= m->khz[last])
    return w[last];
  int i = 0;
  while (khz > m->khz[i + 1])
    i++;
  double span = (double)m->khz[i + 1] - (double)m->khz[i];
  double x = ((double)khz - (double)m->khz[i]) / span;
  return w[i] + x * (w[i + 1] - w[i]);
}

double hpd_power_model_joules(const hpd_power_model *m, const hpd_phase_time *t, int n,
                              uint64_t switches)
{
  double joules = 0.0;
  for (int i = 0; i < n; i++) {
    double busy = t[i].busy_s > 0 ? t[i].busy_s : 0.0;
    double idle = t[i].idle_s > 0 ? t[i].idle_s : 0.0;
    joules += hpd_power_model_watts(m, t[i].khz, 1) * busy +
              hpd_power_model_watts(m, t[i].khz, 0) * idle;
  }
  return joules + (double)switches * m->switch_j;
}

double hpd_power_model_break_even_s(const hpd_power_model *m, unsigned low_khz,
                                    unsigned high_khz, double busy_share)
{
  if (!low_khz)
    low_khz = m->khz[0];
  if (!high_khz)
    high_khz = m->khz[m->levels - 1];
  double busy = busy_share < 0.0 ? 0.0 : busy_share > 1.0 ? 1.0 : busy_share;
  double at_high = busy * hpd_power_model_watts(m, high_khz, 1) +
                   (1.0 - busy) * hpd_power_model_watts(m, high_khz, 0);
  double at_low = busy * hpd_power_model_watts(m, low_khz, 1) +
                  (1.0 - busy) * hpd_power_model_watts(m, low_khz, 0);
  double saved_w = at_high - at_low;
  return saved_w > 0.0 ? 2.0 * m->switch_j / saved_w : INFINITY;
}
