# The overlap schedule's pieces on matrices large enough to be cut, against the reference
# in the same run, on each grid shape: A cut by rows (1x2), B by columns (2x1), A cut
# while B travels whole (2x2).
hpd_add_program(test_pieces test_pieces.c dist_matrix.c)
foreach(grid 1x2 2x1 2x2)
  string(REPLACE "x" ";" pq ${grid})
  list(GET pq 0 p)
  list(GET pq 1 q)
  math(EXPR np "${p} * ${q}")
  hpd_add_mpi_test(pieces_${grid} ${np} test_pieces ${p} ${q})
  set_tests_properties(pieces_${grid} PROPERTIES LABELS "quick" TIMEOUT 240
    PROCESSORS ${np}
    ENVIRONMENT "OPENBLAS_NUM_THREADS=1;HPD_STRATEGY=overlap;HPD_DISPATCH=engine"
    PASS_REGULAR_EXPRESSION "pieces ${grid}: [0-9]+ checks, 0 failed")
endforeach()
