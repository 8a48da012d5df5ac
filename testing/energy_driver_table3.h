/* The paper's Table 3: N_grp and the extra memory it costs, threshold by threshold. */
#ifndef HPD_TESTING_ENERGY_DRIVER_TABLE3_H
#define HPD_TESTING_ENERGY_DRIVER_TABLE3_H

#include <stdint.h>

#include "energy_driver_data.h"

/* panel_bytes: the model's extra bytes per rank for one panel (a pdgemm's
 * extra_bytes_model_max over its ngrp_last); panels: that pdgemm's panel count.
 * Collective; prints on rank 0.  Leaves the threshold and strategy as it found them. */
void ed_table3(const ed_options *o, const ed_grid *g, ed_problem *pb, uint64_t panel_bytes,
               int panels);

#endif
