# pdlaswp_ (src/swap/) against ScaLAPACK's own in the same run, on every grid shape the
# suite uses: identical results, and every call served by hpdaemon.
hpd_add_program(test_laswp test_laswp.c dist_matrix.c)
foreach(grid 1x1 1x2 2x1 1x3 3x1 2x2)
  string(REPLACE "x" ";" pq ${grid})
  list(GET pq 0 p)
  list(GET pq 1 q)
  math(EXPR np "${p} * ${q}")
  hpd_add_mpi_test(laswp_${grid} ${np} test_laswp ${p} ${q})
  set_tests_properties(laswp_${grid} PROPERTIES LABELS "quick" TIMEOUT 120 PROCESSORS ${np}
    PASS_REGULAR_EXPRESSION "laswp ${grid}: [0-9]+ cases, [0-9]+ checks, 0 failed")
endforeach()
