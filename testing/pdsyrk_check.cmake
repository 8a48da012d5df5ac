# The correctness sweep of pdsyrk_ (testing/pdsyrk_check.c).
hpd_add_program(pdsyrk_check pdsyrk_check.c check_sweep.c)

# hpd_pdsyrk_check_test(NAME NPROCS TIMEOUT LABEL ARGS...)
function(hpd_pdsyrk_check_test name nprocs timeout label)
  hpd_add_mpi_test(${name} ${nprocs} pdsyrk_check ${ARGN})
  set_tests_properties(${name} PROPERTIES
    LABELS "${label}"
    TIMEOUT ${timeout}
    PROCESSORS ${nprocs}
    # The ranks already fill the cores: BLAS threads on top would only oversubscribe.
    ENVIRONMENT "OPENBLAS_NUM_THREADS=1;OMP_NUM_THREADS=1")
endfunction()

# Quick: every grid that fits, so ranks beyond a small grid sit some cases out.
hpd_pdsyrk_check_test(pdsyrk_check_quick_np1 1 60 quick --quick)
hpd_pdsyrk_check_test(pdsyrk_check_quick_np2 2 120 quick --quick)
hpd_pdsyrk_check_test(pdsyrk_check_quick_np3 3 240 quick --quick)

# Full: each run adds the grids that need its rank count, as in pdgemm_check.cmake.  With
# fewer cases per grid than pdgemm's, 2x2 takes the whole sweep (under a minute).
hpd_pdsyrk_check_test(pdsyrk_check_full_np1 1 120 full --full)
hpd_pdsyrk_check_test(pdsyrk_check_full_np2 2 180 full --full)
hpd_pdsyrk_check_test(pdsyrk_check_full_np3 3 480 full --full --grids 1x3,3x1)
hpd_pdsyrk_check_test(pdsyrk_check_full_np4 4 300 full --full --grids 2x2)

# The grouping's corners: one panel per group, forced narrow panels with odd group sizes,
# and a threshold so small that the memory formula itself gives N_grp = 1.
hpd_pdsyrk_check_test(pdsyrk_check_ngrp1_np2 2 120 quick --quick)
hpd_pdsyrk_check_test(pdsyrk_check_kb3_ngrp3_np2 2 120 quick --quick)
hpd_pdsyrk_check_test(pdsyrk_check_tiny_threshold_np2 2 120 quick --quick -t 1e-9)
set_property(TEST pdsyrk_check_ngrp1_np2 APPEND PROPERTY ENVIRONMENT "HPD_NGRP=1")
set_property(TEST pdsyrk_check_kb3_ngrp3_np2 APPEND PROPERTY ENVIRONMENT "HPD_KB=3;HPD_NGRP=3")

# The sweep judged against ScaLAPACK's own pdsyrk: its criteria must accept the
# reference, or a failure elsewhere could be the sweep's own.
hpd_pdsyrk_check_test(pdsyrk_check_reference_np2 2 120 quick --quick)
set_property(TEST pdsyrk_check_reference_np2 APPEND PROPERTY ENVIRONMENT "HPD_DISABLE=1")

# The overlap schedule on the triangle's strips (see pdgemm_check.cmake).
hpd_pdsyrk_check_test(pdsyrk_check_overlap_kb3_ngrp3_np2 2 120 quick --quick)
set_property(TEST pdsyrk_check_overlap_kb3_ngrp3_np2 APPEND PROPERTY ENVIRONMENT
             "HPD_STRATEGY=overlap;HPD_KB=3;HPD_NGRP=3")

# Three process rows gathering B from A (gathered.h): three broadcasts per panel, under
# both schedules, with groups of several narrow panels.
hpd_pdsyrk_check_test(pdsyrk_check_gathered_kb3_ngrp3_np3 3 240 quick --quick --grids 3x1)
set_property(TEST pdsyrk_check_gathered_kb3_ngrp3_np3 APPEND PROPERTY ENVIRONMENT
             "HPD_KB=3;HPD_NGRP=3")
hpd_pdsyrk_check_test(pdsyrk_check_gathered_overlap_np3 3 240 quick --quick --grids 3x1)
set_property(TEST pdsyrk_check_gathered_overlap_np3 APPEND PROPERTY ENVIRONMENT
             "HPD_STRATEGY=overlap;HPD_KB=3;HPD_NGRP=3")
