# pdgetrf_ (src/factor/) against ScaLAPACK's own on matrices whose factors are exact:
# served by the engine on one process row, turned on one process column (where sub(A) is
# at most twice as tall as wide), on the 2-D grid elsewhere, directly on one process.
hpd_add_program(test_getrf test_getrf.c dist_matrix.c)
foreach(grid 1x1 1x2 1x3 1x4 2x1 3x1 2x2 2x3 3x2)
  string(REPLACE "x" ";" pq ${grid})
  list(GET pq 0 p)
  list(GET pq 1 q)
  math(EXPR np "${p} * ${q}")
  hpd_add_mpi_test(getrf_${grid} ${np} test_getrf ${p} ${q})
  set_tests_properties(getrf_${grid} PROPERTIES LABELS "quick" TIMEOUT 120 PROCESSORS ${np}
    PASS_REGULAR_EXPRESSION "getrf ${grid}: [0-9]+ cases, [0-9]+ checks, 0 failed")
endforeach()
