# The correctness sweep of pdgemm_ (testing/pdgemm_check.c).
hpd_add_program(pdgemm_check pdgemm_check.c check_sweep.c)

# hpd_pdgemm_check_test(NAME NPROCS TIMEOUT LABEL ARGS...)
function(hpd_pdgemm_check_test name nprocs timeout label)
  hpd_add_mpi_test(${name} ${nprocs} pdgemm_check ${ARGN})
  set_tests_properties(${name} PROPERTIES
    LABELS "${label}"
    TIMEOUT ${timeout}
    PROCESSORS ${nprocs}
    # The ranks already fill the cores: BLAS threads on top would only oversubscribe.
    ENVIRONMENT "OPENBLAS_NUM_THREADS=1;OMP_NUM_THREADS=1")
endfunction()

# Quick: every grid that fits, so ranks beyond a small grid sit some cases out.
hpd_pdgemm_check_test(pdgemm_check_quick_np1 1 60 quick --quick)
hpd_pdgemm_check_test(pdgemm_check_quick_np2 2 120 quick --quick)
hpd_pdgemm_check_test(pdgemm_check_quick_np3 3 240 quick --quick)

# Full: each run adds the grids that need its rank count, since the smaller ones are
# swept already.  Three and four ranks oversubscribe two cores and every message then
# waits for a time slice: 2x2 gets a spread-out prefix of the sweep, not all of it.
hpd_pdgemm_check_test(pdgemm_check_full_np1 1 120 full --full)
hpd_pdgemm_check_test(pdgemm_check_full_np2 2 180 full --full)
hpd_pdgemm_check_test(pdgemm_check_full_np3 3 480 full --full --grids 1x3,3x1)
hpd_pdgemm_check_test(pdgemm_check_full_np4 4 300 full --full --grids 2x2 --cases 600)

# The grouping's corners: one panel per group, forced narrow panels with odd group sizes,
# and a threshold so small that the memory formula itself gives N_grp = 1.
hpd_pdgemm_check_test(pdgemm_check_ngrp1_np2 2 120 quick --quick)
hpd_pdgemm_check_test(pdgemm_check_kb3_ngrp2_np2 2 120 quick --quick)
hpd_pdgemm_check_test(pdgemm_check_tiny_threshold_np2 2 120 quick --quick -t 1e-9)
set_property(TEST pdgemm_check_ngrp1_np2 APPEND PROPERTY ENVIRONMENT "HPD_NGRP=1")
set_property(TEST pdgemm_check_kb3_ngrp2_np2 APPEND PROPERTY ENVIRONMENT "HPD_KB=3;HPD_NGRP=3")

# The overlap schedule: two groups in flight, the next one's broadcasts polled between
# strips of the multiply; groups of one and of three narrow panels, and the automatic
# grouping on 2x2.
hpd_pdgemm_check_test(pdgemm_check_overlap_ngrp1_np2 2 120 quick --quick)
hpd_pdgemm_check_test(pdgemm_check_overlap_kb3_ngrp3_np2 2 120 quick --quick)
hpd_pdgemm_check_test(pdgemm_check_overlap_np4 4 300 quick --quick --grids 2x2)
set_property(TEST pdgemm_check_overlap_ngrp1_np2 APPEND PROPERTY ENVIRONMENT
             "HPD_STRATEGY=overlap;HPD_NGRP=1")
set_property(TEST pdgemm_check_overlap_kb3_ngrp3_np2 APPEND PROPERTY ENVIRONMENT
             "HPD_STRATEGY=overlap;HPD_KB=3;HPD_NGRP=3")
set_property(TEST pdgemm_check_overlap_np4 APPEND PROPERTY ENVIRONMENT
             "HPD_STRATEGY=overlap;HPD_KB=4")
