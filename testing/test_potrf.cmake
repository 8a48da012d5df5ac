# pdpotrf_ (src/factor/) against exact factors: served by the look-ahead on one line of
# the grid and on 2-D grids (either factor), directly on one process.  Like every test
# that judges the engine, it runs with the engine forced (testing/CMakeLists.txt), so
# that a 2-D class's first call, which the dispatch rule opens on the reference, reaches
# the 2-D algorithm too.
hpd_add_program(test_potrf test_potrf.c dist_matrix.c)
foreach(grid 1x1 1x2 1x3 1x4 2x1 3x1 2x2 2x3 3x2)
  string(REPLACE "x" ";" pq ${grid})
  list(GET pq 0 p)
  list(GET pq 1 q)
  math(EXPR np "${p} * ${q}")
  hpd_add_mpi_test(potrf_${grid} ${np} test_potrf ${p} ${q})
  set_tests_properties(potrf_${grid} PROPERTIES LABELS "quick" TIMEOUT 120 PROCESSORS ${np}
    PASS_REGULAR_EXPRESSION "potrf ${grid}: [0-9]+ cases, [0-9]+ checks, 0 failed")
endforeach()
