/*
 * Measured energy: one interface over the meters a node may have (powercap zones, PAPI's
 * rapl or powercap component).  A meter counts for the whole node, so only one rank per
 * node opens it (node.h).  Where none opens, the caller models energy (model.h).
 */
#ifndef HPD_ENERGY_METER_H
#define HPD_ENERGY_METER_H

#include <stddef.h>

#include "core/config.h"
#include "hpdaemon.h"

/* Joules since open, summed over the node's packages.  dram_j is 0 where the packages
 * have no DRAM domain. */
typedef struct hpd_meter_reading {
  double package_j, dram_j;
} hpd_meter_reading;

typedef struct hpd_meter {
  hpd_energy_kind kind;
  hpd_energy_source source; /* the label of its figures: measured, or simulated */
  /* HPD_OK, or a failure with one line in why ("powercap: ...").  Opening again starts
   * afresh. */
  hpd_status (*open)(const hpd_settings *cfg, char *why, size_t why_size);
  /* HPD_OK, or a failure when a counter cannot be read (out and the totals are then
   * unchanged). */
  hpd_status (*read)(hpd_meter_reading *out);
  /* Harmless when open failed or never ran. */
  void (*close)(void);
} hpd_meter;

extern const hpd_meter hpd_meter_powercap, hpd_meter_papi;
#ifdef HPD_SIMULATED
/* The simulated build's meter (simulated.c): the simulated platform's joules for this
 * rank's simulated core.  Its kind is HPD_ENERGY_AUTO, the build's own choice. */
extern const hpd_meter hpd_meter_simulated;
#endif

/* The meter cfg->energy asks for, opened.  auto tries powercap, then papi; an explicit
 * kind tries only that one; model and none try nothing.  Returns the open meter, or NULL:
 * the caller then models (auto, model) or reports no energy (none, or an explicit meter
 * that failed).  why receives one line per meter tried and not used, joined by '\n'
 * ("" when every meter tried opened, or none was tried). */
const hpd_meter *hpd_meter_select(const hpd_settings *cfg, char *why, size_t why_size);

#endif
