# pdtrsm_, pdtrmm_ and pdsymm_ on one line of the grid, large enough for the local solve
# to be halved, every letter combination, against the reference in the same run: on 1x2
# the left-side calls lie on one line and the right-side ones are turned, on 2x1 the
# other way round.
hpd_add_program(test_line test_line.c dist_matrix.c)
foreach(grid 1x2 2x1)
  string(REPLACE "x" ";" pq ${grid})
  list(GET pq 0 p)
  list(GET pq 1 q)
  hpd_add_mpi_test(line_${grid} 2 test_line ${p} ${q})
  set_tests_properties(line_${grid} PROPERTIES LABELS "quick" TIMEOUT 240 PROCESSORS 2
    ENVIRONMENT "OPENBLAS_NUM_THREADS=1"
    PASS_REGULAR_EXPRESSION "line ${grid}: [0-9]+ checks, 0 failed")
endforeach()
