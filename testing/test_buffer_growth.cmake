# The group buffers grow over the calls of a class settled on the engine, within its spare time.
hpd_add_program(test_buffer_growth test_buffer_growth.c dist_matrix.c)
hpd_add_mpi_test(buffer_growth 2 test_buffer_growth)
set_tests_properties(buffer_growth PROPERTIES LABELS "quick;dispatch" TIMEOUT 120
  ENVIRONMENT "OPENBLAS_NUM_THREADS=1"
  PASS_REGULAR_EXPRESSION "test_buffer_growth: [0-9]+ passed, 0 failed")
